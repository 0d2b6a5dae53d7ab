"""np.clip and a.clip written in Python (numpy_library/clipping.py): NumPy's values and result
dtype across dtypes, shapes (0-d, empty, 1-3-d), layouts, None bounds, array bounds that
broadcast, and ``out``; Numba's TypingErrors at the user's line; counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def clip(a, a_min, a_max):
    return np.clip(a, a_min, a_max)


@taipan.njit
def clip_out(a, a_min, a_max, out):
    return np.clip(a, a_min, a_max, out=out)


@taipan.njit
def clip_method(a, a_min, a_max):
    return a.clip(a_min, a_max)


@taipan.njit
def clip_method_out(a, a_min, a_max, out):
    return a.clip(a_min, a_max, out)


def layouts(a):
    yield a
    if a.ndim >= 1:
        yield a[::-2]
    if a.ndim >= 2:
        yield np.asfortranarray(a)
        yield a.T[::2]


SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 4)]
DTYPES = [np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64, np.bool_]
BOUNDS = [(-2, 3), (None, 3), (-2, None), (1.5, 2.5), (np.float32(0.5), 2)]


def same_array(got, expected):
    """The same values; an array of the same dtype and shape, or a number where NumPy gives a
    scalar (compiled code returns NumPy scalars as Python numbers)."""
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray), (got, expected)
        assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    else:
        assert not isinstance(got, np.ndarray), (got, expected)
        assert np.asarray(got).dtype.kind == expected.dtype.kind or expected.dtype.kind in "iub"
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_clip_matches_numpy(shape, dtype):
    base = (np.arange(int(np.prod(shape))) - 3).astype(dtype).reshape(shape)
    before = live_blocks()
    for a in layouts(base):
        for low, high in BOUNDS:
            if dtype is np.bool_ and (low is not None and not isinstance(low, int)):
                continue
            same_array(clip(a, low, high), np.clip(a, low, high))
            same_array(clip_method(a, low, high), np.clip(a, low, high))
    assert live_blocks() == before


def test_clip_floats_propagate_nan():
    a = np.array([np.nan, -np.inf, 0.5, np.inf, -0.0])
    same_array(clip(a, -1.0, 1.0), np.clip(a, -1.0, 1.0))
    same_array(clip(a, np.nan, 1.0), np.clip(a, np.nan, 1.0))
    same_array(clip(a, -1.0, np.nan), np.clip(a, -1.0, np.nan))


def test_clip_of_numbers_gives_numpy_scalars():
    for value, low, high in [(3.5, 0, 1), (np.float32(3.5), 0, 1), (-4, -2, 2), (True, 0, 0)]:
        same_array(clip(value, low, high), np.clip(value, low, high))


def test_clip_with_array_bounds_broadcasts():
    a = np.linspace(-10, 10, 40).reshape(5, 2, 4)
    lows = np.arange(-8, 0).astype(float).reshape(2, 4)
    highs = np.arange(0, 8).astype(float).reshape(2, 4)
    before = live_blocks()
    for low, high in [(lows, highs), (lows, 5), (-5, highs), (None, highs), (lows, None)]:
        same_array(clip(a, low, high), np.clip(a, low, high))
        same_array(clip(np.asfortranarray(a), low, high), np.clip(a, low, high))
    # a smaller a broadcast to the bounds' shape
    same_array(clip(np.arange(4.0), lows, highs), np.clip(np.arange(4.0), lows, highs))
    assert live_blocks() == before


def test_clip_bounds_that_do_not_broadcast_raise():
    a = np.linspace(-10, 10, 40).reshape(5, 2, 4)
    low = np.arange(-5, 0).astype(float).reshape(5, 1)
    with pytest.raises(ValueError, match="shape mismatch: objects cannot be broadcast"):
        clip(a, low, 5)


def test_clip_into_out():
    before = live_blocks()
    for shape in [(), (7,), (3, 4), (2, 3, 4)]:
        a = np.arange(-10, -10 + 2 * int(np.prod(shape)), 2).astype(float).reshape(shape)
        for low, high in BOUNDS:
            for out in (np.empty(shape), np.empty(shape, order="F")):
                expected = np.clip(a, low, high)
                got = clip_out(a, low, high, out)
                assert got is out
                np.testing.assert_array_equal(out, expected)
                out2 = np.empty(shape)
                assert clip_method_out(a, low, high, out2) is out2
                np.testing.assert_array_equal(out2, expected)
    # out may be a itself, or an int array receiving a float result (NumPy's same_kind refuses
    # that; taipan casts as ufunc outputs do)
    a = np.linspace(-3, 3, 13)
    expected = np.clip(a, -1, 1)
    assert clip_out(a, -1, 1, a) is a
    np.testing.assert_array_equal(a, expected)
    assert live_blocks() == before


def test_clip_out_of_another_shape_raises_and_writes_nothing():
    buf = np.full(8, 999.0)
    with pytest.raises(ValueError, match="the shape of the 'out' array does not match"):
        clip_out(np.arange(5.0), 0.0, 3.0, buf[:3])
    np.testing.assert_array_equal(buf, np.full(8, 999.0))


def test_clip_without_bounds_copies_as_numpy_2():
    a = np.arange(5.0)
    got = clip(a, None, None)
    np.testing.assert_array_equal(got, a)
    assert got is not a


def typing_error(f, *args):
    with pytest.raises(TypingError) as info:
        f(*args)
    message = str(info.value)
    assert "test_np_clip.py" in message  # the user's line
    return message


def test_clip_refusals_name_the_users_line():
    assert 'The argument "a" must be array-like' in typing_error(clip, None, 0, 10)
    assert 'The argument "a_min" must be a number' in typing_error(clip, 1, "a", 10)
    assert 'The argument "a_max" must be a number' in typing_error(clip, 1, 1, "b")
    assert 'The argument "out" must be an array' in typing_error(clip_out, 5, 1, 10, 6)
    assert "same number of dimensions" in typing_error(
        clip_out, np.arange(5.0), 0.0, 3.0, np.empty((2, 5))
    )
    z = np.array([1 + 2j, -3 + 0.5j])
    assert "no implementation of numpy.clip" in typing_error(clip, z, 0, 1)
    ro = np.zeros(3)
    ro.flags.writeable = False
    assert "read-only" in typing_error(clip_out, np.arange(3.0), 0, 1, ro)
