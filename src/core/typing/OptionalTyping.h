// Optional values (Numba's Optional(T)): a variable or return that is a value on some paths
// and None on others, how such types unify, and where a use keeps them optional.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <set>

namespace taipan {

/// Whether `type` may be the value of an Optional: a run-time value that is not None, not
/// already optional and holds no references (arrays stay non-optional, as the unwind and
/// reference counting paths know nothing of a maybe-absent array).
bool canBeOptional(const Type *type);

/// unifyTypes, extended with None: T and None unify to Optional(T), Optional(T) and U to
/// Optional(unify(T, U)). nullptr when there is no common type.
const Type *unifyWithOptional(const Type *a, const Type *b);

/// The Name expressions of `source` whose use keeps an Optional value optional: the value of
/// an assignment, a return, a branch of a conditional expression, and the operand of
/// `is None`, `is not None`, `== None` or `!= None`. Every other use of an optional variable
/// reads its value, raising TypeError ("expected int64, got None") when it is None, as Numba
/// casts Optional(T) to T; inside `if x is not None:` that check never fails, which gives
/// Numba's narrowing without typing branches differently.
std::set<int> optionalPreservingUses(const FunctionSource &source);
/// The same for the statements of `block` (the copies of an unrolled loop's body).
std::set<int> optionalPreservingUses(const std::vector<Stmt *> &block);

} // namespace taipan
