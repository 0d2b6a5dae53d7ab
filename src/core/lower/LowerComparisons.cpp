// Comparisons with Python's semantics: chains (a < b < c), `is`, `in` of tuples and generators,
// tuples compared lexicographically, and numbers, strings, datetimes and None compared.
#include "lower/FunctionLowering.h"
#include "lower/LowerCharSequences.h"
#include "types/CharSequences.h"
#include "typing/ArrayTyping.h"
#include "typing/JitClassTyping.h"

#include "lower/LowerDatetime.h"
#include "lower/StringLowering.h"
#include "lower/ThreeWayOrder.h"

#include "types/NumericPromotion.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace taipan {

llvm::Value *OperatorLowering::lowerComparison(CompareOp op, llvm::Value *left,
                                               const Type *leftType, llvm::Value *right,
                                               const Type *rightType) {
  if (leftType->isOptional() || rightType->isOptional())
    if (llvm::Value *result = core.lowerOptionalComparison(op, left, leftType, right, rightType))
      return result;
  if (op == CompareOp::Is)
    return lowerIdentity(left, leftType, right, rightType);
  if (op == CompareOp::IsNot)
    return builder.CreateNot(lowerIdentity(left, leftType, right, rightType));
  if (leftType->isString() && rightType->isString())
    return core.strings().lowerStringComparison(op, left, leftType, right, rightType);
  if (types::isByteCharSequence(leftType) && types::isByteCharSequence(rightType)) {
    // byte strings (`S n` items, bytes literals): by their bytes, NUL padding left out
    llvm::Value *order = compareByteStrings(core, left, leftType, right, rightType);
    return compareThreeWayOrder(builder, op, order);
  }
  // A string never equals a number (`"1" == 1` is False, as in Python).
  if ((op == CompareOp::Eq || op == CompareOp::NotEq) &&
      ((leftType->isString() && rightType->isNumber()) ||
       (leftType->isNumber() && rightType->isString())))
    return builder.getInt1(op == CompareOp::NotEq);
  if (leftType->isDatetimeLike() && rightType->isDatetimeLike() && op != CompareOp::In &&
      op != CompareOp::NotIn)
    return lowerDatetimeComparison(core, op, left, leftType, right, rightType);
  // Two dtypes (a.dtype, a np.dtype global, np.float64) are equal when they name one type.
  const Type *leftDtype = dtypeFromArgument(leftType);
  const Type *rightDtype = dtypeFromArgument(rightType);
  if ((op == CompareOp::Eq || op == CompareOp::NotEq) && leftDtype && rightDtype)
    return builder.getInt1((leftDtype == rightDtype) != (op == CompareOp::NotEq));
  // None equals only None (`x == None` where x is a number is False, as in Python).
  if ((op == CompareOp::Eq || op == CompareOp::NotEq) && !leftType->isArray() &&
      !rightType->isArray() && (leftType->isNone() || rightType->isNone()))
    return builder.getInt1((leftType->isNone() && rightType->isNone()) != (op == CompareOp::NotEq));
  if ((op == CompareOp::In || op == CompareOp::NotIn) && rightType->isArray()) {
    // `x in a`: every item compared with x as `==` compares them (NaN is in no array).
    llvm::AllocaInst *found = core.createEntryAlloca(builder.getInt1Ty(), "in.found");
    builder.CreateStore(builder.getFalse(), found);
    const Type *dtype = rightType->dtype();
    core.arrays().forEachIndex(
        core.arrays().arrayShape(right, rightType), [&](const std::vector<llvm::Value *> &at) {
          llvm::Value *item =
              core.arrays().loadElement(core.arrays().elementAddress(right, rightType, at), dtype);
          llvm::Value *equal = lowerComparison(CompareOp::Eq, left, leftType, item, dtype);
          builder.CreateStore(
              builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), found), equal), found);
        });
    llvm::Value *result = builder.CreateLoad(builder.getInt1Ty(), found);
    return op == CompareOp::In ? result : builder.CreateNot(result);
  }
  if ((op == CompareOp::In || op == CompareOp::NotIn) && rightType->isGenerator()) {
    // Resumes the generator until an item equals `left` (what is left of it stays unread, as
    // in CPython).
    llvm::AllocaInst *found = core.createEntryAlloca(builder.getInt1Ty(), "in.found");
    builder.CreateStore(builder.getFalse(), found);
    llvm::BasicBlock *header = core.newBlock("in.next");
    llvm::BasicBlock *hit = core.newBlock("in.hit");
    llvm::BasicBlock *end = core.newBlock("in.end");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    size_t mark = core.temporaries.size();
    const Type *itemType = rightType->yieldType();
    llvm::Value *item = core.generators().nextGeneratorItem(right, rightType, end);
    llvm::Value *equal = lowerComparison(CompareOp::Eq, left, leftType, item, itemType);
    core.releaseTemporaries(mark);
    builder.CreateCondBr(equal, hit, header);
    builder.SetInsertPoint(hit);
    builder.CreateStore(builder.getTrue(), found);
    builder.CreateBr(end);
    builder.SetInsertPoint(end);
    llvm::Value *result = builder.CreateLoad(builder.getInt1Ty(), found);
    return op == CompareOp::In ? result : builder.CreateNot(result);
  }
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    llvm::Value *found = builder.getInt1(false);
    for (size_t i = 0; i < rightType->elements().size(); ++i) {
      const Type *elementType = rightType->elements()[i];
      if (!comparisonOperandType(CompareOp::Eq, leftType, elementType) &&
          !(leftType->isString() && elementType->isString()))
        continue;
      llvm::Value *element = core.tupleElement(right, rightType, static_cast<unsigned>(i));
      found = builder.CreateOr(
          found, lowerComparison(CompareOp::Eq, left, leftType, element, elementType));
    }
    return op == CompareOp::In ? found : builder.CreateNot(found);
  }
  if (leftType->isTuple() && rightType->isTuple())
    return lowerTupleComparison(op, left, leftType, right, rightType);
  const Type *common = comparisonOperandType(op, leftType, rightType);
  // A float16 against an integer of 8 bits or fewer (which float16 holds exactly) compares in
  // float16, as numba-cuda converts it: the same answer as in float32, and PTX's setp.f16.
  auto heldInHalf = [](const Type *type) {
    return (type->isFloat() && type->bits() == 16) || (type->isInteger() && type->bits() <= 8);
  };
  bool halfOperand = (leftType->isFloat() && leftType->bits() == 16) ||
                     (rightType->isFloat() && rightType->bits() == 16);
  if (halfOperand && common->isFloat() && common->bits() > 16 && heldInHalf(leftType) &&
      heldInHalf(rightType))
    common = types::floating(16);
  llvm::Value *a = core.castValue(left, leftType, common);
  llvm::Value *b = core.castValue(right, rightType, common);
  if (common->isNone())
    return builder.getInt1(op == CompareOp::Eq || op == CompareOp::LtE || op == CompareOp::GtE);
  if (common->isComplex()) {
    llvm::Value *ai, *bi;
    llvm::Value *ar = complexParts(a, ai);
    llvm::Value *br = complexParts(b, bi);
    llvm::Value *equal =
        builder.CreateAnd(builder.CreateFCmpOEQ(ar, br), builder.CreateFCmpOEQ(ai, bi));
    return op == CompareOp::Eq ? equal : builder.CreateNot(equal);
  }
  if (common->isFloat()) {
    switch (op) {
    case CompareOp::Eq:
      return builder.CreateFCmpOEQ(a, b);
    case CompareOp::NotEq:
      return builder.CreateFCmpUNE(a, b);
    case CompareOp::Lt:
      return builder.CreateFCmpOLT(a, b);
    case CompareOp::LtE:
      return builder.CreateFCmpOLE(a, b);
    case CompareOp::Gt:
      return builder.CreateFCmpOGT(a, b);
    default:
      return builder.CreateFCmpOGE(a, b);
    }
  }
  bool isSigned = common->isInteger() && common->isSigned();
  switch (op) {
  case CompareOp::Eq:
    return builder.CreateICmpEQ(a, b);
  case CompareOp::NotEq:
    return builder.CreateICmpNE(a, b);
  case CompareOp::Lt:
    return isSigned ? builder.CreateICmpSLT(a, b) : builder.CreateICmpULT(a, b);
  case CompareOp::LtE:
    return isSigned ? builder.CreateICmpSLE(a, b) : builder.CreateICmpULE(a, b);
  case CompareOp::Gt:
    return isSigned ? builder.CreateICmpSGT(a, b) : builder.CreateICmpUGT(a, b);
  default:
    return isSigned ? builder.CreateICmpSGE(a, b) : builder.CreateICmpUGE(a, b);
  }
}

llvm::Value *OperatorLowering::lowerIdentity(llvm::Value *left, const Type *leftType,
                                             llvm::Value *right, const Type *rightType) {
  // None, modules, functions and classes are singletons their type names.
  if (!leftType->isRuntimeValue() || !rightType->isRuntimeValue() || leftType->isNone() ||
      rightType->isNone())
    return builder.getInt1(leftType == rightType);
  if (leftType->isPointer() && rightType->isPointer())
    return builder.CreateICmpEQ(left, right);
  // jitclass instances are their blocks: the same block is the same instance.
  if (isClassInstance(leftType) && leftType == rightType)
    return builder.CreateICmpEQ(left, right);
  // Values of different types are different objects. Numbers of one type compare by value, as
  // in Numba (CPython's answer for equal numbers depends on its caches); tuples item by item.
  if (leftType != rightType)
    return builder.getInt1(false);
  if (leftType->isTuple()) {
    llvm::Value *same = builder.getInt1(true);
    for (size_t i = 0; i < leftType->elements().size(); ++i) {
      auto index = static_cast<unsigned>(i);
      same = builder.CreateAnd(same, lowerIdentity(core.tupleElement(left, leftType, index),
                                                   leftType->elements()[i],
                                                   core.tupleElement(right, rightType, index),
                                                   rightType->elements()[i]));
    }
    return same;
  }
  if (leftType->isNumber())
    return lowerComparison(CompareOp::Eq, left, leftType, right, rightType);
  throw CompileError(CompileErrorKind::Internal, "'is' between " + leftType->name() + " values",
                     {});
}

llvm::Value *OperatorLowering::lowerTupleComparison(CompareOp op, llvm::Value *left,
                                                    const Type *leftType, llvm::Value *right,
                                                    const Type *rightType) {
  // Python compares tuples lexicographically: the first unequal pair decides, else the lengths.
  size_t leftCount = leftType->elements().size();
  size_t rightCount = rightType->elements().size();
  auto compareCounts = [&](CompareOp compare) {
    switch (compare) {
    case CompareOp::Eq:
      return leftCount == rightCount;
    case CompareOp::NotEq:
      return leftCount != rightCount;
    case CompareOp::Lt:
      return leftCount < rightCount;
    case CompareOp::LtE:
      return leftCount <= rightCount;
    case CompareOp::Gt:
      return leftCount > rightCount;
    default:
      return leftCount >= rightCount;
    }
  };
  llvm::Value *result = builder.getInt1(compareCounts(op));
  for (size_t i = std::min(leftCount, rightCount); i-- > 0;) {
    const Type *a = leftType->elements()[i];
    const Type *b = rightType->elements()[i];
    llvm::Value *x = core.tupleElement(left, leftType, static_cast<unsigned>(i));
    llvm::Value *y = core.tupleElement(right, rightType, static_cast<unsigned>(i));
    llvm::Value *equal = lowerComparison(CompareOp::Eq, x, a, y, b);
    llvm::Value *decided = op == CompareOp::Eq      ? builder.getInt1(false)
                           : op == CompareOp::NotEq ? builder.getInt1(true)
                                                    : lowerComparison(op, x, a, y, b);
    result = builder.CreateSelect(equal, result, decided);
  }
  return result;
}

llvm::Value *OperatorLowering::lowerCompareChain(Expr *expr) {
  auto list = function.libraryCalls.find(expr->id); // `x in l`, `a == b` of lists
  if (list != function.libraryCalls.end())
    return core.lowerLibraryCall(list->second);
  // a < b < c evaluates b once and stops at the first false comparison.
  llvm::BasicBlock *end = core.newBlock("cmp.end");
  std::vector<std::pair<llvm::Value *, llvm::BasicBlock *>> incoming;
  llvm::Value *left = core.lowerExpr(expr->operands[0]);
  const Type *leftType = core.typeOf(expr->operands[0]);
  llvm::Value *result = nullptr;
  for (size_t i = 0; i < expr->compareOps.size(); ++i) {
    Expr *rightExpr = expr->operands[i + 1];
    llvm::Value *right = core.lowerExpr(rightExpr);
    result = lowerComparison(expr->compareOps[i], left, leftType, right, core.typeOf(rightExpr));
    if (i + 1 < expr->compareOps.size()) {
      llvm::BasicBlock *next = core.newBlock("cmp.next");
      incoming.push_back({builder.getInt1(false), builder.GetInsertBlock()});
      builder.CreateCondBr(result, next, end);
      builder.SetInsertPoint(next);
    }
    left = right;
    leftType = core.typeOf(rightExpr);
  }
  incoming.push_back({result, builder.GetInsertBlock()});
  builder.CreateBr(end);
  builder.SetInsertPoint(end);
  llvm::PHINode *phi = builder.CreatePHI(builder.getInt1Ty(), incoming.size());
  for (auto &[value, block] : incoming)
    phi->addIncoming(value, block);
  return phi;
}

} // namespace taipan
