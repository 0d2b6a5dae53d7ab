"""Python builtins for compiled code written in Python: ``hash`` (CPython's values exactly),
``callable`` (decided from the type, as Numba does), and ``getattr`` with a constant attribute
name (the attribute itself). Registered with ``taipan.extending``'s
``overload`` and loaded the first time the resolver meets one of these builtins
(``extending._load_python_library``)."""

import builtins
import keyword
import math

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable

# ---------------------------------------------------------------------------------------------
# hash: CPython's algorithms (Python/pyhash.c, Objects/longobject.c, Objects/tupleobject.c), in
# 64-bit integers whose multiplications and left shifts wrap as C's unsigned ones do.

_MODULUS = (1 << 61) - 1  # _PyHASH_MODULUS: hashes of numbers are their value modulo this prime
_INFINITY_HASH = 314159
_IMAGINARY_MULTIPLIER = 1000003
_MIN_INT64 = -(1 << 63)
_LOW_31_BITS = (1 << 31) - 1
_TWO_POWER_28 = 268435456.0
# xxHash's primes, as signed 64-bit values (the same bits as CPython's unsigned ones).
_XXPRIME_1 = 11400714785074694791 - (1 << 64)
_XXPRIME_2 = 14029467366897019727 - (1 << 64)
_XXPRIME_5 = 2870177450012600261
_TUPLE_LENGTH_SALT = _XXPRIME_5 ^ 3527539
_TUPLE_MINUS_ONE = 1546275796


@register_jitable
def _hash_signed(x):
    if x >= 0:
        result = x % _MODULUS
    elif x == _MIN_INT64:
        result = -4  # -(2**63 mod the modulus), without negating INT64_MIN
    else:
        result = -((-x) % _MODULUS)
    return -2 if result == -1 else result


@register_jitable
def _hash_unsigned(x):
    # Halved first: x >> 1 fits in an int64, so the remainder is computed exactly.
    return (((x >> 1) % _MODULUS) * 2 + (x & 1)) % _MODULUS


@register_jitable
def _hash_float(value):
    if not math.isfinite(value):
        if math.isinf(value):
            return _INFINITY_HASH if value > 0 else -_INFINITY_HASH
        # CPython 3.10+ hashes a NaN by its object's address, which compiled code has no
        # object for; 0 is what CPython gave before and what Numba gives.
        return 0
    mantissa, exponent = math.frexp(value)
    sign = 1
    if mantissa < 0:
        sign = -1
        mantissa = -mantissa
    x = 0
    while mantissa:
        x = ((x << 28) & _MODULUS) | (x >> 33)
        mantissa *= _TWO_POWER_28
        exponent -= 28
        digit = int(mantissa)
        mantissa -= digit
        x += digit
        if x >= _MODULUS:
            x -= _MODULUS
    if exponent >= 0:
        exponent = exponent % 61
    else:
        exponent = 60 - ((-1 - exponent) % 61)
    x = ((x << exponent) & _MODULUS) | (x >> (61 - exponent))
    x = x * sign
    return -2 if x == -1 else x


@register_jitable
def _hash_complex(value):
    combined = _hash_float(value.real) + _IMAGINARY_MULTIPLIER * _hash_float(value.imag)
    return -2 if combined == -1 else combined


def _tuple_hash_text(count):
    """The unrolled xxHash of a tuple of ``count`` items (the items' types may differ)."""
    lines = ["def hash_tuple(t):", f"    acc = {_XXPRIME_5}"]
    for index in range(count):
        lines += [
            f"    acc += hash(t[{index}]) * {_XXPRIME_2}",
            f"    acc = (acc << 31) | ((acc >> 33) & {_LOW_31_BITS})",
            f"    acc *= {_XXPRIME_1}",
        ]
    lines += [
        f"    acc += {count ^ _TUPLE_LENGTH_SALT}",
        f"    return {_TUPLE_MINUS_ONE} if acc == -1 else acc",
    ]
    return "\n".join(lines) + "\n"


_tuple_hashes = {}


def _tuple_hash(count):
    function = _tuple_hashes.get(count)
    if function is None:
        namespace = {"hash": builtins.hash}
        exec(_tuple_hash_text(count), namespace)  # noqa: S102 - text generated above
        function = _tuple_hashes[count] = namespace["hash_tuple"]
    return function


@overload(builtins.hash)
def _hash(value):
    if isinstance(value, types.Boolean):
        return lambda value: 1 if value else 0
    if isinstance(value, types.Integer):
        hash_integer = _hash_signed if value.signed else _hash_unsigned
        return lambda value: hash_integer(value)
    if isinstance(value, types.Float):
        return lambda value: _hash_float(value)
    if isinstance(value, types.Complex):
        return lambda value: _hash_complex(value)
    if isinstance(value, types.NoneType):
        # None's hash is its address on Python 3.11 (constant from 3.12): this process's value.
        none_hash = builtins.hash(None)
        return lambda value: none_hash
    if isinstance(value, types.BaseTuple):
        return _tuple_hash(value.count)
    if isinstance(value, types.Array):
        raise TypingError("unhashable type: 'numpy.ndarray'")
    return None


# ---------------------------------------------------------------------------------------------
# callable: decided by the argument's type when the function compiles (isinstance is typed by
# type inference itself, typing/Isinstance.h, so that it prunes branches).

@overload(builtins.callable)
def _callable(value):
    decided = value.kind_name in ("JitFunction", "Function", "Overload", "Intrinsic")
    return lambda value: decided


# ---------------------------------------------------------------------------------------------
# getattr with a constant attribute name: the attribute itself.

_getattr_functions = {}


@overload(builtins.getattr)
def _getattr(value, name):
    if name.kind_name != "StringLiteral":
        raise TypingError("getattr() needs a constant attribute name in compiled code")
    attribute = name.literal_value
    if not attribute.isidentifier() or keyword.iskeyword(attribute):
        raise TypingError(f"getattr(): {attribute!r} is not an attribute name")
    function = _getattr_functions.get(attribute)
    if function is None:
        namespace = {}
        text = f"def getattr_constant(value, name):\n    return value.{attribute}\n"
        exec(text, namespace)  # noqa: S102 - an identifier, checked above
        function = _getattr_functions[attribute] = namespace["getattr_constant"]
    return function
