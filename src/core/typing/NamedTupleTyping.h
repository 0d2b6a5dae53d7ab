// Typing of named tuple classes called in compiled code (`Point(1, y=2)`): the arguments bound
// to the class's fields by Python's rules, and the instance type they make.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <vector>

namespace taipan {

/// Binds the arguments of a call of the named tuple class `namedClass` (a namedTuple type,
/// whose element types are not used) in field order into `bound`: the positional ones given
/// (`positional`, the items of a `*t` already spread) and the call's keyword arguments
/// (`keywordTypes`, none to bind no keywords). Returns the instance type, its items of the
/// arguments' types (a string literal becomes a string value). A TypingError names a missing,
/// repeated or unknown field.
const Type *bindNamedTupleCall(const Expr *call, const Type *namedClass,
                               const std::vector<Expr *> &positional,
                               const std::vector<const Type *> &positionalTypes,
                               const std::vector<const Type *> &keywordTypes,
                               std::vector<Expr *> &bound, std::vector<const Type *> &boundTypes);

} // namespace taipan
