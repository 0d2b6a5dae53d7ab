// Typing of NumPy datetime64/timedelta64 scalars where the language decides: operators and
// comparisons, with NumPy's unit promotion (types/DatetimeUnits.h).
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

namespace taipan {

/// The type of `left op right` when either operand is a datetime64 or timedelta64 scalar;
/// nullptr when neither is. Throws a TypingError where NumPy refuses the operation (datetime +
/// datetime, years mixed with days) or Numba has no implementation.
const Type *datetimeBinaryResultType(BinaryOp op, const Type *left, const Type *right,
                                     SourceLocation location);
/// `-td`, `+td`; nullptr when the operand is not datetime-like; a TypingError for datetimes.
const Type *datetimeUnaryResultType(UnaryOp op, const Type *operand, SourceLocation location);
/// Whether comparison `op` involves a datetime-like operand; throws a TypingError when the
/// two cannot be compared (different kinds, or units NumPy cannot relate).
bool checkDatetimeComparison(CompareOp op, const Type *left, const Type *right,
                             SourceLocation location);
/// The unit both operands of a datetime-like operation convert to (the finer one), as typing
/// checked it: what lowering scales to.
int datetimeOperationUnit(const Type *left, const Type *right);

} // namespace taipan
