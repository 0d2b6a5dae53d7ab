// Array expressions: an elementwise expression tree (operators and ufuncs, whose element
// lowering the library's entries give) becomes one loop with no temporary arrays.
#include "lower/FunctionLowering.h"

#include <map>

namespace taipan {
namespace {

const Type *scalarOf(const Type *type) { return type->isArray() ? type->dtype() : type; }

} // namespace

bool ArrayLowering::isElementwise(const Expr *expr) const {
  const Type *type = core.typeOf(expr);
  if (!type || !type->isArray())
    return false;
  // An operator typing bound to the user's implementation (an overload of operator.add, a
  // jitclass's __add__) is a call of it, whatever it returns: its operands need not be arrays or
  // numbers, so it is neither fused nor a fused expression's operand.
  if (function.calls.count(expr->id))
    return false;
  switch (expr->kind) {
  case ExprKind::BinOp:
    return expr->binaryOp != BinaryOp::MatMult;
  case ExprKind::UnaryOp:
    return true;
  case ExprKind::Compare:
    return expr->compareOps.size() == 1;
  case ExprKind::Call: { // a ufunc: a library entry with a kernel, making a new array
    auto call = function.libraryCalls.find(expr->id);
    return call != function.libraryCalls.end() && call->second.function->ufunc &&
           call->second.form == FusedUfuncCall;
  }
  default:
    return false;
  }
}

void ArrayLowering::collectElementwiseLeaves(Expr *expr, std::vector<Expr *> &leaves) {
  size_t first = expr->kind == ExprKind::Call ? 1 : 0;
  for (size_t i = first; i < expr->operands.size(); ++i) {
    Expr *operand = expr->operands[i];
    if (isElementwise(operand))
      collectElementwiseLeaves(operand, leaves);
    else
      leaves.push_back(operand);
  }
}

ArrayLowering::ElementwiseOperands ArrayLowering::prepareElementwise(Expr *expr) {
  ElementwiseOperands operands;
  int ndim = core.typeOf(expr)->ndim();
  collectElementwiseLeaves(expr, operands.leaves);
  for (Expr *leaf : operands.leaves) {
    operands.values[leaf] = core.lowerExpr(leaf);
    if (core.typeOf(leaf)->isArray())
      operands.arrays.push_back(leaf);
  }
  // The broadcast shape: trailing dimensions line up; an extent of 1 stretches.
  operands.shape.assign(ndim, builder.getInt64(1));
  for (Expr *leaf : operands.arrays) {
    const Type *leafType = core.typeOf(leaf);
    int offset = ndim - leafType->ndim();
    for (int i = 0; i < leafType->ndim(); ++i) {
      llvm::Value *extent = arrayField(operands.values[leaf], ArrayLayout::Shape, i);
      llvm::Value *current = operands.shape[offset + i];
      llvm::Value *merged =
          builder.CreateSelect(builder.CreateICmpEQ(current, builder.getInt64(1)), extent, current);
      core.exceptions().raiseIf(builder.CreateAnd(builder.CreateICmpNE(extent, builder.getInt64(1)),
                                                  builder.CreateICmpNE(extent, merged)),
                                ValueErrorId, "operands could not be broadcast together");
      operands.shape[offset + i] = merged;
    }
  }
  operands.contiguous = true;
  for (Expr *leaf : operands.arrays)
    operands.contiguous &= core.typeOf(leaf)->layout() == 'C' && core.typeOf(leaf)->ndim() == ndim;
  return operands;
}

llvm::Value *ArrayLowering::elementwiseFlatPath(const ElementwiseOperands &operands) {
  llvm::Value *sameShape = builder.getInt1(operands.contiguous);
  if (operands.contiguous)
    for (Expr *leaf : operands.arrays)
      for (size_t i = 0; i < operands.shape.size(); ++i)
        sameShape = builder.CreateAnd(
            sameShape, builder.CreateICmpEQ(arrayField(operands.values.at(leaf), ArrayLayout::Shape,
                                                       static_cast<int>(i)),
                                            operands.shape[i]));
  return sameShape;
}

llvm::Value *ArrayLowering::elementwiseItem(Expr *expr, const ElementwiseOperands &operands,
                                            const std::map<const Expr *, llvm::Value *> &held,
                                            const std::function<llvm::Value *(Expr *)> &address) {
  const Type *dtype = core.typeOf(expr)->dtype();
  std::map<const Expr *, llvm::Value *> scalars;
  for (Expr *leaf : operands.leaves)
    scalars[leaf] = core.typeOf(leaf)->isArray()
                        ? loadElement(address(leaf), core.typeOf(leaf)->dtype())
                        : held.at(leaf);
  bool saved = core.useNumpyArithmetic(true);
  llvm::Value *item = core.castValue(elementwiseScalar(expr, scalars), dtype, dtype);
  core.useNumpyArithmetic(saved);
  return item;
}

llvm::Value *ArrayLowering::broadcastAddress(Expr *leaf, llvm::Value *array,
                                             const std::vector<llvm::Value *> &at) {
  const Type *leafType = core.typeOf(leaf);
  int offset = static_cast<int>(at.size()) - leafType->ndim();
  std::vector<llvm::Value *> index;
  for (int i = 0; i < leafType->ndim(); ++i) {
    llvm::Value *extent = arrayField(array, ArrayLayout::Shape, i);
    index.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                         builder.getInt64(0), at[offset + i]));
  }
  return elementAddress(array, leafType, index);
}

/// The address of item `index` of a C-contiguous array of `type`.
static llvm::Value *flatAddress(LoweringApi &lowering, llvm::Value *array, const Type *type,
                                llvm::Value *index) {
  return lowering.irBuilder().CreateInBoundsGEP(
      memoryType(lowering.llvmContext(), type->dtype()),
      lowering.arrays().arrayField(array, ArrayLayout::Data), index);
}

llvm::Value *ArrayLowering::lowerElementwise(Expr *expr) {
  const Type *resultType = core.typeOf(expr);
  const Type *dtype = resultType->dtype();
  ElementwiseOperands operands = prepareElementwise(expr);
  llvm::Value *result = allocateArray(resultType, operands.shape);
  // When every operand is C-contiguous with the result's shape, one flat loop over the items:
  // addresses are base + i * itemsize, which LLVM vectorises. In a parallel=True function the
  // items are split over the thread pool (the loop outlined, the operands captured).
  llvm::BasicBlock *flat = core.newBlock("elementwise.flat");
  llvm::BasicBlock *general = core.newBlock("elementwise.general");
  llvm::BasicBlock *done = core.newBlock("elementwise.done");
  builder.CreateCondBr(elementwiseFlatPath(operands), flat, general);
  builder.SetInsertPoint(flat);
  if (operands.contiguous) {
    std::vector<llvm::Value *> captured = {result};
    for (Expr *leaf : operands.leaves)
      captured.push_back(operands.values.at(leaf));
    core.loops().forEachIndexInParallel(
        arrayField(result, ArrayLayout::ItemCount), captured,
        [&](FunctionLowering &lowering, llvm::Value *index,
            const std::vector<llvm::Value *> &values) {
          std::map<const Expr *, llvm::Value *> held;
          for (size_t k = 0; k < operands.leaves.size(); ++k)
            held[operands.leaves[k]] = values[k + 1];
          llvm::Value *item =
              lowering.arrays().elementwiseItem(expr, operands, held, [&](Expr *leaf) {
                return flatAddress(lowering, held.at(leaf), core.typeOf(leaf), index);
              });
          lowering.arrays().storeElement(flatAddress(lowering, values[0], resultType, index), item,
                                         dtype);
        });
  }
  builder.CreateBr(done);
  // Broadcast or strided operands: nested loops, the outermost split over the thread pool in a
  // parallel=True function.
  builder.SetInsertPoint(general);
  std::vector<llvm::Value *> captured = {result};
  for (Expr *leaf : operands.leaves)
    captured.push_back(operands.values.at(leaf));
  forEachOuterIndex(operands.shape, captured,
                    [&](FunctionLowering &lowering, const std::vector<llvm::Value *> &at,
                        const std::vector<llvm::Value *> &values) {
                      std::map<const Expr *, llvm::Value *> held;
                      for (size_t k = 0; k < operands.leaves.size(); ++k)
                        held[operands.leaves[k]] = values[k + 1];
                      llvm::Value *item =
                          lowering.arrays().elementwiseItem(expr, operands, held, [&](Expr *leaf) {
                            return lowering.arrays().broadcastAddress(leaf, held.at(leaf), at);
                          });
                      lowering.arrays().storeElement(
                          lowering.arrays().elementAddress(values[0], resultType, at), item, dtype);
                    });
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  return result;
}

void ArrayLowering::forEachOuterIndex(
    const std::vector<llvm::Value *> &shape, const std::vector<llvm::Value *> &captured,
    const std::function<void(FunctionLowering &, const std::vector<llvm::Value *> &,
                             const std::vector<llvm::Value *> &)> &body) {
  if (shape.empty()) { // a 0-d result: one item
    body(core, {}, captured);
    return;
  }
  // The inner extents travel with the captured values; a chunk of outer indices is worth a
  // thread when it holds enough items.
  std::vector<llvm::Value *> values = captured;
  llvm::Value *innerItems = builder.getInt64(1);
  for (size_t axis = 1; axis < shape.size(); ++axis) {
    values.push_back(shape[axis]);
    innerItems = builder.CreateMul(innerItems, shape[axis]);
  }
  llvm::Value *grain =
      builder.CreateUDiv(builder.getInt64(LoopLowering::ElementsPerThreadStart),
                         builder.CreateSelect(builder.CreateICmpEQ(innerItems, builder.getInt64(0)),
                                              builder.getInt64(1), innerItems));
  core.loops().forEachIndexInParallel(
      shape[0], values,
      [&](FunctionLowering &lowering, llvm::Value *first, const std::vector<llvm::Value *> &held) {
        std::vector<llvm::Value *> inner(held.begin() + captured.size(), held.end());
        std::vector<llvm::Value *> mine(held.begin(), held.begin() + captured.size());
        lowering.arrays().forEachIndex(inner, [&](const std::vector<llvm::Value *> &rest) {
          std::vector<llvm::Value *> at = {first};
          at.insert(at.end(), rest.begin(), rest.end());
          body(lowering, at, mine);
        });
      },
      grain);
}

llvm::Value *ArrayLowering::reduceElementwise(
    Expr *expr, llvm::Value *identity,
    const std::function<llvm::Value *(LoweringApi &, llvm::Value *, llvm::Value *)> &step,
    const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &combine) {
  ElementwiseOperands operands = prepareElementwise(expr);
  llvm::AllocaInst *result = core.createEntryAlloca(identity->getType(), "elementwise.reduced");
  llvm::BasicBlock *flat = core.newBlock("elementwise.flat");
  llvm::BasicBlock *general = core.newBlock("elementwise.general");
  llvm::BasicBlock *done = core.newBlock("elementwise.done");
  builder.CreateCondBr(elementwiseFlatPath(operands), flat, general);
  builder.SetInsertPoint(flat);
  if (operands.contiguous) {
    llvm::Value *count = builder.getInt64(1);
    for (llvm::Value *extent : operands.shape)
      count = builder.CreateMul(count, extent);
    std::vector<llvm::Value *> captured;
    for (Expr *leaf : operands.leaves)
      captured.push_back(operands.values.at(leaf));
    builder.CreateStore(
        core.loops().reduceInParallel(
            count, captured, identity,
            [&](LoweringApi &lowering, llvm::Value *accumulator, llvm::Value *index,
                const std::vector<llvm::Value *> &values) {
              std::map<const Expr *, llvm::Value *> held;
              for (size_t k = 0; k < operands.leaves.size(); ++k)
                held[operands.leaves[k]] = values[k];
              llvm::Value *item =
                  lowering.arrays().elementwiseItem(expr, operands, held, [&](Expr *leaf) {
                    return flatAddress(lowering, held.at(leaf), core.typeOf(leaf), index);
                  });
              return step(lowering, accumulator, item);
            },
            combine),
        result);
  }
  builder.CreateBr(done);
  // Broadcast or strided operands: each chunk of the outermost axis folds its rows.
  builder.SetInsertPoint(general);
  llvm::Type *accumulatorType = identity->getType();
  if (operands.shape.empty()) {
    llvm::Value *item = elementwiseItem(expr, operands, operands.values, [&](Expr *leaf) {
      return broadcastAddress(leaf, operands.values.at(leaf), {});
    });
    builder.CreateStore(step(core, identity, item), result);
  } else {
    std::vector<llvm::Value *> captured;
    for (Expr *leaf : operands.leaves)
      captured.push_back(operands.values.at(leaf));
    llvm::Value *innerItems = builder.getInt64(1);
    for (size_t axis = 1; axis < operands.shape.size(); ++axis) {
      captured.push_back(operands.shape[axis]);
      innerItems = builder.CreateMul(innerItems, operands.shape[axis]);
    }
    llvm::Value *grain = builder.CreateUDiv(
        builder.getInt64(LoopLowering::ElementsPerThreadStart),
        builder.CreateSelect(builder.CreateICmpEQ(innerItems, builder.getInt64(0)),
                             builder.getInt64(1), innerItems));
    size_t leafCount = operands.leaves.size();
    builder.CreateStore(
        core.loops().reduceInParallel(
            operands.shape[0], captured, identity,
            [&](LoweringApi &lowering, llvm::Value *accumulator, llvm::Value *first,
                const std::vector<llvm::Value *> &values) {
              std::map<const Expr *, llvm::Value *> held;
              for (size_t k = 0; k < leafCount; ++k)
                held[operands.leaves[k]] = values[k];
              std::vector<llvm::Value *> inner(values.begin() + leafCount, values.end());
              llvm::IRBuilder<> &rowBuilder = lowering.irBuilder();
              llvm::AllocaInst *row =
                  lowering.createEntryAlloca(accumulatorType, "elementwise.row");
              rowBuilder.CreateStore(accumulator, row);
              lowering.arrays().forEachIndex(inner, [&](const std::vector<llvm::Value *> &rest) {
                std::vector<llvm::Value *> at = {first};
                at.insert(at.end(), rest.begin(), rest.end());
                llvm::Value *item =
                    lowering.arrays().elementwiseItem(expr, operands, held, [&](Expr *leaf) {
                      return lowering.arrays().broadcastAddress(leaf, held.at(leaf), at);
                    });
                rowBuilder.CreateStore(
                    step(lowering, rowBuilder.CreateLoad(accumulatorType, row), item), row);
              });
              return rowBuilder.CreateLoad(accumulatorType, row);
            },
            combine, grain),
        result);
  }
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  return builder.CreateLoad(identity->getType(), result);
}

llvm::Value *ArrayLowering::elementwiseScalar(Expr *expr,
                                              const std::map<const Expr *, llvm::Value *> &leaves) {
  auto found = leaves.find(expr);
  if (found != leaves.end())
    return found->second;
  const Type *result = scalarOf(core.typeOf(expr));
  auto operandType = [&](Expr *operand) { return scalarOf(core.typeOf(operand)); };
  switch (expr->kind) {
  case ExprKind::BinOp: {
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    llvm::Value *leftValue = elementwiseScalar(left, leaves);
    llvm::Value *rightValue = elementwiseScalar(right, leaves);
    const Type *leftType = operandType(left);
    const Type *rightType = operandType(right);
    // Integers whose array result is a float compute in it, as NumPy's loop does: an int8 and
    // a uint64 add as float64, where the scalar operators' promotion (int64, Numba's for a
    // signed integer and a uint64) would read a uint64 of 2**63 or more as negative.
    if ((result->isFloat() || result->isComplex()) && leftType->isIntegerLike() &&
        rightType->isIntegerLike()) {
      leftValue = core.castValue(leftValue, leftType, result);
      rightValue = core.castValue(rightValue, rightType, result);
      leftType = rightType = result;
    }
    return core.operators().lowerBinary(expr->binaryOp, leftValue, leftType, rightValue, rightType,
                                        result);
  }
  case ExprKind::Compare: {
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    return core.operators().lowerComparison(expr->compareOps[0], elementwiseScalar(left, leaves),
                                            operandType(left), elementwiseScalar(right, leaves),
                                            operandType(right));
  }
  case ExprKind::UnaryOp: {
    Expr *operand = expr->operands[0];
    llvm::Value *value = elementwiseScalar(operand, leaves);
    const Type *type = operandType(operand);
    if (expr->unaryOp == UnaryOp::Invert && type->isBoolean())
      return builder.CreateNot(value);
    llvm::Value *converted = core.castValue(value, type, result);
    if (expr->unaryOp == UnaryOp::Pos)
      return converted;
    if (expr->unaryOp == UnaryOp::Invert)
      return builder.CreateNot(converted);
    return core.operators().lowerNegation(converted, result);
  }
  case ExprKind::Call: {
    const LibraryCall &call = function.libraryCalls.at(expr->id);
    core.checkLibraryTarget(call);
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

llvm::Value *ArrayLowering::lowerUfuncElement(const LibraryCall &call,
                                              const std::vector<llvm::Value *> &values,
                                              const std::vector<const Type *> &types) {
  std::vector<llvm::Value *> converted;
  for (size_t i = 0; i < values.size(); ++i)
    converted.push_back(core.castValue(values[i], types[i], call.loop.inputs[i]));
  return call.function->ufunc->lowerElement(core, call, converted);
}

} // namespace taipan
