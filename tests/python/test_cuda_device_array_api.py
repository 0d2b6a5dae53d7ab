"""Device arrays' API as numba-cuda's: ``.T``/``transpose`` (a new C-contiguous array),
``view(dtype)``, ``split``, ``bind``, ``getitem``/``setitem`` with a stream, ``reshape``/``ravel``
in C or F order, ``_numba_type_``, F-ordered ``to_device``, the checks of ``copy_to_device``
(one run of memory; device sources of the same layout) and of assignments (numba-cuda's
messages), and ``array_core``/``is_contiguous``. One body of checks runs in the simulator here
and on a GPU where there is one; the GPU class's address arithmetic is checked anywhere."""

import numpy as np
import pytest
from child_processes import run_in_simulator

from taipan.cuda.api.devicearray import (
    array_core,
    check_array_compatibility,
    errmsg_contiguous_buffer,
    is_contiguous,
)


def device_array_api_checks(cuda):
    """Every check, against NumPy, with `cuda` either backend's taipan.cuda."""
    host = np.arange(12).reshape(3, 4)
    device = cuda.to_device(host)
    np.testing.assert_array_equal(device.T.copy_to_host(), host.T)
    np.testing.assert_array_equal(np.transpose(device).copy_to_host(), host.T)
    assert device.T.is_c_contiguous()
    transposed = device.transpose()
    transposed[0, 0] = -5  # a copy: the original is unchanged
    assert device[0, 0] == 0
    cube = cuda.to_device(np.arange(24).reshape(2, 3, 4))
    assert cube.transpose((0, 1, 2)) is cube
    with pytest.raises(NotImplementedError, match="non-2D"):
        cube.transpose()
    for axes, message in (((0, 0), r"invalid axes list \(0, 0\)"), ((0, 2), "invalid axes")):
        with pytest.raises(ValueError, match=message):
            np.transpose(device, axes=axes)

    shorts = np.arange(12, dtype="i2").reshape(3, 4)
    for dtype in ("i2", "u2", "i4", "u4", "i8", "f8"):
        np.testing.assert_array_equal(
            cuda.to_device(shorts).view(dtype).copy_to_host(), shorts.view(dtype)
        )
    strided = cuda.to_device(np.arange(32, dtype="i2").reshape(4, 8))[:, ::2]
    np.testing.assert_array_equal(
        strided.view("u2").copy_to_host(), np.arange(32, dtype="i2").reshape(4, 8)[:, ::2]
    )
    with pytest.raises(ValueError, match="must be C-contiguous"):
        strided.view("i4")
    with pytest.raises(ValueError, match="divisor of the total size"):
        cuda.to_device(np.zeros((4, 3), "i2")).view("i4")

    numbers = np.arange(101, dtype=np.int32)
    pieces = list(cuda.to_device(numbers).split(25))
    assert [p.shape for p in pieces] == [(25,), (25,), (25,), (25,), (1,)]
    np.testing.assert_array_equal(np.concatenate([p.copy_to_host() for p in pieces]), numbers)
    with pytest.raises(ValueError, match="1d"):
        next(device.split(2))
    with pytest.raises(ValueError, match="unit stride"):
        next(cuda.to_device(numbers)[::2].split(2))

    stream = cuda.stream()
    bound = device.bind(stream)
    assert bound.stream is stream and device.stream == 0
    np.testing.assert_array_equal(bound.copy_to_host(), host)
    assert device.getitem(slice(1, 3), stream=stream).stream is stream

    fortran = np.asfortranarray(np.arange(60).reshape(2, 5, 2, 3))
    on_device = cuda.to_device(fortran)
    assert on_device.is_f_contiguous() and not on_device.is_c_contiguous()
    np.testing.assert_array_equal(on_device.copy_to_host(), fortran)
    for order in "FA":
        flat = on_device.ravel(order=order)
        assert flat is not on_device
        np.testing.assert_array_equal(flat.copy_to_host(), fortran.ravel(order=order))
    with pytest.raises(NotImplementedError, match="requires copying"):
        on_device.ravel(order="C")  # a copy in NumPy: refused, never reinterpreted
    with pytest.raises(NotImplementedError, match="requires copying"):
        cuda.to_device(np.arange(60))[::2].ravel()
    flat = cuda.to_device(np.arange(10))
    np.testing.assert_array_equal(
        flat.reshape(2, 5, order="F").copy_to_host(), np.arange(10).reshape(2, 5, order="F")
    )
    np.testing.assert_array_equal(flat.reshape((5, -1)).copy_to_host(), np.arange(10).reshape(5, 2))

    for made, layout in (
        (np.zeros(10), "C"),
        (np.zeros(10, order="F"), "C"),
        (np.zeros((2, 10)), "C"),
        (np.zeros((2, 10), order="F"), "F"),
    ):
        assert cuda.to_device(made)._numba_type_.layout == layout
    assert cuda.to_device(np.zeros((5, 5)))[:, 2]._numba_type_.layout == "A"
    assert cuda.to_device(np.zeros((5, 5), order="F"))[:, 2]._numba_type_.layout == "C"
    assert str(cuda.to_device(np.zeros((2, 3), np.float32))._numba_type_.dtype) == "float32"

    # Assignments broadcast by numba-cuda's rules and say why they cannot.
    target = cuda.to_device(np.arange(35))
    with pytest.raises(ValueError, match="Can't assign 3-D array to 1-D self"):
        target[:] = np.ones((1, 2, 3))
    with pytest.raises(ValueError, match="size 2 to array axis 0 with dimension 5"):
        cuda.to_device(np.arange(5))[:] = [1, 3]
    grid = cuda.to_device(host)
    grid[1:3, 2] = [7, 8]
    grid[0] = 9
    grid.setitem((2, 3), -1, stream=stream)
    stream.synchronize()
    expected = host.copy()
    expected[1:3, 2] = [7, 8]
    expected[0] = 9
    expected[2, 3] = -1
    np.testing.assert_array_equal(grid.copy_to_host(), expected)

    # copy_to_device copies one run of memory; device sources must have the same layout.
    by_columns = cuda.to_device(np.arange(25).reshape(5, 5, order="F"))
    with pytest.raises(ValueError) as refused:
        by_columns[2].copy_to_device(np.full(5, 5))
    assert str(refused.value) == errmsg_contiguous_buffer
    c_order = np.arange(125).reshape(5, 5, 5)
    f_order = np.asfortranarray(c_order)
    with pytest.raises(ValueError, match="incompatible strides"):
        cuda.to_device(c_order).copy_to_device(cuda.to_device(f_order))
    with pytest.raises(ValueError) as refused:
        cuda.to_device(np.arange(20)).copy_to_device(cuda.to_device(np.arange(20))[::2])
    assert str(refused.value) == errmsg_contiguous_buffer
    copied = cuda.to_device(c_order)
    copied.copy_to_device(cuda.to_device(2 * c_order))
    np.testing.assert_array_equal(copied.copy_to_host(), 2 * c_order)
    copied = cuda.to_device(np.arange(10))
    copied.copy_to_device(np.arange(20)[::2])  # a strided host source is packed first
    np.testing.assert_array_equal(copied.copy_to_host(), np.arange(20)[::2])

    # numba-cuda's constructor allocates for the layout; relaxed strides (extent 1) count as
    # contiguous.
    relaxed = cuda.DeviceNDArray((1, 10), (800, 8), np.float64)
    assert relaxed.flags == {"C_CONTIGUOUS": True, "F_CONTIGUOUS": True}
    empty = cuda.DeviceNDArray(shape=(0,), strides=(8,), dtype=np.int8)
    zero_strided = np.ndarray(shape=(0,), strides=(0,), dtype=np.int8)
    empty.copy_to_host(zero_strided)
    empty.copy_to_device(zero_strided)

    # NumPy's protocol copies to the host; a view of device memory is refused.
    np.testing.assert_array_equal(np.asarray(device), host)
    assert np.asarray(device, dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError, match="`copy=False` is not supported"):
        np.array(device, copy=False)
    scalar = cuda.to_device(np.asarray(1.25))
    assert scalar.ndim == 0 and scalar.copy_to_host()[()] == 1.25
    assert (
        device.alloc_size == host.nbytes and numbers.size * 4 == cuda.to_device(numbers).alloc_size
    )

    # copy_to_host into host arrays of any layout: strided views, F order.
    strided_target = np.zeros((6, 8), dtype=host.dtype)[::2, ::2]
    device.copy_to_host(strided_target)
    np.testing.assert_array_equal(strided_target, host)
    fortran_target = np.zeros((3, 4), dtype=host.dtype, order="F")
    cuda.to_device(np.asfortranarray(host)).copy_to_host(fortran_target)
    np.testing.assert_array_equal(fortran_target, host)
    with pytest.raises(ValueError):
        device.copy_to_host(np.zeros((4, 3), dtype=host.dtype))

    assert cuda.is_float16_supported()
    device_now = cuda.get_current_device()
    assert device_now.supports_float16 == (device_now.compute_capability >= (5, 3))

    for array in (cuda.device_array((10, 12)), cuda.device_array((10, 12), order="F")):
        assert is_contiguous(array) == array_core(array).flags["C_CONTIGUOUS"]
        assert is_contiguous(array.T) == array_core(array.T).flags["C_CONTIGUOUS"]


def test_layout_helpers_on_numpy_arrays():
    for view in (np.zeros(10)[::2], np.zeros((10, 12))[::2, ::2], np.zeros((4, 5))):
        assert is_contiguous(view) == array_core(view).flags["C_CONTIGUOUS"]
    broadcast = np.broadcast_to(np.arange(3.0), (4, 3))
    assert array_core(broadcast).shape == (3,)
    assert is_contiguous(broadcast)
    with pytest.raises(TypeError, match="incompatible dtype"):
        check_array_compatibility(np.zeros(3), np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="incompatible shape"):
        check_array_compatibility(np.zeros(3), np.zeros(4))
    check_array_compatibility(np.zeros((1, 3)), np.zeros(3))  # axes of 1 do not count


class _FakeBuffer:
    """Stands in for device memory: views only do address arithmetic on it."""

    pointer = 0x10000
    size = 1 << 20


def test_gpu_views_address_the_same_memory():
    from taipan.cuda.devicearray import DeviceNDArray

    device = DeviceNDArray((3, 4), None, np.int16, _FakeBuffer())
    base = device.device_ctypes_pointer
    wide = device.view(np.int32)
    assert (wide.shape, wide.strides, wide.device_ctypes_pointer) == ((3, 2), (8, 4), base)
    left, right = DeviceNDArray((10,), None, np.float64, _FakeBuffer()).split(6)
    assert (left.shape, right.shape) == ((6,), (4,))
    assert right.device_ctypes_pointer - left.device_ctypes_pointer == 48
    folded = DeviceNDArray((12,), None, np.float32, _FakeBuffer()).reshape(3, 4, order="F")
    assert folded.strides == (4, 12) and folded._numba_type_.layout == "F"
    assert device.bind(7).stream == 7 and device.stream == 0
    assert device.bind(7).device_ctypes_pointer == base


def test_device_array_api_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        from taipan import cuda
        from test_cuda_device_array_api import device_array_api_checks

        device_array_api_checks(cuda)
        print("ok")
        """,
    )


@pytest.mark.cuda
def test_device_array_api_on_the_gpu():
    from taipan import cuda

    if not cuda.is_available():
        pytest.skip("no CUDA driver or GPU")
    device_array_api_checks(cuda)


RECORD = np.dtype([("a", np.int32), ("b", np.float32), ("c", np.float64, (2,))], align=True)


def test_device_record_layout_without_a_gpu():
    from taipan.cuda.devicearray import DeviceRecord
    from taipan.typeof import from_dtype

    record = DeviceRecord(RECORD, gpu_data=_FakeBuffer())
    assert (record.shape, record.strides, record.ndim, record.size) == ((), (), 0, 1)
    assert record.alloc_size == RECORD.itemsize and record.dtype == RECORD
    assert record._numba_type_ == from_dtype(RECORD)
    field, is_array = record._field("c")
    assert is_array and field.shape == (2,) and field.dtype == np.float64
    assert field.device_ctypes_pointer - record.device_ctypes_pointer == RECORD.fields["c"][1]
    with pytest.raises(KeyError, match="no field 'z'"):
        record._field("z")
    with pytest.raises(TypeError, match="structured dtype"):
        DeviceRecord(np.float64, gpu_data=_FakeBuffer())


@pytest.mark.cuda
def test_device_records_on_the_gpu():
    from taipan import cuda
    from taipan.cuda.devicearray import DeviceRecord

    if not cuda.is_available():
        pytest.skip("no CUDA driver or GPU")
    host = np.zeros(1, RECORD)[0]
    host["a"], host["b"], host["c"] = 4, 1.5, (2.0, 3.0)
    record = cuda.to_device(host)
    assert isinstance(record, DeviceRecord)
    back = np.zeros(1, RECORD)[0]
    record.copy_to_host(back)  # written in place, field by field
    assert back["a"] == 4 and back["b"] == 1.5 and tuple(back["c"]) == (2.0, 3.0)
    assert record["a"] == 4
    np.testing.assert_array_equal(record["c"].copy_to_host(), [2.0, 3.0])
    record["b"] = -2.0
    assert record.copy_to_host()["b"] == -2.0
    as_recarray = np.recarray(1, RECORD)[0]
    record.copy_to_host(as_recarray)
    assert as_recarray["a"] == 4

    @cuda.jit
    def bump(r):
        r.a += 1
        r.b = r.a * 2.0

    bump[1, 1](record)
    result = record.copy_to_host()
    assert result["a"] == 5 and result["b"] == 10.0
    other = DeviceRecord(RECORD)
    other.copy_to_device(record)
    assert other.copy_to_host()["a"] == 5
