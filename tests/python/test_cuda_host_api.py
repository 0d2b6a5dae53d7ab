"""The CUDA host API: streams, events, devices and host memory (pinned, mapped, managed); their
error paths here, and every call for real where a GPU is present (the seeds' programs included)."""

import cuda_kernels as k
import numpy as np
import pytest

from taipan import cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
without_gpu = pytest.mark.skipif(cuda.is_available(), reason="a GPU is present")


# --- anywhere ----------------------------------------------------------------------------------


def test_default_stream_objects_need_no_driver():
    assert cuda.default_stream().handle == 0
    assert cuda.legacy_default_stream().handle == 1
    assert cuda.per_thread_default_stream().handle == 2
    wrapped = cuda.external_stream(0xABC0)
    assert wrapped.handle == 0xABC0
    assert int(wrapped) == 0xABC0
    assert "external" in repr(wrapped)


@without_gpu
@pytest.mark.parametrize(
    "call",
    [
        cuda.stream,
        cuda.event,
        cuda.current_context,
        cuda.get_current_device,
        lambda: cuda.pinned_array(4),
        lambda: cuda.mapped_array(4),
        lambda: cuda.managed_array(4),
    ],
    ids=["stream", "event", "context", "device", "pinned", "mapped", "managed"],
)
def test_without_a_gpu_each_call_says_why(call):
    with pytest.raises(cuda.CudaSupportError, match="CUDA"):
        call()


@without_gpu
def test_gpus_is_empty_without_a_gpu():
    assert len(cuda.gpus) == 0
    assert list(cuda.gpus) == []
    with pytest.raises(IndexError, match="GPU 0 does not exist"):
        cuda.gpus[0]


# --- on the GPU ----------------------------------------------------------------------------------


@pytest.mark.cuda
@needs_gpu
def test_stream_copies_and_launch_then_synchronize():
    stream = cuda.stream()
    n = 1 << 20
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    dx = cuda.to_device(x, stream=stream)
    dy = cuda.to_device(y, stream=stream)
    dout = cuda.device_array_like(x, stream=stream)
    k.add_grid_stride[64, 256, stream](dx, dy, dout)
    result = dout.copy_to_host(stream=stream)
    stream.synchronize()
    assert stream.query()
    np.testing.assert_array_equal(result, x + y)


@pytest.mark.cuda
@needs_gpu
def test_auto_synchronize_and_the_default_streams():
    x = np.arange(1000, dtype=np.float32)
    for stream in (
        cuda.stream(),
        cuda.default_stream(),
        cuda.legacy_default_stream(),
        cuda.per_thread_default_stream(),
    ):
        with stream.auto_synchronize():
            dx = cuda.to_device(x, stream=stream)
            dout = cuda.device_array_like(x)
            k.add_grid_stride[4, 128, stream](dx, dx, dout)
            result = dout.copy_to_host(stream=stream)
        np.testing.assert_array_equal(result, 2 * x)


@pytest.mark.cuda
@needs_gpu
def test_external_stream_wraps_another_stream():
    owner = cuda.stream()
    wrapped = cuda.external_stream(owner.handle)
    x = np.arange(256, dtype=np.float64)
    dx = cuda.to_device(x, stream=wrapped)
    dout = cuda.device_array_like(x)
    k.add_grid_stride[1, 256, wrapped](dx, dx, dout)
    wrapped.synchronize()
    np.testing.assert_array_equal(dout.copy_to_host(), 2 * x)
    del wrapped  # must not destroy the owner's stream
    owner.synchronize()


@pytest.mark.cuda
@needs_gpu
def test_events_time_a_kernel():
    # The seeds' program: a stream, events around a kernel, elapsed time in milliseconds.
    stream = cuda.stream()
    start, end = cuda.event(), cuda.event(timing=True)
    n = 1 << 22
    dx = cuda.to_device(np.ones(n, dtype=np.float32), stream=stream)
    dout = cuda.device_array(n, dtype=np.float32, stream=stream)
    start.record(stream)
    k.add_grid_stride[256, 256, stream](dx, dx, dout)
    end.record(stream)
    end.synchronize()
    assert end.query()
    elapsed = cuda.event_elapsed_time(start, end)
    assert elapsed > 0 and elapsed == pytest.approx(start.elapsed_time(end))
    assert dout.copy_to_host()[-1] == 2


@pytest.mark.cuda
@needs_gpu
def test_events_without_timing_cannot_be_timed():
    a, b = cuda.event(timing=False), cuda.event(timing=False)
    a.record()
    b.record()
    b.synchronize()
    with pytest.raises(ValueError, match="timing=True"):
        cuda.event_elapsed_time(a, b)


@pytest.mark.cuda
@needs_gpu
def test_event_never_recorded_is_a_driver_error():
    with pytest.raises(cuda.CudaDriverError):
        cuda.event_elapsed_time(cuda.event(), cuda.event())


@pytest.mark.cuda
@needs_gpu
def test_device_attributes_and_gpus():
    device = cuda.get_current_device()
    assert device.MULTIPROCESSOR_COUNT > 0
    assert device.WARP_SIZE == 32
    assert (device.COMPUTE_CAPABILITY_MAJOR, device.COMPUTE_CAPABILITY_MINOR) == (
        device.compute_capability
    )
    with pytest.raises(AttributeError, match="NO_SUCH_THING"):
        _ = device.NO_SUCH_THING
    assert len(cuda.gpus) >= 1
    assert cuda.gpus[0] == cuda.gpus[-len(cuda.gpus)]
    for gpu in cuda.gpus:
        with gpu:
            assert cuda.get_current_device().id == gpu.id
            assert cuda.gpus.current == gpu
    assert cuda.get_current_device() == device
    with pytest.raises(IndexError):
        cuda.gpus[len(cuda.gpus)]


@pytest.mark.cuda
@needs_gpu
def test_memory_info_sees_an_allocation():
    context = cuda.current_context()
    free, total = context.get_memory_info()
    assert 0 < free <= total
    block = cuda.device_array(256 << 20, dtype=np.uint8)
    free_after = context.get_memory_info().free
    assert free_after <= free - (200 << 20)
    del block


@pytest.mark.cuda
@needs_gpu
def test_pinned_arrays_with_streams_and_events():
    # The seeds' program: pinned host buffers, asynchronous copies and a kernel on a stream,
    # events timing the kernel.
    n = 1 << 20
    x = cuda.pinned_array(n, dtype=np.float32)
    out = cuda.pinned_array((n,), np.float32)
    assert type(x) is np.ndarray and x.shape == (n,)
    x[:] = np.arange(n, dtype=np.float32)
    stream = cuda.stream()
    start, end = cuda.event(), cuda.event()
    dx = cuda.to_device(x, stream=stream)
    dout = cuda.device_array_like(x, stream=stream)
    start.record(stream)
    k.add_grid_stride[128, 256, stream](dx, dx, dout)
    end.record(stream)
    dout.copy_to_host(out, stream=stream)
    stream.synchronize()
    assert cuda.event_elapsed_time(start, end) > 0
    np.testing.assert_array_equal(out, 2 * np.arange(n, dtype=np.float32))


@pytest.mark.cuda
@needs_gpu
def test_pinned_context_manager_registers_existing_arrays():
    x = np.arange(4096, dtype=np.float64)
    out = np.zeros_like(x)
    stream = cuda.stream()
    with cuda.pinned(x, out):
        dx = cuda.to_device(x, stream=stream)
        dx.copy_to_host(out, stream=stream)
        stream.synchronize()
    np.testing.assert_array_equal(out, x)
    with pytest.raises(ValueError, match="contiguous"), cuda.pinned(x[::2]):
        pass


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("allocate", [cuda.mapped_array, cuda.managed_array])
def test_kernels_use_mapped_and_managed_arrays_in_place(allocate):
    n = 10_000
    x = allocate(n, dtype=np.float32)
    out = allocate((n,), np.float32)
    assert isinstance(x, cuda.MappedNDArray)
    x[:] = np.arange(n)
    out[:] = 0
    k.add_grid_stride[16, 256](x, x, out)
    cuda.synchronize()
    np.testing.assert_array_equal(out, 2 * np.arange(n, dtype=np.float32))
    # A view is still the same memory; a computed result is ordinary host memory.
    tail = out[n // 2 :]
    assert tail.__cuda_array_interface__["data"][0] > out.__cuda_array_interface__["data"][0]
    assert not hasattr(out + 1, "__cuda_array_interface__")


@pytest.mark.cuda
@needs_gpu
def test_managed_arrays_never_exceed_free_memory():
    free, _ = cuda.current_context().get_memory_info()
    with pytest.raises(MemoryError, match="free bytes"):
        cuda.managed_array(free + (1 << 30), dtype=np.uint8)
