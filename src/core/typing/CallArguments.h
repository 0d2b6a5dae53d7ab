// How a call's arguments meet a jitted callee's parameters: positional and keyword arguments,
// defaults, `*args` (a tuple the call packs) and keyword-only parameters, and `f(*t)`'s items.
#pragma once

#include "syntax/SyntaxTree.h"

#include <vector>

namespace taipan {

/// Binds `positional` (with any `*t` already spread) and the call's keyword arguments to the
/// parameters of `callee`, Python's way: one entry per parameter, the argument expression or
/// null for its default. A `*args` parameter gets a tuple expression of the extra positional
/// arguments (synthetic, in `caller`'s tree). Throws TypingError as Python's TypeError would.
std::vector<Expr *> bindJitArguments(FunctionSource &caller, const FunctionSource &callee,
                                     Expr *call, const std::vector<Expr *> &positional);

/// `tuple[index]` as a synthetic expression of `source` (made once, then reused).
Expr *tupleItem(FunctionSource &source, Expr *tuple, int index);

} // namespace taipan
