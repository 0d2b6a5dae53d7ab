"""@vectorize: real numpy.ufunc objects over taipan-compiled loops (eager signatures) and DUFunc
(loops compiled per new input type), on the 'cpu' and 'parallel' targets. Results are compared
with the scalar Python function applied element by element (np.vectorize of py_func), over
dtypes, NaN/-0.0/inf, empty and non-contiguous arrays, and NumPy's ufunc machinery (out=,
where=, dtype=, casting=, reduce/accumulate/outer/at/reduceat)."""

import itertools
import math
import pickle
import platform
import sys

import numpy as np
import pytest
from numpy_checks import counting_allocations, no_allocation_leak

import taipan
from taipan import vectorize
from taipan.errors import TypingError

TARGETS = ["cpu", "parallel"]


def reference(py_func, *args, otypes):
    """What the scalar function gives element by element (np.vectorize of the Python code)."""
    return np.vectorize(py_func, otypes=otypes)(*args)


def assert_same_array(actual, expected):
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)
    # signed zeros too
    both = np.isfinite(expected) if expected.dtype.kind in "fc" else slice(None)
    if expected.dtype.kind == "f":
        assert np.array_equal(np.signbit(actual[both]), np.signbit(expected[both]))


def scaled_difference(x, y):
    return (x - y) * 0.5


SPECIALS = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e308, -1e-310])


@pytest.mark.parametrize("target", TARGETS)
def test_eager_signatures_build_a_numpy_ufunc(target):
    ufunc = vectorize(["float64(float64, float64)", "float32(float32, float32)"], target=target)(
        scaled_difference
    )
    assert isinstance(ufunc, np.ufunc)
    assert ufunc.types == ["dd->d", "ff->f"]
    assert ufunc.nin == 2 and ufunc.nout == 1
    assert ufunc.__name__ == "scaled_difference"
    with no_allocation_leak():
        for dtype in (np.float64, np.float32):
            x = SPECIALS.astype(dtype)
            y = SPECIALS[::-1].astype(dtype)
            expected = reference(scaled_difference, x, y, otypes=[dtype])
            assert_same_array(ufunc(x, y), expected)


@pytest.mark.parametrize("target", TARGETS)
def test_broadcasting_out_where_dtype_and_casting(target):
    ufunc = vectorize(["float64(float64, float64)"], target=target)(scaled_difference)
    a = np.arange(12.0).reshape(3, 4)
    b = np.array([1.0, -1.0, 0.5, 2.0])
    assert_same_array(ufunc(a, b), (a - b) * 0.5)
    assert_same_array(ufunc(a, 3.0), (a - 3.0) * 0.5)
    out = np.full((3, 4), 7.0)
    result = ufunc(a, b, out=out, where=a > 4)
    assert result is out
    assert_same_array(out, np.where(a > 4, (a - b) * 0.5, 7.0))
    # integers are cast safely to the float64 loop; float32 output needs casting='unsafe'
    assert_same_array(ufunc(np.arange(4), 1), (np.arange(4) - 1) * 0.5)
    assert ufunc(a, b, dtype=np.float64).dtype == np.float64
    with pytest.raises(TypeError):
        ufunc(a, b, out=np.zeros((3, 4), np.float32), casting="safe")
    unsafe = np.zeros((3, 4), np.float32)
    ufunc(a, b, out=unsafe, casting="unsafe")
    assert_same_array(unsafe, ((a - b) * 0.5).astype(np.float32))


@pytest.mark.parametrize("target", TARGETS)
def test_empty_and_non_contiguous_arrays(target):
    ufunc = vectorize(["int64(int64, int64)"], target=target)(scaled_difference_int)
    assert ufunc(np.zeros(0, np.int64), np.zeros(0, np.int64)).shape == (0,)
    base = np.arange(40, dtype=np.int64).reshape(5, 8)
    strided, transposed = base[::2, 1::3], base.T
    assert_same_array(
        ufunc(strided, strided),
        reference(scaled_difference_int, strided, strided, otypes=[np.int64]),
    )
    assert_same_array(
        ufunc(transposed, 3), reference(scaled_difference_int, transposed, 3, otypes=[np.int64])
    )


def scaled_difference_int(x, y):
    return (x - y) * 3 // 2


def add(x, y):
    return x + y


@pytest.mark.parametrize("target", TARGETS)
def test_reduce_accumulate_outer_at_reduceat(target):
    ufunc = vectorize(
        ["int64(int64, int64)", "float64(float64, float64)"], identity=0, target=target
    )(add)
    a = np.arange(1, 13, dtype=np.int64).reshape(3, 4)
    assert ufunc.identity == 0
    assert ufunc.reduce(a).tolist() == a.sum(axis=0).tolist()
    assert ufunc.reduce(a, axis=1).tolist() == a.sum(axis=1).tolist()
    assert ufunc.reduce(a, axis=None) == a.sum()
    assert ufunc.reduce(np.zeros(0, np.int64)) == 0  # the identity
    assert ufunc.accumulate(a[0]).tolist() == np.cumsum(a[0]).tolist()
    assert (
        ufunc.outer(np.arange(3.0), np.arange(2.0)).tolist()
        == np.add.outer(np.arange(3.0), np.arange(2.0)).tolist()
    )
    counts = np.zeros(4, np.int64)
    ufunc.at(counts, [0, 1, 1, 3], 5)
    assert counts.tolist() == [5, 10, 0, 5]
    assert (
        ufunc.reduceat(np.arange(8), [0, 4, 6]).tolist()
        == np.add.reduceat(np.arange(8), [0, 4, 6]).tolist()
    )


def test_reduce_without_identity_refuses_empty_arrays():
    ufunc = vectorize(["float64(float64, float64)"])(add)
    assert ufunc.identity is None
    with pytest.raises(ValueError):
        ufunc.reduce(np.zeros(0))


def gaussian(x, mean, sigma):
    """Value of a Gaussian probability density at x."""
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))


@pytest.mark.parametrize("target", TARGETS)
def test_dufunc_compiles_a_loop_per_new_input_type(target):
    ufunc = vectorize(target=target)(gaussian)
    assert isinstance(ufunc, taipan.DUFunc)
    assert ufunc.types == [] and ufunc.ntypes == 0
    x = np.linspace(-3, 3, 101)
    np.testing.assert_allclose(
        ufunc(x, 0.0, 1.0), reference(gaussian, x, 0.0, 1.0, otypes=[np.float64]), rtol=1e-15
    )
    assert ufunc.types == ["ddd->d"]
    # float32 casts safely to the float64 loop, as NumPy (and Numba's DUFunc) resolve it
    assert ufunc(x.astype(np.float32), np.float32(0), np.float32(1)).dtype == np.float64
    assert ufunc.types == ["ddd->d"]
    assert isinstance(ufunc.ufunc, np.ufunc)
    assert ufunc.__name__ == "gaussian" and ufunc.__doc__ == gaussian.__doc__
    adder = vectorize(target=target)(add)
    assert adder(np.arange(3, dtype=np.int32), np.int32(1)).tolist() == [1, 2, 3]
    assert adder.types == ["ii->l"]  # int32 + int32 is int64 in Numba's typing
    assert adder(np.arange(3.0), 0.5).tolist() == [0.5, 1.5, 2.5]  # no int32 loop takes floats
    assert adder.types == ["ii->l", "dd->d"]
    assert adder(1 + 2j, 1j) == 1 + 3j
    assert adder.ntypes == 3


def test_dufunc_add_and_disable_compile():
    ufunc = vectorize(add)
    ufunc.add("int32(int32, int32)")
    assert ufunc.types == ["ii->i"]
    ufunc.disable_compile()
    with pytest.raises(TypeError):
        ufunc(np.zeros(2, np.complex128), np.zeros(2, np.complex128))
    with pytest.raises(RuntimeError, match="frozen"):
        ufunc.add("float64(float64, float64)")


def test_dufunc_methods_compile_on_demand():
    ufunc = vectorize(identity=0)(add)
    assert ufunc.reduce(np.arange(10)) == 45
    assert ufunc.accumulate(np.arange(4.0)).tolist() == [0.0, 1.0, 3.0, 6.0]
    assert ufunc.outer(np.arange(2), np.arange(3)).tolist() == [[0, 1, 2], [1, 2, 3]]


def zero_suppress(waveform_value, threshold):
    if waveform_value < threshold:
        result = 0
    else:
        result = waveform_value
    return result


def add_ten(num):
    return num + 10


def test_seed_examples():
    assert vectorize(add_ten)(np.arange(10)).tolist() == list(range(10, 20))
    waveform = np.array([3.0, 20.0, 14.9, 15.0, -1.0], dtype=np.float32)
    suppressed = vectorize(zero_suppress)(waveform, 15)
    assert_same_array(suppressed, reference(zero_suppress, waveform, 15, otypes=[np.float64]))
    x = np.random.default_rng(0).uniform(-3, 3, size=10_000).astype(np.float32)
    pdf = vectorize(gaussian)
    # float32 arithmetic with float64 literals differs between NumPy 2 scalars and Numba's
    # typing (which taipan follows) in the last float32 bits only.
    np.testing.assert_allclose(
        pdf(x, np.float32(0.0), np.float32(1.0)),
        reference(gaussian, x, np.float32(0.0), np.float32(1.0), otypes=[np.float64]),
        rtol=1e-6,
    )


def checked_divide(a, b):
    if b == 0:
        raise ValueError("zero divisor")
    return a // b


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("size", [5, 100_000])
def test_an_element_that_raises_raises_the_python_exception(target, size):
    """Exact int64 arrays take the direct call path (test_ufunc_direct_calls.py), a scalar
    NumPy's: both raise, leak nothing and run again."""
    ufunc = vectorize(["int64(int64, int64)"], target=target)(checked_divide)
    b = np.ones(size, np.int64)
    b[size // 2] = 0
    with no_allocation_leak():
        for _ in range(3):
            with pytest.raises(ValueError, match="zero divisor"):
                ufunc(np.arange(size), b)
    assert ufunc(np.arange(size), 2).tolist() == (np.arange(size) // 2).tolist()


@pytest.mark.parametrize("target", TARGETS)
def test_division_by_zero_follows_numpy_as_numba_ufuncs_do(target):
    # Numba compiles ufunc loops with error_model='numpy': no ZeroDivisionError; integers give
    # 0 and floats inf or nan, as NumPy's own ufuncs do.
    floor_divide = vectorize(["int64(int64, int64)", "float64(float64, float64)"], target=target)(
        lambda a, b: a // b
    )
    true_divide = vectorize(["float64(float64, float64)"], target=target)(lambda a, b: a / b)
    with np.errstate(all="ignore"):
        ints = np.array([3, -3, 0], np.int64)
        assert floor_divide(ints, np.zeros(3, np.int64)).tolist() == [0, 0, 0]
        floats = np.array([1.0, -1.0, 0.0])
        assert_same_array(floor_divide(floats, 0.0), floats // 0.0)
        assert_same_array(true_divide(floats, 0.0), floats / 0.0)


def test_parallel_target_uses_the_threads_and_matches_cpu():
    serial = vectorize(["float64(float64, float64)"])(scaled_difference)
    parallel = vectorize(["float64(float64, float64)"], target="parallel")(scaled_difference)
    a = np.random.default_rng(1).standard_normal(1_000_003)
    assert_same_array(parallel(a, a[::-1]), serial(a, a[::-1]))
    before = taipan.get_num_threads()
    try:
        taipan.set_num_threads(1)
        assert taipan.get_num_threads() == 1
        assert_same_array(parallel(a, 1.0), serial(a, 1.0))
    finally:
        taipan.set_num_threads(before)
    assert taipan.get_thread_id() == 0
    with pytest.raises(ValueError, match="between 1 and"):
        taipan.set_num_threads(0)
    assert taipan.config.NUMBA_NUM_THREADS >= taipan.get_num_threads() >= 1


@vectorize(["float64(float64, float64)"])
def module_level_ufunc(x, y):
    return x - y


@vectorize
def module_level_dufunc(x, y):
    return x * y


def test_ufuncs_pickle_by_reference():
    assert pickle.loads(pickle.dumps(module_level_ufunc)) is module_level_ufunc
    assert pickle.loads(pickle.dumps(module_level_dufunc)) is module_level_dufunc
    assert module_level_dufunc(2, 3) == 6


def test_bad_input_gets_clear_errors():
    with pytest.raises(ValueError, match="target"):
        vectorize(["float64(float64)"], target="tpu")(add_ten)
    with pytest.raises(KeyError, match="Unrecognized"):
        vectorize(["float64(float64)"], colour="red")(add_ten)
    with pytest.raises(TypingError, match="numbers or booleans"):
        vectorize(["float64(float64[:])"])(add_ten)
    with pytest.raises(TypeError, match="takes 1 arguments"):
        vectorize(["float64(float64, float64)"])(add_ten)
    with pytest.raises(TypeError, match="loop"):  # NumPy's: no loop takes strings
        vectorize(add)(np.array(["a", "b"]), np.array(["c", "d"]))


@vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def floor_half(x, y):
    return (x - y) // 2


@vectorize
def dynamic_floor_half(x, y):
    return (x - y) // 2


@pytest.mark.parametrize(
    "a, b", [(7, 2), (-7, 2), (7.5, 2), (np.float32(1.5), 4), (2, np.int8(-3)), (np.nan, 1.0)]
)
def test_compiled_code_calls_ufuncs_on_scalars_as_python_does(a, b):
    # A fresh DUFunc per case: which loops an earlier test compiled decides NumPy's choice.
    dynamic = vectorize(dynamic_floor_half.py_func)

    def calls(a, b):
        return floor_half(a, b), dynamic(a, b), floor_half(True, 3)

    compiled = taipan.njit(calls)
    for actual, expected in zip(compiled(a, b), calls(a, b)):
        assert type(actual)(expected) == actual or (np.isnan(actual) and np.isnan(expected))
        assert np.asarray(actual).dtype.kind == np.asarray(expected).dtype.kind


def fused(a, b, c):
    return a * floor_half(b, c) + c, dynamic_floor_half(a, b)


@pytest.mark.parametrize("parallel", [False, True])
def test_compiled_code_calls_ufuncs_on_arrays_fused_into_array_expressions(parallel):
    compiled = taipan.njit(parallel=parallel)(fused)
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(40_000) * 10, rng.standard_normal(40_000) * 10
    cases = [(a, b, 3.0), (a[::2], b[::2], 1.5), (a.reshape(-1, 5)[:, 1:], b[:4], 2.0)]
    cases += [(a[:0], b[:0], 3.0), (a[:5], b[:5], -1.0)]
    ints = rng.integers(-100, 100, 40_000)
    cases += [(ints, ints[::-1], 7)]
    with no_allocation_leak():
        for arguments in cases:
            for actual, expected in zip(compiled(*arguments), fused(*arguments)):
                assert_same_array(actual, expected)
        del actual, expected
    # one loop: only the two results are allocated (no array for floor_half(b, c))
    compiled(a, a, 1.0)
    with counting_allocations() as count:
        compiled(a, a, 1.0)
    assert count.allocated == 2 and count.freed == 2


def test_ufunc_errors_in_compiled_array_expressions():
    @vectorize
    def reciprocal_floor(x):
        return 1 // x

    @taipan.njit
    def on_arrays(a):
        return reciprocal_floor(a) + 1

    @vectorize
    def checked_reciprocal(x):
        if x == 0:
            raise ValueError("zero")
        return 1 // x

    @taipan.njit
    def checked_on_arrays(a):
        return checked_reciprocal(a) + 1

    with no_allocation_leak():
        np.testing.assert_array_equal(on_arrays(np.array([1, 2, -1])), [2, 1, 0])
        # error_model='numpy' in ufuncs, as Numba: 1 // 0 is 0
        np.testing.assert_array_equal(on_arrays(np.array([1, 0, 3])), [2, 1, 1])
        with pytest.raises(ValueError, match="zero"):
            checked_on_arrays(np.array([1, 0, 3]))

    @taipan.njit
    def no_loop(a):
        return floor_half(a, a)

    with pytest.raises(TypingError, match="floor_half"):
        no_loop(np.array([1 + 2j]))


def three_way(x, m, s):
    # t * t, not t ** 2: CPython's float power calls libm's pow, within an ulp of the product.
    t = (x - m) / s
    return math.exp(-0.5 * t * t) / s


@pytest.mark.parametrize("target", TARGETS)
def test_every_mix_of_contiguous_broadcast_and_strided_operands_matches_python(target):
    # The loop has a vectorisable copy for each mix of contiguous and broadcast-scalar inputs
    # (and the general strided one): every mix computes exactly what the Python function does.
    ufunc = vectorize(["float64(float64, float64, float64)"], target=target)(three_way)
    rng = np.random.default_rng(5)
    forms = {
        "contiguous": lambda: rng.standard_normal(1001),
        "scalar": lambda: np.float64(rng.uniform(0.5, 2.0)),
        "strided": lambda: rng.standard_normal(2002)[::2],
    }
    for x_form, m_form, s_form in itertools.product(forms, repeat=3):
        if x_form == m_form == s_form == "scalar":
            continue
        x, m, s = forms[x_form](), forms[m_form](), np.abs(forms[s_form]()) + 0.5
        expected = np.vectorize(three_way, otypes=[np.float64])(x, m, s)
        assert_same_array(ufunc(x, m, s), expected)
        out = np.empty(4004)[::4]
        ufunc(x, m, s, out=out)  # a strided output takes the general loop
        assert_same_array(out, expected)


def test_fastmath_loops_use_the_vector_math_library_and_stay_close():
    @taipan.njit(fastmath=True)
    def fast(x, out):
        for i in range(x.size):
            out[i] = math.exp(-0.5 * x[i] * x[i]) + math.sin(x[i])

    @taipan.njit
    def exact(x, out):
        for i in range(x.size):
            out[i] = math.exp(-0.5 * x[i] * x[i]) + math.sin(x[i])

    x = np.linspace(-20.0, 20.0, 100_003)
    fast_out, exact_out = np.empty_like(x), np.empty_like(x)
    fast(x, fast_out)
    exact(x, exact_out)
    # Without fastmath, libm's own functions: exactly Python's math module.
    reference = np.array([math.exp(-0.5 * v * v) + math.sin(v) for v in x])
    assert_same_array(exact_out, reference)
    np.testing.assert_allclose(fast_out, reference, rtol=1e-13, atol=1e-15)
    if sys.platform.startswith("linux") and platform.machine() == "x86_64":
        assert "_ZGV" in fast.inspect_llvm(fast.signatures[0])  # glibc's libmvec
    assert "_ZGV" not in exact.inspect_llvm(exact.signatures[0])


def test_signatures_compiled_together_keep_their_order_and_results():
    # The eager signatures' loops are generated on several threads (_core.compile_all): each
    # loop must still be its own signature's, in the order given (NumPy tries them in order).
    def scaled_difference(a, b):
        return a * b - a

    signatures = [
        "int32(int32, int32)",
        "int64(int64, int64)",
        "float32(float32, float32)",
        "float64(float64, float64)",
    ]
    ufunc = vectorize(signatures)(scaled_difference)
    assert ufunc.types == ["ii->i", "ll->l", "ff->f", "dd->d"]
    for dtype in (np.int32, np.int64, np.float32, np.float64):
        a = np.arange(-6, 6, dtype=dtype)
        b = (np.arange(12, dtype=dtype) % 5).astype(dtype)
        got = ufunc(a, b)
        assert got.dtype == dtype
        expected = np.array([scaled_difference(x, y) for x, y in zip(a, b)], dtype=dtype)
        np.testing.assert_array_equal(got, expected)
