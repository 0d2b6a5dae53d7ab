// The library registry: every function taipan implements in C++ is one LibraryFunction (its
// parameters, the targets it runs on, its type rule and its lowering), found by qualified name.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Value;
} // namespace llvm

namespace taipan {

class FunctionLowering;
struct LibraryFunction;

/// The targets a library function has an implementation for.
enum LibraryTargets : unsigned { OnCpu = 1, OnGpu = 2, OnEveryTarget = OnCpu | OnGpu };

/// A parameter: its name (for keyword arguments; empty when positional-only) and whether a
/// call may leave it out. Left-out parameters reach the rules as absent trailing arguments.
struct LibraryParameter {
  std::string name;
  bool optional = false;
};

/// The inner loop a ufunc call runs, as its type rule chose it (NumPy's loop selection): the
/// element type each input is converted to, and the element type of the output.
struct UfuncLoop {
  std::vector<const Type *> inputs;
  const Type *output = nullptr;
};

/// One call of a library function as typing bound it: the argument expressions in parameter
/// order (trailing optional ones left out), their types, and the result type once typed.
struct LibraryCall {
  const LibraryFunction *function = nullptr;
  std::vector<Expr *> arguments;
  std::vector<const Type *> argumentTypes;
  const Type *resultType = nullptr;
  SourceLocation location;
  UfuncLoop loop; ///< the loop of a ufunc call (see UfuncKernel); empty for other functions
};

/// The result type of a call; throws a TypingError (throwNoOverload) for argument types the
/// function does not take. It may record in `call` what lowering needs (a ufunc's loop).
using LibraryTypeRule = std::function<const Type *(LibraryCall &call)>;
/// Emits the call, given its lowered arguments (in the order of `call.arguments`).
using LibraryLowerRule = std::function<llvm::Value *(
    FunctionLowering &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values)>;

/// What makes a library function a ufunc (numpy.sin, numpy.add, later a user's @vectorize
/// function): it works one element at a time. Called on arrays, typing asks `selectLoop` for
/// the element types and array-expression fusion emits `lowerElement` inside its one loop.
struct UfuncKernel {
  unsigned inputs = 1;
  /// The loop for these input element types (scalars, or the dtypes of array operands, all
  /// numbers), or nullopt when the ufunc has none for them.
  std::function<std::optional<UfuncLoop>(const std::vector<const Type *> &elements)> selectLoop;
  /// One element: `values` are already converted to `call.loop.inputs`; the result has type
  /// `call.loop.output`.
  LibraryLowerRule lowerElement;
};

/// A function taipan implements in C++. `variadic` functions take any number of positional
/// arguments after their parameters (min, max, print).
struct LibraryFunction {
  std::string name; ///< qualified: "math.sqrt", "cmath.exp", "abs"
  std::vector<LibraryParameter> parameters;
  bool variadic = false;
  unsigned targets = OnEveryTarget;
  LibraryTypeRule type;
  LibraryLowerRule lower;
  std::optional<UfuncKernel> ufunc; ///< set for ufuncs (made by makeUfunc)
};

/// A ufunc entry: `parameters` (positional-only when names are empty) for the kernel's
/// inputs, and the type rule and scalar lowering every ufunc shares. The type rule records the
/// kernel's loop in the call and gives its output, or an array of it (the broadcast ndim) when
/// an operand is an array; the scalar lowering converts the arguments and runs the kernel.
LibraryFunction makeUfunc(std::string name, UfuncKernel kernel,
                          std::vector<LibraryParameter> parameters = {});

/// Every LibraryFunction, by name. Families register themselves in Library.cpp's constructor
/// (one line per family); a family's file holds one entry per function.
class Library {
public:
  static const Library &get();
  /// The function called `name`, or nullptr.
  const LibraryFunction *find(const std::string &name) const;
  void add(LibraryFunction function);

  /// Binds a call's positional arguments and keywords to `function`'s parameters, as Python
  /// does, throwing a TypingError at `location` for a bad call.
  static std::vector<Expr *> bindArguments(const LibraryFunction &function,
                                           const std::vector<Expr *> &positional,
                                           const std::vector<std::string> &keywords,
                                           const std::vector<Expr *> &keywordValues,
                                           SourceLocation location);

private:
  Library();
  std::map<std::string, LibraryFunction> functions;
};

/// Registration of each family (library/<Family>.cpp).
void registerMathFunctions(Library &library);
void registerCmathFunctions(Library &library);
void registerRandomFunctions(Library &library);
void registerUfuncs(Library &library);

/// The name of a target set for error messages ("CPU", "GPU").
std::string describeTargets(unsigned targets);

} // namespace taipan
