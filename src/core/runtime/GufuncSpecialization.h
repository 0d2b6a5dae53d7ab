// Gufunc loops that run copies compiled for the core sizes they meet: a 4x4 matmul's loops
// then have constant trip counts, which LLVM unrolls and vectorises.
#pragma once

#include "runtime/UfuncLoops.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace taipan::runtime {

/// A gufunc's loop for one type signature, entered as NumPy's inner loop with itself as `data`
/// (specializingGufuncLoop). A call whose core sizes have a compiled copy runs that copy; the
/// others run the generic loop, and once the generic loop has spent `compileAfterNanoseconds`
/// on one tuple of small core sizes (every size 1 to MaximumSize), the loop asks `compile` for
/// a copy for those sizes, on the calling thread, and runs it from then on. The generic loop
/// computes the same values: a copy only has constants where the generic loop reads sizes.
class SpecializingGufuncLoop {
public:
  /// Compiles the copy for `sizes` (the layout's distinct core sizes in order); null when it
  /// could not, and then the generic loop runs those sizes for good.
  using Compile = std::function<UfuncLoop(const std::vector<int64_t> &sizes)>;

  static constexpr int MaximumCoreDimensions = 8;
  static constexpr int64_t MaximumSize = 16;
  static constexpr int MaximumCopies = 4;

  /// `parallel`: each call goes over the thread pool (parallelUfuncLoop) with the loop chosen.
  SpecializingGufuncLoop(ParallelUfuncLoop generic, bool parallel, int64_t compileAfterNanoseconds,
                         Compile compile);

  /// Runs one NumPy call of the loop.
  void run(char **args, const int64_t *dimensions, const int64_t *steps);

  /// The core sizes of each copy compiled so far (and not failed), in the order compiled.
  std::vector<std::vector<int64_t>> compiledSizes() const;

private:
  using Sizes = std::array<int64_t, MaximumCoreDimensions>;
  struct Copy {
    Sizes sizes{};
    UfuncLoop loop = nullptr; ///< null: compiling failed, the generic loop runs them
  };
  struct Candidate {
    Sizes sizes{};
    int64_t nanoseconds = 0; ///< spent in the generic loop on these sizes so far
  };

  /// The copy's loop for these core sizes (the generic one when compiling it failed), or null
  /// when there is no copy for them.
  UfuncLoop loopFor(const Sizes &sizes) const;
  /// Whether a call's core sizes may have a copy: a compiler, and every size small. Calls of
  /// other sizes run the generic loop without taking the lock.
  bool hasSmallCore(const int64_t *dimensions) const;
  /// The loop for a call of these small core sizes: a copy's (compiled now when its sizes are
  /// due), or the generic one; `timed` says the generic run counts towards a copy.
  UfuncLoop choose(const Sizes &sizes, bool &timed);
  /// Adds a generic run's time to the candidate of its core sizes.
  void record(const Sizes &sizes, int64_t nanoseconds);
  /// Runs `loop` over the call, on the pool when the loop is parallel.
  void runWith(UfuncLoop loop, char **args, const int64_t *dimensions, const int64_t *steps);

  ParallelUfuncLoop generic;
  bool parallel;
  int64_t compileAfterNanoseconds;
  Compile compile;
  /// Copies are written before `published` counts them and never change afterwards, so
  /// calls read them without the lock.
  std::array<Copy, MaximumCopies> copies;
  std::atomic<int> published{0};
  /// Guards `candidates` and compiling; taken with try_lock only, so a thread holding the GIL
  /// never waits on a thread that is compiling (and waits for the GIL).
  std::mutex lock;
  std::vector<Candidate> candidates;
};

/// NumPy's inner-loop entry of a SpecializingGufuncLoop (`data`).
void specializingGufuncLoop(char **args, const int64_t *dimensions, const int64_t *steps,
                            void *data);

} // namespace taipan::runtime
