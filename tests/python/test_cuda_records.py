"""Records in CUDA kernels. A record argument is the address of its bytes, so the launcher
copies a NumPy record (a void scalar) to device memory and its bytes back after the kernel, as
numba-cuda does: passing the host address made numba-cuda's ``TestNestedArrays.test_getitem_idx``
read host memory on the GPU (CUDA_ERROR_ILLEGAL_ADDRESS). Array fields are views into the
record (read, written, assigned from arrays); array-to-array assignment in a kernel reads the
source in place (no allocation, which the device has not).

Here, without a GPU: every kernel of numba-cuda 0.30.4's ``test_record_dtype.py`` compiles and
ptxas accepts it, a record parameter is a pointer read through the global window, and the
kernels run in the CUDA simulator. The launches (marker ``cuda``) compare with NumPy on a GPU."""

import os
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, typeof, void

TESTS = os.path.dirname(os.path.abspath(__file__))
needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

RECORD = np.dtype(
    [("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", (np.uint8, 5))], align=True
)
WITH_ARRAY = np.dtype([("g", np.int32), ("h", np.float32, 2)], align=True)
WITH_2D_ARRAY = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
NESTED_1D = np.dtype([("array1", np.int16, (3,))], align=True)
NESTED_2D = np.dtype([("array2", np.int16, (3, 2))], align=True)
PACKED = np.dtype([("flag", np.bool_), ("x", np.float64), ("k", np.int8, (2, 2))])


# --- the kernels (numba-cuda's, and more of the class) ------------------------------------------


def set_b(ary, i, v):
    ary[i].b = v


def set_record(ary, i, j):
    ary[i] = ary[j]


def record_set_a(r, v):
    r.a = v


def record_read_c(r, arr):
    arr[0] = r.c


def record_write_2d_array(r):
    r.i = 3
    r.j[0, 0] = 5.0
    r.j[2, 1] = 10.0


def record_read_array(r, a):
    a[0] = r.h[0]
    a[1] = r.h[1]


def first_item(ary):
    return ary[0]


def read_h1(ary):
    return ary.h[1]


def read_j10(ary):
    return ary.j[1, 0]


def record_setitem_array(rec_source, rec_dest):
    rec_dest["j"] = rec_source["j"]


def assign_array_to_nested(dest, src):
    dest["array1"] = src


def assign_array_to_nested_2d(dest, src):
    dest["array2"] = src


def copy_fields(index, src, dest):
    dest["user1"] = src[index]["user"]
    dest["array1"] = src[index]["array"]


def fill_field_rows(ary):
    i = cuda.grid(1)
    if i < ary.shape[0]:
        row = ary[i]["k"]
        for p in range(2):
            for q in range(2):
                row[p, q] = i * 4 + p * 2 + q
        ary[i]["flag"] = i % 2 == 0
        ary[i]["x"] = i * 0.5


def copy_array(target, source):
    target[:] = source


def copy_row(target, source):
    target[0, :] = source[1]


def device_outer(inner):
    """A kernel storing what the device function `inner` returns for its argument, as
    numba-cuda's TestNestedArrays.get_cfunc builds it."""
    device = cuda.jit(device=True)(inner)

    def outer(arg0, res):
        res[0] = device(arg0)

    return outer


def sample_records():
    ary = np.zeros(3, dtype=RECORD)
    for i in range(3):
        ary[i]["a"] = (i + 1) / 2
        ary[i]["b"] = i + 1
        ary[i]["c"] = (i + 1) * 1j
        ary[i]["d"] = str(i + 1)
    return ary


def nested_1d_pair():
    src = np.zeros(2, np.dtype([("user", np.float64), ("array", np.int16, (3,))], align=True))
    dest = np.zeros(2, np.dtype([("user1", np.float64), ("array1", np.int16, (3,))], align=True))
    src[0] = (1.2, [1, 2, 3])
    return src, dest


def compiled_cases():
    """(name, function, arguments): every kernel shape, with arguments of its types."""
    recs = sample_records().view(np.recarray)
    with_array = np.zeros(2, WITH_ARRAY).view(np.recarray)
    with_2d = np.zeros(2, WITH_2D_ARRAY).view(np.recarray)
    src, dest = nested_1d_pair()
    return [
        ("set_b", set_b, (recs, 1, 5)),
        ("set_b_float", set_b, (recs, 1, 1.5)),
        ("set_record", set_record, (recs, 0, 2)),
        ("record_set_a", record_set_a, (recs[0], np.float64(1.5))),
        ("record_read_c", record_read_c, (recs[0], np.zeros(1, np.complex64))),
        ("record_write_2d_array", record_write_2d_array, (with_2d[0],)),
        ("record_read_array", record_read_array, (with_array[0], np.zeros(2, np.float32))),
        ("getitem_idx_array", device_outer(first_item), (with_array, np.zeros(1, WITH_ARRAY))),
        ("getitem_idx_record", device_outer(first_item), (with_array[0], np.zeros(1, np.int32))),
        ("read_h1", device_outer(read_h1), (with_array[0], np.zeros(1, np.float32))),
        ("read_j10", device_outer(read_j10), (with_2d[0], np.zeros(1, np.float32))),
        ("record_setitem_array", record_setitem_array, (with_2d[0], with_2d[1])),
        (
            "assign_1d",
            assign_array_to_nested,
            (np.zeros(2, NESTED_1D)[0], np.arange(3, dtype="i2")),
        ),
        (
            "assign_2d",
            assign_array_to_nested_2d,
            (np.zeros(2, NESTED_2D)[0], np.arange(6, dtype="i2").reshape(3, 2)),
        ),
        ("copy_fields", copy_fields, (0, src, dest[0])),
        ("fill_field_rows", fill_field_rows, (np.zeros(4, PACKED),)),
        ("copy_array", copy_array, (np.zeros(3), np.ones(3))),
        ("copy_row", copy_row, (np.zeros((2, 3), np.float32), np.ones((2, 3)))),
    ]


CASES = {name: (function, arguments) for name, function, arguments in compiled_cases()}


def signature_of(arguments):
    return void(*[typeof(value) for value in arguments])


@needs_ptxas
@pytest.mark.parametrize("name", list(CASES))
def test_record_kernels_compile_and_ptxas_accepts_them(name, tmp_path):
    function, arguments = CASES[name]
    ptx, _ = cuda.compile_ptx(function, signature_of(arguments))
    assert "taipan_nrt_allocate" not in ptx  # nothing allocates on the device
    ptxas(ptx, tmp_path)


def test_a_record_parameter_is_a_device_pointer():
    """The record is passed as one 64-bit address (of the device copy the launcher makes) and
    read through the global window: no host memory is named in the code."""
    function, arguments = CASES["getitem_idx_record"]
    ptx, _ = cuda.compile_ptx(function, signature_of(arguments))
    assert ".param .u64" in ptx
    assert "cvta.to.global.u64" in ptx
    assert "ld.global.u32" in ptx


def test_unsupported_record_reads_are_typing_errors_not_internal_errors():
    from taipan.errors import TypingError

    def missing_field(r, out):
        out[0] = r.nope

    with pytest.raises(TypingError, match="has no field 'nope'"):
        cuda.compile_ptx(
            missing_field, void(typeof(np.zeros(1, WITH_ARRAY)[0]), typeof(np.zeros(1)))
        )


# --- launches: on a GPU, and in the simulator --------------------------------------------------


@pytest.mark.cuda
@needs_gpu
def test_set_field_of_a_record_array_leaves_the_rest_alone():
    kernel = cuda.jit(set_b)
    for i in range(3):
        got = sample_records().view(np.recarray)
        expected = got.copy()
        kernel[1, 1](got, i, 123)
        expected[i]["b"] = 123
        assert np.all(got == expected)


@pytest.mark.cuda
@needs_gpu
def test_set_record_copies_every_byte():
    kernel = cuda.jit(set_record)
    for i, j in [(0, 1), (1, 2), (0, 2)]:
        got = sample_records()
        expected = got.copy()
        kernel[1, 1](got, i, j)
        expected[i] = expected[j]
        assert np.all(got == expected)


@pytest.mark.cuda
@needs_gpu
def test_a_record_argument_is_written_back():
    rec = sample_records()[0]
    cuda.jit(record_set_a)[1, 1](rec, np.float64(7.25))
    assert rec["a"] == 7.25 and rec["b"] == 1


@pytest.mark.cuda
@needs_gpu
def test_a_record_argument_is_read():
    rec = sample_records()[1]
    rec["c"] = np.complex64(4 + 5j)
    out = np.zeros(1, np.complex64)
    cuda.jit(record_read_c)[1, 1](rec, out)
    assert out[0] == np.complex64(4 + 5j)


@pytest.mark.cuda
@needs_gpu
def test_a_record_inside_an_array_is_written_through_its_view():
    # The void scalar of an array's item shares the array's memory: the write reaches it.
    ary = np.zeros(2, WITH_2D_ARRAY)
    cuda.jit(record_write_2d_array)[1, 1](ary[1])
    expected = np.zeros(2, WITH_2D_ARRAY)
    expected[1]["i"] = 3
    expected[1]["j"][0, 0] = 5.0
    expected[1]["j"][2, 1] = 10.0
    np.testing.assert_array_equal(ary, expected)


@pytest.mark.cuda
@needs_gpu
def test_array_field_of_a_record_argument_is_read():
    rec = np.zeros(1, WITH_ARRAY)[0]
    rec["h"] = [4.0, 5.0]
    out = np.zeros(2, np.float32)
    cuda.jit(record_read_array)[1, 1](rec, out)
    np.testing.assert_array_equal(out, [4.0, 5.0])


@pytest.mark.cuda
@needs_gpu
def test_getitem_idx_from_numba_cuda():
    """numba-cuda's TestNestedArrays.test_getitem_idx: a device function returning the first
    item of a record array (a record) and of a record (its first field)."""
    ary = np.zeros(2, WITH_ARRAY).view(np.recarray)
    ary[0] = np.array([(1, (2, 3))], dtype=WITH_ARRAY)[0]
    kernel = cuda.jit(device_outer(first_item))
    for arg, result_dtype in [(ary, WITH_ARRAY), (ary[0], np.int32)]:
        res = np.zeros(1, dtype=result_dtype)
        kernel[1, 1](arg, res)
        np.testing.assert_equal(res[0], first_item(arg))


@pytest.mark.cuda
@needs_gpu
def test_array_field_items_through_device_functions():
    ary = np.zeros(1, WITH_2D_ARRAY).view(np.recarray)
    ary[0].j = np.arange(1.5, 7.5, dtype=np.float32).reshape(3, 2)
    res = np.zeros(1, np.float32)
    cuda.jit(device_outer(read_j10))[1, 1](ary[0], res)
    assert res[0] == ary[0].j[1, 0]
    ary1 = np.zeros(1, WITH_ARRAY).view(np.recarray)
    ary1[0].h = [15.0, 25.0]
    cuda.jit(device_outer(read_h1))[1, 1](ary1[0], res)
    assert res[0] == 25.0


@pytest.mark.cuda
@needs_gpu
def test_array_fields_assigned_from_arrays_and_fields():
    got = np.zeros(2, NESTED_1D)
    cuda.jit(assign_array_to_nested)[1, 1](got[0], np.arange(1, 4, dtype=np.int16))
    np.testing.assert_array_equal(got["array1"], [[1, 2, 3], [0, 0, 0]])
    got2 = np.zeros(2, NESTED_2D)
    source = np.arange(1, 7, dtype=np.int16).reshape(3, 2)
    cuda.jit(assign_array_to_nested_2d)[1, 1](got2[1], source)
    np.testing.assert_array_equal(got2["array2"][1], source)
    assert not got2["array2"][0].any()
    pair = np.zeros(2, WITH_2D_ARRAY)
    pair[0]["j"] = np.arange(6).reshape(3, 2)
    cuda.jit(record_setitem_array)[1, 1](pair[0], pair[1])
    np.testing.assert_array_equal(pair[1]["j"], pair[0]["j"])
    src, dest = nested_1d_pair()
    expected = dest.copy()
    copy_fields(0, src, expected[0])
    cuda.jit(copy_fields)[1, 1](0, src, dest[0])
    np.testing.assert_array_equal(dest, expected)


@pytest.mark.cuda
@needs_gpu
def test_unaligned_record_array_fields_written_by_many_threads():
    ary = np.zeros(31, PACKED)  # int8 items up to 127
    expected = np.zeros(31, PACKED)
    for i in range(31):
        expected[i]["k"] = np.arange(4).reshape(2, 2) + i * 4
        expected[i]["flag"] = i % 2 == 0
        expected[i]["x"] = i * 0.5
    cuda.jit(fill_field_rows)[2, 16](ary)
    np.testing.assert_array_equal(ary, expected)


@pytest.mark.cuda
@needs_gpu
def test_array_to_array_assignment_in_a_kernel():
    target = np.zeros(5)
    cuda.jit(copy_array)[1, 1](target, np.arange(5.0))
    np.testing.assert_array_equal(target, np.arange(5.0))
    rows = np.zeros((2, 3), np.float32)
    cuda.jit(copy_row)[1, 1](rows, np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(rows[0], [3, 4, 5])


SIMULATED = "getitem_idx or assign or array_to_array or unaligned or set_record or set_field"


def test_the_launch_tests_pass_in_the_simulator():
    """The launch tests above that use only what the simulator has (it reads records' fields
    by name, not as attributes of a structured array's items)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env["PYTHONPATH"] = child_python_path(TESTS)
    env["TAIPAN_ENABLE_CUDASIM"] = "1"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "cuda"]
        + ["-k", SIMULATED, os.path.abspath(__file__)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "6 passed" in result.stdout, result.stdout[-2000:]
