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

/// A tuple's index known while typing, as Numba's static_getitem takes it: one constant integer
/// (a literal, a global or closure variable frozen as an int, arithmetic on them), not a tuple of
/// them; nullopt otherwise. The position is as written (negative counts from the end).
std::optional<int64_t> constantTupleIndex(const Expr *index,
                                          const std::unordered_map<int, GlobalValue> &globals);

/// The positions a slice `slice` takes from a tuple of `length` items when its bounds and step
/// are constant integers (as for constantTupleIndex) or absent; false otherwise (or step 0).
bool constantTupleSlice(const Expr *slice, int64_t length,
                        const std::unordered_map<int, GlobalValue> &globals,
                        std::vector<int64_t> &positions);

} // namespace taipan
