"""``cuda.libdevice`` in the simulator: libdevice's functions evaluated in Python, with the types
of their prototypes (taipan.cuda.api.libdevice_prototypes): arguments are converted to the
parameters' types (int32 wraps, float32 rounds) and results come back as NumPy scalars of the
result types. Directed roundings (``_rd``, ``_ru``, ``_rz``) are computed exactly with
fractions. The Bessel functions (``j0``, ``y1``, ``jn``...) have no evaluation here: calling
one raises NotImplementedError naming it."""

import builtins
import math
import statistics
from fractions import Fraction

import numpy as np

from taipan.cuda.api.libdevice_prototypes import PROTOTYPES, signature_of

# The module's names include libdevice's abs, max, min and round: Python's are kept under these.
_abs, _max, _min, _round = builtins.abs, builtins.max, builtins.min, builtins.round

_INT_LIMITS = {32: (-(1 << 31), (1 << 31) - 1), 64: (-(1 << 63), (1 << 63) - 1)}
_UINT_LIMITS = {32: (0, (1 << 32) - 1), 64: (0, (1 << 64) - 1)}
_NORMAL = statistics.NormalDist()


def _wrap(value, bits, signed=True):
    """An integer reduced to `bits` bits, as signed (or unsigned) of that width."""
    value = int(value) & ((1 << bits) - 1)
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def _unsigned(value, bits):
    return int(value) & ((1 << bits) - 1)


# --- rounding ---------------------------------------------------------------------------------


def _round_float(exact, dtype, mode):
    """The float of `dtype` nearest `exact` (a Fraction) in rounding `mode` (rn, rz, ru, rd)."""
    dtype = np.dtype(dtype)
    candidate = dtype.type(float(exact))
    with np.errstate(over="ignore"):
        if dtype.itemsize == 4:
            # float(exact) rounded once, then to float32: fix a double rounding by the neighbours.
            neighbours = [
                candidate,
                np.nextafter(candidate, dtype.type(np.inf)),
                np.nextafter(candidate, dtype.type(-np.inf)),
            ]
            finite = [n for n in neighbours if np.isfinite(n)]
            if finite and np.isfinite(candidate):
                best = _min(finite, key=lambda n: (_abs(Fraction(float(n)) - exact), _odd(n)))
                candidate = best
    if mode == "rn" or not np.isfinite(candidate):
        if mode != "rn" and not np.isfinite(candidate):
            return _overflowed(exact, dtype, mode)
        return candidate
    value = Fraction(float(candidate))
    if value == exact:
        return candidate
    want_up = mode == "ru" or (mode == "rz" and exact < 0)
    if (value > exact) == want_up:
        return candidate
    return np.nextafter(candidate, dtype.type(np.inf if want_up else -np.inf))


def _odd(value):
    """1 for a float whose last mantissa bit is set (ties go to the even one)."""
    bits = np.array(value).view(np.uint32 if value.dtype.itemsize == 4 else np.uint64)
    return int(bits) & 1


def _overflowed(exact, dtype, mode):
    largest = np.finfo(dtype).max
    toward_inf = mode == "ru" if exact > 0 else mode == "rd"
    magnitude = dtype.type(np.inf) if toward_inf else largest
    return magnitude if exact > 0 else -magnitude


def _directed(operation, dtype, mode):
    """A correctly rounded arithmetic operation on Fractions, in `mode`."""

    def evaluate(*arguments):
        values = [dtype(a) for a in arguments]
        if not all(np.isfinite(v) for v in values):
            with np.errstate(all="ignore"):
                return dtype(operation(*values))
        try:
            exact = operation(*[Fraction(float(v)) for v in values])
        except ZeroDivisionError:
            with np.errstate(all="ignore"):
                return dtype(operation(*values))
        return _round_float(exact, dtype, mode)

    return evaluate


def _sqrt_directed(dtype, mode):
    def evaluate(x):
        x = dtype(x)
        with np.errstate(invalid="ignore"):
            root = np.sqrt(x)
        if not np.isfinite(root) or x <= 0 or mode == "rn":
            return root
        exact = Fraction(float(x))
        square = Fraction(float(root)) ** 2
        if square == exact:
            return root
        if mode == "ru" and square < exact:
            return np.nextafter(root, dtype(np.inf))
        if mode in ("rd", "rz") and square > exact:
            return np.nextafter(root, dtype(-np.inf))
        return root

    return evaluate


def _to_integer(bits, signed, mode):
    """A float converted to an integer as PTX's cvt does: rounded by `mode`, saturated at the
    type's limits, NaN giving 0."""
    low, high = (_INT_LIMITS if signed else _UINT_LIMITS)[bits]

    def evaluate(x):
        x = float(x)
        if math.isnan(x):
            value = 0
        elif math.isinf(x):
            value = high if x > 0 else low
        else:
            exact = Fraction(x)
            if mode == "rn":
                value = _round(exact)  # half to even
            elif mode == "rz":
                value = math.trunc(exact)
            elif mode == "ru":
                value = math.ceil(exact)
            else:
                value = math.floor(exact)
            value = _min(_max(value, low), high)
        return _wrap(value, bits) if not signed else value

    return evaluate


def _from_integer(bits, signed, dtype, mode):
    def evaluate(x):
        value = _wrap(x, bits) if signed else _unsigned(x, bits)
        return _round_float(Fraction(value), dtype, mode)

    return evaluate


# --- the functions ----------------------------------------------------------------------------


def _bits_of(x, bits):
    if bits == 64:
        return int(np.array(np.float64(x)).view(np.int64))
    return int(np.array(np.float32(x)).view(np.int32))


def _float_of(x, bits):
    if bits == 64:
        return np.array(np.int64(_wrap(x, 64))).view(np.float64)[()]
    return np.array(np.int32(_wrap(x, 32))).view(np.float32)[()]


def _byte_perm(x, y, selector):
    source = _unsigned(x, 32) | (_unsigned(y, 32) << 32)
    result = 0
    for byte in range(4):
        pick = (_unsigned(selector, 32) >> (4 * byte)) & 7
        result |= ((source >> (8 * pick)) & 0xFF) << (8 * byte)
    return result


def _frexp(x):
    mantissa, exponent = math.frexp(float(x)) if math.isfinite(x) else (float(x), 0)
    return mantissa, exponent


def _remquo(x, y):
    x, y = float(x), float(y)
    if not (math.isfinite(x) and math.isfinite(y)) or y == 0:
        return math.nan if y == 0 or math.isinf(x) else x, 0
    remainder = math.remainder(x, y)
    quotient = _round((Fraction(x) - Fraction(remainder)) / Fraction(y))
    quotient_bits = _abs(quotient) & 0x7F
    return remainder, -quotient_bits if (x < 0) != (y < 0) else quotient_bits


def _round_half_away(x):
    x = float(x)
    if not math.isfinite(x):
        return x
    return math.copysign(math.floor(_abs(x) + 0.5), x) if _abs(x) < 2.0**52 else x


def _logb(x):
    x = float(x)
    if x == 0:
        return -math.inf
    if not math.isfinite(x):
        return _abs(x)
    return float(math.frexp(x)[1] - 1)


def _ilogb(x):
    x = float(x)
    if x == 0:
        return -(1 << 31)
    if math.isnan(x):
        return -(1 << 31)
    if math.isinf(x):
        return (1 << 31) - 1
    return math.frexp(x)[1] - 1


def _safe(function):
    """A math-module function that gives inf or nan where Python raises."""

    def evaluate(*arguments):
        try:
            return function(*(float(a) for a in arguments))
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return evaluate


def _erfinv(y):
    y = float(y)
    if y in (-1.0, 1.0):
        return math.copysign(math.inf, y)
    if not -1.0 < y < 1.0:
        return math.nan
    return _NORMAL.inv_cdf((y + 1.0) / 2.0) / math.sqrt(2.0)


def _normcdfinv(p):
    p = float(p)
    if p in (0.0, 1.0):
        return -math.inf if p == 0.0 else math.inf
    if not 0.0 < p < 1.0:
        return math.nan
    return _NORMAL.inv_cdf(p)


def _erfcx(x):
    x = float(x)
    if x < 25.0:
        return math.exp(x * x) * math.erfc(x)
    # The asymptotic series: exp(x*x) overflows before erfc(x) underflows.
    return 1.0 / (x * math.sqrt(math.pi)) * (1.0 - 1.0 / (2.0 * x * x) + 3.0 / (4.0 * x**4))


def _unsigned_compare(choose, bits):
    def evaluate(a, b):
        return _wrap(choose(_unsigned(a, bits), _unsigned(b, bits)), bits)

    return evaluate


def _mul_high(bits, signed):
    def evaluate(a, b):
        if not signed:
            a, b = _unsigned(a, bits), _unsigned(b, bits)
        return _wrap((a * b) >> bits, bits)

    return evaluate


def _mul24(signed):
    def evaluate(a, b):
        if signed:
            a, b = _wrap(a, 24), _wrap(b, 24)
        else:
            a, b = _unsigned(a, 24), _unsigned(b, 24)
        return _wrap(a * b, 32)

    return evaluate


def _halving_add(signed, rounded):
    def evaluate(a, b):
        if not signed:
            a, b = _unsigned(a, 32), _unsigned(b, 32)
        return _wrap((a + b + (1 if rounded else 0)) >> 1, 32)

    return evaluate


def _sad(signed):
    def evaluate(x, y, z):
        if not signed:
            x, y = _unsigned(x, 32), _unsigned(y, 32)
            z = _unsigned(z, 32)
        return _wrap(_abs(x - y) + z, 32)

    return evaluate


def _saturate(x):
    if np.isnan(x):
        return 0.0
    return _min(_max(x, 0.0), 1.0)


def _fma_exact(dtype, mode):
    def evaluate(a, b, c):
        values = [dtype(a), dtype(b), dtype(c)]
        if not all(np.isfinite(v) for v in values):
            with np.errstate(all="ignore"):
                return dtype(values[0] * values[1] + values[2])
        a, b, c = (Fraction(float(v)) for v in values)
        exact = a * b + c
        if exact == 0:
            # IEEE's sign of an exact zero sum: negative when both terms are negative zeros or
            # negative, and when opposite terms cancel in rounding toward minus infinity.
            product_negative = (math.copysign(1.0, float(values[0])) < 0) != (
                math.copysign(1.0, float(values[1])) < 0
            )
            addend_negative = math.copysign(1.0, float(values[2])) < 0
            if a * b == 0 and c == 0:
                negative = product_negative and addend_negative
            else:
                negative = mode == "rd"
            return dtype(-0.0 if negative else 0.0)
        return _round_float(exact, dtype, mode)

    return evaluate


def _table():
    """{name: Python function}, before the conversion of arguments and results."""
    f32, f64 = np.float32, np.float64
    table = {}
    unary_numpy = {
        "acos": np.arccos,
        "acosh": np.arccosh,
        "asin": np.arcsin,
        "asinh": np.arcsinh,
        "atan": np.arctan,
        "atanh": np.arctanh,
        "cbrt": np.cbrt,
        "ceil": np.ceil,
        "cos": np.cos,
        "cosh": np.cosh,
        "exp": np.exp,
        "exp2": np.exp2,
        "expm1": np.expm1,
        "fabs": np.fabs,
        "floor": np.floor,
        "log": np.log,
        "log10": np.log10,
        "log1p": np.log1p,
        "log2": np.log2,
        "sin": np.sin,
        "sinh": np.sinh,
        "sqrt": np.sqrt,
        "tan": np.tan,
        "tanh": np.tanh,
        "trunc": np.trunc,
        "rint": np.rint,
        "nearbyint": np.rint,
    }
    for name, function in unary_numpy.items():
        table[name] = function
        table[name + "f"] = function
    binary_numpy = {
        "atan2": np.arctan2,
        "copysign": np.copysign,
        "fmax": np.fmax,
        "fmin": np.fmin,
        "fmod": np.fmod,
        "hypot": np.hypot,
        "nextafter": np.nextafter,
        "pow": np.power,
        "remainder": lambda x, y: math.remainder(x, y) if y != 0 and math.isfinite(x) else math.nan,
        "fdim": lambda x, y: x - y if x > y else (x + y if np.isnan(x) or np.isnan(y) else 0.0),
    }
    for name, function in binary_numpy.items():
        table[name] = function
        table[name + "f"] = function
    math_unary = {
        "erf": math.erf,
        "erfc": math.erfc,
        "lgamma": math.lgamma,
        "tgamma": math.gamma,
        "erfinv": _erfinv,
        "erfcinv": lambda y: _erfinv(1.0 - float(y)),
        "erfcx": _erfcx,
        "normcdf": lambda x: 0.5 * math.erfc(-float(x) / math.sqrt(2.0)),
        "normcdfinv": _normcdfinv,
        "cospi": lambda x: math.cos(math.pi * float(x)) if float(x) % 0.5 else _cospi_exact(x),
        "sinpi": lambda x: (
            math.sin(math.pi * float(x)) if float(x) % 1.0 else math.copysign(0.0, x)
        ),
        "exp10": lambda x: 10.0 ** float(x),
        "rsqrt": lambda x: (
            1.0 / math.sqrt(float(x)) if x > 0 else (math.inf if x == 0 else math.nan)
        ),
        "rcbrt": lambda x: 1.0 / float(np.cbrt(float(x))) if x != 0 else math.copysign(math.inf, x),
        "logb": _logb,
        "round": _round_half_away,
    }
    for name, function in math_unary.items():
        table[name] = _safe(function)
        table[name + "f"] = _safe(function)
    table["sincos"] = lambda x: (np.sin(x), np.cos(x))
    table["sincosf"] = table["sincos"]
    table["sincospi"] = lambda x: (table["sinpi"](x), table["cospi"](x))
    table["sincospif"] = table["sincospi"]
    table["frexp"] = table["frexpf"] = _frexp
    table["modf"] = table["modff"] = lambda x: math.modf(float(x))
    table["remquo"] = table["remquof"] = _remquo
    table["ldexp"] = table["ldexpf"] = table["scalbn"] = table["scalbnf"] = lambda x, n: (
        math.ldexp(float(x), int(n)) if math.isfinite(x) else float(x)
    )
    table["powi"] = table["powif"] = lambda x, n: np.power(x, type(x)(n))
    table["ilogb"] = table["ilogbf"] = _ilogb
    table["fma"] = table["fma_rn"] = _fma_exact(f64, "rn")
    table["fmaf"] = table["fmaf_rn"] = _fma_exact(f32, "rn")
    for mode in ("rn", "rz", "ru", "rd"):
        for prefix, dtype in (("d", f64), ("f", f32)):
            table[f"{prefix}add_{mode}"] = _directed(lambda a, b: a + b, dtype, mode)
            table[f"{prefix}sub_{mode}"] = _directed(lambda a, b: a - b, dtype, mode)
            table[f"{prefix}mul_{mode}"] = _directed(lambda a, b: a * b, dtype, mode)
            table[f"{prefix}div_{mode}"] = _directed(lambda a, b: a / b, dtype, mode)
            table[f"{prefix}rcp_{mode}"] = _directed(lambda a: 1 / a, dtype, mode)
            table[f"{prefix}sqrt_{mode}"] = _sqrt_directed(dtype, mode)
        table[f"fma_{mode}"] = _fma_exact(f64, mode)
        table[f"fmaf_{mode}"] = _fma_exact(f32, mode)
        table[f"double2float_{mode}"] = lambda x, mode=mode: (
            _round_float(Fraction(float(x)), f32, mode) if math.isfinite(x) else f32(x)
        )
        for source in ("double", "float"):
            table[f"{source}2int_{mode}"] = _to_integer(32, True, mode)
            table[f"{source}2uint_{mode}"] = _to_integer(32, False, mode)
            table[f"{source}2ll_{mode}"] = _to_integer(64, True, mode)
            table[f"{source}2ull_{mode}"] = _to_integer(64, False, mode)
        table[f"int2float_{mode}"] = _from_integer(32, True, f32, mode)
        table[f"uint2float_{mode}"] = _from_integer(32, False, f32, mode)
        table[f"ll2float_{mode}"] = _from_integer(64, True, f32, mode)
        table[f"ull2float_{mode}"] = _from_integer(64, False, f32, mode)
        table[f"ll2double_{mode}"] = _from_integer(64, True, f64, mode)
        table[f"ull2double_{mode}"] = _from_integer(64, False, f64, mode)
    table["int2double_rn"] = _from_integer(32, True, f64, "rn")
    table["uint2double_rn"] = _from_integer(32, False, f64, "rn")
    table["frsqrt_rn"] = table["rsqrtf"]
    table["llrint"] = table["llrintf"] = _to_integer(64, True, "rn")
    table["llround"] = table["llroundf"] = lambda x: _to_integer(64, True, "rz")(
        _round_half_away(x)
    )
    for name in ("cos", "exp", "exp10", "log10", "log2", "log", "sin", "tan"):
        table[f"fast_{name}f"] = table[f"{name}f"]
    table["fast_powf"] = table["powf"]
    table["fast_fdividef"] = lambda a, b: np.divide(a, b)
    table["fast_sincosf"] = table["sincosf"]
    table["saturatef"] = _saturate
    table["float2half_rn"] = lambda x: int(np.array(np.float16(x)).view(np.int16))
    table["half2float"] = lambda h: np.float32(np.array(np.int16(_wrap(h, 16))).view(np.float16))
    table["double_as_longlong"] = lambda x: _bits_of(x, 64)
    table["longlong_as_double"] = lambda x: _float_of(x, 64)
    table["float_as_int"] = lambda x: _bits_of(x, 32)
    table["int_as_float"] = lambda x: _float_of(x, 32)
    table["double2hiint"] = lambda x: _wrap(_bits_of(x, 64) >> 32, 32)
    table["double2loint"] = lambda x: _wrap(_bits_of(x, 64), 32)
    table["hiloint2double"] = lambda hi, lo: _float_of(
        (_unsigned(hi, 32) << 32) | _unsigned(lo, 32), 64
    )
    for suffix in ("d", "f"):
        table[f"isnan{suffix}"] = lambda x: int(np.isnan(x))
        table[f"isinf{suffix}"] = lambda x: int(np.isinf(x))
        table[f"signbit{suffix}"] = lambda x: int(np.signbit(x))
    table["isfinited"] = table["finitef"] = lambda x: int(np.isfinite(x))
    table["abs"] = lambda x: _wrap(_abs(x), 32)
    table["llabs"] = lambda x: _wrap(_abs(x), 64)
    table["max"] = table["llmax"] = _max
    table["min"] = table["llmin"] = _min
    table["umax"] = _unsigned_compare(_max, 32)
    table["umin"] = _unsigned_compare(_min, 32)
    table["ullmax"] = _unsigned_compare(_max, 64)
    table["ullmin"] = _unsigned_compare(_min, 64)
    for suffix, bits in (("", 32), ("ll", 64)):
        table[f"brev{suffix}"] = lambda x, bits=bits: int(
            format(_unsigned(x, bits), f"0{bits}b")[::-1], 2
        )
        table[f"clz{suffix}"] = lambda x, bits=bits: bits - _unsigned(x, bits).bit_length()
        table[f"popc{suffix}"] = lambda x, bits=bits: _unsigned(x, bits).bit_count()
        table[f"ffs{suffix}"] = lambda x, bits=bits: (
            _unsigned(x, bits) & -_unsigned(x, bits)
        ).bit_length()
    table["byte_perm"] = _byte_perm
    table["mulhi"] = _mul_high(32, True)
    table["umulhi"] = _mul_high(32, False)
    table["mul64hi"] = _mul_high(64, True)
    table["umul64hi"] = _mul_high(64, False)
    table["mul24"] = _mul24(True)
    table["umul24"] = _mul24(False)
    table["hadd"] = _halving_add(True, False)
    table["rhadd"] = _halving_add(True, True)
    table["uhadd"] = _halving_add(False, False)
    table["urhadd"] = _halving_add(False, True)
    table["sad"] = _sad(True)
    table["usad"] = _sad(False)
    return table


def _cospi_exact(x):
    """cos(pi x) where x is a multiple of one half: exactly 0, 1 or -1."""
    x = float(x)
    if not math.isfinite(x):
        return math.nan
    if x % 1.0:
        return 0.0
    return -1.0 if x % 2.0 else 1.0


_CONVERT = {
    "int32": lambda v: np.int32(_wrap(v, 32)),
    "int64": lambda v: np.int64(_wrap(v, 64)),
    "int16": lambda v: np.int16(_wrap(v, 16)),
    "float32": np.float32,
    "float64": np.float64,
}


class LibdeviceFunction:
    """One of libdevice's functions, evaluated in Python with its prototype's types."""

    def __init__(self, name, evaluate):
        self.__name__ = name
        self.__doc__ = f"libdevice's __nv_{name}, evaluated by the CUDA simulator."
        self._results, self._inputs = signature_of(name)
        self._evaluate = evaluate

    def __call__(self, *arguments):
        if len(arguments) != len(self._inputs):
            raise TypeError(
                f"libdevice.{self.__name__}() takes {len(self._inputs)} arguments "
                f"({len(arguments)} given)"
            )
        if self._evaluate is None:
            raise NotImplementedError(
                f"libdevice.{self.__name__} is not evaluated by the CUDA simulator"
            )
        values = [_argument(value, dtype) for value, dtype in zip(arguments, self._inputs)]
        with np.errstate(all="ignore"):
            result = self._evaluate(*values)
            if len(self._results) == 1:
                return _CONVERT[self._results[0]](result)
            return tuple(_CONVERT[dtype](value) for dtype, value in zip(self._results, result))

    def __repr__(self):
        return f"<libdevice function {self.__name__} (CUDA simulator)>"


def _argument(value, dtype):
    """An argument converted to its parameter's type, as the compiled call converts it."""
    if dtype.startswith("float"):
        return _CONVERT[dtype](value)
    if isinstance(value, (float, np.floating)):
        value = math.trunc(value)
    return _wrap(value, int(dtype[3:]))


_IMPLEMENTATIONS = _table()
for _name in PROTOTYPES:
    globals()[_name] = LibdeviceFunction(_name, _IMPLEMENTATIONS.get(_name))

__all__ = list(PROTOTYPES)
