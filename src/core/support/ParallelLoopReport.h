// What parallel_diagnostics tells a user about one prange loop: whether it ran on the thread
// pool and, if not, why; its private, shared and reduction variables.
#pragma once

#include <string>
#include <vector>

namespace taipan {

/// How one prange loop of a parallel=True function runs.
struct ParallelLoopReport {
  std::string function; ///< the function's qualified name
  std::string filename;
  int line = 0; ///< the loop's line in `filename`
  bool parallel = false;
  std::string reason; ///< why it runs serially (empty when parallel)
  std::vector<std::string> privates, shared;
  std::vector<std::string> reductions; ///< "s (+=)", "m (min)"
  std::vector<std::string> notes;      ///< array accesses not proven independent
};

} // namespace taipan
