"""A result converting to an explicit signature's return type: one check serves a signature
compiled from Python and a call of it from compiled code (InferencePass::checkDeclaredReturn).
A user type's value returned through a number signature converts by its type's lower_cast
(Numba's can_convert_to, then lower_cast) both ways; taipan used to refuse it when the call came
from compiled code ("does not convert to its declared return type")."""

import enum

import numpy as np
import pytest
from struct_user_types import no_leaks, struct_user_type  # noqa: F401 - the autouse fixture

from taipan import njit, types
from taipan.errors import TypingError


class Weight:
    """A value in grams, converting to any float (and to nothing else) in compiled code."""

    def __init__(self, grams):
        self.grams = grams


WEIGHT = struct_user_type(
    "Weight", {"grams": types.float64}, python_class=Weight, converts_to=types.Float
)
weight_type = WEIGHT.type


def identity(value):
    return value


as_float64 = njit(types.float64(weight_type))(identity)
as_float32 = njit(types.float32(weight_type))(identity)
as_either = njit([types.float32(weight_type), types.float64(types.float64)])(identity)


@njit
def call_float64(weight):
    return as_float64(weight)


@njit
def call_float32(weight):
    return as_float32(weight)


@njit
def call_either(weight, x):
    return as_either(weight), as_either(x)


@njit
def use_in_arithmetic(weight, x):
    return as_float64(weight) * x + as_float32(weight)


@pytest.mark.parametrize("grams", [3.5, -0.0, 0.1, 1e300, float("inf")])
def test_user_type_through_a_number_signature_from_compiled_code(grams):
    weight = Weight(grams)
    assert call_float64(weight) == as_float64(weight) == grams
    assert type(call_float64(weight)) is float
    # float32 rounding (and overflow to inf) is the declared type's, as from Python
    with np.errstate(over="ignore"):
        narrowed = np.float64(grams).astype(np.float32)
    assert call_float32(weight) == as_float32(weight) == narrowed


def test_best_signature_then_the_user_types_cast():
    narrowed, wide = call_either(Weight(0.1), 0.1)
    assert narrowed == as_either(Weight(0.1)) == np.float32(0.1)
    assert wide == as_either(0.1) == 0.1


def test_converted_result_feeds_arithmetic():
    weight = Weight(0.1)
    expected = as_float64(weight) * 3.0 + as_float32(weight)
    assert use_in_arithmetic(weight, 3.0) == expected


def test_can_convert_to_refusal_is_the_same_error_both_ways():
    # A Weight converts to floats only: an int64 signature is refused, naming the function.
    with pytest.raises(TypingError, match=r"identity\(\) returns Weight, which does not convert"):
        njit(types.int64(weight_type))(identity)


def test_non_numbers_are_refused_naming_the_function():
    def make_array(n):
        return np.zeros(n)

    with pytest.raises(TypingError, match=r"make_array\(\) returns array.*int64"):
        njit(types.int64(types.int64))(make_array)


class Size(enum.IntEnum):
    small = 1
    large = 1 << 40


@njit(["int32(int64)"])
def size_of(flag):
    return Size.large if flag else Size.small


@njit
def call_size_of(flag):
    return size_of(flag)


@pytest.mark.parametrize("flag", [0, 1])
def test_int_enum_member_through_a_narrower_signature(flag):
    # int32 wraps 1 << 40 to 0, as a call from Python does.
    wrapped = np.int64(Size.large if flag else Size.small).astype(np.int32)
    assert call_size_of(flag) == size_of(flag) == wrapped
