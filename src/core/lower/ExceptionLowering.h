// Lowering of raise, assert and try statements: raise blocks, exception ids and
// messages, and the routes a failing status takes through try statements.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"

namespace taipan {

class FunctionLowering;

/// Raise and assert (LowerRaise.cpp) and try statements (LowerTry.cpp). A failing
/// status goes to the innermost route or the core's unwind block. Holds a reference to the core
/// (FunctionLowering), whose state and exits it uses.
class ExceptionLowering : LoweringRoom {
public:
  explicit ExceptionLowering(FunctionLowering &core);

  void lowerRaise(Stmt *stmt);
  void lowerTry(Stmt *stmt);
  /// The body, handlers and else block of a try statement (its finally is lowered around it).
  void lowerTryExcept(Stmt *stmt);
  /// Where a failing status goes from here: the innermost route's block, or the unwind block.
  std::pair<llvm::BasicBlock *, llvm::PHINode *> exceptionDestination();
  /// A return (`status` 0, or ReturnedFromSegment) leaving through the routes' cleanups.
  void leaveByReturn(llvm::Value *status);
  /// A break or continue to `destination` leaving through the routes it crosses.
  void leaveByJump(llvm::BasicBlock *destination);
  /// Emits route `index`'s cleanup with only the routes and loops outside it active, then
  /// `then` (where the cleanup left the block open).
  void emitCleanupOutside(size_t index, const std::function<void()> &then);
  /// Enters an except handler (or a finally run for an exception): the exception is caught,
  /// and every exit from what follows forgets it. Returns the route's index.
  size_t beginHandler();
  void endHandler(size_t route);
  /// The temporary slots that hold values of statements enclosing the current one.
  std::vector<unsigned> heldTemporarySlots() const;
  /// Releases (and empties) every temporary slot but `kept`: what the statement an exception
  /// interrupted had made.
  void releaseTemporarySlotsExcept(const std::vector<unsigned> &kept);
  llvm::FunctionCallee exceptionRuntime(const char *name);
  void lowerAssert(Stmt *stmt);
  /// Raises `exceptionId` when `condition` is true, continuing in a new block otherwise.
  void raiseIf(llvm::Value *condition, int exceptionId, const std::string &message);
  void emitRaise(int exceptionId, const std::string &message);
  /// Exception class `exceptionId`'s registry id as code holds it: a constant for the builtin
  /// classes; for a user class, read from its load-time symbol (runtime/LoadTimeSymbols) where
  /// the target resolves them and another process finds the class by name, else the constant,
  /// which marks the module process-specific.
  llvm::Value *exceptionIdValue(int exceptionId);
  /// str() of the exception `raised` makes, when its arguments are known while compiling.
  std::optional<std::string> exceptionMessage(Expr *raised);
  /// Prints that text at run time (then taipan_raise_printed raises with it).
  void printExceptionMessage(Expr *raised, const std::vector<llvm::Value *> &values);
  /// Raises `exceptionId` with the message `print` prints at run time where the target formats
  /// messages, else with a constant placeholder.
  void emitPrintedRaise(int exceptionId, const std::function<void()> &print);
};

} // namespace taipan
