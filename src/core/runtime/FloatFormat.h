// FloatFormat.h - Python-compatible text for numbers printed by JIT-compiled code.
// Holds formatters that reproduce CPython's repr()/str() of float, complex and int.

#ifndef TAIPAN_RUNTIME_FLOATFORMAT_H
#define TAIPAN_RUNTIME_FLOATFORMAT_H

#include <cstdint>
#include <string>

namespace taipan::runtime {

/// `repr(float)` / `str(float)`: shortest round-trip digits, exponent form when the decimal
/// exponent is below -4 or at least 16, and a trailing ".0" for integral values.
std::string formatPythonFloat(double Value);

/// `str(numpy.float32)`: the shortest digits that read back as the float32, laid out as NumPy
/// prints a float32 scalar: positionally (".0" after an integral value) for 0 and
/// 1e-4 <= |x| < the positional limit, otherwise as "1.5e+07" (no ".0", at least two exponent
/// digits).
std::string formatNumpyFloat32(float Value);

/// Sets the magnitude from which formatNumpyFloat32 writes exponents: 1e6 as NumPy 2.3 and later
/// print float32 scalars (the default), 1e16 as earlier NumPy did. Set from the NumPy in use.
void setNumpyFloat32PositionalLimit(float Limit);

/// `repr(complex)`: "2j" when the real part is +0.0, otherwise "(re+imj)" with each part in
/// the float style minus the ".0" suffix.
std::string formatPythonComplex(double Re, double Im);

/// `repr(int)` for a signed 64-bit value.
std::string formatPythonInt(int64_t Value);

/// `repr(int)` for an unsigned 64-bit value.
std::string formatPythonUInt(uint64_t Value);

} // namespace taipan::runtime

#endif // TAIPAN_RUNTIME_FLOATFORMAT_H
