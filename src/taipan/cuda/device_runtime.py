"""taipan's runtime functions for a GPU thread, written in the Python that taipan compiles: the
unary cmath functions (``taipan_cmath_unary``) and ``cmath.rect`` (``taipan_cmath_rect``),
which the CPU runs from C++ (runtime/PythonMath). CPython's cmathmodule.c is ported as it
computes: its scalings for huge and tiny parts, its explicit cases for infinite real parts, and
its 7 x 7 tables of special values, built here from the host's ``cmath`` (and C99 Annex G's
values where CPython raises instead of returning one).

cuda/CudaTarget asks for these by symbol when a kernel's module calls them;
``taipan.cuda.compiler.device_library_ir`` compiles them for a GPU (C ABI, one per symbol) and
returns the LLVM IR it links in. On the CPU
the same functions compile as they are, which is how the tests compare them with ``cmath``."""

import cmath
import math

import numpy as np

from taipan.extending import register_jitable

# The helpers compile with NumPy's error model: a division by zero gives inf or nan, as C's
# does in cmathmodule.c, instead of raising ZeroDivisionError.
_device_function = register_jitable(error_model="numpy")

# The function numbers of runtime/PythonMath.h's CmathFunction, in its order.
EXP, LOG, LOG10, SQRT, SIN, COS, TAN, ASIN, ACOS, ATAN = range(10)
SINH, COSH, TANH, ASINH, ACOSH, ATANH = range(10, 16)
FUNCTION_NAMES = ("exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan")
FUNCTION_NAMES += ("sinh", "cosh", "tanh", "asinh", "acosh", "atanh")

# The status the device functions return: CPython's ValueError (math domain error) or
# OverflowError (math range error); CudaTarget maps them to taipan's exception ids.
OK, DOMAIN_ERROR, RANGE_ERROR = 0, 1, 2

_DBL_MAX = 1.7976931348623157e308
_DBL_MIN = 2.2250738585072014e-308
_DBL_MANT_DIG = 53
_LARGE_DOUBLE = _DBL_MAX / 4.0  # CM_LARGE_DOUBLE: no spurious overflow below it
_SQRT_LARGE_DOUBLE = math.sqrt(_LARGE_DOUBLE)
_LOG_LARGE_DOUBLE = math.log(_LARGE_DOUBLE)
_SQRT_DBL_MIN = math.sqrt(_DBL_MIN)
_SCALE_UP = 2 * (_DBL_MANT_DIG // 2) + 1  # turns a subnormal into a normal number
_SCALE_DOWN = -(_SCALE_UP + 1) // 2
_LN2 = 0.6931471805599453094
_LN10 = 2.302585092994045684
_E = math.e
_INF = math.inf
_NAN = math.nan

# cmathmodule.c's classes of a part: -inf, negative, -0.0, +0.0, positive, +inf, NaN.
_CLASS_SAMPLES = (-math.inf, -2.0, -0.0, 0.0, 2.0, math.inf, math.nan)


def _annex_g_value(name, real_class, imag_class):
    """C99 Annex G's value where CPython raises ValueError for a non-finite argument (an
    infinite imaginary part): the value NumPy's loops and a GPU thread return instead."""
    infinite_real = real_class in (0, 5)
    zero_real = real_class in (2, 3)
    if name == "exp":
        return complex(_INF, _NAN) if real_class == 5 else complex(_NAN, _NAN)
    if name == "cosh":
        if infinite_real:
            return complex(_INF, _NAN)
        return complex(_NAN, 0.0) if zero_real else complex(_NAN, _NAN)
    if name == "sinh":
        if infinite_real:
            return complex(_INF, _NAN)
        return complex(0.0, _NAN) if zero_real else complex(_NAN, _NAN)
    return complex(_NAN, _NAN)  # tanh


def _special_values(name):
    """The 7 x 7 table (real part's class, imaginary part's class) of ``cmath.<name>`` at
    non-finite arguments, as (real, imag) pairs; entries of two finite classes are unused."""
    table = np.zeros((7, 7, 2))
    function = getattr(cmath, name)
    for i, x in enumerate(_CLASS_SAMPLES):
        for j, y in enumerate(_CLASS_SAMPLES):
            if math.isfinite(x) and math.isfinite(y):
                continue
            try:
                value = function(complex(x, y))
            except ValueError:
                value = _annex_g_value(name, i, j)
            table[i, j] = value.real, value.imag
    return table


def _rect_special_values():
    """cmath.rect's table, by the classes of r and phi."""
    table = np.zeros((7, 7, 2))
    for i, r in enumerate(_CLASS_SAMPLES):
        for j, phi in enumerate(_CLASS_SAMPLES):
            if math.isfinite(r) and math.isfinite(phi):
                continue
            try:
                value = cmath.rect(r, phi)
            except ValueError:  # a nonzero r turned by an infinite angle
                value = complex(_INF, _NAN) if math.isinf(r) else complex(_NAN, _NAN)
            table[i, j] = value.real, value.imag
    return table


_EXP_SPECIAL = _special_values("exp")
_LOG_SPECIAL = _special_values("log")
_SQRT_SPECIAL = _special_values("sqrt")
_COSH_SPECIAL = _special_values("cosh")
_SINH_SPECIAL = _special_values("sinh")
_TANH_SPECIAL = _special_values("tanh")
_ACOS_SPECIAL = _special_values("acos")
_ACOSH_SPECIAL = _special_values("acosh")
_ASINH_SPECIAL = _special_values("asinh")
_ATANH_SPECIAL = _special_values("atanh")
_RECT_SPECIAL = _rect_special_values()


@_device_function
def _class(d):
    """cmathmodule.c's special_type: the class of one part."""
    if math.isfinite(d):
        if d != 0.0:
            return 4 if math.copysign(1.0, d) == 1.0 else 1
        return 3 if math.copysign(1.0, d) == 1.0 else 2
    if math.isnan(d):
        return 6
    return 5 if d > 0.0 else 0


@_device_function
def _finite(x, y):
    return math.isfinite(x) and math.isfinite(y)


@_device_function
def _lookup(table, x, y):
    i = _class(x)
    j = _class(y)
    return table[i, j, 0], table[i, j, 1]


@_device_function
def _sqrt(x, y):
    if not _finite(x, y):
        return _lookup(_SQRT_SPECIAL, x, y)
    if x == 0.0 and y == 0.0:
        return 0.0, y
    ax = abs(x)
    ay = abs(y)
    if ax < _DBL_MIN and ay < _DBL_MIN:
        # hypot(ax, ay) would be subnormal: scale both parts into the normal range
        ax = math.ldexp(ax, _SCALE_UP)
        s = math.ldexp(math.sqrt(ax + math.hypot(ax, math.ldexp(ay, _SCALE_UP))), _SCALE_DOWN)
    else:
        ax /= 8.0
        s = 2.0 * math.sqrt(ax + math.hypot(ax, ay / 8.0))
    d = ay / (2.0 * s)
    if x >= 0.0:
        return s, math.copysign(d, y)
    return d, math.copysign(s, y)


@_device_function
def _exp(x, y):
    if not _finite(x, y):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            if x > 0.0:
                return math.copysign(_INF, math.cos(y)), math.copysign(_INF, math.sin(y))
            return math.copysign(0.0, math.cos(y)), math.copysign(0.0, math.sin(y))
        return _lookup(_EXP_SPECIAL, x, y)
    if x > _LOG_LARGE_DOUBLE:
        scale = math.exp(x - 1.0)
        return scale * math.cos(y) * _E, scale * math.sin(y) * _E
    scale = math.exp(x)
    return scale * math.cos(y), scale * math.sin(y)


@_device_function
def _log(x, y):
    if not _finite(x, y):
        return _lookup(_LOG_SPECIAL, x, y)
    ax = abs(x)
    ay = abs(y)
    if ax > _LARGE_DOUBLE or ay > _LARGE_DOUBLE:
        real = math.log(math.hypot(ax / 2.0, ay / 2.0)) + _LN2
    elif ax < _DBL_MIN and ay < _DBL_MIN:
        if ax > 0.0 or ay > 0.0:
            # hypot(ax, ay) would be subnormal and lose bits
            scaled = math.hypot(math.ldexp(ax, _DBL_MANT_DIG), math.ldexp(ay, _DBL_MANT_DIG))
            real = math.log(scaled) - _DBL_MANT_DIG * _LN2
        else:
            real = -_INF
    else:
        h = math.hypot(ax, ay)
        if 0.71 <= h <= 1.73:
            larger = max(ax, ay)
            smaller = min(ax, ay)
            real = math.log1p((larger - 1.0) * (larger + 1.0) + smaller * smaller) / 2.0
        else:
            real = math.log(h)
    return real, math.atan2(y, x)


@_device_function
def _cosh(x, y):
    if not _finite(x, y):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            real = math.copysign(_INF, math.cos(y))
            imag = math.copysign(_INF, math.sin(y))
            return real, (imag if x > 0.0 else -imag)
        return _lookup(_COSH_SPECIAL, x, y)
    if abs(x) > _LOG_LARGE_DOUBLE:
        # cosh(x) overflows where cosh(z) need not
        shifted = x - math.copysign(1.0, x)
        return math.cos(y) * math.cosh(shifted) * _E, math.sin(y) * math.sinh(shifted) * _E
    return math.cos(y) * math.cosh(x), math.sin(y) * math.sinh(x)


@_device_function
def _sinh(x, y):
    if not _finite(x, y):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            real = math.copysign(_INF, math.cos(y))
            imag = math.copysign(_INF, math.sin(y))
            return (real if x > 0.0 else -real), imag
        return _lookup(_SINH_SPECIAL, x, y)
    if abs(x) > _LOG_LARGE_DOUBLE:
        shifted = x - math.copysign(1.0, x)
        return math.cos(y) * math.sinh(shifted) * _E, math.sin(y) * math.cosh(shifted) * _E
    return math.cos(y) * math.sinh(x), math.sin(y) * math.cosh(x)


@_device_function
def _tanh(x, y):
    if not _finite(x, y):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            imag = math.copysign(0.0, 2.0 * math.sin(y) * math.cos(y))
            return (1.0 if x > 0.0 else -1.0), imag
        return _lookup(_TANH_SPECIAL, x, y)
    if abs(x) > _LOG_LARGE_DOUBLE:
        # 1 - tanh(x)**2 as 4 exp(-2|x|): cosh(x) would overflow
        real = math.copysign(1.0, x)
        return real, 4.0 * math.sin(y) * math.cos(y) * math.exp(-2.0 * abs(x))
    tx = math.tanh(x)
    ty = math.tan(y)
    cx = 1.0 / math.cosh(x)
    txty = tx * ty
    denominator = 1.0 + txty * txty
    return tx * (1.0 + ty * ty) / denominator, ((ty / denominator) * cx) * cx


@_device_function
def _acos(x, y):
    if not _finite(x, y):
        return _lookup(_ACOS_SPECIAL, x, y)
    if abs(x) > _LARGE_DOUBLE or abs(y) > _LARGE_DOUBLE:
        real = math.atan2(abs(y), x)
        magnitude = math.log(math.hypot(x / 2.0, y / 2.0)) + _LN2 * 2.0
        if x < 0.0:
            return real, -math.copysign(magnitude, y)
        return real, math.copysign(magnitude, -y)
    s1x, s1y = _sqrt(1.0 - x, -y)
    s2x, s2y = _sqrt(1.0 + x, y)
    return 2.0 * math.atan2(s1x, s2x), math.asinh(s2x * s1y - s2y * s1x)


@_device_function
def _acosh(x, y):
    if not _finite(x, y):
        return _lookup(_ACOSH_SPECIAL, x, y)
    if abs(x) > _LARGE_DOUBLE or abs(y) > _LARGE_DOUBLE:
        return math.log(math.hypot(x / 2.0, y / 2.0)) + _LN2 * 2.0, math.atan2(y, x)
    s1x, s1y = _sqrt(x - 1.0, y)
    s2x, s2y = _sqrt(x + 1.0, y)
    return math.asinh(s1x * s2x + s1y * s2y), 2.0 * math.atan2(s1y, s2x)


@_device_function
def _asinh(x, y):
    if not _finite(x, y):
        return _lookup(_ASINH_SPECIAL, x, y)
    if abs(x) > _LARGE_DOUBLE or abs(y) > _LARGE_DOUBLE:
        magnitude = math.log(math.hypot(x / 2.0, y / 2.0)) + _LN2 * 2.0
        if y >= 0.0:
            real = math.copysign(magnitude, x)
        else:
            real = -math.copysign(magnitude, -x)
        return real, math.atan2(y, abs(x))
    s1x, s1y = _sqrt(1.0 + y, -x)
    s2x, s2y = _sqrt(1.0 - y, x)
    return math.asinh(s1x * s2y - s2x * s1y), math.atan2(y, s1x * s2x - s1y * s2y)


@_device_function
def _atanh(x, y):
    if not _finite(x, y):
        return _lookup(_ATANH_SPECIAL, x, y)
    # atanh(z) = -atanh(-z): computed for a non-negative real part
    negated = x < 0.0
    if negated:
        x = -x
        y = -y
    ay = abs(y)
    if x > _SQRT_LARGE_DOUBLE or ay > _SQRT_LARGE_DOUBLE:
        # atanh(z) ~ 1/z +- i pi/2 for a large |z|
        h = math.hypot(x / 2.0, y / 2.0)
        real = x / 4.0 / h / h
        imag = -math.copysign(math.pi / 2.0, -y)
    elif x == 1.0 and ay < _SQRT_DBL_MIN:
        if ay == 0.0:
            real = _INF
            imag = y
        else:
            real = -math.log(math.sqrt(ay) / math.sqrt(math.hypot(ay, 2.0)))
            imag = math.copysign(math.atan2(2.0, -ay) / 2.0, y)
    else:
        one_minus = 1.0 - x
        real = math.log1p(4.0 * x / (one_minus * one_minus + ay * ay)) / 4.0
        imag = -math.atan2(-2.0 * y, one_minus * (1.0 + x) - ay * ay) / 2.0
    if negated:
        return -real, -imag
    return real, imag


@_device_function
def _evaluate(function, x, y):
    """cmath.<function>(x + yj) as (real, imag); sin, cos, tan, asin and atan by their
    hyperbolic counterparts at i z, as CPython defines them."""
    if function == EXP:
        return _exp(x, y)
    if function == LOG:
        return _log(x, y)
    if function == LOG10:
        real, imag = _log(x, y)
        return real / _LN10, imag / _LN10
    if function == SQRT:
        return _sqrt(x, y)
    if function == COS:
        return _cosh(-y, x)
    if function == SINH or function == SIN:
        if function == SIN:
            real, imag = _sinh(-y, x)
            return imag, -real
        return _sinh(x, y)
    if function == TANH or function == TAN:
        if function == TAN:
            real, imag = _tanh(-y, x)
            return imag, -real
        return _tanh(x, y)
    if function == ASINH or function == ASIN:
        if function == ASIN:
            real, imag = _asinh(-y, x)
            return imag, -real
        return _asinh(x, y)
    if function == ATANH or function == ATAN:
        if function == ATAN:
            real, imag = _atanh(-y, x)
            return imag, -real
        return _atanh(x, y)
    if function == ACOS:
        return _acos(x, y)
    if function == ACOSH:
        return _acosh(x, y)
    return _cosh(x, y)  # COSH


@_device_function
def _status(function, x, y, real, imag):
    """CPython's errno for cmath.<function>(x + yj) and its result: a domain error where C99
    Annex G signals divide-by-zero or invalid (CPython's ValueError), a range error where a
    finite argument overflows (OverflowError). sin, cos, tan and atan take their hyperbolic
    counterpart's at i z."""
    if function == SIN or function == COS or function == TAN or function == ATAN:
        x, y = -y, x
        if function == SIN:
            function = SINH
        elif function == COS:
            function = COSH
        elif function == TAN:
            function = TANH
        else:
            function = ATANH
    finite = _finite(x, y)
    overflowed = math.isinf(real) or math.isinf(imag)
    if function == EXP:
        if not finite:
            infinite_angle = math.isinf(y) and (math.isfinite(x) or x > 0.0)
            return DOMAIN_ERROR if infinite_angle else OK
        return RANGE_ERROR if overflowed else OK
    if function == SINH or function == COSH:
        if not finite:
            return DOMAIN_ERROR if math.isinf(y) and not math.isnan(x) else OK
        return RANGE_ERROR if overflowed else OK
    if function == TANH:
        return DOMAIN_ERROR if math.isinf(y) and math.isfinite(x) else OK
    if function == LOG or function == LOG10:
        return DOMAIN_ERROR if x == 0.0 and y == 0.0 else OK
    if function == ATANH:
        return DOMAIN_ERROR if abs(x) == 1.0 and y == 0.0 else OK
    return OK


def cmath_unary(function, x, y):
    """taipan_cmath_unary for a GPU thread: (status, real, imag) of cmath function number
    ``function`` at x + yj; the status is OK, DOMAIN_ERROR or RANGE_ERROR."""
    real, imag = _evaluate(function, x, y)
    return float(_status(function, x, y, real, imag)), real, imag


def cmath_rect(r, phi):
    """taipan_cmath_rect for a GPU thread: (status, real, imag) of cmath.rect(r, phi)."""
    if not _finite(r, phi):
        if math.isinf(r) and math.isfinite(phi) and phi != 0.0:
            real = math.copysign(_INF, math.cos(phi))
            imag = math.copysign(_INF, math.sin(phi))
            if r < 0.0:
                real = -real
                imag = -imag
        else:
            real, imag = _lookup(_RECT_SPECIAL, r, phi)
        # an infinite angle turning a nonzero number: CPython's domain error
        status = DOMAIN_ERROR if r != 0.0 and not math.isnan(r) and math.isinf(phi) else OK
        return float(status), real, imag
    if phi == 0.0:
        return float(OK), r, r * phi
    return float(OK), r * math.cos(phi), r * math.sin(phi)


# The library's functions by C symbol (cuda/DeviceLibrary.cpp's names), with argument types;
# taipan.cuda.compiler compiles them (this module imports nothing of taipan.cuda).
LIBRARY = {
    "taipan_device_cmath_unary": (cmath_unary, ("int32", "float64", "float64")),
    "taipan_device_cmath_rect": (cmath_rect, ("float64", "float64")),
}
