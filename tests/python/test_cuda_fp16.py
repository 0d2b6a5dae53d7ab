"""``cuda.fp16``: numba-cuda's half-precision intrinsics. Every function compiles for sm_90
(ptxas); compiled (on the CPU, where taipan compiles float16 too) it computes what the same
Python function computes on NumPy's float16 scalars, bit for bit, over values with NaN, ±0.0,
±inf, subnormals and values that round; the arithmetic ones are NumPy's float16 arithmetic,
the others within an ulp of NumPy's float32 function rounded to float16; hmax/hmin follow
__hmax/__hmin (the operand that is not NaN, +0.0 above -0.0). On a GPU, kernels compare with
the same Python functions."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda
from taipan.cuda import fp16

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

COMPARISONS = {"heq", "hne", "hge", "hgt", "hle", "hlt"}
VALUES = np.array(
    [0.0, -0.0, 0.5, -1.5, 2.0, 3.1415926, 1e-7, -6e-5, 65504.0, np.inf, -np.inf, np.nan, 0.1],
    dtype=np.float16,
)


def arity(name):
    return getattr(fp16, name).__code__.co_argcount


def operand_grid(count):
    """Every pair (or triple, thinned) of VALUES as float16 arrays."""
    grids = np.meshgrid(*([VALUES] * count), indexing="ij")
    columns = [grid.ravel() for grid in grids]
    if count == 3:
        columns = [column[::5] for column in columns]
    return columns


def kernel_source(name, count):
    params = ", ".join(f"a{i}" for i in range(count))
    items = ", ".join(f"a{i}[i]" for i in range(count))
    return f"def run(out, {params}):\n    for i in range(out.shape[0]):\n        out[i] = fp16.{name}({items})\n"


def compiled_and_python(name):
    namespace = {"fp16": fp16}
    exec(kernel_source(name, arity(name)), namespace)  # noqa: S102
    return taipan.njit(namespace["run"]), namespace["run"]


def same_bits(a, b):
    """Equal bit for bit (so -0.0 differs from 0.0), every NaN equal to every NaN (a NaN's sign
    and payload are the hardware's: x86 gives 0*inf a negative one)."""
    if a.dtype == np.bool_:
        return np.array_equal(a, b)
    nan = np.isnan(a)
    return np.array_equal(nan, np.isnan(b)) and np.array_equal(
        a[~nan].view(np.uint16), b[~nan].view(np.uint16)
    )


@pytest.mark.parametrize("name", fp16.__all__)
def test_compiled_matches_python_bit_for_bit(name):
    from taipan.runtime import live_blocks

    compiled, python = compiled_and_python(name)
    operands = operand_grid(arity(name))
    dtype = np.bool_ if name in COMPARISONS else np.float16
    expected = np.zeros(operands[0].shape, dtype)
    got = np.zeros_like(expected)
    with np.errstate(all="ignore"):
        python(expected, *operands)
    before = live_blocks()
    compiled(got, *operands)
    assert live_blocks() == before
    assert same_bits(got, expected), (name, got, expected)


@pytest.mark.parametrize("name", ["hadd", "hsub", "hmul", "hneg", "habs", *sorted(COMPARISONS)])
def test_arithmetic_is_numpys_float16_arithmetic(name):
    import operator

    numpy_ops = {
        "hadd": operator.add,
        "hsub": operator.sub,
        "hmul": operator.mul,
        "hneg": operator.neg,
        "habs": abs,
        "heq": operator.eq,
        "hne": operator.ne,
        "hge": operator.ge,
        "hgt": operator.gt,
        "hle": operator.le,
        "hlt": operator.lt,
    }
    with np.errstate(all="ignore"):
        for operands in zip(*operand_grid(arity(name))):
            expected = numpy_ops[name](*operands)
            got = getattr(fp16, name)(*operands)
            assert np.array_equal(np.asarray(got), np.asarray(expected), equal_nan=True)


@pytest.mark.parametrize(
    "name, reference",
    [
        ("hsin", np.sin),
        ("hcos", np.cos),
        ("hexp", np.exp),
        ("hexp2", np.exp2),
        ("hexp10", lambda x: np.power(np.float32(10), x)),
        ("hlog", np.log),
        ("hlog2", np.log2),
        ("hlog10", np.log10),
        ("hsqrt", np.sqrt),
        ("hrsqrt", lambda x: np.float32(1) / np.sqrt(x)),
        ("hrcp", lambda x: np.float32(1) / x),
        ("hceil", np.ceil),
        ("hfloor", np.floor),
        ("htrunc", np.trunc),
        ("hrint", np.rint),
        ("hdiv", None),
    ],
)
def test_functions_round_float32_results(name, reference):
    with np.errstate(all="ignore"):
        for operands in zip(*operand_grid(arity(name))):
            wide = [np.float32(x) for x in operands]
            value = wide[0] / wide[1] if reference is None else reference(*wide)
            expected = np.float16(value)
            got = getattr(fp16, name)(*operands)
            assert np.array_equal(got, expected, equal_nan=True), (name, operands, got)


def test_fma_rounds_once():
    a, b, c = np.float16(1.0009765625), np.float16(1.0009765625), np.float16(-1.0)
    exact = np.float64(a) * np.float64(b) + np.float64(c)
    assert fp16.hfma(a, b, c) == np.float16(exact)
    assert fp16.hfma(np.float16(2), np.float16(3), np.float16(0.5)) == np.float16(6.5)


def test_max_and_min_follow_the_cuda_rules():
    nan, zero, negative_zero = np.float16(np.nan), np.float16(0.0), np.float16(-0.0)
    assert fp16.hmax(nan, np.float16(1)) == 1 and fp16.hmax(np.float16(1), nan) == 1
    assert fp16.hmin(nan, np.float16(1)) == 1 and fp16.hmin(np.float16(1), nan) == 1
    assert np.isnan(fp16.hmax(nan, nan))
    assert not np.signbit(fp16.hmax(negative_zero, zero))
    assert not np.signbit(fp16.hmax(zero, negative_zero))
    assert np.signbit(fp16.hmin(negative_zero, zero)) and np.signbit(fp16.hmin(zero, negative_zero))


@needs_ptxas
@pytest.mark.parametrize("name", fp16.__all__)
def test_compiles_for_sm_90(name, tmp_path):
    namespace = {"cuda": cuda}
    count = arity(name)
    params = ", ".join(f"a{i}" for i in range(count))
    exec(f"def k(r, {params}):\n    r[0] = cuda.fp16.{name}({params})\n", namespace)  # noqa: S102
    result = "boolean" if name in COMPARISONS else "float16"
    ptx, _ = cuda.compile_ptx(
        namespace["k"], f"void({result}[::1], {', '.join(['float16'] * count)})"
    )
    ptxas(ptx, tmp_path)


@needs_gpu
@pytest.mark.parametrize("name", fp16.__all__)
def test_kernels_match_python(name):
    count = arity(name)
    namespace = {"cuda": cuda}
    params = ", ".join(f"a{i}" for i in range(count))
    items = ", ".join(f"a{i}[i]" for i in range(count))
    exec(  # noqa: S102
        f"def k(out, {params}):\n    i = cuda.grid(1)\n    if i < out.shape[0]:\n"
        f"        out[i] = cuda.fp16.{name}({items})\n",
        namespace,
    )
    _, python = compiled_and_python(name)
    operands = operand_grid(count)
    dtype = np.bool_ if name in COMPARISONS else np.float16
    expected = np.zeros(operands[0].shape, dtype)
    with np.errstate(all="ignore"):
        python(expected, *operands)
    got = np.zeros_like(expected)
    cuda.jit(namespace["k"])[(got.shape[0] + 255) // 256, 256](got, *operands)
    if name in {"hsin", "hcos", "hexp", "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hrsqrt"}:
        # libdevice's float32 functions may differ from the host's by an ulp before rounding
        finite = np.isfinite(expected)
        np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-3)
        assert np.array_equal(np.isnan(got), np.isnan(expected))
    else:
        assert same_bits(got, expected), (name, got, expected)
