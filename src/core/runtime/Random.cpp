// Random.cpp - CPython-compatible Mersenne Twister used by JIT-compiled code.
// Implements the MT19937 core and the `random` module algorithms on top of it.

#include "runtime/Random.h"

#include <cstddef>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <pthread.h>
#include <random>

#include <sys/random.h>

// The distributions must round exactly like CPython's step-by-step evaluation; fusing
// `mu + z * sigma` into an FMA would change the last bit.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace taipan::runtime {

namespace {
constexpr unsigned M = 397;
constexpr uint32_t MatrixA = 0x9908b0dfU;
constexpr uint32_t UpperMask = 0x80000000U;
constexpr uint32_t LowerMask = 0x7fffffffU;
// Python's random.TWOPI and random.NV_MAGICCONST (4 * exp(-0.5) / sqrt(2.0)) as CPython
// computes them, spelled out so a libm or constant folder cannot move the last bit.
constexpr double TwoPi = 6.283185307179586;
constexpr double NvMagicConst = 1.7155277699214135;
} // namespace

void RandomState::seedFromUInt32(uint32_t Seed) {
  State[0] = Seed;
  for (unsigned I = 1; I < N; ++I)
    State[I] = 1812433253U * (State[I - 1] ^ (State[I - 1] >> 30)) + I;
  Index = N;
  HasGaussNext = false;
  Seeded = true;
}

void RandomState::setState(unsigned NewIndex, std::span<const uint32_t, N> Words) {
  std::copy(Words.begin(), Words.end(), State.begin());
  Index = NewIndex;
  HasGaussNext = false;
  Seeded = true;
}

void RandomState::seedFromArray(std::span<const uint32_t> Key) {
  seedFromUInt32(19650218U);
  const size_t KeyLength = Key.size();
  unsigned I = 1;
  size_t J = 0;
  // An empty key would index out of bounds below; CPython never passes one, so treat it
  // as the key [0] rather than reading garbage.
  static constexpr uint32_t ZeroKey[1] = {0};
  const uint32_t *KeyData = KeyLength ? Key.data() : ZeroKey;
  const size_t Len = KeyLength ? KeyLength : 1;
  for (size_t K = N > Len ? N : Len; K; --K) {
    State[I] = (State[I] ^ ((State[I - 1] ^ (State[I - 1] >> 30)) * 1664525U)) + KeyData[J] +
               static_cast<uint32_t>(J);
    ++I;
    ++J;
    if (I >= N) {
      State[0] = State[N - 1];
      I = 1;
    }
    if (J >= Len)
      J = 0;
  }
  for (unsigned K = N - 1; K; --K) {
    State[I] = (State[I] ^ ((State[I - 1] ^ (State[I - 1] >> 30)) * 1566083941U)) - I;
    ++I;
    if (I >= N) {
      State[0] = State[N - 1];
      I = 1;
    }
  }
  // Guarantees a non-zero initial state, as in the reference implementation.
  State[0] = 0x80000000U;
}

void RandomState::seedFromInt(int64_t Seed) {
  // abs() in unsigned arithmetic so INT64_MIN maps to 2**63 like Python's abs().
  uint64_t Magnitude = Seed < 0 ? 0 - static_cast<uint64_t>(Seed) : static_cast<uint64_t>(Seed);
  uint32_t Key[2] = {static_cast<uint32_t>(Magnitude), static_cast<uint32_t>(Magnitude >> 32)};
  // CPython uses only as many words as the magnitude needs, and at least one.
  seedFromArray(std::span<const uint32_t>(Key, (Magnitude >> 32) ? 2 : 1));
}

void RandomState::seedFromEntropy() {
  // CPython seeds from N words of OS entropy; read them in one go (getrandom), since
  // std::random_device makes a system call per word: 624 of them took 12 ms, more than the
  // rest of a first call.
  std::array<uint32_t, N> Key;
  size_t Filled = 0;
  char *Bytes = reinterpret_cast<char *>(Key.data());
  while (Filled < sizeof(Key)) {
    ssize_t Got = getrandom(Bytes + Filled, sizeof(Key) - Filled, 0);
    if (Got <= 0)
      break;
    Filled += static_cast<size_t>(Got);
  }
  if (Filled < sizeof(Key)) {
    std::random_device Device;
    for (uint32_t &Word : Key)
      Word = Device();
  }
  seedFromArray(Key);
}

void RandomState::refill() {
  if (!Seeded)
    seedFromUInt32(5489U); // The reference default, so an unseeded state is still defined.
  unsigned K = 0;
  for (; K < N - M; ++K) {
    uint32_t Y = (State[K] & UpperMask) | (State[K + 1] & LowerMask);
    State[K] = State[K + M] ^ (Y >> 1) ^ ((Y & 1U) ? MatrixA : 0U);
  }
  for (; K < N - 1; ++K) {
    uint32_t Y = (State[K] & UpperMask) | (State[K + 1] & LowerMask);
    State[K] = State[K + M - N] ^ (Y >> 1) ^ ((Y & 1U) ? MatrixA : 0U);
  }
  uint32_t Y = (State[N - 1] & UpperMask) | (State[0] & LowerMask);
  State[N - 1] = State[M - 1] ^ (Y >> 1) ^ ((Y & 1U) ? MatrixA : 0U);
  Index = 0;
}

size_t RandomState::wordsOffset() { return offsetof(RandomState, State); }
size_t RandomState::indexOffset() { return offsetof(RandomState, Index); }

uint32_t RandomState::nextUInt32() {
  if (Index >= N)
    refill();
  uint32_t Y = State[Index++];
  Y ^= Y >> 11;
  Y ^= (Y << 7) & 0x9d2c5680U;
  Y ^= (Y << 15) & 0xefc60000U;
  Y ^= Y >> 18;
  return Y;
}

double RandomState::nextDouble() {
  uint32_t A = nextUInt32() >> 5;
  uint32_t B = nextUInt32() >> 6;
  return (A * 67108864.0 + B) * (1.0 / 9007199254740992.0);
}

uint64_t RandomState::getRandBits(int32_t K) {
  if (K <= 0)
    return 0;
  if (K > 64)
    K = 64; // Wider requests could not be returned anyway.
  if (K <= 32)
    return nextUInt32() >> (32 - K);
  // Words are drawn least significant first; only the final word is truncated, which is
  // why this is not simply (hi << 32 | lo) >> (64 - K).
  uint64_t Low = nextUInt32();
  uint64_t High = nextUInt32() >> (64 - K);
  return Low | (High << 32);
}

uint64_t RandomState::randBelow(uint64_t N) {
  if (N == 0)
    return 0;
  int32_t K = std::bit_width(N);
  uint64_t R = getRandBits(K);
  while (R >= N)
    R = getRandBits(K);
  return R;
}

double RandomState::gauss(double Mu, double Sigma) {
  double Z;
  if (HasGaussNext) {
    Z = GaussNext;
    HasGaussNext = false;
  } else {
    double X2Pi = nextDouble() * TwoPi;
    double G2Rad = std::sqrt(-2.0 * std::log(1.0 - nextDouble()));
    Z = std::cos(X2Pi) * G2Rad;
    GaussNext = std::sin(X2Pi) * G2Rad;
    HasGaussNext = true;
  }
  return Mu + Z * Sigma;
}

double RandomState::normalVariate(double Mu, double Sigma) {
  double Z;
  while (true) {
    double U1 = nextDouble();
    double U2 = 1.0 - nextDouble();
    Z = NvMagicConst * (U1 - 0.5) / U2;
    double ZZ = Z * Z / 4.0;
    if (ZZ <= -std::log(U2))
      break;
  }
  return Mu + Z * Sigma;
}

namespace {
/// Counts fork()s in this process's line: a child's states seeded before its fork reseed from
/// entropy, so forked processes draw independent streams (Numba's generators are fork-safe).
std::atomic<uint64_t> forks{0};
[[maybe_unused]] const int forkHandler =
    pthread_atfork(nullptr, nullptr, [] { forks.fetch_add(1, std::memory_order_relaxed); });
} // namespace

RandomState &threadRandomState() {
  // Per thread so compiled code needs no locking; seeded lazily so threads that never draw do
  // not pay for reading entropy, and again in a forked child.
  thread_local RandomState State;
  thread_local uint64_t SeededAfterForks = 0;
  uint64_t Forks = forks.load(std::memory_order_relaxed);
  if (!State.isSeeded() || SeededAfterForks != Forks) {
    State.seedFromEntropy();
    SeededAfterForks = Forks;
  }
  return State;
}

namespace {
// __extension__ keeps -Wpedantic quiet about the GNU 128-bit type.
__extension__ typedef __int128 Int128;

/// Shared randrange core; 128-bit arithmetic keeps width and randint's b + 1 from
/// overflowing at the int64 extremes, where Python's ints would not.
int64_t randRange(Int128 Start, Int128 Stop, Int128 Step, int32_t *Error) {
  Int128 Width = Stop - Start;
  Int128 Count;
  if (Step == 1) {
    Count = Width;
  } else if (Step > 0) {
    Count = (Width + Step - 1) / Step;
    // Python's // floors; C++ truncates toward zero.
    if ((Width + Step - 1) % Step != 0 && (Width + Step - 1) < 0)
      --Count;
  } else if (Step < 0) {
    Count = (Width + Step + 1) / Step;
    if ((Width + Step + 1) % Step != 0 && (Width + Step + 1) > 0)
      --Count;
  } else {
    Count = 0;
  }
  if (Count <= 0) {
    *Error = 1;
    return 0;
  }
  *Error = 0;
  RandomState &State = threadRandomState();
  uint64_t R;
  if (Count > static_cast<Int128>(UINT64_MAX)) {
    // Only randint(INT64_MIN, INT64_MAX) gets here: Count is 2**64, so CPython draws
    // getrandbits(65) and retries while bit 64 (the top bit of the third word) is set.
    while (true) {
      uint64_t Low = State.nextUInt32();
      uint64_t High = State.nextUInt32();
      if ((State.nextUInt32() >> 31) == 0) {
        R = Low | (High << 32);
        break;
      }
    }
  } else {
    R = State.randBelow(static_cast<uint64_t>(Count));
  }
  return static_cast<int64_t>(Start + Step * static_cast<Int128>(R));
}
} // namespace

} // namespace taipan::runtime

using taipan::runtime::threadRandomState;

extern "C" {

void *taipan_random_state(void) { return &threadRandomState(); }

void taipan_random_refill(void *state) {
  static_cast<taipan::runtime::RandomState *>(state)->refill();
}

void taipan_random_seed(int64_t seed) { threadRandomState().seedFromInt(seed); }

double taipan_random_random(void) { return threadRandomState().nextDouble(); }

uint64_t taipan_random_getrandbits(int32_t k) {
  if (k <= 0 || k > 64)
    return 0;
  return threadRandomState().getRandBits(k);
}

int64_t taipan_random_randbelow(int64_t n) {
  if (n <= 0)
    return 0;
  return static_cast<int64_t>(threadRandomState().randBelow(static_cast<uint64_t>(n)));
}

int64_t taipan_random_randrange(int64_t start, int64_t stop, int64_t step, int32_t *error) {
  return taipan::runtime::randRange(start, stop, step, error);
}

int64_t taipan_random_randint(int64_t a, int64_t b, int32_t *error) {
  return taipan::runtime::randRange(a, static_cast<taipan::runtime::Int128>(b) + 1, 1, error);
}

double taipan_random_uniform(double a, double b) {
  return a + (b - a) * threadRandomState().nextDouble();
}

double taipan_random_gauss(double mu, double sigma) { return threadRandomState().gauss(mu, sigma); }

double taipan_random_normalvariate(double mu, double sigma) {
  return threadRandomState().normalVariate(mu, sigma);
}
}
