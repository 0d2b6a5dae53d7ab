// NumpyDistributions.cpp - NumPy's Generator samplers over a `bitgen_t`, bit for bit.
// A port of numpy/random/src/distributions/distributions.c (v2.4.6), kept under NumPy's names.

#include "runtime/NumpyBitgen.h"
#include "runtime/NumpyZiggurat.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

// NumPy's C distributions are built without FMA contraction on the platforms it ships;
// fusing `loc + scale * z` would change the last bit.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace taipan::runtime::numpy_random {

using namespace ziggurat;

namespace {
constexpr double Pi = 3.14159265358979323846;

uint32_t next_uint32(NumpyBitgen *bitgen_state) {
  return bitgen_state->next_uint32(bitgen_state->state);
}
uint64_t next_uint64(NumpyBitgen *bitgen_state) {
  return bitgen_state->next_uint64(bitgen_state->state);
}

double standard_exponential_unlikely(NumpyBitgen *bitgen_state, uint8_t idx, double x) {
  if (idx == 0) {
    /* Switch to 1.0 - U to avoid log(0.0), see GH 13361 */
    return ziggurat_exp_r - std::log1p(-next_double(bitgen_state));
  } else if ((fe_double[idx - 1] - fe_double[idx]) * next_double(bitgen_state) + fe_double[idx] <
             std::exp(-x)) {
    return x;
  } else {
    return random_standard_exponential(bitgen_state);
  }
}

double random_normal(NumpyBitgen *bitgen_state, double loc, double scale) {
  return loc + scale * random_standard_normal(bitgen_state);
}

double random_chisquare(NumpyBitgen *bitgen_state, double df) {
  return 2.0 * random_standard_gamma(bitgen_state, df / 2.0);
}

double random_beta(NumpyBitgen *bitgen_state, double a, double b) {
  constexpr double BETA_TINY_THRESHOLD = 3e-103;
  if ((a <= 1.0) && (b <= 1.0)) {
    if (a < BETA_TINY_THRESHOLD && b < BETA_TINY_THRESHOLD) {
      // The proportion a/(a + b) and one uniform: other results are below 1e-100 likely.
      double U = next_double(bitgen_state);
      return (a + b) * U < a;
    }
    /* Use Johnk's algorithm */
    while (true) {
      double U = next_double(bitgen_state);
      double V = next_double(bitgen_state);
      double X = std::pow(U, 1.0 / a);
      double Y = std::pow(V, 1.0 / b);
      double XpY = X + Y;
      /* Reject if both U and V are 0.0, which is approx 1 in 10^106 */
      if ((XpY <= 1.0) && (U + V > 0.0)) {
        if ((X > 0) && (Y > 0))
          return X / XpY;
        // X or Y underflowed: work with logarithms.
        double logX = std::log(U) / a;
        double logY = std::log(V) / b;
        double delta = logX - logY;
        if (delta > 0)
          return std::exp(-std::log1p(std::exp(-delta)));
        return std::exp(delta - std::log1p(std::exp(delta)));
      }
    }
  }
  double Ga = random_standard_gamma(bitgen_state, a);
  double Gb = random_standard_gamma(bitgen_state, b);
  return Ga / (Ga + Gb);
}

double random_f(NumpyBitgen *bitgen_state, double dfnum, double dfden) {
  double subexpr1 = random_chisquare(bitgen_state, dfnum) * dfden;
  double subexpr2 = random_chisquare(bitgen_state, dfden) * dfnum;
  return subexpr1 / subexpr2;
}

double random_standard_cauchy(NumpyBitgen *bitgen_state) {
  double subexpr1 = random_standard_normal(bitgen_state);
  double subexpr2 = random_standard_normal(bitgen_state);
  return subexpr1 / subexpr2;
}

double random_standard_t(NumpyBitgen *bitgen_state, double df) {
  double num = random_standard_normal(bitgen_state);
  double denom = random_standard_gamma(bitgen_state, df / 2);
  return std::sqrt(df / 2) * num / std::sqrt(denom);
}

double random_noncentral_chisquare(NumpyBitgen *bitgen_state, double df, double nonc) {
  if (std::isnan(nonc))
    return std::numeric_limits<double>::quiet_NaN();
  if (nonc == 0)
    return random_chisquare(bitgen_state, df);
  if (1 < df) {
    const double Chi2 = random_chisquare(bitgen_state, df - 1);
    const double n = random_standard_normal(bitgen_state) + std::sqrt(nonc);
    return Chi2 + n * n;
  }
  const int64_t i = random_poisson(bitgen_state, nonc / 2.0);
  return random_chisquare(bitgen_state, df + 2 * i);
}

double random_noncentral_f(NumpyBitgen *bitgen_state, double dfnum, double dfden, double nonc) {
  double t = random_noncentral_chisquare(bitgen_state, dfnum, nonc) * dfden;
  return t / (random_chisquare(bitgen_state, dfden) * dfnum);
}

/// Set once, when the first Generator argument is seen (bindings/RandomGeneratorBoxing).
std::atomic<bool> waldOfNumpyBefore234{false};

double random_wald(NumpyBitgen *bitgen_state, double mean, double scale) {
  double Y = random_standard_normal(bitgen_state);
  Y = mean * Y * Y;
  double X;
  if (waldOfNumpyBefore234.load(std::memory_order_relaxed)) {
    double mu_2l = mean / (2 * scale);
    X = mean + mu_2l * (Y - std::sqrt(4 * scale * Y + Y * Y));
  } else {
    double d = 1 + std::sqrt(1 + 4 * scale / Y);
    X = mean * (1 - 2 / d);
  }
  double U = next_double(bitgen_state);
  if (U <= mean / (mean + X))
    return X;
  return mean * mean / X;
}

double random_vonmises(NumpyBitgen *bitgen_state, double mu, double kappa) {
  double s;
  double U, V, W, Y, Z;
  double result, mod;
  if (std::isnan(kappa))
    return std::numeric_limits<double>::quiet_NaN();
  if (kappa < 1e-8) {
    /* Use a uniform for very small values of kappa */
    return Pi * (2 * next_double(bitgen_state) - 1);
  }
  /* with double precision rho is zero until 1.4e-8 */
  if (kappa < 1e-5) {
    /* second order taylor expansion around kappa = 0 */
    s = (1. / kappa + kappa);
  } else if (kappa <= 1e6) {
    /* Path for 1e-5 <= kappa <= 1e6 */
    double r = 1 + std::sqrt(1 + 4 * kappa * kappa);
    double rho = (r - std::sqrt(2 * r)) / (2 * kappa);
    s = (1 + rho * rho) / (2 * rho);
  } else {
    /* Fallback to wrapped normal distribution for kappa > 1e6 */
    result = mu + std::sqrt(1. / kappa) * random_standard_normal(bitgen_state);
    if (result < -Pi)
      result += 2 * Pi;
    if (result > Pi)
      result -= 2 * Pi;
    return result;
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

int64_t random_poisson_mult(NumpyBitgen *bitgen_state, double lam) {
  double enlam = std::exp(-lam);
  int64_t X = 0;
  double prod = 1.0;
  while (true) {
    double U = next_double(bitgen_state);
    prod *= U;
    if (prod > enlam)
      X += 1;
    else
      return X;
  }
}

/// The transformed rejection method for generating Poisson random variables, W. Hoermann,
/// Insurance: Mathematics and Economics 12, 39-45 (1993).
int64_t random_poisson_ptrs(NumpyBitgen *bitgen_state, double lam) {
  constexpr double LS2PI = 0.91893853320467267;
  (void)LS2PI;
  double slam = std::sqrt(lam);
  double loglam = std::log(lam);
  double b = 0.931 + 2.53 * slam;
  double a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  double vr = 0.9277 - 3.6224 / (b - 2);
  while (true) {
    double U = next_double(bitgen_state) - 0.5;
    double V = next_double(bitgen_state);
    double us = 0.5 - std::fabs(U);
    int64_t k = static_cast<int64_t>(std::floor((2 * a / us + b) * U + lam + 0.43));
    if ((us >= 0.07) && (V <= vr))
      return k;
    if ((k < 0) || ((us < 0.013) && (V > us)))
      continue;
    /* log(V) == log(0.0) ok here; if U==0.0 so that us==0.0, log is ok since always returns */
    if ((std::log(V) + std::log(invalpha) - std::log(a / (us * us) + b)) <=
        (-lam + static_cast<double>(k) * loglam - random_loggam(static_cast<double>(k) + 1)))
      return k;
  }
}

int64_t random_binomial_inversion(NumpyBitgen *bitgen_state, int64_t n, double p) {
  // The setup of the last (n, p), as NumPy's binomial_t keeps it (the draws do not depend on
  // it; recomputing it per draw of a sized call cost half the time).
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
    setup.qn = std::exp(n * std::log1p(-p));
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

int64_t random_negative_binomial(NumpyBitgen *bitgen_state, double n, double p) {
  double Y = (1 - p) / p * random_standard_gamma(bitgen_state, n);
  return random_poisson(bitgen_state, Y);
}

int64_t random_logseries(NumpyBitgen *bitgen_state, double p) {
  double r = std::log1p(-p);
  while (true) {
    double V = next_double(bitgen_state);
    if (V >= p)
      return 1;
    double U = next_double(bitgen_state);
    double q = -std::expm1(r * U);
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

int64_t random_geometric_inversion(NumpyBitgen *bitgen_state, double p) {
  double z = std::ceil(-random_standard_exponential(bitgen_state) / std::log1p(-p));
  /* 9.223372036854776e+18 is the smallest double that is larger than INT64_MAX. */
  if (z >= 9.223372036854776e+18)
    return INT64_MAX;
  return static_cast<int64_t>(z);
}

int64_t random_geometric(NumpyBitgen *bitgen_state, double p) {
  if (p >= 0.333333333333333333333333)
    return random_geometric_search(bitgen_state, p);
  return random_geometric_inversion(bitgen_state, p);
}

int64_t random_zipf(NumpyBitgen *bitgen_state, double a) {
  if (a >= 1025) {
    // b below overflows and the loop would not end; a result above 1 is below 3e-309 likely.
    return 1;
  }
  double am1 = a - 1.0;
  double b = std::pow(2.0, am1);
  /* X comes from (Umin, 1]: values below Umin are rejected as too large anyway. */
  double Umin = std::pow(static_cast<double>(INT64_MAX), -am1);
  while (true) {
    double U01 = next_double(bitgen_state);
    double U = U01 * Umin + (1 - U01);
    double V = next_double(bitgen_state);
    double X = std::floor(std::pow(U, -1.0 / am1));
    // Results beyond int64 are rejected: a Zipf distribution truncated to INT64_MAX.
    if (X > static_cast<double>(INT64_MAX) || X < 1.0)
      continue;
    double T = std::pow(1.0 + 1.0 / X, am1);
    if (V * X * (T - 1.0) / (b - 1.0) <= T / b)
      return static_cast<int64_t>(X);
  }
}

} // namespace

double next_double(NumpyBitgen *bitgen_state) {
  return bitgen_state->next_double(bitgen_state->state);
}

double random_standard_exponential(NumpyBitgen *bitgen_state) {
  uint64_t ri = next_uint64(bitgen_state);
  ri >>= 3;
  uint8_t idx = ri & 0xFF;
  ri >>= 8;
  double x = ri * we_double[idx];
  if (ri < ke_double[idx])
    return x; /* 98.9% of the time we return here 1st try */
  return standard_exponential_unlikely(bitgen_state, idx, x);
}

double random_standard_normal(NumpyBitgen *bitgen_state) {
  for (;;) {
    /* r = e3n52sb8 */
    uint64_t r = next_uint64(bitgen_state);
    int idx = r & 0xff;
    r >>= 8;
    int sign = r & 0x1;
    uint64_t rabs = (r >> 1) & 0x000fffffffffffff;
    double x = rabs * wi_double[idx];
    if (sign & 0x1)
      x = -x;
    if (rabs < ki_double[idx])
      return x; /* 99.3% of the time return here */
    if (idx == 0) {
      for (;;) {
        /* Switch to 1.0 - U to avoid log(0.0), see GH 13361 */
        double xx = -ziggurat_nor_inv_r * std::log1p(-next_double(bitgen_state));
        double yy = -std::log1p(-next_double(bitgen_state));
        if (yy + yy > xx * xx)
          return ((rabs >> 8) & 0x1) ? -(ziggurat_nor_r + xx) : ziggurat_nor_r + xx;
      }
    } else {
      if (((fi_double[idx - 1] - fi_double[idx]) * next_double(bitgen_state) + fi_double[idx]) <
          std::exp(-0.5 * x * x))
        return x;
    }
  }
}

double random_standard_gamma(NumpyBitgen *bitgen_state, double shape) {
  double b, c;
  double U, V, X, Y;
  if (shape == 1.0)
    return random_standard_exponential(bitgen_state);
  if (shape == 0.0)
    return 0.0;
  if (shape < 1.0) {
    for (;;) {
      U = next_double(bitgen_state);
      V = random_standard_exponential(bitgen_state);
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
      X = random_standard_normal(bitgen_state);
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    U = next_double(bitgen_state);
    if (U < 1.0 - 0.0331 * (X * X) * (X * X))
      return (b * V);
    /* log(0.0) ok here */
    if (std::log(U) < 0.5 * X * X + b * (1. - V + std::log(V)))
      return (b * V);
  }
}

double random_loggam(double x) {
  static const double a[10] = {
      8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
      8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02,
      1.796443723688307e-01, -1.39243221690590e+00};
  int64_t n;
  if ((x == 1.0) || (x == 2.0))
    return 0.0;
  if (x < 7.0)
    n = static_cast<int64_t>(7 - x);
  else
    n = 0;
  double x0 = x + n;
  double x2 = (1.0 / x0) * (1.0 / x0);
  /* log(2 * M_PI) */
  double lg2pi = 1.8378770664093453e+00;
  double gl0 = a[9];
  for (int64_t k = 8; k >= 0; k--) {
    gl0 *= x2;
    gl0 += a[k];
  }
  double gl = gl0 / x0 + 0.5 * lg2pi + (x0 - 0.5) * std::log(x0) - x0;
  if (x < 7.0) {
    for (int64_t k = 1; k <= n; k++) {
      gl -= std::log(x0 - 1.0);
      x0 -= 1.0;
    }
  }
  return gl;
}

double random_laplace(NumpyBitgen *bitgen_state, double loc, double scale) {
  double U = next_double(bitgen_state);
  if (U >= 0.5)
    U = loc - scale * std::log(2.0 - U - U);
  else if (U > 0.0)
    U = loc + scale * std::log(U + U);
  else /* Reject U == 0.0 and call again to get next value */
    U = random_laplace(bitgen_state, loc, scale);
  return U;
}

double random_gumbel(NumpyBitgen *bitgen_state, double loc, double scale) {
  double U = 1.0 - next_double(bitgen_state);
  if (U < 1.0)
    return loc - scale * std::log(-std::log(U));
  /* Reject U == 1.0 and call again to get next value */
  return random_gumbel(bitgen_state, loc, scale);
}

double random_logistic(NumpyBitgen *bitgen_state, double loc, double scale) {
  double U = next_double(bitgen_state);
  if (U > 0.0)
    return loc + scale * std::log(U / (1.0 - U));
  /* Reject U == 0.0 and call again to get next value */
  return random_logistic(bitgen_state, loc, scale);
}

double random_triangular(NumpyBitgen *bitgen_state, double left, double mode, double right) {
  double base = right - left;
  double leftbase = mode - left;
  double ratio = leftbase / base;
  double leftprod = leftbase * base;
  double rightprod = (right - mode) * base;
  double U = next_double(bitgen_state);
  if (U <= ratio)
    return left + std::sqrt(U * leftprod);
  return right - std::sqrt((1.0 - U) * rightprod);
}

int64_t random_poisson(NumpyBitgen *bitgen_state, double lam) {
  if (lam >= 10)
    return random_poisson_ptrs(bitgen_state, lam);
  if (lam == 0)
    return 0;
  return random_poisson_mult(bitgen_state, lam);
}

int64_t random_geometric_search(NumpyBitgen *bitgen_state, double p) {
  int64_t X = 1;
  double sum = p, prod = p;
  double q = 1.0 - p;
  double U = next_double(bitgen_state);
  while (U > sum) {
    prod *= q;
    sum += prod;
    X++;
  }
  return X;
}

int64_t random_binomial_btpe(NumpyBitgen *bitgen_state, int64_t n, double p) {
  double r, q, fm, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
  double a, u, v, s, F, rho, t, A, nrq, x1, x2, f1, f2, z, z2, w, w2, x;
  int64_t m, y, k, i;

  r = std::min(p, 1.0 - p);
  q = 1.0 - r;
  fm = n * r + r;
  m = static_cast<int64_t>(std::floor(fm));
  p1 = std::floor(2.195 * std::sqrt(n * r * q) - 4.6 * q) + 0.5;
  xm = m + 0.5;
  xl = xm - p1;
  xr = xm + p1;
  c = 0.134 + 20.5 / (15.3 + m);
  a = (fm - xl) / (fm - xl * r);
  laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  lamr = a * (1.0 + a / 2.0);
  p2 = p1 * (1.0 + 2.0 * c);
  p3 = p2 + c / laml;
  p4 = p3 + c / lamr;

Step10:
  nrq = n * r * q;
  u = next_double(bitgen_state) * p4;
  v = next_double(bitgen_state);
  if (u > p1)
    goto Step20;
  y = static_cast<int64_t>(std::floor(xm - p1 * v + u));
  goto Step60;

Step20:
  if (u > p2)
    goto Step30;
  x = xl + (u - p1) / c;
  v = v * c + 1.0 - std::fabs(m - x + 0.5) / p1;
  if (v > 1.0)
    goto Step10;
  y = static_cast<int64_t>(std::floor(x));
  goto Step50;

Step30:
  if (u > p3)
    goto Step40;
  y = static_cast<int64_t>(std::floor(xl + std::log(v) / laml));
  /* Reject if v==0.0 since previous cast is undefined */
  if ((y < 0) || (v == 0.0))
    goto Step10;
  v = v * (u - p2) * laml;
  goto Step50;

Step40:
  y = static_cast<int64_t>(std::floor(xr - std::log(v) / lamr));
  /* Reject if v==0.0 since previous cast is undefined */
  if ((y > n) || (v == 0.0))
    goto Step10;
  v = v * (u - p3) * lamr;

Step50:
  k = std::llabs(y - m);
  if ((k > 20) && (k < ((nrq) / 2.0 - 1)))
    goto Step52;

  s = r / q;
  a = s * (n + 1);
  F = 1.0;
  if (m < y) {
    for (i = m + 1; i <= y; i++)
      F *= (a / i - s);
  } else if (m > y) {
    for (i = y + 1; i <= m; i++)
      F /= (a / i - s);
  }
  if (v > F)
    goto Step10;
  goto Step60;

Step52:
  rho = (k / (nrq)) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
  t = -k * k / (2 * nrq);
  /* log(0.0) ok here */
  A = std::log(v);
  if (A < (t - rho))
    goto Step60;
  if (A > (t + rho))
    goto Step10;

  x1 = static_cast<double>(y) + 1;
  f1 = static_cast<double>(m) + 1;
  z = static_cast<double>(n) + 1 - static_cast<double>(m);
  w = static_cast<double>(n) - static_cast<double>(y) + 1;
  x2 = x1 * x1;
  f2 = f1 * f1;
  z2 = z * z;
  w2 = w * w;
  // NumPy 2.4's constants and signs (13680, all four terms added), kept for its stream.
  if (A > (xm * std::log(f1 / x1) + (n - m + 0.5) * std::log(z / w) +
           (y - m) * std::log(w * r / (x1 * q)) +
           (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) / f1 / 166320. +
           (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) / z / 166320. +
           (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x1 / 166320. +
           (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) / w / 166320.)) {
    goto Step10;
  }

Step60:
  if (p > 0.5)
    y = n - y;
  return y;
}

int64_t random_binomial(NumpyBitgen *bitgen_state, double p, int64_t n) {
  if ((n == 0LL) || (p == 0.0f))
    return 0;
  if (p <= 0.5) {
    if (p * n <= 30.0)
      return random_binomial_inversion(bitgen_state, n, p);
    return random_binomial_btpe(bitgen_state, n, p);
  }
  double q = 1.0 - p;
  if (q * n <= 30.0)
    return n - random_binomial_inversion(bitgen_state, n, q);
  return n - random_binomial_btpe(bitgen_state, n, q);
}

uint64_t random_interval(NumpyBitgen *bitgen_state, uint64_t max) {
  if (max == 0)
    return 0;
  uint64_t mask = max, value;
  /* Smallest bit mask >= max */
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  /* Search a random value in [0..mask] <= max */
  if (max <= 0xffffffffUL) {
    while ((value = (next_uint32(bitgen_state) & mask)) > max)
      ;
  } else {
    while ((value = (next_uint64(bitgen_state) & mask)) > max)
      ;
  }
  return value;
}

void random_multinomial(NumpyBitgen *bitgen_state, int64_t n, int64_t *mnix, const double *pix,
                        int64_t d) {
  double remaining_p = 1.0;
  int64_t dn = n;
  std::memset(mnix, 0, static_cast<size_t>(d) * sizeof(int64_t));
  for (int64_t j = 0; j < (d - 1); j++) {
    mnix[j] = random_binomial(bitgen_state, pix[j] / remaining_p, dn);
    dn = dn - mnix[j];
    if (dn <= 0)
      break;
    remaining_p -= pix[j];
  }
  if (dn > 0)
    mnix[d - 1] = dn;
}

double generator_continuous(NumpyBitgen *bitgen_state, NumpyDistribution distribution, double a,
                            double b, double c) {
  using D = NumpyDistribution;
  switch (distribution) {
  case D::StandardUniform:
    return next_double(bitgen_state);
  case D::Uniform:
    return a + b * next_double(bitgen_state);
  case D::StandardNormal:
    return random_standard_normal(bitgen_state);
  case D::Normal:
    return random_normal(bitgen_state, a, b);
  case D::StandardExponential:
    return random_standard_exponential(bitgen_state);
  case D::StandardExponentialInverse:
    return -std::log1p(-next_double(bitgen_state));
  case D::Exponential:
    return a * random_standard_exponential(bitgen_state);
  case D::StandardGamma:
    return random_standard_gamma(bitgen_state, a);
  case D::Gamma:
    return b * random_standard_gamma(bitgen_state, a);
  case D::Beta:
    return random_beta(bitgen_state, a, b);
  case D::Chisquare:
    return random_chisquare(bitgen_state, a);
  case D::NoncentralChisquare:
    return random_noncentral_chisquare(bitgen_state, a, b);
  case D::F:
    return random_f(bitgen_state, a, b);
  case D::NoncentralF:
    return random_noncentral_f(bitgen_state, a, b, c);
  case D::StandardCauchy:
    return random_standard_cauchy(bitgen_state);
  case D::StandardT:
    return random_standard_t(bitgen_state, a);
  case D::Pareto:
    return std::expm1(random_standard_exponential(bitgen_state) / a);
  case D::Weibull:
    if (a == 0.0)
      return 0.0;
    return std::pow(random_standard_exponential(bitgen_state), 1. / a);
  case D::Power:
    return std::pow(-std::expm1(-random_standard_exponential(bitgen_state)), 1. / a);
  case D::Laplace:
    return random_laplace(bitgen_state, a, b);
  case D::Gumbel:
    return random_gumbel(bitgen_state, a, b);
  case D::Logistic:
    return random_logistic(bitgen_state, a, b);
  case D::Lognormal:
    return std::exp(random_normal(bitgen_state, a, b));
  case D::Rayleigh:
    return a * std::sqrt(2.0 * random_standard_exponential(bitgen_state));
  case D::Wald:
    return random_wald(bitgen_state, a, b);
  case D::Vonmises:
    return random_vonmises(bitgen_state, a, b);
  case D::Triangular:
    return random_triangular(bitgen_state, a, b, c);
  default:
    return std::numeric_limits<double>::quiet_NaN();
  }
}

int64_t generator_discrete(NumpyBitgen *bitgen_state, NumpyDistribution distribution, double a,
                           double b, int64_t i, int64_t j, int64_t k) {
  (void)b;
  (void)j;
  (void)k;
  using D = NumpyDistribution;
  switch (distribution) {
  case D::Poisson:
    return random_poisson(bitgen_state, a);
  case D::Binomial:
    return random_binomial(bitgen_state, a, i);
  case D::NegativeBinomial:
    return random_negative_binomial(bitgen_state, a, b);
  case D::Geometric:
    return random_geometric(bitgen_state, a);
  case D::Zipf:
    return random_zipf(bitgen_state, a);
  case D::Logseries:
    return random_logseries(bitgen_state, a);
  default:
    return 0;
  }
}

void useWaldOfNumpyBefore234(bool before) { waldOfNumpyBefore234.store(before); }

} // namespace taipan::runtime::numpy_random
