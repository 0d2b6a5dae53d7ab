"""Arrays created inside CUDA kernels and device functions (numba-cuda's device NRT): blocks from
the device's malloc heap, reference-counted with atomics (``cuda/DeviceMemoryRuntime.cpp``), and
the statistics ``taipan.cuda.nrt.rtsys`` reads (``cuda/DeviceMemorySystem.cpp``).

Without a GPU: every kind of creation compiles to PTX that ptxas assembles for sm_90, with the
runtime's functions out of line under numba-cuda's names; kernels that create nothing have no
runtime call (their arguments are borrowed, so the counting of views folds away); the simulator
runs the same kernels. On a GPU (marker ``cuda``): results equal NumPy's, and the counters show
that every block made is freed (``alloc`` and ``free`` move by the same exact amount)."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path, run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float64, int32, int64, void
from taipan.types import Tuple

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

F64 = float64[::1]


# --- kernels that create arrays ---------------------------------------------------------------


def creates_empty(out, n):
    a = np.empty(n)
    for i in range(n):
        a[i] = i * 0.5
    out[0] = a.sum()


def creates_zeros_2d(out, n):
    a = np.zeros((n, 3))
    a[n - 1, 2] = 4.0
    out[0] = a.sum() + a.shape[0]


def creates_ones_int(out, n):
    a = np.ones(n, np.int32)
    out[0] = a.sum()


def creates_full(out, n):
    a = np.full((2, n), 1.5)
    out[0] = a.sum()


def creates_arange(out, n):
    a = np.arange(n)
    out[0] = a[n - 1] + a.sum()


def creates_like(out, x):
    a = np.empty_like(x)
    b = np.zeros_like(x)
    for i in range(x.shape[0]):
        a[i] = x[i] * 2
    out[0] = a.sum() + b.sum()


def copies(out, x):
    a = x.copy()
    a[0] = 100.0
    out[0] = a[0] + x[0] + a.sum()


def copies_a_reversed_global(out):
    a = REVERSED.copy()
    for i in range(len(out)):
        out[i] = a[i]


REVERSED = np.array([1.0, 2.0, 3.0])[::-1]


def reduces_with_temporaries(out, x):
    out[0] = np.count_nonzero(x)
    out[1] = np.nanmax(x)
    out[2] = np.nanmin(x)
    out[3] = np.nanmean(x)


def creates_in_a_loop(out, n):
    total = 0.0
    for i in range(n):
        t = np.empty(2)
        t[0] = i
        t[1] = 1.0
        total += t[0] + t[1]
    out[0] = total


def keeps_views_of_a_created_array(out, n):
    x = np.empty((n, 2))
    for i in range(n):
        y = x[i]
        y[0] = i
        y[1] = 2 * i
    for i in range(n):
        y = x[i]
    out[0] = x.sum() + y[1]


def creates_on_one_branch(out, x, flag):
    t = np.empty_like(x)
    for i in range(t.shape[0]):
        t[i] = 1.0
    if flag:
        np.empty_like(x)
    out[0] = t.sum()


@cuda.jit(device=True)
def make_squares(n):
    a = np.empty(n)
    for i in range(n):
        a[i] = i * i
    return a


@cuda.jit(device=True)
def tail(x):
    return x[1:]


def calls_a_device_function_returning_an_array(out, n):
    a = make_squares(n)
    b = tail(a)
    out[0] = b.sum() + len(b)


def joins_and_differences(out, x):
    # Library code whose checks raise f-string messages: a kernel records a constant one.
    j = np.concatenate((x, x[::-1]))
    s = np.stack((x, x))
    d = np.diff(j)
    out[0] = j.sum() + s[1, 2] + d.sum() + d[0]


def array_expressions(out, x):
    y = np.sin(x) * 2 + x
    m = x[x > 1.0]
    w = np.where(x > 2.0, x, -1.0)
    c = np.cumsum(x).astype(np.float32)
    out[0] = y.sum() + m.sum() + w.sum() + c[-1] + np.linspace(0.0, 1.0, 5)[3]
    out[1] = np.eye(3)[1, 1] + np.array((x[0], 2.0, 3.0)).sum() + np.repeat(x, 2)[3]


def per_thread(out, n):
    i = cuda.grid(1)
    if i < out.shape[0]:
        a = np.arange(n)  # one block per thread
        out[i] = a.sum() * i


ONE_THREAD = [
    (creates_empty, (F64, int64), lambda: (np.zeros(1), 7)),
    (creates_zeros_2d, (F64, int64), lambda: (np.zeros(1), 4)),
    (creates_ones_int, (int64[::1], int64), lambda: (np.zeros(1, np.int64), 9)),
    (creates_full, (F64, int64), lambda: (np.zeros(1), 5)),
    (creates_arange, (int64[::1], int64), lambda: (np.zeros(1, np.int64), 6)),
    (creates_like, (F64, F64), lambda: (np.zeros(1), np.arange(5.0))),
    (copies, (F64, float64[:]), lambda: (np.zeros(1), np.arange(6.0)[::2])),
    (copies_a_reversed_global, (F64,), lambda: (np.zeros(3),)),
    (
        reduces_with_temporaries,
        (F64, F64),
        lambda: (np.zeros(4), np.array([1.0, np.nan, -3.0, 0.0, 7.5])),
    ),
    (creates_in_a_loop, (F64, int64), lambda: (np.zeros(1), 10)),
    (keeps_views_of_a_created_array, (F64, int64), lambda: (np.zeros(1), 10)),
    (creates_on_one_branch, (F64, F64, int32), lambda: (np.zeros(1), np.ones(5), 1)),
    (calls_a_device_function_returning_an_array, (F64, int64), lambda: (np.zeros(1), 6)),
    (joins_and_differences, (F64, F64), lambda: (np.zeros(1), np.arange(5.0) ** 2)),
    (array_expressions, (F64, F64), lambda: (np.zeros(2), np.arange(5.0))),
]
IDS = [case[0].__name__ for case in ONE_THREAD]


def expected(kernel, arguments):
    """What the kernel writes, run as Python with NumPy (device functions as their Python)."""
    copies_ = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in arguments]
    namespace = dict(kernel.__globals__)
    namespace["make_squares"] = make_squares.py_func
    namespace["tail"] = tail.py_func
    function = type(kernel)(kernel.__code__, namespace)
    function(*copies_)
    return copies_[0]


# --- PTX, without a GPU -----------------------------------------------------------------------


def runtime_calls(ptx):
    return set(re.findall(r"call\.uni[^;]*?\n?\s*(\w+),", ptx))


@needs_ptxas
@pytest.mark.parametrize("kernel, types, arguments", ONE_THREAD, ids=IDS)
def test_kernels_creating_arrays_assemble(kernel, types, arguments, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, void(*types))
    ptxas(ptx, tmp_path)
    calls = runtime_calls(ptx)
    assert {"NRT_MemInfo_alloc_aligned", "NRT_decref", "malloc", "free"} <= calls, calls
    # The host points this global at its statistics when it loads the module.
    assert re.search(r"\.visible \.global .*taipan_nrt_memsys", ptx)


@needs_ptxas
def test_a_kernel_per_thread_assembles(tmp_path):
    ptx, _ = cuda.compile_ptx(per_thread, void(F64, int64))
    ptxas(ptx, tmp_path)
    assert "NRT_MemInfo_alloc_aligned" in runtime_calls(ptx)


@needs_ptxas
@pytest.mark.parametrize("opt", [True, False])
def test_a_device_function_returning_an_array_assembles(opt, tmp_path):
    ptx, resty = cuda.compile_ptx(make_squares, (int64,), device=True, opt=opt)
    ptxas(ptx, tmp_path)
    assert resty == float64[::1]
    assert "NRT_MemInfo_alloc_aligned" in ptx


def views_of_arguments(out, x, pair):
    y = tail(x)
    z = pair[0][1:]
    out[0] = y[0] + z[0] + x.sum()


def reads_only(out, x):
    out[0] = x.sum() + x.mean()


@needs_ptxas
@pytest.mark.parametrize("kernel", [views_of_arguments, reads_only])
def test_kernels_creating_nothing_count_nothing(kernel, tmp_path):
    # A kernel's array arguments (alone or in tuples) are borrowed: the counting of their views
    # folds away, so such kernels stay as fast as before the device runtime.
    types = (F64, F64, Tuple((F64, F64))) if kernel is views_of_arguments else (F64, F64)
    ptx, _ = cuda.compile_ptx(kernel, void(*types))
    ptxas(ptx, tmp_path)
    assert "NRT_" not in ptx and "malloc" not in ptx
    assert "taipan_nrt_memsys" not in ptx


def sums_a_view(x):
    return tail(x).sum()


@needs_ptxas
def test_c_abi_functions_borrow_their_array_arguments(tmp_path):
    # compile(abi='c'): the caller's arrays (whatever it put in their MemInfo) are not counted.
    ptx, _ = cuda.compile(sums_a_view, float64(F64))
    ptxas(ptx, tmp_path)
    assert "NRT_" not in ptx


def counted_views(out, n):
    x = np.empty((n, 2))
    for i in range(n):
        y = x[i]
        y[0] = 1.0
    out[0] = x[0, 0]


@needs_ptxas
def test_views_of_created_arrays_are_counted_atomically(tmp_path):
    ptx, _ = cuda.compile_ptx(counted_views, void(F64, int64), opt=False)
    ptxas(ptx, tmp_path)
    assert {"NRT_incref", "NRT_decref"} <= runtime_calls(ptx)
    assert re.search(r"atom(\.global)?\.add\.u64", ptx)


def negative(out, n):
    a = np.empty(n)
    out[0] = a.size


@needs_ptxas
def test_allocation_errors_are_recorded_on_the_device(tmp_path):
    # ValueError (negative extent, too big) and MemoryError go through the device's raise: the
    # exception flag's codes for both appear in the kernel.
    ptx, _ = cuda.compile_ptx(negative, void(F64, int64), debug=True, opt=False)
    ptxas(ptx, tmp_path)
    assert "taipan_cuda_exception" in ptx


# --- the simulator ----------------------------------------------------------------------------


def test_the_simulator_runs_kernels_creating_arrays(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        import test_cuda_device_allocation as t
        from taipan import cuda

        for kernel, types, arguments in t.ONE_THREAD:
            args = arguments()
            want = t.expected(kernel, args)
            cuda.jit(kernel)[1, 1](*args)
            assert np.array_equal(args[0], want, equal_nan=True), (kernel.__name__, args[0], want)
        print("ok")
        """,
    )


# --- on a GPU ---------------------------------------------------------------------------------


@pytest.fixture
def counting():
    """rtsys with its statistics on; off again afterwards."""
    from taipan.cuda.nrt import rtsys

    rtsys.memsys_enable_stats()
    yield rtsys
    rtsys.memsys_disable_stats()


def moved(rtsys, before):
    after = rtsys.get_allocation_stats()
    return tuple(a - b for a, b in zip(after, before))


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("kernel, types, arguments", ONE_THREAD, ids=IDS)
def test_kernels_creating_arrays_match_numpy_and_free_every_block(
    kernel, types, arguments, counting
):
    args = arguments()
    want = expected(kernel, args)
    before = counting.get_allocation_stats()
    cuda.jit(kernel)[1, 1](*args)
    np.testing.assert_array_equal(args[0], want)
    alloc, free, mi_alloc, mi_free = moved(counting, before)
    assert alloc > 0 and alloc == free and mi_alloc == mi_free == alloc


@pytest.mark.cuda
@needs_gpu
def test_exact_counts_per_thread(counting):
    out = np.zeros(256)
    before = counting.get_allocation_stats()
    cuda.jit(per_thread)[4, 64](out, 5)
    np.testing.assert_array_equal(out, np.arange(256) * 10)
    assert moved(counting, before) == (256, 256, 256, 256)
    before = counting.get_allocation_stats()
    cuda.jit(creates_in_a_loop)[1, 1](np.zeros(1), 10)
    assert moved(counting, before) == (10, 10, 10, 10)


@pytest.mark.cuda
@needs_gpu
def test_statistics_switch(counting):
    kernel = cuda.jit(creates_in_a_loop)
    first = counting.get_allocation_stats()
    counting.memsys_disable_stats()
    assert not counting.memsys_stats_enabled()
    with pytest.raises(RuntimeError, match="NRT stats are disabled."):
        counting.get_allocation_stats()
    kernel[1, 1](np.zeros(1), 3)  # not counted
    counting.memsys_enable_stats()
    assert counting.get_allocation_stats() == first
    kernel[1, 1](np.zeros(1), 3)
    assert moved(counting, first) == (3, 3, 3, 3)
    assert counting.memsys_get_stats_alloc() == first.alloc + 3


@pytest.mark.cuda
@needs_gpu
def test_allocation_errors_raise_and_leak_nothing(counting):
    kernel = cuda.jit(negative, debug=True, opt=False)
    before = counting.get_allocation_stats()
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        kernel[1, 1](np.zeros(1), -1)
    with pytest.raises(MemoryError):
        kernel[1, 1](np.zeros(1), 1 << 50)  # 8 PiB: more than the device heap
    alloc, free, _, _ = moved(counting, before)
    assert alloc == free


def test_rtsys_without_cuda_raises_cuda_support_error(tmp_path):
    source = (
        "from taipan.cuda.nrt import rtsys\n"
        "from taipan.cuda import CudaSupportError\n"
        "try:\n    rtsys.get_allocation_stats()\n"
        "except CudaSupportError as e:\n    print('refused', 'NUMBA_DISABLE_CUDA' in str(e))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env.update(NUMBA_DISABLE_CUDA="1", PYTHONPATH=child_python_path())
    result = subprocess.run(
        [sys.executable, "-c", source],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.stdout.strip() == "refused True", result.stdout + result.stderr


def joins_mismatched(out, a, b):
    j = np.concatenate((a, b))
    out[0] = j[0, 0]


@needs_ptxas
def test_a_check_with_a_formatted_message_compiles_in_a_kernel(tmp_path):
    ptx, _ = cuda.compile_ptx(joins_mismatched, void(F64, float64[:, ::1], float64[:, ::1]))
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@needs_gpu
def test_a_check_with_a_formatted_message_raises_in_a_debug_kernel():
    kernel = cuda.jit(joins_mismatched, debug=True, opt=False)
    with pytest.raises(ValueError, match="message made at run time"):
        kernel[1, 1](np.zeros(1), np.zeros((2, 3)), np.zeros((2, 4)))
