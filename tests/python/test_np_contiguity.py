"""np.ascontiguousarray, np.asfortranarray, np.asarray_chkfinite and np.isscalar in compiled
code, compared with NumPy: values, shapes, dtypes, the memory order of the result, whether it
shares the argument's memory (an array already of the wanted layout is returned itself)."""

import numpy as np
import pytest
from conftest import assert_raises_same

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def contiguous(a):
    return np.ascontiguousarray(a)


@taipan.njit
def fortran(a):
    return np.asfortranarray(a)


@taipan.njit
def checked(a):
    return np.asarray_chkfinite(a)


@taipan.njit
def checked_as(a):
    return np.asarray_chkfinite(a, np.float32)


@taipan.njit
def scalar_answer(x):
    return np.isscalar(x)


@taipan.njit
def write_through_contiguous(a):
    np.ascontiguousarray(a)[0] = -1
    return a


GRID = np.arange(12.0).reshape(3, 4)
ARRAYS = [
    GRID,
    GRID.T,
    GRID[:, ::2],
    np.arange(5, dtype=np.int32),
    np.arange(10, dtype=np.uint8)[::3],
    np.array(3.0),
    np.zeros((0, 3)),
    np.zeros((3, 0), order="F"),
    np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, 1:, ::2],
    np.array([True, False, True]),
    np.array([1 + 2j, -0.0 - 1j, np.nan]),
    np.array([-0.0, np.inf, -np.inf]),
]


def check_like(got, want, argument):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    if argument.ndim and argument.flags.c_contiguous and argument.flags.f_contiguous:
        return  # NumPy shares; taipan shares only when the layout is known (checked below)
    if argument.ndim != 0:
        assert np.shares_memory(got, argument) == np.shares_memory(want, argument)


@pytest.mark.parametrize("index", range(len(ARRAYS)))
def test_layouts_like_numpy(index):
    argument = ARRAYS[index]
    before = live_blocks()
    for compiled, reference in ((contiguous, np.ascontiguousarray), (fortran, np.asfortranarray)):
        got = compiled(argument)
        check_like(got, reference(argument), argument)
        del got
    assert live_blocks() == before


def test_known_layout_is_returned_itself():
    a = np.arange(6.0)
    assert contiguous(a) is not None and np.shares_memory(contiguous(a), a)
    f = np.asfortranarray(GRID)
    assert np.shares_memory(fortran(f), f)
    b = np.arange(4)
    write_through_contiguous(b)
    assert b[0] == -1
    c = np.arange(8)[::2]
    write_through_contiguous(c)  # a copy: the argument is unchanged
    assert c[0] == 0


@pytest.mark.parametrize("value", [3.5, 2, True, 1 - 1j])
def test_scalars_become_one_element_arrays(value):
    for compiled, reference in ((contiguous, np.ascontiguousarray), (fortran, np.asfortranarray)):
        got = compiled(value)
        want = reference(value)
        assert got.shape == want.shape == (1,) and got[0] == want[0]
        assert got.dtype == want.dtype


@pytest.mark.parametrize(
    "a",
    [
        GRID,
        GRID.T,
        np.arange(5, dtype=np.int64),
        np.zeros(0),
        np.array([-0.0, 1e308]),
        np.array([1.0, np.nan]),
        np.array([np.inf, 0.0]),
        np.array([[0.0, 1.0], [-np.inf, 2.0]])[:, ::-1],
        np.array([1 + 1j, complex(0, np.nan)]),
        np.array(np.nan),
        np.array([True, False]),
    ],
)
def test_asarray_chkfinite_like_numpy(a):
    before = live_blocks()
    # (np.asarray of complex to float32 is not taipan's to decide here: checked_as skips it)
    for compiled in (checked,) if a.dtype.kind == "c" else (checked, checked_as):
        try:
            want = compiled.py_func(a)
        except ValueError:
            assert_raises_same(compiled, a)
            continue
        assert_equal_arrays(compiled(a), want)
    assert live_blocks() == before


def assert_equal_arrays(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_asarray_chkfinite_of_a_tuple_and_scalar():
    assert_equal_arrays(checked((1.0, 2.0, 3.0)), np.asarray_chkfinite((1.0, 2.0, 3.0)))
    assert_equal_arrays(checked(2.5), np.asarray_chkfinite(2.5))
    assert_raises_same(checked, (1.0, np.inf))


@pytest.mark.parametrize(
    "value",
    [1, 1.5, True, 1j, np.float32(2), np.int8(3), "text", GRID, np.array(3.0), (1, 2), None],
)
def test_isscalar_like_numpy(value):
    assert scalar_answer(value) is np.isscalar(value)


def test_refused_arguments_name_the_function():
    @taipan.njit
    def with_dtype(a):
        return np.ascontiguousarray(a, dtype=np.float32)

    with pytest.raises(TypingError, match="ascontiguousarray"):
        with_dtype(GRID)
