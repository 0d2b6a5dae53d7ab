// Array expressions: an elementwise expression tree (operators and ufuncs, whose element
// lowering the library's entries give) becomes one loop with no temporary arrays.
#include "lower/FunctionLowering.h"

#include <map>

namespace taipan {
namespace {

const Type *scalarOf(const Type *type) { return type->isArray() ? type->dtype() : type; }

} // namespace

bool FunctionLowering::isElementwise(const Expr *expr) const {
  const Type *type = typeOf(expr);
  if (!type || !type->isArray())
    return false;
  switch (expr->kind) {
  case ExprKind::BinOp:
    return expr->binaryOp != BinaryOp::MatMult;
  case ExprKind::UnaryOp:
    return true;
  case ExprKind::Compare:
    return expr->compareOps.size() == 1;
  case ExprKind::Call: { // a ufunc: a library entry with a kernel
    auto call = function.libraryCalls.find(expr->id);
    return call != function.libraryCalls.end() && call->second.function->ufunc;
  }
  default:
    return false;
  }
}

void FunctionLowering::collectElementwiseLeaves(Expr *expr, std::vector<Expr *> &leaves) {
  size_t first = expr->kind == ExprKind::Call ? 1 : 0;
  for (size_t i = first; i < expr->operands.size(); ++i) {
    Expr *operand = expr->operands[i];
    if (isElementwise(operand))
      collectElementwiseLeaves(operand, leaves);
    else
      leaves.push_back(operand);
  }
}

llvm::Value *FunctionLowering::lowerElementwise(Expr *expr) {
  const Type *resultType = typeOf(expr);
  int ndim = resultType->ndim();
  std::vector<Expr *> leaves;
  collectElementwiseLeaves(expr, leaves);
  std::map<const Expr *, llvm::Value *> leafValues;
  std::vector<Expr *> arrayLeaves;
  for (Expr *leaf : leaves) {
    leafValues[leaf] = lowerExpr(leaf);
    if (typeOf(leaf)->isArray())
      arrayLeaves.push_back(leaf);
  }
  // The broadcast shape: trailing dimensions line up; an extent of 1 stretches.
  std::vector<llvm::Value *> shape(ndim, builder.getInt64(1));
  for (Expr *leaf : arrayLeaves) {
    const Type *leafType = typeOf(leaf);
    int offset = ndim - leafType->ndim();
    for (int i = 0; i < leafType->ndim(); ++i) {
      llvm::Value *extent = arrayField(leafValues[leaf], ArrayLayout::Shape, i);
      llvm::Value *current = shape[offset + i];
      llvm::Value *merged =
          builder.CreateSelect(builder.CreateICmpEQ(current, builder.getInt64(1)), extent, current);
      raiseIf(builder.CreateAnd(builder.CreateICmpNE(extent, builder.getInt64(1)),
                                builder.CreateICmpNE(extent, merged)),
              ValueErrorId, "operands could not be broadcast together");
      shape[offset + i] = merged;
    }
  }
  llvm::Value *result = allocateArray(resultType, shape);
  const Type *dtype = resultType->dtype();
  bool savedContext = insideElementwise;
  insideElementwise = true;
  // One element: the leaves' elements (at the addresses `addressOf` gives; scalar leaves as they
  // are), through the expression tree, stored at `resultAddress`. Emitted by `lowering`, this
  // function or the outlined body of a parallel loop, with the leaves' values it holds.
  auto evaluate =
      [&](FunctionLowering &lowering, const std::map<const Expr *, llvm::Value *> &values,
          const std::function<llvm::Value *(Expr *)> &addressOf, llvm::Value *resultAddress) {
        std::map<const Expr *, llvm::Value *> scalars;
        for (Expr *leaf : leaves)
          scalars[leaf] = typeOf(leaf)->isArray()
                              ? lowering.loadElement(addressOf(leaf), typeOf(leaf)->dtype())
                              : values.at(leaf);
        lowering.storeElement(
            resultAddress,
            lowering.castValue(lowering.elementwiseScalar(expr, scalars), dtype, dtype), dtype);
      };
  // When every operand is C-contiguous with the result's shape, one flat loop over the items:
  // addresses are base + i * itemsize, which LLVM vectorises. In a parallel=True function the
  // items are split over the thread pool.
  bool allContiguous = true;
  for (Expr *leaf : arrayLeaves)
    allContiguous &= typeOf(leaf)->layout() == 'C' && typeOf(leaf)->ndim() == ndim;
  llvm::BasicBlock *general = newBlock("elementwise.general");
  llvm::BasicBlock *done = newBlock("elementwise.done");
  if (allContiguous) {
    llvm::Value *sameShape = builder.getInt1(true);
    for (Expr *leaf : arrayLeaves)
      for (int i = 0; i < ndim; ++i)
        sameShape = builder.CreateAnd(
            sameShape,
            builder.CreateICmpEQ(arrayField(leafValues[leaf], ArrayLayout::Shape, i), shape[i]));
    llvm::BasicBlock *flat = newBlock("elementwise.flat");
    builder.CreateCondBr(sameShape, flat, general);
    builder.SetInsertPoint(flat);
    std::vector<llvm::Value *> captured = {result};
    for (Expr *leaf : leaves)
      captured.push_back(leafValues[leaf]);
    forEachIndexInParallel(arrayField(result, ArrayLayout::ItemCount), captured,
                           [&](FunctionLowering &lowering, llvm::Value *index,
                               const std::vector<llvm::Value *> &values) {
                             std::map<const Expr *, llvm::Value *> held;
                             for (size_t k = 0; k < leaves.size(); ++k)
                               held[leaves[k]] = values[k + 1];
                             auto linear = [&](llvm::Value *array, const Type *type) {
                               return lowering.irBuilder().CreateInBoundsGEP(
                                   memoryType(context, type->dtype()),
                                   lowering.arrayField(array, ArrayLayout::Data), index);
                             };
                             evaluate(
                                 lowering, held,
                                 [&](Expr *leaf) { return linear(held.at(leaf), typeOf(leaf)); },
                                 linear(values[0], resultType));
                           });
    builder.CreateBr(done);
  } else {
    builder.CreateBr(general);
  }
  builder.SetInsertPoint(general);
  forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    evaluate(
        *this, leafValues,
        [&](Expr *leaf) {
          const Type *leafType = typeOf(leaf);
          llvm::Value *array = leafValues[leaf];
          int offset = ndim - leafType->ndim();
          std::vector<llvm::Value *> index;
          for (int i = 0; i < leafType->ndim(); ++i) {
            llvm::Value *extent = arrayField(array, ArrayLayout::Shape, i);
            index.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                                 builder.getInt64(0), at[offset + i]));
          }
          return elementAddress(array, leafType, index);
        },
        elementAddress(result, resultType, at));
  });
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  insideElementwise = savedContext;
  return result;
}

llvm::Value *
FunctionLowering::elementwiseScalar(Expr *expr,
                                    const std::map<const Expr *, llvm::Value *> &leaves) {
  auto found = leaves.find(expr);
  if (found != leaves.end())
    return found->second;
  const Type *result = scalarOf(typeOf(expr));
  auto operandType = [&](Expr *operand) { return scalarOf(typeOf(operand)); };
  switch (expr->kind) {
  case ExprKind::BinOp: {
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    return lowerBinary(expr->binaryOp, elementwiseScalar(left, leaves), operandType(left),
                       elementwiseScalar(right, leaves), operandType(right), result);
  }
  case ExprKind::Compare: {
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    return lowerComparison(expr->compareOps[0], elementwiseScalar(left, leaves), operandType(left),
                           elementwiseScalar(right, leaves), operandType(right));
  }
  case ExprKind::UnaryOp: {
    Expr *operand = expr->operands[0];
    llvm::Value *value = elementwiseScalar(operand, leaves);
    const Type *type = operandType(operand);
    if (expr->unaryOp == UnaryOp::Invert && type->isBoolean())
      return builder.CreateNot(value);
    llvm::Value *converted = castValue(value, type, result);
    if (expr->unaryOp == UnaryOp::Pos)
      return converted;
    if (expr->unaryOp == UnaryOp::Invert)
      return builder.CreateNot(converted);
    return lowerNegation(converted, result);
  }
  case ExprKind::Call: {
    const LibraryCall &call = function.libraryCalls.at(expr->id);
    checkLibraryTarget(call);
    std::vector<llvm::Value *> values;
    std::vector<const Type *> types;
    for (Expr *argument : call.arguments) {
      values.push_back(elementwiseScalar(argument, leaves));
      types.push_back(operandType(argument));
    }
    return lowerUfuncElement(call, values, types);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "not an elementwise expression", expr->location);
  }
}

llvm::Value *FunctionLowering::lowerUfuncElement(const LibraryCall &call,
                                                 const std::vector<llvm::Value *> &values,
                                                 const std::vector<const Type *> &types) {
  std::vector<llvm::Value *> converted;
  for (size_t i = 0; i < values.size(); ++i)
    converted.push_back(castValue(values[i], types[i], call.loop.inputs[i]));
  return call.function->ufunc->lowerElement(*this, call, converted);
}

} // namespace taipan
