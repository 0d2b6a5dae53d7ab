// Numeric functions whose Python (or NumPy) semantics need more than a few instructions: modular
// power, complex power, correctly rounded round(x, n), math.hypot, cmath.rect's special values.
#pragma once

#include <cstdint>

extern "C" {
/// pow(base, exponent, modulus) for int64 with Python's result sign; *error set to 1 for a zero
/// modulus and 2 for a negative exponent without a modular inverse (ValueError).
int64_t taipan_powmod(int64_t base, int64_t exponent, int64_t modulus, int32_t *error);
/// CPython's complex ** complex (repeated multiplication for small integral exponents).
/// Writes the result; returns 1 for 0 raised to a negative or complex power.
int32_t taipan_complex_pow(double baseReal, double baseImag, double exponentReal,
                           double exponentImag, double *result);
/// NumPy's npy_cpow (np.power of complex128): 1 for a zero exponent, 0 or NaN parts for a zero
/// base, repeated squaring for integral real exponents below 100 in magnitude (NumPy's complex
/// division for negative ones), else the C library's cpow. Writes the result; returns 0.
int32_t taipan_numpy_complex_pow(double baseReal, double baseImag, double exponentReal,
                                 double exponentImag, double *result);
/// The same for np.power of complex64, in float arithmetic (cpowf), as NumPy's loop.
int32_t taipan_numpy_complex_powf(float baseReal, float baseImag, float exponentReal,
                                  float exponentImag, float *result);
/// round(x, ndigits) correctly rounded, as CPython's float.__round__.
double taipan_round_ndigits(double x, int64_t ndigits);
/// round(x, ndigits) of an int, exactly, as CPython's int.__round__ (half to even); a result
/// beyond int64 wraps, as int64 arithmetic does.
int64_t taipan_round_int_ndigits(int64_t x, int64_t ndigits);
/// The same for a uint64 (a result beyond uint64 wraps).
uint64_t taipan_round_uint_ndigits(uint64_t x, int64_t ndigits);
/// math.hypot(x, y) as CPython 3.10+ computes it (its own accurate algorithm, not C's hypot):
/// an infinity beats a NaN; no overflow or underflow for huge, tiny and subnormal values.
double taipan_math_hypot(double x, double y);
/// cmath.rect(r, phi), including CPython's special values for infinities and NaNs. Returns
/// ValueErrorId for CPython's domain errors, else 0.
int32_t taipan_cmath_rect(double r, double phi, double *result);

/// The unary cmath functions, numbered for taipan_cmath_unary.
enum CmathFunction : int32_t {
  CmathExp,
  CmathLog,
  CmathLog10,
  CmathSqrt,
  CmathSin,
  CmathCos,
  CmathTan,
  CmathAsin,
  CmathAcos,
  CmathAtan,
  CmathSinh,
  CmathCosh,
  CmathTanh,
  CmathAsinh,
  CmathAcosh,
  CmathAtanh,
};
/// A unary cmath function with CPython's special values and errors: writes the result and
/// returns 0, ValueErrorId (math domain error) or OverflowErrorId (math range error).
int32_t taipan_cmath_unary(int32_t function, double real, double imag, double *result);
}
