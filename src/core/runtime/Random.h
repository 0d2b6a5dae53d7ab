// Random.h - CPython-compatible Mersenne Twister used by JIT-compiled code.
// Holds the per-thread MT19937 state and the C entry points behind Python's `random` module.

#ifndef TAIPAN_RUNTIME_RANDOM_H
#define TAIPAN_RUNTIME_RANDOM_H

#include <array>
#include <cstdint>
#include <span>

namespace taipan::runtime {

/// MT19937 state laid out and seeded exactly as CPython's `_random.Random`, so that
/// sequences match the interpreter bit for bit. Also usable as the core of a
/// NumPy-legacy (`RandomState`) generator, which shares the same twister.
class RandomState {
public:
  static constexpr unsigned N = 624;

  /// Creates an unseeded state; callers must seed before drawing.
  RandomState() = default;

  /// MT19937 `init_genrand`: seeds from a single 32-bit word (NumPy legacy scalar seeds).
  /// Every seeding routine goes through here, so all of them drop the cached gauss value.
  void seedFromUInt32(uint32_t Seed);

  /// MT19937 `init_by_array`, the routine CPython uses for every integer seed.
  void seedFromArray(std::span<const uint32_t> Key);

  /// Equivalent to CPython `random.seed(Seed)` for an int: abs(Seed) split into
  /// little-endian 32-bit words (0 becomes the key [0]).
  void seedFromInt(int64_t Seed);

  /// Seeds from 624 words of `std::random_device`, mirroring CPython's urandom seeding.
  void seedFromEntropy();

  /// Next raw 32-bit output (`genrand_uint32`).
  uint32_t nextUInt32();

  /// A double in [0, 1) with 53 random bits, as `random.random()`.
  double nextDouble();

  /// CPython `getrandbits(K)` for 0 < K <= 64; K <= 0 yields 0 without consuming state.
  uint64_t getRandBits(int32_t K);

  /// CPython `_randbelow_with_getrandbits(N)`; N == 0 yields 0 without consuming state.
  uint64_t randBelow(uint64_t N);

  /// CPython `random.gauss`, using and refilling the cached second deviate.
  double gauss(double Mu, double Sigma);

  /// CPython `random.normalvariate` (Kinderman-Monahan ratio of uniforms).
  double normalVariate(double Mu, double Sigma);

  /// Whether any seeding routine has run; lets the per-thread state seed lazily.
  bool isSeeded() const { return Seeded; }

  /// The words and the index of the next one, as Numba's `_helperlib.rnd_get_state` shows them.
  unsigned index() const { return Index; }
  const std::array<uint32_t, N> &words() const { return State; }
  /// Replaces the words and the index (Numba's `rnd_set_state`); drops the cached gauss value.
  void setState(unsigned NewIndex, std::span<const uint32_t, N> Words);

  /// Regenerates all N words and rewinds the index (the MT "twist"). Compiled code that draws
  /// words inline calls this when the index reaches N.
  void refill();
  /// Byte offsets of the words and of the 32-bit index, for compiled code that draws inline.
  static size_t wordsOffset();
  static size_t indexOffset();

private:
  std::array<uint32_t, N> State{};
  unsigned Index = N + 1;
  bool Seeded = false;
  bool HasGaussNext = false;
  double GaussNext = 0.0;
};

/// The calling thread's generator, seeded from entropy on first use.
RandomState &threadRandomState();

} // namespace taipan::runtime

extern "C" {
/// This thread's RandomState (seeded), for compiled code drawing words inline.
void *taipan_random_state(void);
/// RandomState::refill on a state from taipan_random_state.
void taipan_random_refill(void *state);
/// `random.seed(seed)` for an int seed.
void taipan_random_seed(int64_t seed);
/// `random.random()`.
double taipan_random_random(void);
/// `random.getrandbits(k)` for 0 < k <= 64 (other k yield 0).
uint64_t taipan_random_getrandbits(int32_t k);
/// `random._randbelow(n)`; returns 0 for n <= 0.
int64_t taipan_random_randbelow(int64_t n);
/// `random.randrange(start, stop, step)`; sets *error to 1 (and returns 0) when the range
/// is empty or step is 0, so the caller can raise ValueError, else sets it to 0.
int64_t taipan_random_randrange(int64_t start, int64_t stop, int64_t step, int32_t *error);
/// `random.randint(a, b)`, i.e. randrange(a, b + 1); error reporting as randrange.
int64_t taipan_random_randint(int64_t a, int64_t b, int32_t *error);
/// `random.uniform(a, b)`.
double taipan_random_uniform(double a, double b);
/// `random.gauss(mu, sigma)`.
double taipan_random_gauss(double mu, double sigma);
/// `random.normalvariate(mu, sigma)`.
double taipan_random_normalvariate(double mu, double sigma);
}

#endif // TAIPAN_RUNTIME_RANDOM_H
