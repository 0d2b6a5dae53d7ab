// Lowering of typed functions to LLVM IR. ModuleLowering owns the module-wide pieces (function
// declarations, string constants); FunctionLowering emits one function body.
#pragma once

#include "lower/LowerTypes.h"
#include "registry/Library.h"
#include "support/ParallelLoopReport.h"
#include "target/Target.h"
#include "typing/ParallelLoops.h"
#include "typing/TypeInference.h"

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace taipan {

/// Builds the LLVM module for one compilation: every TypedFunction it reaches (the target adds
/// the entry point). Where code differs between targets, lowering asks `target`.
///
/// Calling convention of a compiled function: `i32 f(ptr result, args...)`. The status is 0 on
/// success; otherwise an exception is pending in the runtime and the caller returns the status.
class ModuleLowering {
public:
  ModuleLowering(llvm::Module &module, const Target &target);

  /// Declares (once) the LLVM function for a typed function.
  llvm::Function *declare(TypedFunction &function);
  /// Emits the body of a declared function.
  void define(TypedFunction &function);

  /// A private global holding a NUL-terminated string.
  llvm::Constant *stringConstant(const std::string &text);
  /// Declares a runtime or libm function by name.
  llvm::FunctionCallee runtimeFunction(const std::string &name, llvm::Type *result,
                                       llvm::ArrayRef<llvm::Type *> parameters);

  /// The subprogram a function's line information hangs on, when it asked for lines.
  llvm::DISubprogram *debugScope(TypedFunction &function, llvm::Function *target);
  /// Gives an entry or kernel wrapper line information when its callee has some.
  void describeWrapper(llvm::Function *wrapper, llvm::Function *callee, llvm::IRBuilder<> &builder);
  /// Finishes line information (no-op when no function asked for it).
  void finishDebugInfo();

  llvm::Module &module;
  llvm::LLVMContext &context;
  const Target &target;
  /// How each prange loop lowered so far runs (parallel_diagnostics).
  std::vector<ParallelLoopReport> parallelLoops;
  /// Why the code holds values valid in this process only (an objmode block, a jitclass, an
  /// exception class or ctypes function that no load-time symbol names), so no other process
  /// may load it; empty when it holds none.
  std::string processSpecific;

private:
  std::unordered_map<TypedFunction *, llvm::Function *> functions;
  std::map<std::string, llvm::Constant *> strings;
  std::unique_ptr<llvm::DIBuilder> debugBuilder;
  llvm::DICompileUnit *compileUnit = nullptr;
};

/// Emits the body of one function. Statements are in FunctionLowering.cpp, loops in
/// LowerLoops.cpp, raise and assert in LowerRaise.cpp, expressions and conversions in
/// LowerExpressions.cpp, operators in LowerArithmetic.cpp and LowerComparisons.cpp, calls in
/// LowerBuiltins.cpp; the library's functions (src/core/library/) are written with the public
/// lowering API below.
class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &module, TypedFunction &function, llvm::Function *target);
  void lower();
  /// Emits `target` as the outlined body of the prange loop `loop`, by `plan` (its arguments:
  /// the environment the caller filled, the first and last iteration, the chunk's index).
  void lowerParallelBody(Stmt *loop, const ParallelLoopPlan &plan,
                         llvm::StructType *environmentType);

private:
  struct LoopTargets {
    llvm::BasicBlock *continueTarget;
    llvm::BasicBlock *breakTarget;
    /// The temporaries pending when the body began: a break or continue releases those made
    /// since (by the statements it leaves unfinished, a for-else's loop included).
    size_t temporaryMark;
  };

  ModuleLowering &moduleLowering;
  TypedFunction &function;
  const CompileOptions &options;
  llvm::Function *target;
  llvm::LLVMContext &context;
  llvm::IRBuilder<> builder;
  /// Each variable's slot: an entry-block alloca, or in a segment (FunctionSegments.cpp) the
  /// address of its parent's.
  std::unordered_map<std::string, llvm::Value *> variables;
  /// Set in a segment of a long function: the variables belong to the parent, which made them
  /// empty and releases them; a return hands its value to the parent.
  bool variablesBorrowed = false;
  std::vector<LoopTargets> loops;
  llvm::DISubprogram *scope = nullptr; ///< set when the function emits line information
  /// Shared raise blocks, by where their exception goes (the unwind block or a try's handlers),
  /// the exception and its message.
  std::map<std::tuple<llvm::BasicBlock *, int, std::string>, llvm::BasicBlock *> raiseBlocks;
  /// A value holding references that a statement made and nobody took over yet. Its blocks are
  /// also stored in slots (entry-block allocas of one pointer, null while free), so the unwind
  /// block can release whatever is alive at any exit without the value dominating it.
  struct Temporary {
    llvm::Value *value;
    const Type *type;
    std::vector<unsigned> slots;
  };
  std::vector<Temporary> temporaries;
  std::vector<llvm::AllocaInst *> temporarySlots;
  std::vector<unsigned> freeTemporarySlots; ///< slots that hold null wherever lowering stands
  /// The one exit of the function: every return, raise and propagated error branches here with
  /// its status; the block releases the variables and live temporaries, then returns it.
  llvm::BasicBlock *unwindBlock = nullptr;
  llvm::PHINode *unwindStatus = nullptr;
  /// A try statement's hold on the exits that leave one of its parts (LowerTry.cpp): failing
  /// statuses branch to `exceptionBlock` (the handlers, a finally's exceptional copy, the end
  /// of a handler) with their status; returns, breaks and continues crossing it first emit
  /// `cleanup` (the finally block, or the end of a handler) with only the outer routes active.
  struct ExitRoute {
    llvm::BasicBlock *exceptionBlock;
    llvm::PHINode *exceptionStatus;
    std::function<void()> cleanup; ///< empty: returns and jumps pass through
    size_t loopDepth;              ///< loops.size() where the route began
  };
  std::vector<ExitRoute> routes;
  /// How many except handlers enclose the statement being lowered (a bare `raise` re-raises).
  int handlerDepth = 0;
  /// Inside an outlined prange body, further prange loops run serially on their thread.
  bool insideParallelBody = false;
  /// Inside an outlined prange body: its scalar float `+=`/`-=` and `*=` reductions, whose
  /// updates may be reassociated (a thread's chunk is summed in vector lanes, as the chunks
  /// already are summed in another order than the serial loop's).
  std::set<std::string> reassociatedReductions;
  /// Inside the loop of an array expression, arithmetic follows NumPy (no ZeroDivisionError).
  bool insideElementwise = false;
  bool numpyErrorModel() const { return options.errorModelNumpy || insideElementwise; }
  /// A generator function's coroutine (LowerGenerators.cpp): its id, frame handle and promise
  /// (the yielded value and the final status), and the blocks suspension and destruction end in.
  struct Coroutine {
    llvm::Value *id = nullptr;
    llvm::Value *handle = nullptr;
    llvm::AllocaInst *promise = nullptr;
    llvm::StructType *promiseType = nullptr;
    llvm::BasicBlock *suspended = nullptr; ///< returns to whoever started or resumed it
    llvm::BasicBlock *cleanup = nullptr;   ///< frees nothing (the block owns the frame), ends it
  };
  std::optional<Coroutine> coroutine;

public:
  // The lowering API, which library entries (src/core/library/) write their calls with.
  llvm::IRBuilder<> &irBuilder() { return builder; }
  llvm::LLVMContext &llvmContext() { return context; }
  ModuleLowering &module() { return moduleLowering; }
  /// Makes arithmetic follow NumPy (division by zero gives inf or nan, as in an array
  /// expression's loop) or not; returns the previous setting, to restore.
  bool useNumpyArithmetic(bool on) {
    bool previous = insideElementwise;
    insideElementwise = on;
    return previous;
  }

  // Statements and control flow.
  void lowerBlock(const std::vector<Stmt *> &block);
  void lowerStatement(Stmt *stmt);
  void lowerAssign(Expr *target, llvm::Value *value, const Type *valueType);
  void lowerAugmentedStore(Stmt *stmt);
  /// Row `index` of an array: an element of a 1-D array, else a view (a temporary).
  llvm::Value *arrayRow(llvm::Value *array, const Type *arrayType, llvm::Value *index);
  const Type *arrayRowType(const Type *arrayType);
  llvm::Value *lowerCondition(Expr *test);
  void lowerIf(Stmt *stmt);
  void lowerWhile(Stmt *stmt);
  /// A loop's body, where `continue` goes to `next` and `break` to `end`; a body that falls off
  /// its end goes on to `next`. Every kind of loop (lowerFor, dicts, generators, prange, the
  /// unrolled copies) lowers its body so.
  void lowerLoopBody(const std::vector<Stmt *> &body, llvm::BasicBlock *next,
                     llvm::BasicBlock *end);
  /// A loop's else block, lowered in `elseBlock` (where the builder is, when null), then `end`,
  /// where lowering goes on.
  void lowerLoopElse(const std::vector<Stmt *> &orelse, llvm::BasicBlock *elseBlock,
                     llvm::BasicBlock *end);
  void lowerFor(Stmt *stmt);
  /// `for x in literal_unroll(t)` unrolled by typing: each copy of the body in turn
  /// (LowerUnrolledLoops.cpp). False for any other loop.
  bool lowerUnrolledLoop(Stmt *stmt);
  // Generators (LowerGenerators.cpp).
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
  /// `for x in d` or over a view of d (`d.items()`): the dict's entries as they are when each
  /// is reached, raising RuntimeError when the dict changed size since the loop began, as
  /// CPython's dict iterators do (lower/LowerDicts.cpp).
  void lowerDictFor(Stmt *stmt, llvm::Value *dict, const Type *type);
  /// `for ... in enumerate(g)` / `zip(a, g, ...)` where an argument is a generator: each step
  /// takes the next item of each argument in order and stops at the first exhausted one.
  void lowerInStepGeneratorFor(Stmt *stmt, const LibraryCall &call);
  /// Opens the entry block and the unwind block, and empties the array variables.
  void beginBody();
  /// A prange loop of a parallel=True function run on the thread pool (LowerParallelLoops.cpp):
  /// false, emitting nothing, when it runs as a plain loop.
  bool lowerParallelFor(Stmt *stmt);
  /// The identity of a reduction for a value of `type` (a scalar; arrays are filled with it).
  llvm::Value *reductionIdentity(ReductionKind kind, const Type *type);
  /// `current` combined with a partial result `partial` (scalars of `type`).
  llvm::Value *combineReduction(ReductionKind kind, llvm::Value *current, llvm::Value *partial,
                                const Type *type);
  /// `for target in range(...)` with a short constant trip count and a small body, emitted as
  /// that many copies of the body; false (nothing emitted) when the loop does not qualify.
  bool lowerUnrolledRange(Stmt *stmt, llvm::Value *first, llvm::Value *limit, llvm::Value *step);
  /// How a for loop reads its items: a range, the rows of an array, a uniform tuple, or an index
  /// space in C order (np.ndindex, np.ndenumerate and np.nditer, by `indexing`).
  struct IterationSource {
    const Type *type;
    llvm::Value *value;
    llvm::AllocaInst *tupleCopy = nullptr;
    std::string indexing; ///< the builtin for an index space; `value` is its array, if any
    std::vector<llvm::Value *> extents;
    /// np.nditer: the element address of each axis's step, in the order it visits the axes.
    std::vector<llvm::Value *> strides;
    llvm::Value *first = nullptr; ///< np.nditer: the address it visits first
    /// A set walked through a list of its keys: the set and its size when the walk began, so
    /// each step can raise Python's RuntimeError when the body changed the set's size.
    llvm::Value *watchedSet = nullptr;
    llvm::Value *watchedSetSize = nullptr;
  };
  IterationSource prepareIteration(llvm::Value *value, const Type *type);
  IterationSource prepareIndexIteration(Expr *call);
  void orderByMemory(IterationSource &source);
  /// The number of items left to walk, read afresh at each step: a list the loop body grows or
  /// shrinks is walked to its current end, as CPython's list iterator does.
  llvm::Value *iterationLength(const IterationSource &source);
  /// Raises RuntimeError when a set being walked changed size since the walk began.
  void checkIterationSource(const IterationSource &source);
  llvm::Value *iterationItem(const IterationSource &source, llvm::Value *index,
                             const Type **itemType);
  /// The number of items of a range, exact as a uint64 (above 2**63 - 1 only for ranges
  /// spanning both signs).
  llvm::Value *rangeItemCount(llvm::Value *range);
  /// rangeItemCount held to 2**63 - 1, for walks counting an int64 index.
  llvm::Value *rangeLength(llvm::Value *range);
  /// Emits a loop calling `body` with each item of an iterable (range, uniform tuple, array,
  /// list), as a for loop would visit them.
  void forEachItem(llvm::Value *iterable, const Type *type,
                   const std::function<void(llvm::Value *item, const Type *itemType)> &body);
  /// The library call a for loop iterates the arguments of in step (`for i, x in
  /// enumerate(a)`, `zip(a, b)` over arrays or ranges), or nullptr.
  const LibraryCall *inStepIteration(const Expr *iterable) const;
  void lowerRaise(Stmt *stmt);
  // Try statements (LowerTry.cpp).
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
  void lowerReturn(llvm::Value *value, const Type *type);
  llvm::BasicBlock *newBlock(const char *name);
  /// Starts a fresh block when the current one already ends in a terminator.
  void ensureOpenBlock();
  llvm::AllocaInst *createEntryAlloca(llvm::Type *type, const std::string &name);
  llvm::Value *variable(const std::string &name);
  /// A long function's body lowered in segments, each an outlined function of its own
  /// (FunctionSegments.cpp); false, emitting nothing, when the body is short enough.
  bool lowerInSegments(const std::vector<Stmt *> &body);
  /// The status a segment returns when the function returned (its value in the result slot);
  /// never an exception's (those are positive).
  static constexpr int32_t ReturnedFromSegment = -1;
  /// The status a suspended generator leaves through its unwind block with when destroyed.
  static constexpr int32_t DestroyedGenerator = -2;

  // Expressions (LowerExpressions.cpp), arithmetic (LowerArithmetic.cpp) and comparisons
  // (LowerComparisons.cpp).
  const Type *typeOf(const Expr *expr) const { return function.typeOf(expr); }
  llvm::Value *lowerExpr(Expr *expr);
  llvm::Value *lowerExprAs(Expr *expr, const Type *type);
  llvm::Value *lowerConstant(const Constant &constant, const Type *type);
  llvm::Value *lowerBinary(BinaryOp op, llvm::Value *left, const Type *leftType, llvm::Value *right,
                           const Type *rightType, const Type *resultType);
  llvm::Value *lowerIntegerBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                  const Type *type, bool checkZero = true);
  /// Python's `//` or `%` of a signed integer by a constant that is neither 0 nor -1.
  llvm::Value *lowerFloorByConstant(bool isDivision, llvm::Value *dividend,
                                    llvm::ConstantInt *divisor);
  llvm::Value *lowerFloatBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                const Type *type);
  llvm::Value *lowerComplexBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                  const Type *type);
  llvm::Value *lowerIntegerPower(llvm::Value *base, llvm::Value *exponent, const Type *type);
  llvm::Value *lowerUnary(Expr *expr);
  /// -x of a number of `type` (integers wrap).
  llvm::Value *lowerNegation(llvm::Value *value, const Type *type);
  llvm::Value *lowerCompareChain(Expr *expr);
  llvm::Value *lowerTupleComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                                    llvm::Value *right, const Type *rightType);
  llvm::Value *lowerComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                               llvm::Value *right, const Type *rightType);
  /// `left is right`, for pairs typing accepted (identityIsDecidable).
  llvm::Value *lowerIdentity(llvm::Value *left, const Type *leftType, llvm::Value *right,
                             const Type *rightType);
  llvm::Value *lowerBoolOp(Expr *expr);
  llvm::Value *lowerIfExp(Expr *expr);
  llvm::Value *lowerSubscript(Expr *expr);
  llvm::Value *lowerAttribute(Expr *expr);
  llvm::Value *lowerTuple(const std::vector<llvm::Value *> &elements, const Type *type);
  llvm::Value *tupleElement(llvm::Value *tuple, const Type *tupleType, unsigned index);
  llvm::Value *castValue(llvm::Value *value, const Type *from, const Type *to);
  /// Conversions to and from Optional (LowerOptional.cpp): a value or None into an optional,
  /// an optional into another, or an optional into its value, raising TypeError when None.
  llvm::Value *castOptional(llvm::Value *value, const Type *from, const Type *to);
  /// `x is None`, `x is not None`, `x == None`, `x != None` of an optional; nullptr for other
  /// comparisons, which compare its value.
  llvm::Value *lowerOptionalComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                                       llvm::Value *right, const Type *rightType);
  llvm::Value *truthValue(llvm::Value *value, const Type *type);
  llvm::Value *complexParts(llvm::Value *value, llvm::Value *&imag);
  llvm::Value *makeComplex(llvm::Value *real, llvm::Value *imag, const Type *type);
  /// Raises `exceptionId` when `condition` is true, continuing in a new block otherwise.
  void raiseIf(llvm::Value *condition, int exceptionId, const std::string &message);
  void emitRaise(int exceptionId, const std::string &message);
  /// Exception class `exceptionId`'s registry id as code holds it: a constant for the builtin
  /// classes; for a user class, read from its load-time symbol (runtime/LoadTimeSymbols) where
  /// the target resolves them and another process finds the class by name, else the constant,
  /// which marks the module process-specific.
  llvm::Value *exceptionIdValue(int exceptionId);
  /// Leaves the function through the unwind block with `status` (0: returning normally).
  void exitFunction(llvm::Value *status);
  /// Leaves through the unwind block with `status` when `condition` holds (the exception is
  /// already pending: a callee's status, a failed allocation), continuing in a new block.
  void exitIf(llvm::Value *condition, llvm::Value *status);
  /// Fills the unwind block once the body is lowered and every slot is known.
  void emitUnwindBlock();
  void emitZeroDivisionCheck(llvm::Value *divisor, const Type *type, const char *message);
  void applyFastMath();

  // Reference counting and arrays (LowerArrays.cpp, ArrayExpressions.cpp).
  /// The memory blocks (MemInfo pointers) a value refers to: one per array it holds.
  void collectBlocks(llvm::Value *value, const Type *type, std::vector<llvm::Value *> &blocks);
  void incref(llvm::Value *value, const Type *type);
  void decref(llvm::Value *value, const Type *type);
  void decrefBlock(llvm::Value *block);
  /// Calls the runtime function `runtimeName` on a memory block unless the block is null.
  void callUnlessNull(const char *runtimeName, llvm::Value *block);
  void addTemporary(llvm::Value *value, const Type *type);
  /// The value as a reference its holder owns: a temporary is taken over, anything else is
  /// borrowed and gets a new reference.
  llvm::Value *takeOwnership(llvm::Value *value, const Type *type);
  /// Drops the temporaries made since `mark`.
  void releaseTemporaries(size_t mark);
  /// On a path that jumps out of the statements holding them (break, continue): releases the
  /// temporaries above `mark` and empties their slots, leaving the statements' own releases
  /// for their other paths.
  void releaseTemporariesOnJump(size_t mark);
  /// A free temporary slot (null at this point of the function), made on first need.
  unsigned acquireTemporarySlot();
  /// Forgets a temporary's slots (storing null) and frees them for later temporaries.
  void clearTemporarySlots(const Temporary &temporary);
  /// A global NumPy array frozen into the module as a read-only constant.
  llvm::Value *lowerConstantArray(const GlobalValue &value);
  /// The address of `p[i]` for a subscript of a pointer (a cfunc's CPointer argument).
  llvm::Value *pointerElementAddress(Expr *subscript);
  llvm::Value *arrayField(llvm::Value *array, ArrayLayout::Field field, int dimension = -1);
  llvm::Value *withArrayField(llvm::Value *array, ArrayLayout::Field field, llvm::Value *value,
                              int dimension = -1);
  std::vector<llvm::Value *> arrayShape(llvm::Value *array, const Type *type);
  /// A new C-contiguous array of `shape`, owned by the current statement.
  llvm::Value *allocateArray(const Type *arrayType, const std::vector<llvm::Value *> &shape);
  /// The byte stride of `axis`, a constant for the innermost axis of a contiguous array.
  llvm::Value *axisStride(llvm::Value *array, const Type *arrayType, int axis);
  llvm::Value *elementAddress(llvm::Value *array, const Type *arrayType,
                              const std::vector<llvm::Value *> &indices);
  llvm::Value *loadElement(llvm::Value *address, const Type *dtype);
  void storeElement(llvm::Value *address, llvm::Value *value, const Type *dtype);
  /// Wraps a negative index and, with boundscheck (or `alwaysCheck`: fancy indexing checks
  /// whatever the option says), raises IndexError naming the axis.
  llvm::Value *checkedIndex(llvm::Value *index, const Type *indexType, llvm::Value *extent,
                            int axis, bool alwaysCheck = false);
  /// A loop body emitted by `lowering` for iteration `index`, given the values the loop
  /// captured (as `lowering` holds them).
  using ParallelLoopBody = std::function<void(FunctionLowering &lowering, llvm::Value *index,
                                              const std::vector<llvm::Value *> &captured)>;
  /// Runs `body` for each index in [0, count): on the thread pool in a parallel=True function
  /// (outlined, for counts above a grain worth a thread's start), else as one loop here.
  /// `captured` are this function's values the body needs; errors propagate.
  void forEachIndexInParallel(llvm::Value *count, const std::vector<llvm::Value *> &captured,
                              const ParallelLoopBody &body, llvm::Value *grain = nullptr);
  /// Nested loops over every index of `shape`, the outermost axis split over the thread pool as
  /// forEachIndexInParallel splits its range (grain: enough items per chunk); `body` gets the
  /// index and the captured values as the lowering that emits it holds them.
  void forEachOuterIndex(
      const std::vector<llvm::Value *> &shape, const std::vector<llvm::Value *> &captured,
      const std::function<void(FunctionLowering &lowering, const std::vector<llvm::Value *> &at,
                               const std::vector<llvm::Value *> &captured)> &body);
  /// Items worth waking the pool's workers for: fewer run on the calling thread alone.
  static constexpr int64_t ElementsPerThreadStart = 1 << 14;
  /// A reduction's step: the accumulator after folding in iteration `index`.
  using ParallelReductionStep =
      std::function<llvm::Value *(FunctionLowering &lowering, llvm::Value *accumulator,
                                  llvm::Value *index, const std::vector<llvm::Value *> &captured)>;
  /// Folds `step` over [0, count) from `identity`: on the thread pool in a parallel=True
  /// function (each chunk from the identity, the chunks' results then joined in order by
  /// `combine`, which this function emits), else as one loop here.
  llvm::Value *
  reduceInParallel(llvm::Value *count, const std::vector<llvm::Value *> &captured,
                   llvm::Value *identity, const ParallelReductionStep &step,
                   const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &combine,
                   llvm::Value *grain = nullptr);
  /// Whether loops of this function may run on the thread pool.
  bool runsOnThreadPool() const;
  /// Emits nested loops over every index of `shape` (row-major), calling `body` inside.
  void forEachIndex(const std::vector<llvm::Value *> &shape,
                    const std::function<void(const std::vector<llvm::Value *> &)> &body);
  /// Basic indexing: the view, or with `elementAddressOut` the address of one element.
  llvm::Value *lowerArrayIndex(Expr *expr, llvm::Value **elementAddressOut);
  llvm::Value *lowerArraySubscript(Expr *expr);
  void lowerArrayStore(Expr *target, llvm::Value *value, const Type *valueType);
  void lowerSelectedStore(Expr *target, llvm::Value *value, const Type *valueType);
  /// Copies `source` (an array broadcast to the destination's shape, or a scalar) into `target`.
  void assignIntoArray(llvm::Value *target, const Type *targetType, llvm::Value *source,
                       const Type *sourceType);
  /// `source`, or a copy of it when it may overlap `target`; `copy` gets an array value whose
  /// block (null without a copy) the caller releases.
  llvm::Value *separateFrom(llvm::Value *target, llvm::Value *source, const Type *sourceType,
                            const Type **resultType, llvm::Value **copy);
  /// The element copy behind assignIntoArray, for operands known not to overlap.
  void copyBroadcast(llvm::Value *target, const Type *targetType, llvm::Value *source,
                     const Type *sourceType);
  bool isElementwise(const Expr *expr) const;
  /// The operands (leaves) of an array expression, lowered, and the shape they broadcast to.
  struct ElementwiseOperands {
    std::vector<Expr *> leaves;
    std::map<const Expr *, llvm::Value *> values;
    std::vector<Expr *> arrays; ///< the leaves that are arrays
    std::vector<llvm::Value *> shape;
    bool contiguous = false; ///< every array leaf C-contiguous with the result's ndim
  };
  ElementwiseOperands prepareElementwise(Expr *expr);
  /// Whether the items can be visited flat: contiguous operands all of the broadcast shape.
  llvm::Value *elementwiseFlatPath(const ElementwiseOperands &operands);
  /// One item of the expression (NumPy's arithmetic, cast to its dtype): array leaves read at
  /// `address(leaf)`, scalar leaves as `held` gives them.
  llvm::Value *elementwiseItem(Expr *expr, const ElementwiseOperands &operands,
                               const std::map<const Expr *, llvm::Value *> &held,
                               const std::function<llvm::Value *(Expr *)> &address);
  /// The address in `array` (the value of `leaf`) of index `at` of the broadcast shape.
  llvm::Value *broadcastAddress(Expr *leaf, llvm::Value *array,
                                const std::vector<llvm::Value *> &at);
  llvm::Value *lowerElementwise(Expr *expr);
  /// Folds the items of the array expression `expr` into an accumulator without making the
  /// array (np.sum(a * b)): `step(lowering, accumulator, item)`, from the constant `identity`;
  /// split over the thread pool like reduceInParallel when the items can be visited flat.
  llvm::Value *reduceElementwise(
      Expr *expr, llvm::Value *identity,
      const std::function<llvm::Value *(FunctionLowering &, llvm::Value *, llvm::Value *)> &step,
      const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &combine);
  llvm::Value *elementwiseScalar(Expr *expr, const std::map<const Expr *, llvm::Value *> &leaves);
  void collectElementwiseLeaves(Expr *expr, std::vector<Expr *> &leaves);
  /// One element of a ufunc call: `values` (of `types`) converted to the loop typing chose
  /// (`call.loop`), then the entry's kernel.
  llvm::Value *lowerUfuncElement(const LibraryCall &call, const std::vector<llvm::Value *> &values,
                                 const std::vector<const Type *> &types);

  // Records (LowerRecords.cpp): a record value is the address of its bytes.
  /// Whether `expr` reads a field of a record (`r.x`, `r['x']`) or views one across an array
  /// of records (`a.x`, `a['x']`).
  bool isRecordAccess(const Expr *expr) const;
  llvm::Value *lowerRecordAccess(Expr *expr);
  /// The address of the record field `target` names, or nullptr when it is no record field
  /// (or a subarray field, which is read as a view).
  llvm::Value *recordFieldAddress(Expr *target);
  void lowerRecordStore(Expr *target, llvm::Value *value, const Type *valueType);
  llvm::Value *loadRecordField(llvm::Value *address, const Type *fieldType);
  void storeRecordField(llvm::Value *address, llvm::Value *value, const Type *fieldType);
  llvm::Value *recordView(const Type *viewType, llvm::Value *owner, llvm::Value *data,
                          const std::vector<llvm::Value *> &shape,
                          const std::vector<llvm::Value *> &strides);
  // Lists (LowerLists.cpp): a list is one pointer to its block (runtime/Lists.h).
  /// Calls the runtime function `name` with `arguments`.
  llvm::Value *listRuntime(const char *name, llvm::Type *result,
                           llvm::ArrayRef<llvm::Value *> arguments);
  /// Leaves through the unwind block when a runtime call's status is not 0.
  void exitUnlessZero(llvm::Value *status);
  /// A new list of `count` zeroed items, owned by the current statement.
  llvm::Value *newList(const Type *listType, llvm::Value *count);
  llvm::Value *listHeaderField(llvm::Value *list, size_t offset, llvm::Type *type);
  llvm::Value *listLength(llvm::Value *list);
  llvm::Value *listItemAddress(llvm::Value *list, const Type *listType, llvm::Value *index);
  /// The item at `index` (borrowed from the list).
  llvm::Value *loadListItem(llvm::Value *list, const Type *listType, llvm::Value *index);
  /// Stores `value` (converted, as a reference the list owns) into the slot at `index`, which
  /// must hold nothing (new, or released).
  void storeListItem(llvm::Value *list, const Type *listType, llvm::Value *index,
                     llvm::Value *value, const Type *valueType);
  /// A Python index into `length` items (negative ones wrap); IndexError with `message`
  /// outside.
  llvm::Value *listPosition(llvm::Value *index, const Type *indexType, llvm::Value *length,
                            const char *message);
  /// A slice's start, step, count and adjusted stop over `length` items (PySlice_AdjustIndices).
  struct ListSlice {
    llvm::Value *start, *stop, *step, *count;
  };
  /// The positions a slice expression selects in `list`, its bounds evaluated before the length.
  ListSlice listSlice(Expr *slice, llvm::Value *list);
  /// The same for a slice object (types::sliceValue()), already unpacked.
  ListSlice listSliceOfValue(llvm::Value *slice, llvm::Value *length);
  /// Python's PySlice_AdjustIndices of the bounds given (null: None), at run time.
  ListSlice adjustSlice(llvm::Value *startBound, llvm::Value *stopBound, llvm::Value *stepValue,
                        llvm::Value *length);
  llvm::Value *lowerListLiteral(Expr *expr);
  /// A comprehension (SyntaxTree.h): its loop, then the value it built, which the hidden
  /// variable hands over as a temporary.
  llvm::Value *lowerComprehension(Expr *expr);
  /// `[]` to a typed list, or a list of numbers to a list of another number type (a copy).
  llvm::Value *convertList(llvm::Value *list, const Type *from, const Type *to);
  /// `l[i] = x`, `l[a:b] = other`.
  void lowerListStore(Expr *target, llvm::Value *value, const Type *valueType);

  // Dicts (LowerDicts.cpp): a dict is one pointer to its block (runtime/Dicts.h); the runtime
  // takes keys and values by the address of their memory form.
  /// A new empty dict of `dictType`, owned by the current statement.
  llvm::Value *newDict(const Type *dictType);
  llvm::Value *dictLength(llvm::Value *dict);
  /// A TypingError at `location` when the dict's key and value types are still unknown.
  void requireDictTypes(const Type *dictType, SourceLocation location);
  /// The address of a stack copy of `key` converted to the dict's key type (borrowed).
  llvm::Value *dictKeyAddress(llvm::Value *key, const Type *keyType, const Type *dictType);
  /// d[key] = value: the value is converted, and the dict owns a reference to it.
  void storeDictItem(llvm::Value *dict, const Type *dictType, llvm::Value *key, const Type *keyType,
                     llvm::Value *value, const Type *valueType);
  /// The value at a value slot the runtime gave (borrowed from the dict).
  llvm::Value *loadDictValue(llvm::Value *address, const Type *dictType);
  /// A new list (a temporary) of the keys (`which` 0), values (1) or (key, value) items (2).
  llvm::Value *dictToList(llvm::Value *dict, const Type *dictType, int which);
  /// The list type dictToList gives.
  static const Type *dictListType(const Type *dictType, int which);

  // Sets (LowerSets.cpp): a set is one pointer to its block (runtime/Sets.h); the runtime takes
  // keys by the address of their memory form.
  /// A new empty set of `setType`, owned by the current statement.
  llvm::Value *newSet(const Type *setType);
  llvm::Value *setLength(llvm::Value *set);
  /// A TypingError at `location` when the set's key type is still unknown.
  void requireSetType(const Type *setType, SourceLocation location);
  /// The address of a stack copy of `key` converted to the set's key type (borrowed).
  llvm::Value *setKeyAddress(llvm::Value *key, const Type *keyType, const Type *setType);
  /// s.add(key): the key is converted; the set retains what it holds.
  void addToSet(llvm::Value *set, const Type *setType, llvm::Value *key, const Type *keyType);
  /// Adds each item of an iterable (a set, list, range, tuple, array or string), in order.
  void addAllToSet(llvm::Value *set, const Type *setType, llvm::Value *iterable,
                   const Type *iterableType);
  /// A set of `setType` with the items of `iterable`: the iterable itself when it is already a
  /// set of that type (borrowed), else a new temporary.
  llvm::Value *asSet(llvm::Value *iterable, const Type *iterableType, const Type *setType);
  /// A new list (a temporary) of the keys in iteration order.
  llvm::Value *setToList(llvm::Value *set, const Type *setType);
  /// `s |= t`, `&=`, `-=`, `^=` on a set variable: the set changes in place.
  void lowerSetAugmentedAssign(Stmt *stmt);
  /// A set of one key type as a set of another (a copy).
  llvm::Value *convertSet(llvm::Value *set, const Type *from, const Type *to);
  /// Calls `body` with the key and value (borrowed) of every entry, in order.
  void forEachDictEntry(llvm::Value *dict, const Type *dictType,
                        const std::function<void(llvm::Value *key, llvm::Value *value)> &body);
  /// `{}` to a typed dict, or a dict to one of wider key or value types (a copy).
  llvm::Value *convertDict(llvm::Value *dict, const Type *from, const Type *to);
  /// A TypingError for `e = d` where e's type is a wider dict than d's: the conversion would
  /// copy, and the two names would no longer share one dict as they do in Python.
  void refuseAliasedDictCopy(Expr *target, Expr *value);
  /// `d[k] = v`.
  void lowerDictStore(Expr *target, llvm::Value *value, const Type *valueType);

  // Calls (LowerBuiltins.cpp).
  llvm::Value *lowerCall(Expr *expr);
  llvm::Value *lowerJitCall(Expr *expr, const CallBinding &binding);
  /// Calls a typed function with `arguments` (of its argument types); its error propagates.
  /// The result (of its return type) is a temporary when it holds arrays.
  llvm::Value *callTypedFunction(TypedFunction &callee,
                                 const std::vector<llvm::Value *> &arguments);
  /// A call of a cuda.declare_device function, by Numba's convention or the plain C one.
  llvm::Value *lowerExternalCall(Expr *expr, const Type *callee);
  llvm::Value *lowerIntrinsicCall(Expr *expr, const IntrinsicBody &body);
  /// A call of a builtin: of a library function, or of a NumPy function or array method.
  llvm::Value *lowerBuiltinCall(const std::string &name, Expr *expr);
  /// A call of a library function (src/core/library/), as typing bound it.
  llvm::Value *lowerLibraryCall(const LibraryCall &call);
  /// A read of a library value (cuda.threadIdx.x), after checking the target.
  llvm::Value *lowerLibraryValue(const LibraryValue &value, SourceLocation location);
  /// Throws an UnsupportedError at the call when its function has no implementation here.
  void checkLibraryTarget(const LibraryCall &call);
  llvm::Value *lowerRandomWord(llvm::Value *state);
  llvm::Value *lowerRandomDouble();
  /// Prints constant text, or a value as repr() does, through the runtime (CPU targets).
  void printText(const std::string &text);
  void printValue(llvm::Value *value, const Type *type);
  llvm::Value *callLibm(const std::string &name, llvm::ArrayRef<llvm::Value *> arguments,
                        const Type *floatType);
  llvm::Value *callIntrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> arguments);
  /// str() of the exception `raised` makes, when its arguments are known while compiling.
  std::optional<std::string> exceptionMessage(Expr *raised);
  /// Prints that text at run time (then taipan_raise_printed raises with it).
  void printExceptionMessage(Expr *raised, const std::vector<llvm::Value *> &values);
  /// Raises `exceptionId` with the message `print` prints at run time where the target formats
  /// messages, else with a constant placeholder.
  void emitPrintedRaise(int exceptionId, const std::function<void()> &print);
};

} // namespace taipan
