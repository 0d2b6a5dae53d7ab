// NumpyBitgen.h - NumPy's bit generator interface (`bitgen_t`) and its distributions.
// The legacy (RandomState) and Generator samplers of NumpyDistributions/NumpyLegacyDistributions.

#ifndef TAIPAN_RUNTIME_NUMPYBITGEN_H
#define TAIPAN_RUNTIME_NUMPYBITGEN_H

#include <cstdint>

namespace taipan::runtime {

/// NumPy's `bitgen_t` (numpy/random/bitgen.h), laid out as NumPy lays it out: a Generator's
/// bit generator hands compiled code the address of one (its `capsule`), and the legacy
/// thread state presents its Mersenne Twister through one, so one set of samplers serves both.
struct NumpyBitgen {
  void *state;
  uint64_t (*next_uint64)(void *state);
  uint32_t (*next_uint32)(void *state);
  double (*next_double)(void *state);
  uint64_t (*next_raw)(void *state);
};

/// NumPy's `aug_bitgen_t`: the legacy samplers' generator plus the polar method's cached
/// second gauss deviate.
struct NumpyAugBitgen {
  NumpyBitgen *bit_generator;
  bool *has_gauss;
  double *gauss;
};

/// The distributions NumPy's samplers implement, one id per function of `np.random`
/// (RandomState) and of `Generator`; the library lowers a call to the runtime with the id.
/// Continuous ones return a double, discrete ones an int64 (NumpyRandomDiscrete).
enum class NumpyDistribution : int32_t {
  StandardUniform,
  Uniform, ///< (low, high - low)
  StandardNormal,
  Normal,
  StandardExponential,
  Exponential,
  StandardGamma,
  Gamma,
  Beta,
  Chisquare,
  NoncentralChisquare,
  F,
  NoncentralF,
  StandardCauchy,
  StandardT,
  Pareto,
  Weibull,
  Power,
  Laplace,
  Gumbel,
  Logistic,
  Lognormal,
  Rayleigh,
  Wald,
  Vonmises,
  Triangular,
  StandardExponentialInverse, ///< Generator.standard_exponential(method='inv')
  // Discrete: int64 results.
  Poisson,
  Binomial, ///< (p; n)
  NegativeBinomial,
  Geometric,
  Zipf,
  Logseries,
  Hypergeometric, ///< (; good, bad, sample)
};

/// NumPy's samplers (numpy/random/src/distributions/distributions.c of v2.4.6), under NumPy's
/// names so that each can be checked against its original line by line; the legacy ones
/// (NumpyLegacyDistributions.cpp) call these where RandomState shares NumPy's code.
namespace numpy_random {
double next_double(NumpyBitgen *bitgen_state);
double random_standard_exponential(NumpyBitgen *bitgen_state);
double random_standard_normal(NumpyBitgen *bitgen_state);
double random_standard_gamma(NumpyBitgen *bitgen_state, double shape);
double random_loggam(double x);
double random_laplace(NumpyBitgen *bitgen_state, double loc, double scale);
double random_gumbel(NumpyBitgen *bitgen_state, double loc, double scale);
double random_logistic(NumpyBitgen *bitgen_state, double loc, double scale);
double random_triangular(NumpyBitgen *bitgen_state, double left, double mode, double right);
int64_t random_poisson(NumpyBitgen *bitgen_state, double lam);
int64_t random_geometric_search(NumpyBitgen *bitgen_state, double p);
int64_t random_binomial(NumpyBitgen *bitgen_state, double p, int64_t n);
int64_t random_binomial_btpe(NumpyBitgen *bitgen_state, int64_t n, double p);
uint64_t random_interval(NumpyBitgen *bitgen_state, uint64_t max);
void random_multinomial(NumpyBitgen *bitgen_state, int64_t n, int64_t *mnix, const double *pix,
                        int64_t d);
/// Chooses Generator.wald's formula by the NumPy whose streams are matched: NumPy 2.3.4 and
/// later compute X in a rationalised form (numpy#29609, #29926), earlier ones as
/// `mean + mean / (2 scale) * (Y - sqrt(4 scale Y + Y * Y))`, which differs in the last bits.
void useWaldOfNumpyBefore234(bool before);
/// One draw of a continuous or discrete Generator distribution (NumpyDistribution ids).
double generator_continuous(NumpyBitgen *bitgen_state, NumpyDistribution distribution, double a,
                            double b, double c);
int64_t generator_discrete(NumpyBitgen *bitgen_state, NumpyDistribution distribution, double a,
                           double b, int64_t i, int64_t j, int64_t k);
} // namespace numpy_random

} // namespace taipan::runtime

extern "C" {
/// One draw of `distribution` from the calling thread's legacy RandomState stream, with
/// NumPy's legacy algorithm; callers have checked the parameters as NumPy does.
double taipan_np_legacy_continuous(int32_t distribution, double a, double b, double c);
int64_t taipan_np_legacy_discrete(int32_t distribution, double a, double b, int64_t i, int64_t j,
                                  int64_t k);
/// `np.random.multinomial(n, pvals)` into `out[0..count)`, `dirichlet(alpha)` likewise.
void taipan_np_legacy_multinomial(int64_t n, const double *pvals, int64_t count, int64_t *out);
void taipan_np_legacy_dirichlet(const double *alpha, int64_t count, double *out);
/// NumPy's checks of multinomial's pvals (1: outside [0, 1] or NaN, 2: sum(pvals[:-1]) > 1)
/// and dirichlet's alpha (1: alpha <= 0); 0 when they pass.
int32_t taipan_np_multinomial_check(const double *pvals, int64_t count);
int32_t taipan_np_dirichlet_check(const double *alpha, int64_t count);
/// The same draws from a Generator's bit generator (`bitgen` is its `bitgen_t`), with
/// NumPy's Generator algorithms.
double taipan_np_generator_continuous(void *bitgen, int32_t distribution, double a, double b,
                                      double c);
int64_t taipan_np_generator_discrete(void *bitgen, int32_t distribution, double a, double b,
                                     int64_t i, int64_t j, int64_t k);
/// One float32 draw (dtype=np.float32) of random, standard_normal, standard_exponential
/// (either method) or standard_gamma(a), with NumPy's float algorithms and tables.
float taipan_np_generator_float32(void *bitgen, int32_t distribution, float a);
/// `Generator.integers`: uniform in [low, low + range] (both inclusive), Lemire's method.
int64_t taipan_np_generator_bounded(void *bitgen, int64_t low, uint64_t range);
/// `Generator.integers` of an 8- or 16-bit dtype (`bits` 8, 16) or of bool (`bits` 1): a
/// draw in [0, range] from NumPy's buffered words; `*bufferCount` and `*buffer` (both 0 at the
/// start of a fill) carry the unused bits of a word from one draw of the fill to the next.
uint32_t taipan_np_generator_bounded_small(void *bitgen, uint32_t range, int32_t bits,
                                           int32_t *bufferCount, uint32_t *buffer);
/// `Generator.shuffle(x, axis)` of the array value at `array` (its ArrayLayout fields, ndim of
/// them at most 64): the slices along `axis` (normalised) swapped as NumPy swaps them; an empty
/// array draws nothing, unless for `permutation`, which draws for the axis's index array.
void taipan_np_generator_shuffle_axis(void *bitgen, const void *array, int64_t ndim, int64_t axis,
                                      int64_t itemSize, int32_t permutation);
}

#endif // TAIPAN_RUNTIME_NUMPYBITGEN_H
