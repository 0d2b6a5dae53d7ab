"""taipan.cuda.transpose.transpose (numba-cuda's numba.cuda.kernels.transpose): a 2-D array's
transpose written on the device, through shared-memory tiles for numbers and element by
element for records. Checked against NumPy's .T in the simulator, by ptxas for the GPU's
kernels, and on a GPU where there is one."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas
from test_cuda_simulator import simulate

from taipan import cuda, typeof
from taipan.cuda import transpose as transposing

RECORD = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])

CHECKS = """
import numpy as np
from taipan import cuda
from taipan.cuda.transpose import transpose

RECORD = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
for rows, cols in ((1, 1), (2, 3), (16, 17), (33, 40), (64, 31)):
    for dtype in (np.float64, np.complex128, np.bool_, np.int8):
        a = (np.arange(rows * cols) % 7).astype(dtype).reshape(rows, cols)
        assert (transpose(cuda.to_device(a)).copy_to_host() == a.T).all(), (rows, cols, dtype)
        given = cuda.device_array_like(a.T)
        assert transpose(a, given) is given
        assert (given.copy_to_host() == a.T).all()
    r = np.zeros((rows, cols), RECORD)
    r["i"] = np.arange(rows * cols).reshape(rows, cols)
    r["j"] = np.arange(rows * cols * 6, dtype=np.float32).reshape(rows, cols, 3, 2)
    out = cuda.device_array_like(r.T)
    transpose(cuda.to_device(r), out)
    assert (out.copy_to_host() == r.T).all(), (rows, cols)
for bad in (np.zeros(3), np.zeros((2, 3, 4))):
    try:
        transpose(bad)
    except ValueError as e:
        print("refused:", e)
try:
    transpose(np.zeros((2, 3)), cuda.device_array((2, 3)))
except ValueError as e:
    print("refused:", e)
print("ok")
"""


def test_transpose_matches_numpy_in_the_simulator(tmp_path):
    result = simulate(CHECKS, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "ok"
    assert [line for line in lines if line.startswith("refused:")] == [
        "refused: transpose takes a 2-D array, not one of 1 dimensions",
        "refused: transpose takes a 2-D array, not one of 3 dimensions",
        (
            "refused: the transpose of a float64 array of shape (2, 3) is a float64 array of "
            "shape (3, 2), not a float64 array of shape (2, 3)"
        ),
    ]


@needs_ptxas
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.bool_, np.float16, RECORD])
def test_transpose_kernels_assemble(dtype, tmp_path):
    array = typeof(np.zeros((2, 2), dtype))
    kernel = transposing._transpose_elements if dtype is RECORD else transposing._transpose_tiles
    ptx, _ = cuda.compile_ptx(kernel, (array, array))
    if dtype is not RECORD:
        assert ".shared" in ptx
    ptxas(ptx, tmp_path)


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_transpose_on_the_gpu():
    for rows, cols, dtype in ((5, 6, np.float64), (128, 128, np.complex128), (1025, 512, np.bool_)):
        a = (np.arange(rows * cols) % 5).astype(dtype).reshape(rows, cols)
        np.testing.assert_array_equal(transposing.transpose(cuda.to_device(a)).copy_to_host(), a.T)
    r = np.zeros((14, 15), RECORD)
    r["i"] = np.arange(14 * 15).reshape(14, 15)
    out = cuda.device_array_like(r.T)
    transposing.transpose(cuda.to_device(r), out)
    np.testing.assert_array_equal(out.copy_to_host(), r.T)
