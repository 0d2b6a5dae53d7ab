// The attributes of arrays (a.shape, a.T, a.real...), one library entry each: reading
// `a.<name>` is a call of "array.<name>" with the array; and a.view(dtype), a view of them.
#include "library/NumpySupport.h"
#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "types/CharSequences.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

/// array.<name>: an attribute with its type rule (given the array type) and its lowering
/// (given the array and the attribute's type).
void addAttribute(
    Library &library, const std::string &name, std::function<const Type *(const Type *)> type,
    std::function<llvm::Value *(LoweringApi &, llvm::Value *, const Type *, const Type *)> lower) {
  LibraryFunction function;
  function.name = "array." + name;
  function.parameters = {{"self"}};
  function.isAttribute = true;
  function.type = [type](const LibraryCall &call) { return type(call.argumentTypes[0]); };
  function.lower = [lower](LoweringApi &lowering, const LibraryCall &call,
                           const std::vector<llvm::Value *> &values) {
    return lower(lowering, values[0], call.argumentTypes[0], call.resultType);
  };
  library.add(std::move(function));
}

/// A tuple of int64, one per dimension.
const Type *dimensionTuple(const Type *array) {
  return types::tuple(std::vector<const Type *>(array->ndim(), types::int64()));
}

/// shape and strides: a tuple of one array field per dimension.
void addDimensionTuple(Library &library, const std::string &name, ArrayLayout::Field field) {
  addAttribute(library, name, dimensionTuple,
               [field](LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                       const Type *resultType) {
                 std::vector<llvm::Value *> values;
                 for (int i = 0; i < arrayType->ndim(); ++i)
                   values.push_back(lowering.arrays().arrayField(array, field, i));
                 return lowering.lowerTuple(values, resultType);
               });
}

/// real and imag: views of a complex array's parts; of a real array, the array itself (real)
/// or read-only zeros (imag).
void addComplexPart(Library &library, const std::string &name) {
  bool isImag = name == "imag";
  addAttribute(
      library, name,
      [isImag](const Type *array) {
        const Type *dtype = array->dtype();
        if (dtype->isComplex())
          return types::array(types::floating(dtype->bits() / 2), array->ndim(), 'A',
                              array->isReadonly());
        return isImag ? types::array(dtype, array->ndim(), 'C', true) : array;
      },
      [isImag](LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
               const Type *resultType) -> llvm::Value * {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *dtype = arrayType->dtype();
        int ndim = arrayType->ndim();
        if (dtype->isComplex()) {
          // A view of every other float, starting at the real or the imaginary part.
          llvm::Value *view = llvm::UndefValue::get(valueType(lowering.llvmContext(), resultType));
          for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount})
            view = lowering.arrays().withArrayField(view, field,
                                                    lowering.arrays().arrayField(array, field));
          view = lowering.arrays().withArrayField(view, ArrayLayout::ItemSize,
                                                  builder.getInt64(dtype->bits() / 16));
          llvm::Value *data = lowering.arrays().arrayField(array, ArrayLayout::Data);
          if (isImag)
            data =
                builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), data, dtype->bits() / 16);
          view = lowering.arrays().withArrayField(view, ArrayLayout::Data, data);
          for (int i = 0; i < ndim; ++i) {
            view = lowering.arrays().withArrayField(
                view, ArrayLayout::Shape,
                lowering.arrays().arrayField(array, ArrayLayout::Shape, i), i);
            view = lowering.arrays().withArrayField(
                view, ArrayLayout::Strides,
                lowering.arrays().arrayField(array, ArrayLayout::Strides, i), i);
          }
          lowering.incref(view, resultType);
          lowering.addTemporary(view, resultType);
          return view;
        }
        if (!isImag)
          return array;
        const Type *zerosType = types::array(dtype, ndim, 'C', false);
        llvm::Value *zeros = lowering.arrays().allocateArray(
            zerosType, lowering.arrays().arrayShape(array, arrayType));
        lowering.arrays().assignIntoArray(
            zeros, zerosType,
            llvm::Constant::getNullValue(valueType(lowering.llvmContext(), dtype)), dtype);
        return zeros;
      });
}

/// a.view(dtype): the same memory seen as items of another dtype. An item size that changes
/// rescales the last axis, which must be contiguous (NumPy's rules and messages).
void addView(Library &library) {
  LibraryFunction function;
  function.name = "array.view";
  function.parameters = {{"self"}, {"dtype"}};
  function.type = [](const LibraryCall &call) -> const Type * {
    const Type *array = arrayArgument(call);
    const Type *dtype = dtypeArgument(call, 1, nullptr);
    if (!dtype)
      throwNoImplementation(call);
    if (dtype->itemSize() == array->dtype()->itemSize())
      return types::array(dtype, array->ndim(), array->layout(), array->isReadonly());
    // A 0-d array or an item size that does not divide the old one is NumPy's ValueError when
    // the view is made (lowering raises it), as Numba's tests expect.
    return types::array(dtype, array->ndim(), array->layout() == 'C' ? 'C' : 'A',
                        array->isReadonly());
  };
  function.lower = [](LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    ArrayLowering &arrays = lowering.arrays();
    const Type *arrayType = call.argumentTypes[0];
    const Type *resultType = call.resultType;
    llvm::Value *array = values[0];
    int64_t oldSize = static_cast<int64_t>(arrayType->dtype()->itemSize());
    int64_t newSize = static_cast<int64_t>(resultType->dtype()->itemSize());
    int ndim = arrayType->ndim();
    llvm::Value *view = llvm::UndefValue::get(valueType(lowering.llvmContext(), resultType));
    for (auto field :
         {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount, ArrayLayout::Data})
      view = arrays.withArrayField(view, field, arrays.arrayField(array, field));
    view = arrays.withArrayField(view, ArrayLayout::ItemSize, builder.getInt64(newSize));
    for (int i = 0; i < ndim; ++i) {
      view = arrays.withArrayField(view, ArrayLayout::Shape,
                                   arrays.arrayField(array, ArrayLayout::Shape, i), i);
      view = arrays.withArrayField(view, ArrayLayout::Strides,
                                   arrays.arrayField(array, ArrayLayout::Strides, i), i);
    }
    if (newSize != oldSize && ndim == 0) {
      lowering.exceptions().raiseIf(
          builder.getInt1(true), ValueErrorId,
          "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    } else if (newSize != oldSize) {
      int last = ndim - 1;
      llvm::Value *extent = arrays.arrayField(array, ArrayLayout::Shape, last);
      llvm::Value *count = arrays.arrayField(array, ArrayLayout::ItemCount);
      llvm::Value *contiguous = builder.CreateOr(
          builder.CreateICmpEQ(arrays.arrayField(array, ArrayLayout::Strides, last),
                               builder.getInt64(oldSize)),
          builder.CreateOr(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                           builder.CreateICmpEQ(count, builder.getInt64(0))));
      lowering.exceptions().raiseIf(
          builder.CreateNot(contiguous), ValueErrorId,
          "To change to a dtype of a different size, the last axis must be contiguous");
      // NumPy checks the contiguity first, then the sizes.
      if (newSize < oldSize && oldSize % newSize != 0)
        lowering.exceptions().raiseIf(builder.getInt1(true), ValueErrorId,
                                      "When changing to a smaller dtype, its size must be a "
                                      "divisor of the size of original dtype");
      llvm::Value *bytes = builder.CreateMul(extent, builder.getInt64(oldSize));
      lowering.exceptions().raiseIf(
          builder.CreateICmpNE(builder.CreateSRem(bytes, builder.getInt64(newSize)),
                               builder.getInt64(0)),
          ValueErrorId,
          "When changing to a larger dtype, its size must be a divisor of the total size in "
          "bytes of the last axis of the array.");
      llvm::Value *newExtent = builder.CreateSDiv(bytes, builder.getInt64(newSize));
      view = arrays.withArrayField(view, ArrayLayout::Shape, newExtent, last);
      view = arrays.withArrayField(view, ArrayLayout::Strides, builder.getInt64(newSize), last);
      // The item count scales with the last extent (an empty array stays empty).
      llvm::Value *others = builder.CreateSDiv(
          count, builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(0)),
                                      builder.getInt64(1), extent));
      view = arrays.withArrayField(
          view, ArrayLayout::ItemCount,
          builder.CreateSelect(builder.CreateICmpEQ(count, builder.getInt64(0)), count,
                               builder.CreateMul(others, newExtent)));
    }
    lowering.incref(view, resultType);
    lowering.addTemporary(view, resultType);
    return view;
  };
  library.add(std::move(function));
}

} // namespace

void registerArrayAttributes(Library &library) {
  addView(library);
  addDimensionTuple(library, "shape", ArrayLayout::Shape);
  addDimensionTuple(library, "strides", ArrayLayout::Strides);
  auto int64Type = [](const Type *) { return types::int64(); };
  addAttribute(library, "ndim", int64Type,
               [](LoweringApi &lowering, llvm::Value *, const Type *arrayType, const Type *)
                   -> llvm::Value * { return lowering.irBuilder().getInt64(arrayType->ndim()); });
  addAttribute(library, "size", int64Type,
               [](LoweringApi &lowering, llvm::Value *array, const Type *, const Type *) {
                 return lowering.arrays().arrayField(array, ArrayLayout::ItemCount);
               });
  addAttribute(library, "itemsize", int64Type,
               [](LoweringApi &lowering, llvm::Value *array, const Type *, const Type *) {
                 return lowering.arrays().arrayField(array, ArrayLayout::ItemSize);
               });
  addAttribute(library, "nbytes", int64Type,
               [](LoweringApi &lowering, llvm::Value *array, const Type *, const Type *) {
                 return lowering.irBuilder().CreateMul(
                     lowering.arrays().arrayField(array, ArrayLayout::ItemCount),
                     lowering.arrays().arrayField(array, ArrayLayout::ItemSize));
               });
  // a.dtype is a compile-time value (np.float64...), for dtype arguments: nothing to emit. A
  // record array's is its dtype object, as a record dtype global is (np.empty(n, a.dtype)).
  addAttribute(
      library, "dtype",
      [](const Type *array) {
        return array->dtype()->isRecord() || types::isCharSequence(array->dtype())
                   ? types::dtypeValue(array->dtype())
                   : types::builtin("numpy." + array->dtype()->name());
      },
      [](LoweringApi &lowering, llvm::Value *, const Type *, const Type *resultType) {
        return llvm::UndefValue::get(valueType(lowering.llvmContext(), resultType));
      });
  // a.flat is iterated and indexed like the raveled array: a view of a C array, and a copy of
  // any other, which is read-only so that `a.flat[i] = v` is refused at typing instead of
  // writing into the copy (silently leaving `a` as it was).
  addAttribute(
      library, "flat",
      [](const Type *array) {
        return types::array(array->dtype(), 1, 'C', array->isReadonly() || array->layout() != 'C');
      },
      [](LoweringApi &lowering, llvm::Value *array, const Type *arrayType, const Type *resultType) {
        return reshapeArray(lowering, array, arrayType, {lowering.irBuilder().getInt64(-1)},
                            resultType);
      });
  addAttribute(library, "T", transposedType, transposeArray);
  addComplexPart(library, "real");
  addComplexPart(library, "imag");
}

} // namespace taipan
