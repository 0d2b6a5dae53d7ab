"""taipan.extending: overload, overload_method, overload_attribute, register_jitable and
intrinsic, compared with the Python functions they implement; Numba's documented examples;
branch pruning by type; errors naming the user's line; no leaks."""

import gc
import os
import runpy

import numpy as np
import pytest
from ptx_assembly import PTXAS, ptxas

from taipan import cuda, njit, types
from taipan.errors import TypingError
from taipan.extending import (
    intrinsic,
    overload,
    overload_attribute,
    overload_method,
    register_jitable,
)
from taipan.runtime import get_allocation_stats


def leak_free(call):
    """Runs ``call`` a few times and checks the runtime freed every block it allocated."""
    call()
    gc.collect()
    before = get_allocation_stats()
    for _ in range(5):
        call()
    gc.collect()
    after = get_allocation_stats()
    assert after.alloc - before.alloc == after.free - before.free


# --- overload -------------------------------------------------------------------------------


def clamp(x, low, high):
    """A function with no compiled implementation of its own."""
    return min(max(x, low), high)


@overload(clamp)
def _clamp_scalar(x, low, high):
    if isinstance(x, (types.Integer, types.Float)):

        def impl(x, low, high):
            return min(max(x, low), high)

        return impl


@overload(clamp)
def _clamp_array(x, low, high):
    if isinstance(x, types.Array) and x.ndim == 1:

        def impl(x, low, high):
            out = np.empty_like(x)
            for i in range(x.shape[0]):
                out[i] = min(max(x[i], low), high)
            return out

        return impl


@pytest.mark.parametrize("value", [-3, 0, 5, 12, -2.5, 0.5, 11.0, float("inf"), -0.0])
def test_overload_on_scalars_matches_python(value):
    low, high = type(value)(0), type(value)(10)

    @njit
    def f(x):
        return clamp(x, low, high)

    assert f(value) == f.py_func(value)
    assert type(f(value)) is type(f.py_func(value))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_second_typing_function_serves_arrays(dtype):
    @njit
    def f(a):
        return clamp(a, 2, 5)

    a = np.arange(-3, 9).astype(dtype)
    expected = np.array([clamp(v, 2, 5) for v in a], dtype=dtype)
    result = f(a)
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(f(a[::-3]), np.array([clamp(v, 2, 5) for v in a[::-3]]))
    assert f(np.empty(0, dtype)).shape == (0,)
    leak_free(lambda: f(a))


def test_no_typing_function_applies_names_the_users_line():
    @njit
    def f(t):
        return clamp(t, 0, 1)

    with pytest.raises(TypingError) as error:
        f((1, 2))
    message = str(error.value)
    assert "No implementation of" in message and "clamp" in message
    assert "UniTuple(int64 x 2)" in message
    assert "return clamp(t, 0, 1)" in message  # the user's line, with a caret


def scale(x, factor=2.0, offset=0.0):
    return x * factor + offset


@overload(scale)
def _scale(x, factor=2.0, offset=0.0):
    def impl(x, factor=2.0, offset=0.0):
        return x * factor + offset

    return impl


def test_keywords_and_defaults_bind_as_in_python():
    @njit
    def f(x):
        return scale(x), scale(x, 3.0), scale(x, offset=1.0), scale(x, factor=0.5, offset=-1.0)

    assert f(4.0) == f.py_func(4.0)


def test_typing_function_sees_keyword_arguments_by_name():
    seen = []

    def probe(a, flag=False):
        return a

    @overload(probe)
    def _probe(a, flag=False):
        seen.append((a, flag))

        def impl(a, flag=False):
            return a + 1 if flag else a

        return impl

    @njit
    def f(x):
        return probe(x, flag=True)

    assert f(1) == 2
    assert seen[-1][0] == types.int64 and seen[-1][1] == types.boolean


def test_typing_function_errors_become_typing_errors_at_the_call():
    def picky(x):
        return x

    @overload(picky)
    def _picky(x):
        if not isinstance(x, types.Float):
            raise TypingError("picky() only takes floats")

        def impl(x):
            return x

        return impl

    @njit
    def f(x):
        return picky(x)

    assert f(1.5) == 1.5
    with pytest.raises(TypingError, match="only takes floats") as error:
        f(1)
    assert "return picky(x)" in str(error.value)


def test_overload_of_a_builtin_falls_back_to_taipans_own_definition():
    """Numba's documented example: len() of tuples, while len() of arrays stays taipan's."""

    def tuple_len_typer(seq):
        if isinstance(seq, types.BaseTuple):
            n = len(seq)

            def len_impl(seq):
                return n

            return len_impl

    overload(len)(tuple_len_typer)

    @njit
    def f(t, a):
        return len(t), len(a)

    assert f((1, 2.5, 3), np.zeros(7)) == (3, 7)


def test_overload_replaces_a_numpy_function_taipan_lacks():
    def twice_sum(a):
        return 2 * a.sum()

    @overload(twice_sum)
    def _twice_sum(a):
        if isinstance(a, types.Array):
            return lambda a: 2 * a.sum()

    @njit
    def f(a):
        return twice_sum(a)

    a = np.arange(12.0).reshape(3, 4)
    assert f(a) == twice_sum(a)


def test_implementations_are_compiled_once_per_argument_types():
    calls = []

    def counted(x):
        return x

    @overload(counted)
    def _counted(x):
        calls.append(x)
        return lambda x: x

    @njit
    def f(x):
        return counted(x) + counted(x)

    @njit
    def g(x):
        return counted(x)

    f(1)
    g(2)
    f(1.5)
    assert calls == [types.int64, types.float64]


def test_overload_returning_arrays_does_not_leak():
    def make(n):
        return np.arange(n) * 2

    @overload(make)
    def _make(n):
        def impl(n):
            a = np.arange(n)
            return a * 2

        return impl

    @njit
    def f(n):
        x = make(n)
        y = make(n + 1)
        return x.sum() + y.sum()

    assert f(10) == f.py_func(10)
    leak_free(lambda: f(100))


# --- overload_method and overload_attribute -------------------------------------------------


@overload_method(types.Array, "take_at")
def _take_at(arr, indices):
    if isinstance(indices, types.Array):

        def impl(arr, indices):
            n = indices.shape[0]
            result = np.empty(n, arr.dtype)
            for i in range(n):
                result[i] = arr[indices[i]]
            return result

        return impl


@overload_attribute(types.Array, "nbytes_twice")
def _nbytes_twice(arr):
    def impl(arr):
        return arr.size * arr.itemsize * 2

    return impl


@overload_method(types.Float, "squared")
def _squared(x):
    return lambda x: x * x


def test_overload_method_on_arrays():
    """Numba's documented take() example, under another name (take is not taipan's)."""

    @njit
    def f(a, i):
        return a.take_at(i)

    a = np.arange(10.0) * 1.5
    i = np.array([3, 1, 4, 1, 5])
    np.testing.assert_array_equal(f(a, i), a[i])
    np.testing.assert_array_equal(f(a[::-1], i), a[::-1][i])
    leak_free(lambda: f(a, i))


def test_overload_attribute_and_scalar_method():
    @njit
    def f(a, x):
        return a.nbytes_twice, x.squared()

    a = np.zeros((3, 5), np.float32)
    assert f(a, 1.5) == (a.nbytes * 2, 2.25)


def test_unknown_attribute_still_names_the_line():
    @njit
    def f(a):
        return a.no_such_thing

    with pytest.raises(TypingError, match="Unknown attribute 'no_such_thing'"):
        f(np.zeros(3))


def test_method_typing_declines_for_other_argument_types():
    @njit
    def f(a):
        return a.take_at(3)

    with pytest.raises(TypingError, match="No implementation of Array.take_at"):
        f(np.zeros(4))


def test_overload_method_wants_a_type_class():
    with pytest.raises(TypeError, match="type class"):
        overload_method(types.float64, "nope")


# --- register_jitable -----------------------------------------------------------------------


@register_jitable
def _norm2(a):
    value = np.abs(a)
    return np.sqrt(np.sum(value * value))


@register_jitable
def _hypot_sum(x, y=1.0):
    return np.hypot(x, y) + _norm2(np.array([x, y]))


def test_register_jitable_stays_a_python_function_and_compiles_in_callers():
    @njit
    def f(x):
        return _hypot_sum(x), _hypot_sum(x, y=2.0)

    assert not hasattr(_hypot_sum, "py_func")  # still the plain function
    assert f(3.0) == pytest.approx(f.py_func(3.0), rel=1e-15)
    leak_free(lambda: f(3.0))


def test_register_jitable_with_options():
    @register_jitable(fastmath=True)
    def fused(a, b, c):
        return a * b + c

    @njit
    def f(x):
        return fused(x, 2.0, 1.0)

    assert f(3.0) == 7.0
    assert fused(3.0, 2.0, 1.0) == 7.0


# --- intrinsic ------------------------------------------------------------------------------


@intrinsic
def popcount(typingctx, x):
    if isinstance(x, types.Integer):
        return (
            x(x),
            """
            declare {T0} @llvm.ctpop.{T0}({T0})
            %r = call {T0} @llvm.ctpop.{T0}({T0} %arg0)
            ret {T0} %r""",
        )


@intrinsic
def rotate_left(typingctx, x, amount):
    if isinstance(x, types.Integer) and isinstance(amount, types.Integer):
        return (
            x(x, x),
            """
            declare {T0} @llvm.fshl.{T0}({T0}, {T0}, {T0})
            %r = call {T0} @llvm.fshl.{T0}({T0} %arg0, {T0} %arg0, {T0} %arg1)
            ret {T0} %r""",
        )


@pytest.mark.parametrize(
    ("dtype", "values"),
    [
        (np.int64, [0, 1, 255, 2**40 + 7, -1, -(2**63)]),
        (np.int32, [0, 7, -1, 2**31 - 1]),
        (np.uint8, [0, 1, 128, 255]),
    ],
)
def test_popcount_intrinsic_matches_python(dtype, values):
    @njit
    def f(x):
        return popcount(x)

    bits = np.dtype(dtype).itemsize * 8
    for value in values:
        typed = dtype(value)
        expected = (int(typed) & ((1 << bits) - 1)).bit_count()
        assert f(typed) == expected


def test_rotate_intrinsic_with_two_arguments():
    @njit
    def f(x, k):
        return rotate_left(x, k)

    for x, k in [(1, 1), (0x8000000000000001 - 2**64, 1), (0x0123456789ABCDEF, 12)]:
        unsigned = x & (2**64 - 1)
        expected = ((unsigned << k) | (unsigned >> (64 - k))) & (2**64 - 1)
        assert f(x, k) & (2**64 - 1) == expected


def test_intrinsic_is_only_callable_from_compiled_code():
    with pytest.raises(TypeError, match="only be called from compiled code"):
        popcount(3)


def test_intrinsic_with_bad_ir_names_the_users_line():
    @intrinsic
    def broken(typingctx, x):
        return x(x), "ret {T0} %nowhere"

    @njit
    def f(x):
        return broken(x)

    with pytest.raises(TypingError, match="LLVM IR of this intrinsic") as error:
        f(1)
    assert "return broken(x)" in str(error.value)


def test_intrinsic_declining_is_a_typing_error():
    @njit
    def f(x):
        return popcount(x)

    with pytest.raises(TypingError, match="No implementation of the intrinsic popcount"):
        f(1.5)


# --- types in signatures and typing functions ---------------------------------------------


def test_array_type_constructor_in_eager_signatures():
    sig = types.float64(types.Array(types.float64, 1, "C"), types.int64)

    @njit(sig)
    def f(a, n):
        return a[:n].sum()

    assert f.signatures == [(types.Array(types.float64, 1, "C"), types.int64)]
    assert f(np.arange(5.0), 3) == 3.0
    assert types.Array(types.int64, 2, "F") == types.int64[::1, :]
    assert types.Array(types.float32, 1, "A", readonly=True).readonly


def test_type_classes_classify_taipan_types():
    assert isinstance(types.int32, types.Integer) and isinstance(types.int32, types.Number)
    assert isinstance(types.float32, types.Float) and not isinstance(types.float32, types.Integer)
    assert isinstance(types.complex128, types.Complex)
    assert isinstance(types.boolean, types.Boolean) and not isinstance(types.boolean, types.Number)
    assert isinstance(types.none, types.NoneType)
    assert isinstance(types.float64[:, :], types.Array)
    pair = types.UniTuple(types.int64, 2)
    mixed = types.Tuple((types.int64, types.float64))
    assert isinstance(pair, types.UniTuple) and isinstance(pair, types.BaseTuple)
    assert not isinstance(pair, types.Tuple)
    assert isinstance(mixed, types.Tuple) and not isinstance(mixed, types.UniTuple)
    assert types.Tuple((types.int64, types.int64)) == pair
    assert len(mixed) == 2
    assert not isinstance(3, types.Integer)
    with pytest.raises(TypeError, match="dtype"):
        types.Array(np.float64, 1, "C")
    with pytest.raises(ValueError, match="layout"):
        types.Array(types.float64, 1, "Z")


# --- branch pruning by type ---------------------------------------------------------------


def test_branches_on_none_arguments_are_pruned():
    @njit
    def f(a, axis=None):
        if axis is None:
            return a.sum()
        return a.sum(axis=axis)[0]

    a = np.arange(6.0).reshape(2, 3)
    assert f(a) == 15.0
    assert f(a, 1) == 3.0


def test_none_comparisons_and_boolean_operators():
    @njit
    def f(x, ord=None):
        if ord == 2 or ord is None:
            return x * 2.0
        elif ord == np.inf:
            return x
        return x**ord

    assert f(3.0) == 6.0
    assert f(3.0, 2) == 6.0
    assert f(3.0, 3) == 27.0
    assert f(3.0, np.inf) == 3.0

    @njit
    def g(x, y=None):
        return (y is not None and y > 0, x if y is None else y, x == None, None != x)

    assert g(1.0) == g.py_func(1.0)
    assert g(1.0, 2.0) == g.py_func(1.0, 2.0)


def test_constant_global_conditions_prune():
    @njit
    def f(x):
        if DEBUG_FLAG:
            return x.no_such_method()
        return x + 1

    assert f(1) == 2


DEBUG_FLAG = False


# --- Numba's documented examples, with the import changed ---------------------------------


def test_numba_mynorm_example_runs_unchanged():
    scipy_linalg = pytest.importorskip("scipy.linalg")
    example = os.path.join(os.path.dirname(__file__), "examples", "mynorm.py")
    runpy.run_path(example, run_name="mynorm_example")  # registers its overload

    @njit
    def use(a, ord=None):
        return scipy_linalg.norm(a, ord)

    for a in (np.arange(10), np.arange(10.0) - 4.5, np.arange(9).reshape((3, 3))):
        assert use(a) == pytest.approx(scipy_linalg.norm(a), rel=1e-14)
    for order in (1, 2, 3, np.inf, -np.inf, 0):
        a = np.arange(10.0) - 4.5
        assert use(a, order) == pytest.approx(scipy_linalg.norm(a, order), rel=1e-14)
    with pytest.raises(TypingError, match="3D and beyond"):
        use(np.zeros((2, 2, 2)))


# --- CUDA: overloads compile for kernels too ------------------------------------------------


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_overloads_and_intrinsics_compile_into_kernels(tmp_path):
    def kernel(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = clamp(x[i], 0.0, 1.0) + popcount(i)

    ptx, _ = cuda.compile_ptx(kernel, types.void(types.float64[::1], types.float64[::1]), cc=(9, 0))
    assert "popc" in ptx
    ptxas(ptx, tmp_path)


def test_job_hash_covers_intrinsic_bodies_and_overload_implementations():
    def make(body, scale_by):
        @intrinsic
        def op(typingctx, x):
            return x(x), body

        def helper(x):
            return x

        @overload(helper)
        def _helper(x):
            return lambda x: x * scale_by

        def f(x):
            return op(helper(x))

        compiled = njit(f)
        compiled(3)
        return compiled.overloads[(types.int64,)].hash

    same = "ret {T0} %arg0"
    negate = "%r = sub {T0} 0, %arg0\n ret {T0} %r"
    assert make(same, 2) == make(same, 2)
    assert make(same, 2) != make(negate, 2)
    assert make(same, 2) != make(same, 3)
