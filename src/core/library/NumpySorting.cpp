// NumPy's sort and argsort, as functions and array methods: C++ sorts in the runtime
// (runtime/Sort, NaN last, argsort stable); a.sort() sorts in place, np.sort a copy.
#include "library/NumpySupport.h"
#include "lower/ArrayLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

/// A sortable array (of numbers or booleans, and writable for a sort in place).
const Type *sortedArgument(const LibraryCall &call, bool inPlace) {
  const Type *array = arrayArgument(call);
  if (inPlace && array->isReadonly())
    throwTypingError("cannot modify a read-only array (sort)", call.location);
  // The runtime sorts by a dtype code, which float16, records and fixed-width strings have none
  // of (their bytes would be read as 8-byte items; numpy_library/sorting.py sorts strings).
  const Type *dtype = array->dtype();
  if ((!dtype->isNumber() && !dtype->isDatetimeLike()) || (dtype->isFloat() && dtype->bits() < 32))
    throwUnsupported("sorting arrays of " + dtype->name() + " is not supported", call.location);
  return array;
}

/// Sorts each row of the array along the last axis: in place (a.sort(), None) or a sorted
/// copy (np.sort).
void addSort(Library &library, const std::string &name, bool inPlace) {
  LibraryFunction sort;
  sort.name = name;
  sort.parameters = {{"a"}};
  sort.type = [inPlace](const LibraryCall &call) {
    const Type *array = sortedArgument(call, inPlace);
    return inPlace ? types::none() : newArrayType(array->dtype(), array->ndim());
  };
  sort.lower = [inPlace](LoweringApi &lowering, const LibraryCall &call,
                         const std::vector<llvm::Value *> &values) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    llvm::Value *array = values[0];
    const Type *arrayType = call.argumentTypes[0];
    bool isContiguous = arrayType->layout() == 'C';
    // The runtime sorts a C-contiguous buffer: the array itself, or a copy.
    const Type *sortedType = arrayType;
    llvm::Value *sorted = array;
    if (!inPlace && isContiguous) {
      sortedType = newArrayType(arrayType->dtype(), arrayType->ndim());
      sorted = lowering.arrays().allocateArray(sortedType,
                                               lowering.arrays().arrayShape(array, arrayType));
      lowering.arrays().copyBroadcast(sorted, sortedType, array, arrayType);
    } else if (!isContiguous) {
      sorted = contiguous(lowering, array, arrayType, &sortedType);
    }
    llvm::Value *rowLength =
        arrayType->ndim()
            ? lowering.arrays().arrayField(sorted, ArrayLayout::Shape, arrayType->ndim() - 1)
            : builder.getInt64(1);
    llvm::Value *count = lowering.arrays().arrayField(sorted, ArrayLayout::ItemCount);
    llvm::Value *safeLength = builder.CreateSelect(
        builder.CreateICmpEQ(rowLength, builder.getInt64(0)), builder.getInt64(1), rowLength);
    llvm::Type *i64 = builder.getInt64Ty();
    builder.CreateCall(
        lowering.module().runtimeFunction("taipan_sort", builder.getVoidTy(),
                                          {builder.getPtrTy(), i64, i64, builder.getInt32Ty()}),
        {lowering.arrays().arrayField(sorted, ArrayLayout::Data),
         builder.CreateSDiv(count, safeLength), rowLength,
         builder.getInt32(sortDtypeCode(arrayType->dtype()))});
    if (!inPlace)
      return sorted;
    if (!isContiguous)
      lowering.arrays().copyBroadcast(array, arrayType, sorted, sortedType);
    return noneValue(lowering);
  };
  library.add(std::move(sort));
}

} // namespace

void registerNumpySortFunctions(Library &library) {
  addSort(library, "numpy.sort", false);
  addSort(library, "array.sort", true);
  // argsort of a 1-D array: the stable order of its items.
  addNumpyFunction(
      library, "argsort", {{"a"}},
      [](const LibraryCall &call) {
        if (sortedArgument(call, false)->ndim() != 1)
          throwUnsupported("argsort is supported on 1-D arrays", call.location);
        return newArrayType(types::int64(), 1);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *array = values[0];
        llvm::Type *i64 = builder.getInt64Ty();
        llvm::Value *count = lowering.arrays().arrayField(array, ArrayLayout::Shape, 0);
        llvm::Value *result = lowering.arrays().allocateArray(call.resultType, {count});
        builder.CreateCall(
            lowering.module().runtimeFunction(
                "taipan_argsort", builder.getVoidTy(),
                {builder.getPtrTy(), i64, i64, builder.getPtrTy(), builder.getInt32Ty()}),
            {lowering.arrays().arrayField(array, ArrayLayout::Data), count,
             lowering.arrays().arrayField(array, ArrayLayout::Strides, 0),
             lowering.arrays().arrayField(result, ArrayLayout::Data),
             builder.getInt32(sortDtypeCode(call.argumentTypes[0]->dtype()))});
        return result;
      },
      true);
}

} // namespace taipan
