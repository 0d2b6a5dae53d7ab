// Typing of NumPy arrays: indexing and elementwise operators with broadcasting. NumPy's
// functions, ufuncs, array methods and attributes are library entries (library/).
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <string>
#include <vector>

namespace taipan {

/// The compile-time types of index pieces other than numbers and arrays.
const Type *sliceType();
const Type *ellipsisType();
/// A 0-d array of integers, which indexes as its one integer (NumPy's rule).
bool isScalarIndexArray(const Type *type);

/// One piece of an index expression, classified.
enum class IndexPieceKind { Integer, Slice, NewAxis, Ellipsis, BooleanArray, IntegerArray };

/// The classified pieces of `index` for an array of `ndim` dimensions, with the ellipsis
/// expanded into slices. Throws a TypingError for what cannot index an array.
std::vector<IndexPieceKind>
classifyIndex(const Type *array, const std::vector<const Type *> &pieces, SourceLocation location);

/// Whether classified pieces hold an integer or boolean array (advanced indexing: a new array).
bool isSelection(const std::vector<IndexPieceKind> &kinds);

/// The type of `array[index]`: the dtype for a full integer index, else an array (a view for
/// basic indexing, laid out by viewLayout; a new array for a mask or an integer array). A slice
/// written in the index is passed as types::sliceValue(step given), not sliceType().
const Type *typeArrayIndex(const Type *array, const std::vector<const Type *> &pieces,
                           SourceLocation location);

/// Numba's layout of the view `array[pieces]` ('C', 'F' or 'A'). A slice piece is a slice value
/// type (types::sliceValue), whose sliceHasStep() says whether it may step other than 1.
char viewLayout(const Type *array, const std::vector<const Type *> &pieces);

/// The result of an operator when either side is an array, or nullptr when neither is.
/// A literal operand (`a + 1`) is weak, as in NumPy 2: it takes the array's dtype.
const Type *typeElementwiseBinary(BinaryOp op, const Type *left, const Type *right,
                                  SourceLocation location, bool leftIsLiteral = false,
                                  bool rightIsLiteral = false);
const Type *typeElementwiseCompare(CompareOp op, const Type *left, const Type *right,
                                   SourceLocation location);
const Type *typeElementwiseUnary(UnaryOp op, const Type *operand, SourceLocation location);

/// NumPy's promote_types: the smallest dtype holding both (int8 and uint8 give int16).
const Type *promoteDtypes(const Type *a, const Type *b);

/// The dtype a dtype argument names (np.float32, float, a.dtype), or nullptr.
const Type *dtypeFromArgument(const Type *argument);

} // namespace taipan
