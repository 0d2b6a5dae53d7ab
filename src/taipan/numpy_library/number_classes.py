"""NumPy's tests of numbers' kinds and values and the functions of their parts: np.iscomplex,
np.isreal, np.iscomplexobj, np.isrealobj, np.isneginf, np.isposinf, np.angle, np.sinc and
np.nan_to_num, on numbers and array-likes, with Numba's restrictions and messages.

``iscomplexobj`` and ``isrealobj`` are decided by the argument's type alone (a constant), as
NumPy decides them by the dtype; an Optional argument is not complex when it is None."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import (
    array_like_dtype,
    is_array_like,
    is_none,
    scalar_class,
)


@overload(np.iscomplex)
def _iscomplex(x):
    if isinstance(x, (types.Number, types.Boolean)):  # a number gives a boolean, as NumPy's
        return lambda x: np.asarray(x).imag.item() != 0
    if not is_array_like(x):
        return None
    return lambda x: np.asarray(x).imag != 0


@overload(np.isreal)
def _isreal(x):
    if isinstance(x, (types.Number, types.Boolean)):
        return lambda x: np.asarray(x).imag.item() == 0
    if not is_array_like(x):
        return None
    return lambda x: np.asarray(x).imag == 0


def _is_complex_type(t):
    dtype = array_like_dtype(t)
    return dtype is not None and dtype.kind == "c"


@overload(np.iscomplexobj)
def _iscomplexobj(x):
    if isinstance(x, types.Optional):
        is_complex = _is_complex_type(x.type)

        def iscomplexobj_optional(x):
            if x is None:
                return False
            return is_complex

        return iscomplexobj_optional
    is_complex = _is_complex_type(x)
    return lambda x: is_complex


@overload(np.isrealobj)
def _isrealobj(x):
    return lambda x: not np.iscomplexobj(x)


def _infinity_test(negative):
    if negative:
        return register_jitable(lambda sign: sign)
    return register_jitable(lambda sign: ~sign)


def _isinf_of_sign(x, out, negative):
    if isinstance(x, types.Complex) or _is_complex_type(x):
        raise TypingError(
            f"np.{'isneginf' if negative else 'isposinf'} is not defined for complex numbers"
        )
    if not is_array_like(x):
        return None
    sign_matches = _infinity_test(negative)
    if isinstance(x, (types.List, types.BaseTuple)):  # a sequence: as an array
        if negative:
            return lambda x, out=None: np.isneginf(np.asarray(x), out)
        return lambda x, out=None: np.isposinf(np.asarray(x), out)
    if is_none(out):
        return lambda x, out=None: np.isinf(x) & sign_matches(np.signbit(x))
    if not isinstance(out, types.Array):
        return None

    def isinf_of_sign_out(x, out=None):
        out[...] = np.isinf(x) & sign_matches(np.signbit(x))
        return out

    return isinf_of_sign_out


@overload(np.isneginf)
def _isneginf(x, out=None):
    return _isinf_of_sign(x, out, True)


@overload(np.isposinf)
def _isposinf(x, out=None):
    return _isinf_of_sign(x, out, False)


_DEGREES_PER_RADIAN = float(180 / np.pi)


@overload(np.angle)
def _angle(z, deg=False):
    if isinstance(z, (types.Number, types.Boolean)):

        def angle_scalar(z, deg=False):
            if deg:
                return np.arctan2(z.imag, z.real) * _DEGREES_PER_RADIAN
            return np.arctan2(z.imag, z.real)

        return angle_scalar
    if isinstance(z, types.Array):
        dtype = z.dtype
        if isinstance(dtype, types.Complex):
            result = scalar_class(np.dtype(dtype.name).type(0).real.dtype)
        elif isinstance(dtype, types.Float):
            result = scalar_class(dtype.name)
        else:
            result = np.float64

        def angle_array(z, deg=False):
            out = np.empty(z.shape, dtype=result)
            for index, value in np.ndenumerate(z):
                out[index] = np.angle(value, deg)
            return out

        return angle_array
    raise TypingError(f'Argument "z" must be a complex or Array[complex]. Got {z}')


def _sinc_in(kind):
    """The compiled sinc of a number computed in ``kind`` (a float or complex class), as NumPy does:
    ``sin(pi * x) / (pi * x)`` with 1e-20 for 0."""
    pi = kind(np.pi)
    tiny = kind(1e-20)

    @register_jitable
    def sinc_of(x):
        value = kind(x)
        y = pi * (tiny if value == 0 else value)
        return np.sin(y) / y

    return sinc_of


@overload(np.sinc)
def _sinc(x):
    # A number is computed in double precision whatever its width, as in Numba (a float32 or
    # complex64 argument is most often a Python number typed by a signature).
    if isinstance(x, (types.Integer, types.Float, types.Boolean)):
        sinc_of = _sinc_in(np.float64)
        return lambda x: sinc_of(x)
    if isinstance(x, types.Complex):
        sinc_of = _sinc_in(np.complex128)
        return lambda x: sinc_of(x)
    if isinstance(x, types.Array):
        is_inexact = isinstance(x.dtype, (types.Float, types.Complex))
        result = scalar_class(x.dtype.name) if is_inexact else np.float64
        sinc_of = _sinc_in(result)

        def sinc_array(x):
            out = np.empty(x.shape, dtype=result)
            for index, value in np.ndenumerate(x):
                out[index] = sinc_of(value)
            return out

        return sinc_array
    raise TypingError('Argument "x" must be a Number or array-like.')


def _replacement(value, default):
    """The compiled ``value if value is not None else default`` for nan_to_num's posinf/neginf
    (a constant choice by type)."""
    if is_none(value):
        return register_jitable(lambda value, default: default)
    return register_jitable(lambda value, default: value)


@overload(np.nan_to_num)
def _nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    positive = _replacement(posinf, None)
    negative = _replacement(neginf, None)
    if isinstance(x, (types.Integer, types.Boolean)):
        return lambda x, copy=True, nan=0.0, posinf=None, neginf=None: x
    if isinstance(x, types.Float):
        kind = scalar_class(x.name)
        largest = np.finfo(kind).max

        def nan_to_num_float(x, copy=True, nan=0.0, posinf=None, neginf=None):
            if np.isnan(x):
                return kind(nan)
            if np.isinf(x):
                if x > 0:
                    return kind(positive(posinf, largest))
                return kind(negative(neginf, -largest))
            return x

        return nan_to_num_float
    if isinstance(x, types.Complex):

        def nan_to_num_complex(x, copy=True, nan=0.0, posinf=None, neginf=None):
            real = np.nan_to_num(x.real, nan=nan, posinf=posinf, neginf=neginf)
            imag = np.nan_to_num(x.imag, nan=nan, posinf=posinf, neginf=neginf)
            return complex(real, imag)

        return nan_to_num_complex
    if not is_array_like(x):
        raise TypingError("The first argument must be a scalar or an array-like")
    dtype = array_like_dtype(x)
    if dtype is None:
        raise TypingError("The first argument must be a scalar or an array-like")
    if dtype.kind in "biu":

        def nan_to_num_integers(x, copy=True, nan=0.0, posinf=None, neginf=None):
            if copy:
                return np.copy(np.asarray(x))
            return np.asarray(x)

        return nan_to_num_integers
    part = scalar_class(dtype.type(0).real.dtype)
    largest = np.finfo(part).max
    is_complex = dtype.kind == "c"

    @register_jitable
    def replaced(value, nan, posinf, neginf):
        if np.isnan(value):
            return part(nan)
        if np.isinf(value):
            if value > 0:
                return part(positive(posinf, largest))
            return part(negative(neginf, -largest))
        return value

    @register_jitable
    def replaced_item(value, nan, posinf, neginf):
        if is_complex:
            return complex(
                replaced(value.real, nan, posinf, neginf), replaced(value.imag, nan, posinf, neginf)
            )
        return replaced(value, nan, posinf, neginf)

    if not isinstance(x, types.Array) or x.layout == "C":

        def nan_to_num_contiguous(x, copy=True, nan=0.0, posinf=None, neginf=None):
            given = np.asarray(x)
            output = np.copy(given) if copy else given
            flat = output.reshape(output.size)
            for i in range(output.size):
                flat[i] = replaced_item(flat[i], nan, posinf, neginf)
            return output

        return nan_to_num_contiguous

    def nan_to_num_array(x, copy=True, nan=0.0, posinf=None, neginf=None):
        output = np.copy(x) if copy else x
        for index in np.ndindex(output.shape):
            output[index] = replaced_item(output[index], nan, posinf, neginf)
        return output

    return nan_to_num_array
