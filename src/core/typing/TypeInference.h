// Type inference: turns a FunctionSource and argument types into a TypedFunction, by
// unifying the types each variable is assigned until nothing changes (a fixpoint).
#pragma once

#include "registry/Library.h"
#include "syntax/SyntaxTree.h"
#include "types/Type.h"
#include "typing/GlobalResolver.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace taipan {

struct TypedFunction;
struct UnrolledLoopCopy;

/// `for x in literal_unroll(t)` over a tuple whose items differ in type (or are string
/// literals), unrolled: one copy of the body per item (syntax/LoopUnrolling.h), each typed with
/// its item's type.
struct UnrolledLoop {
  Expr *container = nullptr; ///< literal_unroll's argument
  std::vector<const Type *> itemTypes;
  std::vector<const UnrolledLoopCopy *> copies;
};

/// How a call to another jitted function binds its arguments to the callee's parameters.
struct CallBinding {
  TypedFunction *callee = nullptr;
  /// One entry per callee parameter: the argument expression, or nullptr for its default.
  std::vector<Expr *> arguments;
  /// The return type of the callee's explicit signature, which its result converts to (see
  /// GlobalResolver::explicitSignature); nullptr: the callee's own return type.
  const Type *declaredReturnType = nullptr;
};

/// Parameters a callee is specialised for the values of (by index): constant integers or
/// tuples of them its caller passes where the callee needs constants (a shared array's shape).
using ConstantParameters = std::map<size_t, GlobalValue>;

/// A function specialised for one tuple of argument types: the output of type inference and
/// the input of lowering.
struct TypedFunction {
  FunctionSource *source = nullptr;
  std::vector<const Type *> argumentTypes;
  /// The parameters specialised for their values (see ConstantParameters); their reads are in
  /// `globals` as those constants.
  ConstantParameters constantParameters;
  const Type *returnType = nullptr;
  /// A generator function: the unified type of its yields (its returnType is generator(that)).
  const Type *yieldType = nullptr;
  std::map<std::string, const Type *> variableTypes;
  std::vector<const Type *> expressionTypes;    ///< indexed by Expr::id
  std::unordered_map<int, GlobalValue> globals; ///< Name/Attribute expressions that are globals
  std::unordered_map<int, CallBinding> calls;   ///< Call expressions to jitted functions
  /// Calls (and attribute reads) of functions implemented in Python: the implementation each
  /// compiles, kept alive here; `calls` binds its arguments.
  std::unordered_map<int, std::shared_ptr<FunctionSource>> overloadImplementations;
  std::unordered_map<int, IntrinsicBody> intrinsics; ///< Call expressions to intrinsics
  /// Calls of library functions (src/core/library/), bound and typed once; lowering reads them.
  /// Reads of library attributes (`a.shape`) are calls too, under the attribute's id.
  std::unordered_map<int, LibraryCall> libraryCalls;
  /// Conditions of `if` statements and expressions decided from types alone (`x is None` for
  /// an argument x that is None...), by expression id: only the branch taken is typed and
  /// lowered, as Numba prunes dead branches, so code for the other types need not type-check.
  std::unordered_map<int, bool> staticConditions;
  /// The unrolled `for x in literal_unroll(t)` loops, by statement; lowered copy by copy.
  std::unordered_map<const Stmt *, UnrolledLoop> unrolledLoops;
  /// Jitted functions used as first-class function values (typing/FirstClassFunctions.h):
  /// (the JitFunction type, the FunctionType) -> the ExternalFunction type of its C entry.
  std::map<std::pair<const Type *, const Type *>, const Type *> firstClassEntries;
  /// A choice of jitted functions (an UndefinedFunction) -> the FunctionType its calls gave it.
  std::map<const Type *, const Type *> chosenFunctionTypes;
  std::map<int, std::vector<std::string>> assignmentsByLine; ///< for inspect_types
  /// Conversions of user-defined types' values to taipan's types (Numba's lower_cast), which
  /// typing chose where such a value is used as a number: (from, to) -> the intrinsic that
  /// castValue calls to convert.
  std::map<std::pair<const Type *, const Type *>, IntrinsicBody> userCasts;
  /// Expressions of a user type that typing converted to a number where one was needed
  /// (`range(m)`, `a[m]`, `np.empty(m)`), by id: (the user type, the number). Their
  /// expressionTypes entry is the number; lowering computes them as the user type, then casts.
  std::unordered_map<int, std::pair<const Type *, const Type *>> convertedExpressions;
  std::string symbolName; ///< unique LLVM symbol, set by the compiler
  bool inProgress = false;

  const Type *typeOf(const Expr *expr) const {
    return static_cast<size_t>(expr->id) < expressionTypes.size() ? expressionTypes[expr->id]
                                                                  : nullptr;
  }
};

/// Types calls to other jitted functions; implemented by the compiler's session, which owns
/// every TypedFunction and resolves recursion.
class CalleeTyper {
public:
  virtual ~CalleeTyper() = default;
  /// The callee specialised for these argument types (and the values of `constants`, which
  /// every read of those parameters in its body then has). Its return type may still be
  /// nullptr while it is being inferred (recursion); inference then runs again.
  virtual TypedFunction *typeCallee(FunctionSource *callee,
                                    const std::vector<const Type *> &argumentTypes,
                                    SourceLocation location,
                                    const ConstantParameters &constants = {}) = 0;
};

/// Whether control can pass from `stmt` to the next statement: not after return, raise, break
/// or continue, an `if` none of whose typed branches can, or `while True:` without a break.
/// Statements after one that cannot are dead: neither typed nor lowered.
bool statementCompletes(const TypedFunction &function, const Stmt *stmt);
/// Whether control can reach the end of `block`.
bool blockCompletes(const TypedFunction &function, const std::vector<Stmt *> &block);

/// np.ndindex, np.ndenumerate and np.nditer: iterated by for loops over an index space.
bool isIndexIteration(const std::string &builtinName);

/// Runs one pass of inference over `function`, returning whether any type changed. With
/// `reportUnknown`, a type still unknown is an error (the last pass).
bool inferTypesOnce(TypedFunction &function, CalleeTyper &callees, bool reportUnknown);

/// Runs passes until nothing changes.
void inferTypes(TypedFunction &function, CalleeTyper &callees);

} // namespace taipan
