// NumpyLegacyDistributions.cpp - NumPy's RandomState samplers on the thread's legacy stream.
// A port of numpy/random/src/legacy/legacy-distributions.c (v2.4.6), kept under NumPy's names.

#include "runtime/NumpyBitgen.h"
#include "runtime/NumpyRandom.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

// NumPy's C distributions are built without FMA contraction on the platforms it ships;
// fusing `loc + scale * z` would change the last bit.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace taipan::runtime {
namespace {

using namespace numpy_random;

constexpr double Pi = 3.14159265358979323846;

uint64_t legacyNextUInt64(void *state) {
  return static_cast<NumpyRandomState *>(state)->nextUInt64();
}
uint32_t legacyNextUInt32(void *state) {
  return static_cast<NumpyRandomState *>(state)->nextUInt32();
}
double legacyNextDouble(void *state) {
  return static_cast<NumpyRandomState *>(state)->nextDouble();
}

/// The calling thread's legacy state, seen both as NumpyRandomState (its gauss cache) and
/// as the `bitgen_t` that the samplers RandomState shares with Generator take.
struct Legacy {
  NumpyRandomState &rs;
  NumpyBitgen bitgen;
  explicit Legacy(NumpyRandomState &state)
      : rs(state),
        bitgen{&state, legacyNextUInt64, legacyNextUInt32, legacyNextDouble, legacyNextUInt64} {}
};

double legacy_double(Legacy &aug_state) { return aug_state.rs.nextDouble(); }
double legacy_gauss(Legacy &aug_state) { return aug_state.rs.gauss(); }

double legacy_standard_exponential(Legacy &aug_state) {
  /* We use -log(1-U) since U is [0, 1) */
  return -std::log(1.0 - legacy_double(aug_state));
}

double legacy_standard_gamma(Legacy &aug_state, double shape) {
  double b, c;
  double U, V, X, Y;
  if (shape == 1.0)
    return legacy_standard_exponential(aug_state);
  if (shape == 0.0)
    return 0.0;
  if (shape < 1.0) {
    for (;;) {
      U = legacy_double(aug_state);
      V = legacy_standard_exponential(aug_state);
      if (U <= 1.0 - shape) {
        X = std::pow(U, 1. / shape);
        if (X <= V)
          return X;
      } else {
        Y = -std::log((1 - U) / shape);
        X = std::pow(1.0 - shape + shape * Y, 1. / shape);
        if (X <= (V + Y))
          return X;
      }
    }
  }
  b = shape - 1. / 3.;
  c = 1. / std::sqrt(9 * b);
  for (;;) {
    do {
      X = legacy_gauss(aug_state);
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    U = legacy_double(aug_state);
    if (U < 1.0 - 0.0331 * (X * X) * (X * X))
      return (b * V);
    if (std::log(U) < 0.5 * X * X + b * (1. - V + std::log(V)))
      return (b * V);
  }
}

double legacy_chisquare(Legacy &aug_state, double df) {
  return 2.0 * legacy_standard_gamma(aug_state, df / 2.0);
}

double legacy_noncentral_chisquare(Legacy &aug_state, double df, double nonc) {
  if (nonc == 0)
    return legacy_chisquare(aug_state, df);
  if (1 < df) {
    const double Chi2 = legacy_chisquare(aug_state, df - 1);
    const double n = legacy_gauss(aug_state) + std::sqrt(nonc);
    return Chi2 + n * n;
  }
  const int64_t i = random_poisson(&aug_state.bitgen, nonc / 2.0);
  double out = legacy_chisquare(aug_state, df + 2 * i);
  /* Insert nan guard here to avoid changing the stream */
  if (std::isnan(nonc))
    return std::numeric_limits<double>::quiet_NaN();
  return out;
}

double legacy_wald(Legacy &aug_state, double mean, double scale) {
  double mu_2l = mean / (2 * scale);
  double Y = legacy_gauss(aug_state);
  Y = mean * Y * Y;
  double X = mean + mu_2l * (Y - std::sqrt(4 * scale * Y + Y * Y));
  double U = legacy_double(aug_state);
  if (U <= mean / (mean + X))
    return X;
  return mean * mean / X;
}

double legacy_beta(Legacy &aug_state, double a, double b) {
  if ((a <= 1.0) && (b <= 1.0)) {
    /* Use Johnk's algorithm */
    while (true) {
      double U = legacy_double(aug_state);
      double V = legacy_double(aug_state);
      double X = std::pow(U, 1.0 / a);
      double Y = std::pow(V, 1.0 / b);
      if ((X + Y) <= 1.0) {
        if (X + Y > 0)
          return X / (X + Y);
        double logX = std::log(U) / a;
        double logY = std::log(V) / b;
        double logM = logX > logY ? logX : logY;
        logX -= logM;
        logY -= logM;
        return std::exp(logX - std::log(std::exp(logX) + std::exp(logY)));
      }
    }
  }
  double Ga = legacy_standard_gamma(aug_state, a);
  double Gb = legacy_standard_gamma(aug_state, b);
  return Ga / (Ga + Gb);
}

int64_t legacy_random_binomial_inversion(NumpyBitgen *bitgen_state, int64_t n, double p) {
  // NumPy keeps the setup of the last (n, p) (binomial_t); the draws do not depend on it, but
  // recomputing its exp and log per draw of a sized call cost half the time.
  struct Setup {
    bool valid = false;
    int64_t n = 0;
    double p = 0, q = 0, qn = 0;
    int64_t bound = 0;
  };
  thread_local Setup setup;
  if (!setup.valid || setup.n != n || setup.p != p) {
    setup.valid = true;
    setup.n = n;
    setup.p = p;
    setup.q = 1.0 - p;
    setup.qn = std::exp(n * std::log(setup.q));
    double np = n * p;
    setup.bound = static_cast<int64_t>(
        std::min(static_cast<double>(n), np + 10.0 * std::sqrt(np * setup.q + 1)));
  }
  double q = setup.q;
  double qn = setup.qn;
  int64_t bound = setup.bound;
  int64_t X = 0;
  double px = qn;
  double U = next_double(bitgen_state);
  while (U > px) {
    X++;
    if (X > bound) {
      X = 0;
      px = qn;
      U = next_double(bitgen_state);
    } else {
      U -= px;
      px = ((n - X + 1) * p * px) / (X * q);
    }
  }
  return X;
}

int64_t legacy_random_binomial(NumpyBitgen *bitgen_state, double p, int64_t n) {
  if (p <= 0.5) {
    if (p * n <= 30.0)
      return legacy_random_binomial_inversion(bitgen_state, n, p);
    return random_binomial_btpe(bitgen_state, n, p);
  }
  double q = 1.0 - p;
  if (q * n <= 30.0)
    return n - legacy_random_binomial_inversion(bitgen_state, n, q);
  return n - random_binomial_btpe(bitgen_state, n, q);
}

int64_t random_hypergeometric_hyp(NumpyBitgen *bitgen_state, int64_t good, int64_t bad,
                                  int64_t sample) {
  int64_t d1 = bad + good - sample;
  double d2 = static_cast<double>(std::min(bad, good));
  double y = d2;
  int64_t k = sample;
  while (y > 0.0) {
    double u = next_double(bitgen_state);
    y -= static_cast<int64_t>(std::floor(u + y / (d1 + k)));
    k--;
    if (k == 0)
      break;
  }
  int64_t z = static_cast<int64_t>(d2 - y);
  if (good > bad)
    z = sample - z;
  return z;
}

int64_t random_hypergeometric_hrua(NumpyBitgen *bitgen_state, int64_t good, int64_t bad,
                                   int64_t sample) {
  constexpr double D1 = 1.7155277699214135; /* 2*sqrt(2/e) */
  constexpr double D2 = 0.8989161620588988; /* 3 - 2*sqrt(3/e) */
  int64_t mingoodbad = std::min(good, bad);
  int64_t popsize = good + bad;
  int64_t maxgoodbad = std::max(good, bad);
  int64_t m = std::min(sample, popsize - sample);
  double d4 = static_cast<double>(mingoodbad) / popsize;
  double d5 = 1.0 - d4;
  double d6 = m * d4 + 0.5;
  double d7 = std::sqrt(static_cast<double>(popsize - m) * sample * d4 * d5 / (popsize - 1) + 0.5);
  double d8 = D1 * d7 + D2;
  int64_t d9 = static_cast<int64_t>(
      std::floor(static_cast<double>(m + 1) * (mingoodbad + 1) / (popsize + 2)));
  double d10 = (random_loggam(d9 + 1) + random_loggam(mingoodbad - d9 + 1) +
                random_loggam(m - d9 + 1) + random_loggam(maxgoodbad - m + d9 + 1));
  double d11 = std::min(std::min(m, mingoodbad) + 1.0, std::floor(d6 + 16 * d7));
  /* 16 for 16-decimal-digit precision in D1 and D2 */
  int64_t Z;
  while (true) {
    double X = next_double(bitgen_state);
    double Y = next_double(bitgen_state);
    double W = d6 + d8 * (Y - 0.5) / X;
    /* fast rejection: */
    if ((W < 0.0) || (W >= d11))
      continue;
    Z = static_cast<int64_t>(std::floor(W));
    double T = d10 - (random_loggam(Z + 1) + random_loggam(mingoodbad - Z + 1) +
                      random_loggam(m - Z + 1) + random_loggam(maxgoodbad - m + Z + 1));
    /* fast acceptance: */
    if ((X * (4.0 - X) - 3.0) <= T)
      break;
    /* fast rejection: */
    if (X * (X - T) >= 1)
      continue;
    /* log(0.0) is ok here, since always accept */
    if (2.0 * std::log(X) <= T)
      break; /* acceptance */
  }
  /* this is a correction to HRUA* by Ivan Frohne in rv.py */
  if (good > bad)
    Z = m - Z;
  /* another fix from rv.py to allow sample to exceed popsize/2 */
  if (m < sample)
    Z = good - Z;
  return Z;
}

int64_t legacy_random_hypergeometric(NumpyBitgen *bitgen_state, int64_t good, int64_t bad,
                                     int64_t sample) {
  if (sample > 10)
    return random_hypergeometric_hrua(bitgen_state, good, bad, sample);
  if (sample > 0)
    return random_hypergeometric_hyp(bitgen_state, good, bad, sample);
  return 0;
}

int64_t legacy_random_zipf(NumpyBitgen *bitgen_state, double a) {
  double am1 = a - 1.0;
  double b = std::pow(2.0, am1);
  while (true) {
    double U = 1.0 - next_double(bitgen_state);
    double V = next_double(bitgen_state);
    double X = std::floor(std::pow(U, -1.0 / am1));
    // Results beyond a C long are rejected: a Zipf distribution truncated to LONG_MAX.
    if (X > static_cast<double>(INT64_MAX) || X < 1.0)
      continue;
    double T = std::pow(1.0 + 1.0 / X, am1);
    if (V * X * (T - 1.0) / (b - 1.0) <= T / b)
      return static_cast<int64_t>(X);
  }
}

int64_t legacy_random_geometric(NumpyBitgen *bitgen_state, double p) {
  if (p >= 0.333333333333333333333333)
    return random_geometric_search(bitgen_state, p);
  return static_cast<int64_t>(std::ceil(std::log1p(-next_double(bitgen_state)) / std::log(1 - p)));
}

double legacy_vonmises(NumpyBitgen *bitgen_state, double mu, double kappa) {
  double s;
  double U, V, W, Y, Z;
  double result, mod;
  if (std::isnan(kappa))
    return std::numeric_limits<double>::quiet_NaN();
  if (kappa < 1e-8)
    return Pi * (2 * next_double(bitgen_state) - 1);
  /* with double precision rho is zero until 1.4e-8 */
  if (kappa < 1e-5) {
    /* second order taylor expansion around kappa = 0 */
    s = (1. / kappa + kappa);
  } else {
    /* Path for 1e-5 <= kappa <= 1e6 */
    double r = 1 + std::sqrt(1 + 4 * kappa * kappa);
    double rho = (r - std::sqrt(2 * r)) / (2 * kappa);
    s = (1 + rho * rho) / (2 * rho);
  }
  while (true) {
    U = next_double(bitgen_state);
    Z = std::cos(Pi * U);
    W = (1 + s * Z) / (s + Z);
    Y = kappa * (s - W);
    V = next_double(bitgen_state);
    /* V==0.0 is ok here since Y >= 0 always leads to accept, while Y < 0 always rejects */
    if ((Y * (2 - Y) - V >= 0) || (std::log(Y / V) + 1 - Y >= 0))
      break;
  }
  U = next_double(bitgen_state);
  result = std::acos(W);
  if (U < 0.5)
    result = -result;
  result += mu;
  bool neg = (result < 0);
  mod = std::fabs(result);
  mod = (std::fmod(mod + Pi, 2 * Pi) - Pi);
  if (neg)
    mod *= -1;
  return mod;
}

int64_t legacy_logseries(NumpyBitgen *bitgen_state, double p) {
  double r = std::log(1.0 - p);
  while (true) {
    double V = next_double(bitgen_state);
    if (V >= p)
      return 1;
    double U = next_double(bitgen_state);
    double q = 1.0 - std::exp(r * U);
    if (V <= q * q) {
      int64_t result = static_cast<int64_t>(std::floor(1 + std::log(V) / std::log(q)));
      if ((result < 1) || (V == 0.0))
        continue;
      return result;
    }
    if (V >= q)
      return 1;
    return 2;
  }
}

double legacyContinuous(Legacy &state, NumpyDistribution distribution, double a, double b,
                        double c) {
  using D = NumpyDistribution;
  NumpyBitgen *bitgen = &state.bitgen;
  switch (distribution) {
  case D::StandardUniform:
    return legacy_double(state);
  case D::Uniform:
    return a + b * legacy_double(state);
  case D::StandardNormal:
    return legacy_gauss(state);
  case D::Normal:
    return a + b * legacy_gauss(state);
  case D::StandardExponential:
    return legacy_standard_exponential(state);
  case D::Exponential:
    return a * legacy_standard_exponential(state);
  case D::StandardGamma:
    return legacy_standard_gamma(state, a);
  case D::Gamma:
    return b * legacy_standard_gamma(state, a);
  case D::Beta:
    return legacy_beta(state, a, b);
  case D::Chisquare:
    return legacy_chisquare(state, a);
  case D::NoncentralChisquare:
    return legacy_noncentral_chisquare(state, a, b);
  case D::F: {
    double numerator = legacy_chisquare(state, a) * b;
    return numerator / (legacy_chisquare(state, b) * a);
  }
  case D::NoncentralF: {
    double t = legacy_noncentral_chisquare(state, a, c) * b;
    return t / (legacy_chisquare(state, b) * a);
  }
  case D::StandardCauchy: {
    double numerator = legacy_gauss(state);
    return numerator / legacy_gauss(state);
  }
  case D::StandardT: {
    double num = legacy_gauss(state);
    double denom = legacy_standard_gamma(state, a / 2);
    return std::sqrt(a / 2) * num / std::sqrt(denom);
  }
  case D::Pareto:
    return std::exp(legacy_standard_exponential(state) / a) - 1;
  case D::Weibull:
    if (a == 0.0)
      return 0.0;
    return std::pow(legacy_standard_exponential(state), 1. / a);
  case D::Power:
    return std::pow(1 - std::exp(-legacy_standard_exponential(state)), 1. / a);
  case D::Laplace:
    return random_laplace(bitgen, a, b);
  case D::Gumbel:
    return random_gumbel(bitgen, a, b);
  case D::Logistic:
    return random_logistic(bitgen, a, b);
  case D::Lognormal:
    return std::exp(a + b * legacy_gauss(state));
  case D::Rayleigh:
    return a * std::sqrt(-2.0 * std::log1p(-next_double(bitgen)));
  case D::Wald:
    return legacy_wald(state, a, b);
  case D::Vonmises:
    return legacy_vonmises(bitgen, a, b);
  case D::Triangular:
    return random_triangular(bitgen, a, b, c);
  default:
    return std::numeric_limits<double>::quiet_NaN();
  }
}

int64_t legacyDiscrete(Legacy &state, NumpyDistribution distribution, double a, double b, int64_t i,
                       int64_t j, int64_t k) {
  using D = NumpyDistribution;
  NumpyBitgen *bitgen = &state.bitgen;
  switch (distribution) {
  case D::Poisson:
    return random_poisson(bitgen, a);
  case D::Binomial:
    return legacy_random_binomial(bitgen, a, i);
  case D::NegativeBinomial: {
    double Y = ((1 - b) / b) * legacy_standard_gamma(state, a);
    return random_poisson(bitgen, Y);
  }
  case D::Geometric:
    return legacy_random_geometric(bitgen, a);
  case D::Zipf:
    return legacy_random_zipf(bitgen, a);
  case D::Logseries:
    return legacy_logseries(bitgen, a);
  case D::Hypergeometric:
    return legacy_random_hypergeometric(bitgen, i, j, k);
  default:
    return 0;
  }
}

} // namespace
} // namespace taipan::runtime

using taipan::runtime::Legacy;
using taipan::runtime::NumpyDistribution;
using taipan::runtime::threadNumpyRandomState;

extern "C" {

double taipan_np_legacy_continuous(int32_t distribution, double a, double b, double c) {
  Legacy state(threadNumpyRandomState());
  return taipan::runtime::legacyContinuous(state, static_cast<NumpyDistribution>(distribution), a,
                                           b, c);
}

int64_t taipan_np_legacy_discrete(int32_t distribution, double a, double b, int64_t i, int64_t j,
                                  int64_t k) {
  Legacy state(threadNumpyRandomState());
  return taipan::runtime::legacyDiscrete(state, static_cast<NumpyDistribution>(distribution), a, b,
                                         i, j, k);
}

void taipan_np_legacy_multinomial(int64_t n, const double *pvals, int64_t count, int64_t *out) {
  // RandomState.multinomial calls random_multinomial (Generator's binomial) in NumPy 2.4.
  Legacy state(threadNumpyRandomState());
  taipan::runtime::numpy_random::random_multinomial(&state.bitgen, n, out, pvals, count);
}

void taipan_np_legacy_dirichlet(const double *alpha, int64_t count, double *out) {
  Legacy state(threadNumpyRandomState());
  double acc = 0.0;
  for (int64_t j = 0; j < count; ++j) {
    out[j] = taipan::runtime::legacy_standard_gamma(state, alpha[j]);
    acc = acc + out[j];
  }
  double invacc = 1 / acc;
  for (int64_t j = 0; j < count; ++j)
    out[j] = out[j] * invacc;
}

int32_t taipan_np_multinomial_check(const double *pvals, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    if (!(pvals[i] >= 0) || !(pvals[i] <= 1))
      return 1;
  if (count <= 1)
    return 0;
  // NumPy's kahan_sum of pvals[:-1].
  double sum = pvals[0], c = 0.0;
  for (int64_t i = 1; i < count - 1; ++i) {
    double y = pvals[i] - c;
    double t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  return sum > (1.0 + 1e-12) ? 2 : 0;
}

int32_t taipan_np_dirichlet_check(const double *alpha, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    if (alpha[i] <= 0)
      return 1;
  return 0;
}
}
