// NumPy functions and array methods: creation (empty, zeros, arange, linspace, eye...), copies
// and reshaping, and reductions over the whole array or one axis.
#include "lower/FunctionLowering.h"

#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <set>

namespace taipan {

llvm::Value *FunctionLowering::lowerNumpyCall(const std::string &name, Expr *expr,
                                              const std::vector<Expr *> &argumentExprs) {
  const Type *resultType = typeOf(expr);
  std::vector<llvm::Value *> values;
  std::vector<const Type *> types;
  for (Expr *argument : argumentExprs) {
    values.push_back(lowerExpr(argument));
    types.push_back(typeOf(argument));
  }
  std::string function = name.substr(6);
  size_t keywordCount = expr->keywordNames.size();
  std::vector<int> order = bindNumpyArguments(function, values.size() - keywordCount,
                                              expr->keywordNames, expr->location);
  if (function.rfind("random.", 0) == 0)
    return lowerNumpyRandom(function.substr(7), expr, values, types, order);
  if (function == "dot")
    return lowerDot(values[order[0]], types[order[0]], values[order[1]], types[order[1]],
                    resultType);
  auto has = [&](size_t parameter) {
    return parameter < order.size() && order[parameter] >= 0 && !types[order[parameter]]->isNone();
  };
  auto value = [&](size_t parameter) { return values[order[parameter]]; };
  auto type = [&](size_t parameter) { return types[order[parameter]]; };
  auto asInt = [&](size_t parameter) {
    return castValue(value(parameter), type(parameter), types::int64());
  };
  auto shapeOf = [&](llvm::Value *shape, const Type *shapeType) {
    std::vector<llvm::Value *> extents;
    if (shapeType->isTuple()) {
      for (size_t i = 0; i < shapeType->elements().size(); ++i)
        extents.push_back(castValue(tupleElement(shape, shapeType, static_cast<unsigned>(i)),
                                    shapeType->elements()[i], types::int64()));
    } else {
      extents.push_back(castValue(shape, shapeType, types::int64()));
    }
    return extents;
  };
  auto fill = [&](llvm::Value *array, llvm::Value *scalar, const Type *scalarType) {
    assignIntoArray(array, resultType, scalar, scalarType);
  };
  const Type *dtype = resultType->isArray() ? resultType->dtype() : nullptr;

  if (function == "empty" || function == "zeros" || function == "ones" || function == "full") {
    llvm::Value *array = allocateArray(resultType, shapeOf(value(0), type(0)));
    if (function == "zeros")
      builder.CreateMemSet(arrayField(array, ArrayLayout::Data), builder.getInt8(0),
                           builder.CreateMul(arrayField(array, ArrayLayout::ItemCount),
                                             arrayField(array, ArrayLayout::ItemSize)),
                           llvm::MaybeAlign(8));
    else if (function == "ones")
      fill(array, builder.getInt64(1), types::int64());
    else if (function == "full")
      fill(array, value(1), type(1));
    return array;
  }
  if (function == "empty_like" || function == "zeros_like" || function == "ones_like" ||
      function == "full_like") {
    llvm::Value *array = allocateArray(resultType, arrayShape(value(0), type(0)));
    if (function == "zeros_like")
      fill(array, builder.getInt64(0), types::int64());
    else if (function == "ones_like")
      fill(array, builder.getInt64(1), types::int64());
    else if (function == "full_like")
      fill(array, value(1), type(1));
    return array;
  }
  if (function == "arange") {
    // arange(stop), arange(start, stop[, step]); the length is ceil((stop - start) / step).
    bool single = !has(1);
    const Type *work = dtype->isInteger() ? types::int64() : types::float64();
    auto get = [&](size_t parameter, double fallback) -> llvm::Value * {
      if (!has(parameter))
        return work->isInteger()
                   ? static_cast<llvm::Value *>(builder.getInt64(static_cast<int64_t>(fallback)))
                   : llvm::ConstantFP::get(builder.getDoubleTy(), fallback);
      return castValue(value(parameter), type(parameter), work);
    };
    llvm::Value *start = single ? get(99, 0) : get(0, 0);
    llvm::Value *stop = single ? get(0, 0) : get(1, 0);
    llvm::Value *step = get(2, 1);
    llvm::Value *length;
    if (work->isInteger()) {
      raiseIf(builder.CreateICmpEQ(step, builder.getInt64(0)), ValueErrorId,
              "Maximum allowed size exceeded");
      llvm::Value *span = builder.CreateSub(stop, start);
      llvm::Value *positive = builder.CreateICmpSGT(step, builder.getInt64(0));
      llvm::Value *adjusted = builder.CreateAdd(
          span, builder.CreateSelect(positive, builder.CreateSub(step, builder.getInt64(1)),
                                     builder.CreateAdd(step, builder.getInt64(1))));
      length = builder.CreateSDiv(adjusted, step);
    } else {
      length = builder.CreateFPToSI(
          callIntrinsic(llvm::Intrinsic::ceil,
                        {builder.CreateFDiv(builder.CreateFSub(stop, start), step)}),
          builder.getInt64Ty());
    }
    length = builder.CreateSelect(builder.CreateICmpSGT(length, builder.getInt64(0)), length,
                                  builder.getInt64(0));
    llvm::Value *array = allocateArray(resultType, {length});
    forEachIndex({length}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *index = castValue(at[0], types::int64(), work);
      llvm::Value *item = work->isInteger()
                              ? builder.CreateAdd(start, builder.CreateMul(index, step))
                              : builder.CreateFAdd(start, builder.CreateFMul(index, step));
      storeElement(elementAddress(array, resultType, at), castValue(item, work, dtype), dtype);
    });
    return array;
  }
  if (function == "linspace") {
    const Type *f64 = types::float64();
    llvm::Value *start = castValue(value(0), type(0), f64);
    llvm::Value *stop = castValue(value(1), type(1), f64);
    llvm::Value *count = has(2) ? asInt(2) : builder.getInt64(50);
    llvm::Value *endpoint = has(3) ? truthValue(value(3), type(3)) : builder.getInt1(true);
    raiseIf(builder.CreateICmpSLT(count, builder.getInt64(0)), ValueErrorId,
            "Number of samples must be non-negative.");
    llvm::Value *divisions =
        builder.CreateSelect(endpoint, builder.CreateSub(count, builder.getInt64(1)), count);
    // One point (or none) has no step: NumPy gives [start].
    llvm::Value *step = builder.CreateSelect(
        builder.CreateICmpSGT(divisions, builder.getInt64(0)),
        builder.CreateFDiv(builder.CreateFSub(stop, start),
                           builder.CreateSIToFP(divisions, builder.getDoubleTy())),
        llvm::ConstantFP::get(builder.getDoubleTy(), 0.0));
    llvm::Value *array = allocateArray(resultType, {count});
    forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *index = builder.CreateSIToFP(at[0], builder.getDoubleTy());
      llvm::Value *item = builder.CreateFAdd(start, builder.CreateFMul(index, step));
      llvm::Value *last = builder.CreateAnd(
          endpoint, builder.CreateICmpEQ(at[0], builder.CreateSub(count, builder.getInt64(1))));
      item = builder.CreateSelect(
          builder.CreateAnd(last, builder.CreateICmpSGT(count, builder.getInt64(1))), stop, item);
      storeElement(elementAddress(array, resultType, at), item, dtype);
    });
    return array;
  }
  if (function == "eye" || function == "identity") {
    llvm::Value *rows = asInt(0);
    llvm::Value *columns = function == "eye" && has(1) ? asInt(1) : rows;
    llvm::Value *diagonal = function == "eye" && has(2) ? asInt(2) : builder.getInt64(0);
    llvm::Value *array = allocateArray(resultType, {rows, columns});
    forEachIndex({rows, columns}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *onDiagonal = builder.CreateICmpEQ(builder.CreateSub(at[1], at[0]), diagonal);
      storeElement(elementAddress(array, resultType, at),
                   castValue(onDiagonal, types::boolean(), dtype), dtype);
    });
    return array;
  }
  if (function == "array" || function == "asarray") {
    const Type *source = type(0);
    if (source->isArray()) {
      if (function == "asarray" && resultType == source)
        return value(0);
      llvm::Value *array = allocateArray(resultType, arrayShape(value(0), source));
      copyBroadcast(array, resultType, value(0), source);
      return array;
    }
    if (!source->isTuple()) {
      llvm::Value *array = allocateArray(resultType, {});
      storeElement(arrayField(array, ArrayLayout::Data), castValue(value(0), source, dtype), dtype);
      return array;
    }
    size_t count = source->elements().size();
    llvm::Value *array = allocateArray(resultType, {builder.getInt64(count)});
    for (size_t i = 0; i < count; ++i)
      storeElement(elementAddress(array, resultType, {builder.getInt64(i)}),
                   castValue(tupleElement(value(0), source, static_cast<unsigned>(i)),
                             source->elements()[i], dtype),
                   dtype);
    return array;
  }
  // Everything below works on an array: the first argument, or `self` of a method.
  llvm::Value *array = value(0);
  const Type *arrayType = type(0);
  if (function == "copy" || function == "astype" || function == "flatten") {
    llvm::Value *copy = allocateArray(
        function == "flatten" ? types::array(dtype, arrayType->ndim(), 'C', false) : resultType,
        arrayShape(array, arrayType));
    copyBroadcast(copy, types::array(dtype, arrayType->ndim(), 'C', false), array, arrayType);
    if (function != "flatten")
      return copy;
    llvm::Value *flat = llvm::UndefValue::get(valueType(context, resultType));
    for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount,
                       ArrayLayout::ItemSize, ArrayLayout::Data})
      flat = withArrayField(flat, field, arrayField(copy, field));
    flat = withArrayField(flat, ArrayLayout::Shape, arrayField(copy, ArrayLayout::ItemCount), 0);
    flat = withArrayField(flat, ArrayLayout::Strides, arrayField(copy, ArrayLayout::ItemSize), 0);
    takeOwnership(copy, types::array(dtype, arrayType->ndim(), 'C', false)); // flat takes it over
    addTemporary(flat, resultType);
    return flat;
  }
  if (function == "fill") {
    assignIntoArray(array, arrayType, value(1), type(1));
    return llvm::UndefValue::get(valueType(context, resultType));
  }
  if (function == "transpose")
    return transposeArray(array, arrayType, resultType);
  if (function == "reshape" || function == "ravel") {
    std::vector<llvm::Value *> extents;
    if (function == "ravel")
      extents.push_back(builder.getInt64(-1));
    else if (values.size() - keywordCount == 2)
      extents = shapeOf(value(1), type(1));
    else
      for (size_t i = 1; i < values.size(); ++i)
        extents.push_back(castValue(values[i], types[i], types::int64()));
    return reshapeArray(array, arrayType, extents, resultType);
  }
  if (function == "sort" || function == "argsort") {
    const Type *dtype = arrayType->dtype();
    int code = sortDtypeCode(dtype);
    llvm::Type *i64 = builder.getInt64Ty();
    if (function == "argsort") {
      llvm::Value *count = arrayField(array, ArrayLayout::Shape, 0);
      llvm::Value *result = allocateArray(resultType, {count});
      builder.CreateCall(moduleLowering.runtimeFunction("taipan_argsort", builder.getVoidTy(),
                                                        {builder.getPtrTy(), i64, i64,
                                                         builder.getPtrTy(), builder.getInt32Ty()}),
                         {arrayField(array, ArrayLayout::Data), count,
                          arrayField(array, ArrayLayout::Strides, 0),
                          arrayField(result, ArrayLayout::Data), builder.getInt32(code)});
      return result;
    }
    // Sort each row of a C-contiguous array along the last axis; a.sort() sorts in place.
    bool inPlace = name.rfind("array.", 0) == 0;
    const Type *sortedType = nullptr;
    llvm::Value *sorted =
        inPlace && arrayType->layout() == 'C' ? array : contiguous(array, arrayType, &sortedType);
    if (!inPlace || arrayType->layout() != 'C') {
      // contiguous() may return the array itself for a C layout: np.sort needs its own copy.
      if (!inPlace && arrayType->layout() == 'C') {
        sortedType = types::array(dtype, arrayType->ndim(), 'C', false);
        sorted = allocateArray(sortedType, arrayShape(array, arrayType));
        copyBroadcast(sorted, sortedType, array, arrayType);
      }
    }
    llvm::Value *rowLength = arrayType->ndim()
                                 ? arrayField(sorted, ArrayLayout::Shape, arrayType->ndim() - 1)
                                 : builder.getInt64(1);
    llvm::Value *count = arrayField(sorted, ArrayLayout::ItemCount);
    llvm::Value *safeLength = builder.CreateSelect(
        builder.CreateICmpEQ(rowLength, builder.getInt64(0)), builder.getInt64(1), rowLength);
    builder.CreateCall(
        moduleLowering.runtimeFunction("taipan_sort", builder.getVoidTy(),
                                       {builder.getPtrTy(), i64, i64, builder.getInt32Ty()}),
        {arrayField(sorted, ArrayLayout::Data), builder.CreateSDiv(count, safeLength), rowLength,
         builder.getInt32(code)});
    if (!inPlace)
      return sorted;
    if (arrayType->layout() != 'C')
      copyBroadcast(array, arrayType, sorted, sortedType);
    return llvm::UndefValue::get(valueType(context, resultType));
  }
  if (function == "cumsum" || function == "cumprod") {
    llvm::Value *result = allocateArray(resultType, {arrayField(array, ArrayLayout::ItemCount)});
    bool isSum = function == "cumsum";
    llvm::AllocaInst *total = createEntryAlloca(valueType(context, dtype), "cumulative");
    builder.CreateStore(castValue(builder.getInt64(isSum ? 0 : 1), types::int64(), dtype), total);
    llvm::AllocaInst *position = createEntryAlloca(builder.getInt64Ty(), "cumulative.index");
    builder.CreateStore(builder.getInt64(0), position);
    forEachIndex(arrayShape(array, arrayType), [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *item = loadElement(elementAddress(array, arrayType, at), arrayType->dtype());
      llvm::Value *next = lowerBinary(isSum ? BinaryOp::Add : BinaryOp::Mult,
                                      builder.CreateLoad(valueType(context, dtype), total), dtype,
                                      item, arrayType->dtype(), dtype);
      builder.CreateStore(next, total);
      llvm::Value *index = builder.CreateLoad(builder.getInt64Ty(), position);
      storeElement(elementAddress(result, resultType, {index}), next, dtype);
      builder.CreateStore(builder.CreateAdd(index, builder.getInt64(1)), position);
    });
    return result;
  }
  static const std::set<std::string> reductions = {"sum",    "prod", "min", "max", "amin",
                                                   "amax",   "mean", "std", "var", "argmin",
                                                   "argmax", "any",  "all"};
  if (reductions.count(function)) {
    std::string reduction = function == "amin" ? "min" : function == "amax" ? "max" : function;
    llvm::Value *axis = has(1) ? asInt(1) : nullptr;
    return lowerReduction(reduction, array, arrayType, axis, resultType);
  }
  throwUnsupported(name + " is not supported yet", expr->location);
}

llvm::Value *FunctionLowering::reshapeArray(llvm::Value *array, const Type *arrayType,
                                            std::vector<llvm::Value *> extents,
                                            const Type *resultType) {
  // A non-contiguous source is copied first; a C-contiguous one is viewed.
  llvm::Value *source = array;
  if (arrayType->layout() != 'C') {
    const Type *contiguous = types::array(arrayType->dtype(), arrayType->ndim(), 'C', false);
    source = allocateArray(contiguous, arrayShape(array, arrayType));
    copyBroadcast(source, contiguous, array, arrayType);
  }
  llvm::Value *count = arrayField(source, ArrayLayout::ItemCount);
  // One extent may be -1: it is whatever makes the counts agree.
  llvm::Value *known = builder.getInt64(1);
  llvm::Value *unknownCount = builder.getInt64(0);
  for (llvm::Value *extent : extents) {
    llvm::Value *isUnknown = builder.CreateICmpEQ(extent, builder.getInt64(-1));
    known = builder.CreateMul(known, builder.CreateSelect(isUnknown, builder.getInt64(1), extent));
    unknownCount =
        builder.CreateAdd(unknownCount, builder.CreateZExt(isUnknown, builder.getInt64Ty()));
  }
  raiseIf(builder.CreateICmpUGT(unknownCount, builder.getInt64(1)), ValueErrorId,
          "can only specify one unknown dimension");
  llvm::Value *safeKnown = builder.CreateSelect(builder.CreateICmpEQ(known, builder.getInt64(0)),
                                                builder.getInt64(1), known);
  llvm::Value *inferred = builder.CreateSDiv(count, safeKnown);
  for (llvm::Value *&extent : extents)
    extent =
        builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(-1)), inferred, extent);
  llvm::Value *product = builder.getInt64(1);
  for (llvm::Value *extent : extents)
    product = builder.CreateMul(product, extent);
  raiseIf(builder.CreateICmpNE(product, count), ValueErrorId,
          "cannot reshape array into the requested shape");
  llvm::Value *view = llvm::UndefValue::get(valueType(context, resultType));
  for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount,
                     ArrayLayout::ItemSize, ArrayLayout::Data})
    view = withArrayField(view, field, arrayField(source, field));
  llvm::Value *stride = arrayField(source, ArrayLayout::ItemSize);
  for (size_t i = extents.size(); i-- > 0;) {
    view = withArrayField(view, ArrayLayout::Shape, extents[i], static_cast<int>(i));
    view = withArrayField(view, ArrayLayout::Strides, stride, static_cast<int>(i));
    stride = builder.CreateMul(stride, extents[i]);
  }
  incref(view, resultType);
  addTemporary(view, resultType);
  return view;
}

int FunctionLowering::sortDtypeCode(const Type *dtype) {
  // runtime/Sort.h's SortDtype.
  if (dtype->isBoolean())
    return 0;
  if (dtype->isFloat())
    return dtype->bits() == 32 ? 9 : 10;
  int base = dtype->bits() == 8 ? 1 : dtype->bits() == 16 ? 3 : dtype->bits() == 32 ? 5 : 7;
  return base + (dtype->isSigned() ? 0 : 1);
}

llvm::Value *FunctionLowering::contiguous(llvm::Value *array, const Type *arrayType,
                                          const Type **resultType) {
  if (arrayType->layout() == 'C') {
    *resultType = arrayType;
    return array;
  }
  *resultType = types::array(arrayType->dtype(), arrayType->ndim(), 'C', false);
  llvm::Value *copy = allocateArray(*resultType, arrayShape(array, arrayType));
  copyBroadcast(copy, *resultType, array, arrayType);
  return copy;
}

llvm::Value *FunctionLowering::lowerDot(llvm::Value *left, const Type *leftType, llvm::Value *right,
                                        const Type *rightType, const Type *resultType) {
  const Type *dtype = leftType->dtype();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Value *inner = arrayField(left, ArrayLayout::Shape, leftType->ndim() - 1);
  llvm::Value *rightInner = arrayField(right, ArrayLayout::Shape, 0);
  raiseIf(builder.CreateICmpNE(inner, rightInner), ValueErrorId,
          "shapes not aligned: the inner dimensions of dot differ");
  if (leftType->ndim() == 1 && rightType->ndim() == 1) {
    llvm::AllocaInst *total = createEntryAlloca(valueType(context, dtype), "dot.total");
    builder.CreateStore(llvm::ConstantFP::get(valueType(context, dtype), 0.0), total);
    forEachIndex({inner}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *product =
          builder.CreateFMul(loadElement(elementAddress(left, leftType, at), dtype),
                             loadElement(elementAddress(right, rightType, at), dtype));
      builder.CreateStore(
          builder.CreateFAdd(builder.CreateLoad(valueType(context, dtype), total), product), total);
    });
    return builder.CreateLoad(valueType(context, dtype), total);
  }
  // Matrix products go to BLAS (or the runtime's blocked kernel) on C-contiguous operands;
  // a vector is a matrix with one row (on the left) or one column (on the right).
  const Type *leftContiguousType = nullptr, *rightContiguousType = nullptr;
  llvm::Value *a = contiguous(left, leftType, &leftContiguousType);
  llvm::Value *b = contiguous(right, rightType, &rightContiguousType);
  llvm::Value *rows =
      leftType->ndim() == 2 ? arrayField(a, ArrayLayout::Shape, 0) : builder.getInt64(1);
  llvm::Value *columns =
      rightType->ndim() == 2 ? arrayField(b, ArrayLayout::Shape, 1) : builder.getInt64(1);
  std::vector<llvm::Value *> shape;
  if (leftType->ndim() == 2)
    shape.push_back(rows);
  if (rightType->ndim() == 2)
    shape.push_back(columns);
  llvm::Value *c = allocateArray(resultType, shape);
  llvm::Type *pointer = builder.getPtrTy();
  builder.CreateCall(
      moduleLowering.runtimeFunction(
          dtype->bits() == 32 ? "taipan_matmul_f32" : "taipan_matmul_f64", builder.getVoidTy(),
          {pointer, pointer, pointer, i64, i64, i64, i64, i64, i64}),
      {arrayField(a, ArrayLayout::Data), arrayField(b, ArrayLayout::Data),
       arrayField(c, ArrayLayout::Data), rows, columns, inner, inner, columns, columns});
  return c;
}

llvm::Value *FunctionLowering::lowerReduction(const std::string &function, llvm::Value *array,
                                              const Type *arrayType, llvm::Value *axis,
                                              const Type *resultType) {
  int ndim = arrayType->ndim();
  if (!axis || ndim <= 1) {
    if (axis)
      raiseIf(builder.CreateAnd(builder.CreateICmpNE(axis, builder.getInt64(0)),
                                builder.CreateICmpNE(axis, builder.getInt64(-1))),
              ValueErrorId, "axis is out of bounds for array");
    return reduceRange(function, array, arrayType, {}, -1, resultType);
  }
  axis = builder.CreateSelect(builder.CreateICmpSLT(axis, builder.getInt64(0)),
                              builder.CreateAdd(axis, builder.getInt64(ndim)), axis);
  raiseIf(builder.CreateICmpUGE(axis, builder.getInt64(ndim)), ValueErrorId,
          "axis is out of bounds for array");
  // The result's shape is the array's without the axis; axis is a run-time value, so each
  // extent is chosen with selects.
  std::vector<llvm::Value *> shape = arrayShape(array, arrayType);
  std::vector<llvm::Value *> resultShape;
  for (int d = 0; d + 1 < ndim; ++d)
    resultShape.push_back(builder.CreateSelect(builder.CreateICmpSLT(builder.getInt64(d), axis),
                                               shape[d], shape[d + 1]));
  llvm::Value *result = allocateArray(resultType, resultShape);
  // Run-time axis: reduce with a loop for each possible axis, picked by a switch.
  llvm::BasicBlock *done = newBlock("reduce.done");
  llvm::SwitchInst *choice = builder.CreateSwitch(axis, done, ndim);
  for (int candidate = 0; candidate < ndim; ++candidate) {
    llvm::BasicBlock *block = newBlock("reduce.axis");
    choice->addCase(builder.getInt64(candidate), block);
    builder.SetInsertPoint(block);
    forEachIndex(resultShape, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *item =
          reduceRange(function, array, arrayType, at, candidate, resultType->dtype());
      storeElement(elementAddress(result, resultType, at), item, resultType->dtype());
    });
    builder.CreateBr(done);
  }
  builder.SetInsertPoint(done);
  return result;
}

llvm::Value *FunctionLowering::reduceRange(const std::string &function, llvm::Value *array,
                                           const Type *arrayType,
                                           const std::vector<llvm::Value *> &outerIndex, int axis,
                                           const Type *resultType) {
  // Reduces the whole array (axis < 0) or the line through `outerIndex` along `axis`.
  const Type *dtype = arrayType->dtype();
  llvm::Type *i64 = builder.getInt64Ty();
  std::vector<llvm::Value *> shape = arrayShape(array, arrayType);
  std::vector<llvm::Value *> loopShape = axis < 0 ? shape : std::vector<llvm::Value *>{shape[axis]};
  llvm::Value *count = axis < 0 ? arrayField(array, ArrayLayout::ItemCount) : shape[axis];
  auto fullIndex = [&](const std::vector<llvm::Value *> &at) {
    if (axis < 0)
      return at;
    std::vector<llvm::Value *> index = outerIndex;
    index.insert(index.begin() + axis, at[0]);
    return index;
  };
  auto forEachItem = [&](const std::function<void(llvm::Value *, llvm::Value *)> &body) {
    llvm::AllocaInst *position = createEntryAlloca(i64, "reduce.position");
    builder.CreateStore(builder.getInt64(0), position);
    if (axis < 0 && arrayType->layout() == 'C') {
      // Contiguous: one flat loop.
      forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *address = builder.CreateInBoundsGEP(
            memoryType(context, dtype), arrayField(array, ArrayLayout::Data), at[0]);
        body(loadElement(address, dtype), at[0]);
      });
      return;
    }
    forEachIndex(loopShape, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *index = builder.CreateLoad(i64, position);
      body(loadElement(elementAddress(array, arrayType, fullIndex(at)), dtype), index);
      builder.CreateStore(builder.CreateAdd(index, builder.getInt64(1)), position);
    });
  };
  if (function == "sum" || function == "prod" || function == "mean" || function == "var" ||
      function == "std") {
    bool isProduct = function == "prod";
    const Type *accumulatorType = (function == "sum" || function == "prod") ? resultType
                                  : dtype->isComplex()                      ? dtype
                                                                            : types::float64();
    llvm::Type *accumulatorLLVM = valueType(context, accumulatorType);
    llvm::AllocaInst *total = createEntryAlloca(accumulatorLLVM, "reduce.total");
    builder.CreateStore(
        castValue(builder.getInt64(isProduct ? 1 : 0), types::int64(), accumulatorType), total);
    // Float sums may be reassociated: LLVM then keeps several partial sums in vector lanes, which
    // is both faster and closer to NumPy's pairwise summation than one running total.
    llvm::FastMathFlags saved = builder.getFastMathFlags();
    llvm::FastMathFlags reassociate = saved;
    reassociate.setAllowReassoc();
    if (accumulatorType->isFloat() || accumulatorType->isComplex())
      builder.setFastMathFlags(reassociate);
    forEachItem([&](llvm::Value *item, llvm::Value *) {
      builder.CreateStore(lowerBinary(isProduct ? BinaryOp::Mult : BinaryOp::Add,
                                      builder.CreateLoad(accumulatorLLVM, total), accumulatorType,
                                      item, dtype, accumulatorType),
                          total);
    });
    builder.setFastMathFlags(saved);
    llvm::Value *sum = builder.CreateLoad(accumulatorLLVM, total);
    if (function == "sum" || function == "prod")
      return sum;
    bool savedContext = insideElementwise;
    insideElementwise = true; // an empty mean is nan, as in NumPy
    llvm::Value *mean =
        lowerBinary(BinaryOp::Div, sum, accumulatorType, count, types::int64(), accumulatorType);
    if (function == "mean") {
      insideElementwise = savedContext;
      return castValue(mean, accumulatorType, resultType);
    }
    llvm::AllocaInst *squares = createEntryAlloca(builder.getDoubleTy(), "reduce.squares");
    builder.CreateStore(llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), squares);
    builder.setFastMathFlags(reassociate);
    forEachItem([&](llvm::Value *item, llvm::Value *) {
      llvm::Value *deviation =
          lowerBinary(BinaryOp::Sub, item, dtype, mean, accumulatorType, accumulatorType);
      llvm::Value *square;
      if (accumulatorType->isComplex()) {
        llvm::Value *imag;
        llvm::Value *real =
            complexParts(castValue(deviation, accumulatorType, types::complex128()), imag);
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
    insideElementwise = savedContext;
    if (function == "std")
      variance = callIntrinsic(llvm::Intrinsic::sqrt, {variance});
    return castValue(variance, types::float64(), resultType);
  }
  if (function == "any" || function == "all") {
    bool isAll = function == "all";
    llvm::AllocaInst *state = createEntryAlloca(builder.getInt1Ty(), "reduce.truth");
    builder.CreateStore(builder.getInt1(isAll), state);
    forEachItem([&](llvm::Value *item, llvm::Value *) {
      llvm::Value *truth = truthValue(item, dtype);
      llvm::Value *current = builder.CreateLoad(builder.getInt1Ty(), state);
      builder.CreateStore(
          isAll ? builder.CreateAnd(current, truth) : builder.CreateOr(current, truth), state);
    });
    return builder.CreateLoad(builder.getInt1Ty(), state);
  }
  // min, max, argmin, argmax: NaN wins (NumPy propagates it), the first of equals is kept.
  bool isMax = function == "max" || function == "argmax";
  bool wantIndex = function == "argmin" || function == "argmax";
  raiseIf(builder.CreateICmpEQ(count, builder.getInt64(0)), ValueErrorId,
          "zero-size array to reduction operation " +
              std::string(wantIndex ? function : (isMax ? "maximum" : "minimum")) +
              " which has no identity");
  if (wantIndex && axis < 0 && arrayType->layout() == 'C' && !dtype->isComplex()) {
    // Two passes beat one: the extreme value by a vectorised reduction, then the first index
    // holding it (or the first NaN), a loop that stops early.
    llvm::Value *extreme = reduceRange(isMax ? "max" : "min", array, arrayType, {}, -1, dtype);
    llvm::Value *lookForNaN =
        dtype->isFloat() ? builder.CreateFCmpUNO(extreme, extreme) : builder.getInt1(false);
    llvm::Value *data = arrayField(array, ArrayLayout::Data);
    auto matches = [&](llvm::Value *position) {
      llvm::Value *item =
          loadElement(builder.CreateInBoundsGEP(memoryType(context, dtype), data, position), dtype);
      llvm::Value *found = lowerComparison(CompareOp::Eq, item, dtype, extreme, dtype);
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
    llvm::BasicBlock *blockLoop = newBlock("argextreme.blocks");
    llvm::BasicBlock *blockTest = newBlock("argextreme.block");
    llvm::BasicBlock *scanStart = newBlock("argextreme.scan.start");
    builder.CreateBr(blockLoop);
    builder.SetInsertPoint(blockLoop);
    llvm::PHINode *block = builder.CreatePHI(i64, 2);
    block->addIncoming(builder.getInt64(0), before);
    builder.CreateCondBr(builder.CreateICmpSLT(block, blocks), blockTest, scanStart);
    builder.SetInsertPoint(blockTest);
    llvm::Value *base = builder.CreateMul(block, builder.getInt64(Block));
    llvm::AllocaInst *any = createEntryAlloca(builder.getInt1Ty(), "argextreme.any");
    builder.CreateStore(builder.getInt1(false), any);
    forEachIndex({builder.getInt64(Block)}, [&](const std::vector<llvm::Value *> &at) {
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
    llvm::BasicBlock *loop = newBlock("argextreme.loop");
    llvm::BasicBlock *done = newBlock("argextreme.done");
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
  else
    throwUnsupported("min, max, argmin and argmax of complex arrays are not supported", {});
  llvm::AllocaInst *best = createEntryAlloca(elementLLVM, "reduce.best");
  llvm::AllocaInst *bestIndex = createEntryAlloca(i64, "reduce.index");
  builder.CreateStore(identity, best);
  builder.CreateStore(builder.getInt64(0), bestIndex);
  forEachItem([&](llvm::Value *item, llvm::Value *index) {
    llvm::Value *current = builder.CreateLoad(elementLLVM, best);
    if (!wantIndex && dtype->isFloat()) {
      // llvm.minimum/maximum propagate NaN like NumPy, and LLVM vectorises the reduction.
      builder.CreateStore(callIntrinsic(isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum,
                                        {current, item}),
                          best);
      return;
    }
    llvm::Value *better =
        lowerComparison(isMax ? CompareOp::Gt : CompareOp::Lt, item, dtype, current, dtype);
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
  return castValue(builder.CreateLoad(elementLLVM, best), dtype, resultType);
}

} // namespace taipan
