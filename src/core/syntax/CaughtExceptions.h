// The rewrite that gives `except E as e` its uses in compiled code: `str(e)`, `print(e)` and
// `raise e` read the caught exception through a hidden variable holding its handled-stack index.
#pragma once

#include "syntax/SyntaxTree.h"

#include <string>

namespace taipan {

/// The prefix of the hidden variables that hold a caught exception's handled-stack index. It is
/// not a Python identifier, so no user name can clash with it.
inline constexpr const char *CaughtNamePrefix = "$caught.";
/// The callee names the rewrite uses; typing gives them builtin types (library/Strings.cpp).
inline constexpr const char *CaughtIndexCallee = "$taipan.caught_index";
inline constexpr const char *CaughtMessageCallee = "$taipan.caught_message";

/// Whether `expr` is a read of a hidden caught-exception variable.
bool isCaughtExceptionName(const Expr *expr);

/// Rewrites every `except ... as name` whose body uses `name`: the handler starts with
/// `$caught.name.k = $taipan.caught_index()`, `str(name)` and `print(..., name, ...)` read the
/// message with `$taipan.caught_message(...)`, and `raise name` raises the caught exception
/// again. Any other use (an attribute such as `name.args`, storing or passing the exception,
/// the name outside its handler) throws UnsupportedError at the user's line. Runs once, on the
/// tree as read.
void rewriteCaughtExceptions(FunctionSource &source);

} // namespace taipan
