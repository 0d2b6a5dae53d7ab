"""Reductions NumPy defines for more dtypes and keywords: min/max/argmin/argmax of datetime64 and
timedelta64 arrays (NaT wins, as NaN does), sum/cumsum/mean of timedelta64 (NaT propagates, an
empty mean is NaT), the dtype keyword of sum and prod (the dtype NumPy accumulates in), and
products that multiply in order as NumPy does (float32 results to the last bit). Compared with
NumPy across shapes (0-d, empty, 1-3-d) and layouts (C, F, strided); counters checked."""

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


def layouts(a):
    """The array, its Fortran copy and a strided view of it (for 2-d and more)."""
    yield a
    if a.ndim >= 2:
        yield np.asfortranarray(a)
        yield a[..., ::2]
    if a.ndim == 1 and a.size > 2:
        yield a[::-2]


def same(got, expected):
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)  # NaT equals NaT here
        return
    expected = np.asarray(expected)
    got = np.asarray(got, dtype=expected.dtype)
    assert got.dtype == expected.dtype
    if expected.dtype.kind in "mM":
        assert (np.isnat(got) and np.isnat(expected)) or got == expected, (got, expected)
    else:
        assert got.tobytes() == expected.tobytes(), (got, expected)


def check(function, a):
    compiled = taipan.njit(function)
    before = live_blocks()
    expected_error = None
    try:
        expected = function(a)
    except Exception as error:  # noqa: BLE001 - both must raise alike
        expected_error = error
    if expected_error is not None:
        with pytest.raises(type(expected_error)):
            compiled(a)
    else:
        same(compiled(a), expected)
    assert live_blocks() == before


def datetimes(unit, with_nat):
    values = np.array([5, -3, 17, 2, 17, -3, 0, 9, 11, 4, 6, 1], dtype="int64")
    if with_nat:
        values[[3, 8]] = np.iinfo(np.int64).min
    return values.view(f"M8[{unit}]")


EXTREMES = [
    lambda a: a.min(),
    lambda a: a.max(),
    lambda a: a.argmin(),
    lambda a: a.argmax(),
    lambda a: np.min(a),
    lambda a: np.amax(a),
    lambda a: np.argmin(a),
]


@pytest.mark.parametrize("kind", ["M8", "m8"])
@pytest.mark.parametrize("unit", ["D", "s", "ns", "Y"])
@pytest.mark.parametrize("with_nat", [False, True])
@pytest.mark.parametrize("shape", [(12,), (3, 4), (2, 3, 2)])
def test_extremes_of_datetimes(kind, unit, with_nat, shape):
    a = datetimes(unit, with_nat).view(f"{kind}[{unit}]").reshape(shape)
    for view in layouts(a):
        for function in EXTREMES:
            check(function, view)


def test_extremes_along_an_axis_and_of_only_nat():
    a = datetimes("s", True).view("m8[s]").reshape(3, 4)
    f = taipan.njit(lambda a, axis: (np.min(a, axis), np.argmax(a, axis)))
    for axis in (0, 1, -1):
        got, expected = f(a, axis), f.py_func(a, axis)
        for g, e in zip(got, expected):
            same(g, e)
    only_nat = np.array(["NaT", "NaT"], dtype="M8[D]")
    for function in EXTREMES:
        check(function, only_nat)


def test_extremes_of_empty_datetimes_raise():
    empty = np.array([], dtype="M8[D]")
    with pytest.raises(ValueError):
        taipan.njit(lambda a: a.min())(empty)
    with pytest.raises(ValueError):
        taipan.njit(lambda a: a.argmax())(empty)


TIMEDELTA_REDUCTIONS = [
    lambda a: a.sum(),
    lambda a: np.sum(a),
    lambda a: a.cumsum(),
    lambda a: np.cumsum(a),
    lambda a: a.mean(),
    lambda a: np.mean(a),
]


@pytest.mark.parametrize("unit", ["s", "ms", "D", "Y"])
@pytest.mark.parametrize("with_nat", [False, True])
@pytest.mark.parametrize("shape", [(12,), (0,), (3, 4), (2, 3, 2)])
def test_timedelta_sums_and_means(unit, with_nat, shape):
    a = datetimes(unit, with_nat).view(f"m8[{unit}]")[: int(np.prod(shape))].reshape(shape)
    for view in layouts(a):
        for function in TIMEDELTA_REDUCTIONS:
            check(function, view)


def test_timedelta_mean_rounds_as_numpy():
    for values in ([7, 2], [-7, 2], [1, 1, 1], [5]):
        check(lambda a: a.mean(), np.array(values, dtype="m8[s]"))


@pytest.mark.parametrize(
    "source",
    [
        "a.sum()",
        "np.cumsum(a)",
        "a.std()",
        "np.var(a)",
        "a.prod()",
    ],
)
def test_refused_datetime_reductions_name_the_line(source):
    f = {}
    exec(  # noqa: S102 - the source is a constant of the compiled code
        "def f(a): return " + source, {"np": np}, f
    )
    array = np.array(["2000-01-01"], dtype="M8[D]")
    with pytest.raises(TypingError, match="not supported") as caught:
        taipan.njit(f["f"])(array)
    assert "line 1" in str(caught.value) or "<string>" in str(caught.value)


def test_timedelta_products_are_refused():
    with pytest.raises(TypingError, match="not supported"):
        taipan.njit(lambda a: a.cumprod())(np.array([1], dtype="m8[s]"))
    with pytest.raises(TypingError, match="not supported"):
        taipan.njit(lambda a: a.prod())(np.array([1], dtype="m8[s]"))


FLOAT32_ARRAYS = [
    np.arange(1, 10, dtype=np.float32) / 10,
    (np.arange(1, 13, dtype=np.float32) / 10).reshape(3, 4),
    (np.arange(1, 13, dtype=np.float32)[::-1] / 10).reshape(2, 3, 2),
    np.linspace(0.9, 1.1, 1001).astype(np.float32),
    (np.arange(1, 13, dtype=np.complex64) / 10 + 1j / 11).reshape(3, 4),
]


@pytest.mark.parametrize("index", range(len(FLOAT32_ARRAYS)))
def test_products_multiply_in_order(index):
    for view in layouts(FLOAT32_ARRAYS[index]):
        check(lambda a: a.prod(), view)
        check(lambda a: np.prod(a), view)
        check(lambda a: np.nanprod(a), view)
        if not view.flags.f_contiguous or view.ndim == 1:
            # An array expression is folded as computed, in C order; NumPy would make an F
            # array of an F operand and multiply in its memory order (2 ulps apart in float32).
            check(lambda a: np.prod(a * 1), view)


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int32, np.uint16, np.float32, np.float64, np.complex64, "i4", "f4"]
)
def test_sum_and_prod_dtype_keyword(dtype):
    a = np.arange(1, 13).reshape(3, 4)
    spelled = {"dtype": dtype}
    exec(  # noqa: S102 - the source is a constant of the compiled code
        "def whole(a): return a.sum(dtype=dtype)\n"
        "def function(a): return np.sum(a, dtype=dtype)\n"
        "def positional(a): return np.sum(a, 0, dtype)\n"
        "def method_axis(a): return a.sum(axis=1, dtype=dtype)\n"
        "def product(a): return np.prod(a, dtype=dtype)\n"
        "def expression(a): return np.sum(a * 3, dtype=dtype)\n",
        {"np": np, **spelled},
        spelled,
    )
    for view in layouts(a):
        for name in ("whole", "function", "positional", "method_axis", "product", "expression"):
            check(spelled[name], view)
    check(spelled["whole"], np.array([], dtype=np.int64))
    check(spelled["whole"], np.array(7))


def test_empty_argmin_argmax_messages_are_numpys():
    for function in (lambda a: a.argmin(), lambda a: np.argmax(a)):
        compiled = taipan.njit(function)
        for empty in (np.zeros(0), np.zeros((0, 3)), np.array([], dtype="M8[s]")):
            with pytest.raises(ValueError) as expected:
                function(empty)
            with pytest.raises(ValueError, match=str(expected.value)):
                compiled(empty)


SCALAR_REDUCTIONS = [
    lambda x: np.sum(x),
    lambda x: np.prod(x),
    lambda x: np.min(x),
    lambda x: np.amax(x),
    lambda x: np.argmin(x),
    lambda x: np.argmax(x),
    lambda x: np.mean(x),
    lambda x: np.var(x),
    lambda x: np.std(x),
    lambda x: np.any(x),
    lambda x: np.all(x),
]


@pytest.mark.parametrize(
    "value",
    [3, -7, True, False, 2.5, -0.0, float("nan"), float("inf"), np.float32(21.0), 1 + 2j],
)
def test_reductions_of_a_number_are_those_of_a_0d_array(value):
    for function in SCALAR_REDUCTIONS:
        if isinstance(value, complex) and function in SCALAR_REDUCTIONS[2:6]:
            continue  # no order of complex numbers in compiled code
        compiled = taipan.njit(function)
        before = live_blocks()
        got, expected = compiled(value), function(value)
        assert got == expected or (np.isnan(got) and np.isnan(expected)), (got, expected)
        assert live_blocks() == before


def test_reduction_of_a_number_refuses_an_axis():
    with pytest.raises(TypingError, match="takes no axis"):
        taipan.njit(lambda x: np.sum(x, axis=0))(3.0)


def test_reductions_of_a_datetime_scalar():
    for value in (np.datetime64("2000-01-02", "D"), np.timedelta64(5, "s")):
        for function in (lambda x: np.min(x), lambda x: np.amax(x), lambda x: np.any(x)):
            got, expected = taipan.njit(function)(value), function(value)
            assert got == expected, (got, expected)
    assert taipan.njit(lambda x: np.mean(x))(np.timedelta64(7, "D")) == np.timedelta64(7, "D")
