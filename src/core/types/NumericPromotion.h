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

/// Whether a value of `from` converts implicitly to `to` without a cast the user would notice
/// (used to pick an overload among explicit signatures).
bool canConvertImplicitly(const Type *from, const Type *to);

} // namespace taipan
