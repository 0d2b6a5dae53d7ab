// Constant integer expressions, evaluated while typing: the arguments library functions declare
// constant (LibraryFunction::constantArgument, such as the shape that sizes a shared array).
#pragma once

#include "syntax/SyntaxTree.h"
#include "typing/GlobalResolver.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace taipan {

/// The values of a constant integer expression, or of a tuple of them: literals, globals
/// frozen as integers or integer tuples, and + - * // on those (`(TILE, TILE + 1)`). nullopt
/// when `expr` is not one. `globals` are the function's resolved globals, by expression id.
std::optional<std::vector<int64_t>>
constantIntegers(const Expr *expr, const std::unordered_map<int, GlobalValue> &globals);

} // namespace taipan
