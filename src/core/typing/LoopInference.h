// For loops in type inference: the item of every kind of iterable, index spaces (np.ndindex...),
// zip/enumerate in step, and literal_unroll's copies of the body.
#pragma once

#include "typing/TypeInference.h"

#include <optional>
#include <string>
#include <vector>

namespace taipan {

class InferencePass;
struct LibraryFunction;

/// Type inference of for loops, beside the InferencePass core.
class LoopInference {
public:
  explicit LoopInference(InferencePass &pass);

  /// The item type of iterating over `iterable`, or nullptr when it is not iterable.
  static const Type *iterationItemType(const Type *iterable, SourceLocation location);
  /// Types a for loop: its target gets the iterable's item type, then its body and else.
  void typeFor(Stmt *stmt);
  /// The string `expr` always holds, when compiling knows it (typing/LiteralUnroll.h).
  std::optional<std::string> knownString(const Expr *expr);

private:
  /// A for loop over np.ndindex, np.ndenumerate or np.nditer: typed by typeIndexIteration.
  bool typeIndexIterationLoop(Stmt *stmt);
  /// `for ... in enumerate(a)` / `zip(a, b)` whose library entry chose to iterate the arguments
  /// in step (some is an array or a range): the item is the tuple of their items, after the
  /// index for enumerate. False when the loop iterates a value.
  bool typeInStepIteration(Stmt *stmt);
  /// The item of an in-step call: the tuple of its iterables' items (after the count for
  /// enumerate), an argument that is itself an in-step call giving its own such tuple.
  const Type *inStepItemType(const LibraryCall &iterated);
  /// The library entry of zip() or enumerate() when `expr` calls one (they iterate their
  /// arguments in step in a for loop's header), else null.
  const LibraryFunction *inStepFunction(Expr *expr);
  /// Makes the zip() and enumerate() calls among the arguments of the loop's in-step `call`
  /// (`enumerate(zip(a, b))`) in step too, as Numba iterates them, when their iterables are
  /// arrays, lists, ranges or strings: no generator is built (GPUs have none).
  void markNestedInStepCalls(Expr *call);
  /// `for index in np.ndindex(shape)`, `for index, value in np.ndenumerate(a)` and `for x in
  /// np.nditer(a)`: a loop over an index space in C order (the call itself is typed as none).
  bool typeIndexIteration(Stmt *stmt, const std::string &name);
  /// `for x in literal_unroll(t)` over a tuple of items of different types (or string
  /// literals): each copy of the body (syntax/LoopUnrolling.h) is typed with its item's type.
  /// False when the loop is an ordinary one.
  bool typeUnrolledLoop(Stmt *stmt, const Type *iterable);

  InferencePass &pass;
  TypedFunction &function;
  FunctionSource &source;
};

} // namespace taipan
