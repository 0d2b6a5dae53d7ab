// Numba's rules for the result types of arithmetic on scalars, and for unifying the types a
// variable is assigned. Shared by every target; nullptr means "no such operation".
#pragma once

#include "support/Operators.h"
#include "types/Type.h"

namespace taipan {

/// The type a variable takes when it is assigned values of both types, or nullptr.
const Type *unifyTypes(const Type *a, const Type *b);

/// The common type both operands convert to before `op` is computed, or nullptr when the
/// operation does not exist for these types. For comparisons this is the comparison type.
const Type *binaryOperandType(BinaryOp op, const Type *left, const Type *right);

/// Whether `type` is uint64, whose values at and above 2**63 an int64 cannot hold.
bool isUnsigned64(const Type *type);

/// The integer type an integral value made from a real of `type` takes (int(), round(),
/// math.floor/ceil/trunc, an integer dict key): a uint64 stays one, any other real gives int64,
/// as in Numba. An int64 would read a uint64's values at and above 2**63 as negative.
const Type *integralType(const Type *type);

/// The float a real function of math computes in: float32 stays float32, every other real
/// computes in float64 (as Numba's math does).
const Type *realMathType(const Type *type);

/// The result type of `left op right`, or nullptr.
const Type *binaryResultType(BinaryOp op, const Type *left, const Type *right);

/// The type both sides of an ordering or equality comparison are converted to, or nullptr.
const Type *comparisonOperandType(CompareOp op, const Type *left, const Type *right);

/// Whether `left is right` has an answer taipan can give as Python would. Arrays and ranges keep
/// no object identity in compiled code (a view of all of `a` looks like `a`, a variable's
/// conversion to a wider layout looks like a new array), so `is` between two such values is
/// refused; any other pair is decided by type, by address (pointers) or by value (numbers).
bool identityIsDecidable(const Type *left, const Type *right);

/// The result type of a unary operator, or nullptr.
const Type *unaryResultType(UnaryOp op, const Type *operand);

/// Numba's kinds of conversion (numba.core.typeconv.Conversion), best first.
enum class Conversion { Exact, Promote, Safe, Unsafe, Impossible };

/// How a value of `from` converts to `to` by Numba's rules: the scalar casting graph of
/// numba/core/typeconv/rules.py closed over paths (a path is as bad as its worst step, and the
/// best path counts), arrays to a wider layout or to read-only (safe), tuples element by element
/// (the worst element's kind), and values or None into an optional. A dispatcher with explicit
/// signatures ranks them by these kinds (Dispatcher._best_signature).
Conversion conversionKind(const Type *from, const Type *to);

/// Whether a value of `from` converts to `to` at all (conversionKind is not Impossible).
bool canConvertImplicitly(const Type *from, const Type *to);

} // namespace taipan
