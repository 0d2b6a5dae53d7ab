// np.array and np.asarray of nested sequences: lists, tuples and arrays of numbers, to any
// depth (`np.array([[1, 2], [3, 4]])`, `np.array([np.arange(3) for _ in range(n)])`).
#pragma once

#include "library/Families.h"
#include "lower/LoweringApi.h"

namespace taipan {

/// The array type NumPy builds from a nested sequence type (lists, tuples and arrays whose
/// innermost items are numbers), with its dtype unified over the items; nullptr when `source` is
/// not such a sequence (a ragged tuple of different depths, strings, records...).
const Type *sequenceArrayType(const Type *source);

/// Lowers np.array(source) into a new array of `resultType`: the shape is read from the first
/// item at each depth, then every item is checked against it (a ragged sequence raises NumPy's
/// ValueError) and stored, converted to the result's dtype.
llvm::Value *lowerSequenceArray(LoweringApi &lowering, llvm::Value *source, const Type *sourceType,
                                const Type *resultType);

} // namespace taipan
