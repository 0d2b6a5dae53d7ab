"""``x.view(np.<dtype>)`` of a NumPy integer or float: its bits as another integer or float type
of the same width (Numba's page, "Scalar types"), compared with NumPy's scalar view."""

import numpy as np
import pytest

import taipan

PAIRS = [
    (np.int64, -1, np.uint64),
    (np.uint64, 2**63 + 5, np.int64),
    (np.float64, 1.5, np.int64),
    (np.float64, -0.0, np.uint64),
    (np.int64, 4609434218613702656, np.float64),
    (np.float32, -2.0, np.uint32),
    (np.int32, -7, np.float32),
    (np.uint16, 65535, np.int16),
    (np.int8, -128, np.uint8),
    (np.uint8, 255, np.int8),
    (np.float64, float("nan"), np.int64),
]


@pytest.mark.parametrize("source, value, target", PAIRS)
def test_view_of_a_constructed_scalar(source, value, target):
    @taipan.njit
    def bits(value):
        return source(value).view(target)

    want = source(value).view(target)
    got = bits(value)
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == want


def test_view_of_an_argument_and_of_an_array_item():
    @taipan.njit
    def bits(x, a):
        return x.view(np.int64), a[1].view(np.uint32)

    a = np.array([1.0, -3.5, 2.0], dtype=np.float32)
    assert bits(2.5, a) == (np.float64(2.5).view(np.int64), a[1].view(np.uint32))


def test_view_to_another_width_is_a_typing_error():
    @taipan.njit
    def bits(x):
        return np.int32(x).view(np.float64)

    with pytest.raises(taipan.TypingError, match="same width"):
        bits(3)


@pytest.mark.parametrize("target", [np.complex128, np.bool_])
def test_view_to_other_kinds_is_refused(target):
    @taipan.njit
    def bits(x):
        return np.int64(x).view(target)

    with pytest.raises(taipan.TypingError):
        bits(3)
