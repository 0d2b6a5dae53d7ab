// FloatFormat.cpp - Python-compatible text for numbers printed by JIT-compiled code.
// Lays out std::to_chars shortest digits the way CPython's format_float_short ('r') does.

#include "runtime/FloatFormat.h"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace taipan::runtime {

namespace {

/// The shortest digits that read back as `Magnitude` (a finite value of its own type: float
/// digits for a float), picking the closest candidate as Gay's dtoa mode 0 (CPython) and
/// NumPy's Dragon4 do; `Exponent` receives the decimal exponent of the first digit.
template <typename FloatType> std::string shortestDigits(FloatType Magnitude, int &Exponent) {
  char Buf[64];
  auto Result = std::to_chars(Buf, Buf + sizeof(Buf), Magnitude, std::chars_format::scientific);
  std::string_view Text(Buf, Result.ptr - Buf);
  size_t EPos = Text.find('e');
  std::string Digits;
  for (char C : Text.substr(0, EPos))
    if (C != '.')
      Digits += C;
  Exponent = std::atoi(std::string(Text.substr(EPos + 1)).c_str());
  return Digits;
}

/// "d.ddde+XX": the digits with one before the point (none after it when there is one digit),
/// and at least two exponent digits, as both CPython and NumPy print.
std::string scientific(const std::string &Digits, int Exponent) {
  std::string Out(1, Digits[0]);
  if (Digits.size() > 1) {
    Out += '.';
    Out.append(Digits, 1);
  }
  Out += 'e';
  Out += Exponent < 0 ? '-' : '+';
  int AbsExp = std::abs(Exponent);
  if (AbsExp < 10)
    Out += '0';
  Out += std::to_string(AbsExp);
  return Out;
}

/// The digits written out around the decimal point, with ".0" after an integral value when
/// `AddDot0`.
std::string positional(const std::string &Digits, int Exponent, bool AddDot0) {
  // CPython's decpt: the value is 0.<Digits> * 10**DecPt.
  int DecPt = Exponent + 1;
  int NumDigits = static_cast<int>(Digits.size());
  std::string Out;
  if (DecPt <= 0) {
    Out += "0.";
    Out.append(static_cast<size_t>(-DecPt), '0');
    Out += Digits;
  } else if (DecPt >= NumDigits) {
    Out += Digits;
    Out.append(static_cast<size_t>(DecPt - NumDigits), '0');
    if (AddDot0)
      Out += ".0";
  } else {
    Out.append(Digits, 0, static_cast<size_t>(DecPt));
    Out += '.';
    Out.append(Digits, static_cast<size_t>(DecPt));
  }
  return Out;
}

/// Python's 'r' formatting of a double. AddDot0 is set for float repr and clear for the
/// parts of a complex; AlwaysSign forces a leading '+' as complex's imaginary part needs.
std::string formatRepr(double Value, bool AddDot0, bool AlwaysSign) {
  std::string Out;
  if (std::isnan(Value)) {
    // CPython ignores the sign bit of a NaN.
    if (AlwaysSign)
      Out += '+';
    Out += "nan";
    return Out;
  }
  if (std::signbit(Value))
    Out += '-';
  else if (AlwaysSign)
    Out += '+';
  if (std::isinf(Value)) {
    Out += "inf";
    return Out;
  }
  int Exponent;
  std::string Digits = shortestDigits(std::fabs(Value), Exponent);
  // CPython's decpt: the value is 0.<Digits> * 10**DecPt.
  int DecPt = Exponent + 1;
  if (DecPt <= -4 || DecPt > 16)
    return Out + scientific(Digits, Exponent);
  return Out + positional(Digits, Exponent, AddDot0);
}

/// From this magnitude up, a float32 prints with an exponent (setNumpyFloat32PositionalLimit).
/// Relaxed atomics: it is set once NumPy is loaded, before compiled code prints float32 text.
std::atomic<float> NumpyFloat32PositionalLimit{1e6f};

} // namespace

std::string formatPythonFloat(double Value) { return formatRepr(Value, true, false); }

void setNumpyFloat32PositionalLimit(float Limit) {
  NumpyFloat32PositionalLimit.store(Limit, std::memory_order_relaxed);
}

std::string formatNumpyFloat32(float Value) {
  // NumPy, like CPython, ignores the sign bit of a NaN.
  if (std::isnan(Value))
    return "nan";
  std::string Out = std::signbit(Value) ? "-" : "";
  float Magnitude = std::fabs(Value);
  if (std::isinf(Value))
    return Out + "inf";
  int Exponent;
  std::string Digits = shortestDigits(Magnitude, Exponent);
  // NumPy's layout rule for float32 scalars (numpy.float32.__str__), which test_float32_text.py
  // checks on random bit patterns and the boundaries.
  if (Magnitude == 0.0f || (Magnitude >= 1e-4 && Magnitude < NumpyFloat32PositionalLimit.load(
                                                                 std::memory_order_relaxed)))
    return Out + positional(Digits, Exponent, true);
  return Out + scientific(Digits, Exponent);
}

std::string formatPythonComplex(double Re, double Im) {
  // Only a real part of +0.0 is dropped; -0.0 keeps the parenthesised form so it round-trips.
  if (Re == 0.0 && !std::signbit(Re))
    return formatRepr(Im, false, false) + "j";
  // Appending rather than "(" + ... sidesteps a GCC 12 -Wrestrict false positive at -O3.
  std::string Out = "(";
  Out += formatRepr(Re, false, false);
  Out += formatRepr(Im, false, true);
  Out += "j)";
  return Out;
}

std::string formatPythonInt(int64_t Value) { return std::to_string(Value); }

std::string formatPythonUInt(uint64_t Value) { return std::to_string(Value); }

} // namespace taipan::runtime
