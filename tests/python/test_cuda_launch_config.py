"""numba-cuda's launch configuration during compilation (``taipan.cuda.launchconfig``): a launch
meeting new argument types compiles through the dispatcher's ``_compile_for_args`` with its
configuration current on the launching thread (None at any other time), which
``capture_compile_config`` records; ``mark_launch_config_sensitive`` makes the kernel compile
again for each configuration. Without a GPU the launch stops after the compilation (at the
driver), which is what these tests look at."""

import threading

import numpy as np
import pytest

from taipan import cuda, int32
from taipan.cuda import launchconfig


def store_one(x):
    x[0] = 1


def launch(configured, *args):
    """Runs a configured launch; without a GPU, only up to the driver's refusal."""
    try:
        configured(*args)
    except cuda.CudaSupportError:
        if cuda.is_available():
            raise


def test_no_configuration_outside_a_launch():
    assert launchconfig.current_launch_config() is None
    with pytest.raises(RuntimeError, match="No launch config set for this thread"):
        launchconfig.ensure_current_launch_config()


def test_the_configuration_is_current_while_a_launch_compiles():
    kernel = cuda.jit(store_one)
    seen = {}
    original = kernel._compile_for_args

    def recording(*args, **kwargs):
        seen["config"] = launchconfig.current_launch_config()
        return original(*args, **kwargs)

    kernel._compile_for_args = recording
    array = np.zeros(1, dtype=np.int32)
    launch(kernel[(2, 1), 32, 0, 64], array)
    config = seen["config"]
    assert config.dispatcher is kernel and config.args[0] is array
    assert config.griddim == (2, 1, 1) and config.blockdim == (32, 1, 1)
    assert config.sharedmem == 64 and config.stream == 0
    assert launchconfig.current_launch_config() is None
    assert list(kernel.overloads) == [(int32[::1],)]
    seen.clear()
    launch(kernel[1, 1], array)  # compiled: no compilation, nothing seen
    assert seen == {}


def test_capture_compile_config_restores_the_method():
    kernel = cuda.jit(store_one)
    original = kernel._compile_for_args
    with launchconfig.capture_compile_config(kernel) as captured:
        launch(kernel[1, 1], np.zeros(1, dtype=np.int32))
    assert captured["config"].dispatcher is kernel
    assert "_compile_for_args" not in kernel.__dict__
    assert kernel._compile_for_args.__func__ is original.__func__
    with (
        pytest.raises(TypeError, match="dispatcher is required"),
        launchconfig.capture_compile_config(None),
    ):
        pass


def test_calling_compile_for_args_outside_a_launch_explains_the_launch():
    kernel = cuda.jit(store_one)
    with pytest.raises(TypeError, match=r"launch it as store_one\[griddim, blockdim\]"):
        kernel._compile_for_args(np.zeros(1, dtype=np.int32))
    with pytest.raises(TypeError, match="launch it as"):
        kernel(np.zeros(1, dtype=np.int32))


def test_a_sensitive_kernel_compiles_per_configuration():
    kernel = cuda.jit(store_one)
    original = kernel._compile_for_args
    compiled = []

    def marking(*args, **kwargs):
        config = launchconfig.ensure_current_launch_config()
        config.dispatcher.mark_launch_config_sensitive()
        compiled.append(config.blockdim)
        return original(*args, **kwargs)

    kernel._compile_for_args = marking
    array = np.zeros(1, dtype=np.int32)
    launch(kernel[1, 32], array)
    assert next(iter(kernel.overloads.values())).launch_config_sensitive
    launch(kernel[1, 32], array)  # the same configuration: its kernel
    launch(kernel[1, 64], array)  # another: compiled again
    assert compiled == [(32, 1, 1), (64, 1, 1)]
    plain = cuda.jit(store_one)
    launch(plain[1, 32], array)
    assert not next(iter(plain.overloads.values())).launch_config_sensitive


def test_each_thread_sees_its_own_launch():
    kernel = cuda.jit(store_one)
    configured = kernel[1, 1]
    barrier = threading.Barrier(2)
    seen, errors = [], []
    original = kernel._compile_for_args

    def waiting(*args, **kwargs):
        config = launchconfig.ensure_current_launch_config()
        barrier.wait(timeout=30)  # both threads compile at once
        seen.append(id(config.args[0]))
        assert configured.args is config.args  # the configured launch's args: this thread's
        return original(*args, **kwargs)

    kernel._compile_for_args = waiting
    arrays = [np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32)]

    def run(array):
        try:
            launch(configured, array)
        except Exception as error:  # noqa: BLE001  (a thread's failure, reported below)
            errors.append(error)

    threads = [threading.Thread(target=run, args=(array,)) for array in arrays]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors and sorted(seen) == sorted(id(array) for array in arrays)
    assert configured.args is None  # no launch compiling now
    assert (configured.griddim, configured.blockdim) == ((1, 1, 1), (1, 1, 1))
