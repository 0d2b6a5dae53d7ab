// Python-exact numerics for compiled code (see PythonMath.h).
#include "runtime/PythonMath.h"

#include "runtime/PythonDialect.h"
#include "runtime/Runtime.h"

#include <atomic>
#include <complex>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

int64_t floorMod(__int128 value, int64_t modulus) {
  __int128 remainder = value % modulus;
  if (remainder != 0 && ((remainder < 0) != (modulus < 0)))
    remainder += modulus;
  return static_cast<int64_t>(remainder);
}

/// The inverse of `value` modulo `modulus` (positive), or -1 when there is none.
int64_t modularInverse(int64_t value, int64_t modulus) {
  __int128 oldR = floorMod(value, modulus), r = modulus, oldS = 1, s = 0;
  while (r != 0) {
    __int128 quotient = oldR / r;
    __int128 next = oldR - quotient * r;
    oldR = r;
    r = next;
    next = oldS - quotient * s;
    oldS = s;
    s = next;
  }
  if (oldR != 1)
    return -1;
  return floorMod(oldS, modulus);
}

struct Complex {
  double real, imag;
};

Complex multiply(Complex a, Complex b) {
  return {a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real};
}

Complex divide(Complex a, Complex b) {
  // CPython's _Py_c_quot (Smith's method).
  double absReal = std::fabs(b.real), absImag = std::fabs(b.imag);
  if (absReal >= absImag) {
    if (absReal == 0.0)
      return {NAN, NAN};
    double ratio = b.imag / b.real, denominator = b.real + b.imag * ratio;
    return {(a.real + a.imag * ratio) / denominator, (a.imag - a.real * ratio) / denominator};
  }
  if (absImag >= absReal) {
    double ratio = b.real / b.imag, denominator = b.real * ratio + b.imag;
    return {(a.real * ratio + a.imag) / denominator, (a.imag * ratio - a.real) / denominator};
  }
  return {NAN, NAN};
}

/// CPython's c_powu: exponentiation by squaring for a positive integer power.
Complex powUnsigned(Complex x, long n) {
  Complex result{1.0, 0.0}, power = x;
  for (long mask = 1; mask > 0 && n >= mask; mask <<= 1) {
    if (n & mask)
      result = multiply(result, power);
    power = multiply(power, power);
  }
  return result;
}

/// A complex number of `Real` parts, as NumPy's npy_cfloat and npy_cdouble.
template <typename Real> struct ComplexOf {
  Real real, imag;
};

/// NumPy's cmul, in `Real` arithmetic.
template <typename Real> ComplexOf<Real> numpyMultiply(ComplexOf<Real> a, ComplexOf<Real> b) {
  return {a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real};
}

/// NumPy's cdiv: Smith's method with a reciprocal scale (not CPython's divisions).
template <typename Real> ComplexOf<Real> numpyDivide(ComplexOf<Real> a, ComplexOf<Real> b) {
  Real absReal = std::fabs(b.real), absImag = std::fabs(b.imag);
  if (absReal >= absImag) {
    if (absReal == 0 && absImag == 0)
      return {a.real / absReal, a.imag / absImag};
    Real ratio = b.imag / b.real, scale = Real(1) / (b.real + b.imag * ratio);
    return {(a.real + a.imag * ratio) * scale, (a.imag - a.real * ratio) * scale};
  }
  Real ratio = b.real / b.imag, scale = Real(1) / (b.imag + b.real * ratio);
  return {(a.real * ratio + a.imag) * scale, (a.imag * ratio - a.real) * scale};
}

/// NumPy's npy_cpow in `Real` arithmetic; `libraryPower` is the C library's cpow or cpowf.
template <typename Real, typename LibraryComplex>
ComplexOf<Real> numpyPower(ComplexOf<Real> base, ComplexOf<Real> exponent,
                           LibraryComplex (*libraryPower)(LibraryComplex, LibraryComplex)) {
  using Complex = ComplexOf<Real>;
  // The order of cases is NumPy's.
  if (exponent.real == 0 && exponent.imag == 0)
    return {1, 0};
  if (base.real == 0 && base.imag == 0)
    return exponent.real > 0 ? Complex{0, 0} : Complex{Real(NAN), Real(NAN)};
  if (exponent.imag == 0 && exponent.real > -100 && exponent.real < 100 &&
      exponent.real == static_cast<Real>(static_cast<long>(exponent.real))) {
    long n = static_cast<long>(exponent.real);
    if (n == 1)
      return base;
    if (n == 2)
      return numpyMultiply(base, base);
    if (n == 3)
      return numpyMultiply(base, numpyMultiply(base, base));
    // Squaring from 1 + 0j, then 1 / that for a negative exponent.
    Complex power = base, product{1, 0};
    long magnitude = n < 0 ? -n : n;
    for (long mask = 1;; mask <<= 1) {
      if (magnitude & mask)
        product = numpyMultiply(product, power);
      if (magnitude < (mask << 1))
        break;
      power = numpyMultiply(power, power);
    }
    return n < 0 ? numpyDivide(Complex{1, 0}, product) : product;
  }
  LibraryComplex x, y; // parts set one by one: arithmetic with I would touch zeros and NaNs
  __real__ x = base.real;
  __imag__ x = base.imag;
  __real__ y = exponent.real;
  __imag__ y = exponent.imag;
  LibraryComplex z = libraryPower(x, y);
  return {__real__ z, __imag__ z};
}

} // namespace

// C99's cpow and cpowf from the C library, which NumPy's npy_cpow calls for its general case.
extern "C" double _Complex cpow(double _Complex base, double _Complex exponent);
extern "C" float _Complex cpowf(float _Complex base, float _Complex exponent);

extern "C" {

int64_t taipan_powmod(int64_t base, int64_t exponent, int64_t modulus, int32_t *error) {
  *error = 0;
  if (modulus == 0) {
    *error = 1;
    return 0;
  }
  int64_t magnitude = modulus < 0 ? -modulus : modulus;
  if (exponent < 0) {
    int64_t inverse = modularInverse(base, magnitude);
    if (inverse < 0) {
      *error = 2;
      return 0;
    }
    base = inverse;
    exponent = -exponent;
  }
  __int128 result = 1 % magnitude, square = floorMod(base, magnitude);
  for (; exponent > 0; exponent >>= 1) {
    if (exponent & 1)
      result = result * square % magnitude;
    square = square * square % magnitude;
  }
  // Python's result takes the sign of the modulus.
  return floorMod(result, modulus);
}

int32_t taipan_complex_pow(double baseReal, double baseImag, double exponentReal,
                           double exponentImag, double *result) {
  Complex base{baseReal, baseImag}, exponent{exponentReal, exponentImag}, value;
  // The order of cases is CPython's complex_pow.
  if (exponent.real == 0.0 && exponent.imag == 0.0) {
    value = {1.0, 0.0};
  } else if (base.real == 0.0 && base.imag == 0.0) {
    if (exponent.imag != 0.0 || exponent.real < 0.0)
      return 1;
    value = {0.0, 0.0};
  } else if (exponent.imag == 0.0 && exponent.real == std::floor(exponent.real) &&
             std::fabs(exponent.real) <= 100.0) {
    long n = static_cast<long>(exponent.real);
    value = n > 0 ? powUnsigned(base, n) : divide({1.0, 0.0}, powUnsigned(base, -n));
  } else {
    // CPython's _Py_c_pow.
    double modulus = std::hypot(base.real, base.imag);
    double length = std::pow(modulus, exponent.real);
    double angle = std::atan2(base.imag, base.real);
    double phase = angle * exponent.real;
    if (exponent.imag != 0.0) {
      length /= std::exp(angle * exponent.imag);
      phase += exponent.imag * std::log(modulus);
    }
    value = {length * std::cos(phase), length * std::sin(phase)};
  }
  result[0] = value.real;
  result[1] = value.imag;
  return 0;
}

int32_t taipan_numpy_complex_pow(double baseReal, double baseImag, double exponentReal,
                                 double exponentImag, double *result) {
  ComplexOf<double> value =
      numpyPower<double>({baseReal, baseImag}, {exponentReal, exponentImag}, cpow);
  result[0] = value.real;
  result[1] = value.imag;
  return 0;
}

int32_t taipan_numpy_complex_powf(float baseReal, float baseImag, float exponentReal,
                                  float exponentImag, float *result) {
  ComplexOf<float> value =
      numpyPower<float>({baseReal, baseImag}, {exponentReal, exponentImag}, cpowf);
  result[0] = value.real;
  result[1] = value.imag;
  return 0;
}

double taipan_round_ndigits(double x, int64_t ndigits) {
  if (!std::isfinite(x) || x == 0.0)
    return x;
  // Beyond these, rounding keeps every digit, or none (CPython's NDIGITS_MAX/MIN).
  if (ndigits > 323)
    return x;
  if (ndigits < -308)
    return 0.0 * x;
  char buffer[400];
  if (ndigits >= 0) {
    // glibc prints the exact binary value correctly rounded, half to even: CPython's dtoa mode 3.
    std::snprintf(buffer, sizeof buffer, "%.*f", static_cast<int>(ndigits), x);
    double rounded = std::strtod(buffer, nullptr);
    return rounded == 0.0 ? std::copysign(0.0, x) : rounded;
  }
  // Negative ndigits: keep the significant digits left of 10**-ndigits.
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(x))));
  int kept = exponent + 1 + static_cast<int>(ndigits);
  if (kept < 0)
    return 0.0 * x;
  if (kept == 0) {
    double unit = std::pow(10.0, static_cast<double>(-ndigits));
    double half = unit / 2.0;
    double magnitude = std::fabs(x);
    return std::copysign(magnitude > half ? unit : 0.0, x);
  }
  std::snprintf(buffer, sizeof buffer, "%.*e", kept - 1, x);
  return std::strtod(buffer, nullptr);
}

/// `x` rounded to a multiple of 10**-ndigits (ndigits < 0), half to even: CPython's
/// int.__round__ (floor division, then the remainder against half the unit).
static __int128 roundToDecimalUnit(__int128 x, int64_t ndigits) {
  if (ndigits < -20) // |x| < 2**64 < 10**20 / 2: nearer to 0 than to any multiple of 10**21
    return 0;
  __int128 unit = 1;
  for (int64_t digit = 0; digit < -ndigits; ++digit)
    unit *= 10;
  __int128 quotient = x / unit, remainder = x % unit;
  if (remainder < 0) { // floor division, as CPython's divmod
    remainder += unit;
    quotient -= 1;
  }
  if (2 * remainder > unit || (2 * remainder == unit && (quotient & 1)))
    quotient += 1;
  return quotient * unit;
}

int64_t taipan_round_int_ndigits(int64_t x, int64_t ndigits) {
  if (ndigits >= 0)
    return x;
  return static_cast<int64_t>(static_cast<uint64_t>(roundToDecimalUnit(x, ndigits)));
}

uint64_t taipan_round_uint_ndigits(uint64_t x, int64_t ndigits) {
  if (ndigits >= 0)
    return x;
  return static_cast<uint64_t>(roundToDecimalUnit(x, ndigits));
}

// math.hypot's error-free steps need every product and sum rounded on its own: no contraction
// of a * b + c into one fma (which -ffp-contract=fast would do on an FMA-capable -march).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

namespace {

/// hi + lo, exactly, with |lo| at most half an ulp of hi.
struct DoubleLength {
  double hi, lo;
};

/// x * y exactly: the rounded product and its rounding error (which fma computes exactly).
DoubleLength exactProduct(double x, double y) {
  double product = x * y;
  return {product, std::fma(x, y, -product)};
}

/// a + b exactly, for |a| >= |b| (Dekker's fast two-sum).
DoubleLength exactOrderedSum(double a, double b) {
  double sum = a + b;
  return {sum, (a - sum) + b};
}

/// CPython 3.10 and 3.11's norm when the largest value is below 2**-1024: the values divided by
/// it, their squares summed onto 1.0 with the sum's rounding errors summed apart, times it.
double tinyNormBefore312(double x, double y, double largest) {
  double sum = 1.0, sumErrors = 0.0;
  for (double value : {x, y}) {
    double ratio = value / largest;
    DoubleLength added = exactOrderedSum(sum, ratio * ratio);
    sum = added.hi;
    sumErrors += added.lo;
  }
  return largest * std::sqrt(sum - 1.0 + sumErrors);
}

/// sqrt(x**2 + y**2) for finite 0 <= x, y <= largest = max(x, y) > 0, rounded as CPython's
/// vector_norm rounds it: both values scaled by the power of two that brings `largest` into
/// [0.5, 1), the squares summed exactly onto 1.0 (which keeps the sum the larger operand of
/// every addition) with their rounding errors summed apart, a square root, and one Newton
/// correction from the exact residual of that root's square.
double scaledNorm(double x, double y, double largest) {
  int exponent;
  std::frexp(largest, &exponent);
  if (exponent < -1023) {
    // 2**-exponent would overflow. CPython 3.10 and 3.11 divide by the largest value instead;
    // 3.12 on scale the subnormals up by 1 / DBL_MIN first (exactly).
    if (taipan::python::minorVersion() < 12)
      return tinyNormBefore312(x, y, largest);
    constexpr double smallestNormal = 0x1p-1022;
    return smallestNormal *
           scaledNorm(x / smallestNormal, y / smallestNormal, largest / smallestNormal);
  }
  double scale = std::ldexp(1.0, -exponent);
  double sum = 1.0, productErrors = 0.0, sumErrors = 0.0;
  for (double value : {x, y}) {
    double scaled = value * scale; // exact: a power of two
    DoubleLength square = exactProduct(scaled, scaled);
    DoubleLength added = exactOrderedSum(sum, square.hi);
    sum = added.hi;
    productErrors += square.lo;
    sumErrors += added.lo;
  }
  double root = std::sqrt(sum - 1.0 + (productErrors + sumErrors));
  DoubleLength square = exactProduct(-root, root);
  DoubleLength added = exactOrderedSum(sum, square.hi);
  sum = added.hi;
  productErrors += square.lo;
  sumErrors += added.lo;
  double residual = sum - 1.0 + (productErrors + sumErrors);
  root += residual / (2.0 * root);
  return root / scale;
}

} // namespace

double taipan_math_hypot(double x, double y) {
  x = std::fabs(x);
  y = std::fabs(y);
  // CPython's order: an infinity wins over a NaN, then a NaN, then a zero largest value.
  double largest = x > y ? x : y; // a NaN is never the larger
  if (std::isinf(x) || std::isinf(y))
    return INFINITY;
  if (std::isnan(x) || std::isnan(y))
    return NAN;
  if (largest == 0.0)
    return 0.0;
  return scaledNorm(x, y, largest);
}

#if !defined(__clang__) && defined(__GNUC__)
#pragma GCC pop_options
#endif

int32_t taipan_cmath_rect(double r, double phi, double *result) {
  if (!std::isfinite(r) || !std::isfinite(phi)) {
    if (std::isinf(r) && std::isfinite(phi) && phi != 0.0) {
      double sign = r > 0 ? 1.0 : -1.0;
      result[0] = sign * std::copysign(INFINITY, std::cos(phi));
      result[1] = sign * std::copysign(INFINITY, std::sin(phi));
    } else if (phi == 0.0) {
      result[0] = r;
      result[1] = std::isnan(r) ? 0.0 : (r > 0 ? phi : -phi);
    } else if (r == 0.0) {
      result[0] = 0.0;
      result[1] = 0.0;
    } else if (std::isinf(r) && std::isnan(phi)) {
      result[0] = INFINITY;
      result[1] = NAN;
    } else {
      result[0] = result[1] = NAN;
    }
    // An infinite angle without a NaN has no direction: CPython's domain error.
    return std::isinf(phi) && !std::isnan(r) && r != 0.0 ? taipan::ValueErrorId : 0;
  }
  if (phi == 0.0) {
    result[0] = r;
    result[1] = r * phi;
    return 0;
  }
  result[0] = r * std::cos(phi);
  result[1] = r * std::sin(phi);
  return 0;
}

namespace {
using StdComplex = std::complex<double>;

/// CPython's special values where C99 leaves a sign unspecified or chooses another, for the
/// functions the others derive from (sin(z) = -i sinh(iz) and so on, as CPython defines them).
StdComplex cpythonSpecialValue(int32_t function, StdComplex z, StdComplex raw) {
  double x = z.real(), y = z.imag();
  switch (function) {
  case CmathExp:
    if (x == -INFINITY && std::isinf(y))
      return {0.0, 0.0};
    break;
  case CmathSinh:
    if (x == 0.0 && std::isnan(y))
      return {0.0, NAN};
    break;
  case CmathCosh:
    if (std::isnan(x) && y == 0.0)
      return {NAN, 0.0};
    break;
  case CmathTanh:
    if (x == 0.0 && std::isnan(y))
      return {NAN, NAN};
    if (std::isinf(x) && !std::isnan(y))
      return {std::copysign(1.0, x), std::isinf(y) ? 0.0 : raw.imag()};
    break;
  case CmathAsinh:
    if (std::isnan(x) && std::isinf(y))
      return {INFINITY, NAN};
    break;
  case CmathAtanh:
    if (std::isnan(x) && std::isinf(y))
      return {0.0, std::copysign(M_PI / 2, y)};
    break;
  case CmathAcos:
    if (std::isinf(x) && std::isnan(y))
      return {NAN, INFINITY};
    break;
  case CmathAcosh:
    if (x == 0.0 && std::isnan(y))
      return {NAN, NAN};
    break;
  default:
    break;
  }
  return raw;
}

StdComplex evaluate(int32_t function, StdComplex z) {
  auto rotated = [&](int32_t hyperbolic) {
    // f(z) = -i g(iz): CPython's definition of sin, tan, asin and atan.
    StdComplex w = evaluate(hyperbolic, StdComplex(-z.imag(), z.real()));
    return StdComplex(w.imag(), -w.real());
  };
  StdComplex raw;
  switch (function) {
  case CmathExp:
    raw = std::exp(z);
    break;
  case CmathLog:
    raw = std::log(z);
    break;
  case CmathLog10: {
    StdComplex natural = std::log(z);
    return {natural.real() / M_LN10, natural.imag() / M_LN10};
  }
  case CmathSqrt:
    raw = std::sqrt(z);
    break;
  case CmathSin:
    return rotated(CmathSinh);
  case CmathCos:
    return evaluate(CmathCosh, StdComplex(-z.imag(), z.real()));
  case CmathTan:
    return rotated(CmathTanh);
  case CmathAsin:
    return rotated(CmathAsinh);
  case CmathAcos:
    raw = std::acos(z);
    break;
  case CmathAtan:
    return rotated(CmathAtanh);
  case CmathSinh:
    raw = std::sinh(z);
    break;
  case CmathCosh:
    raw = std::cosh(z);
    break;
  case CmathTanh:
    raw = std::tanh(z);
    break;
  case CmathAsinh:
    raw = std::asinh(z);
    break;
  case CmathAcosh:
    raw = std::acosh(z);
    break;
  case CmathAtanh:
    raw = std::atanh(z);
    break;
  default:
    return {NAN, NAN};
  }
  if (std::isfinite(z.real()) && std::isfinite(z.imag()))
    return raw;
  return cpythonSpecialValue(function, z, raw);
}
} // namespace

int32_t taipan_cmath_unary(int32_t function, double real, double imag, double *result) {
  StdComplex z(real, imag);
  StdComplex value = evaluate(function, z);
  result[0] = value.real();
  result[1] = value.imag();
  // CPython's errors: a NaN made from numbers is a domain error; an infinity made from finite
  // numbers is a pole (log, atan, atanh) or an overflow.
  if (std::isnan(real) || std::isnan(imag))
    return 0;
  if (std::isnan(value.real()) || std::isnan(value.imag()))
    return taipan::ValueErrorId;
  bool finiteInput = std::isfinite(real) && std::isfinite(imag);
  if (finiteInput && (std::isinf(value.real()) || std::isinf(value.imag()))) {
    bool pole = function == CmathLog || function == CmathLog10 || function == CmathAtan ||
                function == CmathAtanh;
    return pole ? taipan::ValueErrorId : taipan::OverflowErrorId;
  }
  return 0;
}
}
