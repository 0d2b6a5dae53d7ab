// What compiled ufunc loops call at run time: the report of a failed element (the scalar
// function raised) and the parallel driver that splits a loop over the thread pool.
#pragma once

#include <cstdint>
#include <vector>

extern "C" {
/// Called by a compiled ufunc loop when its scalar function raised: the loop stops, and the
/// pending exception is handed to the host (on the thread that called the loop; from a pool
/// worker it is kept for that thread).
void taipan_ufunc_loop_failed(void);
}

namespace taipan::runtime {

/// A NumPy inner loop: `loop(args, dimensions, steps, data)`.
using UfuncLoop = void (*)(char **args, const int64_t *dimensions, const int64_t *steps,
                           void *data);

/// What the parallel driver needs of the serial loop it splits.
struct ParallelUfuncLoop {
  UfuncLoop serial;
  int inputs;
  int operandCount;   ///< inputs plus outputs
  int coreDimensions; ///< entries of `dimensions` after the loop's own (gufuncs), 0 for ufuncs
  /// Bit k set: input k may be written by the loop (a gufunc without outputs, whose operands
  /// are all inputs written in place, or one of `writable_args`).
  uint64_t writtenInputs = 0;
  /// Per operand, the indices of its core dimensions among the layout's distinct names (the
  /// gufunc's layout, kept by its owner), or null: the driver then knows no core extents.
  const std::vector<std::vector<int>> *operandCores = nullptr;
};

/// Runs `data` (a ParallelUfuncLoop) over the pool, each thread taking a contiguous part of the
/// outer dimension; an element that raised is reported once all parts are done. A call whose
/// elements may write one place (an operand written in place that NumPy broadcast along the
/// outer dimension, or written memory another operand reads at another element) runs serially,
/// in NumPy's order.
void parallelUfuncLoop(char **args, const int64_t *dimensions, const int64_t *steps, void *data);

/// The floating-point exceptions NumPy reports after a ufunc loop (FE_DIVBYZERO, FE_OVERFLOW,
/// FE_UNDERFLOW, FE_INVALID) that this thread's status holds.
int raisedUfuncExceptions();

/// Clears those exceptions from this thread's status before a loop runs, as NumPy does. Only
/// when some are set: glibc's feclearexcept saves and reloads the x87 environment, which cost
/// more than a loop over 10 elements.
void clearUfuncExceptions();

/// The host's handler for a failed loop: the bindings set the Python exception (taking the
/// GIL) from takePendingException().
using UfuncFailureSink = void (*)();
void setUfuncFailureSink(UfuncFailureSink sink);

} // namespace taipan::runtime
