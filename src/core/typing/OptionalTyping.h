// Optional values (Numba's Optional(T)): a variable or return that is a value on some paths
// and None on others, how such types unify, and where a use keeps them optional.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <set>

namespace taipan {

/// Whether `type` may be the value of an Optional: a run-time value that is not None and not
/// already optional: a number, a tuple, or a value holding references (an array, a string, a
/// list, dict or set, tuples of them). None's payload is all zero, so the references an absent
/// value "holds" are null pointers, which reference counting skips: variables, temporaries and
/// the unwind block release an Optional(array) as they release an array.
bool canBeOptional(const Type *type);

/// The type of the value a yield expression gives in a generator yielding `yield`
/// (`x = yield v`): what send() passes, None for next(), so Optional(T) of the yielded type T
/// (T itself when it is optional already); null when T holds references (send() then is not
/// supported) or is not known yet.
const Type *generatorSentType(const Type *yield);

/// The promise of a generator yielding `yield` as a tuple type whose memory form is its layout
/// (runtime/Generators.h): status, control, the value, and the sent value where there is one.
const Type *generatorPromiseType(const Type *yield);

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
