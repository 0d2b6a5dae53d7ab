// NumpyRandom.cpp - NumPy legacy (`np.random.RandomState`) generator used by JIT-compiled code.
// Implements the legacy distributions on top of the shared Mersenne Twister in Random.cpp.

#include "runtime/NumpyRandom.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <pthread.h>
#include <vector>

// NumPy's C distributions are built without FMA contraction on the platforms it ships;
// fusing `loc + scale * z` or `x1 * x1 + x2 * x2` would change the last bit.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace taipan::runtime {

namespace {
/// Smallest all-ones mask covering Max, the `gen_mask` of NumPy's bounded integers.
uint64_t maskCovering(uint64_t Max) {
  uint64_t Mask = Max;
  Mask |= Mask >> 1;
  Mask |= Mask >> 2;
  Mask |= Mask >> 4;
  Mask |= Mask >> 8;
  Mask |= Mask >> 16;
  Mask |= Mask >> 32;
  return Mask;
}
} // namespace

void NumpyRandomState::seed(uint32_t Seed) {
  Twister.seedFromUInt32(Seed);
  HasGauss = false;
  Gauss = 0.0;
}

void NumpyRandomState::setState(unsigned Index, std::span<const uint32_t, RandomState::N> Words) {
  Twister.setState(Index, Words);
  HasGauss = false;
  Gauss = 0.0;
}

void NumpyRandomState::seedFromEntropy() {
  Twister.seedFromEntropy();
  HasGauss = false;
  Gauss = 0.0;
}

uint64_t NumpyRandomState::nextUInt64() {
  // Sequenced explicitly: NumPy's `next32 << 32 | next32` relies on its compiler's
  // left-to-right evaluation, which C++ does not promise for `|`.
  uint64_t High = Twister.nextUInt32();
  uint64_t Low = Twister.nextUInt32();
  return (High << 32) | Low;
}

double NumpyRandomState::gauss() {
  if (HasGauss) {
    HasGauss = false;
    double Cached = Gauss;
    Gauss = 0.0;
    return Cached;
  }
  double X1, X2, R2;
  do {
    X1 = 2.0 * nextDouble() - 1.0;
    X2 = 2.0 * nextDouble() - 1.0;
    R2 = X1 * X1 + X2 * X2;
  } while (R2 >= 1.0 || R2 == 0.0);
  double F = std::sqrt(-2.0 * std::log(R2) / R2);
  Gauss = F * X1;
  HasGauss = true;
  return F * X2;
}

uint64_t NumpyRandomState::boundedMasked(uint64_t Offset, uint64_t Range) {
  if (Range == 0)
    return Offset;
  // Ranges that fit in 32 bits draw one word per attempt, not two; matching NumPy's
  // stream depends on taking the same branch.
  if (Range <= 0xffffffffULL) {
    if (Range == 0xffffffffULL)
      return Offset + nextUInt32();
    uint32_t Mask = static_cast<uint32_t>(maskCovering(Range));
    uint32_t Value;
    while ((Value = nextUInt32() & Mask) > Range)
      ;
    return Offset + Value;
  }
  if (Range == ~0ULL)
    return Offset + nextUInt64();
  uint64_t Mask = maskCovering(Range);
  uint64_t Value;
  while ((Value = nextUInt64() & Mask) > Range)
    ;
  return Offset + Value;
}

uint64_t NumpyRandomState::interval(uint64_t Max) {
  if (Max == 0)
    return 0;
  uint64_t Mask = maskCovering(Max);
  uint64_t Value;
  if (Max <= 0xffffffffULL) {
    while ((Value = nextUInt32() & Mask) > Max)
      ;
  } else {
    while ((Value = nextUInt64() & Mask) > Max)
      ;
  }
  return Value;
}

namespace {
/// Counts fork()s in this process's line: a child's states seeded before its fork reseed from
/// entropy, so forked processes draw independent streams (Numba's generators are fork-safe).
std::atomic<uint64_t> forks{0};
[[maybe_unused]] const int forkHandler =
    pthread_atfork(nullptr, nullptr, [] { forks.fetch_add(1, std::memory_order_relaxed); });
} // namespace

NumpyRandomState &threadNumpyRandomState() {
  // Per thread so compiled code needs no locking; seeded lazily so threads that never draw do
  // not pay for reading entropy, and again in a forked child.
  thread_local NumpyRandomState State;
  thread_local uint64_t SeededAfterForks = 0;
  uint64_t Forks = forks.load(std::memory_order_relaxed);
  if (!State.isSeeded() || SeededAfterForks != Forks) {
    State.seedFromEntropy();
    SeededAfterForks = Forks;
  }
  return State;
}

} // namespace taipan::runtime

using taipan::runtime::threadNumpyRandomState;

extern "C" {

void taipan_np_random_seed(int64_t seed) {
  threadNumpyRandomState().seed(static_cast<uint32_t>(seed));
}

double taipan_np_random_sample(void) { return threadNumpyRandomState().nextDouble(); }

double taipan_np_random_uniform(double low, double high) {
  // NumPy computes the width once and scales it, rather than interpolating.
  double Range = high - low;
  return low + Range * threadNumpyRandomState().nextDouble();
}

double taipan_np_random_standard_normal(void) { return threadNumpyRandomState().gauss(); }

double taipan_np_random_normal(double loc, double scale) {
  return loc + scale * threadNumpyRandomState().gauss();
}

int64_t taipan_np_random_randint(int64_t low, int64_t high) {
  if (low >= high)
    return low;
  // Unsigned arithmetic: the width of [INT64_MIN, INT64_MAX) does not fit in int64.
  uint64_t Range = static_cast<uint64_t>(high) - 1 - static_cast<uint64_t>(low);
  return static_cast<int64_t>(
      threadNumpyRandomState().boundedMasked(static_cast<uint64_t>(low), Range));
}

int64_t taipan_np_random_interval(int64_t max) {
  if (max <= 0)
    return 0;
  return static_cast<int64_t>(threadNumpyRandomState().interval(static_cast<uint64_t>(max)));
}

void taipan_np_random_shuffle(void *data, int64_t count, int64_t stride, int64_t itemSize) {
  auto &State = threadNumpyRandomState();
  char *Base = static_cast<char *>(data);
  for (int64_t I = count - 1; I >= 1; --I) {
    int64_t J = static_cast<int64_t>(State.interval(static_cast<uint64_t>(I)));
    char *ItemI = Base + I * stride;
    char *ItemJ = Base + J * stride;
    if (itemSize == 8) {
      // The common int64/float64 case, kept to two loads and two stores.
      uint64_t A, B;
      std::memcpy(&A, ItemI, 8);
      std::memcpy(&B, ItemJ, 8);
      std::memcpy(ItemI, &B, 8);
      std::memcpy(ItemJ, &A, 8);
    } else if (ItemI != ItemJ) {
      std::swap_ranges(ItemI, ItemI + itemSize, ItemJ);
    }
  }
}

void taipan_np_random_choice_indexes(int64_t population, int64_t count, int32_t replace,
                                     int64_t *out) {
  if (replace) {
    // RandomState.choice draws randint(0, population, size) ...
    for (int64_t I = 0; I < count; ++I)
      out[I] = taipan_np_random_randint(0, population);
    return;
  }
  // ... or, without replacement, the first `count` items of permutation(population).
  std::vector<int64_t> Permutation(static_cast<size_t>(population));
  for (int64_t I = 0; I < population; ++I)
    Permutation[static_cast<size_t>(I)] = I;
  taipan_np_random_shuffle(Permutation.data(), population, sizeof(int64_t), sizeof(int64_t));
  std::copy_n(Permutation.begin(), count, out);
}
}
