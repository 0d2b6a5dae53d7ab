// Slice objects as values (types::sliceValue): the slice() constructor, the start, stop and step
// attributes and slice.indices(), as Numba supports them. Indexing with a slice value is lowered
// where each container is indexed (arrays, lists, strings).
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "runtime/Runtime.h"

#include <limits>

namespace taipan {
namespace {

/// slice(stop), slice(start, stop), slice(start, stop, step) of integers and None. A slice whose
/// step is None is Numba's slice2_type (a unit step, so a view stays contiguous).
const Type *typeSlice(const LibraryCall &call) {
  const std::vector<const Type *> &arguments = call.argumentTypes;
  for (const Type *argument : arguments)
    if (!argument->isIntegerLike() && !argument->isNone())
      throwTypingError("slice() takes integers or None, not " + argument->name(), call.location);
  return types::sliceValue(arguments.size() == 3 && !arguments[2]->isNone());
}

/// The four fields of types::sliceValue: None bounds become CPython's PySlice_Unpack extremes
/// (Numba's slice defaults), chosen by the step's sign at run time; a zero step is kept, and
/// raises where the slice is used, as in CPython.
llvm::Value *lowerSlice(LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const std::vector<const Type *> &types = call.argumentTypes;
  // slice(x) is slice(None, x, None).
  size_t first = types.size() == 1 ? 1 : 0;
  llvm::Value *parts[3] = {nullptr, nullptr, nullptr};
  int64_t none = 0;
  for (size_t i = 0; i < 3; ++i) {
    size_t argument = i - first;
    if (i < first || argument >= types.size() || types[argument]->isNone())
      none |= int64_t(1) << i;
    else
      parts[i] = lowering.castValue(values[argument], types[argument], types::int64());
  }
  const int64_t largest = std::numeric_limits<int64_t>::max();
  const int64_t smallest = std::numeric_limits<int64_t>::min();
  llvm::Value *step = parts[2] ? parts[2] : builder.getInt64(1);
  llvm::Value *negative = builder.CreateICmpSLT(step, builder.getInt64(0));
  llvm::Value *start =
      parts[0] ? parts[0]
               : builder.CreateSelect(negative, builder.getInt64(largest), builder.getInt64(0));
  llvm::Value *stop = parts[1] ? parts[1]
                               : builder.CreateSelect(negative, builder.getInt64(smallest),
                                                      builder.getInt64(largest));
  llvm::Value *slice = llvm::UndefValue::get(valueType(lowering.llvmContext(), call.resultType));
  slice = builder.CreateInsertValue(slice, start, 0);
  slice = builder.CreateInsertValue(slice, stop, 1);
  slice = builder.CreateInsertValue(slice, step, 2);
  return builder.CreateInsertValue(slice, builder.getInt64(none), 3);
}

} // namespace

void registerSliceFunctions(Library &library) {
  library.add("slice", {{"", false}, {"", true}, {"", true}}, typeSlice, lowerSlice);
  // s.start, s.stop and s.step: the stored integers, None bounds already replaced (Numba's
  // attributes, which are intp).
  addInt64FieldAttributes(library, "slice", {"start", "stop", "step"});
  // s.indices(length): CPython's (start, stop, step) for a sequence of that length.
  library.add(
      "slice.indices", {{"self", false}, {"length", false}},
      [](const LibraryCall &call) {
        if (!call.argumentTypes[1]->isIntegerLike())
          throwTypingError("'" + call.argumentTypes[1]->name() +
                               "' object cannot be interpreted as an integer",
                           call.location);
        return types::tuple({types::int64(), types::int64(), types::int64()});
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *length = lowering.castValue(values[1], call.argumentTypes[1], types::int64());
        lowering.exceptions().raiseIf(builder.CreateICmpSLT(length, builder.getInt64(0)),
                                      ValueErrorId, "length should not be negative");
        ContainerLowering::ListSlice adjusted =
            lowering.containers().listSliceOfValue(values[0], length);
        return lowering.lowerTuple({adjusted.start, adjusted.stop, adjusted.step}, call.resultType);
      });
}

} // namespace taipan
