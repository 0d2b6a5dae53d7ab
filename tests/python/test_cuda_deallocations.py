"""numba-cuda's pending deallocations of device memory: a collected device array's memory waits
in a queue (``cuda.current_context().memory_manager.deallocations``, the extension's deferred
frees) until more than config.CUDA_DEALLOCS_COUNT blocks are pending or their bytes pass
config.CUDA_DEALLOCS_RATIO of the device memory, or ``clear()``; ``cuda.defer_cleanup()`` keeps
them, nested and through exceptions. GPU-only (marked); the settings' reading runs anywhere."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from child_processes import child_python_path

from taipan import config, cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


@pytest.fixture
def deallocations():
    pending = cuda.current_context().memory_manager.deallocations
    pending.clear()
    assert len(pending) == 0
    yield pending
    pending.clear()


@needs_gpu
def test_more_than_the_count_flushes(deallocations):
    for i in range(config.CUDA_DEALLOCS_COUNT):
        cuda.to_device(np.arange(1))
        assert len(deallocations) == i + 1
    cuda.to_device(np.arange(1))
    assert len(deallocations) == 0


@needs_gpu
def test_a_count_set_at_run_time_applies(deallocations, monkeypatch):
    monkeypatch.setattr(config, "CUDA_DEALLOCS_COUNT", 2)
    cuda.to_device(np.arange(3))
    cuda.to_device(np.arange(3))
    assert len(deallocations) == 2
    cuda.to_device(np.arange(3))
    assert len(deallocations) == 0


@needs_gpu
def test_more_bytes_than_the_ratio_flush(deallocations, monkeypatch):
    total = cuda.current_context().get_memory_info().total
    monkeypatch.setattr(config, "CUDA_DEALLOCS_RATIO", 10**6 / total)
    assert abs(deallocations._max_pending_bytes - 10**6) <= 1
    cuda.to_device(np.ones(10**6 // 2, np.int8))
    assert (len(deallocations), deallocations._size) == (1, 10**6 // 2)
    cuda.to_device(np.ones(deallocations._max_pending_bytes - deallocations._size, np.int8))
    assert len(deallocations) == 2
    cuda.to_device(np.ones(1, np.int8))
    assert (len(deallocations), deallocations._size) == (0, 0)


@needs_gpu
def test_defer_cleanup_keeps_them_nested_and_through_exceptions(deallocations):
    host = np.arange(5)
    first = cuda.to_device(host)
    with pytest.raises(KeyError), cuda.defer_cleanup():
        with cuda.defer_cleanup():
            second = cuda.to_device(host)
            del first, second
            assert len(deallocations) == 2
            deallocations.clear()
            assert len(deallocations) == 2
        assert deallocations.is_disabled
        deallocations.clear()
        assert len(deallocations) == 2
        raise KeyError
    assert not deallocations.is_disabled
    deallocations.clear()
    assert len(deallocations) == 0


@needs_gpu
def test_a_block_of_256_mb_or_more_goes_back_at_once(deallocations):
    block = cuda.device_array(256 << 20, dtype=np.uint8)
    pointer = block.device_ctypes_pointer
    del block
    assert len(deallocations) == 0
    assert cuda.device_array(256 << 20, dtype=np.uint8).device_ctypes_pointer == pointer


@needs_gpu
def test_memory_freed_after_clear_is_reused_and_data_survives(deallocations):
    # Pending blocks are still allocated: the arrays made meanwhile hold their own data.
    kept = [cuda.to_device(np.full(1000, i, np.float64)) for i in range(3)]
    for _ in range(5):
        cuda.to_device(np.zeros(1000))
    deallocations.clear()
    for i, array in enumerate(kept):
        np.testing.assert_array_equal(array.copy_to_host(), np.full(1000, i, np.float64))


@needs_gpu
def test_an_array_seen_through_the_interface_frees_once(deallocations):
    array = cuda.to_device(np.arange(100))
    view = cuda.as_cuda_array(array)
    del array
    assert len(deallocations) == 0
    np.testing.assert_array_equal(view.copy_to_host(), np.arange(100))
    del view
    assert len(deallocations) == 1


def read_in_child(tmp_path, code, **variables):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(code))
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("TAIPAN_", "NUMBA_"))
    }
    environment.update(variables, PYTHONPATH=child_python_path())
    result = subprocess.run(
        [sys.executable, str(script)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def test_numba_cuda_variables_set_the_thresholds(tmp_path):
    code = (
        "from taipan import config\nprint(config.CUDA_DEALLOCS_COUNT, config.CUDA_DEALLOCS_RATIO)"
    )
    assert read_in_child(tmp_path, code).stdout.split() == ["10", "0.2"]
    result = read_in_child(
        tmp_path, code, NUMBA_CUDA_DEALLOCS_COUNT="3", NUMBA_CUDA_DEALLOCS_RATIO="0.5"
    )
    assert result.stdout.split() == ["3", "0.5"]


@pytest.mark.parametrize(
    "variable, text", [("NUMBA_CUDA_DEALLOCS_COUNT", "-1"), ("NUMBA_CUDA_DEALLOCS_RATIO", "1.5")]
)
def test_a_threshold_out_of_range_warns_and_keeps_the_default(tmp_path, variable, text):
    code = (
        "from taipan import config\nprint(config.CUDA_DEALLOCS_COUNT, config.CUDA_DEALLOCS_RATIO)"
    )
    result = read_in_child(tmp_path, code, **{variable: text})
    assert result.stdout.split() == ["10", "0.2"]
    assert "is not understood" in result.stderr


def test_setting_a_threshold_keeps_the_value(monkeypatch):
    monkeypatch.setattr(config, "CUDA_DEALLOCS_COUNT", 4)
    monkeypatch.setattr(config, "CUDA_DEALLOCS_RATIO", 0.5)
    assert (config.CUDA_DEALLOCS_COUNT, config.CUDA_DEALLOCS_RATIO) == (4, 0.5)
