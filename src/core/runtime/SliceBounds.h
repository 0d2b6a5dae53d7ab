// Python's PySlice_AdjustIndices: the start and stop of a slice over a sequence of known length,
// shared by run-time string slicing and the compile-time folding of constant slices.
#pragma once

#include <cstdint>

namespace taipan::runtime {

/// Adjusts `start` and `stop` of a slice with nonzero `step` over `length` items as CPython's
/// PySlice_AdjustIndices does: an absent bound takes the end the step walks from (or towards),
/// a negative one counts from the end, and both are clamped to the sequence.
inline void adjustSliceBounds(int64_t &start, bool startGiven, int64_t &stop, bool stopGiven,
                              int64_t length, int64_t step) {
  auto adjust = [&](int64_t &value, bool given, int64_t fallback) {
    if (!given) {
      value = fallback;
      return;
    }
    if (value < 0) {
      value += length;
      if (value < 0)
        value = step < 0 ? -1 : 0;
    } else if (value >= length) {
      value = step < 0 ? length - 1 : length;
    }
  };
  adjust(start, startGiven, step < 0 ? length - 1 : 0);
  adjust(stop, stopGiven, step < 0 ? -1 : length);
}

} // namespace taipan::runtime
