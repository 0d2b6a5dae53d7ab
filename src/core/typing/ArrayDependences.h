// Dependences between the iterations of a prange loop through array elements: the indices of
// every element access in the body, affine in the loop variable, compared a write at a time.
#pragma once

#include "typing/TypeInference.h"

#include <string>
#include <vector>

namespace taipan {

/// What the array element accesses of a prange loop's body say about its iterations.
struct ArrayDependences {
  /// Why two iterations reach one element, one of them writing it (the accesses and their
  /// lines); empty when no such pair is known.
  std::string dependence;
  /// Writes the analysis cannot decide (an index not affine in the loop variable, a possible
  /// alias), one sentence each: the loop still runs in parallel, as Numba runs it.
  std::vector<std::string> undecided;
};

/// Compares, for each array the body of `loop` writes, every write's index with the index of
/// every other access of that array (and with itself in another iteration).
ArrayDependences findArrayDependences(const TypedFunction &function, const Stmt *loop);

} // namespace taipan
