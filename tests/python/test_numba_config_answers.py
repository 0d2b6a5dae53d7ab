"""The questions libraries ask of ``numba.config`` and ``numba.threading_layer()``, answered by
``taipan.config`` (and the compatibility shim) with values that send them down the path that
works: taipan's pool is thread-safe and fork-safe, which Numba calls the "safe" layer."""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from child_processes import child_python_path

import taipan
from taipan import config, njit, prange
from taipan.runtime import live_blocks

NUMBA_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")
SHIM = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "numba_compat", "shim")


def test_threading_layer_is_one_numba_knows():
    # What libraries test before choosing a parallel path.
    assert config.THREADING_LAYER in ("tbb", "omp", "workqueue", "safe", "threadsafe", "forksafe")
    assert config.THREADING_LAYER in config.THREADING_LAYERS
    assert set(config.THREADING_LAYERS) == set(NUMBA_LAYERS)
    assert config.THREADING_LAYER_PRIORITY == ["tbb", "omp", "workqueue"]


def test_threading_layer_function_names_a_safe_layer():
    layer = taipan.threading_layer()
    assert layer in ("tbb", "omp", "workqueue")
    assert layer != "workqueue"  # workqueue is not thread-safe; taipan's pool is


def test_thread_counts_and_disable_jit():
    assert config.NUMBA_NUM_THREADS == config.NUM_THREADS == taipan.get_num_threads() or (
        1 <= taipan.get_num_threads() <= config.NUMBA_NUM_THREADS
    )
    assert config.NUMBA_DEFAULT_NUM_THREADS == (os.cpu_count() or 1)
    assert config.DISABLE_JIT is False


def _config_in_child(environment, expression, python_path=None):
    env = dict(os.environ)
    for name in ("NUMBA_THREADING_LAYER", "TAIPAN_THREADING_LAYER"):
        env.pop(name, None)
    env.update(environment)
    env["PYTHONPATH"] = python_path or child_python_path()
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import taipan; from taipan import config; print(repr(({expression})))",
        ],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.strip(), completed.stderr


@pytest.mark.parametrize("layer", ["workqueue", "omp", "tbb", "threadsafe", "forksafe", "safe"])
def test_layer_asked_for_is_kept(layer):
    value, _ = _config_in_child(
        {"NUMBA_THREADING_LAYER": layer}, "config.THREADING_LAYER, config.SOURCES"
    )
    assert value == repr((layer, {"THREADING_LAYER": "NUMBA_THREADING_LAYER"}))


def test_taipan_variable_wins_and_default_means_safe():
    value, _ = _config_in_child(
        {"TAIPAN_THREADING_LAYER": "omp", "NUMBA_THREADING_LAYER": "tbb"}, "config.THREADING_LAYER"
    )
    assert value == "'omp'"
    value, _ = _config_in_child({"NUMBA_THREADING_LAYER": "default"}, "config.THREADING_LAYER")
    assert value == "'safe'"


def test_unknown_layer_warns_and_keeps_safe():
    value, stderr = _config_in_child(
        {"NUMBA_THREADING_LAYER": "pthreads"}, "config.THREADING_LAYER"
    )
    assert value == "'safe'"
    assert "NUMBA_THREADING_LAYER='pthreads' is not a threading layer" in stderr


def test_shim_maps_config_and_threading_layer():
    value, _ = _config_in_child(
        {},
        "__import__('numba').config.THREADING_LAYER, __import__('numba').threading_layer()",
        python_path=os.pathsep.join([os.path.abspath(SHIM), child_python_path()]),
    )
    assert value == "('safe', 'tbb')"


@njit(parallel=True)
def _parallel_sum(a):
    total = 0.0
    for i in prange(a.shape[0]):
        total += a[i]
    return total


def test_parallel_code_from_a_thread_pool_is_safe():
    """The path a library takes for a thread-safe layer: parallel code called from several
    threads of a ThreadPoolExecutor at once gives the right results."""
    arrays = [np.arange(float(n)) for n in range(1, 200)]
    before = live_blocks()
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(_parallel_sum, arrays))
    assert results == [a.sum() for a in arrays]
    assert live_blocks() == before
