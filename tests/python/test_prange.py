"""prange in parallel=True functions: loops split over the thread pool, with reductions (+=, *=,
min, max, bitwise; scalars and arrays), private variables and shared arrays; serial fallback
with a ParallelSafetyWarning naming the line where iterations depend on each other; errors
raised inside the loop; parallel_diagnostics; several thread counts, several Python threads at
once, and fork after parallel work. Every result is compared with py_func."""

import inspect
import os
import textwrap
import threading
import warnings

import numpy as np
import pytest
from child_processes import child_environment, run_python
from numpy_checks import counting_allocations, no_allocation_leak

import taipan
from taipan import njit, prange
from taipan.errors import ParallelSafetyWarning

THREAD_COUNTS = sorted({1, 2, taipan.config.NUMBA_NUM_THREADS})


@pytest.fixture(params=THREAD_COUNTS)
def threads(request):
    previous = taipan.get_num_threads()
    taipan.set_num_threads(request.param)
    yield request.param
    taipan.set_num_threads(previous)


def compiled(function):
    """The function compiled with parallel=True, with no serial-fallback warning allowed."""
    dispatcher = njit(parallel=True)(function)

    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ParallelSafetyWarning)
            return dispatcher(*args)

    call.dispatcher = dispatcher
    return call


def runs_in_parallel(call, *args):
    loops = call.dispatcher.overloads[call.dispatcher.signatures[0]].parallel_loops
    assert loops and all(loop["parallel"] for loop in loops), loops


def int_sum(a):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


def float_sum_product(a):
    s = 0.0
    p = 1.0
    for i in prange(len(a)):
        s += a[i]
        p *= 1.0 + a[i] * 1e-9
    return s, p


def minimum_maximum(a):
    lo = np.inf
    hi = -np.inf
    for i in prange(a.size):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
    return lo, hi


def integer_min_max(a):
    lo = 1 << 62
    hi = -(1 << 62)
    for i in prange(a.size):
        lo = min(a[i], lo)
        hi = max(hi, a[i])
    return lo, hi


def element_first_float_max(a):
    hi = -np.inf
    for i in prange(a.size):
        hi = max(a[i], hi)
    return hi


def bitwise(a):
    x = 0
    o = 0
    n = -1
    for i in prange(a.size):
        x ^= a[i]
        o |= a[i]
        n &= a[i] | 1
    return x, o, n


def subtract_and_rebind(a):
    s = 10
    t = 0
    for i in prange(a.size):
        s -= a[i]
        t = t + 2 * a[i]
    return s, t


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32])
def test_integer_and_float_sums_match_python(threads, dtype):
    f = compiled(int_sum)
    with no_allocation_leak():
        for n in (0, 1, 3, 1000, 100_001):
            a = (np.arange(n) % 97).astype(dtype)
            expected = f.dispatcher.py_func(a)
            result = f(a)
            if np.dtype(dtype).kind == "f":
                assert result == pytest.approx(expected, rel=1e-6)
            else:
                assert result == expected
    runs_in_parallel(f, a)


def test_integer_reductions_are_deterministic_across_thread_counts():
    f = compiled(int_sum)
    a = np.random.default_rng(1).integers(-(1 << 40), 1 << 40, 1_000_003)
    results = set()
    previous = taipan.get_num_threads()
    try:
        for count in range(1, taipan.config.NUMBA_NUM_THREADS + 1):
            taipan.set_num_threads(count)
            results.add(f(a))
    finally:
        taipan.set_num_threads(previous)
    assert results == {int(a.sum())}


def test_float_sum_and_product(threads):
    f = compiled(float_sum_product)
    a = np.random.default_rng(2).random(200_001)
    s, p = f(a)
    es, ep = float_sum_product(a)
    # Within reassociation: n roundings of a relative 2**-53 each bound the difference.
    assert s == pytest.approx(es, rel=len(a) * 2.0**-53)
    assert p == pytest.approx(ep, rel=len(a) * 2.0**-53)
    assert f(a[:0]) == (0.0, 1.0)
    assert f(a[::3]) == pytest.approx(float_sum_product(a[::3]), rel=1e-12)


def float_updates(a, z):
    s = 0.0
    d = 100.0
    p = 1.0
    c = 0j
    for i in prange(a.shape[0]):
        s += a[i] * 0.5
        d -= a[i]
        p *= 1.0 + a[i] * 1e-6
        c += z[i]
    return s, d, p, c


def chunk_ir(function, *args):
    call = compiled(function)
    call(*args)
    return next(iter(call.dispatcher.inspect_llvm().values()))


def test_float_reductions_sum_each_chunk_in_vector_lanes(threads):
    """A chunk's float `+=`, `-=` and `*=` updates may be reassociated (the chunks already are):
    LLVM sums a chunk in vector lanes. Sums of integers below 2**53 are exact in any order, so
    they still equal Python's; other values agree within reassociation, and NaN and infinities
    propagate as in Python."""
    f = compiled(float_updates)
    rng = np.random.default_rng(12)
    whole = np.arange(100_003, dtype=np.float64)
    z = whole * (1 + 2j)
    with no_allocation_leak():
        s, d, _, c = f(whole, z)
        es, ed, _, ec = float_updates(whole, z)
        assert (s, d, c) == (es, ed, ec)
        a = rng.standard_normal(50_001)
        for result, expected in zip(f(a, a * 1j), float_updates(a, a * 1j)):
            assert result == pytest.approx(expected, rel=1e-9, abs=1e-9)
        for special in (np.nan, np.inf, -np.inf):
            b = rng.standard_normal(10_001)
            b[7777] = special
            with np.errstate(all="ignore"):
                np.testing.assert_equal(f(b, b + 0j), float_updates(b, b + 0j))
        b = np.full(1001, -0.0)
        assert [str(v) for v in f(b, b + 0j)] == [str(v) for v in float_updates(b, b + 0j)]
        assert f(whole[:0], z[:0]) == (0.0, 100.0, 1.0, 0j)
    ir = chunk_ir(float_sum_product, whole)
    assert "fadd reassoc <" in ir and "fmul reassoc <" in ir, "the chunk loop is not vectorised"


def test_min_max_with_nan_inf_and_signed_zero(threads):
    f = compiled(minimum_maximum)
    special = np.array([0.0, -0.0, np.inf, -np.inf, 3.5, -2.0, np.nan, 1e308])
    for a in (
        np.random.default_rng(3).standard_normal(10_001),
        special,
        np.tile(special, 1000),
        np.array([np.nan, 1.0, 2.0]),
        np.empty(0),
    ):
        np.testing.assert_equal(f(a), minimum_maximum(a))
    g = compiled(integer_min_max)
    b = np.random.default_rng(4).integers(-1000, 1000, 5001)
    assert g(b) == integer_min_max(b)


def test_bitwise_and_subtraction_reductions(threads):
    a = np.random.default_rng(5).integers(0, 1 << 20, 30_001)
    assert compiled(bitwise)(a) == bitwise(a)
    assert compiled(subtract_and_rebind)(a) == subtract_and_rebind(a)


def row_sums(a):
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc += a[i, :]
    return acc


def histogram_product(a):
    acc = np.ones(4)
    for i in prange(a.shape[0]):
        acc *= a[i]
    return acc


def test_array_reductions(threads):
    a = np.random.default_rng(6).random((1001, 7))
    with no_allocation_leak():
        np.testing.assert_allclose(compiled(row_sums)(a), row_sums(a), rtol=1e-12)
        np.testing.assert_array_equal(compiled(row_sums)(a[:0]), np.zeros(7))
        b = 1.0 + np.random.default_rng(7).random((501, 4)) * 1e-3
        np.testing.assert_allclose(compiled(histogram_product)(b), histogram_product(b), rtol=1e-12)


def private_temporaries(a, out):
    for i in prange(a.shape[0]):
        t = a[i] * 2.0
        if t > 1.0:
            u = t - 1.0
        else:
            u = -t
        out[i] = u * u


def private_arrays(a):
    total = 0.0
    for i in prange(a.shape[0]):
        row = np.empty(3)
        row[:] = a[i]
        row[1] += 1.0
        total += row.sum()
    return total


def test_private_variables_and_private_arrays(threads):
    a = np.random.default_rng(8).random(10_000) * 2
    out, expected = np.empty_like(a), np.empty_like(a)
    compiled(private_temporaries)(a, out)
    private_temporaries(a, expected)
    np.testing.assert_array_equal(out, expected)
    with no_allocation_leak():
        assert compiled(private_arrays)(a) == pytest.approx(private_arrays(a), rel=1e-12)


def nested(a):
    s = 0.0
    for i in prange(a.shape[0]):
        inner = 0.0
        for j in range(a.shape[1]):
            inner += a[i, j] * j
        s += inner
    return s


def nested_prange(a, out):
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):  # runs serially on its thread
            out[i, j] = a[i, j] + i * j


def test_nested_loops(threads):
    a = np.random.default_rng(9).random((300, 17))
    assert compiled(nested)(a) == pytest.approx(nested(a), rel=1e-12)
    out, expected = np.empty_like(a), np.empty_like(a)
    compiled(nested_prange)(a, out)
    nested_prange(a, expected)
    np.testing.assert_array_equal(out, expected)


def strided(n, out):
    count = 0
    for i in prange(n, -n - 1, -3):
        out[(i + n) // 3] = i
        count += 1
    return count


def test_start_stop_step_and_else(threads):
    n = 3000
    out, expected = np.zeros(n), np.zeros(n)
    assert compiled(strided)(n, out) == strided(n, expected)
    np.testing.assert_array_equal(out, expected)
    assert compiled(strided)(-5, out) == 0

    def with_else(a):
        s = 0
        for i in prange(a.size):
            s += a[i]
        else:  # noqa: PLW0120 - the else clause of a prange loop is what is tested
            s += 1000
        return s

    a = np.arange(100)
    assert compiled(with_else)(a) == with_else(a)


def divide_all(a, b):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] // b[i]
    return s


def allocate_then_fail(a, limit):
    acc = np.zeros(3)
    for i in prange(a.shape[0]):
        tmp = np.full(3, a[i])
        if a[i] > limit:
            raise ValueError("too large")
        acc += tmp
    return acc


def test_exceptions_inside_the_loop_propagate_without_leaks(threads):
    a = np.arange(1, 10_001, dtype=np.int64)
    b = np.ones_like(a)
    b[7777] = 0
    f = compiled(divide_all)
    with no_allocation_leak():
        with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
            f(a, b)
        g = compiled(allocate_then_fail)
        with pytest.raises(ValueError, match="too large"):
            g(a.astype(np.float64), 5000.0)
        np.testing.assert_array_equal(
            g(a.astype(np.float64), 1e9), allocate_then_fail(a.astype(np.float64), 1e9)
        )


def test_boundscheck_index_error_inside_the_loop():
    @njit(parallel=True, boundscheck=True)
    def out_of_range(a):
        s = 0.0
        for i in prange(a.shape[0] + 1):
            s += a[i]
        return s

    with no_allocation_leak(), pytest.raises(IndexError):
        out_of_range(np.ones(1000))


def carried(a):
    x = 0.0
    for i in prange(a.shape[0]):
        a[i] = x
        x = a[i] + 1.0
    return x


def early_exit(a):
    s = 0
    for i in prange(a.shape[0]):
        if a[i] < 0:
            break
        s += a[i]
    return s


def private_read_after(a):
    t = 0.0
    for i in prange(a.shape[0]):
        t = a[i] * 2
    return t


def mixed_reduction(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
        s *= 0.5
    return s


@pytest.mark.parametrize(
    "function, fragment",
    [
        (carried, "variable 'x' is read before it is assigned"),
        (early_exit, "break or return"),
        (private_read_after, "variable 't' is assigned in the loop and its value is read after"),
        (mixed_reduction, "variable 's' is read before it is assigned"),
        (element_first_float_max, "variable 'hi' is read before it is assigned"),
    ],
)
def test_dependences_warn_and_run_serially(function, fragment):
    f = njit(parallel=True)(function)
    a = np.arange(1000, dtype=np.float64) - 3
    with pytest.warns(ParallelSafetyWarning, match=fragment) as record:
        result = f(a.copy())
    assert result == function(a.copy())
    lines, first = inspect.getsourcelines(function)
    loop_line = first + next(i for i, line in enumerate(lines) if "prange" in line)
    assert record[0].filename == function.__code__.co_filename
    assert record[0].lineno == loop_line


def test_parallel_diagnostics_names_loops_and_variables(capsys):
    f = njit(parallel=True)(float_sum_product)
    f(np.ones(10))
    g = njit(parallel=True)(carried)
    with pytest.warns(ParallelSafetyWarning):
        g(np.ones(10))
    f.parallel_diagnostics(level=2)
    g.parallel_diagnostics()
    text = capsys.readouterr().out
    assert "parallel on the thread pool" in text
    assert "reductions: p (*=), s (+=)" in text
    assert "private: i" in text
    assert "shared: a" in text
    assert "serial" in text and "variable 'x'" in text
    h = njit(float_sum_product)
    h(np.ones(3))
    h.parallel_diagnostics()
    assert "compiled without parallel=True" in capsys.readouterr().out


def test_prange_without_parallel_is_range_and_python_range():
    assert list(prange(2, 9, 3)) == [2, 5, 8]
    f = njit(int_sum)
    a = np.arange(100)
    assert f(a) == 4950
    assert f.overloads[f.signatures[0]].parallel_loops == []


def test_thread_functions_in_compiled_code():
    @njit(parallel=True)
    def ids(n):
        out = np.zeros(n, np.int64)
        for i in prange(n):
            out[i] = taipan.get_thread_id()
        return out, taipan.get_num_threads()

    previous = taipan.get_num_threads()
    try:
        taipan.set_num_threads(2)
        out, count = ids(1000)
        assert count == 2
        # Each thread owns 4 contiguous chunks and may take the other's it has not started, so
        # every chunk of 125 iterations runs on one thread, whichever it is.
        threads = 2 if taipan.config.NUMBA_NUM_THREADS > 1 else 1
        assert set(out.tolist()) <= set(range(threads))
        chunks = out.reshape(4 * threads, -1)
        assert (chunks == chunks[:, :1]).all()
    finally:
        taipan.set_num_threads(previous)
    assert taipan.get_thread_id() == 0


def test_calls_from_several_python_threads_at_once():
    f = compiled(int_sum)
    a = np.arange(2_000_000, dtype=np.int64)
    expected = int(a.sum())
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append(f(a))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    workers = [threading.Thread(target=work) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors
    assert results == [expected] * 80


def test_parallel_call_releases_the_gil():
    @njit(parallel=True)
    def spin(n):
        s = 0
        for i in prange(n):
            for j in range(2000):
                s += (i * j) % 7
        return s

    spin(10)
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    spin(200_000)
    done.set()
    thread.join()
    assert len(ticks) > 3


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_fork_after_parallel_work_does_not_hang():
    script = textwrap.dedent(
        """
        import os, sys
        import numpy as np
        from taipan import njit, prange

        @njit(parallel=True)
        def total(a):
            s = 0
            for i in prange(a.size):
                s += a[i]
            return s

        a = np.arange(1_000_000)
        assert total(a) == a.sum()
        pid = os.fork()
        if pid == 0:
            ok = total(a) == a.sum()
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        assert total(a) == a.sum()
        sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    environment = child_environment(TAIPAN_NUM_THREADS="4")
    run_python(["-c", script], env=environment, timeout=120, text=False)


def expression(a, b, c):
    return a * b + np.sin(c)


def reductions(a, b):
    return np.sum(a * b), a.sum(), np.prod(b[:50] + 0.5), a.mean()


@pytest.mark.parametrize("n", [0, 7, 1 << 14, 100_003])
def test_array_expressions_and_reductions_split_over_threads(threads, n):
    rng = np.random.default_rng(10)
    a, b, c = (rng.standard_normal(n) for _ in range(3))
    f = njit(parallel=True)(expression)
    with no_allocation_leak():
        np.testing.assert_array_equal(f(a, b, c), expression(a, b, c))
        np.testing.assert_array_equal(f(a[::2], b[::2], 1.5), expression(a[::2], b[::2], 1.5))
        two = a[: n - n % 4].reshape(-1, 4) if n >= 4 else a.reshape(0, 4)[:0]
        np.testing.assert_array_equal(f(two, two, two[:1]), expression(two, two, two[:1]))
    g = njit(parallel=True)(reductions)
    if n >= 50:
        np.testing.assert_allclose(g(a, b), reductions(a, b), rtol=1e-9)
    ints = np.arange(n, dtype=np.int64) - n // 2
    h = njit(parallel=True)(lambda x: (x.sum(), np.sum(x * 3), np.prod(x[:5] + n)))
    assert h(ints) == (ints.sum(), np.sum(ints * 3), np.prod(ints[:5] + n))
    assert "taipan_parallel_for" in f.inspect_llvm(f.signatures[0])


def test_array_expression_errors_follow_numpy_in_parallel():
    @njit(parallel=True)
    def divide(a, b):
        return a // b, a / b

    a = np.arange(1 << 15, dtype=np.int64)
    b = np.zeros_like(a)
    with np.errstate(all="ignore"):
        expected = (a // b, a / b)
    result = divide(a, b)
    np.testing.assert_array_equal(result[0], expected[0])
    np.testing.assert_array_equal(result[1], expected[1])


def fused_sums(a, b, s):
    return np.sum(a * b), (a - s).sum(), np.prod(a[:5] * 2 + s), np.sum(a * b, axis=0)


@pytest.mark.parametrize("parallel", [False, True])
def test_sum_of_an_array_expression_makes_no_array(parallel):
    f = njit(parallel=parallel)(fused_sums)
    rng = np.random.default_rng(11)
    for shape in [(0,), (5,), (100_003,), (300, 70)]:
        a = rng.integers(-50, 50, shape)
        b = rng.integers(-50, 50, shape)
        result = f(a, b, 3)
        expected = fused_sums(a, b, 3)
        assert result[:3] == expected[:3]
        np.testing.assert_array_equal(result[3], expected[3])
        x, y = rng.standard_normal(shape), rng.standard_normal(shape)
        np.testing.assert_allclose(f(x, y, 0.5)[0], fused_sums(x, y, 0.5)[0], rtol=1e-9, atol=1e-9)
    # broadcasting and strided operands take the general path, with the same result
    a = rng.integers(-50, 50, (40, 30))
    g = njit(parallel=parallel)(lambda a, b: np.sum(a * b))
    assert g(a, a[0]) == np.sum(a * a[0])
    assert g(a[:, ::2], a[::-1, ::2]) == np.sum(a[:, ::2] * a[::-1, ::2])
    with pytest.raises(ValueError, match="broadcast"):
        g(a, a[:3])
    with counting_allocations() as count:
        g(a, a)
    assert count.allocated == 0
