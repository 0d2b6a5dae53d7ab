"""Pickling jitted functions: by reference when their module's name finds them, by value with
cloudpickle otherwise (functions defined in __main__ travel with their globals and source text,
and compile again where they land), so Dask workers in other processes can run them."""

import pickle
import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import cuda


def run_script(text, timeout=300):
    """What `text` (dedented), run with python -c, prints."""
    code = textwrap.dedent(text)
    return run_python(["-c", code], env=child_environment(), timeout=timeout).stdout


@taipan.njit
def module_level(x):
    return x + 1


def test_importable_dispatchers_pickle_by_reference():
    assert pickle.loads(pickle.dumps(module_level)) is module_level
    cloudpickle = pytest.importorskip("cloudpickle")
    assert cloudpickle.loads(cloudpickle.dumps(module_level)) is module_level


def test_functions_from_main_travel_by_value_to_another_process():
    pytest.importorskip("cloudpickle")
    output = run_script(
        """
        import subprocess, sys
        import cloudpickle
        import numpy as np
        from taipan import njit

        SCALE = 3.0

        @njit
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)

        @njit
        def scaled(a):
            out = np.empty_like(a)
            for i in range(a.size):
                out[i] = a[i] * SCALE + fib(10)
            return out

        payload = cloudpickle.dumps(scaled)
        child = subprocess.run(
            [sys.executable, "-c",
             "import pickle, sys, numpy as np; f = pickle.loads(sys.stdin.buffer.read()); "
             "print(f(np.arange(3.0)).tolist(), type(f).__name__, f.py_func.__name__)"],
            input=payload, capture_output=True, check=True)
        print(child.stdout.decode())
        """
    )
    assert "[55.0, 58.0, 61.0] Dispatcher scaled" in output


def test_plain_pickle_of_a_main_function_travels_by_value():
    # As Numba's dispatchers: plain pickle carries a __main__ function by value (its code,
    # globals and closure), so no cloudpickle is needed on either side.
    output = run_script(
        """
        import pickle, subprocess, sys
        from taipan import njit

        OFFSET = 5

        @njit
        def f(x):
            return x * 2 + OFFSET

        payload = pickle.dumps(f)
        child = subprocess.run(
            [sys.executable, "-c",
             "import pickle, sys; f = pickle.loads(sys.stdin.buffer.read()); print(f(4))"],
            input=payload, capture_output=True, check=True)
        print("child:", child.stdout.decode().strip())
        """
    )
    assert "child: 13" in output


def test_dask_workers_in_other_processes_run_main_functions():
    pytest.importorskip("dask.distributed")
    output = run_script(
        """
        import numpy as np
        import dask.array as da
        from dask.distributed import Client, LocalCluster
        from taipan import njit, prange, vectorize

        @njit
        def chunk_total(seed):
            rng_state = seed
            s = 0.0
            for i in range(1000):
                rng_state = (rng_state * 1103515245 + 12345) % 2147483648
                s += rng_state / 2147483648.0
            return s

        @vectorize(["float64(float64)"])
        def softsign(x):
            return x / (1.0 + abs(x))

        @njit(parallel=True)
        def normalise(block):
            out = np.empty_like(block)
            for i in prange(block.shape[0]):
                out[i] = block[i] / (1.0 + abs(block[i]))
            return out

        if __name__ == "__main__":
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                totals = client.gather(client.map(chunk_total, range(64)))
                assert totals == [chunk_total.py_func(seed) for seed in range(64)]
                x = da.from_array(np.linspace(-5, 5, 10_000), chunks=1_000)
                y = x.map_blocks(normalise, dtype=np.float64).compute()
                assert np.allclose(y, normalise.py_func(np.linspace(-5, 5, 10_000)))
                z = x.map_blocks(softsign, dtype=np.float64).compute()
                assert np.array_equal(z, y)
                pids = client.run(lambda: __import__("os").getpid())
                print("ok", len(set(pids.values())))
        """,
        timeout=300,
    )
    assert "ok 2" in output


def test_a_round_trip_in_this_process_gives_the_dispatcher_back():
    # As Numba's dispatchers (by their uuid): one object per pickled function and process.
    cloudpickle = pytest.importorskip("cloudpickle")

    @taipan.njit
    def local(a):
        return a.sum() * 2

    payload = cloudpickle.dumps(local)
    assert cloudpickle.loads(payload) is local
    assert cloudpickle.loads(cloudpickle.dumps(local)) is local
    assert local(np.arange(4.0)) == 12.0


def test_a_process_unpickling_a_function_many_times_keeps_one_dispatcher():
    pytest.importorskip("cloudpickle")
    output = run_script(
        """
        import pickle, subprocess, sys
        import cloudpickle
        from taipan import njit, vectorize

        @njit
        def triple(x):
            return 3 * x

        @vectorize(["float64(float64)"])
        def halve(x):
            return x / 2

        payloads = [cloudpickle.dumps((triple, halve)) for _ in range(3)]
        child = subprocess.run(
            [sys.executable, "-c",
             "import pickle, sys; blobs = pickle.loads(sys.stdin.buffer.read()); "
             "pairs = [pickle.loads(b) for b in blobs]; "
             "print(len({id(p[0]) for p in pairs}), len({id(p[1]) for p in pairs}), "
             "pairs[2][0](5), pairs[1][1](3.0))"],
            input=pickle.dumps(payloads), capture_output=True, check=True)
        print(child.stdout.decode())
        """
    )
    assert "1 1 15 1.5" in output


GPU_COS = """
import math
import numpy as np
from dask.distributed import Client, LocalCluster
from taipan import cuda

@cuda.jit
def gpu_cos(x, out):
    # The blog post's kernel: a grid-stride loop.
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = math.cos(x[i])

def do_cos():
    x = np.linspace(0, 2 * math.pi, 100000, dtype=np.float32)
    x_device = cuda.to_device(x)
    out_device = cuda.device_array_like(x_device)
    gpu_cos[64, 128](x_device, out_device)
    return out_device.copy_to_host()

if __name__ == "__main__":
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        result = client.submit(do_cos).result()
        expected = np.cos(np.linspace(0, 2 * math.pi, 100000, dtype=np.float32))
        print("ok", np.allclose(result, expected, atol=1e-6))
"""


@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_the_blog_posts_gpu_cos_runs_on_a_dask_worker():
    pytest.importorskip("dask.distributed")
    assert "ok True" in run_script(GPU_COS, timeout=300)
