// Constant integer expressions, evaluated while typing: the arguments library functions declare
// constant (LibraryFunction::constantArgument, such as the shape that sizes a shared array).
#pragma once

#include "support/CompileError.h"
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

/// A call needs a constant (a shared array's shape) that the function being typed receives as
/// parameters (`parameters`, by index, never assigned in its body): its caller types it again
/// with those arguments' values when they are constants there, as Numba retries with literal
/// arguments. Anywhere else it is the TypingError it carries.
class ConstantParametersNeeded : public CompileError {
public:
  ConstantParametersNeeded(const std::string &message, SourceLocation location,
                           const FunctionSource *source, std::vector<size_t> parameters)
      : CompileError(CompileErrorKind::Typing, message, location), source(source),
        parameters(std::move(parameters)) {}

  const FunctionSource *source;
  std::vector<size_t> parameters;
};

/// `literally(x)` (Numba's) of a parameter the function is not specialised for: the caller types
/// it again with the argument's value when that is a constant there; from the root function,
/// the dispatcher compiles again with the arguments' values as literals (Numba's
/// ForceLiteralArg, raised by the bindings).
class LiteralParametersNeeded : public ConstantParametersNeeded {
public:
  using ConstantParametersNeeded::ConstantParametersNeeded;
};

/// The parameters of `source` that `expr` reads where a constant is required: `expr` is a
/// parameter's name, or a tuple of such names and constant integers, and no statement of the
/// function assigns those names. Empty when `expr` is anything else.
std::vector<size_t> constantParameterReads(const Expr *expr, const FunctionSource &source,
                                           const std::unordered_map<int, GlobalValue> &globals);

/// The Name expressions of `source`'s body that read `name`; `assigned` tells whether a
/// statement (an assignment, a for loop, an except clause, a comprehension) binds it.
std::vector<Expr *> readsOfName(const FunctionSource &source, const std::string &name,
                                bool &assigned);

} // namespace taipan
