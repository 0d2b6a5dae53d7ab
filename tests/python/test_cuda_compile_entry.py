"""numba-cuda's compile entry points without a GPU: ``cuda.compile``, ``compile_all`` and
``compile_ptx`` with ``launch_bounds`` (the PTX directives, which ptxas takes), their refusals
(ABIs, outputs, bounds) with numba-cuda's exception classes, and the warning for debug
information with optimisation on."""

import os
import shutil
import subprocess
import warnings

import pytest

from taipan import cuda, float32, int32, void
from taipan.errors import InvalidConfigWarning, UnsupportedError

PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
needs_ptxas = pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")


def axpy(r, a, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = a * x[i] + y[i]


AXPY = void(float32[:], float32, float32[:], float32[:])


def add(x, y):
    return x + y


def ptxas(ptx, tmp_path):
    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    result = subprocess.run(
        [PTXAS, "-arch=sm_90", str(source), "-o", str(tmp_path / "k.cubin")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "bounds, directives",
    [
        (128, [".maxntid 128, 1, 1"]),
        ((256,), [".maxntid 256, 1, 1"]),
        ((128, 2), [".maxntid 128, 1, 1", ".minnctapersm 2"]),
        ((128, 2, 4), [".maxntid 128, 1, 1", ".minnctapersm 2", ".maxclusterrank 4"]),
    ],
)
@needs_ptxas
def test_launch_bounds_become_ptx_directives_ptxas_takes(bounds, directives, tmp_path):
    ptx, return_type = cuda.compile_ptx(axpy, AXPY, launch_bounds=bounds)
    assert str(return_type) == "none"
    head = ptx.split(".entry ", 1)[1].split("{", 1)[0]
    assert [line.strip() for line in head.splitlines() if line.startswith(".")] == directives
    for absent in {".minnctapersm", ".maxclusterrank"} - {d.split()[0] for d in directives}:
        assert absent not in ptx
    ptxas(ptx, tmp_path)
    assert cuda.compile_ptx(axpy, AXPY)[0].count(".maxntid") == 0


def test_launch_bounds_are_checked():
    with pytest.raises(ValueError, match="Got 4 launch bounds:"):
        cuda.compile_ptx(axpy, AXPY, launch_bounds=(128, 2, 4, 8))
    with pytest.raises(ValueError, match="positive ints"):
        cuda.compile_ptx(axpy, AXPY, launch_bounds=0)
    with pytest.raises(ValueError, match="kernels, not device functions"):
        cuda.compile_ptx(add, (int32, int32), device=True, launch_bounds=128)


def test_compile_and_compile_all_give_ptx_and_the_return_type():
    ptx, return_type = cuda.compile(axpy, AXPY, device=False, abi="numba")
    assert ".visible .entry" in ptx and str(return_type) == "none"
    codes, return_type = cuda.compile_all(axpy, AXPY, device=False, abi="numba", output="ptx")
    assert codes == [ptx] and str(return_type) == "none"
    ptx, return_type = cuda.compile(add, (float32, float32), abi="numba")
    assert ".visible .func" in ptx and ".entry" not in ptx and str(return_type) == "float32"


def test_refusals_follow_numba_cuda():
    with pytest.raises(NotImplementedError, match="Unsupported ABI: fastcall"):
        cuda.compile_ptx(add, (int32, int32), abi="fastcall")
    with pytest.raises(NotImplementedError, match="The C ABI is not supported for kernels"):
        cuda.compile_ptx(axpy, AXPY, abi="c")
    with pytest.raises(UnsupportedError, match="abi='c'"):  # the same error is taipan's refusal
        cuda.compile_all(axpy, AXPY, device=False, abi="c", output="ptx")
    with pytest.raises(NotImplementedError, match="Unsupported output type: illegal"):
        cuda.compile(add, (int32, int32), abi="numba", output="illegal")
    with pytest.raises(UnsupportedError, match="LTO-IR"):
        cuda.compile(add, (int32, int32), abi="numba", output="ltoir")
    with pytest.raises(ValueError, match="forced inlining"):
        cuda.compile(add, (int32, int32), abi="numba", forceinline=True)
    with pytest.raises(UnsupportedError, match="calling convention"):
        cuda.compile(add, (int32, int32))  # numba-cuda's default, the C ABI


def test_debug_with_optimisation_warns():
    with pytest.warns(InvalidConfigWarning, match="not supported by CUDA"):
        cuda.compile_ptx(add, (int32, int32), device=True, debug=True, opt=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.compile_ptx(add, (int32, int32), device=True, debug=True, opt=False)
        cuda.compile_ptx(add, (int32, int32), device=True)
