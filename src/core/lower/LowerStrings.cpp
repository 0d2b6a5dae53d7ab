// Lowering of string literals, operators, comparisons, indexing and iteration.
#include "lower/LowerStrings.h"

#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"
#include "runtime/Strings.h"
#include "typing/ArrayTyping.h"

#include <llvm/IR/Constants.h>

#include <functional>

namespace taipan {

void requireHostForStrings(FunctionLowering &lowering, SourceLocation location) {
  if (lowering.module().target.hasThreadHierarchy())
    throwUnsupported("strings are not supported on the GPU (only constant strings in print() "
                     "and exception messages)",
                     location);
}

llvm::Value *lowerStringLiteral(FunctionLowering &lowering, const std::string &text) {
  requireHostForStrings(lowering, {});
  llvm::Module &module = lowering.module().module;
  llvm::LLVMContext &context = lowering.llvmContext();
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

llvm::Value *asStringValue(FunctionLowering &lowering, llvm::Value *value, const Type *type) {
  if (type->kind() == TypeKind::StringLiteral)
    return lowerStringLiteral(lowering, type->text());
  return value;
}

llvm::Value *stringLength(FunctionLowering &lowering, llvm::Value *string) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *dataAddress =
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), string, runtime::MemInfoDataOffset);
  llvm::Value *data = builder.CreateLoad(builder.getPtrTy(), dataAddress);
  return builder.CreateLoad(builder.getInt64Ty(), data);
}

llvm::Value *callStringRuntime(FunctionLowering &lowering, const char *name, llvm::Type *result,
                               llvm::ArrayRef<llvm::Value *> arguments) {
  std::vector<llvm::Type *> parameters;
  for (llvm::Value *argument : arguments)
    parameters.push_back(argument->getType());
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  return builder.CreateCall(lowering.module().runtimeFunction(name, result, parameters), arguments);
}

llvm::Value *callStringFunction(FunctionLowering &lowering, const char *name,
                                llvm::ArrayRef<llvm::Value *> arguments) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *result = callStringRuntime(lowering, name, builder.getPtrTy(), arguments);
  lowering.exitIf(builder.CreateIsNull(result), builder.getInt32(1));
  lowering.addTemporary(result, types::unicode());
  return result;
}

llvm::Value *lowerStringBinary(FunctionLowering &lowering, BinaryOp op, llvm::Value *left,
                               const Type *leftType, llvm::Value *right, const Type *rightType) {
  if (op == BinaryOp::Add)
    return callStringFunction(
        lowering, "taipan_str_concat",
        {asStringValue(lowering, left, leftType), asStringValue(lowering, right, rightType)});
  // s * n or n * s.
  bool stringFirst = leftType->isString();
  llvm::Value *string = stringFirst ? asStringValue(lowering, left, leftType)
                                    : asStringValue(lowering, right, rightType);
  llvm::Value *count = stringFirst ? lowering.castValue(right, rightType, types::int64())
                                   : lowering.castValue(left, leftType, types::int64());
  return callStringFunction(lowering, "taipan_str_repeat", {string, count});
}

llvm::Value *lowerStringComparison(FunctionLowering &lowering, CompareOp op, llvm::Value *left,
                                   const Type *leftType, llvm::Value *right,
                                   const Type *rightType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  left = asStringValue(lowering, left, leftType);
  right = asStringValue(lowering, right, rightType);
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    llvm::Value *found = builder.CreateICmpNE(
        callStringRuntime(lowering, "taipan_str_contains", builder.getInt8Ty(), {right, left}),
        builder.getInt8(0));
    return op == CompareOp::In ? found : builder.CreateNot(found);
  }
  llvm::Value *order =
      callStringRuntime(lowering, "taipan_str_compare", builder.getInt32Ty(), {left, right});
  llvm::Value *zero = builder.getInt32(0);
  switch (op) {
  case CompareOp::Eq:
    return builder.CreateICmpEQ(order, zero);
  case CompareOp::NotEq:
    return builder.CreateICmpNE(order, zero);
  case CompareOp::Lt:
    return builder.CreateICmpSLT(order, zero);
  case CompareOp::LtE:
    return builder.CreateICmpSLE(order, zero);
  case CompareOp::Gt:
    return builder.CreateICmpSGT(order, zero);
  default:
    return builder.CreateICmpSGE(order, zero);
  }
}

llvm::Value *parseString(FunctionLowering &lowering, llvm::Value *value, const Type *type,
                         const Type *target) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *string = asStringValue(lowering, value, type);
  if (target->isBoolean())
    return builder.CreateICmpNE(stringLength(lowering, string), builder.getInt64(0));
  bool integer = target->isInteger();
  llvm::Type *resultType = integer ? builder.getInt64Ty() : builder.getDoubleTy();
  llvm::AllocaInst *slot = lowering.createEntryAlloca(resultType, "parsed");
  llvm::Value *status =
      integer ? callStringRuntime(lowering, "taipan_str_to_int64", builder.getInt32Ty(),
                                  {string, builder.getInt64(10), slot})
              : callStringRuntime(lowering, "taipan_str_to_float64", builder.getInt32Ty(),
                                  {string, slot});
  lowering.exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  llvm::Value *parsed = builder.CreateLoad(resultType, slot);
  return lowering.castValue(parsed, integer ? types::int64() : types::float64(), target);
}

llvm::Value *stringItem(FunctionLowering &lowering, llvm::Value *string, llvm::Value *index) {
  return callStringFunction(lowering, "taipan_str_getitem", {string, index});
}

llvm::Value *lowerStringSubscript(FunctionLowering &lowering, Expr *expr) {
  requireHostForStrings(lowering, expr->location);
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  Expr *base = expr->operands[0];
  Expr *index = expr->operands[1];
  llvm::Value *string = asStringValue(lowering, lowering.lowerExpr(base), lowering.typeOf(base));
  if (lowering.typeOf(index) == types::sliceValue()) { // s[sl] of a slice object passed in
    llvm::Value *slice = lowering.lowerExpr(index);
    return callStringFunction(lowering, "taipan_str_slice",
                              {string, builder.CreateExtractValue(slice, 0),
                               builder.CreateExtractValue(slice, 1),
                               builder.CreateExtractValue(slice, 2), builder.getInt32(7)});
  }
  if (lowering.typeOf(index) != sliceType())
    return stringItem(lowering, string, lowering.lowerExprAs(index, types::int64()));
  // s[a:b:c]: the bounds given, and a mask of which (None counts as not given).
  llvm::Value *bounds[3];
  llvm::Value *given = builder.getInt32(0);
  Expr *slice = index;
  for (unsigned i = 0; i < 3; ++i) {
    Expr *part = i < slice->operands.size() ? slice->operands[i] : nullptr;
    if (!part || lowering.typeOf(part)->isNone()) {
      bounds[i] = builder.getInt64(0);
      continue;
    }
    bounds[i] = lowering.lowerExprAs(part, types::int64());
    given = builder.CreateOr(given, builder.getInt32(1u << i));
  }
  return callStringFunction(lowering, "taipan_str_slice",
                            {string, bounds[0], bounds[1], bounds[2], given});
}

} // namespace taipan
