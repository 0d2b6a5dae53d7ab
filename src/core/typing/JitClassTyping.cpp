// Fields of jitclass instances: their types and what may be stored into them.
#include "typing/JitClassTyping.h"

#include "types/NumericPromotion.h"

namespace taipan {

std::string classFieldName(const Type *instance, const std::string &name) {
  if (!instance || !isClassInstance(instance) || !classFieldsLayout(instance))
    return "";
  if (instance->fieldIndex(name) >= 0)
    return name;
  bool isPrivate = name.size() > 2 && name.compare(0, 2, "__") == 0 &&
                   name.compare(name.size() - 2, 2, "__") != 0;
  if (!isPrivate)
    return "";
  std::string className = instance->text();
  className.erase(0, className.find_first_not_of('_'));
  std::string mangled = "_" + className + name;
  return instance->fieldIndex(mangled) >= 0 ? mangled : "";
}

const Type *classFieldType(const Type *instance, const std::string &name) {
  std::string field = classFieldName(instance, name);
  return field.empty() ? nullptr
                       : instance->fieldTypes()[static_cast<size_t>(instance->fieldIndex(field))];
}

bool classFieldAccepts(const Type *field, const Type *value) {
  if (!field || !value)
    return false;
  if (field == value)
    return true;
  if (field->isNumber() && value->isNumber()) {
    if (field->isBoolean())
      return value->isBoolean();
    if (field->isInteger())
      return value->isIntegerLike();
    return field->isComplex() || !value->isComplex();
  }
  if (field->isOptional()) // None, the value's type, or an optional of it
    return value->isNone() || classFieldAccepts(field->optionalValue(), value) ||
           (value->isOptional() &&
            classFieldAccepts(field->optionalValue(), value->optionalValue()));
  if (isClassInstance(field) || isClassInstance(value))
    return false;
  return unifyTypes(field, value) == field;
}

std::string binaryOperatorMethod(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "__add__";
  case BinaryOp::Sub:
    return "__sub__";
  case BinaryOp::Mult:
    return "__mul__";
  case BinaryOp::Div:
    return "__truediv__";
  case BinaryOp::FloorDiv:
    return "__floordiv__";
  case BinaryOp::Mod:
    return "__mod__";
  case BinaryOp::Pow:
    return "__pow__";
  case BinaryOp::LShift:
    return "__lshift__";
  case BinaryOp::RShift:
    return "__rshift__";
  case BinaryOp::BitAnd:
    return "__and__";
  case BinaryOp::BitOr:
    return "__or__";
  case BinaryOp::BitXor:
    return "__xor__";
  case BinaryOp::MatMult:
    return "__matmul__";
  }
  return "";
}

std::string builtinClassMethod(const std::string &builtin) {
  for (const char *name : {"len", "hash", "str", "bool", "abs", "int", "float", "complex"})
    if (builtin == name)
      return "__" + builtin + "__";
  return "";
}

std::string unaryOperatorMethod(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "__neg__";
  case UnaryOp::Pos:
    return "__pos__";
  case UnaryOp::Invert:
    return "__invert__";
  default:
    return "";
  }
}

std::string comparisonMethod(CompareOp op) {
  switch (op) {
  case CompareOp::Eq:
    return "__eq__";
  case CompareOp::NotEq:
    return "__ne__";
  case CompareOp::Lt:
    return "__lt__";
  case CompareOp::LtE:
    return "__le__";
  case CompareOp::Gt:
    return "__gt__";
  case CompareOp::GtE:
    return "__ge__";
  default:
    return "";
  }
}

} // namespace taipan
