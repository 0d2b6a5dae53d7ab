// carray and farray: an array view of memory a C caller owns (a cfunc's pointer arguments),
// C- or Fortran-ordered, borrowing the memory (no block, nothing released).
#include "library/NumpySupport.h"
#include "lower/ArrayLowering.h"
#include "lower/LoweringApi.h"

namespace taipan {

namespace {

/// carray(ptr, shape, dtype=None): the pointer's pointee is the dtype unless a dtype is given
/// (a void pointer needs one).
const Type *typeCArray(const LibraryCall &call, char layout) {
  const Type *pointer = call.argumentTypes[0];
  int ndim = call.argumentTypes.size() > 1 ? shapeDimensions(call.argumentTypes[1]) : -1;
  if (!pointer->isPointer() || ndim < 1)
    throwNoImplementation(call);
  const Type *dtype = dtypeArgument(call, 2, pointer->pointee());
  if (!dtype)
    throwTypingError(call.function->name + " of a void pointer needs its dtype: " +
                         call.function->name + "(pointer, shape, dtype)",
                     call.location);
  if (pointer->pointee() && dtype != pointer->pointee())
    throwTypingError(call.function->name + ": the dtype " + dtype->name() +
                         " differs from the pointer's " + pointer->pointee()->name(),
                     call.location);
  return types::array(dtype, ndim, layout, false);
}

llvm::Value *lowerCArray(LoweringApi &lowering, const LibraryCall &call,
                         const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *arrayType = call.resultType;
  std::vector<llvm::Value *> extents = shapeExtents(lowering, values[1], call.argumentTypes[1]);
  int64_t itemSize = static_cast<int64_t>(arrayType->dtype()->itemSize());
  llvm::Value *array = llvm::Constant::getNullValue(valueType(lowering.llvmContext(), arrayType));
  llvm::Value *count = builder.getInt64(1);
  for (llvm::Value *extent : extents)
    count = builder.CreateMul(count, extent);
  array = lowering.arrays().withArrayField(array, ArrayLayout::ItemCount, count);
  array =
      lowering.arrays().withArrayField(array, ArrayLayout::ItemSize, builder.getInt64(itemSize));
  array = lowering.arrays().withArrayField(array, ArrayLayout::Data, values[0]);
  // Strides: C order runs the last axis fastest, Fortran order the first.
  bool fortran = arrayType->layout() == 'F';
  size_t ndim = extents.size();
  llvm::Value *stride = builder.getInt64(itemSize);
  for (size_t step = 0; step < ndim; ++step) {
    size_t axis = fortran ? step : ndim - 1 - step;
    array = lowering.arrays().withArrayField(array, ArrayLayout::Shape, extents[axis],
                                             static_cast<int>(axis));
    array = lowering.arrays().withArrayField(array, ArrayLayout::Strides, stride,
                                             static_cast<int>(axis));
    stride = builder.CreateMul(stride, extents[axis]);
  }
  return array;
}

} // namespace

void registerCArrayFunctions(Library &library) {
  for (char layout : {'C', 'F'}) {
    LibraryFunction function;
    function.name = layout == 'C' ? "taipan.carray" : "taipan.farray";
    function.parameters = {{"ptr"}, {"shape"}, {"dtype", true}};
    function.targets = OnEveryTarget; // a borrowed view: nothing to allocate on the GPU either
    function.type = [layout](LibraryCall &call) { return typeCArray(call, layout); };
    function.lower = lowerCArray;
    library.add(std::move(function));
  }
}

} // namespace taipan
