"""dtype arguments spelled every way NumPy takes them (a scalar class, an np.dtype instance, a
string such as 'int32', 'i4', '<f8', '?', 'c8', 'M8[D]', or a.dtype) to every creation function
and astype; *_like of a number (a 0-d prototype); arange's None bounds, complex bounds and
NumPy's fill rule; and Numba's messages for a string that is not a constant or names no dtype.
Results are compared with NumPy: values, dtype, shape; the allocation counters are checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

SPELLINGS = [
    ("int32", np.int32),
    ("i4", np.int32),
    ("<i4", np.int32),
    ("=i8", np.int64),
    ("int", np.int64),
    ("uint8", np.uint8),
    ("B", np.uint8),
    ("h", np.int16),
    ("f8", np.float64),
    ("d", np.float64),
    ("float32", np.float32),
    ("f", np.float32),
    ("float", np.float64),
    ("complex64", np.complex64),
    ("c8", np.complex64),
    ("D", np.complex128),
    ("complex", np.complex128),
    ("bool_", np.bool_),
    ("?", np.bool_),
    ("bool", np.bool_),
]


def same_array(got, expected):
    assert isinstance(got, np.ndarray)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def check(function, *args):
    before = live_blocks()
    compiled = taipan.njit(function)
    got = compiled(*args)
    expected = function(*args)
    same_array(got, expected)
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("text, dtype", SPELLINGS)
def test_string_spellings_to_shape_creators(text, dtype):
    # Each function is new per spelling: the string is a constant of the code.
    spelled = {"text": text}
    exec(  # noqa: S102 - the source is a constant of the compiled code
        "def zeros(n): return np.zeros(n, dtype=text)\n"
        "def ones(n): return np.ones((n, 2), text)\n"
        "def full(n): return np.full((2, n), 1, dtype=text)\n"
        "def empty(n): return np.empty(n, dtype=text).shape\n",
        {"np": np, **spelled},
        spelled,
    )
    for name in ("zeros", "ones", "full"):
        check(spelled[name], 3)
        check(spelled[name], 0)
    assert taipan.njit(spelled["empty"])(4) == (4,)
    assert np.zeros(1, dtype=text).dtype == np.dtype(dtype)


@pytest.mark.parametrize("text, dtype", SPELLINGS[:12])
def test_string_spellings_to_like_arange_array_astype(text, dtype):
    spelled = {"text": text}
    exec(  # noqa: S102 - the source is a constant of the compiled code
        "def zeros_like(a): return np.zeros_like(a, dtype=text)\n"
        "def ones_like(a): return np.ones_like(a, text)\n"
        "def full_like(a): return np.full_like(a, 2, dtype=text)\n"
        "def arange(n): return np.arange(n, dtype=text)\n"
        "def array(a): return np.array(a, dtype=text)\n"
        "def asarray(a): return np.asarray(a, text)\n"
        "def astype(a): return a.astype(text)\n",
        {"np": np, **spelled},
        spelled,
    )
    a = np.arange(12.0).reshape(3, 4)
    for layout in (a, np.asfortranarray(a), a[:, ::2], a[:0]):
        for name in ("zeros_like", "ones_like", "full_like", "array", "asarray", "astype"):
            check(spelled[name], layout)
    check(spelled["arange"], 5)


@pytest.mark.parametrize(
    "dtype", [np.int32, np.dtype("int32"), np.dtype(np.float32), np.complex64, np.bool_]
)
def test_class_and_dtype_instances(dtype):
    def creators(a):
        return (
            np.empty_like(a, dtype).shape,
            np.zeros_like(a, dtype=dtype),
            np.ones(3, dtype),
            np.full(2, 1, dtype),
            np.arange(2, dtype=dtype),
            a.astype(dtype),
        )

    compiled = taipan.njit(creators)
    a = np.linspace(0, 1, 6).reshape(2, 3)
    before = live_blocks()
    got, expected = compiled(a), creators(a)
    assert got[0] == expected[0]
    for g, e in zip(got[1:], expected[1:]):
        same_array(g, e)
    del got, g
    assert live_blocks() == before


def test_dtype_of_another_array():
    def f(a, b):
        return np.zeros(3, a.dtype), np.ones_like(b, dtype=a.dtype), b.astype(a.dtype)

    a, b = np.arange(3, dtype=np.int16), np.linspace(0, 5, 4)
    for g, e in zip(taipan.njit(f)(a, b), f(a, b)):
        same_array(g, e)


@pytest.mark.parametrize("prototype", [3.5, 7, True, 2 + 1j, np.float32(1.5)])
def test_like_of_a_number_is_0d(prototype):
    check(lambda x: np.zeros_like(x), prototype)
    check(lambda x: np.ones_like(x, dtype=np.int8), prototype)
    check(lambda x: np.full_like(x, 4), prototype)
    assert taipan.njit(lambda x: np.empty_like(x).shape)(prototype) == ()


def test_datetime_spellings():
    check(lambda n: np.zeros(n, "m8[s]"), 3)
    check(lambda n: np.ones(n, "timedelta64[ms]"), 3)
    check(lambda n: np.full(n, 5, "m8[D]"), 2)
    check(lambda n: np.zeros(n, "M8[D]"), 2)
    check(lambda n: np.ones(n, dtype="datetime64[s]"), 2)
    assert taipan.njit(lambda n: np.empty(n, "M8[ns]"))(3).dtype == np.dtype("M8[ns]")


@pytest.mark.parametrize(
    "args",
    [(5,), (5, None), (2, 9, None), (2, 9, None, None), (1.0, 2.0, 0.25), (10, 1, -3), (0, 0)],
)
def test_arange_none_bounds(args):
    f = {"args": args}
    exec(  # noqa: S102 - the source is a constant of the compiled code
        "def f(): return np.arange(" + ", ".join(map(repr, args)) + ")", {"np": np}, f
    )
    check(f["f"])


@pytest.mark.parametrize(
    "source",
    [
        "np.arange(1j)",
        "np.arange(3 + 0j)",
        "np.arange(1 + 0j, 5 + 2j, 1 + 0.5j)",
        "np.arange(0, 4j, 1j)",
        "np.arange(3, dtype='c8')",
        "np.arange(0.5, 3.2, 0.3)",
        "np.arange(0, 1 + 0.010101010101010102, 0.010101010101010102)",
        "np.arange(-1.5, 1.5, 0.1, np.float32)",
    ],
)
def test_arange_complex_and_numpy_fill_rule(source):
    f = {}
    exec(  # noqa: S102 - the source is a constant of the compiled code
        "def f(): return " + source, {"np": np}, f
    )
    check(f["f"])


def test_arange_of_booleans_longer_than_two():
    f = taipan.njit(lambda n: np.arange(n, dtype=np.bool_))
    same_array(f(2), np.arange(2, dtype=np.bool_))
    with pytest.raises(TypeError, match="only supported for booleans"):
        f(3)


def test_arange_zero_step():
    for step in (0, 0.0, 0j):
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            taipan.njit(lambda s: np.arange(0, 3, s))(step)


def test_string_errors_name_the_line():
    with pytest.raises(TypingError, match="Invalid NumPy dtype specified: 'ABCDEF'") as caught:
        taipan.njit(lambda n: np.zeros(n, dtype="ABCDEF"))(3)
    assert "test_np_dtype_spellings.py" in str(caught.value)
    with pytest.raises(TypingError, match="If np.ones_like dtype is a string it must be a string"):
        taipan.njit(lambda a, d: np.ones_like(a, dtype=d))(np.ones(2), "int32")
    with pytest.raises(TypingError, match="Invalid NumPy dtype specified: '>i4'"):
        taipan.njit(lambda: np.empty(2, ">i4"))()
    with pytest.raises(TypingError, match="cannot make float64 items from complex bounds"):
        taipan.njit(lambda: np.arange(1j, dtype=np.float64))()
