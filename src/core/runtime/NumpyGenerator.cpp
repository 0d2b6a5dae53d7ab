// NumpyGenerator.cpp - the runtime's entry points for np.random.Generator methods.
// Draws through the Generator's own `bitgen_t`, so its state advances as NumPy's would.

#include "runtime/NumpyBitgen.h"
#include "runtime/NumpyZiggurat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

// NumPy's C distributions are built without FMA contraction on the platforms it ships.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace taipan::runtime::numpy_random {
namespace {

uint32_t next_uint32(NumpyBitgen *bitgen_state) {
  return bitgen_state->next_uint32(bitgen_state->state);
}
uint64_t next_uint64(NumpyBitgen *bitgen_state) {
  return bitgen_state->next_uint64(bitgen_state->state);
}

/// Lemire's bounded integer in [0, rng] from 64-bit words (rng < 2**64 - 1).
uint64_t bounded_lemire_uint64(NumpyBitgen *bitgen_state, uint64_t rng) {
  const uint64_t rng_excl = rng + 1;
  __uint128_t m = static_cast<__uint128_t>(next_uint64(bitgen_state)) * rng_excl;
  uint64_t leftover = static_cast<uint64_t>(m);
  if (leftover < rng_excl) {
    const uint64_t threshold = (UINT64_MAX - rng) % rng_excl;
    while (leftover < threshold) {
      m = static_cast<__uint128_t>(next_uint64(bitgen_state)) * rng_excl;
      leftover = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

/// Lemire's bounded integer in [0, rng] from 32-bit words (rng < 2**32 - 1).
uint32_t bounded_lemire_uint32(NumpyBitgen *bitgen_state, uint32_t rng) {
  const uint32_t rng_excl = rng + 1;
  uint64_t m = static_cast<uint64_t>(next_uint32(bitgen_state)) * rng_excl;
  uint32_t leftover = static_cast<uint32_t>(m);
  if (leftover < rng_excl) {
    const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
    while (leftover < threshold) {
      m = static_cast<uint64_t>(next_uint32(bitgen_state)) * rng_excl;
      leftover = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

float next_float(NumpyBitgen *bitgen_state) {
  return (next_uint32(bitgen_state) >> 8) * (1.0f / 16777216.0f);
}

float random_standard_exponential_f(NumpyBitgen *bitgen_state);

float standard_exponential_unlikely_f(NumpyBitgen *bitgen_state, uint8_t idx, float x) {
  if (idx == 0) {
    /* Switch to 1.0 - U to avoid log(0.0), see GH 13361 */
    return ziggurat::ziggurat_exp_r_f - std::log1p(-next_float(bitgen_state));
  } else if ((ziggurat::fe_float[idx - 1] - ziggurat::fe_float[idx]) * next_float(bitgen_state) +
                 ziggurat::fe_float[idx] <
             std::exp(-x)) {
    return x;
  }
  return random_standard_exponential_f(bitgen_state);
}

float random_standard_exponential_f(NumpyBitgen *bitgen_state) {
  uint32_t ri = next_uint32(bitgen_state);
  ri >>= 1;
  uint8_t idx = ri & 0xFF;
  ri >>= 8;
  float x = ri * ziggurat::we_float[idx];
  if (ri < ziggurat::ke_float[idx])
    return x; /* 98.9% of the time we return here 1st try */
  return standard_exponential_unlikely_f(bitgen_state, idx, x);
}

float random_standard_normal_f(NumpyBitgen *bitgen_state) {
  for (;;) {
    /* r = n23sb8 */
    uint32_t r = next_uint32(bitgen_state);
    int idx = r & 0xff;
    int sign = (r >> 8) & 0x1;
    uint32_t rabs = (r >> 9) & 0x0007fffff;
    float x = rabs * ziggurat::wi_float[idx];
    if (sign & 0x1)
      x = -x;
    if (rabs < ziggurat::ki_float[idx])
      return x; /* # 99.3% of the time return here */
    if (idx == 0) {
      for (;;) {
        /* Switch to 1.0 - U to avoid log(0.0), see GH 13361 */
        float xx = -ziggurat::ziggurat_nor_inv_r_f * std::log1p(-next_float(bitgen_state));
        float yy = -std::log1p(-next_float(bitgen_state));
        if (yy + yy > xx * xx)
          return ((rabs >> 8) & 0x1) ? -(ziggurat::ziggurat_nor_r_f + xx)
                                     : ziggurat::ziggurat_nor_r_f + xx;
      }
    } else {
      // NumPy compares with the double exp of a double argument here.
      if (((ziggurat::fi_float[idx - 1] - ziggurat::fi_float[idx]) * next_float(bitgen_state) +
           ziggurat::fi_float[idx]) < std::exp(-0.5 * x * x))
        return x;
    }
  }
}

float random_standard_gamma_f(NumpyBitgen *bitgen_state, float shape) {
  float b, c;
  float U, V, X, Y;
  if (shape == 1.0f)
    return random_standard_exponential_f(bitgen_state);
  if (shape == 0.0)
    return 0.0;
  if (shape < 1.0f) {
    for (;;) {
      U = next_float(bitgen_state);
      V = random_standard_exponential_f(bitgen_state);
      if (U <= 1.0f - shape) {
        X = std::pow(U, 1.0f / shape);
        if (X <= V)
          return X;
      } else {
        Y = -std::log((1.0f - U) / shape);
        X = std::pow(1.0f - shape + shape * Y, 1.0f / shape);
        if (X <= (V + Y))
          return X;
      }
    }
  }
  b = shape - 1.0f / 3.0f;
  c = 1.0f / std::sqrt(9.0f * b);
  for (;;) {
    do {
      X = random_standard_normal_f(bitgen_state);
      V = 1.0f + c * X;
    } while (V <= 0.0f);
    V = V * V * V;
    U = next_float(bitgen_state);
    if (U < 1.0f - 0.0331f * (X * X) * (X * X))
      return (b * V);
    /* logf(0.0) ok here */
    if (std::log(U) < 0.5f * X * X + b * (1.0f - V + std::log(V)))
      return (b * V);
  }
}

} // namespace
} // namespace taipan::runtime::numpy_random

using taipan::runtime::NumpyBitgen;
using taipan::runtime::NumpyDistribution;
namespace numpy_random = taipan::runtime::numpy_random;

extern "C" {

double taipan_np_generator_continuous(void *bitgen, int32_t distribution, double a, double b,
                                      double c) {
  return numpy_random::generator_continuous(static_cast<NumpyBitgen *>(bitgen),
                                            static_cast<NumpyDistribution>(distribution), a, b, c);
}

int64_t taipan_np_generator_discrete(void *bitgen, int32_t distribution, double a, double b,
                                     int64_t i, int64_t j, int64_t k) {
  return numpy_random::generator_discrete(static_cast<NumpyBitgen *>(bitgen),
                                          static_cast<NumpyDistribution>(distribution), a, b, i, j,
                                          k);
}

int64_t taipan_np_generator_bounded(void *bitgen, int64_t low, uint64_t range) {
  // random_bounded_uint64 without the mask: Generator.integers uses Lemire's method.
  auto *state = static_cast<NumpyBitgen *>(bitgen);
  uint64_t offset = static_cast<uint64_t>(low);
  if (range == 0)
    return low;
  if (range <= 0xFFFFFFFFULL) {
    if (range == 0xFFFFFFFFULL)
      return static_cast<int64_t>(offset + state->next_uint32(state->state));
    return static_cast<int64_t>(
        offset + numpy_random::bounded_lemire_uint32(state, static_cast<uint32_t>(range)));
  }
  if (range == 0xFFFFFFFFFFFFFFFFULL)
    return static_cast<int64_t>(offset + state->next_uint64(state->state));
  return static_cast<int64_t>(offset + numpy_random::bounded_lemire_uint64(state, range));
}

uint32_t taipan_np_generator_bounded_small(void *bitgen, uint32_t range, int32_t bits,
                                           int32_t *bufferCount, uint32_t *buffer) {
  // NumPy's buffered_uint8/uint16/bounded_bool: one 32-bit word serves 4, 2 or 32 draws,
  // the unused bits kept in *buffer between the draws of one fill.
  auto *state = static_cast<NumpyBitgen *>(bitgen);
  auto nextBits = [&]() -> uint32_t {
    if (*bufferCount == 0) {
      *buffer = state->next_uint32(state->state);
      *bufferCount = 32 / bits - 1;
    } else {
      *buffer >>= bits;
      *bufferCount -= 1;
    }
    return *buffer & ((1U << bits) - 1U);
  };
  if (range == 0)
    return 0;
  if (bits == 1)
    return nextBits();
  const uint32_t fullRange = (1U << bits) - 1U;
  if (range == fullRange) // Lemire's method does not serve the whole width
    return nextBits();
  // buffered_bounded_lemire_uint8/uint16 (the product fits 2 * bits bits).
  const uint32_t rangeExclusive = range + 1;
  uint32_t m = nextBits() * rangeExclusive;
  uint32_t leftover = m & fullRange;
  if (leftover < rangeExclusive) {
    const uint32_t threshold = (fullRange - range) % rangeExclusive;
    while (leftover < threshold) {
      m = nextBits() * rangeExclusive;
      leftover = m & fullRange;
    }
  }
  return m >> bits;
}

void taipan_np_generator_shuffle_axis(void *bitgen, const void *array, int64_t ndim, int64_t axis,
                                      int64_t itemSize, int32_t permutation) {
  // The array's fields as ArrayLayout places them: data at 32, shape at 40, then strides.
  const char *fields = static_cast<const char *>(array);
  char *data;
  std::memcpy(&data, fields + 32, sizeof(data));
  int64_t shape[64], strides[64];
  std::memcpy(shape, fields + 40, static_cast<size_t>(ndim) * 8);
  std::memcpy(strides, fields + 40 + 8 * ndim, static_cast<size_t>(ndim) * 8);
  int64_t size = 1;
  for (int64_t d = 0; d < ndim; ++d)
    size *= shape[d];
  auto *state = static_cast<NumpyBitgen *>(bitgen);
  int64_t rows = shape[axis];
  if (size == 0) {
    // shuffle returns before drawing; permutation shuffles an index array of the axis.
    for (int64_t i = rows - 1; permutation && i >= 1; --i)
      numpy_random::random_interval(state, static_cast<uint64_t>(i));
    return;
  }
  int64_t stride = strides[axis];
  int64_t others = size / rows;
  for (int64_t i = rows - 1; i >= 1; --i) {
    int64_t j =
        static_cast<int64_t>(numpy_random::random_interval(state, static_cast<uint64_t>(i)));
    if (i == j)
      continue;
    // Swap the slices at i and j along the axis: every index of the other axes.
    int64_t index[64] = {};
    for (int64_t k = 0; k < others; ++k) {
      int64_t offset = 0;
      for (int64_t d = 0; d < ndim; ++d)
        offset += index[d] * strides[d];
      char *a = data + offset + i * stride;
      char *b = data + offset + j * stride;
      std::swap_ranges(a, a + itemSize, b);
      for (int64_t d = ndim - 1; d >= 0; --d) {
        if (d == axis)
          continue;
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
  }
}

float taipan_np_generator_float32(void *bitgen, int32_t distribution, float a) {
  namespace nr = taipan::runtime::numpy_random;
  auto *state = static_cast<NumpyBitgen *>(bitgen);
  switch (static_cast<NumpyDistribution>(distribution)) {
  case NumpyDistribution::StandardUniform:
    return nr::next_float(state);
  case NumpyDistribution::StandardNormal:
    return nr::random_standard_normal_f(state);
  case NumpyDistribution::StandardExponential:
    return nr::random_standard_exponential_f(state);
  case NumpyDistribution::StandardExponentialInverse:
    // NumPy's double log1p of the float draw, stored as a float.
    return static_cast<float>(-std::log1p(static_cast<double>(-nr::next_float(state))));
  case NumpyDistribution::StandardGamma:
    return nr::random_standard_gamma_f(state, a);
  default:
    return 0.0f;
  }
}
}
