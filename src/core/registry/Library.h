// The library registry: every function taipan implements in C++ is one LibraryFunction (its
// parameters, the targets it runs on, its type rule and its lowering), found by qualified name.
//
// The registry sits below typing and lowering (it includes only support/, syntax/ and types/);
// the families that fill it (src/core/library/, declared in library/Families.h) sit above both.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class Value;
} // namespace llvm

namespace taipan {

class LoweringApi;
struct LibraryFunction;
struct TypedFunction;

/// The targets a library function has an implementation for.
enum LibraryTargets : unsigned { OnCpu = 1, OnGpu = 2, OnEveryTarget = OnCpu | OnGpu };

/// A parameter: its name (for keyword arguments; empty when positional-only) and whether a
/// call may leave it out. Left-out parameters reach the rules as absent trailing arguments;
/// one left out before a parameter given by keyword (`np.arange(5, dtype=t)`) is a null
/// argument (its Expr, type and lowered value are nullptr).
struct LibraryParameter {
  std::string name;
  bool optional = false;
};

/// How a for loop runs over a call of a library function (`for i, x in enumerate(a)`).
enum class LibraryIteration {
  OverResult,             ///< over the value the call returns, as over any iterable
  ArgumentsInStep,        ///< over the arguments' items in step, building nothing (zip)
  CountedArgumentsInStep, ///< the same, each item led by its index (enumerate)
};

/// The inner loop a ufunc call runs, as its type rule chose it (NumPy's loop selection): the
/// element type each input is converted to, and the element type of the output (and of the
/// second output of a ufunc with two: divmod, modf, frexp).
struct UfuncLoop {
  std::vector<const Type *> inputs;
  const Type *output = nullptr;
  const Type *secondOutput = nullptr;
};

/// One call of a library function as typing bound it: the argument expressions in parameter
/// order (trailing optional ones left out, skipped ones null), their types, and the result
/// type once typed. A read of an attribute is a call with the value as its one argument.
/// Typing fills `constants` and `iteratedByLoop` before the type rule runs; the type rule
/// records what it decides (`form`, `iteration`) so that lowering reads it instead of deciding
/// again.
struct LibraryCall {
  const LibraryFunction *function = nullptr;
  std::vector<Expr *> arguments;
  std::vector<const Type *> argumentTypes;
  const Type *resultType = nullptr;
  SourceLocation location;
  /// The values of the function's `constantArgument` at this call (the extents of
  /// cuda.shared.array's shape, the n of cuda.grid(n)); empty when it declares none.
  std::vector<int64_t> constants;
  /// The values of the function's `integerLiteralArguments` at this call, in their order:
  /// nullopt where the argument is left out or is not a constant integer (Numba's
  /// IntegerLiteral), which the type rule then judges by its type.
  std::vector<std::optional<int64_t>> integerLiterals;
  /// Which of the function's forms the type rule chose for these argument types (each family
  /// numbers its own, e.g. len of a tuple, a range or an array); 0 for a function with one.
  unsigned form = 0;
  /// Whether a for loop iterates this call; its type rule may then set `iteration`.
  bool iteratedByLoop = false;
  /// Set by the type rule when the loop iterates the arguments in step instead of the result
  /// (the call is then typed none and never lowered by itself).
  LibraryIteration iteration = LibraryIteration::OverResult;
  UfuncLoop loop; ///< the loop of a ufunc call (see UfuncKernel); empty for other functions
  /// A user ufunc's scalar function typed for the loop (UfuncKernel::scalarFunction).
  TypedFunction *elementCallee = nullptr;
};

/// The result type of a call; throws a TypingError (throwNoOverload) for argument types the
/// function does not take. It may record its decisions in the call (`form`, `iteration`, a
/// ufunc's `loop`).
using LibraryTypeRule = std::function<const Type *(LibraryCall &call)>;
/// Emits the call, given its lowered arguments (in the order of `call.arguments`).
using LibraryLowerRule = std::function<llvm::Value *(LoweringApi &lowering, const LibraryCall &call,
                                                     const std::vector<llvm::Value *> &values)>;

/// An argument a function needs known while typing, as constant integers: an int or a tuple of
/// ints (literals, frozen globals, and + - * // on those), such as the shape of a shared array.
struct LibraryConstantArgument {
  size_t position = 0;     ///< the parameter, counted after keywords are bound
  std::string requirement; ///< the error's text after the function's name when not constant
};

/// What makes a library function a ufunc (numpy.sin, numpy.add, later a user's @vectorize
/// function): it works one element at a time. Called on arrays, typing asks `selectLoop` for
/// the element types and array-expression fusion emits `lowerElement` inside its one loop.
struct UfuncKernel {
  unsigned inputs = 1;
  /// 1, or 2 for divmod, modf and frexp, whose `lowerElement` returns an LLVM struct of both.
  unsigned outputs = 1;
  /// Whether `selectLoop` also sees datetime64 and timedelta64 inputs (isnat), not numbers only.
  bool takesDatetimes = false;
  /// A 0-d array result stays an array (np.where); NumPy's ufuncs unwrap it to a scalar.
  bool keepsZeroDimensionalArrays = false;
  /// The loop for these input element types (scalars, or the dtypes of array operands, all
  /// numbers), or nullopt when the ufunc has none for them.
  std::function<std::optional<UfuncLoop>(const std::vector<const Type *> &elements)> selectLoop;
  /// One element: `values` are already converted to `call.loop.inputs`; the result has type
  /// `call.loop.output`.
  LibraryLowerRule lowerElement;
  /// A user's ufunc (@vectorize): the scalar function each element calls. Typing compiles it
  /// for the loop's input types as the call's `elementCallee`; a loop whose output is nullptr
  /// (a DUFunc meeting new types) gets the function's return type.
  std::shared_ptr<FunctionSource> scalarFunction;
};

/// LibraryCall::form of a ufunc call: fused into the array expression around it (scalars and
/// calls whose one result is a new array), or its own loop (output arguments, two outputs).
enum UfuncCallForm : unsigned { FusedUfuncCall = 0, UfuncCallWithOwnLoop = 1 };

/// A function taipan implements in C++. `variadic` functions take any number of positional
/// arguments after their parameters (min, max, print).
///
/// Methods of a type are functions named "<type>.<method>" ("array.sum") whose first parameter
/// is the value the method is called on. An attribute ("array.shape") is an entry with
/// `isAttribute` set: reading `value.<attribute>` is a call of it with the value as its one
/// argument, typed and lowered like any other call.
struct LibraryFunction {
  std::string name; ///< qualified: "math.sqrt", "cmath.exp", "abs", "array.sum", "array.shape"
  std::vector<LibraryParameter> parameters;
  bool variadic = false;
  bool isAttribute = false; ///< read as `value.<attribute>`, not called
  unsigned targets = OnEveryTarget;
  /// Typing evaluates this argument into LibraryCall::constants before the type rule runs, and
  /// reports the requirement at the call when it is not constant.
  std::optional<LibraryConstantArgument> constantArgument;
  /// Parameters (counted after keywords are bound) whose constant integer value typing
  /// records into LibraryCall::integerLiterals before the type rule runs: arguments Numba
  /// types as IntegerLiteral and the rule needs (cuda.local.array's alignment).
  std::vector<size_t> integerLiteralArguments;
  /// The lower rule lowers the arguments it needs itself (from `call.arguments`) and receives
  /// no values: print formats each argument as it lowers it; a shared array's shape is
  /// constant and never lowered.
  bool lowersArguments = false;
  /// A for loop iterating a call of it walks the arguments in step (enumerate, zip): typing
  /// then takes this entry before any overload written in Python, whose forms (generators)
  /// serve the calls no loop iterates.
  bool iteratesInStep = false;
  LibraryTypeRule type;
  LibraryLowerRule lower;
  std::optional<UfuncKernel> ufunc; ///< set for ufuncs (made by makeUfunc)
};

/// A value the library defines that is read, not called (cuda.threadIdx.x, cuda.warpsize):
/// its type, the targets it exists on and its lowering.
struct LibraryValue {
  std::string name; ///< qualified, like a function's
  const Type *type = nullptr;
  unsigned targets = OnEveryTarget;
  std::function<llvm::Value *(LoweringApi &lowering)> lower;
};

/// The type of a ufunc call once its loop's output is known: the output, or an array of it
/// (the operands' largest ndim) when an operand is an array of at least one dimension (NumPy
/// unwraps 0-d results); a tuple of two for a ufunc with two outputs. An output argument
/// (`np.add(a, b, out)`, `out=`) is the result in its place.
const Type *ufuncResultType(const LibraryCall &call);

/// The output arguments of a ufunc call, one per output (nullptr where none is given): the
/// arguments after the inputs, a tuple given as `out=` spread over them, None left out.
std::vector<const Type *> ufuncOutputArguments(const LibraryCall &call);

/// Every LibraryFunction and LibraryValue, by name. Families register themselves in
/// library/Families.cpp (one line per family); a family's file holds one entry per name.
class Library {
public:
  static const Library &get();
  /// Adds a function while programs compile (a user's ufunc). Callers hold the compiler's
  /// lock, which every reader of the library holds too; entries are never removed or moved.
  static void addAtRunTime(LibraryFunction function);
  /// The function called `name`, or nullptr.
  const LibraryFunction *find(const std::string &name) const;
  void add(LibraryFunction function);
  /// A function on every target with these parameters (named where Python takes them by
  /// keyword) and rules; `variadic` ones take further positional arguments.
  void add(std::string name, std::vector<LibraryParameter> parameters, LibraryTypeRule type,
           LibraryLowerRule lower, bool variadic = false);
  /// The value called `name`, or nullptr.
  const LibraryValue *findValue(const std::string &name) const;
  void addValue(LibraryValue value);
  /// Whether `name` is a namespace of library names ("cuda.atomic", "cuda.threadIdx"): a
  /// dotted prefix of a function's or value's name, below its top-level module.
  bool isNamespace(const std::string &name) const;

  /// Binds a call's positional arguments and keywords to `function`'s parameters, as Python
  /// does, throwing a TypingError at `location` for a bad call (an UnsupportedError for
  /// keywords to a function whose parameters are all positional-only). Trailing left-out
  /// parameters are dropped; one left out before a given one is nullptr.
  static std::vector<Expr *> bindArguments(const LibraryFunction &function,
                                           const std::vector<Expr *> &positional,
                                           const std::vector<std::string> &keywords,
                                           const std::vector<Expr *> &keywordValues,
                                           SourceLocation location);

private:
  Library();
  void addNamespacesOf(const std::string &name);
  std::map<std::string, LibraryFunction> functions;
  std::map<std::string, LibraryValue> values;
  std::set<std::string> namespaces;
};

/// Registers every family of library functions (defined in library/Families.cpp). The
/// registry names the families only through this one hook: they sit above typing and lowering,
/// the registry below both.
void registerLibraryFamilies(Library &library);

/// The name of a target set for error messages ("CPU", "GPU").
std::string describeTargets(unsigned targets);
/// The error for using `what` ("cuda.syncthreads()", "cuda.threadIdx.x") on a target it has no
/// implementation for: "... is not supported on the CPU (it runs on the GPU, ...)".
std::string describeTargetMismatch(const std::string &what, unsigned here, unsigned targets);

} // namespace taipan
