// Lowering of string literals, operators, comparisons, indexing and iteration.
#include "lower/FunctionLowering.h"
#include "lower/ThreeWayOrder.h"

#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"
#include "runtime/Strings.h"
#include "typing/ArrayTyping.h"

#include <llvm/IR/Constants.h>

#include <functional>

namespace taipan {

StringLowering::StringLowering(FunctionLowering &core) : LoweringRoom(core) {}

void StringLowering::requireHostForStrings(SourceLocation location) {
  if (core.module().target.hasThreadHierarchy())
    throwUnsupported("strings are not supported on the GPU (only constant strings in print() "
                     "and exception messages)",
                     location);
}

llvm::Value *StringLowering::lowerStringLiteral(const std::string &text) {
  requireHostForStrings({});
  llvm::Module &module = core.module().module;
  llvm::LLVMContext &context = core.llvmContext();
  std::string name = "taipan.string." + std::to_string(std::hash<std::string>()(text)) + "." +
                     std::to_string(text.size());
  if (llvm::GlobalVariable *existing = module.getNamedGlobal(name))
    return existing;
  // CPython's representation of the text: code points in the smallest kind that fits them.
  std::vector<uint32_t> points;
  const auto *in = reinterpret_cast<const unsigned char *>(text.data());
  for (size_t i = 0; i < text.size();) {
    uint32_t c = in[i];
    int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    if (extra)
      c &= (0x3F >> extra);
    for (int k = 1; k <= extra && i + k < text.size(); ++k)
      c = (c << 6) | (in[i + k] & 0x3F);
    points.push_back(c);
    i += 1 + extra;
  }
  uint32_t largest = 0;
  for (uint32_t c : points)
    largest = std::max(largest, c);
  unsigned kind = largest < 256 ? 1 : largest < 65536 ? 2 : 4;
  llvm::Type *unit = llvm::Type::getIntNTy(context, kind * 8);
  std::vector<llvm::Constant *> units;
  for (uint32_t c : points)
    units.push_back(llvm::ConstantInt::get(unit, c));
  units.push_back(llvm::ConstantInt::get(unit, 0));
  auto *unitsType = llvm::ArrayType::get(unit, units.size());
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  // MemInfo {references, data, size, destructor, payload}, then StringData.
  auto *type =
      llvm::StructType::get(context, {i64, ptr, i64, ptr, ptr, i64, i32, i32, i64, unitsType});
  auto *global = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::PrivateLinkage,
                                          nullptr, name);
  global->setAlignment(llvm::Align(16));
  llvm::Constant *data = llvm::ConstantExpr::getInBoundsGetElementPtr(
      type, global,
      llvm::ArrayRef<llvm::Constant *>{llvm::ConstantInt::get(i32, 0),
                                       llvm::ConstantInt::get(i32, 5)});
  global->setInitializer(llvm::ConstantStruct::get(
      type, {llvm::ConstantInt::get(i64, int64_t{1} << 62), data,
             llvm::ConstantInt::get(i64, sizeof(runtime::StringData) + units.size() * kind),
             llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr)),
             llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr)),
             llvm::ConstantInt::get(i64, points.size()), llvm::ConstantInt::get(i32, kind),
             llvm::ConstantInt::get(i32, largest < 128 ? 1 : 0), llvm::ConstantInt::get(i64, -1),
             llvm::ConstantArray::get(unitsType, units)}));
  return global;
}

llvm::Value *StringLowering::asStringValue(llvm::Value *value, const Type *type) {
  if (type->kind() == TypeKind::StringLiteral)
    return lowerStringLiteral(type->text());
  return value;
}

llvm::Value *StringLowering::stringLength(llvm::Value *string) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  llvm::Value *dataAddress =
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), string, runtime::MemInfoDataOffset);
  llvm::Value *data = builder.CreateLoad(builder.getPtrTy(), dataAddress);
  return builder.CreateLoad(builder.getInt64Ty(), data);
}

llvm::Value *StringLowering::callStringRuntime(const char *name, llvm::Type *result,
                                               llvm::ArrayRef<llvm::Value *> arguments) {
  std::vector<llvm::Type *> parameters;
  for (llvm::Value *argument : arguments)
    parameters.push_back(argument->getType());
  llvm::IRBuilder<> &builder = core.irBuilder();
  return builder.CreateCall(core.module().runtimeFunction(name, result, parameters), arguments);
}

llvm::Value *StringLowering::callStringFunction(const char *name,
                                                llvm::ArrayRef<llvm::Value *> arguments) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  llvm::Value *result = callStringRuntime(name, builder.getPtrTy(), arguments);
  core.exitIf(builder.CreateIsNull(result), builder.getInt32(1));
  core.addTemporary(result, types::unicode());
  return result;
}

llvm::Value *StringLowering::lowerStringBinary(BinaryOp op, llvm::Value *left, const Type *leftType,
                                               llvm::Value *right, const Type *rightType) {
  if (op == BinaryOp::Add)
    return callStringFunction("taipan_str_concat",
                              {asStringValue(left, leftType), asStringValue(right, rightType)});
  // s * n or n * s.
  bool stringFirst = leftType->isString();
  llvm::Value *string =
      stringFirst ? asStringValue(left, leftType) : asStringValue(right, rightType);
  llvm::Value *count = stringFirst ? core.castValue(right, rightType, types::int64())
                                   : core.castValue(left, leftType, types::int64());
  return callStringFunction("taipan_str_repeat", {string, count});
}

llvm::Value *StringLowering::lowerStringComparison(CompareOp op, llvm::Value *left,
                                                   const Type *leftType, llvm::Value *right,
                                                   const Type *rightType) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  left = asStringValue(left, leftType);
  right = asStringValue(right, rightType);
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    llvm::Value *found = builder.CreateICmpNE(
        callStringRuntime("taipan_str_contains", builder.getInt8Ty(), {right, left}),
        builder.getInt8(0));
    return op == CompareOp::In ? found : builder.CreateNot(found);
  }
  llvm::Value *order = callStringRuntime("taipan_str_compare", builder.getInt32Ty(), {left, right});
  return compareThreeWayOrder(builder, op, order);
}

llvm::Value *StringLowering::parseString(llvm::Value *value, const Type *type, const Type *target) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  llvm::Value *string = asStringValue(value, type);
  if (target->isBoolean())
    return builder.CreateICmpNE(stringLength(string), builder.getInt64(0));
  bool integer = target->isInteger();
  llvm::Type *resultType = integer ? builder.getInt64Ty() : builder.getDoubleTy();
  llvm::AllocaInst *slot = core.createEntryAlloca(resultType, "parsed");
  llvm::Value *status =
      integer ? callStringRuntime("taipan_str_to_int64", builder.getInt32Ty(),
                                  {string, builder.getInt64(10), slot})
              : callStringRuntime("taipan_str_to_float64", builder.getInt32Ty(), {string, slot});
  core.exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  llvm::Value *parsed = builder.CreateLoad(resultType, slot);
  return core.castValue(parsed, integer ? types::int64() : types::float64(), target);
}

llvm::Value *StringLowering::stringItem(llvm::Value *string, llvm::Value *index) {
  return callStringFunction("taipan_str_getitem", {string, index});
}

llvm::Value *StringLowering::lowerStringSubscript(Expr *expr) {
  requireHostForStrings(expr->location);
  llvm::IRBuilder<> &builder = core.irBuilder();
  Expr *base = expr->operands[0];
  Expr *index = expr->operands[1];
  llvm::Value *string = asStringValue(core.lowerExpr(base), core.typeOf(base));
  if (core.typeOf(index)->kind() == TypeKind::Slice) { // s[sl] of a slice object
    llvm::Value *slice = core.lowerExpr(index);
    core.exceptions().raiseIf(
        builder.CreateICmpEQ(builder.CreateExtractValue(slice, 2), builder.getInt64(0)),
        ValueErrorId, "slice step cannot be zero");
    return callStringFunction("taipan_str_slice",
                              {string, builder.CreateExtractValue(slice, 0),
                               builder.CreateExtractValue(slice, 1),
                               builder.CreateExtractValue(slice, 2), builder.getInt32(7)});
  }
  if (core.typeOf(index) != sliceType())
    return stringItem(string, core.lowerExprAs(index, types::int64()));
  // s[a:b:c]: the bounds given, and a mask of which (None counts as not given).
  llvm::Value *bounds[3];
  llvm::Value *given = builder.getInt32(0);
  Expr *slice = index;
  for (unsigned i = 0; i < 3; ++i) {
    Expr *part = i < slice->operands.size() ? slice->operands[i] : nullptr;
    if (!part || core.typeOf(part)->isNone()) {
      bounds[i] = builder.getInt64(0);
      continue;
    }
    bounds[i] = core.lowerExprAs(part, types::int64());
    given = builder.CreateOr(given, builder.getInt32(1u << i));
  }
  return callStringFunction("taipan_str_slice", {string, bounds[0], bounds[1], bounds[2], given});
}

void StringLowering::printText(const std::string &text) {
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_print_text", builder.getVoidTy(),
                                                    {builder.getPtrTy()}),
                     {moduleLowering.stringConstant(text)});
}

void StringLowering::printValue(llvm::Value *value, const Type *type) {
  auto call = [&](const char *symbol, const Type *as) {
    llvm::Value *converted = core.castValue(value, type, as);
    std::vector<llvm::Value *> values;
    if (as->isComplex()) {
      llvm::Value *imag;
      values.push_back(core.operators().complexParts(converted, imag));
      values.push_back(imag);
    } else {
      values.push_back(as->isBoolean() ? toMemoryForm(builder, converted, as) : converted);
    }
    std::vector<llvm::Type *> parameters;
    for (llvm::Value *v : values)
      parameters.push_back(v->getType());
    builder.CreateCall(moduleLowering.runtimeFunction(symbol, builder.getVoidTy(), parameters),
                       values);
  };
  switch (type->kind()) {
  case TypeKind::Boolean:
    return call("taipan_print_bool", type);
  case TypeKind::Integer:
    return type->isSigned() ? call("taipan_print_int64", types::int64())
                            : call("taipan_print_uint64", types::uint64());
  case TypeKind::Float:
    // print() writes str(): a float32 as NumPy prints its scalars, not as the double it holds.
    return type == types::float32() ? call("taipan_print_float32", type)
                                    : call("taipan_print_float64", types::float64());
  case TypeKind::Complex:
    return call("taipan_print_complex128", types::complex128());
  case TypeKind::Unicode:
    return call("taipan_str_print", type);
  case TypeKind::Tuple: {
    // A named tuple prints as its repr: `Point(x=1, y=2.5)`, named by its class's __name__.
    bool named = type->isNamedTuple();
    printText(named ? type->text().substr(type->text().rfind('.') + 1) + "(" : "(");
    for (size_t i = 0; i < type->elements().size(); ++i) {
      if (i)
        printText(", ");
      if (named)
        printText(type->fieldNames()[i] + "=");
      printValue(core.tupleElement(value, type, static_cast<unsigned>(i)), type->elements()[i]);
    }
    printText(type->elements().size() == 1 && !named ? ",)" : ")");
    return;
  }
  default:
    printText("None");
  }
}

} // namespace taipan
