"""Several GPUs in one process: each device's arrays, kernels, streams, memory and DLPack device
are its own, kernels compiled once load on every device, and memory freed while another device
is current goes back to its own. Runs where at least two GPUs are present; the stream-ordered
release of memory is checked on any GPU."""

import cuda_kernels as k
import numpy as np
import pytest

from taipan import _core, cuda

gpu_count = len(cuda.gpus) if cuda.is_available() else 0
needs_gpu = pytest.mark.skipif(gpu_count < 1, reason="no CUDA driver or GPU")
needs_two_gpus = pytest.mark.skipif(gpu_count < 2, reason="fewer than two GPUs")


def run_add(stream=0):
    """x + x on the current device, through device arrays, checked on the host."""
    n = 4096
    x = np.arange(n, dtype=np.float32)
    dx = cuda.to_device(x, stream=stream)
    out = cuda.device_array_like(dx, stream=stream)
    k.add_grid_stride[8, 128, stream](dx, dx, out)
    np.testing.assert_array_equal(out.copy_to_host(stream=stream), 2 * x)
    return dx


@needs_two_gpus
def test_each_gpu_runs_its_own_arrays_and_kernels():
    for gpu in cuda.gpus:
        with gpu:
            assert cuda.get_current_device().id == gpu.id
            array = run_add()
            assert array.device_id == gpu.id
            assert array.__dlpack_device__() == (2, gpu.id)
            # A kernel compiled once runs on each device: the Python launcher too.
            host = np.ones(256, dtype=np.float32)
            out = np.zeros_like(host)
            k.add_grid_stride[2, 128](host, host, out)
            np.testing.assert_array_equal(out, 2 * host)
    assert cuda.get_current_device().id == 0


@needs_two_gpus
def test_streams_and_memory_information_per_device():
    with cuda.gpus[1]:
        stream = cuda.stream()
        run_add(stream)
        stream.synchronize()
        free, total = cuda.current_context().get_memory_info()
        assert 0 < free <= total


@needs_two_gpus
def test_memory_freed_while_another_device_is_current_goes_back():
    with cuda.gpus[1]:
        cuda.synchronize()
        before = cuda.current_context().get_memory_info()[0]
        arrays = [cuda.device_array(64 << 20, dtype=np.uint8) for _ in range(4)]
        assert all(a.device_id == 1 for a in arrays)
    del arrays  # released while device 0 is current
    cuda.synchronize()
    assert _core.cuda_pending_frees() == 0
    with cuda.gpus[1]:
        after = cuda.current_context().get_memory_info()[0]
    assert after + (32 << 20) >= before


@needs_two_gpus
def test_large_transfers_and_reused_blocks_stay_on_their_device():
    """Each device has its own staging buffers, and a large block released while another
    device is current is freed, not kept for that device's allocations."""
    host = np.random.default_rng(5).standard_normal((3 << 20) + 1)  # 24 MB, staged
    arrays = {}
    for gpu in cuda.gpus[:2]:
        with gpu:
            arrays[gpu.id] = cuda.to_device(host * (gpu.id + 1))
    for gpu in cuda.gpus[:2]:
        with gpu:
            np.testing.assert_array_equal(arrays[gpu.id].copy_to_host(), host * (gpu.id + 1))
    with cuda.gpus[0]:
        block = cuda.device_array(256 << 20, np.uint8)
    with cuda.gpus[1]:
        del block  # released while device 1 is current
        other = cuda.device_array(256 << 20, np.uint8)
        assert other.device_id == 1
        np.testing.assert_array_equal(arrays[1].copy_to_host(), 2 * host)


@needs_two_gpus
def test_copies_between_devices():
    with cuda.gpus[0]:
        source = cuda.to_device(np.arange(1000, dtype=np.int64))
    with cuda.gpus[1]:
        target = cuda.device_array(1000, dtype=np.int64)
        target.copy_to_device(source)
        np.testing.assert_array_equal(target.copy_to_host(), np.arange(1000))


@needs_two_gpus
def test_other_libraries_memory_reports_its_device():
    torch = pytest.importorskip("torch")
    tensor = torch.arange(10, dtype=torch.float32, device="cuda:1")
    view = cuda.as_cuda_array(tensor)
    assert view.device_id == 1
    # PyTorch exports only on its tensor's device: from_dlpack switches to it.
    taken = cuda.from_dlpack(tensor)
    assert taken.device_id == 1 and cuda.get_current_device().id == 0
    with cuda.gpus[1]:
        np.testing.assert_array_equal(taken.copy_to_host(), np.arange(10, dtype=np.float32))


@needs_gpu
def test_memory_of_a_stream_is_released_after_its_work():
    stream = cuda.stream()
    arrays = [run_add(stream) for _ in range(3)]
    scratch = cuda.device_array(1 << 20, dtype=np.float32, stream=stream)
    k.add_grid_stride[64, 256, stream](scratch, scratch, scratch)
    del arrays, scratch  # queued work on the stream may still use them
    stream.synchronize()
    cuda.synchronize()
    assert _core.cuda_pending_frees() == 0
