// NumPy's copies and shape changes, as functions and array methods: copy, astype, fill,
// ravel, flatten, transpose and reshape (views where NumPy gives one, else copies), and
// broadcast_to (a read-only view whose stretched axes have stride 0), and taipan.unsafe's
// strided_view (a view of given extents and strides).
#include "library/NumpySupport.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "runtime/Runtime.h"
#include "types/CharSequences.h"
#include "typing/BuiltinTyping.h"
#include "typing/RecordTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

/// copy and astype: a new C array of the array's shape (in the given dtype for astype).
llvm::Value *lowerCopy(LoweringApi &lowering, const LibraryCall &call,
                       const std::vector<llvm::Value *> &values) {
  const Type *arrayType = call.argumentTypes[0];
  llvm::Value *copy = lowering.arrays().allocateArray(
      call.resultType, lowering.arrays().arrayShape(values[0], arrayType));
  lowering.arrays().copyBroadcast(copy, call.resultType, values[0], arrayType);
  return copy;
}

/// a.flatten(): a C copy, seen as 1-D.
llvm::Value *lowerFlatten(LoweringApi &lowering, const LibraryCall &call,
                          const std::vector<llvm::Value *> &values) {
  const Type *arrayType = call.argumentTypes[0];
  const Type *resultType = call.resultType;
  const Type *copyType = types::array(arrayType->dtype(), arrayType->ndim(), 'C', false);
  llvm::Value *copy =
      lowering.arrays().allocateArray(copyType, lowering.arrays().arrayShape(values[0], arrayType));
  lowering.arrays().copyBroadcast(copy, copyType, values[0], arrayType);
  llvm::Value *flat = llvm::UndefValue::get(valueType(lowering.llvmContext(), resultType));
  for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount,
                     ArrayLayout::ItemSize, ArrayLayout::Data})
    flat = lowering.arrays().withArrayField(flat, field, lowering.arrays().arrayField(copy, field));
  flat = lowering.arrays().withArrayField(
      flat, ArrayLayout::Shape, lowering.arrays().arrayField(copy, ArrayLayout::ItemCount), 0);
  flat = lowering.arrays().withArrayField(
      flat, ArrayLayout::Strides, lowering.arrays().arrayField(copy, ArrayLayout::ItemSize), 0);
  lowering.takeOwnership(copy, copyType); // flat takes it over
  lowering.addTemporary(flat, resultType);
  return flat;
}

/// reshape(a, shape) and a.reshape(shape) or a.reshape(d0, d1, ...): a view of a C array.
const Type *typeReshape(const LibraryCall &call) {
  const Type *array = arrayArgument(call);
  const std::vector<const Type *> &arguments = call.argumentTypes;
  int dimensions;
  if (arguments.size() == 2) {
    dimensions = shapeDimensions(arguments[1]);
  } else {
    dimensions = static_cast<int>(arguments.size()) - 1;
    for (size_t i = 1; i < arguments.size(); ++i)
      if (!arguments[i]->isIntegerLike())
        dimensions = -1;
  }
  if (dimensions < 1)
    throwTypingError("reshape takes a shape: integers or a tuple of integers", call.location);
  return types::array(array->dtype(), dimensions, 'C', array->isReadonly());
}

llvm::Value *lowerReshape(LoweringApi &lowering, const LibraryCall &call,
                          const std::vector<llvm::Value *> &values) {
  std::vector<llvm::Value *> extents;
  if (values.size() == 2)
    extents = shapeExtents(lowering, values[1], call.argumentTypes[1]);
  else
    for (size_t i = 1; i < values.size(); ++i)
      extents.push_back(int64Argument(lowering, call, values, i));
  return reshapeArray(lowering, values[0], call.argumentTypes[0], extents, call.resultType);
}

/// np.broadcast_to(array, shape): a read-only view of layout 'A' with the target's extents;
/// the array's axes align with the last ones, and an axis of extent 1 or a new leading axis has
/// stride 0. Raises ValueError (as NumPy) for a negative extent or an axis that cannot stretch.
const Type *typeBroadcastTo(const LibraryCall &call) {
  const Type *array = arrayArgument(call);
  int dimensions = shapeDimensions(call.argumentTypes[1]);
  if (dimensions < 0)
    throwTypingError("broadcast_to takes a shape: an integer or a tuple of integers",
                     call.location);
  return types::array(array->dtype(), dimensions, 'A', true);
}

llvm::Value *lowerBroadcastTo(LoweringApi &lowering, const LibraryCall &call,
                              const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  ArrayLowering &arrays = lowering.arrays();
  const Type *arrayType = call.argumentTypes[0];
  const Type *resultType = call.resultType;
  llvm::Value *array = values[0];
  std::vector<llvm::Value *> extents = shapeExtents(lowering, values[1], call.argumentTypes[1]);
  int ndim = resultType->ndim();
  int lead = ndim - arrayType->ndim();
  if (lead < 0) // (raiseIf: the code after it stays reachable for the verifier)
    lowering.exceptions().raiseIf(
        builder.getTrue(), ValueErrorId,
        "input operand has more dimensions than allowed by the axis remapping");
  llvm::Value *result = llvm::UndefValue::get(valueType(lowering.llvmContext(), resultType));
  for (auto field :
       {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemSize, ArrayLayout::Data})
    result = arrays.withArrayField(result, field, arrays.arrayField(array, field));
  llvm::Value *count = builder.getInt64(1);
  llvm::Value *zero = builder.getInt64(0);
  for (int i = 0; i < ndim; ++i) {
    llvm::Value *extent = extents[i];
    lowering.exceptions().raiseIf(builder.CreateICmpSLT(extent, zero), ValueErrorId,
                                  "all elements of broadcast shape must be non-negative");
    llvm::Value *stride = zero;
    if (i >= lead && lead >= 0) {
      llvm::Value *given = arrays.arrayField(array, ArrayLayout::Shape, i - lead);
      llvm::Value *same = builder.CreateICmpEQ(given, extent);
      lowering.exceptions().raiseIf(
          builder.CreateAnd(builder.CreateNot(same),
                            builder.CreateICmpNE(given, builder.getInt64(1))),
          ValueErrorId, "operands could not be broadcast together with remapped shapes");
      stride = builder.CreateSelect(same, arrays.arrayField(array, ArrayLayout::Strides, i - lead),
                                    zero);
    }
    result = arrays.withArrayField(result, ArrayLayout::Shape, extent, i);
    result = arrays.withArrayField(result, ArrayLayout::Strides, stride, i);
    count = builder.CreateMul(count, extent);
  }
  result = arrays.withArrayField(result, ArrayLayout::ItemCount, count);
  lowering.incref(result, resultType);
  lowering.addTemporary(result, resultType);
  return result;
}

/// unsafe.strided_view(array, shape, strides): a view of the array's data with the given extents
/// and byte strides, nothing checked (taipan.unsafe's primitive under np.lib.stride_tricks'
/// as_strided, sliding_window_view and np.expand_dims, whose Python callers check).
const Type *typeStridedView(const LibraryCall &call) {
  const Type *array = arrayArgument(call);
  int dimensions = shapeDimensions(call.argumentTypes[1]);
  if (dimensions < 0 || shapeDimensions(call.argumentTypes[2]) != dimensions)
    throwTypingError("strided_view takes a shape and strides: tuples of integers of one length",
                     call.location);
  return types::array(array->dtype(), dimensions, 'A', array->isReadonly());
}

llvm::Value *lowerStridedView(LoweringApi &lowering, const LibraryCall &call,
                              const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  ArrayLowering &arrays = lowering.arrays();
  const Type *resultType = call.resultType;
  std::vector<llvm::Value *> extents = shapeExtents(lowering, values[1], call.argumentTypes[1]);
  std::vector<llvm::Value *> strides = shapeExtents(lowering, values[2], call.argumentTypes[2]);
  llvm::Value *result = llvm::UndefValue::get(valueType(lowering.llvmContext(), resultType));
  for (auto field :
       {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemSize, ArrayLayout::Data})
    result = arrays.withArrayField(result, field, arrays.arrayField(values[0], field));
  llvm::Value *count = builder.getInt64(1);
  for (int i = 0; i < resultType->ndim(); ++i) {
    result = arrays.withArrayField(result, ArrayLayout::Shape, extents[i], i);
    result = arrays.withArrayField(result, ArrayLayout::Strides, strides[i], i);
    count = builder.CreateMul(count, extents[i]);
  }
  result = arrays.withArrayField(result, ArrayLayout::ItemCount, count);
  lowering.incref(result, resultType);
  lowering.addTemporary(result, resultType);
  return result;
}

} // namespace

void registerNumpyShapeFunctions(Library &library) {
  LibraryFunction stridedView;
  stridedView.name = "unsafe.strided_view";
  stridedView.parameters = {{"array"}, {"shape"}, {"strides"}};
  stridedView.type = typeStridedView;
  stridedView.lower = lowerStridedView;
  library.add(std::move(stridedView));
  addNumpyFunction(library, "broadcast_to", {{"array"}, {"shape"}}, typeBroadcastTo,
                   lowerBroadcastTo);
  // a.copy() is C-ordered (NumPy's order='C'); np.copy(a), a.astype() and np.astype() keep an
  // F array F (order='K'; a view's order is known only at run time: C, as in Numba).
  LibraryFunction copyMethod;
  copyMethod.name = "array.copy";
  copyMethod.parameters = {{"a"}};
  copyMethod.type = [](const LibraryCall &call) {
    const Type *array = arrayArgument(call);
    return newArrayType(array->dtype(), array->ndim());
  };
  copyMethod.lower = lowerCopy;
  library.add(std::move(copyMethod));
  addNumpyFunction(
      library, "copy", {{"a"}},
      [](const LibraryCall &call) {
        const Type *array = arrayArgument(call);
        return keptOrderCopyType(array->dtype(), array);
      },
      lowerCopy);
  addNumpyFunction(
      library, "astype", {{"a"}, {"dtype", true}},
      [](const LibraryCall &call) {
        const Type *array = arrayArgument(call);
        return keptOrderCopyType(dtypeArgument(call, 1, array->dtype()), array);
      },
      lowerCopy, true);
  LibraryFunction fill; // a.fill(value), in place
  fill.name = "array.fill";
  fill.parameters = {{"a"}, {"value"}};
  fill.type = [](const LibraryCall &call) {
    const Type *array = arrayArgument(call);
    if (array->isReadonly())
      throwTypingError("cannot modify a read-only array (fill)", call.location);
    const Type *dtype = array->dtype();
    // text into fixed-width strings (truncated or NUL-padded), numbers into numbers
    bool accepted = types::isCharSequence(dtype)
                        ? charSequenceStoreAllowed(dtype, call.argumentTypes[1])
                        : call.argumentTypes[1]->isNumber() && !dtype->isRecord();
    if (!accepted)
      throwNoImplementation(call);
    return types::none();
  };
  fill.lower = [](LoweringApi &lowering, const LibraryCall &call,
                  const std::vector<llvm::Value *> &values) {
    lowering.arrays().assignIntoArray(values[0], call.argumentTypes[0], values[1],
                                      call.argumentTypes[1]);
    return noneValue(lowering);
  };
  library.add(std::move(fill));
  auto flatType = [](const LibraryCall &call) {
    return newArrayType(arrayArgument(call)->dtype(), 1);
  };
  // ravel views a C array (read-only when it is, as NumPy's view) and copies any other
  auto raveledType = [](const LibraryCall &call) {
    const Type *array = arrayArgument(call);
    return types::array(array->dtype(), 1, 'C', array->layout() == 'C' && array->isReadonly());
  };
  addNumpyFunction(
      library, "ravel", {{"a"}}, raveledType,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return reshapeArray(lowering, values[0], call.argumentTypes[0],
                            {lowering.irBuilder().getInt64(-1)}, call.resultType);
      },
      true);
  LibraryFunction flatten;
  flatten.name = "array.flatten";
  flatten.parameters = {{"a"}};
  flatten.type = flatType;
  flatten.lower = lowerFlatten;
  library.add(std::move(flatten));
  addNumpyFunction(
      library, "transpose", {{"a"}},
      [](const LibraryCall &call) { return transposedType(arrayArgument(call)); },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return transposeArray(lowering, values[0], call.argumentTypes[0], call.resultType);
      },
      true);
  for (const char *prefix : {"numpy.", "array."}) {
    LibraryFunction reshape; // reshape(a, shape), a.reshape(d0, d1, ...)
    reshape.name = prefix + std::string("reshape");
    reshape.parameters = {{"a"}, {"shape"}};
    reshape.variadic = true;
    reshape.type = typeReshape;
    reshape.lower = lowerReshape;
    library.add(std::move(reshape));
  }
}

} // namespace taipan
