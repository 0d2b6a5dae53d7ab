// Typing of strings (Numba's unicode_type) where the language, not the library, decides:
// operators, comparisons, indexing and iteration. Methods and builtins are library entries.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

namespace taipan {

/// `a + b` of strings and `s * n`/`n * s`: unicode_type; nullptr when neither operand is a
/// string. Throws a TypingError for other operators or operands beside a string.
const Type *stringBinaryResultType(BinaryOp op, const Type *left, const Type *right,
                                   SourceLocation location);
/// Whether comparison `op` is between strings (`==`, `<`, `in` ...): both operands strings.
bool isStringComparison(CompareOp op, const Type *left, const Type *right);
/// `s[i]` and `s[a:b:c]`: unicode_type, after checking the index type.
const Type *stringIndexResultType(const Type *index, SourceLocation location);

} // namespace taipan
