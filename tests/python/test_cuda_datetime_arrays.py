"""datetime64 and timedelta64 on the GPU: device arrays of them (``cuda.to_device``, ``view``),
CUDA ufuncs and gufuncs over them (``vectorize``/``guvectorize`` with datetime signatures, the
result stored as the scalar function returns it).

Without a GPU: the kernel argument types and the generated kernels' PTX (ptxas); launches are
marked by ``needs_gpu``."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, from_dtype, guvectorize, vectorize
from taipan.cuda import devicearray
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

DATETIME = from_dtype(np.dtype("datetime64[D]"))
TIMEDELTA = from_dtype(np.dtype("timedelta64[D]"))


def difference(start, end):
    return end - start


def difference_into(start, end, out):
    out[0] = end - start


@pytest.mark.parametrize(
    "dtype, name",
    [
        ("datetime64[D]", "array(datetime64[D], 1d, C)"),
        ("timedelta64[ns]", "array(timedelta64[ns], 1d, C)"),
        ("datetime64", "array(datetime64[], 1d, C)"),
    ],
)
def test_device_array_types_of_datetimes(dtype, name):
    assert str(devicearray._array_type(np.dtype(dtype), 1, "C", False)) == name


def test_a_unit_of_several_ticks_is_refused():
    with pytest.raises(ValueError, match="unsupported dtype datetime64\\[10ms\\]"):
        devicearray._array_type(np.dtype("datetime64[10ms]"), 1, "C", False)


@needs_ptxas
def test_datetime_ufunc_and_gufunc_kernels_assemble(tmp_path):
    ufunc = vectorize([(DATETIME, DATETIME)], target="cuda")(difference)
    assert ufunc._output_dtype(0) == np.dtype("timedelta64[D]")
    ptxas(ufunc.inspect_asm(0), tmp_path)
    gufunc = guvectorize([(DATETIME, DATETIME, TIMEDELTA[:])], "(),()->()", target="cuda")(
        difference_into
    )
    ptxas(gufunc.inspect_asm(0, 1), tmp_path)


def test_a_ufunc_over_strings_is_still_refused():
    with pytest.raises(
        TypingError, match="numbers or booleans \\(or datetime64 and timedelta64\\)"
    ):
        vectorize(["unicode_type(unicode_type)"], target="cuda")(lambda s: s).inspect_asm(0)


@needs_gpu
def test_datetime_ufunc_and_gufunc_results():
    start = np.arange("2005-02", "2006-02", dtype="datetime64[D]")
    end = start + np.random.default_rng(0).integers(0, 10000, start.size)
    ufunc = vectorize([(DATETIME, DATETIME)], target="cuda")(difference)
    np.testing.assert_array_equal(ufunc(start, end), end - start)
    gufunc = guvectorize([(DATETIME, DATETIME, TIMEDELTA[:])], "(),()->()", target="cuda")(
        difference_into
    )
    np.testing.assert_array_equal(gufunc(start, end), end - start)


@needs_gpu
@pytest.mark.parametrize("kind", ["datetime", "timedelta"])
def test_datetime_device_arrays_view_as_int64(kind):
    values = np.arange("2005-02", "2006-02", dtype="datetime64[D]")
    if kind == "timedelta":
        values = values - (values - 1)
    device = cuda.to_device(values)
    viewed = device.view(np.int64)
    np.testing.assert_array_equal(viewed.copy_to_host(), values.view(np.int64))
    assert viewed.gpu_data == device.gpu_data
    np.testing.assert_array_equal(device.copy_to_host(), values)
