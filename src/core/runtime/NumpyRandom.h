// NumpyRandom.h - NumPy legacy (`np.random.RandomState`) generator used by JIT-compiled code.
// Holds the per-thread legacy state and the C entry points behind `np.random.*` functions.

#ifndef TAIPAN_RUNTIME_NUMPYRANDOM_H
#define TAIPAN_RUNTIME_NUMPYRANDOM_H

#include "runtime/Random.h"

#include <cstdint>

namespace taipan::runtime {

/// NumPy's legacy generator: the same MT19937 as `RandomState` plus the polar-method gauss
/// cache that NumPy keeps next to it. Kept apart from the `random` module's state because
/// Python programs seed the two independently and expect independent streams.
class NumpyRandomState {
public:
  /// `np.random.seed(Seed)` for an int seed: MT `init_genrand` and a cleared gauss cache.
  void seed(uint32_t Seed);

  /// Seeds from `std::random_device`, for threads that draw before any seed call.
  void seedFromEntropy();

  /// Whether any seeding routine has run; lets the per-thread state seed lazily.
  bool isSeeded() const { return Twister.isSeeded(); }

  /// The twister, for reading and setting its words (Numba's `_helperlib.rnd_*_state`).
  RandomState &twister() { return Twister; }
  /// Replaces the twister's words and index and drops the cached gauss value.
  void setState(unsigned Index, std::span<const uint32_t, RandomState::N> Words);

  /// `mt19937_next32`.
  uint32_t nextUInt32() { return Twister.nextUInt32(); }

  /// `mt19937_next64`: the first word drawn becomes the high half.
  uint64_t nextUInt64();

  /// `random_sample`: 53-bit double in [0, 1).
  double nextDouble() { return Twister.nextDouble(); }

  /// `legacy_gauss`: Marsaglia's polar method, returning the cached second deviate first.
  double gauss();

  /// Legacy bounded integer in [Offset, Offset + Range] (both inclusive) with masked
  /// rejection, as `random_bounded_uint64_fill` with `use_masked` set.
  uint64_t boundedMasked(uint64_t Offset, uint64_t Range);

  /// `random_interval`: uniform integer in [0, Max] by masked rejection.
  uint64_t interval(uint64_t Max);

private:
  RandomState Twister;
  bool HasGauss = false;
  double Gauss = 0.0;
};

/// The calling thread's legacy NumPy generator, seeded from entropy on first use.
NumpyRandomState &threadNumpyRandomState();

} // namespace taipan::runtime

extern "C" {
/// `np.random.seed(seed)`; callers have checked 0 <= seed < 2**32 (NumPy raises otherwise).
void taipan_np_random_seed(int64_t seed);
/// `np.random.random()` / `rand()` / `random_sample()`.
double taipan_np_random_sample(void);
/// `np.random.uniform(low, high)`.
double taipan_np_random_uniform(double low, double high);
/// `np.random.standard_normal()` / `randn()`.
double taipan_np_random_standard_normal(void);
/// `np.random.normal(loc, scale)`.
double taipan_np_random_normal(double loc, double scale);
/// `np.random.randint(low, high)` with the int64 dtype. Callers have checked low < high
/// (NumPy raises ValueError otherwise); an empty range returns low without drawing.
int64_t taipan_np_random_randint(int64_t low, int64_t high);
/// Legacy `random_interval(max)`: uniform in [0, max]; max < 0 is treated as 0.
int64_t taipan_np_random_interval(int64_t max);
/// `RandomState.shuffle` of a 1-D array: `count` items of `itemSize` bytes, `stride` bytes
/// apart (the stride may be negative).
void taipan_np_random_shuffle(void *data, int64_t count, int64_t stride, int64_t itemSize);
/// `RandomState.choice`'s indexes into a population: `count` draws of randint(0, population)
/// with `replace`, else the first `count` items of permutation(population) (count <= population).
void taipan_np_random_choice_indexes(int64_t population, int64_t count, int32_t replace,
                                     int64_t *out);
}

#endif // TAIPAN_RUNTIME_NUMPYRANDOM_H
