// NumPy's reductions (sum, prod, min, max, mean, std, var, argmin, argmax, any, all over the
// whole array or one axis) and cumulative sums and products, as functions and array methods.
#include "library/NumpySupport.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cstdint>

namespace taipan {
namespace {

/// The first value of a running total of `type`: `value` as a number, or as a count of a
/// timedelta's unit (NaT is a timedelta too, so no conversion from int64 applies).
llvm::Value *startValue(LoweringApi &lowering, int64_t value, const Type *type) {
  if (type->isDatetimeLike())
    return lowering.irBuilder().getInt64(value);
  return lowering.castValue(lowering.irBuilder().getInt64(value), types::int64(), type);
}

/// Reduces the whole array (axis < 0) or the line through `outerIndex` along `axis`.
llvm::Value *reduceRange(LoweringApi &lowering, const std::string &function, llvm::Value *array,
                         const Type *arrayType, const std::vector<llvm::Value *> &outerIndex,
                         int axis, const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::LLVMContext &context = lowering.llvmContext();
  const Type *dtype = arrayType->dtype();
  llvm::Type *i64 = builder.getInt64Ty();
  std::vector<llvm::Value *> shape = lowering.arrays().arrayShape(array, arrayType);
  std::vector<llvm::Value *> loopShape = axis < 0 ? shape : std::vector<llvm::Value *>{shape[axis]};
  llvm::Value *count =
      axis < 0 ? lowering.arrays().arrayField(array, ArrayLayout::ItemCount) : shape[axis];
  auto fullIndex = [&](const std::vector<llvm::Value *> &at) {
    if (axis < 0)
      return at;
    std::vector<llvm::Value *> index = outerIndex;
    index.insert(index.begin() + axis, at[0]);
    return index;
  };
  auto forEachItem = [&](const std::function<void(llvm::Value *, llvm::Value *)> &body) {
    llvm::AllocaInst *position = lowering.createEntryAlloca(i64, "reduce.position");
    builder.CreateStore(builder.getInt64(0), position);
    // Contiguous: one flat loop, in memory order as NumPy visits the items of an F array too
    // (which decides how a float product rounds); argmin and argmax need the C-order position.
    bool memoryOrder = arrayType->layout() == 'C' ||
                       (arrayType->layout() == 'F' && function != "argmin" && function != "argmax");
    if (axis < 0 && memoryOrder) {
      lowering.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *address = builder.CreateInBoundsGEP(
            memoryType(context, dtype), lowering.arrays().arrayField(array, ArrayLayout::Data),
            at[0]);
        body(lowering.arrays().loadElement(address, dtype), at[0]);
      });
      return;
    }
    lowering.arrays().forEachIndex(loopShape, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *index = builder.CreateLoad(i64, position);
      body(lowering.arrays().loadElement(
               lowering.arrays().elementAddress(array, arrayType, fullIndex(at)), dtype),
           index);
      builder.CreateStore(builder.CreateAdd(index, builder.getInt64(1)), position);
    });
  };
  if (function == "sum" || function == "prod" || function == "mean" || function == "var" ||
      function == "std") {
    bool isProduct = function == "prod";
    const Type *accumulatorType = (function == "sum" || function == "prod") ? resultType
                                  : dtype->isComplex()                      ? dtype
                                                                            : types::float64();
    if (function != "sum" && function != "prod" && dtype->isTimedelta())
      accumulatorType = dtype; // a mean of timedeltas is their sum divided by the count
    llvm::Type *accumulatorLLVM = valueType(context, accumulatorType);
    llvm::AllocaInst *total = lowering.createEntryAlloca(accumulatorLLVM, "reduce.total");
    builder.CreateStore(startValue(lowering, isProduct ? 1 : 0, accumulatorType), total);
    // Float sums may be reassociated: LLVM then keeps several partial sums in vector lanes, which
    // is both faster and closer to NumPy's pairwise summation than one running total.
    llvm::FastMathFlags saved = builder.getFastMathFlags();
    llvm::FastMathFlags reassociate = saved;
    reassociate.setAllowReassoc();
    // Products stay in order: NumPy multiplies one item after another, and float32 products
    // reassociated differ from its result by more than an ulp.
    if ((accumulatorType->isFloat() || accumulatorType->isComplex()) && !isProduct)
      builder.setFastMathFlags(reassociate);
    BinaryOp op = isProduct ? BinaryOp::Mult : BinaryOp::Add;
    llvm::Value *sum;
    if (axis < 0 && arrayType->layout() == 'C' && lowering.loops().runsOnThreadPool()) {
      // parallel=True: the items split over the thread pool, partial totals joined in order.
      sum = lowering.loops().reduceInParallel(
          count, {array}, startValue(lowering, isProduct ? 1 : 0, accumulatorType),
          [&](LoweringApi &chunk, llvm::Value *accumulator, llvm::Value *index,
              const std::vector<llvm::Value *> &values) {
            llvm::Value *address = chunk.irBuilder().CreateInBoundsGEP(
                memoryType(context, dtype), chunk.arrays().arrayField(values[0], ArrayLayout::Data),
                index);
            return chunk.operators().lowerBinary(op, accumulator, accumulatorType,
                                                 chunk.arrays().loadElement(address, dtype), dtype,
                                                 accumulatorType);
          },
          [&](llvm::Value *left, llvm::Value *right) {
            return lowering.operators().lowerBinary(op, left, accumulatorType, right,
                                                    accumulatorType, accumulatorType);
          });
    } else {
      forEachItem([&](llvm::Value *item, llvm::Value *) {
        builder.CreateStore(
            lowering.operators().lowerBinary(op, builder.CreateLoad(accumulatorLLVM, total),
                                             accumulatorType, item, dtype, accumulatorType),
            total);
      });
      sum = builder.CreateLoad(accumulatorLLVM, total);
    }
    builder.setFastMathFlags(saved);
    if (function == "sum" || function == "prod")
      return sum;
    bool savedContext = lowering.useNumpyArithmetic(true); // an empty mean is nan, as in NumPy
    llvm::Value *mean = lowering.operators().lowerBinary(BinaryOp::Div, sum, accumulatorType, count,
                                                         types::int64(), accumulatorType);
    if (function == "mean") {
      lowering.useNumpyArithmetic(savedContext);
      return lowering.castValue(mean, accumulatorType, resultType);
    }
    llvm::AllocaInst *squares = lowering.createEntryAlloca(builder.getDoubleTy(), "reduce.squares");
    builder.CreateStore(llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), squares);
    builder.setFastMathFlags(reassociate);
    forEachItem([&](llvm::Value *item, llvm::Value *) {
      llvm::Value *deviation = lowering.operators().lowerBinary(BinaryOp::Sub, item, dtype, mean,
                                                                accumulatorType, accumulatorType);
      llvm::Value *square;
      if (accumulatorType->isComplex()) {
        llvm::Value *imag;
        llvm::Value *real = lowering.operators().complexParts(
            lowering.castValue(deviation, accumulatorType, types::complex128()), imag);
        square = builder.CreateFAdd(builder.CreateFMul(real, real), builder.CreateFMul(imag, imag));
      } else {
        square = builder.CreateFMul(deviation, deviation);
      }
      builder.CreateStore(
          builder.CreateFAdd(builder.CreateLoad(builder.getDoubleTy(), squares), square), squares);
    });
    builder.setFastMathFlags(saved);
    llvm::Value *variance = builder.CreateFDiv(builder.CreateLoad(builder.getDoubleTy(), squares),
                                               builder.CreateSIToFP(count, builder.getDoubleTy()));
    lowering.useNumpyArithmetic(savedContext);
    if (function == "std")
      variance = lowering.callIntrinsic(llvm::Intrinsic::sqrt, {variance});
    return lowering.castValue(variance, types::float64(), resultType);
  }
  if (function == "any" || function == "all") {
    bool isAll = function == "all";
    llvm::AllocaInst *state = lowering.createEntryAlloca(builder.getInt1Ty(), "reduce.truth");
    builder.CreateStore(builder.getInt1(isAll), state);
    forEachItem([&](llvm::Value *item, llvm::Value *) {
      llvm::Value *truth = lowering.truthValue(item, dtype);
      llvm::Value *current = builder.CreateLoad(builder.getInt1Ty(), state);
      builder.CreateStore(
          isAll ? builder.CreateAnd(current, truth) : builder.CreateOr(current, truth), state);
    });
    return builder.CreateLoad(builder.getInt1Ty(), state);
  }
  // min, max, argmin, argmax: NaN wins (NumPy propagates it), the first of equals is kept.
  bool isMax = function == "max" || function == "argmax";
  bool wantIndex = function == "argmin" || function == "argmax";
  lowering.exceptions().raiseIf(builder.CreateICmpEQ(count, builder.getInt64(0)), ValueErrorId,
                                wantIndex ? "attempt to get " + function + " of an empty sequence"
                                          : "zero-size array to reduction operation " +
                                                std::string(isMax ? "maximum" : "minimum") +
                                                " which has no identity");
  if (wantIndex && axis < 0 && arrayType->layout() == 'C' && !dtype->isComplex() &&
      !dtype->isDatetimeLike()) {
    // Two passes beat one: the extreme value by a vectorised reduction, then the first index
    // holding it (or the first NaN), a loop that stops early.
    llvm::Value *extreme =
        reduceRange(lowering, isMax ? "max" : "min", array, arrayType, {}, -1, dtype);
    llvm::Value *lookForNaN =
        dtype->isFloat() ? builder.CreateFCmpUNO(extreme, extreme) : builder.getInt1(false);
    llvm::Value *data = lowering.arrays().arrayField(array, ArrayLayout::Data);
    auto matches = [&](llvm::Value *position) {
      llvm::Value *item = lowering.arrays().loadElement(
          builder.CreateInBoundsGEP(memoryType(context, dtype), data, position), dtype);
      llvm::Value *found =
          lowering.operators().lowerComparison(CompareOp::Eq, item, dtype, extreme, dtype);
      if (dtype->isFloat())
        found = builder.CreateOr(found,
                                 builder.CreateAnd(lookForNaN, builder.CreateFCmpUNO(item, item)));
      return found;
    };
    // Skip whole blocks of 64 whose (vectorised) test finds nothing, then scan one by one.
    constexpr int64_t Block = 64;
    llvm::Value *blocks = builder.CreateSDiv(count, builder.getInt64(Block));
    llvm::Value *tailStart = builder.CreateMul(blocks, builder.getInt64(Block));
    llvm::BasicBlock *before = builder.GetInsertBlock();
    llvm::BasicBlock *blockLoop = lowering.newBlock("argextreme.blocks");
    llvm::BasicBlock *blockTest = lowering.newBlock("argextreme.block");
    llvm::BasicBlock *scanStart = lowering.newBlock("argextreme.scan.start");
    builder.CreateBr(blockLoop);
    builder.SetInsertPoint(blockLoop);
    llvm::PHINode *block = builder.CreatePHI(i64, 2);
    block->addIncoming(builder.getInt64(0), before);
    builder.CreateCondBr(builder.CreateICmpSLT(block, blocks), blockTest, scanStart);
    builder.SetInsertPoint(blockTest);
    llvm::Value *base = builder.CreateMul(block, builder.getInt64(Block));
    llvm::AllocaInst *any = lowering.createEntryAlloca(builder.getInt1Ty(), "argextreme.any");
    builder.CreateStore(builder.getInt1(false), any);
    lowering.arrays().forEachIndex(
        {builder.getInt64(Block)}, [&](const std::vector<llvm::Value *> &at) {
          llvm::Value *found = matches(builder.CreateAdd(base, at[0]));
          builder.CreateStore(builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), any), found),
                              any);
        });
    llvm::Value *nextBlock = builder.CreateAdd(block, builder.getInt64(1));
    llvm::BasicBlock *blockEnd = builder.GetInsertBlock();
    block->addIncoming(nextBlock, blockEnd);
    builder.CreateCondBr(builder.CreateLoad(builder.getInt1Ty(), any), scanStart, blockLoop);
    builder.SetInsertPoint(scanStart);
    llvm::PHINode *from = builder.CreatePHI(i64, 2);
    from->addIncoming(tailStart, blockLoop);
    from->addIncoming(base, blockEnd);
    llvm::BasicBlock *scanBefore = builder.GetInsertBlock();
    llvm::BasicBlock *loop = lowering.newBlock("argextreme.loop");
    llvm::BasicBlock *done = lowering.newBlock("argextreme.done");
    builder.CreateBr(loop);
    builder.SetInsertPoint(loop);
    llvm::PHINode *index = builder.CreatePHI(i64, 2);
    index->addIncoming(from, scanBefore);
    llvm::Value *found = matches(index);
    llvm::Value *next = builder.CreateAdd(index, builder.getInt64(1));
    index->addIncoming(next, loop);
    // The extreme is in the array, so the loop ends by finding it; the bound is a safeguard.
    builder.CreateCondBr(builder.CreateOr(found, builder.CreateICmpSGE(next, count)), done, loop);
    builder.SetInsertPoint(done);
    return index;
  }
  // Start from the identity (the largest value for min), so the loop needs no first-item case.
  llvm::Type *elementLLVM = valueType(context, dtype);
  llvm::Value *identity;
  if (dtype->isFloat())
    identity = llvm::ConstantFP::getInfinity(elementLLVM, isMax);
  else if (dtype->isBoolean())
    identity = builder.getInt1(!isMax);
  else if (dtype->isInteger())
    identity =
        isMax
            ? (dtype->isSigned() ? llvm::ConstantInt::get(
                                       elementLLVM, llvm::APInt::getSignedMinValue(dtype->bits()))
                                 : llvm::ConstantInt::get(elementLLVM, 0))
            : (dtype->isSigned()
                   ? llvm::ConstantInt::get(elementLLVM,
                                            llvm::APInt::getSignedMaxValue(dtype->bits()))
                   : llvm::ConstantInt::get(elementLLVM, llvm::APInt::getMaxValue(dtype->bits())));
  else if (dtype->isDatetimeLike()) // NaT (INT64_MIN) is no candidate: the smallest is one above
    identity = isMax ? builder.getInt64(INT64_MIN + 1) : builder.getInt64(INT64_MAX);
  else
    throwUnsupported(
        "min, max, argmin and argmax of arrays of " + dtype->name() + " are not supported", {});
  llvm::AllocaInst *best = lowering.createEntryAlloca(elementLLVM, "reduce.best");
  llvm::AllocaInst *bestIndex = lowering.createEntryAlloca(i64, "reduce.index");
  builder.CreateStore(identity, best);
  builder.CreateStore(builder.getInt64(0), bestIndex);
  forEachItem([&](llvm::Value *item, llvm::Value *index) {
    llvm::Value *current = builder.CreateLoad(elementLLVM, best);
    if (!wantIndex && dtype->isFloat()) {
      // llvm.minimum/maximum propagate NaN like NumPy, and LLVM vectorises the reduction.
      builder.CreateStore(
          lowering.callIntrinsic(isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum,
                                 {current, item}),
          best);
      return;
    }
    if (dtype->isDatetimeLike()) {
      // NaT wins as NaN does (NumPy 1.18 on): the first NaT is the result.
      llvm::Value *notATime = builder.getInt64(INT64_MIN);
      llvm::Value *better =
          builder.CreateAnd(builder.CreateOr(isMax ? builder.CreateICmpSGT(item, current)
                                                   : builder.CreateICmpSLT(item, current),
                                             builder.CreateICmpEQ(item, notATime)),
                            builder.CreateICmpNE(current, notATime));
      builder.CreateStore(builder.CreateSelect(better, item, current), best);
      if (wantIndex)
        builder.CreateStore(builder.CreateSelect(better, index, builder.CreateLoad(i64, bestIndex)),
                            bestIndex);
      return;
    }
    llvm::Value *better = lowering.operators().lowerComparison(
        isMax ? CompareOp::Gt : CompareOp::Lt, item, dtype, current, dtype);
    if (dtype->isFloat()) {
      // The first NaN wins and stays.
      llvm::Value *itemIsNaN = builder.CreateFCmpUNO(item, item);
      llvm::Value *bestIsNaN = builder.CreateFCmpUNO(current, current);
      better = builder.CreateAnd(builder.CreateOr(better, itemIsNaN), builder.CreateNot(bestIsNaN));
    }
    builder.CreateStore(builder.CreateSelect(better, item, current), best);
    if (wantIndex)
      builder.CreateStore(builder.CreateSelect(better, index, builder.CreateLoad(i64, bestIndex)),
                          bestIndex);
  });
  if (wantIndex)
    return builder.CreateLoad(i64, bestIndex);
  return lowering.castValue(builder.CreateLoad(elementLLVM, best), dtype, resultType);
}

/// A reduction over the whole array, or over `axis` (a run-time int64, or nullptr for none).
llvm::Value *lowerReduction(LoweringApi &lowering, const std::string &function, llvm::Value *array,
                            const Type *arrayType, llvm::Value *axis, const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  int ndim = arrayType->ndim();
  if (!axis || ndim <= 1) {
    if (axis)
      raiseAxisErrorIf(lowering,
                       builder.CreateAnd(builder.CreateICmpNE(axis, builder.getInt64(0)),
                                         builder.CreateICmpNE(axis, builder.getInt64(-1))),
                       axis, ndim);
    return reduceRange(lowering, function, array, arrayType, {}, -1, resultType);
  }
  llvm::Value *given = axis;
  axis = builder.CreateSelect(builder.CreateICmpSLT(axis, builder.getInt64(0)),
                              builder.CreateAdd(axis, builder.getInt64(ndim)), axis);
  raiseAxisErrorIf(lowering, builder.CreateICmpUGE(axis, builder.getInt64(ndim)), given, ndim);
  // The result's shape is the array's without the axis; axis is a run-time value, so each
  // extent is chosen with selects.
  std::vector<llvm::Value *> shape = lowering.arrays().arrayShape(array, arrayType);
  std::vector<llvm::Value *> resultShape;
  for (int d = 0; d + 1 < ndim; ++d)
    resultShape.push_back(builder.CreateSelect(builder.CreateICmpSLT(builder.getInt64(d), axis),
                                               shape[d], shape[d + 1]));
  llvm::Value *result = lowering.arrays().allocateArray(resultType, resultShape);
  // Run-time axis: reduce with a loop for each possible axis, picked by a switch.
  llvm::BasicBlock *done = lowering.newBlock("reduce.done");
  llvm::SwitchInst *choice = builder.CreateSwitch(axis, done, ndim);
  for (int candidate = 0; candidate < ndim; ++candidate) {
    llvm::BasicBlock *block = lowering.newBlock("reduce.axis");
    choice->addCase(builder.getInt64(candidate), block);
    builder.SetInsertPoint(block);
    lowering.arrays().forEachIndex(resultShape, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *item =
          reduceRange(lowering, function, array, arrayType, at, candidate, resultType->dtype());
      lowering.arrays().storeElement(lowering.arrays().elementAddress(result, resultType, at), item,
                                     resultType->dtype());
    });
    builder.CreateBr(done);
  }
  builder.SetInsertPoint(done);
  return result;
}

/// np.sum or np.prod of the array expression `expr`, its items folded as they are computed.
llvm::Value *reduceArrayExpression(LoweringApi &lowering, bool isProduct, Expr *expr,
                                   const Type *accumulatorType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *dtype = lowering.typeOf(expr)->dtype();
  BinaryOp op = isProduct ? BinaryOp::Mult : BinaryOp::Add;
  bool reassociates = (accumulatorType->isFloat() || accumulatorType->isComplex()) && !isProduct;
  return lowering.arrays().reduceElementwise(
      expr, startValue(lowering, isProduct ? 1 : 0, accumulatorType),
      [&](LoweringApi &chunk, llvm::Value *accumulator, llvm::Value *item) {
        // Only the running total may be reassociated (kept in vector lanes), as in the
        // reduction of an array; the items are exactly the array expression's.
        llvm::IRBuilder<> &chunkBuilder = chunk.irBuilder();
        llvm::FastMathFlags saved = chunkBuilder.getFastMathFlags();
        llvm::FastMathFlags reassociate = saved;
        reassociate.setAllowReassoc();
        if (reassociates)
          chunkBuilder.setFastMathFlags(reassociate);
        llvm::Value *next = chunk.operators().lowerBinary(op, accumulator, accumulatorType, item,
                                                          dtype, accumulatorType);
        chunkBuilder.setFastMathFlags(saved);
        return next;
      },
      [&](llvm::Value *left, llvm::Value *right) {
        return lowering.operators().lowerBinary(op, left, accumulatorType, right, accumulatorType,
                                                accumulatorType);
      });
}

/// The integer type sums and products of `dtype` accumulate in (NumPy's: int64 or uint64).
const Type *accumulatorType(const Type *dtype) {
  return dtype->isIntegerLike() ? types::integer(64, dtype->isBoolean() || dtype->isSigned())
                                : dtype;
}

/// The type of `name` (amin...) computing `reduction` (min...): its result for the whole array, an
/// array of one dimension less with an integer axis.
const Type *typeReduction(const std::string &name, const std::string &reduction,
                          const LibraryCall &call) {
  // A number is what NumPy makes of it, a 0-d array of one item.
  const Type *first = call.argumentTypes[0];
  bool scalar = first->isNumber() || first->isDatetimeLike();
  const Type *array = scalar ? types::array(first, 0, 'C', false) : arrayArgument(call);
  const Type *dtype = array->dtype();
  if (array->ndim() == 0 && isGiven(call, 1))
    throwTypingError(name + " of a 0-d array or a number takes no axis (NumPy: axis out of bounds)",
                     call.location);
  bool isExtreme =
      reduction == "min" || reduction == "max" || reduction == "argmin" || reduction == "argmax";
  if (dtype->isComplex() && isExtreme)
    throwUnsupported(name + " of a complex array is not supported", call.location);
  if (!dtype->isNumber() && !dtype->isDatetimeLike()) // records, fixed-width strings
    throwTypingError(name + " of an array of " + dtype->name() + " is not supported",
                     call.location);
  bool timeAllowed = isExtreme || reduction == "any" || reduction == "all" ||
                     (dtype->isTimedelta() && (reduction == "sum" || reduction == "mean"));
  if (dtype->isDatetimeLike() && !timeAllowed)
    throwTypingError(name + " of an array of " + dtype->name() +
                         " is not supported (NumPy has no " + reduction + " of it)",
                     call.location);
  const Type *result;
  if (reduction == "sum" || reduction == "prod")
    result = dtypeArgument(call, 2, accumulatorType(dtype)); // NumPy accumulates in the dtype
  else if (reduction == "mean" && dtype->isTimedelta())
    result = dtype;
  else if (reduction == "mean" || reduction == "std" || reduction == "var")
    result = dtype->isComplex() && reduction == "mean" ? dtype
             : dtype->isFloat() && dtype->bits() == 32 ? types::float32()
                                                       : types::float64();
  else if (reduction == "argmin" || reduction == "argmax")
    result = types::int64();
  else if (reduction == "any" || reduction == "all")
    result = types::boolean();
  else
    result = dtype;
  if (!isGiven(call, 1))
    return result;
  const Type *axis = call.argumentTypes[1];
  if (axis->isTuple()) { // axis=(0, 2): several axes at once (lowerReductionOverAxes)
    bool allowed = reduction == "sum" || reduction == "prod" || reduction == "min" ||
                   reduction == "max" || reduction == "mean";
    for (const Type *element : axis->elements())
      allowed &= element->isInteger();
    if (!allowed || scalar)
      throwTypingError(name + " takes axis as an integer" +
                           (allowed ? std::string() : " or a tuple of integers"),
                       call.location);
    // More axes than the array has always repeats or exceeds one: an error when it runs.
    int kept = array->ndim() - static_cast<int>(axis->elements().size());
    if (axis->elements().empty() && kept > 0) // axis=(): a copy, in NumPy's order 'K'
      return keptOrderCopyType(result, array);
    return kept > 0 ? newArrayType(result, kept) : result;
  }
  if (!axis->isIntegerLike())
    throwTypingError("axis must be an integer", call.location);
  return array->ndim() == 1 ? result : newArrayType(result, array->ndim() - 1);
}

/// A reduction over the axes of the tuple `axes` (NumPy's errors for an axis out of range or
/// given twice): one axis at a time, the highest first, so that the others keep their numbers;
/// each step's lanes have equal counts, so means of means are the mean. `axis=()` copies the
/// array in the result's dtype.
llvm::Value *lowerReductionOverAxes(LoweringApi &lowering, const std::string &function,
                                    llvm::Value *array, const Type *arrayType, llvm::Value *axes,
                                    const Type *axesType, const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  int ndim = arrayType->ndim();
  size_t count = axesType->elements().size();
  std::vector<llvm::Value *> normalized;
  for (size_t i = 0; i < count; ++i) {
    const Type *elementType = axesType->elements()[i];
    llvm::Value *axis =
        lowering.castValue(lowering.tupleElement(axes, axesType, static_cast<unsigned>(i)),
                           elementType, types::int64());
    llvm::Value *given = axis;
    axis = builder.CreateSelect(builder.CreateICmpSLT(axis, builder.getInt64(0)),
                                builder.CreateAdd(axis, builder.getInt64(ndim)), axis);
    raiseAxisErrorIf(lowering, builder.CreateICmpUGE(axis, builder.getInt64(ndim)), given, ndim);
    normalized.push_back(axis);
  }
  for (size_t i = 0; i < count; ++i)
    for (size_t j = i + 1; j < count; ++j)
      lowering.exceptions().raiseIf(builder.CreateICmpEQ(normalized[i], normalized[j]),
                                    ValueErrorId, "duplicate value in 'axis'");
  if (count == 0) {
    llvm::Value *copy =
        lowering.arrays().allocateArray(resultType, lowering.arrays().arrayShape(array, arrayType));
    lowering.arrays().assignIntoArray(copy, resultType, array, arrayType);
    return copy;
  }
  if (static_cast<int>(count) > ndim) // raised above: some axis repeats or is out of range
    return llvm::PoisonValue::get(valueType(lowering.llvmContext(), resultType));
  for (size_t pass = 0; pass < count; ++pass) // highest first: a sorting network of selects
    for (size_t j = 0; j + 1 < count - pass; ++j) {
      llvm::Value *inOrder = builder.CreateICmpSGE(normalized[j], normalized[j + 1]);
      llvm::Value *high = builder.CreateSelect(inOrder, normalized[j], normalized[j + 1]);
      llvm::Value *low = builder.CreateSelect(inOrder, normalized[j + 1], normalized[j]);
      normalized[j] = high;
      normalized[j + 1] = low;
    }
  const Type *dtype = resultType->isArray() ? resultType->dtype() : resultType;
  llvm::Value *reduced = array;
  const Type *reducedType = arrayType;
  for (size_t i = 0; i < count; ++i) {
    const Type *stepType =
        i + 1 == count ? resultType : newArrayType(dtype, ndim - static_cast<int>(i) - 1);
    reduced = lowerReduction(lowering, function, reduced, reducedType, normalized[i], stepType);
    reducedType = stepType;
  }
  return reduced;
}

/// numpy.<name>(a, axis=None) computing `reduction` (amin is min), and its array method.
void addReduction(Library &library, const std::string &name, const std::string &reduction,
                  bool withMethod) {
  // A sum or product of a whole array expression folds its items as they are computed, without
  // making the array (np.sum(a * b)): those two lower their arguments themselves.
  bool fuses = reduction == "sum" || reduction == "prod";
  std::vector<LibraryParameter> parameters = {{"a"}, {"axis", true}};
  if (fuses)
    parameters.push_back({"dtype", true});
  addNumpyFunction(
      library, name, parameters,
      [name, reduction](const LibraryCall &call) { return typeReduction(name, reduction, call); },
      [reduction, fuses](LoweringApi &lowering, const LibraryCall &call,
                         const std::vector<llvm::Value *> &given) {
        Expr *array = call.arguments[0];
        const Type *first = call.argumentTypes[0];
        if (first->isNumber() || first->isDatetimeLike()) {
          // The reduction of a 0-d array holding the number (allocateArray's array is the
          // statement's, freed after it).
          const Type *zeroD = types::array(first, 0, 'C', false);
          llvm::Value *item = fuses ? lowering.lowerExpr(array) : given[0];
          llvm::Value *holder = lowering.arrays().allocateArray(zeroD, {});
          lowering.arrays().storeElement(lowering.arrays().arrayField(holder, ArrayLayout::Data),
                                         item, first);
          return lowerReduction(lowering, reduction, holder, zeroD, nullptr, call.resultType);
        }
        if (fuses && !isGiven(call, 1) && lowering.arrays().isElementwise(array))
          return reduceArrayExpression(lowering, reduction == "prod", array, call.resultType);
        std::vector<llvm::Value *> values = given;
        if (fuses) // the array and the axis; a dtype is a type, with nothing to lower
          for (size_t i = 0; i < call.arguments.size() && i < 2; ++i)
            values.push_back(call.arguments[i] ? lowering.lowerExpr(call.arguments[i]) : nullptr);
        if (isGiven(call, 1) && call.argumentTypes[1]->isTuple())
          return lowerReductionOverAxes(lowering, reduction, values[0], call.argumentTypes[0],
                                        values[1], call.argumentTypes[1], call.resultType);
        llvm::Value *axis = isGiven(call, 1) ? int64Argument(lowering, call, values, 1) : nullptr;
        return lowerReduction(lowering, reduction, values[0], call.argumentTypes[0], axis,
                              call.resultType);
      },
      withMethod, fuses);
}

/// cumsum and cumprod: the running totals of the flattened array, in the accumulator type.
void addCumulative(Library &library, const std::string &name, bool isSum) {
  addNumpyFunction(
      library, name, {{"a"}},
      [isSum](const LibraryCall &call) {
        const Type *dtype = arrayArgument(call)->dtype();
        if (dtype->isDatetime() || (dtype->isTimedelta() && !isSum) ||
            (!dtype->isNumber() && !dtype->isDatetimeLike())) // records, fixed-width strings
          throwTypingError(call.function->name + " of an array of " + dtype->name() +
                               " is not supported (NumPy has none)",
                           call.location);
        return newArrayType(accumulatorType(dtype), 1);
      },
      [isSum](LoweringApi &lowering, const LibraryCall &call,
              const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::LLVMContext &context = lowering.llvmContext();
        llvm::Value *array = values[0];
        const Type *arrayType = call.argumentTypes[0];
        const Type *resultType = call.resultType;
        const Type *dtype = resultType->dtype();
        llvm::Value *result = lowering.arrays().allocateArray(
            resultType, {lowering.arrays().arrayField(array, ArrayLayout::ItemCount)});
        llvm::AllocaInst *total =
            lowering.createEntryAlloca(valueType(context, dtype), "cumulative");
        builder.CreateStore(startValue(lowering, isSum ? 0 : 1, dtype), total);
        llvm::AllocaInst *position =
            lowering.createEntryAlloca(builder.getInt64Ty(), "cumulative.index");
        builder.CreateStore(builder.getInt64(0), position);
        lowering.arrays().forEachIndex(
            lowering.arrays().arrayShape(array, arrayType),
            [&](const std::vector<llvm::Value *> &at) {
              llvm::Value *item = lowering.arrays().loadElement(
                  lowering.arrays().elementAddress(array, arrayType, at), arrayType->dtype());
              llvm::Value *next = lowering.operators().lowerBinary(
                  isSum ? BinaryOp::Add : BinaryOp::Mult,
                  builder.CreateLoad(valueType(context, dtype), total), dtype, item,
                  arrayType->dtype(), dtype);
              builder.CreateStore(next, total);
              llvm::Value *index = builder.CreateLoad(builder.getInt64Ty(), position);
              lowering.arrays().storeElement(
                  lowering.arrays().elementAddress(result, resultType, {index}), next, dtype);
              builder.CreateStore(builder.CreateAdd(index, builder.getInt64(1)), position);
            });
        return result;
      },
      true);
}

} // namespace

void registerNumpyReductions(Library &library) {
  for (const char *reduction :
       {"sum", "prod", "min", "max", "mean", "std", "var", "argmin", "argmax", "any", "all"})
    addReduction(library, reduction, reduction, true);
  addReduction(library, "amin", "min", false);
  addReduction(library, "amax", "max", false);
  addCumulative(library, "cumsum", true);
  addCumulative(library, "cumprod", false);
}

} // namespace taipan
