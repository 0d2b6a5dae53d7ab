// Lowering of loops: while, for over ranges, arrays, tuples and index spaces, unrolled
// loops, and prange loops and reductions on the thread pool.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"
#include "typing/ParallelLoops.h"

namespace taipan {

class FunctionLowering;

/// Loops (LowerLoops.cpp, LowerUnrolledLoops.cpp) and parallel loops
/// (LowerParallelLoops.cpp). Holds a reference to the core (FunctionLowering), whose state and
/// exits it uses.
class LoopLowering : LoweringRoom {
public:
  explicit LoopLowering(FunctionLowering &core);

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
  /// The item of an in-step iteration: the tuple, after the count of enumerate (from
  /// `countStart` when given), of its sources' items, a nested zip() or enumerate() giving its
  /// own such tuple (`enumerate(zip(a, b))`).
  struct InStepItem {
    bool counted = false;
    llvm::Value *countStart = nullptr;
    int source = -1; ///< a part that is one source's item: its index in the sources
    std::vector<InStepItem> parts;
  };
  /// Evaluates the in-step `call`'s arguments in order, adding its iterables (and those of the
  /// zip() and enumerate() calls among them) to `sources`.
  InStepItem prepareInStep(const LibraryCall &call, std::vector<IterationSource> &sources);
  llvm::Value *inStepItem(const InStepItem &item, const std::vector<IterationSource> &sources,
                          llvm::Value *index, const Type **itemType);
  /// A loop body emitted by `lowering` for iteration `index`, given the values the loop
  /// captured (as `lowering` holds them).
  using ParallelLoopBody = std::function<void(FunctionLowering &lowering, llvm::Value *index,
                                              const std::vector<llvm::Value *> &captured)>;
  /// Runs `body` for each index in [0, count): on the thread pool in a parallel=True function
  /// (outlined, for counts above a grain worth a thread's start), else as one loop here.
  /// `captured` are this function's values the body needs; errors propagate.
  void forEachIndexInParallel(llvm::Value *count, const std::vector<llvm::Value *> &captured,
                              const ParallelLoopBody &body, llvm::Value *grain = nullptr);
  /// Items worth waking the pool's workers for: fewer run on the calling thread alone.
  static constexpr int64_t ElementsPerThreadStart = 1 << 14;
  /// A reduction's step: the accumulator after folding in iteration `index`.
  using ParallelReductionStep =
      std::function<llvm::Value *(LoweringApi &lowering, llvm::Value *accumulator,
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
};

} // namespace taipan
