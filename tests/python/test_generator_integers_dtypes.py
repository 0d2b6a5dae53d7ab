"""``Generator.integers`` of every dtype NumPy allows, bit for bit with NumPy's stream.

8- and 16-bit dtypes and bool draw from a 32-bit word NumPy shares among several draws of one
fill (its ``buffered_uint8``/``uint16``/``bounded_bool``): the unused bits serve the next
element of the same call and are dropped at the call's end, so sized and scalar calls, and
calls in a row, consume the stream as NumPy's do. The state after the calls is compared too.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_random_generator import BIT_GENERATORS, assert_same_draws

from taipan import njit
from taipan.errors import TypingError

NARROW_DTYPES = [np.int8, np.uint8, np.int16, np.uint16]
ALL_DTYPES = [*NARROW_DTYPES, np.int32, np.uint32, np.int64, np.uint64]


def caller(dtype):
    """Scalar, sized and endpoint draws of `dtype`, several in a row (the buffer is per call)."""
    namespace = {"np": np, "dtype": dtype}
    exec(  # noqa: S102 - one jitted function per dtype, each with its dtype as a global
        "def draw(rng, low, high, size):\n"
        "    a = rng.integers(low, high, dtype=dtype)\n"
        "    b = rng.integers(low, high, size=size, dtype=dtype)\n"
        "    c = rng.integers(low, high, size=(2, 3), dtype=dtype, endpoint=True)\n"
        "    d = rng.integers(low, high, dtype=dtype, endpoint=True)\n"
        "    e = rng.integers(high, size=size, dtype=dtype)\n"
        "    return a, b, c, d, e\n",
        namespace,
    )
    return njit(namespace["draw"])


CALLERS = {dtype: caller(dtype) for dtype in [*ALL_DTYPES, np.bool_]}


def ranges(dtype):
    info = np.iinfo(dtype)
    low, high = int(info.min), int(info.max)
    # full width (Lemire is skipped), one value, tiny, odd, around zero, near the top
    return [(low, high), (3, 4), (0, 2), (1, 100), (max(low, -7), 9), (high - 40, high)]


@pytest.mark.parametrize("dtype", NARROW_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS, ids=lambda b: b.__name__)
@pytest.mark.parametrize("size", [1, 7, 33])
def test_narrow_integers_match_numpy(dtype, bit_generator, size):
    for low, high in ranges(dtype):
        assert_same_draws(CALLERS[dtype], bit_generator, 11, low, high, size)


@pytest.mark.parametrize("dtype", ALL_DTYPES[4:], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("size", [1, 7])
def test_wide_integers_still_match_numpy(dtype, size):
    for low, high in [(1, 100), (3, 4), (0, 2**31 - 1)]:
        assert_same_draws(CALLERS[dtype], np.random.PCG64, 5, low, high, size)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS, ids=lambda b: b.__name__)
@pytest.mark.parametrize("size", [1, 40, 100])
def test_bool_integers_match_numpy(bit_generator, size):
    # One 32-bit word serves 32 draws; [0, 0] and [1, 1] draw nothing.
    for low, high in [(0, 1), (0, 0), (1, 1)]:
        assert_same_draws(CALLERS[np.bool_], bit_generator, 3, low, high, size)


@njit
def int8_in_loop(rng, n):
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = rng.integers(-5, 6, dtype=np.int8) + rng.integers(0, 300, dtype=np.uint16)
    return out


def test_scalar_narrow_draws_in_a_loop_match_numpy():
    assert_same_draws(int8_in_loop, np.random.PCG64, 0, 50)


@njit
def narrow_bounds(rng, low, high):
    return rng.integers(low, high, dtype=np.int8)


@njit
def uint16_bounds(rng, low, high):
    return rng.integers(low, high, size=3, dtype=np.uint16, endpoint=True)


@njit
def bool_bounds(rng, low, high):
    return rng.integers(low, high, dtype=np.bool_)


@pytest.mark.parametrize(
    "f, low, high",
    [
        (narrow_bounds, -129, 0),
        (narrow_bounds, 0, 129),
        (narrow_bounds, 0, 128),
        (narrow_bounds, 5, 5),
        (narrow_bounds, 0, 0),
        (uint16_bounds, -1, 3),
        (uint16_bounds, 0, 65536),
        (uint16_bounds, 0, 65535),
        (uint16_bounds, 7, 6),
        (bool_bounds, 0, 3),
        (bool_bounds, -1, 1),
        (bool_bounds, 0, 2),
    ],
)
def test_narrow_bounds_raise_as_numpy(f, low, high):
    assert_same_draws(f, np.random.PCG64, 1, low, high)


def test_float_dtype_is_refused_naming_the_dtype():
    @njit
    def floats(rng):
        return rng.integers(0, 5, dtype=np.float64)

    with pytest.raises(TypingError, match="dtype must be an integer dtype or bool, not float64"):
        floats(np.random.default_rng(0))
