// Result types of builtins. Each family (Python builtins, math, cmath, random, NumPy scalar
// constructors) has one table; lowering implements the same names in lower/LowerBuiltins.cpp.
#include "typing/BuiltinTyping.h"

#include "library/Library.h"

#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/CudaTyping.h"

#include <algorithm>
#include <set>

namespace taipan {
namespace {

const Type *typePythonBuiltin(const std::string &name, const std::vector<const Type *> &arguments,
                              const std::vector<Expr *> &argumentExprs, SourceLocation location) {
  auto allNumbers = [&] {
    return std::all_of(arguments.begin(), arguments.end(),
                       [](const Type *type) { return type->isNumber(); });
  };
  if (name == "abs") {
    if (arguments.size() != 1 || !arguments[0]->isNumber())
      throwNoOverload(name, arguments, location);
    const Type *argument = arguments[0];
    if (argument->isComplex())
      return types::floating(argument->bits() / 2);
    return argument->isBoolean() ? types::int64() : argument;
  }
  if (name == "min" || name == "max") {
    std::vector<const Type *> values = arguments;
    if (arguments.size() == 1 && arguments[0]->isTuple())
      values = arguments[0]->elements();
    if (values.empty() || (arguments.size() == 1 && !arguments[0]->isTuple()))
      throwNoOverload(name, arguments, location);
    const Type *result = nullptr;
    for (const Type *value : values) {
      if (!value->isReal())
        throwNoOverload(name, arguments, location);
      result = result ? (value == result ? result : binaryOperandType(BinaryOp::Add, result, value))
                      : value;
    }
    return result;
  }
  if (name == "round") {
    if (arguments.empty() || arguments.size() > 2 || !arguments[0]->isReal() ||
        (arguments.size() == 2 && !arguments[1]->isIntegerLike()))
      throwNoOverload(name, arguments, location);
    if (arguments.size() == 2)
      return arguments[0]->isFloat() ? arguments[0] : types::int64();
    return types::int64();
  }
  if (name == "int" || name == "float" || name == "bool" || name == "complex") {
    const Type *target = scalarConstructorType(name);
    if (arguments.empty())
      return target;
    if (name == "complex" && arguments.size() == 2 && arguments[0]->isReal() &&
        arguments[1]->isReal())
      return target;
    if (arguments.size() != 1 || !arguments[0]->isNumber())
      throwNoOverload(name, arguments, location);
    if (arguments[0]->isComplex() && name != "complex" && name != "bool")
      throwNoOverload(name, arguments, location);
    return target;
  }
  if (name == "divmod") {
    if (arguments.size() != 2 || !allNumbers())
      throwNoOverload(name, arguments, location);
    const Type *result = binaryOperandType(BinaryOp::FloorDiv, arguments[0], arguments[1]);
    if (!result)
      throwNoOverload(name, arguments, location);
    return types::tuple({result, result});
  }
  if (name == "pow") {
    if (arguments.size() == 3) {
      if (!std::all_of(arguments.begin(), arguments.end(),
                       [](const Type *t) { return t->isIntegerLike(); }))
        throwNoOverload(name, arguments, location);
      return types::int64();
    }
    if (arguments.size() != 2 || !allNumbers())
      throwNoOverload(name, arguments, location);
    return binaryResultType(BinaryOp::Pow, arguments[0], arguments[1]);
  }
  if (name == "len") {
    if (arguments.size() != 1 ||
        !(arguments[0]->isTuple() || arguments[0]->kind() == TypeKind::Range))
      throwNoOverload(name, arguments, location);
    return types::int64();
  }
  if (name == "print") {
    for (size_t i = 0; i < arguments.size(); ++i) {
      const Type *type = arguments[i];
      bool printable = type->isNumber() || type->isNone() ||
                       type->kind() == TypeKind::StringLiteral ||
                       (type->isTuple() &&
                        std::all_of(type->elements().begin(), type->elements().end(),
                                    [](const Type *t) { return t->isNumber() || t->isNone(); }));
      if (!printable)
        throwTypingError("print() cannot print a value of type " + type->name(),
                         argumentExprs[i]->location);
    }
    return types::none();
  }
  if (name == "sum") {
    if (arguments.size() != 1 || !arguments[0]->isTuple())
      throwNoOverload(name, arguments, location);
    const Type *result = types::int64();
    for (const Type *element : arguments[0]->elements()) {
      result = element->isNumber() ? binaryResultType(BinaryOp::Add, result, element) : nullptr;
      if (!result)
        throwNoOverload(name, arguments, location);
    }
    return result;
  }
  if (name == "enumerate" || name == "zip") {
    // Over tuples, both build the tuple of tuples they would yield.
    if (arguments.empty() || (name == "enumerate" && arguments.size() != 1))
      throwNoOverload(name, arguments, location);
    size_t count = SIZE_MAX;
    for (const Type *argument : arguments) {
      if (!argument->isTuple())
        throwUnsupported(name + "() is supported over tuples only", location);
      count = std::min(count, argument->elements().size());
    }
    std::vector<const Type *> items;
    for (size_t i = 0; i < count; ++i) {
      std::vector<const Type *> parts;
      if (name == "enumerate")
        parts.push_back(types::int64());
      for (const Type *argument : arguments)
        parts.push_back(argument->elements()[i]);
      items.push_back(types::tuple(parts));
    }
    return types::tuple(items);
  }
  if (name == "range") {
    if (arguments.empty() || arguments.size() > 3 ||
        !std::all_of(arguments.begin(), arguments.end(),
                     [](const Type *t) { return t->isIntegerLike(); }))
      throwNoOverload(name, arguments, location);
    return types::range();
  }
  throwUnsupported("the builtin " + name + "() is not supported", location);
}

} // namespace

std::string describeArgumentTypes(const std::vector<const Type *> &arguments) {
  std::string text = "(";
  for (size_t i = 0; i < arguments.size(); ++i)
    text += (i ? ", " : "") + arguments[i]->name();
  return text + ")";
}

void throwNoOverload(const std::string &name, const std::vector<const Type *> &arguments,
                     SourceLocation location) {
  throwTypingError("no implementation of " + name + " for argument types " +
                       describeArgumentTypes(arguments),
                   location);
}

const Type *scalarConstructorType(const std::string &name) {
  if (name == "int")
    return types::int64();
  if (name == "float")
    return types::float64();
  if (name == "bool")
    return types::boolean();
  if (name == "complex")
    return types::complex128();
  if (name.rfind("numpy.", 0) == 0)
    return types::scalarByName(name.substr(6));
  return nullptr;
}

bool isKnownBuiltin(const std::string &name) {
  if (Library::get().find(name))
    return true;
  static const std::set<std::string> python = {
      "abs",    "min", "max", "round", "int",   "float", "bool",      "complex",
      "divmod", "pow", "len", "print", "range", "sum",   "enumerate", "zip"};
  if (python.count(name) || scalarConstructorType(name))
    return true;
  if (name.rfind("numpy.", 0) == 0)
    return isUfunc(name); // the library's NumPy functions are found above
  if (name.rfind("cuda.", 0) == 0)
    return isCudaBuiltin(name);
  return name.rfind("math.", 0) == 0 || name.rfind("cmath.", 0) == 0 ||
         name.rfind("random.", 0) == 0 || name.rfind("method.", 0) == 0;
}

const Type *typeBuiltinCall(const std::string &name, const std::vector<const Type *> &arguments,
                            const std::vector<Expr *> &argumentExprs, SourceLocation location) {
  // The library holds every math, cmath and random function taipan implements.
  for (const char *module : {"math.", "cmath.", "random."})
    if (name.rfind(module, 0) == 0)
      throwUnsupported(name + " is not supported", location);
  if (name == "method.conjugate") {
    if (arguments.size() != 1)
      throwNoOverload(name, arguments, location);
    return arguments[0]->isBoolean() ? types::int64() : arguments[0];
  }
  if (name.rfind("numpy.", 0) == 0) {
    const Type *target = scalarConstructorType(name);
    if (!target)
      throwUnsupported(name + " is not supported yet", location);
    if (arguments.size() > 1 || (arguments.size() == 1 && !arguments[0]->isNumber()))
      throwNoOverload(name, arguments, location);
    if (arguments.size() == 1 && arguments[0]->isComplex() && !target->isComplex())
      throwNoOverload(name, arguments, location);
    return target;
  }
  return typePythonBuiltin(name, arguments, argumentExprs, location);
}

const Type *typeValueAttribute(const Type *base, const std::string &attribute) {
  if (!base->isNumber())
    return nullptr;
  if (attribute == "real" || attribute == "imag") {
    if (base->isComplex())
      return types::floating(base->bits() / 2);
    return base->isBoolean() ? types::int64() : base;
  }
  return nullptr;
}

std::string methodBuiltinName(const Type *base, const std::string &method) {
  if (base->isNumber() && method == "conjugate")
    return "method.conjugate";
  return "";
}

} // namespace taipan
