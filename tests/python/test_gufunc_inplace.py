"""@guvectorize layouts without ``->`` ('(n),(n),(z)', '(n), (k)'): every operand is an input
and the function writes some of them in place, as numbagg's group_* functions and quantecon's
random generators use them. The gufunc has nout=0 and a call returns ``()``; writes reach the
caller's arrays wherever NumPy passes them without a copy (strided and broadcast ones too) and
are lost in the copies NumPy makes to cast, unless ``writable_args`` names the operand. Checked
against a pure-Python loop over NumPy's loop dimensions on 'cpu' and 'parallel', and on 'cuda'
(ptxas for sm_90 without a GPU; the tests marked ``cuda`` on a GPU and in the simulator)."""

import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from numpy_checks import no_allocation_leak
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda, guvectorize
from taipan.errors import TypingError

TARGETS = ["cpu", "parallel"]
VALUE_DTYPES = [np.float64, np.float32, np.int64, np.int32]
LABEL_DTYPES = [np.int64, np.int32]


def group_sum(values, labels, out):
    out[:] = 0
    for i in range(values.shape[0]):
        label = labels[i]
        if label >= 0:
            out[label] += values[i]


def group_add(values, labels, out):
    for i in range(values.shape[0]):
        out[labels[i]] += values[i]


def group_count_ddof(values, labels, ddof, out):
    out[:] = -ddof
    for i in range(values.shape[0]):
        out[labels[i]] += 1


def group_sum_2d(values, labels, out):
    out[:] = 0
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            out[labels[i, j]] += values[i, j]


def probvec(r, out):
    """quantecon's _probvec: `out` has one element more than `r` (k = n + 1)."""
    n = r.shape[0]
    out[0] = r[0]
    for i in range(1, n):
        out[i] = r[i] - r[i - 1]
    out[n] = 1 - r[n - 1]


def scale_into(values, factor, out):
    for i in range(values.shape[0]):
        out[i] = values[i] * factor


def total_into(values, total):
    s = 0.0
    for i in range(values.shape[0]):
        s += values[i]
    total[0] = s


def double_in_place(values):
    for i in range(values.shape[0]):
        values[i] = 2 * values[i]


def _type(dtype):
    return np.dtype(dtype).name


def group_signatures(value_dtypes=VALUE_DTYPES, label_dtypes=LABEL_DTYPES):
    return [
        f"void({_type(v)}[:], {_type(lab)}[:], {_type(v)}[:])"
        for v in value_dtypes
        for lab in label_dtypes
    ]


def reference(py_func, core_ndims, *operands, scalar_cores=()):
    """The Python function run as NumPy runs a gufunc without outputs, on copies of the
    operands: once per index of the loop dimensions (the operands' outer dimensions broadcast,
    in C order), each array operand as a writable view of its core dimensions at that index (a
    one-element array for one without, or its element for the positions in `scalar_cores`).
    Returns the copies."""
    copies = [np.array(x) if isinstance(x, np.ndarray) else x for x in operands]
    outers = [
        x.shape[: x.ndim - ndim] if isinstance(x, np.ndarray) else ()
        for x, ndim in zip(copies, core_ndims)
    ]
    loop = np.broadcast_shapes(*outers)
    views = []
    for position, (x, ndim) in enumerate(zip(copies, core_ndims)):
        if not isinstance(x, np.ndarray):
            views.append(None)
            continue
        split = x.ndim - ndim
        shape = loop + x.shape[split:]
        pad = len(loop) - split
        strides = (0,) * pad + tuple(
            0 if extent == 1 else stride for extent, stride in zip(x.shape, x.strides)
        )
        view = np.lib.stride_tricks.as_strided(x, shape, strides[: len(loop)] + x.strides[split:])
        if ndim == 0 and position not in scalar_cores:
            view = view[..., np.newaxis]
        views.append(view)
    for index in np.ndindex(*loop):
        arguments = []
        for x, view in zip(copies, views):
            arguments.append(x if view is None else view[index])
        py_func(*arguments)
    return copies


def assert_same_arrays(actual, expected):
    for a, e in zip(actual, expected):
        if isinstance(e, np.ndarray):
            assert a.dtype == e.dtype and a.shape == e.shape
            np.testing.assert_array_equal(a, e)


def labels_for(n, groups, dtype, seed=0):
    return np.random.default_rng(seed).integers(-1, groups, n).astype(dtype)


def values_for(shape, dtype, seed=1):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.integers(-50, 50, shape).astype(dtype) / 4
    return rng.integers(-50, 50, shape).astype(dtype)


# --- the gufunc object ------------------------------------------------------------------------


def test_layout_without_an_arrow_makes_a_gufunc_of_inputs_only():
    gufunc = guvectorize(
        ["void(float64[:], int64[:], float64[:])", "void(float32[:], int32[:], float32[:])"],
        "(n),(n),(z)",
        nopython=True,
    )(group_sum)
    assert (gufunc.nin, gufunc.nout, gufunc.nargs) == (3, 0, 3)
    assert gufunc.signature == "(n),(n),(z)"
    assert gufunc.types == ["dld->", "fif->"]
    out = np.zeros(3)
    assert gufunc(np.arange(6.0), np.array([0, 1, 0, 1, 2, 2]), out) == ()
    assert out.tolist() == [2.0, 4.0, 9.0]


@pytest.mark.parametrize("layout", ["(n), (k)", "(n),(k)", " (n) , (k) "])
@pytest.mark.parametrize("target", TARGETS)
def test_quantecon_probvec_form(layout, target):
    # A signature without a return type, spaces in the layout, k only in the written operand.
    gufunc = guvectorize(["(f8[:], f8[:])"], layout, nopython=True, target=target)(probvec)
    r = np.sort(np.random.default_rng(3).random((500, 4)), axis=1)
    x = np.empty((500, 5))
    with no_allocation_leak():
        assert gufunc(r, x) == ()
    (expected,) = reference(probvec, (1, 1), r, np.empty((500, 5)))[1:]
    np.testing.assert_array_equal(x, expected)
    np.testing.assert_allclose(x.sum(axis=1), 1.0)


# --- results against the Python loop ----------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("value_dtype", VALUE_DTYPES)
@pytest.mark.parametrize("label_dtype", LABEL_DTYPES)
def test_in_place_writes_match_python_over_dtypes(target, value_dtype, label_dtype):
    gufunc = guvectorize(group_signatures(), "(n),(n),(z)", target=target)(group_sum)
    for outer in [(), (1,), (7,), (3, 4)]:
        values = values_for(outer + (25,), value_dtype)
        labels = labels_for(25, 6, label_dtype)
        out = np.full(outer + (6,), 99, value_dtype)
        expected = reference(group_sum, (1, 1, 1), values, labels, out)
        with no_allocation_leak():
            assert gufunc(values, labels, out) == ()
        assert_same_arrays([values, labels, out], expected)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    ("values_shape", "labels_shape", "out_shape"),
    [((0,), (0,), (4,)), ((0, 5), (5,), (0, 4)), ((3, 0), (0,), (3, 4)), ((3, 0), (0,), (3, 0)),
     ((2, 1, 5), (3, 5), (2, 3, 4)), ((4, 5), (4, 5), (1, 4)), ((1, 5), (3, 1, 5), (3, 2, 4))],
)  # fmt: skip
def test_empty_and_broadcast_loops(target, values_shape, labels_shape, out_shape):
    gufunc = guvectorize(group_signatures([np.float64], [np.int64]), "(n),(n),(z)", target=target)(
        group_add
    )
    values = values_for(values_shape, np.float64)
    labels = np.random.default_rng(5).integers(0, 4, labels_shape)
    out = np.zeros(out_shape)
    expected = reference(group_add, (1, 1, 1), values, labels, out)
    gufunc(values, labels, out)
    assert_same_arrays([values, labels, out], expected)


@pytest.mark.parametrize("target", TARGETS)
def test_non_contiguous_operands_are_written_in_place(target):
    gufunc = guvectorize(group_signatures([np.float64], [np.int64]), "(n),(n),(z)", target=target)(
        group_sum
    )
    values = np.asfortranarray(values_for((6, 40), np.float64))[:, ::-2]
    labels = labels_for(40, 5, np.int64)[::2]
    base = np.full((6, 12), 7.0)
    out = base[:, 1::2][::-1, :5]
    expected = reference(group_sum, (1, 1, 1), values, labels, out)
    gufunc(values, labels, out)
    assert_same_arrays([values, labels, out], expected)
    assert (base[:, ::2] == 7.0).all() and (base[:, 11] == 7.0).all()  # nothing else written


@pytest.mark.parametrize("target", TARGETS)
def test_a_written_operand_broadcast_over_the_loop_gets_every_write_in_order(target):
    # 3000 rows each add into one shared `out`: the parallel target keeps them in order.
    gufunc = guvectorize(
        group_signatures([np.float64, np.int64], [np.int64]), "(n),(n),(z)", target=target
    )(group_add)
    for dtype in (np.int64, np.float64):
        values = values_for((3000, 8), dtype)
        labels = np.random.default_rng(2).integers(0, 3, 8)
        out = np.zeros(3, dtype)
        expected = reference(group_add, (1, 1, 1), values, labels, out)
        gufunc(values, labels, out)
        assert_same_arrays([out], expected[2:])


@pytest.mark.parametrize("target", TARGETS)
def test_parallel_rows_written_in_place(target):
    gufunc = guvectorize(["void(float64[:])", "void(int32[:])"], "(n)", target=target)(
        double_in_place
    )
    for dtype in (np.float64, np.int32):
        values = values_for((5000, 3), dtype)
        expected = reference(double_in_place, (1,), values)
        assert gufunc(values) == ()
        assert_same_arrays([values], expected)
        # Two views of one array's rows that overlap across loop elements: kept in order.
        shared = values_for(40, dtype)
        windows = np.lib.stride_tricks.as_strided(shared, (38, 3), (shared.strides[0],) * 2)
        expected = reference(double_in_place, (1,), windows.copy())
        serial_result = shared.copy()
        for i in range(38):
            serial_result[i : i + 3] *= 2
        gufunc(windows)
        np.testing.assert_array_equal(shared, serial_result)


# --- which operands are written: NumPy's rules, writable_args ---------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_writes_to_a_cast_copy_are_lost_as_in_numpy(target):
    gufunc = guvectorize(group_signatures([np.float64], [np.int64]), "(n),(n),(z)", target=target)(
        group_sum
    )
    for dtype in (np.float32, np.int64):
        out = np.zeros(3, dtype)  # casts safely to float64: NumPy passes a copy
        gufunc(np.arange(6.0), np.array([0, 1, 0, 1, 2, 2]), out)
        assert out.tolist() == [0, 0, 0]
    with pytest.raises(TypeError, match="not supported for the input types"):
        gufunc(np.arange(6.0), np.array([0, 1, 0, 1, 2, 2]), np.zeros(3, np.complex128))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("writable", [(2,), ("out",), [2, "out"]])
def test_writable_args_write_back_cast_copies(target, writable):
    gufunc = guvectorize(
        group_signatures([np.float64], [np.int64]),
        "(n),(n),(z)",
        target=target,
        writable_args=writable,
    )(group_sum)
    for dtype in (np.float32, np.int32, np.float64):
        out = np.zeros((2, 3), dtype)
        values = np.arange(12.0).reshape(2, 6)
        gufunc(values, np.array([0, 1, 0, 1, 2, 2]), out)
        expected = reference(group_sum, (1, 1, 1), values, np.array([0, 1, 0, 1, 2, 2]), out)
        np.testing.assert_array_equal(out, expected[2].astype(dtype))
    read_only = np.zeros(3)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gufunc(np.arange(6.0), np.array([0, 1, 0, 1, 2, 2]), read_only)
    with pytest.raises(ValueError, match="reduction"):  # NumPy: a written operand broadcast
        gufunc(np.arange(12.0).reshape(2, 6), np.array([0, 1, 0, 1, 2, 2]), np.zeros(3))


def test_writable_args_with_an_output_layout():
    def bump(a, out):
        for i in range(a.shape[0]):
            a[i] += 1
        out[0] = a.sum()

    gufunc = guvectorize(["void(float64[:], float64[:])"], "(n)->()", writable_args=(0,))(bump)
    a = np.zeros((2, 3), np.float32)
    np.testing.assert_array_equal(gufunc(a), [3.0, 3.0])
    np.testing.assert_array_equal(a, np.ones((2, 3)))


def test_writable_args_errors_are_numbas():
    signature = ["void(float64[:], float64[:])"]
    with pytest.raises(RuntimeError, match=r"writable arg c not found in arg list \['a', 'b'\]"):
        guvectorize(signature, "(n),(n)", writable_args=("c",))(lambda a, b: None)
    for bad in [(5,), (-1,), (1.0,)]:
        with pytest.raises(ValueError, match="between 0 and nin - 1"):
            guvectorize(signature, "(n),(n)", writable_args=bad)(lambda a, b: None)
    with pytest.raises(ValueError, match="between 0 and nin - 1"):  # an output is no input
        guvectorize(signature, "(n)->(n)", writable_args=(1,))(lambda a, b: None)
    with pytest.raises(ValueError, match="Number of writable_args must be <= nin"):
        guvectorize(signature, "(n)->(n)", writable_args=(0, 0))(lambda a, b: None)


# --- scalar cores, numbagg's forms, the dynamic gufunc ----------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_scalar_cores(target):
    # A `()` operand typed as a scalar is a value (never written) ...
    scaled = guvectorize(
        ["void(float64[:], float64, float64[:])", "void(int64[:], int64, int64[:])"],
        "(n),(),(n)",
        target=target,
    )(scale_into)
    for dtype in (np.float64, np.int64):
        values = values_for((4, 5), dtype)
        factors = np.arange(4, dtype=dtype)[:, None]
        out = np.zeros((4, 5), dtype)
        scaled(values, factors, out)
        expected = reference(scale_into, (1, 0, 1), values, factors, out, scalar_cores=(1,))
        assert_same_arrays([values, factors, out], expected)
        scaled(values, 3, out)
        np.testing.assert_array_equal(out, values * 3)
    # ... and one typed as an array is a one-element view, written in place.
    total = guvectorize(["void(float64[:], float64[:])"], "(n),()", target=target)(total_into)
    values = values_for((3, 4), np.float64)
    totals = np.zeros(3)
    assert total(values, totals) == ()
    np.testing.assert_array_equal(totals, values.sum(axis=1))
    with pytest.raises(ValueError, match="could not be broadcast"):
        total(values, np.zeros(2))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("label_dtype", [np.int8, np.int16, np.int32, np.int64])
def test_numbagg_group_forms(target, label_dtype):
    """numbagg's groupndreduce: one gufunc per (core ndim, dtypes), with a ddof scalar core
    for some, called as func(values, labels[, ddof], out) with values' loop axes first."""
    label_type = _type(label_dtype)
    with_ddof = guvectorize(
        [f"void(float64[:], {label_type}[:], int64, float64[:])"],
        "(a),(a),(),(z)",
        nopython=True,
        target=target,
    )(group_count_ddof)
    two_d = guvectorize(
        [f"void(float32[:, :], {label_type}[:, :], float32[:])"],
        "(a,b),(a,b),(z)",
        nopython=True,
        target=target,
    )(group_sum_2d)
    values = values_for((3, 10), np.float64)
    labels = np.random.default_rng(0).integers(0, 4, 10).astype(label_dtype)
    result = np.empty((3, 4))
    assert with_ddof(values, labels, 1, result) == ()
    expected = reference(
        group_count_ddof, (1, 1, 0, 1), values, labels, 1, np.empty((3, 4)), scalar_cores=(2,)
    )
    np.testing.assert_array_equal(result, expected[3])
    values = values_for((2, 4, 5), np.float32)
    labels = np.random.default_rng(1).integers(0, 3, (4, 5)).astype(label_dtype)
    result = np.empty((2, 3), np.float32)
    two_d(values, labels, result)
    expected = reference(group_sum_2d, (2, 2, 1), values, labels, np.empty((2, 3), np.float32))
    np.testing.assert_array_equal(result, expected[2])


@pytest.mark.parametrize("target", TARGETS)
def test_dynamic_gufunc_compiles_per_call_types(target):
    gufunc = guvectorize("(n),(n),(z)", target=target)(group_sum)
    assert (gufunc.nin, gufunc.nout, gufunc.nargs) == (3, 0, 3)
    for value_dtype, label_dtype in [(np.int32, np.int16), (np.float64, np.int64)]:
        values = values_for((2, 9), value_dtype)
        labels = labels_for(9, 3, label_dtype)
        out = np.zeros((2, 3), value_dtype)
        expected = reference(group_sum, (1, 1, 1), values, labels, out)
        assert gufunc(values, labels, out) == ()
        assert_same_arrays([out], expected[2:])
    assert gufunc.types == ["ihi->", "dld->"]
    # Types a compiled loop takes by NumPy's safe casts compile nothing, as in Numba: the loop
    # writes a cast copy of `out`, which is lost.
    out = np.zeros((2, 3), np.float32)
    gufunc(values_for((2, 9), np.float32), labels_for(9, 3, np.int64), out)
    assert gufunc.types == ["ihi->", "dld->"] and (out == 0).all()
    scaled = guvectorize("(n),(),(n)", target=target)(scale_into)
    out = np.zeros(3)
    scaled(np.arange(3.0), 2.0, out)
    assert out.tolist() == [0.0, 2.0, 4.0]
    with pytest.raises(TypeError, match="all 3 operands|takes from 3 to 3"):
        scaled(np.arange(3.0), 2.0)
    with pytest.raises(TypeError, match="all 3 operands"):
        guvectorize("(n),(),(n)", target=target)(scale_into)(np.arange(3.0), 2.0)


def test_mismatched_core_dimensions_get_numpys_errors():
    gufunc = guvectorize(group_signatures([np.float64], [np.int64]), "(n),(n),(z)")(group_sum)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0.*size 4 is different"):
        gufunc(np.arange(6.0), np.arange(4), np.zeros(3))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        gufunc(np.arange(6.0), np.arange(6), 0.0)
    with pytest.raises(TypeError, match="takes from 3 to 3 positional arguments but 2"):
        gufunc(np.arange(6.0), np.arange(6))
    with pytest.raises(ValueError, match="could not be broadcast"):
        gufunc(np.ones((2, 6)), np.zeros((3, 6), np.int64), np.zeros(3))
    with pytest.raises(TypingError, match="layout"):
        guvectorize(["void(float64[:], float64[:])"], "(n),(n),(n)")(double_in_place)
    with pytest.raises(ValueError, match="layout"):
        guvectorize(["void(float64[:])"], "(n)->()->()")(double_in_place)
    with pytest.raises(ValueError, match="layout"):
        guvectorize(["void(float64[:])"], "(n-1)")(double_in_place)


def test_axes_keyword_moves_core_dimensions():
    def copy(a, b):
        for i in range(a.shape[0]):
            b[i] = a[i]

    gufunc = guvectorize(["void(float64[:], float64[:])"], "(n),(n)")(copy)
    b = np.zeros((3, 2))
    gufunc(np.arange(6.0).reshape(2, 3), b, axes=[(1,), (0,)])
    np.testing.assert_array_equal(b, np.arange(6.0).reshape(2, 3).T)


def test_pickled_in_place_gufunc_keeps_its_layout_and_writable_args():
    gufunc = guvectorize(
        ["void(float64[:], int64[:], float64[:])"], "(n),(n),(z)", writable_args=(2,)
    )(group_sum)
    restored = pickle.loads(pickle.dumps(gufunc))
    out = np.zeros(3, np.float32)
    assert restored(np.arange(6.0), np.array([0, 1, 0, 1, 2, 2]), out) == ()
    assert out.tolist() == [2.0, 4.0, 9.0]
    assert restored.nout == 0


# --- CUDA: kernels without a GPU, calls on one (and in the simulator) -------------------------

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def cuda_group_sum():
    return guvectorize(
        ["void(float64[:], int64[:], float64[:])", "void(float32[:], int32[:], float32[:])"],
        "(n),(n),(z)",
        target="cuda",
    )(group_sum)


def cuda_total():
    return guvectorize(["void(float64[:], float64[:])"], "(n),()", target="cuda")(total_into)


def test_cuda_in_place_gufunc_attributes_and_call_checks():
    gufunc = cuda_group_sum()
    assert (gufunc.nin, gufunc.nout, gufunc.nargs) == (3, 0, 3)
    assert gufunc.signature == "(n),(n),(z)"
    with pytest.raises(TypeError, match="takes from 3 to 3 positional arguments but 2"):
        gufunc(np.arange(6.0), np.arange(6))
    with pytest.raises(TypeError, match="no outputs"):
        gufunc(np.arange(6.0), np.arange(6), np.zeros(3), out=np.zeros(3))


def test_cuda_in_place_kernel_loops_over_the_first_array_operand():
    from taipan.cuda import ufuncs as cu

    source = cu.gufunc_kernel_source("g", ["value", ("view", 1), "slice"], 2, 1)
    assert "n = a1.shape[0] * a1.shape[1]" in source
    assert "core(a0, a1[i0, i1, :], a2[i0, i1:i1 + 1])" in source
    compile(source, "<test>", "exec")
    only_values = cu.gufunc_kernel_source("g", ["value", "value"], 1, None)
    assert "n = 1" in only_values
    compile(only_values, "<test>", "exec")


@needs_ptxas
@pytest.mark.parametrize("loop_ndim", [1, 2, 3])
def test_cuda_in_place_kernels_pass_ptxas(loop_ndim, tmp_path):
    for gufunc, loops in [(cuda_group_sum(), 2), (cuda_total(), 1)]:
        for index in range(loops):
            ptxas(gufunc.inspect_asm(index, loop_ndim), tmp_path)


@pytest.mark.cuda
@needs_gpu
def test_cuda_host_arrays_written_in_place():
    gufunc = cuda_group_sum()
    for value_dtype, label_dtype in [(np.float64, np.int64), (np.float32, np.int32)]:
        values = values_for((4, 30), value_dtype)
        labels = labels_for(30, 5, label_dtype)
        out = np.full((4, 5), 3, value_dtype)
        expected = reference(group_sum, (1, 1, 1), values, labels, out)
        assert gufunc(values, labels, out) == ()
        assert_same_arrays([values, labels, out], expected)
    # Strided host operands, empty loops, and a cast copy (lost, as in NumPy).
    base = np.zeros((4, 10))
    out = base[:, ::2]
    values = values_for((4, 30), np.float64)[:, ::-1]
    labels = labels_for(30, 5, np.int64)
    expected = reference(group_sum, (1, 1, 1), values, labels, out)
    gufunc(values, labels, out)
    assert_same_arrays([out], expected[2:])
    assert (base[:, 1::2] == 0).all()
    empty = np.zeros((0, 5))
    assert gufunc(np.zeros((0, 30)), labels, empty) == ()
    values.flags.writeable = False  # read, never copied back
    gufunc(values, labels, out)
    assert_same_arrays([out], expected[2:])
    cast = np.zeros(5, np.float16)
    gufunc(values[0], labels, cast)
    assert (cast == 0).all()


@pytest.mark.cuda
@needs_gpu
def test_cuda_device_arrays_written_in_place():
    gufunc = cuda_group_sum()
    values = values_for((6, 20), np.float64)
    labels = labels_for(20, 4, np.int64)
    out = np.zeros((6, 4))
    expected = reference(group_sum, (1, 1, 1), values, labels, out)
    device_out = cuda.to_device(out)
    assert gufunc(cuda.to_device(values), labels, device_out) == ()
    np.testing.assert_array_equal(device_out.copy_to_host(), expected[2])
    totals = cuda.to_device(np.zeros(6))
    cuda_total()(cuda.to_device(values), totals)
    np.testing.assert_array_equal(totals.copy_to_host(), values.sum(axis=1))


@pytest.mark.cuda
@needs_gpu
def test_cuda_broadcast_loops_in_place():
    total = cuda_total()
    values = values_for((3, 1, 8), np.float64)
    totals = np.zeros((3, 5))
    total(values, totals)
    np.testing.assert_array_equal(totals, np.broadcast_to(values.sum(axis=2), (3, 5)))


def test_cuda_in_place_gufuncs_in_the_simulator():
    """The tests above marked ``cuda``, run in the CUDA simulator."""
    tests = os.path.dirname(os.path.abspath(__file__))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env["TAIPAN_ENABLE_CUDASIM"] = "1"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "cuda", __file__],
        cwd=os.path.dirname(os.path.dirname(tests)),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "3 passed" in summary and "skipped" not in summary, summary


def test_compiled_code_calls_an_in_place_gufunc():
    gufunc = guvectorize(group_signatures([np.float64], [np.int64]), "(n),(n),(z)")(group_sum)

    @taipan.njit
    def grouped(values, labels, groups):
        out = np.empty(values.shape[:-1] + (groups,))
        result = gufunc(values, labels, out)
        return out, result

    values = values_for((3, 12), np.float64)
    labels = labels_for(12, 4, np.int64)
    expected = reference(group_sum, (1, 1, 1), values, labels, np.empty((3, 4)))
    with no_allocation_leak():
        out, result = grouped(values, labels, 4)
        assert result is None  # as Numba types the call: none
        np.testing.assert_array_equal(out, expected[2])
        del out


def test_compiled_code_writes_one_element_operands_in_place():
    total = guvectorize(["void(float64[:], float64[:])"], "(n),()")(total_into)

    @taipan.njit
    def totals_of(values):
        totals = np.zeros(values.shape[0])
        total(values, totals)
        return totals

    values = values_for((4, 6), np.float64)
    with no_allocation_leak():
        np.testing.assert_array_equal(totals_of(values), values.sum(axis=1))


# --- which operands the parallel driver counts as written (taipan.gufunc_writes) --------------


def _read_only(source, arrays=()):
    import ast

    from taipan.gufunc_writes import read_only_parameters

    node = ast.parse(source).body[0]
    return read_only_parameters(node, [a.arg for a in node.args.args], set(arrays))


def test_read_only_operands_are_proven_from_the_syntax_tree():
    numbagg_sum = """
def group_nansum(values, labels, out):
    out[:] = 0
    for indices in np.ndindex(values.shape):
        label = labels[indices]
        if label < 0:
            continue
        value = values[indices]
        if not np.isnan(value) and not np.isnan(values[indices]):
            out[label] += value
    n = len(labels) + values.sum() + labels.shape[0]
"""
    assert _read_only(numbagg_sum) == {"values", "labels"}
    assert _read_only("def f(a, out):\n    for x in a:\n        out[0] += x\n") == {"a"}
    assert _read_only("def f(a, out):\n    out[a[0]] = a[1] * 2\n") == {"a"}


@pytest.mark.parametrize(
    ("body", "arrays"),
    [("p[0] = 1", ()), ("p[0] += 1", ()), ("p.fill(0)", ()), ("helper(p)", ()),
     ("q = p\n    q[0] = 1", ()), ("row = p[0]\n    row[0] = 1", ("row",)),
     ("for row in p:\n        row[0] = 1", ("row",)), ("np.sqrt(p, p)", ()),
     ("np.add(p[0], 1, out=p[0])", ()), ("p = np.zeros(3)", ()), ("del p", ()),
     ("g = lambda p: p\n    p[0] = 1", ()), ("r = p.reshape(-1)", ("r",)), ("p.T[0] = 1", ()),
     ("x = p.astype(np.float64, copy=False)", ("x",)), ("t = (p, 1)", ()),
     ("q = p or p\n    q[0] = 1", ())],
)  # fmt: skip
def test_anything_that_may_write_or_keep_a_view_counts_as_a_write(body, arrays):
    assert _read_only(f"def f(p):\n    {body}\n", arrays) == set()


def test_cuda_copies_back_only_operands_the_function_may_write():
    from taipan.gufunc_writes import untyped_written_parameters

    # Without types, an element read into a variable may be a view: counted as a write.
    assert untyped_written_parameters(group_sum) == [1, 2]
    assert untyped_written_parameters(double_in_place) == [0]
    assert untyped_written_parameters(probvec) == [1]
    assert untyped_written_parameters(scale_into) == [2]
    assert untyped_written_parameters(lambda a, b: None) == [0, 1]  # no tree: no proof


def tag_rows(values, labels, tags):
    s = 0.0
    for i in range(labels.shape[0]):
        s += values[labels[i]]
    tags[0] = taipan.get_thread_id() if s != 1e300 else -1


def tag_rows_writing_labels(values, labels, tags):
    labels[0] = labels[0]
    tags[0] = taipan.get_thread_id()


def _written_in_place(py_func, layout, signature, target="parallel"):
    from taipan.types import parse_signature
    from taipan.ufuncs import _GufuncCompiler

    compiler = _GufuncCompiler(py_func, layout, {"target": target})
    compiler.add_all([(tuple(parse_signature(signature).args), None)])
    return compiler._written_in_place()


def test_the_parallel_driver_learns_which_operands_are_written():
    signature = "void(float64[:], int64[:], int64[:])"
    assert _written_in_place(tag_rows, "(n),(n),()", signature) == [2]
    assert _written_in_place(tag_rows_writing_labels, "(n),(n),()", signature) == [1, 2]
    assert _written_in_place(tag_rows, "(n),(n),()", signature, target="cpu") == []
    # Operands typed as scalars are never written.
    scalar = "void(float64[:], float64, float64[:])"
    assert _written_in_place(scale_into, "(n),(),(n)", scalar) == [2]
    # The rows tagged by thread are all tagged, whichever order the driver chose.
    values = values_for((4000, 16), np.float64)
    labels = np.arange(16)[::-1].copy()  # one row for all, broadcast (step 0)
    for function in (tag_rows, tag_rows_writing_labels):
        tags = np.full(4000, -2)
        guvectorize([signature], "(n),(n),()", target="parallel")(function)(values, labels, tags)
        assert -2 not in tags and (tags >= 0).all()


def accumulate_into(x, total):
    total[0] += x


@pytest.mark.parametrize("target", TARGETS)
def test_scalar_cores_written_in_place_keep_their_order(target):
    # '(),()': no core dimensions at all; `total` broadcast over 20000 elements.
    gufunc = guvectorize(
        ["void(int64, int64[:])", "void(float64, float64[:])"], "(),()", target=target
    )(accumulate_into)
    for dtype in (np.int64, np.float64):
        x = values_for(20000, dtype)
        total = np.zeros(1, dtype)
        expected = reference(accumulate_into, (0, 0), x, total, scalar_cores=(0,))
        assert gufunc(x, total) == ()
        assert_same_arrays([total], expected[1:])
        totals = np.zeros(20000, dtype)
        gufunc(x, totals)
        np.testing.assert_array_equal(totals, x)


def test_fixed_core_sizes_in_an_in_place_layout():
    gufunc = guvectorize(["void(float64[:])"], "(3)")(double_in_place)
    values = values_for((4, 3), np.float64)
    expected = values * 2
    gufunc(values)
    np.testing.assert_array_equal(values, expected)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        gufunc(np.ones(4))
