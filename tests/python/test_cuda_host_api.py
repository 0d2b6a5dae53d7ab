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
    assert "External CUDA stream" in repr(wrapped)  # numba-cuda's wording


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
    assert [gpu.id for gpu in cuda.gpus[-1:]] == [len(cuda.gpus) - 1]


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
def test_large_blocks_are_taken_back_after_release():
    block = cuda.device_array(256 << 20, dtype=np.uint8)
    pointer = block.device_ctypes_pointer
    del block
    again = cuda.device_array(256 << 20, dtype=np.uint8)
    assert again.device_ctypes_pointer == pointer
    other = cuda.device_array((256 << 20) + 1, dtype=np.uint8)
    assert other.device_ctypes_pointer != pointer


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("on_stream", [False, True])
def test_large_pageable_transfers_round_trip(on_stream):
    """Pageable arrays of tens of megabytes move through staging buffers in chunks; the last
    chunk here is short."""
    stream = cuda.stream() if on_stream else 0
    host = np.random.default_rng(3).standard_normal((5 << 20) // 2 + 3)  # 20 MB and 24 bytes
    device = cuda.to_device(host, stream=stream)
    doubled = cuda.device_array_like(host, stream=stream)
    k.add_grid_stride[256, 256, stream](device, device, doubled)
    into = np.full_like(host, np.nan)
    doubled.copy_to_host(into, stream=stream)
    returned = device.copy_to_host(stream=stream)
    if on_stream:
        stream.synchronize()
    np.testing.assert_array_equal(into, 2 * host)
    np.testing.assert_array_equal(returned, host)
    # Into a view: a pageable destination that starts inside a larger array.
    window = np.zeros(host.size + 10)
    device.copy_to_host(window[5:-5], stream=stream)
    if on_stream:
        stream.synchronize()
    np.testing.assert_array_equal(window[5:-5], host)
    assert not window[:5].any() and not window[-5:].any()


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


# --- device-array views: layout checked against NumPy anywhere, data on the GPU ------------------


class _FakeBuffer:
    """Stands in for device memory: views only do address arithmetic on it."""

    pointer = 0x10000
    size = 1 << 20


VIEW_KEYS = [
    (slice(None),),
    (slice(1, 4),),
    (slice(None, None, 2), 1),
    (2,),
    (-1, slice(None, None, -1)),
    (Ellipsis, 3),
    (None, slice(2, None)),
    (1, Ellipsis, None),
    (slice(5, 2),),
    (slice(None), slice(1, 5, 3)),
]


@pytest.mark.parametrize("key", VIEW_KEYS, ids=repr)
def test_device_array_views_match_numpy_layout(key):
    from taipan.cuda.devicearray import DeviceNDArray

    host = np.zeros((6, 7), dtype=np.float32)
    device = DeviceNDArray(host.shape, None, host.dtype, _FakeBuffer())
    expected = host[key]
    view = device._view(key)
    assert view.shape == expected.shape
    if expected.size:
        assert view.strides == expected.strides
        assert view.device_ctypes_pointer - device.device_ctypes_pointer == (
            expected.ctypes.data - host.ctypes.data
        )


@pytest.mark.parametrize(
    ("key", "message"),
    [((6,), "out of bounds"), ((0, 0, 0), "too many indices"), ((1.5,), "not float")],
)
def test_device_array_bad_indices_raise_index_error(key, message):
    from taipan.cuda.devicearray import DeviceNDArray

    device = DeviceNDArray((6, 7), None, np.float32, _FakeBuffer())
    with pytest.raises(IndexError, match=message):
        device._view(key)


def test_device_array_reshape_and_ravel_layout():
    from taipan.cuda.devicearray import DeviceNDArray

    device = DeviceNDArray((6, 4), None, np.int64, _FakeBuffer())
    assert device.reshape(3, -1).shape == (3, 8)
    assert device.reshape((2, 3, 4)).strides == (96, 32, 8)
    assert device.ravel().shape == (24,)
    with pytest.raises(ValueError, match="cannot reshape"):
        device.reshape(5, 5)
    with pytest.raises(NotImplementedError, match="C-contiguous"):
        device[:, ::2].reshape(12)
    assert "shape=(6, 4)" in str(device) and "int64" in repr(device)


@pytest.mark.cuda
@needs_gpu
def test_device_array_views_elements_and_assignment():
    host = np.arange(42, dtype=np.float64).reshape(6, 7)
    device = cuda.to_device(host)
    assert device[2, 3] == host[2, 3] and device[-1, -1] == host[-1, -1]
    assert isinstance(device[0, 0], np.float64)
    np.testing.assert_array_equal(device[1:4].copy_to_host(), host[1:4])
    np.testing.assert_array_equal(device[:, ::3].copy_to_host(), host[:, ::3])
    np.testing.assert_array_equal(device[::-2, 1].copy_to_host(), host[::-2, 1])
    device[0] = -1.0
    device[1:3, 2:4] = np.array([[10.0, 11.0], [12.0, 13.0]])
    device[:, 6] = np.arange(6)
    expected = host.copy()
    expected[0] = -1.0
    expected[1:3, 2:4] = [[10.0, 11.0], [12.0, 13.0]]
    expected[:, 6] = np.arange(6)
    np.testing.assert_array_equal(device.copy_to_host(), expected)
    np.testing.assert_array_equal(device.reshape(7, 6).copy_to_host(), expected.reshape(7, 6))
    np.testing.assert_array_equal(device.ravel().copy_to_host(), expected.ravel())


@pytest.mark.cuda
@needs_gpu
def test_kernels_write_through_device_array_views():
    n = 64
    x = cuda.to_device(np.ones(2 * n, dtype=np.float32))
    out = cuda.to_device(np.zeros(2 * n, dtype=np.float32))
    k.add_grid_stride[1, 32](x[::2], x[1::2], out[n:])
    np.testing.assert_array_equal(out.copy_to_host(), np.r_[np.zeros(n), np.full(n, 2.0)])


@pytest.mark.cuda
@needs_gpu
def test_fortran_order_device_arrays_round_trip():
    host = np.asfortranarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    device = cuda.device_array((3, 4), np.int32, order="F")
    device.copy_to_device(host)
    np.testing.assert_array_equal(device.copy_to_host(), host)
    np.testing.assert_array_equal(device[1].copy_to_host(), host[1])


@pytest.mark.cuda
@needs_gpu
def test_memory_movement_seed_copies_once_each_way():
    # The seeds' exercise: make_pulses then add, the intermediate kept on the device, one copy
    # of each input in and one copy of the result out (kernels stand in for CUDA ufuncs).
    n = 100_000
    noise = (np.random.default_rng(0).normal(size=n) * 3).astype(np.float32)
    t = np.arange(n, dtype=np.float32)
    period = n / 23
    t_device = cuda.to_device(t)
    noise_device = cuda.to_device(noise)
    pulses_device = cuda.device_array_like(t_device)
    out_device = cuda.device_array_like(t_device)
    blocks = (n + 255) // 256
    k.make_pulses[blocks, 256](t_device, period, 100.0, pulses_device)
    k.add_arrays[blocks, 256](pulses_device, noise_device, out_device)
    waveform = out_device.copy_to_host()
    expected = np.maximum(np.sin(t / np.float64(period)) - 0.3, 0.0) * 100.0 + noise
    np.testing.assert_allclose(waveform, expected.astype(np.float32), rtol=1e-5, atol=1e-4)
