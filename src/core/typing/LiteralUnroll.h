// `for x in literal_unroll(t)` and the constant strings it keeps literal: which calls are
// literal_unroll, and the string values known while compiling (tuple items, field names).
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"
#include "typing/GlobalResolver.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace taipan {

/// The value assigned to each local variable that the function assigns exactly once, by a
/// plain `name = value` (null for a variable assigned more than once, or otherwise).
using SingleAssignments = std::map<std::string, const Expr *>;

/// The single assignments of `source`'s body (see SingleAssignments).
SingleAssignments findSingleAssignments(const FunctionSource &source);

/// What constant evaluation of strings reads: the function's frozen globals (by expression
/// id), the single assignments of its locals and the types typing gave expressions so far.
struct ConstantStringContext {
  const std::unordered_map<int, GlobalValue> &globals;
  const SingleAssignments &assignments;
  const std::vector<const Type *> &expressionTypes;
};

/// The string `expr` always evaluates to, when compiling can know it: a literal, an
/// expression typed as a string literal, a global or closure variable holding a string, a
/// local assigned once from such a value, or a constant position of a tuple whose items are
/// known (`fs[1]` after `fs = ('e', 'f')`, or of a global tuple).
std::optional<std::string> constantString(const Expr *expr, const ConstantStringContext &context);

/// For a tuple expression, a global or closure tuple, or a local assigned once from one of
/// those, the string each item is known to be (nullopt for an item that is not a known
/// string); nullopt when `expr` is none of them.
std::optional<std::vector<std::optional<std::string>>>
constantTupleStrings(const Expr *expr, const ConstantStringContext &context);

/// The types the copies of `for x in literal_unroll(t)` give their target, one per item of
/// the tuple type `tuple`: each item's type, or the string literal of an item known to be a
/// constant string (so that `rec[x]` names a field). Empty when the loop runs as an ordinary
/// loop instead (a tuple of one element type with no literal item).
std::vector<const Type *> unrolledItemTypes(const Type *tuple, const Expr *container,
                                            const ConstantStringContext &context);

} // namespace taipan
