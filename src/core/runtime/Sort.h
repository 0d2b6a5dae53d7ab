// Sort.h - Sorting entry points used by JIT-compiled `np.sort` and `np.argsort`.
// Holds the dtype codes compiled code passes and the C functions that sort by them.

#ifndef TAIPAN_RUNTIME_SORT_H
#define TAIPAN_RUNTIME_SORT_H

#include <cstdint>

namespace taipan::runtime {

/// Element type codes for `taipan_sort` and `taipan_argsort`. The values are part of the
/// ABI with compiled code, so they must not be renumbered.
enum SortDtype : int32_t {
  SortBool = 0,
  SortInt8 = 1,
  SortUInt8 = 2,
  SortInt16 = 3,
  SortUInt16 = 4,
  SortInt32 = 5,
  SortUInt32 = 6,
  SortInt64 = 7,
  SortUInt64 = 8,
  SortFloat32 = 9,
  SortFloat64 = 10,
  SortComplex64 = 11,
  SortComplex128 = 12,
  /// datetime64/timedelta64: int64 counts with NaT (INT64_MIN) last, as NumPy sorts them
  SortDatetime = 13,
};

} // namespace taipan::runtime

extern "C" {
/// Sorts each of `rows` contiguous rows of `rowLength` elements in place, ascending with NaNs
/// last as NumPy orders them (complex numbers by real part, then imaginary part, NumPy's
/// order of NaNs: R + Rj, R + nanj, nan + Rj, nan + nanj). Unknown dtype codes leave the data
/// untouched.
void taipan_sort(void *data, int64_t rows, int64_t rowLength, int32_t dtypeCode);
/// Writes to `result` the `count` indices that stably sort a 1-D array whose elements lie
/// `stride` bytes apart (NaNs last, ties in index order, as NumPy's stable argsort).
/// Unknown dtype codes write the identity permutation.
void taipan_argsort(const void *data, int64_t count, int64_t stride, int64_t *result,
                    int32_t dtypeCode);
}

#endif // TAIPAN_RUNTIME_SORT_H
