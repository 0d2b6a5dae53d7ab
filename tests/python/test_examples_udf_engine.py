"""examples/udf_engine: a column store whose ``apply(udf)`` compiles a user's row function, as
cuDF embeds Numba (the talk's ``haversine_dist(row, lat, lon)``).

The CPU path (the row function as a cfunc, called through its address from a compiled loop)
runs here against Python's own evaluation of the function and NumPy; the GPU path's PTX (the
row function by ``cuda.compile(device=True, abi="c")``, the kernel template calling it through
``cuda.declare_device``) assembles and links with ptxas and nvlink, and the template runs in the
simulator (with the row function as a device function there). run_on_gpu.py times the GPU.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path
from ptx_assembly import PTXAS

from taipan import cuda, float64, int32
from taipan.errors import TypingError
from taipan.runtime import live_blocks

FOLDER = os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", "examples", "udf_engine")
)
sys.path.insert(0, FOLDER)

from haversine import haversine_dist, haversine_numpy
from udf_engine import ColumnStore

NVLINK = "/usr/local/cuda/bin/nvlink"


def edge_rows():
    """Random points, the poles, the antimeridian, the target itself, a NaN."""
    rng = np.random.default_rng(33)
    lat = np.concatenate([rng.uniform(-90, 90, 500), [90.0, -90.0, 0.0, 51.5, np.nan, -0.0]])
    lon = np.concatenate([rng.uniform(-180, 180, 500), [0.0, 180.0, -180.0, -0.12, 1.0, 0.0]])
    return lat, lon


def python_results(store, udf, *args):
    rows = np.rec.fromarrays(list(store.columns.values()), dtype=store.row_dtype)
    return [udf(row, *args) for row in rows]


def test_cpu_apply_is_pythons_haversine():
    lat, lon = edge_rows()
    store = ColumnStore({"lat1": lat, "lon1": lon})
    before = live_blocks()
    result = store.apply(haversine_dist, 51.5, -0.12, target="cpu")
    assert result.dtype == np.float64
    # x ** 2 is x * x compiled (as Numba does); CPython calls pow(), which differs from the
    # correctly rounded product by one ulp for some x: a few rows may differ in the last bits.
    expected = python_results(store, haversine_dist, 51.5, -0.12)
    np.testing.assert_array_max_ulp(result, np.array(expected), maxulp=4)
    np.testing.assert_allclose(result, haversine_numpy(lat, lon, 51.5, -0.12), rtol=1e-12)
    assert result[-3] == 0.0 and math.isnan(result[-2])
    # a second apply with other numbers reuses the compiled function
    again = store.apply(haversine_dist, -33.9, 151.2, target="cpu")
    expected = python_results(store, haversine_dist, -33.9, 151.2)
    np.testing.assert_array_max_ulp(again, np.array(expected), maxulp=4)
    assert len(store._compiled) == 1
    del result, again
    assert live_blocks() == before


def scaled_sum(row, scale):
    return row["count"] * scale + row["weight"]


def is_heavy(row, limit):
    return row["weight"] > limit


@pytest.mark.parametrize(
    ("udf", "args"), [(scaled_sum, (3,)), (scaled_sum, (0.5,)), (is_heavy, (0.25,))]
)
def test_cpu_apply_over_mixed_column_types(udf, args):
    # (no products beyond int32: Python's NumPy scalars would wrap where int64 arithmetic,
    # compiled code's as Numba's, does not)
    counts = np.array([0, 1, -7, 2**20, -(2**20)], dtype=np.int32)
    weights = np.array([0.0, 0.25, -1.5, 1e30, np.inf], dtype=np.float32)
    store = ColumnStore({"count": counts, "weight": weights})
    result = store.apply(udf, *args, target="cpu")
    expected = python_results(store, udf, *args)
    assert result.dtype == np.asarray(expected).dtype
    np.testing.assert_array_equal(result, expected)


def test_store_and_apply_errors():
    with pytest.raises(ValueError, match="different lengths"):
        ColumnStore({"a": np.zeros(2), "b": np.zeros(3)})
    with pytest.raises(TypeError, match="not a 1-D array of numbers"):
        ColumnStore({"a": np.array(["x"])})
    with pytest.raises(ValueError, match="not a Python identifier"):
        ColumnStore({"a b": np.zeros(2)})
    store = ColumnStore({"lat1": np.zeros(2), "lon1": np.zeros(2)})
    with pytest.raises(ValueError, match="target"):
        store.apply(haversine_dist, 1.0, 2.0, target="tpu")

    def missing_column(row, x):
        return row["elevation"] + x

    # the user's mistake is reported with the user's line
    with pytest.raises(TypingError, match="elevation") as info:
        store.apply(missing_column, 1.0, target="cpu")
    assert 'row["elevation"] + x' in str(info.value)


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_gpu_row_function_ptx_links_into_the_kernel_template(tmp_path):
    store = ColumnStore({"lat1": np.zeros(4), "lon1": np.zeros(4)})
    compiled = store.compile(haversine_dist, (float64, float64), target="cuda", link="ptx")
    assert compiled.return_type == float64
    # a C function taking the row by pointer, and exception slots any kernel may share
    symbol = next(line for line in compiled.ptx.splitlines() if ".visible .func" in line)
    assert "udf_haversine_dist_" in symbol
    assert ".weak .global .align 4 .u32 taipan_cuda_exception;" in compiled.ptx
    template, _ = cuda.compile_ptx(
        compiled.kernel.py_func, (float64[::1], float64[::1], float64[::1], float64, float64)
    )
    assert (
        ".extern .func" in template and ".visible .global .align 4 .u32 taipan_cuda_exc" in template
    )
    objects = []
    for name, ptx in (("udf", compiled.ptx), ("template", template)):
        (tmp_path / f"{name}.ptx").write_text(ptx)
        out = tmp_path / f"{name}.o"
        subprocess.run(
            [PTXAS, "-arch=sm_90", "-c", str(tmp_path / f"{name}.ptx"), "-o", str(out)], check=True
        )
        objects.append(str(out))
    if not os.path.exists(NVLINK):
        pytest.skip("nvlink not installed")
    # before the device function's slots were weak, nvlink refused: "Multiple definition of
    # 'taipan_cuda_exception'"
    subprocess.run(
        [NVLINK, "-arch=sm_90", *objects, "-o", str(tmp_path / "linked.cubin")], check=True
    )


def test_a_foreign_function_takes_a_record_by_its_address():
    row_type = ColumnStore({"lat1": np.zeros(1)}).row_type
    declared = cuda.declare_device("takes_row", float64(row_type, float64), abi="c")
    assert declared.sig.args[0] == row_type

    def kernel(out, rows):
        out[0] = declared(rows[0], 2.0)  # an element of a record array

    ptx, _ = cuda.compile_ptx(kernel, (float64[::1], row_type[::1]))
    declaration = ptx[ptx.index(".extern .func") :].split(";")[0]
    assert declaration.count(".param .b64") == 3  # result, the record's address, the number

    def wrong(out, rows):
        out[0] = declared(out, 2.0)

    with pytest.raises(TypingError, match=r"argument 1 of takes_row\(\) must be Record") as info:
        cuda.compile_ptx(wrong, (float64[::1], row_type[::1]))
    assert "declared(out, 2.0)" in str(info.value)
    with pytest.raises(ValueError, match="must be 'cuda' or 'cpu'"):
        ColumnStore({"a": np.zeros(1, dtype=np.int32)}).compile(abs, (int32,), target="gpu")


def test_the_engine_runs_in_the_simulator(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env.update(TAIPAN_ENABLE_CUDASIM="1", PYTHONPATH=child_python_path())
    result = subprocess.run(
        [sys.executable, os.path.join(FOLDER, "run_on_gpu.py"), "--rows", "2000"]
        + ["--repeats", "1", "--link", "device"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASS") == 3 and "all passed" in result.stdout
