// Sort.cpp - Sorting entry points used by JIT-compiled `np.sort` and `np.argsort`.
// Implements NumPy's ordering (NaNs last) for every dtype code over std::sort.

#include "runtime/Sort.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

namespace taipan::runtime {

namespace {

template <typename T> bool isNaN(T Value) {
  if constexpr (std::is_floating_point_v<T>)
    return Value != Value;
  else
    return false;
}

/// NumPy's total order: NaNs compare greater than everything and equal to each other,
/// which keeps the comparator a strict weak ordering std::sort can rely on.
template <typename T> bool lessNaNLast(T A, T B) {
  if constexpr (std::is_floating_point_v<T>)
    return A < B || (isNaN(B) && !isNaN(A));
  else
    return A < B;
}

/// NumPy's order of complex numbers (npysort's CFLOAT_LT): by real part, then imaginary part,
/// with R + Rj < R + nanj < nan + Rj < nan + nanj.
template <typename T> bool lessNaNLast(std::complex<T> A, std::complex<T> B) {
  T AR = A.real(), AI = A.imag(), BR = B.real(), BI = B.imag();
  if (AR < BR)
    return AI == AI || BI != BI;
  if (AR > BR)
    return BI != BI && AI == AI;
  if (AR == BR || (AR != AR && BR != BR))
    return AI < BI || (BI != BI && AI == AI);
  return BR != BR;
}

/// A datetime64/timedelta64 count: NaT (INT64_MIN) orders after every date and equals NaT, as
/// NumPy sorts them.
struct NaTLast {
  int64_t count;
  bool operator<(NaTLast other) const {
    constexpr int64_t NaT = std::numeric_limits<int64_t>::min();
    return count != NaT && (other.count == NaT || count < other.count);
  }
};

template <typename T> struct IsComplex : std::false_type {};
template <typename T> struct IsComplex<std::complex<T>> : std::true_type {};

template <typename T> void sortRows(void *Data, int64_t Rows, int64_t RowLength) {
  T *Base = static_cast<T *>(Data);
  for (int64_t R = 0; R < Rows; ++R) {
    T *First = Base + R * RowLength;
    T *Last = First + RowLength;
    if constexpr (IsComplex<T>::value) {
      std::sort(First, Last, [](T A, T B) { return lessNaNLast(A, B); });
    } else {
      if constexpr (std::is_floating_point_v<T>) {
        // Moving NaNs out first lets the sort use the plain `<`, which is much cheaper than
        // the NaN-aware comparator in the inner loop.
        Last = std::partition(First, Last, [](T V) { return !isNaN(V); });
      }
      std::sort(First, Last);
    }
  }
}

template <typename T>
void argsortStrided(const void *Data, int64_t Count, int64_t Stride, int64_t *Result) {
  // Gathering (value, index) pairs keeps the sort's memory accesses contiguous whatever the
  // source stride, and memcpy tolerates unaligned views.
  std::vector<std::pair<T, int64_t>> Items(static_cast<size_t>(Count));
  const char *Base = static_cast<const char *>(Data);
  for (int64_t I = 0; I < Count; ++I) {
    std::memcpy(&Items[I].first, Base + I * Stride, sizeof(T));
    Items[I].second = I;
  }
  std::stable_sort(Items.begin(), Items.end(),
                   [](const auto &A, const auto &B) { return lessNaNLast(A.first, B.first); });
  for (int64_t I = 0; I < Count; ++I)
    Result[I] = Items[I].second;
}

/// Calls F with a value of the C++ type for a dtype code; returns false for unknown codes.
template <typename F> bool withDtype(int32_t Code, F &&Fn) {
  switch (Code) {
  case SortBool: // NumPy bools are single bytes holding 0 or 1.
  case SortUInt8:
    Fn(uint8_t{});
    return true;
  case SortInt8:
    Fn(int8_t{});
    return true;
  case SortInt16:
    Fn(int16_t{});
    return true;
  case SortUInt16:
    Fn(uint16_t{});
    return true;
  case SortInt32:
    Fn(int32_t{});
    return true;
  case SortUInt32:
    Fn(uint32_t{});
    return true;
  case SortInt64:
    Fn(int64_t{});
    return true;
  case SortUInt64:
    Fn(uint64_t{});
    return true;
  case SortFloat32:
    Fn(float{});
    return true;
  case SortFloat64:
    Fn(double{});
    return true;
  case SortComplex64:
    Fn(std::complex<float>{});
    return true;
  case SortComplex128:
    Fn(std::complex<double>{});
    return true;
  case SortDatetime:
    Fn(NaTLast{});
    return true;
  default:
    return false;
  }
}

} // namespace

} // namespace taipan::runtime

extern "C" {

void taipan_sort(void *data, int64_t rows, int64_t rowLength, int32_t dtypeCode) {
  if (rows <= 0 || rowLength <= 1)
    return;
  taipan::runtime::withDtype(dtypeCode, [&](auto Tag) {
    taipan::runtime::sortRows<decltype(Tag)>(data, rows, rowLength);
  });
}

void taipan_argsort(const void *data, int64_t count, int64_t stride, int64_t *result,
                    int32_t dtypeCode) {
  if (count <= 0)
    return;
  bool Known = taipan::runtime::withDtype(dtypeCode, [&](auto Tag) {
    taipan::runtime::argsortStrided<decltype(Tag)>(data, count, stride, result);
  });
  if (!Known)
    std::iota(result, result + count, int64_t{0});
}
}
