"""Kernel launches read every argument in C++ once (``_core.CudaLauncher``): NumPy arrays of
every layout copied to the device and back (read-only ones not written back), mixed with device
arrays and scalars; foreign arrays whose producer stream is waited for; debug kernels' exceptions
after the copies came back; ``forall``. The Python launcher is only asked for values C++ cannot
describe, which it reports. Needs a GPU (marker ``cuda``); results are compared with NumPy."""

import numpy as np
import pytest

from taipan import cuda
from taipan.cuda import dispatcher as cuda_dispatcher
from taipan.errors import TypingError
from taipan.runtime import live_blocks

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU"),
]


@cuda.jit
def scale_into(source, target, factor):
    i = cuda.grid(1)
    if i < source.shape[0]:
        target[i] = source[i] * factor


@cuda.jit
def add_rows(matrix, row):
    i, j = cuda.grid(2)
    if i < matrix.shape[0] and j < matrix.shape[1]:
        matrix[i, j] += row[j]


@cuda.jit
def bump(values):
    i = cuda.grid(1)
    if i < values.size:
        values[i] += 1


@cuda.jit(debug=True)
def write_then_fail(values):
    i = cuda.grid(1)
    values[i] = i + 1
    if i == 3:
        raise ValueError("three")


@pytest.fixture
def python_launcher_unused(monkeypatch):
    """Fails a test whose launches reach the Python launcher (only for values C++ refuses)."""

    def refuse(self, *args):
        raise AssertionError("the launch went back to Python")

    monkeypatch.setattr(cuda_dispatcher._Launcher, "__call__", refuse)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.complex128])
def test_host_arrays_are_copied_in_and_back(dtype, python_launcher_unused):
    before = live_blocks()
    source = (np.arange(1000) % 17).astype(dtype)
    target = np.zeros(1000, dtype)
    scale_into[8, 128](source, target, 3)
    np.testing.assert_array_equal(target, source * dtype(3))
    np.testing.assert_array_equal(source, (np.arange(1000) % 17).astype(dtype))
    assert live_blocks() == before


def test_strided_and_fortran_host_arrays(python_launcher_unused):
    base = np.arange(24, dtype=np.float64)
    source = base[::3]  # not contiguous: copied through a contiguous copy
    target = np.zeros(16)[::2]
    scale_into[1, 32](source, target, 2.0)
    np.testing.assert_array_equal(target, source * 2.0)
    # Fortran order: the kernel's 'F' code reads the copy in that order (a C-ordered copy was
    # read wrongly before).
    matrix = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    expected = matrix + np.array([10.0, 20.0, 30.0, 40.0])
    add_rows[(1, 1), (4, 4)](matrix, np.array([10.0, 20.0, 30.0, 40.0]))
    np.testing.assert_array_equal(matrix, expected)
    assert matrix.flags.f_contiguous
    base = np.arange(12.0).reshape(4, 3)
    add_rows[(1, 1), (4, 4)](base.T, np.arange(4.0))  # a view in Fortran order, written back
    np.testing.assert_array_equal(base, np.arange(12.0).reshape(4, 3) + np.arange(4.0)[:, None])


def test_read_only_host_arrays_are_read(python_launcher_unused):
    source = np.arange(64.0)
    source.flags.writeable = False
    target = np.zeros(64)
    scale_into[1, 64](source, target, 2.0)
    np.testing.assert_array_equal(target, np.arange(64.0) * 2.0)
    assert not source.flags.writeable


def test_fortran_arrays_through_the_python_launcher():
    # The Python launcher (left values C++ does not describe) copies them the same way.
    matrix = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    expected = matrix + np.array([10.0, 20.0, 30.0, 40.0])
    python_launcher = cuda_dispatcher._Launcher(add_rows, (1, 1, 1), (4, 4, 1), 0, 0)
    python_launcher(matrix, np.array([10.0, 20.0, 30.0, 40.0]))
    np.testing.assert_array_equal(matrix, expected)


def test_host_device_and_scalar_arguments_together(python_launcher_unused):
    source = cuda.to_device(np.linspace(0, 1, 300))
    target = np.zeros(300)
    scale_into[3, 128](source, target, np.float64(0.5))
    np.testing.assert_array_equal(target, np.linspace(0, 1, 300) * 0.5)
    device_target = cuda.device_array(300)
    scale_into[3, 128](np.linspace(0, 1, 300), device_target, 2)
    np.testing.assert_array_equal(device_target.copy_to_host(), np.linspace(0, 1, 300) * 2)


def test_empty_host_arrays(python_launcher_unused):
    scale_into[1, 1](np.zeros(0), np.zeros(0), 1.0)


def test_launches_on_a_stream(python_launcher_unused):
    stream = cuda.stream()
    values = np.arange(500, dtype=np.int64)
    for _ in range(5):
        bump[4, 128, stream](values)
    np.testing.assert_array_equal(values, np.arange(500) + 5)


def test_a_producer_stream_is_waited_for(python_launcher_unused):
    class Foreign:
        """Another library's array: its interface names the stream that wrote it."""

        def __init__(self, array, stream):
            self.array = array
            self.stream = stream

        @property
        def __cuda_array_interface__(self):
            interface = dict(self.array.__cuda_array_interface__)
            interface["stream"] = self.stream.handle
            return interface

    producer = cuda.stream()
    source = cuda.device_array(1 << 20, stream=producer)
    source.copy_to_device(np.ones(1 << 20), stream=producer)
    for _ in range(20):
        bump[(1 << 20) // 256, 256, producer](source)
    target = np.zeros(1 << 20)
    scale_into[(1 << 20) // 256, 256](Foreign(source, producer), target, 1.0)
    np.testing.assert_array_equal(target, np.full(1 << 20, 21.0))


def test_a_debug_kernel_raises_after_copying_back(python_launcher_unused):
    values = np.zeros(8, np.int64)
    with pytest.raises(ValueError, match=r"tid=\[3, 0, 0\] ctaid=\[0, 0, 0\]: three"):
        write_then_fail[1, 8](values)
    np.testing.assert_array_equal(values, np.arange(1, 9))
    # The record is reset: the next launch raises again, once.
    with pytest.raises(ValueError, match="three"):
        write_then_fail[1, 8](values)


def test_forall_with_host_arrays(python_launcher_unused):
    values = np.arange(1000, dtype=np.float32)
    bump.forall(1000)(values)
    np.testing.assert_array_equal(values, np.arange(1000, dtype=np.float32) + 1)


def test_values_of_no_kernel_type_are_reported_by_python():
    with pytest.raises(TypingError, match="cannot pass a value of type"):
        bump[1, 1]({"a": 1})


@cuda.jit
def first_of_pair(out, pair):
    out[0] = pair[0][0] + pair[1][0]


def test_a_tuple_of_host_arrays_is_read_on_the_device_not_at_host_addresses():
    # Numba's test_issue5493: the items of a tuple argument were laid out with their host
    # addresses, and the kernel read them (CUDA_ERROR_ILLEGAL_ADDRESS, poisoning the context).
    # They are copied to the device now, as numba-cuda does.
    out = cuda.to_device(np.zeros(1))
    first_of_pair[1, 1](out, (np.full(2, 2.0), np.full(2, 3.0)))
    assert out.copy_to_host()[0] == 5.0
