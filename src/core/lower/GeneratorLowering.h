// Lowering of generator functions as LLVM coroutines: suspension at yields, resuming a
// generator for its next item, and for loops over generators.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"

namespace taipan {

class FunctionLowering;

/// Generators (LowerGenerators.cpp): a generator function's body is an LLVM coroutine. Holds a
/// reference to the core (FunctionLowering), whose state and exits it uses.
class GeneratorLowering : LoweringRoom {
public:
  explicit GeneratorLowering(FunctionLowering &core);

  /// The body of a generator function as an LLVM coroutine: the call returns the generator.
  void lowerGeneratorFunction();
  /// Suspends with `status` (a yielded value's 0, or an exception's) until resumed; a destroy
  /// while suspended leaves through the unwind block, releasing the generator's locals. Once
  /// resumed, an exception thrown in (throw()) is raised there; `delegating` (a `yield from`'s
  /// yield) refuses throw() and send() of a value instead of passing them on.
  void suspendCoroutine(bool final, bool delegating = false);
  void lowerYield(Stmt *stmt);
  /// Resumes `generator` once: its next item (owned, a temporary), or a branch to `exhausted`
  /// when it returned. An exception it raised propagates. With `status`, the generator was
  /// resumed already (send(), throw()) and that is the resume's result.
  llvm::Value *nextGeneratorItem(llvm::Value *generator, const Type *type,
                                 llvm::BasicBlock *exhausted, llvm::Value *status = nullptr);
  /// `for target in generator`: resumes it until it is exhausted.
  void lowerGeneratorFor(Stmt *stmt, llvm::Value *generator, const Type *type);
  /// `for ... in enumerate(g)` / `zip(a, g, ...)` where an argument is a generator: each step
  /// takes the next item of each argument in order and stops at the first exhausted one.
  void lowerInStepGeneratorFor(Stmt *stmt, const LibraryCall &call);
};

} // namespace taipan
