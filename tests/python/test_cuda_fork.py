"""A process made by fork() after CUDA was initialised cannot use the driver its parent set up:
every CUDA call there is refused with the reason (numba-cuda's fork detection) instead of
failing obscurely or hanging. Needs a GPU (the driver must have been initialised)."""

import concurrent.futures
import multiprocessing as mp
import os

import numpy as np
import pytest

from taipan import cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def _copy_in_child():
    return cuda.to_device(np.arange(3)).copy_to_host().tolist()


@needs_gpu
@pytest.mark.skipif(os.name != "posix", reason="fork() is POSIX")
def test_a_forked_child_is_refused_with_the_reason():
    cuda.current_context()  # the driver is initialised in this process
    with concurrent.futures.ProcessPoolExecutor(mp_context=mp.get_context("fork")) as pool:
        future = pool.submit(_copy_in_child)
        with pytest.raises(cuda.CudaDriverError, match="CUDA initialized before forking"):
            future.result(timeout=60)
    # A spawned process starts its own driver.
    with concurrent.futures.ProcessPoolExecutor(mp_context=mp.get_context("spawn")) as pool:
        assert pool.submit(_copy_in_child).result(timeout=120) == [0, 1, 2]
