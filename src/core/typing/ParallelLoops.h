// The plan of a prange loop in a parallel=True function: which variables each thread shares,
// keeps private or reduces, or why the loop must run serially (a cross-iteration dependence).
#pragma once

#include "typing/TypeInference.h"

#include <string>
#include <vector>

namespace taipan {

/// How a reduction variable's partial results combine.
enum class ReductionKind { Add, Multiply, BitOr, BitAnd, BitXor, Min, Max };

/// A variable every iteration updates only by one associative operation (`s += a[i]`,
/// `p *= x`, `m = min(m, x)`): each thread accumulates its own partial result from the
/// operation's identity, and the partials are combined with the value before the loop.
struct ParallelReduction {
  std::string variable;
  ReductionKind kind;
};

/// What one prange loop needs to run on several threads.
struct ParallelLoopPlan {
  /// False when the loop runs serially; `reason` then says why, naming the variable.
  bool parallel = false;
  std::string reason;
  /// Variables read in the loop and never assigned there: each thread reads a copy.
  std::vector<std::string> shared;
  /// Variables assigned in the loop (the loop variable first): each thread has its own, assigned
  /// before it is read in every iteration, and none is read after the loop.
  std::vector<std::string> privates;
  std::vector<ParallelReduction> reductions;
  /// Array accesses whose independence the analysis could not decide (typing/ArrayDependences).
  std::vector<std::string> notes;
};

/// Whether `loop` iterates a prange() call in a function compiled with parallel=True.
bool isParallelLoop(const TypedFunction &function, const Stmt *loop);

/// Decides how `loop` (for which isParallelLoop holds) runs.
ParallelLoopPlan planParallelLoop(const TypedFunction &function, const Stmt *loop);

/// The name of a reduction kind as its operator or builtin (`+=`, `min`).
const char *reductionName(ReductionKind kind);

} // namespace taipan
