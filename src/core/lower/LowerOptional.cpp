// Optional values in LLVM: {i8 flag, value in memory form}, the flag 1 when there is a value.
// Conversions into and out of them, and their comparisons with None.
#include "lower/FunctionLowering.h"

#include "runtime/Runtime.h"

#include <llvm/IR/Constants.h>

namespace taipan {

llvm::Value *FunctionLowering::castOptional(llvm::Value *value, const Type *from, const Type *to) {
  if (to->isOptional()) {
    llvm::Type *optional = valueType(context, to);
    const Type *target = to->optionalValue();
    llvm::Value *none = llvm::Constant::getNullValue(optional);
    if (from->isNone())
      return none;
    llvm::Value *present = builder.getInt8(1);
    llvm::Value *data = value;
    if (from->isOptional()) {
      // Optional(A) to Optional(B): None stays None, a value converts.
      present = builder.CreateExtractValue(value, 0);
      data = fromMemoryForm(builder, builder.CreateExtractValue(value, 1), from->optionalValue());
      from = from->optionalValue();
    }
    llvm::Value *converted;
    if (from != target && from->holdsReferences() && !llvm::isa<llvm::ConstantInt>(present)) {
      // Converting a reference (a list copied into another item type) reads it: only when
      // there is one. None's payload stays zero (null references).
      llvm::BasicBlock *convert = newBlock("optional.convert");
      llvm::BasicBlock *done = newBlock("optional.converted");
      llvm::BasicBlock *before = builder.GetInsertBlock();
      builder.CreateCondBr(builder.CreateICmpNE(present, builder.getInt8(0)), convert, done);
      builder.SetInsertPoint(convert);
      llvm::Value *value = toMemoryForm(builder, castValue(data, from, target), target);
      llvm::BasicBlock *converting = builder.GetInsertBlock();
      builder.CreateBr(done);
      builder.SetInsertPoint(done);
      llvm::PHINode *phi = builder.CreatePHI(value->getType(), 2);
      phi->addIncoming(llvm::Constant::getNullValue(value->getType()), before);
      phi->addIncoming(value, converting);
      converted = phi;
    } else {
      converted = toMemoryForm(builder, castValue(data, from, target), target);
      if (from != target && !llvm::isa<llvm::ConstantInt>(present)) // a cast of no value is unused
        converted =
            builder.CreateSelect(builder.CreateICmpNE(present, builder.getInt8(0)), converted,
                                 llvm::Constant::getNullValue(converted->getType()));
    }
    llvm::Value *result = builder.CreateInsertValue(none, present, 0);
    return builder.CreateInsertValue(result, converted, 1);
  }
  // Optional(T) read as a value: Numba's cast raises TypeError when it is None.
  const Type *wrapped = from->optionalValue();
  if (to->isNone() || !to->isRuntimeValue())
    return llvm::UndefValue::get(valueType(context, to));
  llvm::Value *absent =
      builder.CreateICmpEQ(builder.CreateExtractValue(value, 0), builder.getInt8(0));
  exceptions().raiseIf(absent, TypeErrorId, "expected " + wrapped->name() + ", got None");
  llvm::Value *data = fromMemoryForm(builder, builder.CreateExtractValue(value, 1), wrapped);
  return castValue(data, wrapped, to);
}

llvm::Value *FunctionLowering::lowerOptionalComparison(CompareOp op, llvm::Value *left,
                                                       const Type *leftType, llvm::Value *right,
                                                       const Type *rightType) {
  if (op != CompareOp::Is && op != CompareOp::IsNot && op != CompareOp::Eq &&
      op != CompareOp::NotEq)
    return nullptr;
  if (rightType->isOptional() && leftType->isNone()) {
    std::swap(left, right);
    std::swap(leftType, rightType);
  }
  if (!leftType->isOptional() || !rightType->isNone())
    return nullptr;
  llvm::Value *isNone =
      builder.CreateICmpEQ(builder.CreateExtractValue(left, 0), builder.getInt8(0));
  return op == CompareOp::Is || op == CompareOp::Eq ? isNone : builder.CreateNot(isNone);
}

} // namespace taipan
