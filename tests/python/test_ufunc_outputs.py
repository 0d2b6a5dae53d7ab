"""NumPy's ufuncs in compiled code as Numba's "Supported NumPy features" lists them: every ufunc
of the list on every dtype family, with the output argument given by position and as ``out=``,
two-output ufuncs (divmod, modf, frexp) as tuples and with outputs, broadcasting between
arrays of different ndim, 0-d operands (a scalar result, as NumPy), empty and non-contiguous
operands and outputs, NaN, infinities and -0.0; results compared with NumPy (values and
dtypes), and the allocation counters checked.

A dtype NumPy has no loop for is a TypingError at compile time naming the user's line."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks

# Numba's list (docs/source/reference/numpysupported.rst, "Standard ufuncs"), plus positive
# and bitwise_count (Numba's test module calls them).
UNARY = [
    "negative",
    "positive",
    "absolute",
    "abs",
    "fabs",
    "rint",
    "sign",
    "conj",
    "conjugate",
    "exp",
    "exp2",
    "log",
    "log2",
    "log10",
    "expm1",
    "log1p",
    "sqrt",
    "square",
    "cbrt",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "deg2rad",
    "rad2deg",
    "degrees",
    "radians",
    "bitwise_not",
    "invert",
    "bitwise_count",
    "logical_not",
    "isfinite",
    "isinf",
    "isnan",
    "signbit",
    "floor",
    "ceil",
    "trunc",
    "spacing",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "logaddexp",
    "logaddexp2",
    "true_divide",
    "floor_divide",
    "power",
    "float_power",
    "remainder",
    "mod",
    "fmod",
    "gcd",
    "lcm",
    "arctan2",
    "hypot",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "not_equal",
    "equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "copysign",
    "nextafter",
    "ldexp",
    "heaviside",
]
TWO_OUTPUTS = ["divmod", "modf", "frexp"]

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float32", "float64"]
DTYPES += ["complex64", "complex128"]

# Transcendental functions differ from NumPy's own loops by an ulp or two.
INEXACT = {
    "exp",
    "exp2",
    "log",
    "log2",
    "log10",
    "expm1",
    "log1p",
    "sqrt",
    "cbrt",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "logaddexp",
    "logaddexp2",
    "power",
    "float_power",
    "arctan2",
    "hypot",
    "deg2rad",
    "rad2deg",
    "degrees",
    "radians",
    "reciprocal",
    "divide",
    "true_divide",
    "abs",
    "absolute",
}

# Complex loops NumPy has and taipan refuses (a TypingError, checked): none now (sign of complex
# numbers, NumPy 2's z / |z|, compiles since test_np_sign_complex.py).
COMPLEX_REFUSED = set()


def values_of(dtype, n=6, seed=0, special=True):
    """Deterministic values of ``dtype`` (with NaN, infinities and -0.0 for floats)."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.kind == "u":
        return (rng.permutation(n) % 7 + 1).astype(dtype)
    if dtype.kind == "i":
        return (rng.permutation(n) % 9 - 4).astype(dtype)
    data = rng.standard_normal(n) * 3
    if dtype.kind == "c":
        data = data + 1j * rng.standard_normal(n) * 3
    data = data.astype(dtype)
    if special and n >= 6:
        data[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return data


def numpy_result(ufunc, *args, **kwargs):
    """NumPy's result; where NumPy computes in float16 (booleans and 8-bit integers into a
    float function), taipan computes in float32, which has no float16: the expectation is then
    NumPy's float32 loop on the same values."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        result = ufunc(*args, **kwargs)
        results = result if isinstance(result, tuple) else (result,)
        if any(np.asarray(r).dtype == np.float16 for r in results):
            widened = [
                np.asarray(a).astype(np.float32)
                if np.asarray(a).dtype.kind in "biu" and np.asarray(a).dtype.itemsize == 1
                else a
                for a in args
            ]
            if ufunc is np.ldexp:
                widened[1] = args[1]
            result = ufunc(*widened, **kwargs)
        return result


# NumPy leaves the sign of a zero chosen between 0.0 and -0.0 to its SIMD loops.
ZERO_SIGN_FREE = {"maximum", "minimum", "fmax", "fmin"}


def assert_close(actual, expected, name):
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    if name in ZERO_SIGN_FREE and expected.dtype.kind in "fc":
        actual = actual + 0.0
        expected = expected + 0.0
    assert actual.dtype == expected.dtype, f"{name}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{name}: shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind in "fc":
        single = expected.dtype in (np.float32, np.complex64)
        # Complex products cancel: a fused multiply-add differs from NumPy's loop in the last
        # bits of the larger parts, so complex results compare relative to their magnitude.
        inexact = name in INEXACT or expected.dtype.kind == "c"
        rtol = (2e-6 if single else 1e-14) if inexact else 0
        if not rtol:
            ok = np.array_equal(actual, expected, equal_nan=True)
            if ok and expected.dtype.kind == "f":  # -0.0 against 0.0 (a NaN's sign is free)
                numbers = ~np.isnan(expected)
                ok = np.array_equal(np.signbit(actual[numbers]), np.signbit(expected[numbers]))
        else:
            finite = np.abs(expected[np.isfinite(expected)])
            atol = rtol * float(finite.max()) if expected.dtype.kind == "c" and finite.size else 0
            ok = np.allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
        assert ok, f"{name}: {actual!r} != {expected!r}"
    else:
        assert np.array_equal(actual, expected), f"{name}: {actual!r} != {expected!r}"


def _compiled(source, name):
    namespace = {"np": np}
    exec(source, namespace)  # noqa: S102 - one small function per ufunc
    return njit(namespace[name])


_FUNCTIONS = {}


def forms(name, nin):
    """Compiled functions computing ufunc ``name``: the plain call, the call with the output
    positional and the call with ``out=``, each returning what the call returns."""
    key = (name, nin)
    if key not in _FUNCTIONS:
        args = ", ".join(f"x{i}" for i in range(nin))
        source = (
            f"def plain({args}):\n    return np.{name}({args})\n"
            f"def positional({args}, out):\n    return np.{name}({args}, out)\n"
            f"def keyword({args}, out):\n    return np.{name}({args}, out=out)\n"
        )
        _FUNCTIONS[key] = tuple(_compiled(source, f) for f in ("plain", "positional", "keyword"))
    return _FUNCTIONS[key]


def check_ufunc(name, inputs, outputs_too=True):
    ufunc = getattr(np, name)
    plain, positional, keyword = forms(name, ufunc.nin)
    before = live_blocks()
    try:
        expected = numpy_result(ufunc, *inputs)
    except TypeError:
        with pytest.raises(TypingError) as caught:
            plain(*inputs)
        assert "test_ufunc_outputs" in str(caught.value) or "line" in str(caught.value)
        assert live_blocks() == before
        return
    assert_close(plain(*inputs), expected, name)
    if outputs_too and np.ndim(expected) > 0:
        # out= binds to the same parameter as the positional output: one dtype checks it.
        wide = np.asarray(inputs[0]).dtype in (np.float64, np.int64)
        for form in (positional, keyword) if wide else (positional,):
            out = np.zeros_like(expected)
            returned = form(*inputs, out)
            assert_close(out, expected, name)
            assert out.size == 0 or np.shares_memory(returned, out)
            assert_close(returned, expected, name)
    assert live_blocks() == before


@pytest.mark.parametrize("name", UNARY)
def test_unary_ufunc_every_dtype(name):
    for dtype in DTYPES:
        kind = np.dtype(dtype).kind
        if kind == "c" and name in COMPLEX_REFUSED:
            with pytest.raises(TypingError):
                forms(name, 1)[0](values_of(dtype))
            continue
        # Complex infinities and NaN through cmath's functions are left out (see UFUNC31.md);
        # integer reciprocal of 0 is undefined in NumPy (its value differs by dtype).
        special = not (kind == "c" and name in INEXACT | {"expm1", "log1p"})
        values = values_of(dtype, special=special)
        if name == "reciprocal" and kind in "iu":
            values = np.where(values == 0, 1, values).astype(dtype)
        check_ufunc(name, (values,))


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufunc_every_dtype(name):
    for dtype in DTYPES:
        a = values_of(dtype, seed=1)
        b = values_of(dtype, seed=2)
        if name in ("left_shift", "right_shift") and np.dtype(dtype).kind in "iu":
            b = (np.arange(6) % 5).astype(dtype)
        if name == "power" and np.dtype(dtype).kind in "iu":
            b = np.abs(b)  # NumPy raises ValueError for negative integer powers
        if name in ("multiply", "power", "float_power") and np.dtype(dtype).kind == "c":
            # Complex infinities: NumPy's loops and C's complex arithmetic disagree (Annex G).
            a, b = values_of(dtype, seed=1, special=False), values_of(dtype, seed=2, special=False)
        if name == "ldexp":
            b = np.arange(-3, 3).astype(np.int64) if dtype != "uint64" else b
        check_ufunc(name, (a, b))


@pytest.mark.parametrize(
    "left, right",
    [
        ("int8", "uint64"),
        ("int64", "uint64"),
        ("float32", "int64"),
        ("float32", "int16"),
        ("int32", "float64"),
        ("bool", "int8"),
        ("bool", "float32"),
        ("uint8", "int8"),
        ("uint32", "int32"),
        ("complex64", "float64"),
        ("int64", "complex64"),
    ],
)
@pytest.mark.parametrize("name", ["add", "multiply", "true_divide", "maximum", "greater", "equal"])
def test_mixed_dtypes_resolve_as_numpy(name, left, right):
    check_ufunc(name, (values_of(left, seed=3), values_of(right, seed=4)))


@pytest.mark.parametrize("name", ["greater", "less_equal", "equal", "not_equal"])
def test_signed_against_unsigned_comparisons_are_exact(name):
    big = np.array([0, 1, 2**63, 2**64 - 1, 5, 2**63 - 1], dtype=np.uint64)
    signed = np.array([-1, 1, -(2**63), 2**63 - 1, 5, 2**63 - 1], dtype=np.int64)
    check_ufunc(name, (signed, big))
    check_ufunc(name, (big, signed))


@pytest.mark.parametrize("name", TWO_OUTPUTS)
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint64", "float32", "float64", "bool"])
def test_two_output_ufuncs(name, dtype):
    ufunc = getattr(np, name)
    inputs = tuple(values_of(dtype, seed=5 + i) for i in range(ufunc.nin))
    if name == "divmod" and np.dtype(dtype).kind in "iub":
        inputs = (inputs[0], np.where(inputs[1] == 0, 3, inputs[1]).astype(dtype))
    args = ", ".join(f"x{i}" for i in range(ufunc.nin))
    source = (
        f"def plain({args}):\n    return np.{name}({args})\n"
        f"def positional({args}, o1, o2):\n    return np.{name}({args}, o1, o2)\n"
        f"def keyword({args}, o1, o2):\n    return np.{name}({args}, out=(o1, o2))\n"
        f"def first_only({args}, o1):\n    return np.{name}({args}, o1)\n"
        f"def scalars({args}):\n    return np.{name}({', '.join(f'{a}[1]' for a in args.split(', '))})\n"
    )
    functions = {
        f: _compiled(source, f) for f in ("plain", "positional", "keyword", "first_only", "scalars")
    }
    before = live_blocks()
    try:
        expected = numpy_result(ufunc, *inputs)
    except TypeError:
        with pytest.raises(TypingError):
            functions["plain"](*inputs)
        return
    got = functions["plain"](*inputs)
    assert isinstance(got, tuple) and len(got) == 2
    for g, e in zip(got, expected):
        assert_close(g, e, name)
    for form in ("positional", "keyword"):
        o1, o2 = np.zeros_like(expected[0]), np.zeros_like(expected[1])
        r1, r2 = functions[form](*inputs, o1, o2)
        assert_close(o1, expected[0], name)
        assert_close(o2, expected[1], name)
        assert np.shares_memory(r1, o1) and np.shares_memory(r2, o2)
    o1 = np.zeros_like(expected[0])
    r1, r2 = functions["first_only"](*inputs, o1)
    assert_close(o1, expected[0], name)
    assert_close(r2, expected[1], name)
    scalar_expected = numpy_result(ufunc, *(x[1] for x in inputs))
    scalar_got = functions["scalars"](*inputs)
    for g, e in zip(scalar_got, scalar_expected):
        assert type(g) in (int, float, bool) or isinstance(g, np.generic)
        assert_close(np.asarray(g, dtype=np.asarray(e).dtype), e, name)
    del got, r1, r2
    assert live_blocks() == before


SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (0, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", ["add", "negative", "arctan2", "greater", "logical_xor", "sqrt"])
def test_shapes(name, shape):
    ufunc = getattr(np, name)
    inputs = tuple(
        values_of("float64", n=max(1, int(np.prod(shape))), seed=i, special=False)[
            : int(np.prod(shape))
        ].reshape(shape)
        for i in range(ufunc.nin)
    )
    check_ufunc(name, inputs)


def test_zero_dimensional_operands_give_scalars():
    plain = forms("add", 2)[0]
    got = plain(np.array(2.5), np.array(1.0))
    assert type(got) is float and got == 3.5
    sqrt = forms("sqrt", 1)[0]
    assert sqrt(np.array(4.0)) == 2.0
    out = np.zeros(())
    forms("add", 2)[1](np.array(2), np.array(3), out)
    assert out[()] == 5.0


def test_broadcasting_between_ndims():
    add, positional, keyword = forms("add", 2)
    a = np.arange(24.0).reshape(2, 3, 4)
    row = np.arange(4.0)
    column = np.arange(3.0).reshape(3, 1)
    before = live_blocks()
    assert_close(add(a, row), a + row, "add")
    assert_close(add(column, row), column + row, "add")
    out = np.zeros((2, 3, 4))
    positional(column, row, out)
    assert_close(out, np.broadcast_to(column + row, (2, 3, 4)), "add")
    out = np.zeros((2, 3, 4))
    keyword(2.0, row, out)
    assert_close(out, np.broadcast_to(2.0 + row, (2, 3, 4)), "add")
    assert live_blocks() == before


def test_non_contiguous_inputs_and_outputs():
    positional = forms("multiply", 2)[1]
    big = np.arange(48.0).reshape(6, 8)
    a = big[::2, ::3]
    b = big[1::2, ::-3][:, ::-1]
    out_big = np.zeros((6, 8))
    out = out_big[::2, 1::3]
    before = live_blocks()
    returned = positional(a, b, out)
    assert_close(out, a * b, "multiply")
    assert np.shares_memory(returned, out_big)
    assert out_big[1].sum() == 0  # only the view was written
    f_order = np.asfortranarray(np.zeros((3, 3)))
    positional(a, b, f_order)
    assert_close(f_order, a * b, "multiply")
    assert live_blocks() == before


def test_output_overlapping_an_input_reads_the_input_first():
    positional = forms("add", 2)[1]
    a = np.arange(8.0)
    expected = a + a[::-1]
    positional(a, a[::-1], a)
    assert_close(a, expected, "add")
    b = np.arange(8.0)
    expected = b[1:] + b[:-1]
    positional(b[1:], b[:-1], b[1:])
    assert_close(b[1:], expected, "add")


def test_output_of_wider_or_same_kind_dtype_casts():
    positional = forms("add", 2)[1]
    a = np.arange(4, dtype=np.int8)
    for dtype in ("int16", "int64", "float32", "float64", "complex128"):
        out = np.zeros(4, dtype=dtype)
        positional(a, a, out)
        assert_close(out, np.add(a, a, dtype=dtype), "add")
    out = np.zeros(4, dtype=np.int8)  # same_kind narrowing, as NumPy
    big = np.array([100, 100, 1, 2], dtype=np.int64)
    positional(big, big, out)
    assert_close(out, np.add(big, big, out=np.zeros(4, np.int8), casting="same_kind"), "add")


def test_result_is_usable_in_expressions_and_loops():
    @njit
    def f(a, b):
        out = np.empty_like(a)
        total = 0.0
        for _ in range(3):
            total += np.add(a, b, out).sum() + np.negative(a, out=out)[0]
        return total, out

    a = np.arange(5.0)
    before = live_blocks()
    got = f(a, a)
    expected = f.py_func(a, a)
    assert got[0] == expected[0]
    assert_close(got[1], expected[1], "negative")
    del got
    assert live_blocks() == before


def test_errors_name_the_line():
    @njit
    def scalar_out(a, b):
        return np.add(a, b, 1.0)

    with pytest.raises(TypingError, match="not an array") as caught:
        scalar_out(np.ones(3), np.ones(3))
    assert "np.add(a, b, 1.0)" in str(caught.value)

    @njit
    def unsafe_cast(a, out):
        return np.sqrt(a, out)

    with pytest.raises(TypingError, match="same_kind"):
        unsafe_cast(np.ones(3), np.zeros(3, dtype=np.int64))

    @njit
    def float_bits(a):
        return np.bitwise_and(a, a)

    with pytest.raises(TypingError) as caught:
        float_bits(np.ones(3))
    assert "bitwise_and" in str(caught.value)

    @njit
    def too_few_dims(a, out):
        return np.add(a, a, out)

    with pytest.raises(TypingError, match="dimensions"):
        too_few_dims(np.ones((2, 3)), np.zeros(3))

    @njit
    def wrong_shape(a, out):
        return np.add(a, a, out)

    before = live_blocks()
    with pytest.raises(ValueError):
        wrong_shape(np.ones(3), np.zeros(4))
    assert live_blocks() == before

    frozen = np.zeros(3)

    @njit
    def read_only(a):
        return np.add(a, a, frozen)

    with pytest.raises(TypingError, match="read-only"):
        read_only(np.ones(3))


def test_isnat():
    isnat = forms("isnat", 1)[0]
    dates = np.array(["2020-01-01", "NaT", "1970-01-01"], dtype="M8[D]")
    deltas = np.array([1, "NaT", -3], dtype="m8[s]")
    assert_close(isnat(dates), np.isnat(dates), "isnat")
    assert_close(isnat(deltas), np.isnat(deltas), "isnat")
    out = np.zeros(3, dtype=bool)
    forms("isnat", 1)[1](dates, out)
    assert_close(out, np.isnat(dates), "isnat")


def test_ufunc_object_attributes():
    @njit
    def attributes():
        return (
            np.add.nin,
            np.add.nout,
            np.add.nargs,
            np.divmod.nout,
            np.negative.nargs,
            np.add.identity,
            np.multiply.identity,
            np.logical_and.identity,
            np.logaddexp.identity,
            np.bitwise_and.identity,
            np.subtract.identity,
        )

    assert attributes() == attributes.py_func()


def test_scalar_calls_follow_numpy_arithmetic():
    divide = forms("divide", 2)[0]
    assert divide(1.0, 0.0) == np.inf
    assert np.isnan(divide(0.0, 0.0))
    log = forms("log", 1)[0]
    assert log(0.0) == -np.inf


def test_complex_special_values_give_numpy_results_not_exceptions():
    values = np.array([complex(np.inf, 0), complex(0, np.inf), 0j, complex(np.nan, 1)])
    for name in ("log", "log10", "arctan", "arctanh", "sqrt", "exp"):
        plain = forms(name, 1)[0]
        got = plain(values)
        assert got.dtype == np.complex128
        assert np.all(np.isnan(got) | np.isfinite(got) | np.isinf(got))
        expected = numpy_result(getattr(np, name), values)
        finite = np.isfinite(expected)
        assert np.allclose(got[finite], expected[finite], rtol=1e-14), name


def test_out_none_and_partial_output_tuples():
    @njit
    def out_none(a):
        return np.add(a, a, out=None) * 2.0

    @njit
    def second_only(a, r):
        return np.divmod(a, 3.0, out=(None, r))

    a = np.arange(6.0)
    before = live_blocks()
    assert_close(out_none(a), (a + a) * 2.0, "add")
    r = np.zeros(6)
    q, r_returned = second_only(a, r)
    assert_close(q, a // 3.0, "divmod")
    assert_close(r, a % 3.0, "divmod")
    assert np.shares_memory(r_returned, r)
    del q, r_returned
    assert live_blocks() == before


def test_complex_exp2_and_log2_keep_special_values():
    z = np.array([-(0 + 1j), 1.5 + 1.5j, complex(0, np.nan), 0j, complex(np.inf, 0)])
    for name in ("exp2", "log2"):
        got = forms(name, 1)[0](z)
        expected = numpy_result(getattr(np, name), z)
        assert np.allclose(got, expected, rtol=1e-14, equal_nan=True), (name, got, expected)
