// Arguments that builtins need known while typing (the shape of a shared array sizes its
// storage): the builtins' declarations, and the evaluator of constant integer expressions.
#pragma once

#include "syntax/SyntaxTree.h"
#include "typing/GlobalResolver.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace taipan {

/// An argument a builtin needs as constant integers: an int, or a tuple of ints.
struct ConstantArgument {
  size_t position = 0;     ///< which positional argument (after keywords are bound)
  std::string requirement; ///< the error's text after the builtin's name when it is not constant
};

/// Declares that calls of `builtinName` need one argument constant. Type inference evaluates
/// it at each call and records the values in TypedFunction::constantArguments (by call id),
/// where the builtin's typing and lowering read them. A family of builtins declares its own,
/// once (CudaTyping.cpp: the shapes of cuda.shared.array and cuda.local.array).
void declareConstantArgument(const std::string &builtinName, ConstantArgument argument);

/// The argument `builtinName` declared constant, or nullptr.
const ConstantArgument *constantArgumentOf(const std::string &builtinName);

/// The values of a constant integer expression, or of a tuple of them: literals, globals
/// frozen as integers or integer tuples, and + - * // on those (`(TILE, TILE + 1)`). nullopt
/// when `expr` is not one. `globals` are the function's resolved globals, by expression id.
std::optional<std::vector<int64_t>>
constantIntegers(const Expr *expr, const std::unordered_map<int, GlobalValue> &globals);

} // namespace taipan
