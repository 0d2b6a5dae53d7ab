"""Sharing device memory without copies: the CUDA Array Interface and DLPack. Layout and
ownership are checked here; CuPy, PyTorch and the seeds' raw-pointer class on the GPU."""

import gc
import sys
import weakref

import cuda_kernels as k
import numpy as np
import pytest

from taipan import _core, cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


class Library:
    """CuPy or PyTorch behind the few calls the layout tests need."""

    def __init__(self, name):
        self.module = pytest.importorskip(name)
        self.name = name
        if name == "torch" and not self.module.cuda.is_available():
            pytest.skip("PyTorch without CUDA")

    def on_device(self, array):
        return array.to("cuda") if self.name == "torch" else array

    def zeros(self, shape, dtype):
        return self.on_device(self.module.zeros(shape, dtype=dtype))

    def synchronize(self):
        if self.name == "torch":
            self.module.cuda.synchronize()
        else:
            self.module.cuda.runtime.deviceSynchronize()

    def to_host(self, array):
        return array.cpu().numpy() if self.name == "torch" else array.get()


@pytest.fixture
def torch():
    """PyTorch, where it is installed with CUDA."""
    return Library("torch").module


class RawDeviceMemory:
    """The seeds' pattern: a raw device pointer wrapped in a class exporting the interface."""

    def __init__(self, pointer, shape, typestr, strides=None, stream=None, owner=None):
        self.owner = owner
        self.__cuda_array_interface__ = {
            "shape": shape,
            "typestr": typestr,
            "data": (pointer, False),
            "strides": strides,
            "version": 3,
            "stream": stream,
        }


def test_is_cuda_array():
    assert cuda.is_cuda_array(RawDeviceMemory(0x1000, (4,), "<f4"))
    assert not cuda.is_cuda_array(np.zeros(4))


def test_as_cuda_array_views_foreign_memory_without_copying():
    raw = RawDeviceMemory(0x7000, (3, 4), "<i8", strides=(64, 8))
    view = cuda.as_cuda_array(raw, sync=False)
    assert view.shape == (3, 4) and view.dtype == np.int64 and view.strides == (64, 8)
    assert view.device_ctypes_pointer == 0x7000
    assert view[1:].device_ctypes_pointer == 0x7000 + 64
    exported = view.__cuda_array_interface__
    assert exported["data"] == (0x7000, False) and exported["strides"] == (64, 8)
    assert exported["version"] == 3 and exported["stream"] is None
    # The view keeps the exporter alive.
    probe = weakref.ref(raw)
    del raw
    gc.collect()
    assert probe() is not None
    del view
    gc.collect()
    assert probe() is None


def test_as_cuda_array_rejects_non_exporters_and_masks():
    with pytest.raises(TypeError, match="does not export"):
        cuda.as_cuda_array(np.zeros(3))
    masked = RawDeviceMemory(0x1000, (4,), "<f4")
    masked.__cuda_array_interface__["mask"] = object()
    with pytest.raises(NotImplementedError, match="masked"):
        cuda.as_cuda_array(masked)


def test_from_dlpack_rejects_host_tensors():
    with pytest.raises(TypeError, match="CUDA device"):
        cuda.from_dlpack(np.zeros(3))


class _Owner:
    pass


def test_dlpack_capsules_round_trip_and_release_their_owner():
    owner = _Owner()
    probe = weakref.ref(owner)
    capsule = _core.dlpack_export(0x9000, [2, 3], [3, 1], 2, 32, 2, 0, owner)
    del owner
    gc.collect()
    assert probe() is not None  # the capsule holds the exporter
    holder, pointer, shape, strides, code, bits, lanes, device_type, device_id = (
        _core.dlpack_import(capsule)
    )
    assert (pointer, shape, strides) == (0x9000, [2, 3], [3, 1])
    assert (code, bits, lanes, device_type, device_id) == (2, 32, 1, 2, 0)
    with pytest.raises(ValueError, match="already consumed"):
        _core.dlpack_import(capsule)
    del holder
    gc.collect()
    assert probe() is None  # the consumer's holder ran the deleter


def test_unconsumed_dlpack_capsule_releases_its_owner():
    owner = _Owner()
    before = sys.getrefcount(owner)
    capsule = _core.dlpack_export(0x9000, [1], [1], 0, 8, 2, 0, owner)
    assert sys.getrefcount(owner) == before + 1
    del capsule
    assert sys.getrefcount(owner) == before


# --- on the GPU ----------------------------------------------------------------------------------


@pytest.mark.cuda
@needs_gpu
def test_raw_pointer_class_used_by_a_kernel():
    backing = cuda.to_device(np.arange(100, dtype=np.float32))
    out = cuda.device_array(100, np.float32)
    raw = RawDeviceMemory(backing.device_ctypes_pointer, (100,), "<f4", owner=backing)
    k.add_grid_stride[1, 128](raw, raw, out)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * np.arange(100, dtype=np.float32))


@pytest.mark.cuda
@needs_gpu
def test_cupy_arrays_both_ways():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(1000, dtype=cupy.float64)
    out = cupy.zeros_like(x)
    k.add_grid_stride[4, 256](x, x, out)
    cupy.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(out.get(), 2 * np.arange(1000.0))
    mine = cuda.to_device(np.arange(10, dtype=np.int32))
    shared = cupy.asarray(mine)
    shared += 5  # writes through to taipan's memory
    cupy.cuda.runtime.deviceSynchronize()
    assert shared.data.ptr == mine.device_ctypes_pointer
    np.testing.assert_array_equal(mine.copy_to_host(), np.arange(10) + 5)
    view = cuda.as_cuda_array(x)
    assert view.device_ctypes_pointer == x.data.ptr
    np.testing.assert_array_equal(cuda.from_dlpack(x).copy_to_host(), np.arange(1000.0))
    back = cupy.from_dlpack(mine)
    assert back.data.ptr == mine.device_ctypes_pointer


@pytest.mark.cuda
@needs_gpu
def test_torch_tensors_both_ways(torch):
    x = torch.arange(512, dtype=torch.float32, device="cuda")
    out = torch.empty_like(x)
    k.add_grid_stride[2, 256](x, x, out)
    torch.cuda.synchronize()
    assert torch.equal(out, 2 * x)
    mine = cuda.to_device(np.arange(12, dtype=np.float32).reshape(3, 4))
    tensor = torch.from_dlpack(mine)
    assert tensor.data_ptr() == mine.device_ctypes_pointer
    assert tensor.shape == (3, 4)
    tensor.mul_(2)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(mine.copy_to_host(), 2 * np.arange(12.0).reshape(3, 4))
    taken = cuda.from_dlpack(x[::2])
    assert taken.device_ctypes_pointer == x.data_ptr() and taken.strides == (8,)
    np.testing.assert_array_equal(taken.copy_to_host(), np.arange(0, 512, 2, dtype=np.float32))


@cuda.jit
def copy_2d(source, target):
    i, j = cuda.grid(2)
    if i < source.shape[0] and j < source.shape[1]:
        target[i, j] = source[i, j]


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("library", ["cupy", "torch"])
@pytest.mark.parametrize(
    "make",
    [
        lambda t: t.arange(60, dtype=t.float64).reshape(6, 10),
        lambda t: t.arange(60, dtype=t.int32).reshape(6, 10)[:, ::3],  # strided
        lambda t: t.arange(60, dtype=t.float32).reshape(6, 10).T,  # Fortran order
        lambda t: t.broadcast_to(t.arange(10, dtype=t.int16).reshape(1, 10), (4, 10)),  # stride 0
        lambda t: t.arange(10, dtype=t.float32).reshape(10, 1)[:, :],  # extent 1
        lambda t: t.arange(20, dtype=t.float32).reshape(10, 2)[:, :1],  # extent 1, strided
        lambda t: t.zeros((0, 5), dtype=t.float32),  # empty
        lambda t: t.arange(12, dtype=t.uint8).reshape(3, 4) % 2 == 0,  # bool
    ],
)
def test_foreign_arrays_as_kernel_arguments_match_their_interface(library, make):
    """CuPy arrays and PyTorch tensors launch from C++, read through their own attributes; the
    result must be what their __cuda_array_interface__ describes, launch after launch."""
    lib = Library(library)
    source = lib.on_device(make(lib.module))
    for _ in range(3):  # the first launch goes through Python, the others through C++
        target = lib.zeros(source.shape, source.dtype)
        copy_2d[(2, 2), (8, 8)](source, target)
        lib.synchronize()
        np.testing.assert_array_equal(lib.to_host(target), lib.to_host(source))


@pytest.mark.cuda
@needs_gpu
def test_cupy_arrays_on_cupys_own_stream_are_waited_for():
    """CuPy names its current stream in the interface; a launch on another stream must wait for
    the work CuPy queued there, launch after launch."""
    cupy = pytest.importorskip("cupy")
    host = np.arange(1 << 22, dtype=np.float32)
    out = cuda.device_array(host.size, np.float32)
    stream = cupy.cuda.Stream(non_blocking=True)
    for step in range(3):
        with stream:
            source = cupy.asarray(host)
            source *= step + 2  # queued on CuPy's stream
            k.add_grid_stride[64, 256](source, source, out)
        np.testing.assert_array_equal(out.copy_to_host(), 2 * (step + 2) * host)


@pytest.mark.cuda
@needs_gpu
def test_cupy_subclass_redefining_the_interface_is_read_through_it():
    cupy = pytest.importorskip("cupy")

    class Tail(cupy.ndarray):
        """Reports all but its first element."""

        @property
        def __cuda_array_interface__(self):
            interface = dict(super().__cuda_array_interface__)
            interface["shape"] = (self.size - 1,)
            interface["data"] = (self.data.ptr + self.itemsize, False)
            return interface

    source = cupy.arange(9, dtype=cupy.float64).view(Tail)
    for _ in range(3):
        out = cupy.zeros(8)
        k.add_grid_stride[1, 32](source, source, out)
        cupy.cuda.runtime.deviceSynchronize()
        np.testing.assert_array_equal(out.get(), 2 * np.arange(1.0, 9.0))


@pytest.mark.cuda
@needs_gpu
def test_torch_tensors_the_interface_refuses_raise_its_errors(torch):
    out = torch.zeros(4, device="cuda")
    graded = torch.ones(4, device="cuda", requires_grad=True)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="requires grad"):
            k.add_grid_stride[1, 4](graded, graded, out)
    brain = torch.ones(4, dtype=torch.bfloat16, device="cuda")
    with pytest.raises((TypeError, KeyError, ValueError)):  # whichever PyTorch raises
        k.add_grid_stride[1, 4](brain, brain, brain)


@pytest.mark.cuda
@needs_gpu
def test_dlpack_export_waits_for_the_arrays_stream():
    cupy = pytest.importorskip("cupy")
    stream = cuda.stream()
    host = np.arange(1 << 20, dtype=np.float32)
    # A raw stream handle as well as a Stream object.
    for producer in (stream, stream.handle):
        mine = cuda.to_device(host, stream=producer)
        np.testing.assert_array_equal(cupy.from_dlpack(mine).get(), host)
