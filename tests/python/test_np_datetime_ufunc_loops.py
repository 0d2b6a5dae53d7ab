"""NumPy's datetime64/timedelta64 loops of its ufuncs on arrays and scalars, beyond add and
subtract: comparisons, maximum/minimum/fmax/fmin, negative/positive/absolute/sign, multiply
and divide by numbers, floor_divide, remainder, divmod, true_divide of two timedeltas,
isnan/isinf/isfinite/isnat; NumPy's type resolution (unit promotion, integers read as counts),
its NaT rules, outputs of other units or kinds (NumPy's same_kind casting), and a TypingError
at the user's line where NumPy has no loop. Compared with NumPy; counters checked."""

import itertools

import numpy as np
import pytest

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks

NAT = np.iinfo(np.int64).min

BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "remainder",
    "mod",
    "divmod",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
]
UNARY = ["negative", "positive", "absolute", "sign", "isnan", "isinf", "isfinite", "isnat"]
DTYPES = ["m8[s]", "m8[m]", "M8[s]", "M8[D]", "m8[Y]", "M8[Y]", "i1", "u8", "i8", "?", "f4", "f8"]


def sample(dtype, seed=0):
    """Eight values of `dtype`: datetime-likes with NaT, zero and negative counts; numbers with
    zeros (and NaN, infinity for floats)."""
    rng = np.random.default_rng(seed)
    if dtype[0] in "mM":
        counts = rng.integers(-400, 400, 8)
        counts[1], counts[2] = NAT, 0
        return counts.astype(dtype)
    if dtype == "?":
        return rng.integers(0, 2, 8).astype(bool)
    if dtype[0] in "iu":
        return rng.integers(0 if dtype[0] == "u" else -5, 6, 8).astype(dtype)
    return np.array([1.5, -2.25, 0.0, np.nan, 3.0, -0.5, np.inf, 7.0], dtype)


_compiled = {}


def ufunc_caller(name, inputs, with_output=False):
    """A jitted function calling np.<name> on its arguments (the last one the output)."""
    key = (name, inputs, with_output)
    if key not in _compiled:
        names = ", ".join("abcd"[: inputs + with_output])
        namespace = {"np": np}
        exec(f"def call({names}):\n    return np.{name}({names})\n", namespace)  # noqa: S102
        _compiled[key] = taipan.njit(namespace["call"])
    return _compiled[key]


def assert_same_arrays(got, expected):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same_arrays(g, e)
        return
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype.kind in "mM":  # NaT compares unequal: compare the counts
        assert got.view("i8").tolist() == expected.view("i8").tolist()
    else:
        np.testing.assert_array_equal(got, expected)


def numpy_or_error(function, *args):
    with np.errstate(all="ignore"):  # NumPy's warnings of NaT and zero divisors
        try:
            return function(*args), None
        except TypeError as error:  # NumPy's UFuncTypeError: no loop for these types
            return None, error


@pytest.mark.parametrize("name", BINARY)
def test_binary_loops_against_numpy(name):
    before = live_blocks()
    compiled = ufunc_caller(name, 2)
    for left, right in itertools.product(DTYPES, DTYPES):
        if left[0] not in "mM" and right[0] not in "mM":
            continue
        a, b = sample(left, 1), sample(right, 2)
        expected, refused = numpy_or_error(getattr(np, name), a, b)
        if refused is not None:
            with pytest.raises(TypingError):
                compiled(a, b)
            continue
        assert_same_arrays(compiled(a, b), expected)
    assert live_blocks() == before


@pytest.mark.parametrize("name", UNARY)
def test_unary_loops_against_numpy(name):
    before = live_blocks()
    compiled = ufunc_caller(name, 1)
    for dtype in ["m8[s]", "m8[Y]", "M8[D]", "M8[ns]", "m8"]:
        a = sample(dtype, 3)
        expected, refused = numpy_or_error(getattr(np, name), a)
        if refused is not None:
            with pytest.raises(TypingError):
                compiled(a)
            continue
        assert_same_arrays(compiled(a), expected)
    assert live_blocks() == before


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_nat_rules():
    a = np.array([5, "NaT", "NaT", -3, 0], "m8[s]")
    b = np.array(["NaT", 2, "NaT", 0, -1], "m8[m]")
    before = live_blocks()
    for name in ["maximum", "minimum", "fmax", "fmin", "floor_divide", "remainder", "divide"]:
        for x, y in [(a, b), (b, a)]:
            assert_same_arrays(ufunc_caller(name, 2)(x, y), getattr(np, name)(x, y))
    assert_same_arrays(ufunc_caller("divmod", 2)(a, b), np.divmod(a, b))
    # NaT is the smallest int64: its negation and magnitude are NaT, its sign -1 (NumPy < 2.5)
    # or NaN (NumPy >= 2.5, whose sign of a timedelta is a float64: the installed one decides).
    for name in ["sign", "negative", "absolute"]:
        assert_same_arrays(ufunc_caller(name, 1)(a), getattr(np, name)(a))
    assert live_blocks() == before


def test_scalars_broadcasting_and_fused_expressions():
    @taipan.njit
    def mixed(dates, later, step):
        return np.maximum(dates, later) + step, np.less(dates, later), np.fmin(step, -step)

    dates = sample("M8[D]", 4).reshape(2, 4)
    later = np.datetime64("1970-06-01T12", "h")
    step = np.timedelta64(90, "m")
    before = live_blocks()
    got = mixed(dates, later, step)
    expected = (np.maximum(dates, later) + step, np.less(dates, later), np.fmin(step, -step))
    for g, e in zip(got, expected):
        assert_same_arrays(g, e)
    del got
    scalar_cases = [
        ("maximum", np.timedelta64(7, "m"), np.timedelta64(-50, "s")),
        ("less", np.timedelta64("NaT", "m"), np.timedelta64(-50, "s")),
        ("floor_divide", np.timedelta64(7, "m"), np.timedelta64(-50, "s")),
        ("divmod", np.timedelta64(7, "m"), np.timedelta64(-50, "s")),
        ("multiply", np.timedelta64(7, "m"), 2.5),
        ("true_divide", np.timedelta64(7, "m"), np.timedelta64(2, "s")),
        ("equal", np.datetime64("2001-01-01"), np.datetime64("2001-01-01T00:00")),
    ]
    for name, x, y in scalar_cases:
        got = ufunc_caller(name, 2)(x, y)
        expected = getattr(np, name)(x, y)
        if isinstance(expected, tuple):
            assert len(got) == len(expected)
            for g, e in zip(got, expected):
                assert_same_arrays(g, e)
        else:
            assert_same_arrays(got, expected)
    assert live_blocks() == before


def test_outputs_of_other_units_and_kinds():
    cases = [
        ("add", "m8[s]", "m8[m]"),
        ("add", "M8[D]", "m8[h]"),
        ("subtract", "M8[s]", "M8[m]"),
        ("multiply", "m8[m]", "f8"),
        ("multiply", "i8", "m8[s]"),
        ("floor_divide", "m8[s]", "m8[m]"),
        ("true_divide", "m8[m]", "m8[s]"),
        ("true_divide", "m8[m]", "i8"),
        ("maximum", "M8[s]", "M8[D]"),
        ("fmin", "m8[m]", "m8[s]"),
        ("equal", "M8[s]", "M8[D]"),
        ("remainder", "m8[s]", "m8[m]"),
    ]
    outputs = ["m8[ms]", "m8[s]", "m8[m]", "m8[h]", "m8[Y]", "M8[s]", "M8[M]", "i8", "f8", "?"]
    before = live_blocks()
    for (name, left, right), output in itertools.product(cases, outputs):
        a, b = sample(left, 5), sample(right, 6)
        expected = np.zeros(8, output)
        ufunc = getattr(np, name)
        _, refused = numpy_or_error(lambda x, y, o, f=ufunc: f(x, y, out=o), a, b, expected)
        got = np.zeros(8, output)
        if refused is not None:
            with pytest.raises(TypingError, match="Cannot cast ufunc"):
                ufunc_caller(name, 2, True)(a, b, got)
            continue
        ufunc_caller(name, 2, True)(a, b, got)
        assert_same_arrays(got, expected)
    for output in ["m8[ms]", "m8[h]", "i8", "M8[s]"]:
        a = sample("m8[m]", 7)
        expected, got = np.zeros(8, output), np.zeros(8, output)
        _, refused = numpy_or_error(lambda x, o: np.negative(x, out=o), a, expected)
        if refused is not None:
            with pytest.raises(TypingError):
                ufunc_caller("negative", 1, True)(a, got)
        else:
            ufunc_caller("negative", 1, True)(a, got)
            assert_same_arrays(got, expected)
    assert live_blocks() == before


@taipan.njit
def negative_of_dates(dates):
    return np.negative(dates)


@taipan.njit
def dates_times_two(dates):
    return np.multiply(dates, 2)


@taipan.njit
def compare_with_float(td, x):
    return np.less(td, x)


@taipan.njit
def years_against_days(a, b):
    return np.maximum(a, b)


def test_refusals_name_the_users_line():
    dates = sample("M8[D]")
    for function, args in [
        (negative_of_dates, (dates,)),
        (dates_times_two, (dates,)),
        (compare_with_float, (sample("m8[s]"), 1.5)),
        (years_against_days, (sample("m8[Y]"), sample("m8[D]"))),
        (years_against_days, (sample("m8[s]"), sample("M8[s]"))),
        (years_against_days, (sample("m8[s]"), sample("u8"))),
    ]:
        with pytest.raises(TypeError):  # NumPy: no loop for these types
            function.py_func(*args)
        with pytest.raises(TypingError) as info:
            function(*args)
        assert "test_np_datetime_ufunc_loops.py" in str(info.value)
