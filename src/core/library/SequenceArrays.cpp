// np.array and np.asarray of nested sequences: the type NumPy gives (depth and dtype) and the
// lowering that measures the sequence, checks that it is rectangular and copies it.
#include "library/SequenceArrays.h"

#include "library/NumpySupport.h"
#include "lower/ArrayLowering.h"
#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"

namespace taipan {
namespace {

/// How deep a sequence nests and the unified type of its innermost items.
struct Nesting {
  int ndim = -1; ///< -1: not a sequence NumPy makes an array of
  const Type *dtype = nullptr;
};

Nesting nestingOf(const Type *type) {
  if (type->isNumber())
    return {0, type};
  if (type->isArray())
    return type->dtype()->isNumber() ? Nesting{type->ndim(), type->dtype()} : Nesting{};
  if (type->isList()) {
    if (!type->itemType()) // `[]` whose items were never typed: NumPy's float64
      return {1, types::float64()};
    Nesting inner = nestingOf(type->itemType());
    return inner.ndim < 0 ? Nesting{} : Nesting{inner.ndim + 1, inner.dtype};
  }
  if (type->isTuple()) {
    if (type->elements().empty())
      return {1, types::float64()};
    Nesting unified;
    for (const Type *element : type->elements()) {
      Nesting inner = nestingOf(element);
      if (inner.ndim < 0 || (unified.dtype && inner.ndim != unified.ndim))
        return {};
      const Type *dtype = unified.dtype ? unifyTypes(unified.dtype, inner.dtype) : inner.dtype;
      if (!dtype)
        return {};
      unified = {inner.ndim, dtype};
    }
    return {unified.ndim + 1, unified.dtype};
  }
  return {};
}

/// Emits the copy of one nested sequence into the new array.
class SequenceCopy {
public:
  SequenceCopy(LoweringApi &lowering, const Type *resultType)
      : lowering(lowering), builder(lowering.irBuilder()), resultType(resultType),
        dtype(resultType->dtype()) {
    for (int axis = 0; axis < resultType->ndim(); ++axis) {
      extents.push_back(lowering.createEntryAlloca(builder.getInt64Ty(), "sequence.extent"));
      builder.CreateStore(builder.getInt64(0), extents.back());
    }
  }

  /// Stores the extents the types fix (tuples' lengths), which an empty list above them keeps.
  void presetTupleExtents(const Type *type, int axis) {
    if (type->isList() && type->itemType())
      presetTupleExtents(type->itemType(), axis + 1);
    if (type->isTuple() && !type->elements().empty()) {
      builder.CreateStore(builder.getInt64(type->elements().size()), extents[axis]);
      presetTupleExtents(type->elements()[0], axis + 1);
    }
  }

  /// Records the extents the first item at each depth gives.
  void measure(llvm::Value *value, const Type *type, int axis) {
    if (type->isArray()) {
      std::vector<llvm::Value *> shape = lowering.arrays().arrayShape(value, type);
      for (size_t i = 0; i < shape.size(); ++i)
        builder.CreateStore(shape[i], extents[axis + i]);
      return;
    }
    if (type->isNumber())
      return;
    if (type->isTuple()) {
      builder.CreateStore(builder.getInt64(type->elements().size()), extents[axis]);
      if (!type->elements().empty() && axis + 1 < resultType->ndim())
        measure(lowering.tupleElement(value, type, 0), type->elements()[0], axis + 1);
      return;
    }
    llvm::Value *length = lowering.containers().listLength(value);
    builder.CreateStore(length, extents[axis]);
    if (!type->itemType() || axis + 1 >= resultType->ndim())
      return;
    // NumPy stops at an empty list: np.array([]) is 1-D float64 whatever the list's item type
    // says. The compiled array's dimensions are fixed, so that case is an error, not a
    // different shape.
    lowering.exceptions().raiseIf(
        builder.CreateICmpSLE(length, builder.getInt64(0)), ValueErrorId,
        "np.array of an empty list nested " + std::to_string(resultType->ndim()) +
            " deep: NumPy would give fewer dimensions than the compiled " +
            std::to_string(resultType->ndim()) + "-d array");
    measure(lowering.containers().loadListItem(value, type, builder.getInt64(0)), type->itemType(),
            axis + 1);
  }

  llvm::Value *allocate() {
    std::vector<llvm::Value *> shape;
    for (llvm::AllocaInst *extent : extents)
      shape.push_back(builder.CreateLoad(builder.getInt64Ty(), extent));
    array = lowering.arrays().allocateArray(resultType, shape);
    return array;
  }

  /// Stores `value` (of `type`) at `indices`, checking each extent against the measured one.
  void fill(llvm::Value *value, const Type *type, std::vector<llvm::Value *> indices) {
    int axis = static_cast<int>(indices.size());
    if (type->isNumber()) {
      lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, indices),
                                     lowering.castValue(value, type, dtype), dtype);
      return;
    }
    if (type->isArray()) {
      std::vector<llvm::Value *> shape = lowering.arrays().arrayShape(value, type);
      for (size_t i = 0; i < shape.size(); ++i)
        requireExtent(shape[i], axis + static_cast<int>(i));
      lowering.arrays().forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
        std::vector<llvm::Value *> target = indices;
        target.insert(target.end(), at.begin(), at.end());
        llvm::Value *element = lowering.arrays().loadElement(
            lowering.arrays().elementAddress(value, type, at), type->dtype());
        lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, target),
                                       lowering.castValue(element, type->dtype(), dtype), dtype);
      });
      return;
    }
    if (type->isTuple()) {
      requireExtent(builder.getInt64(type->elements().size()), axis);
      for (size_t i = 0; i < type->elements().size(); ++i) {
        std::vector<llvm::Value *> inner = indices;
        inner.push_back(builder.getInt64(i));
        fill(lowering.tupleElement(value, type, static_cast<unsigned>(i)), type->elements()[i],
             inner);
      }
      return;
    }
    llvm::Value *length = lowering.containers().listLength(value);
    requireExtent(length, axis);
    if (!type->itemType())
      return;
    lowering.arrays().forEachIndex({length}, [&](const std::vector<llvm::Value *> &at) {
      std::vector<llvm::Value *> inner = indices;
      inner.push_back(at[0]);
      fill(lowering.containers().loadListItem(value, type, at[0]), type->itemType(), inner);
    });
  }

private:
  /// NumPy's error for a ragged sequence (NumPy 1.24 and later).
  void requireExtent(llvm::Value *extent, int axis) {
    llvm::Value *expected = builder.CreateLoad(builder.getInt64Ty(), extents[axis]);
    lowering.exceptions().raiseIf(
        builder.CreateICmpNE(extent, expected), ValueErrorId,
        "setting an array element with a sequence. The requested array has an "
        "inhomogeneous shape after " +
            std::to_string(axis) + " dimensions.");
  }

  LoweringApi &lowering;
  llvm::IRBuilder<> &builder;
  const Type *resultType;
  const Type *dtype;
  std::vector<llvm::AllocaInst *> extents;
  llvm::Value *array = nullptr;
};

} // namespace

const Type *sequenceArrayType(const Type *source) {
  if (!source->isList() && !source->isTuple())
    return nullptr;
  Nesting nesting = nestingOf(source);
  return nesting.ndim < 0 ? nullptr : newArrayType(nesting.dtype, nesting.ndim);
}

llvm::Value *lowerSequenceArray(LoweringApi &lowering, llvm::Value *source, const Type *sourceType,
                                const Type *resultType) {
  SequenceCopy copy(lowering, resultType);
  copy.presetTupleExtents(sourceType, 0);
  copy.measure(source, sourceType, 0);
  llvm::Value *array = copy.allocate();
  copy.fill(source, sourceType, {});
  return array;
}

} // namespace taipan
