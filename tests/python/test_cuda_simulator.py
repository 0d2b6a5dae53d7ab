"""The CUDA simulator (TAIPAN_ENABLE_CUDASIM=1): kernels run on the CPU, one Python thread per
GPU thread of a block. Every case runs a fresh interpreter with the variable set (it is read
when taipan is imported), importing taipan from where this process did.

The GPU tests of test_cuda_kernels.py, test_cuda_host_api.py and test_cuda_keywords.py run in
the simulator unchanged (``cuda.is_available()`` is true there), so the seed kernels are checked
against the same NumPy results as on a GPU; the other cases check what only the simulator
shows: barriers, shared memory per block, atomics under contention, deadlocks, errors naming
the kernel line, print, pdb."""

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest
from child_processes import child_python_path

import taipan

TESTS = os.path.dirname(os.path.abspath(__file__))


def environment(**variables):
    """os.environ without TAIPAN_/NUMBA_ variables, the simulator on unless `variables` say
    otherwise, and PYTHONPATH finding this taipan and the tests' helper modules."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env["PYTHONPATH"] = child_python_path(TESTS)
    env.update(variables or {"TAIPAN_ENABLE_CUDASIM": "1"})
    return env


def simulate(code, tmp_path, stdin=None, timeout=300, **variables):
    """Runs `code` as a script in the simulator; returns the finished process."""
    script = tmp_path / "kernel_script.py"
    script.write_text(textwrap.dedent(code))
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=environment(**variables),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def succeeds(code, tmp_path, **kwargs):
    result = simulate(code, tmp_path, **kwargs)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


# --- the GPU tests, in the simulator -----------------------------------------------------------

# The GPU tests of each file that can run in the simulator, with how many there are at least
# (so that none is skipped unnoticed). Left out: those needing CuPy or PyTorch on a GPU, a
# private driver call (cuda_memset), the driver's cuFFT and cuBLAS (test_cuda_libraries.py),
# foreign linking and several GPUs, and the Monte Carlo example (30 million draws in Python).
GPU_TESTS = {
    "kernels": ("test_cuda_kernels.py", ["-m", "cuda"], 23),
    "host_api": ("test_cuda_host_api.py", ["-m", "cuda"], 20),
    "keywords": ("test_cuda_keywords.py", ["-m", "cuda"], 3),
    "interop": ("test_cuda_interop.py", ["-m", "cuda", "-k", "raw_pointer"], 1),
    "reduce": (
        "test_cuda_reduce.py",
        ["-m", "cuda", "-k", "not cupy and not more_than_two_to_the_31"],
        55,
    ),
    "ufuncs": ("test_cuda_ufuncs.py", ["-m", "cuda", "-k", "not cupy and not torch"], 50),
    "random": (
        "test_cuda_random.py",
        ["-k", "python_code or reseeding_on_the_device or random_3d_from or states_on_a"],
        4,
    ),
}


@pytest.mark.parametrize("name", GPU_TESTS)
def test_gpu_tests_pass_in_the_simulator(name):
    target, selection, at_least = GPU_TESTS[name]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *selection]
        + [os.path.join(TESTS, target)],
        cwd=os.path.dirname(os.path.dirname(TESTS)),
        env=environment(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= at_least, summary
    assert "skipped" not in summary and "failed" not in summary, summary


SEED_KERNELS = """
import json, math
import numpy as np
import cuda_kernels as k
from taipan import cuda

checked = set()

def check(kernel, ok):
    assert ok, kernel.__name__
    checked.add(kernel.__name__)

rng = np.random.default_rng(0)
x = rng.random(1000).astype(np.float32)
out = np.zeros_like(x)
k.add_grid_stride[4, 64](x, x, out)
check(k.add_grid_stride, np.array_equal(out, x + x))

gray = np.floor(rng.uniform(0, 255, 3000)).astype(np.float32)
weights = rng.normal(0.5, 0.1, 3000).astype(np.float32)
d_norm = cuda.device_array_like(gray)
d_weighted = cuda.device_array_like(gray)
d_out = cuda.device_array_like(gray)
k.normalize[12, 256](cuda.to_device(gray), d_norm)
check(k.normalize, np.allclose(d_norm.copy_to_host(), gray / 255))
k.weigh[12, 256](d_norm, cuda.to_device(weights), d_weighted)
check(k.weigh, np.allclose(d_weighted.copy_to_host(), gray / 255 * weights))
k.activate[12, 256](d_weighted, d_out)
check(k.activate, np.allclose(d_out.copy_to_host(), np.tanh(gray / 255 * weights), atol=1e-6))

a = rng.random((40, 30))
b = rng.random((30, 20))
c = np.zeros((40, 20))
k.matmul_simple[(3, 2), (16, 16)](a, b, c)
check(k.matmul_simple, np.allclose(c, a @ b))
a32, b32 = a.astype(np.float32), b.astype(np.float32)
c32 = np.zeros((40, 20), np.float32)
k.matmul_shared[(3, 3), (16, 16)](a32, b32, c32)
check(k.matmul_shared, np.allclose(c32, a32 @ b32, rtol=1e-5))

counter = np.zeros(1, np.int32)
k.count_threads[8, 64](counter)
check(k.count_threads, counter[0] == 512)

values = rng.random(5000)
counts = np.zeros(10, np.int32)
k.histogram[20, 256](values, 10, counts)
check(k.histogram, np.array_equal(counts, np.histogram(values, bins=10, range=(0, 1))[0]))

source = np.arange(50 * 40, dtype=np.float32).reshape(50, 40)
target = np.zeros((40, 50), np.float32)
k.transpose_tiled[(2, 2), (k.TILE, k.TILE)](source, target)
check(k.transpose_tiled, np.array_equal(target, source.T))

clamped = np.linspace(-2, 2, 33)
k.clamp_all[1, 64](clamped, -1.0, 1.0)
check(k.clamp_all, np.array_equal(clamped, np.clip(np.linspace(-2, 2, 33), -1, 1)))
check(k.squared, k.squared(7) == 49)  # device functions are Python functions

warp_out = np.zeros(32)
bits = np.zeros(32, np.int64)
k.warp_and_intrinsics[1, 32](warp_out, bits)
lanes = np.arange(32)
shifted = np.where(lanes < 31, (lanes + 1) ** 2, lanes**2)
brev = np.array([int(format(i, "032b")[::-1], 2) for i in lanes])
clz = np.array([32 - int(i).bit_length() for i in lanes])
ffs = np.array([(int(i) & -int(i)).bit_length() for i in lanes])
check(k.warp_and_intrinsics, np.array_equal(warp_out, shifted + 16 + 5.0)
      and np.array_equal(bits, clz + ffs + brev))

ordered = np.arange(32, dtype=np.float32)
reversed_ = np.zeros_like(ordered)
k.shared_dynamic[1, 32, 0, 32 * 4](ordered, reversed_)
check(k.shared_dynamic, np.array_equal(reversed_, ordered[::-1]))

floats = np.array([10.0, 1.0, 1.0])
ints = np.array([0, 0, 3, 3, 3, 100, 0], np.uint32)
k.atomics_all[1, 1](floats, ints)
check(k.atomics_all, floats.tolist() == [9.0, 5.0, -5.0]
      and ints.tolist() == [7, 9, 3 & 6, 3 | 6, 3 ^ 6, 0, 100])

divided = np.arange(8)
k.divide_debug[1, 8](divided, np.full(8, 2))
check(k.divide_debug, np.array_equal(divided, np.arange(8) // 2))
try:
    k.out_of_bounds_debug[1, 8](np.zeros(8))
except IndexError as error:
    check(k.out_of_bounds_debug, "tid=[7, 0, 0]" in str(error))
try:
    k.raises_debug[1, 8](np.zeros(8))
except ValueError as error:
    check(k.raises_debug, "tid=[5, 0, 0] ctaid=[0, 0, 0]: thread five objects" in str(error))

total = np.zeros(2)
k.grid_sync_sum[4, 32](np.ones(128), total)
check(k.grid_sync_sum, total.tolist() == [128.0, 128.0])

k.prints[1, 4](np.array([2.5]))
checked.add("prints")  # the output is checked by the calling test

table = np.zeros(8)
k.constant_lookup[1, 8](table)
check(k.constant_lookup, np.array_equal(table, np.tile(k.LOOKUP, 2)))

halves = np.linspace(0, 1, 64).astype(np.float16)
half_out = np.zeros_like(halves)
k.half_axpy[1, 64](np.float16(0.5), halves, half_out)
check(k.half_axpy, half_out.dtype == np.float16
      and np.allclose(half_out, np.float16(0.5) * halves + halves, rtol=1e-3))

every = np.zeros((32, 14), np.int64)
k.every_warp_intrinsic[1, 32](every)
check(k.every_warp_intrinsic, every[:, 0].tolist() == [30] * 32
      and every[:, 9].tolist() == [8] * 32 and every[:, 12].tolist() == list(range(32, 64)))

xs = np.arange(-20, 100, dtype=np.float32)
pairs = np.zeros((xs.size, 4), np.float32)
k.tuple_results[1, 128](xs, pairs)
as_int = xs.astype(np.int64)
check(k.tuple_results, np.array_equal(pairs[:, 0], as_int // 3)
      and np.array_equal(pairs[:, 1], as_int % 3) and np.array_equal(pairs[:, 2], xs + 1.5))
check(k.divmod_pair, k.divmod_pair(7, 3) == (2, 1))
check(k.sum_and_difference, k.sum_and_difference(3.0, 1.5) == (4.5, 1.5))

t = np.arange(1000, dtype=np.float32)
pulses = np.zeros_like(t)
k.make_pulses[4, 256](t, 1000 / 23, 100.0, pulses)
expected = np.maximum(np.sin(t / np.float64(1000 / 23)) - 0.3, 0.0) * 100.0
check(k.make_pulses, np.allclose(pulses, expected.astype(np.float32), rtol=1e-5, atol=1e-4))
summed = np.zeros_like(t)
k.add_arrays[4, 256](t, pulses, summed)
check(k.add_arrays, np.array_equal(summed, t + pulses))

rounded = rng.uniform(-1000, 1000, 10_003)
for kernel in (k.gpu_round, k.gpu_round_grid_stride):
    d_in = cuda.to_device(rounded)
    d_out = cuda.device_array_like(d_in)
    kernel.forall(len(d_in))(d_in, d_out, 3)
    check(kernel, np.array_equal(d_out.copy_to_host(), np.rint(rounded * 1000) / 1000))

defined = {
    name for name, value in vars(k).items()
    if isinstance(value, type(k.add_grid_stride)) or getattr(value, "_taipan_simulated", False)
}
print(json.dumps({"checked": sorted(checked), "defined": sorted(defined)}))
"""


def test_every_seed_kernel_runs_and_matches_numpy(tmp_path):
    result = succeeds(SEED_KERNELS, tmp_path)
    lines = result.stdout.splitlines()
    assert "value 2.500000 index 0 100%" in lines  # as the GPU's printf formats it
    report = json.loads(lines[-1])
    assert set(report["defined"]) <= set(report["checked"]), (
        "a kernel of cuda_kernels.py is unchecked"
    )
    assert len(report["checked"]) >= 27


# --- barriers and shared memory ------------------------------------------------------------------


def test_syncthreads_orders_every_phase(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def rotate(out, rounds):
            # Each round every thread reads its neighbour's value of the round before.
            buffer = cuda.shared.array(256, np.int64)
            t = cuda.threadIdx.x
            n = cuda.blockDim.x
            buffer[t] = t
            cuda.syncthreads()
            for _ in range(rounds):
                value = buffer[(t + 1) % n]
                cuda.syncthreads()
                buffer[t] = value
                cuda.syncthreads()
            out[cuda.blockIdx.x, t] = buffer[t]

        @cuda.jit
        def votes(out):
            t = cuda.threadIdx.x
            out[t, 0] = cuda.syncthreads_count(t % 3 == 0)
            out[t, 1] = cuda.syncthreads_and(t < 1000)
            out[t, 2] = cuda.syncthreads_and(t != 5)
            out[t, 3] = cuda.syncthreads_or(t == 99)
            out[t, 4] = cuda.syncthreads_or(t > 1000)

        out = np.zeros((3, 100), np.int64)
        rotate[3, 100](out, 7)
        assert (out == (np.arange(100) + 7) % 100).all(), out

        flags = np.zeros((100, 5), np.int64)
        votes[1, 100](flags)
        assert (flags == [34, 1, 0, 1, 0]).all(), flags
        """,
        tmp_path,
    )


def test_threads_that_returned_no_longer_count_at_a_barrier(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def early_exit(out):
            t = cuda.threadIdx.x
            if t >= 10:
                return
            cuda.syncthreads()
            out[t] = cuda.syncthreads_count(1)

        out = np.zeros(10, np.int64)
        early_exit[1, 64](out)
        assert (out == 10).all(), out
        """,
        tmp_path,
    )


def test_shared_memory_belongs_to_its_block(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def mine(out):
            # All blocks at once (a cooperative grid): each must keep its own shared array.
            own = cuda.shared.array(32, np.int64)
            other = cuda.shared.array(32, np.int64); again = cuda.shared.array(32, np.int64)
            t = cuda.threadIdx.x
            own[t] = cuda.blockIdx.x
            other[t] = -1
            again[t] = -2
            cuda.cg.this_grid().sync()
            out[cuda.blockIdx.x, t] = own[(t + 1) % 32] + 10 * other[t] + 100 * again[t]

        @cuda.jit
        def first_then_second(out):
            scratch = cuda.shared.array(64, np.float64)
            t = cuda.threadIdx.x
            scratch[t] = cuda.blockIdx.x * 100 + t
            cuda.syncthreads()
            out[cuda.blockIdx.x, t] = scratch[63 - t]

        out = np.zeros((4, 32), np.int64)
        mine[4, 32](out)
        assert (out == np.arange(4)[:, None] - 10 - 200).all(), out

        out = np.zeros((5, 64))
        first_then_second[5, 64](out)
        assert (out == np.arange(5)[:, None] * 100 + np.arange(63, -1, -1)).all()
        """,
        tmp_path,
    )


def test_local_arrays_are_per_thread_and_constants_read_only(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        TABLE = np.array([1.0, 2.0, 3.0])

        @cuda.jit
        def scratch(out):
            mine = cuda.local.array(4, np.int64)
            t = cuda.threadIdx.x
            for i in range(4):
                mine[i] = t * 10 + i
            cuda.syncthreads()
            out[t] = mine[0] + mine[3]

        @cuda.jit
        def writes_constant(out):
            table = cuda.const.array_like(TABLE)
            out[0] = table[2]
            table[0] = 5.0

        out = np.zeros(64, np.int64)
        scratch[1, 64](out)
        assert (out == np.arange(64) * 20 + 3).all()
        out = np.zeros(1)
        try:
            writes_constant[1, 1](out)
            raise AssertionError("a constant array was written")
        except ValueError as error:
            assert "read-only" in str(error)
        assert out[0] == 3.0 and TABLE[0] == 1.0
        """,
        tmp_path,
    )


# --- atomics --------------------------------------------------------------------------------------


def test_atomics_under_contention(tmp_path):
    succeeds(
        """
        import threading
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def hammer(counters, rounds):
            t = cuda.threadIdx.x
            cuda.syncthreads()  # threads of a block run concurrently
            for _ in range(rounds):
                cuda.atomic.add(counters, 0, 1)
                cuda.atomic.sub(counters, 1, 2)
                cuda.atomic.max(counters, 2, t)
                cuda.atomic.min(counters, 3, -t)
                cuda.atomic.inc(counters, 4, 1_000_000)
                cuda.atomic.or_(counters, 5, 1 << (t % 60))

        @cuda.jit
        def spin_lock(lock, total):
            # A lock taken with compare-and-swap: the sum is exact only if it excludes.
            cuda.syncthreads()
            done = False
            while not done:
                if cuda.atomic.cas(lock, 0, 0, 1) == 0:
                    total[0] = total[0] + 1.0
                    cuda.atomic.exch(lock, 0, 0)
                    done = True

        counters = np.zeros(6, np.int64)
        hammer[4, 128](counters, 50)
        n = 4 * 128 * 50
        assert counters[:5].tolist() == [n, -2 * n, 127, -127, n], counters
        assert counters[5] == (1 << 60) - 1

        lock = np.zeros(1, np.int32)
        total = np.zeros(1)
        spin_lock[2, 64](lock, total)
        assert total[0] == 128.0

        # Launches from several host threads at once share nothing but the atomics' lock.
        shared = np.zeros(6, np.int64)
        workers = [
            threading.Thread(target=lambda: hammer[2, 64](shared, 20)) for _ in range(4)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        assert shared[0] == 4 * 2 * 64 * 20, shared
        """,
        tmp_path,
    )


# --- warps ----------------------------------------------------------------------------------------


def test_warp_collectives_with_partial_masks_and_divergence(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def halves(out):
            lane = cuda.laneid
            warp = cuda.threadIdx.x // 32
            if lane < 16:
                total = cuda.shfl_xor_sync(0x0000FFFF, lane, 8)
                vote = cuda.ballot_sync(0x0000FFFF, lane % 4 == 0)
            else:
                total = cuda.shfl_down_sync(0xFFFF0000, lane, 2)
                vote = cuda.ballot_sync(0xFFFF0000, lane > 28)
            out[warp, lane, 0] = total
            out[warp, lane, 1] = vote
            cuda.syncthreads()  # no thread has returned: every lane of the warp is active
            out[warp, lane, 2] = cuda.activemask()

        @cuda.jit
        def reduce_warp(values, out):
            lane = cuda.laneid
            value = values[cuda.threadIdx.x]
            offset = 16
            while offset:
                value += cuda.shfl_down_sync(0xFFFFFFFF, value, offset)
                offset //= 2
            if lane == 0:
                out[cuda.threadIdx.x // 32] = value

        out = np.zeros((3, 32, 3), np.int64)
        halves[1, 72](out)
        lanes = np.arange(32)
        low = lanes < 16
        expected_total = np.where(low, lanes ^ 8, np.where(lanes + 2 < 32, lanes + 2, lanes))
        expected_vote = np.where(low, 0x1111, (1 << 29) | (1 << 30) | (1 << 31))
        for warp in range(2):
            assert (out[warp, :, 0] == expected_total).all(), out[warp, :, 0]
            assert (out[warp, :, 1] == expected_vote).all()
            assert (out[warp, :, 2] == 0xFFFFFFFF).all()
        # The third warp has 8 lanes: a full mask names only them, and a lane shuffling from
        # one the warp lacks keeps its own value.
        assert (out[2, :8, 0] == np.arange(8)).all(), out[2, :8, 0]
        assert (out[2, :8, 1] == 0x11).all() and (out[2, :8, 2] == 0xFF).all()

        values = np.arange(96, dtype=np.int64)
        sums = np.zeros(3, np.int64)
        reduce_warp[1, 96](values, sums)
        assert sums.tolist() == values.reshape(3, 32).sum(1).tolist()
        """,
        tmp_path,
    )


def test_a_deadlock_is_reported_not_hung(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def divergent(out):
            if cuda.laneid < 16:
                out[cuda.laneid] = cuda.shfl_sync(0xFFFFFFFF, 1, 0)
            else:
                cuda.syncthreads()

        try:
            divergent[1, 32](np.zeros(32))
            raise AssertionError("no deadlock reported")
        except RuntimeError as error:
            message = str(error)
            assert "deadlock in kernel divergent" in message, message
            assert "16 of block [0, 0, 0] at cuda.syncthreads()" in message, message
            assert "at cuda.shfl_sync(mask=0xffffffff)" in message, message

        # The pool's threads are free again: a later launch runs.
        @cuda.jit
        def fine(out):
            cuda.syncthreads()
            out[cuda.threadIdx.x] = 1
        out = np.zeros(32)
        fine[1, 32](out)
        assert out.sum() == 32
        """,
        tmp_path,
        timeout=120,
    )


# --- errors ---------------------------------------------------------------------------------------


def test_errors_name_the_thread_and_the_kernel_line(tmp_path):
    result = succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit(debug=True)
        def off_by_one(values):
            i = cuda.grid(1)
            values[i + 1] = 1.0

        @cuda.jit(device=True)
        def helper(values, i):
            return values[i] // values[0]

        @cuda.jit(debug=True)
        def divides(values, out):
            i = cuda.grid(1)
            cuda.syncthreads()
            out[i] = helper(values, i)

        for launch, error_type in (
            (lambda: off_by_one[2, 4](np.zeros(8)), IndexError),
            (lambda: divides[1, 8](np.zeros(8, np.int64), np.zeros(8, np.int64)), ZeroDivisionError),
        ):
            try:
                launch()
                raise AssertionError("no error")
            except error_type as error:
                print(type(error).__name__, error)
        """,
        tmp_path,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("IndexError tid=[3, 0, 0] ctaid=[1, 0, 0]: index 8 is out of bounds")
    assert "[off_by_one at " in lines[0] and "kernel_script.py:8: values[i + 1] = 1.0]" in lines[0]
    assert lines[1].startswith("ZeroDivisionError tid=[")
    assert "integer division or modulo by zero" in lines[1]
    assert "[helper at " in lines[1] and "return values[i] // values[0]" in lines[1]


def test_an_error_in_one_thread_ends_a_block_waiting_at_a_barrier(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def fails(out):
            t = cuda.threadIdx.x
            if t == 17:
                raise KeyError("seventeen")
            cuda.syncthreads()
            out[t] = 1

        out = np.zeros(64)
        try:
            fails[3, 64](out)
            raise AssertionError("no error")
        except KeyError as error:
            assert "tid=[17, 0, 0] ctaid=[0, 0, 0]: 'seventeen'" in error.args[0], error
        assert out.sum() < 64  # the first block's other threads ended at the barrier
        """,
        tmp_path,
        timeout=120,
    )


def test_launch_configuration_errors_are_those_of_the_gpu_path(tmp_path):
    succeeds(
        """
        import numpy as np
        from taipan import cuda
        from taipan.cuda import launcher  # the GPU path's own checks, for comparison

        @cuda.jit
        def kernel(x):
            x[0] = 1

        @cuda.jit(device=True)
        def device(x):
            return x

        def error_of(function):
            try:
                function()
            except Exception as error:
                return type(error), str(error)
            return None

        for configuration in [(0, 32), (1, 0), (1, (1, 2, 3, 4)), ("a", 1), (1, [2, 2, 2, 2])]:
            simulated = error_of(lambda: kernel[configuration])
            assert simulated is not None, configuration
            expected = error_of(lambda: launcher.launch_dimensions(configuration[0], "griddim")) or (
                error_of(lambda: launcher.launch_dimensions(configuration[1], "blockdim"))
            )
            assert simulated == expected, (configuration, simulated, expected)
        assert error_of(lambda: kernel[1,]) == (
            ValueError, "launch configuration must be [griddim, blockdim[, stream[, sharedmem]]]"
        )
        assert error_of(lambda: kernel(np.zeros(1)))[1] == (
            "kernel is a CUDA kernel: launch it as kernel[griddim, blockdim](...)"
        )
        x = np.zeros(1)
        for launch in (kernel[1, 2048], kernel[1, (1, 1, 128)], kernel[(1, 70000), 1],
                       kernel[1, 32, 0, 10 * 1024 * 1024]):
            kind, message = error_of(lambda: launch(x))
            assert kind is cuda.CudaDriverError
            assert message.startswith("CUDA_ERROR_INVALID_VALUE"), message
        assert error_of(lambda: cuda.jit(bogus=True)) == (KeyError, "\\"Unrecognized options: ['bogus']\\"")
        assert device(3) == 3
        """,
        tmp_path,
    )


# --- print and pdb --------------------------------------------------------------------------------


def test_print_writes_whole_lines_as_the_gpu_does(tmp_path):
    result = succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def chatty(values):
            t = cuda.threadIdx.x
            cuda.syncthreads()
            print("thread", t, "of", cuda.blockDim.x, "value", values[t], "even", t % 2 == 0)

        chatty[1, 64](np.arange(64) * 0.5)
        print("host", 0.5, True)
        """,
        tmp_path,
    )
    lines = result.stdout.splitlines()
    assert lines[-1] == "host 0.5 True"  # print outside kernels is Python's
    expected = {f"thread {t} of 64 value {t * 0.5:f} even {int(t % 2 == 0)}" for t in range(64)}
    assert set(lines[:-1]) == expected and len(lines) == 65


@pytest.mark.parametrize("barrier", [False, True], ids=["one-after-another", "concurrent"])
def test_pdb_stops_inside_a_kernel(tmp_path, barrier):
    sync = "cuda.syncthreads()" if barrier else "pass"
    result = simulate(
        f"""
        import pdb
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def stops(out):
            t = cuda.threadIdx.x
            {sync}
            if t == 2:
                pdb.set_trace()
            out[t] = t * 10

        out = np.zeros(4)
        stops[1, 4](out)
        print("result", out.tolist())
        """,
        tmp_path,
        stdin="p cuda.threadIdx.x, cuda.blockIdx.x, t\nc\n",
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(Pdb) (2, 0, 2)" in result.stdout
    assert "result [0.0, 10.0, 20.0, 30.0]" in result.stdout


# --- the switch, the names and the host API -----------------------------------------------------


@pytest.mark.parametrize(
    ("variables", "simulated"),
    [
        ({"TAIPAN_ENABLE_CUDASIM": "1"}, True),
        ({"NUMBA_ENABLE_CUDASIM": "1"}, True),
        ({"NUMBA_ENABLE_CUDASIM": "1", "TAIPAN_ENABLE_CUDASIM": "0"}, False),
        ({"TAIPAN_ENABLE_CUDASIM": "0"}, False),
    ],
)
def test_the_variables_that_switch_it_on(tmp_path, variables, simulated):
    result = succeeds(
        """
        import sys
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def kernel(a):
            a[cuda.grid(1)] = cuda.threadIdx.x

        print("simulator" if "taipan.cuda.simulator" in sys.modules else "gpu path")
        if "taipan.cuda.simulator" in sys.modules:
            a = np.zeros(4)
            kernel[2, 2](a)
            print(a.tolist())
        """,
        tmp_path,
        **variables,
    )
    if simulated:
        assert result.stdout.split("\n")[:2] == ["simulator", "[0.0, 1.0, 0.0, 1.0]"]
    else:
        assert result.stdout.strip() == "gpu path"


def test_the_names_are_those_of_the_gpu_path(tmp_path):
    from taipan import cuda

    result = succeeds(
        """
        import json
        from taipan import cuda
        print(json.dumps([cuda.__all__, [n for n in cuda.__all__ if not hasattr(cuda, n)]]))
        """,
        tmp_path,
    )
    names, missing = json.loads(result.stdout)
    assert names == cuda.__all__
    assert missing == []


def test_device_arrays_streams_and_events(tmp_path):
    result = succeeds(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def double(x):
            i = cuda.grid(1)
            if i < x.size:
                x[i] *= 2

        host = np.arange(12, dtype=np.float32).reshape(3, 4)
        d = cuda.to_device(host)
        assert isinstance(d, cuda.DeviceNDArray) and cuda.is_cuda_array(d)
        assert (d.shape, d.dtype, d.size, d.ndim, len(d)) == ((3, 4), np.float32, 12, 2, 3)
        assert d.strides == (16, 4) and d.is_c_contiguous() and d.nbytes == 48
        host[0, 0] = 99  # the device copy does not change with the host array
        assert d.copy_to_host()[0, 0] == 0
        row = d[1]
        double[1, 8](row)
        assert d.copy_to_host()[1].tolist() == [8, 10, 12, 14]
        assert d[2, 3] == 11 and isinstance(d[2, 3], np.float32)
        d[0] = 1
        d[2, ::2] = np.array([-1, -2])
        assert d.copy_to_host().tolist()[0] == [1, 1, 1, 1]
        assert d.copy_to_host()[2].tolist() == [-1, 9, -2, 11]
        flat = d.reshape(12)
        assert flat.shape == (12,) and d.ravel().shape == (12,)
        into = np.zeros((3, 4), np.float32)
        assert d.copy_to_host(into) is into and into[1, 0] == 8
        for bad in (lambda: d[[0, 1]], lambda: d[0, 0, 0], lambda: d.copy_to_host(np.zeros(3))):
            try:
                bad()
                raise AssertionError("accepted")
            except (IndexError, ValueError):
                pass
        empty = cuda.device_array((2, 3), np.int32, order="F")
        assert empty.is_f_contiguous() and cuda.device_array_like(host).shape == (3, 4)
        d.copy_to_device(np.full((3, 4), 7, np.float32))
        assert (d.copy_to_host() == 7).all()

        s = cuda.stream()
        with s.auto_synchronize():
            d2 = cuda.to_device(np.ones(4), stream=s)
            double[1, 4, s](d2)
        start, end = cuda.event(), cuda.event()
        start.record(s)
        double[1, 4, s, 0](d2)
        end.record(s)
        end.synchronize()
        assert cuda.event_elapsed_time(start, end) >= 0 and s.query()
        assert d2.copy_to_host(stream=s).tolist() == [4.0] * 4
        cuda.synchronize()
        assert cuda.is_available()
        assert cuda.gpus[0].WARP_SIZE == 32 and cuda.get_current_device().id == 0
        free, total = cuda.current_context().get_memory_info()
        assert 0 < free <= total

        out = np.zeros(1000, np.float32)
        @cuda.jit
        def fill(out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = i
        fill.forall(1000)(out)
        assert (out == np.arange(1000)).all()
        cuda.detect()
        """,
        tmp_path,
    )
    assert "[SUPPORTED]" in result.stdout and "simulator" in result.stdout


def test_without_the_variable_the_simulator_is_not_imported(tmp_path):
    result = succeeds(
        """
        import sys
        import taipan.cuda
        print(sorted(m for m in sys.modules if "simulator" in m))
        """,
        tmp_path,
        TAIPAN_ENABLE_CUDASIM="",
    )
    assert result.stdout.strip() == "[]"


SIMULATOR_MODULES = sorted(
    name[:-3]
    for name in os.listdir(os.path.join(os.path.dirname(taipan.__file__), "cuda", "simulator"))
    if name.endswith(".py")
)


@pytest.mark.parametrize("name", SIMULATOR_MODULES)
def test_each_simulator_module_imports_alone(tmp_path, name):
    # Without the variable too: the GPU path's modules never import the simulator's, and its
    # own form no import circle.
    module = "taipan.cuda.simulator" + ("" if name == "__init__" else f".{name}")
    succeeds(f"import {module}", tmp_path, TAIPAN_ENABLE_CUDASIM="")
