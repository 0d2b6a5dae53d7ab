"""numba-cuda's compile entry points without a GPU: ``cuda.compile``, ``compile_all`` and
``compile_ptx`` with ``launch_bounds`` (the PTX directives, which ptxas takes), their refusals
(ABIs, outputs, bounds) with numba-cuda's exception classes, and the warning for debug
information with optimisation on."""

import re
import warnings

import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import complex128, cuda, float32, float64, int16, int32, int64, void
from taipan.errors import InvalidConfigWarning, UnsupportedError


def axpy(r, a, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = a * x[i] + y[i]


AXPY = void(float32[:], float32, float32[:], float32[:])


def add(x, y):
    return x + y


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
    with pytest.raises(UnsupportedError, match="sm_90z is not a known target"):
        cuda.compile_ptx(axpy, AXPY, cc=(9, 0, "z"))


@needs_ptxas
@pytest.mark.parametrize(
    "signature, param, result",
    [
        (int32(int32, int32), ".b32", ".b32"),
        (int64(int64, int64), ".b64", ".b64"),
        (float32(float32, float32), ".b32", ".f32"),
        (float64(float64, float64), ".b64", ".f64"),
        ((int16, int16), ".b32", None),  # int16 + int16 is int64 in Numba's typing
    ],
)
def test_c_abi_device_functions_return_their_value(signature, param, result, tmp_path):
    """compile(abi='c') (numba-cuda's default): ``T name(args...)``, the Python name, the
    declared return type's width; ptxas takes it."""
    ptx, return_type = cuda.compile(add, signature)
    head = ptx[ptx.index(".visible .func") :].split("{", 1)[0]
    assert re.match(r"\.visible\s+\.func\s+\(\.param\s+\.b(32|64)\s+func_retval0\)\s+add\(", head)
    assert "param_2" not in head
    if result is not None:
        assert str(return_type) == str(signature.return_type)
        assert f"st.param{result}" in ptx or f"st.param.b{param[2:]}" in ptx
    ptxas(ptx, tmp_path)


def test_c_abi_names_and_declared_return_types():
    ptx, _ = cuda.compile(add, int32(int32, int32), abi_info={"abi_name": "_Z4funcii"})
    assert re.search(r"func_retval0\)\s+_Z4funcii\(", ptx)
    ptx, _ = cuda.compile(lambda x: x, int32(int32))
    assert re.search(r"func_retval0\)\s+_lambda_\(", ptx)
    # The declared return type converts the result (Numba's typing gives int64 here).
    ptx, return_type = cuda.compile_ptx(add, int32(int32, int32), device=True)
    assert str(return_type) == "int32" and "st.u64" not in ptx
    ptx, return_type = cuda.compile(add, (int32, int32))
    assert str(return_type) == "int64"
    ptx, return_type = cuda.compile(lambda a, b: a == b, (int32, int32))
    assert str(return_type) == "bool" and "func_retval0" in ptx
    ptx, return_type = cuda.compile(lambda x: x / 2, complex128(complex128))
    assert str(return_type) == "complex128" and ".visible .func" in ptx
    ptx, return_type = cuda.compile(lambda: None, ())
    assert str(return_type) == "none" and re.search(r"\.visible\s+\.func\s+_lambda_\(", ptx)


def test_debug_with_optimisation_warns():
    with pytest.warns(InvalidConfigWarning, match="not supported by CUDA"):
        cuda.compile_ptx(add, (int32, int32), device=True, debug=True, opt=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.compile_ptx(add, (int32, int32), device=True, debug=True, opt=False)
        cuda.compile_ptx(add, (int32, int32), device=True)
