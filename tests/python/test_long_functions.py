"""Long functions (2,000 statements and more) are lowered in segments that share the
function's variables (lower/FunctionSegments.cpp). Generated bodies with returns part-way, early
exits in the middle of a segment, arrays held across segments, exceptions raised in a later
segment and prange loops inside must give what py_func gives, without leaks; on CUDA the PTX
passes ptxas and a kernel with such a body runs."""

import linecache
import os

import numpy as np
import pytest
from numpy_checks import no_allocation_leak
from ptx_assembly import PTXAS, ptxas

import taipan
from taipan import cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def generated(name, lines, parameters="a, x"):
    """The function `name` whose body is `lines`, with its text registered in linecache."""
    source = f"def {name}({parameters}):\n" + "".join(f"    {line}\n" for line in lines)
    filename = f"<test_long_functions {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    scope = {"np": np, "cuda": cuda}
    exec(compile(source, filename, "exec"), scope)  # noqa: S102 - generated above
    return scope[name]


def arithmetic(count, early_return_at=None, arrays=True):
    lines = ["s = 0.0", "k = a % 7"] + (["t = np.zeros(3)"] if arrays else [])
    for i in range(count):
        if i % 50 == 0 and arrays:
            lines.append(f"t[{i % 3}] += x * {i % 5}")
        elif i % 7 == 0:
            lines.append(f"if k > {i % 6}:")
            lines.append(f"    s = s * 0.5 + {i % 11}")
            lines.append("else:")
            lines.append(f"    s = s - x * {i % 4}")
        else:
            lines.append(f"s = s * 0.75 + x * {(i % 9) - 4} + k")
        if early_return_at is not None and i == early_return_at:
            lines.append("if s > 1e300:")
            lines.append("    return -1.0")
            lines.append("if a == 99:")
            lines.append("    return s + t[0]" if arrays else "    return s")
    lines.append("return s + t.sum()" if arrays else "return s")
    return lines


@pytest.mark.parametrize("count", [2500, 6000])
def test_segmented_functions_match_python(count):
    function = generated(f"long{count}", arithmetic(count, early_return_at=count // 2))
    compiled = taipan.njit(function)
    with no_allocation_leak():
        for a, x in ((3, 0.5), (99, -1.25), (10, 2.0), (99, 0.0)):
            assert compiled(a, x) == pytest.approx(function(a, x), rel=1e-12)


def test_exceptions_in_later_segments_release_arrays():
    lines = arithmetic(2400)[:-1] + ["u = np.ones(4)", "if a == 5:", "    raise ValueError(a)"]
    lines += arithmetic(800)[3:]
    function = generated("raises_late", lines)
    compiled = taipan.njit(function)
    with no_allocation_leak():
        assert compiled(3, 0.25) == pytest.approx(function(3, 0.25), rel=1e-12)
        with pytest.raises(ValueError, match="5"):
            compiled(5, 0.25)


def test_references_and_functions_cross_segments():
    """Lists, dicts, strings, arrays and a lambda bound in one segment, rebound and read in
    later ones; an exception raised after a segment rebound them must still release each."""
    lines = ["s = 0.0", "k = a % 7", "names = [str(a)]", "d = {0: 1.5}", "t = np.zeros(3)"]
    lines += ["g = lambda y: y * 0.5 + k"]
    for i in range(2600):
        if i % 450 == 0:
            lines += [f"names.append(str({i}) + names[-1])", f"d[{i}] = s", "t = t + x"]
            lines += ["try:", "    s = s / (k - 3)", "except ZeroDivisionError:", "    s = -s"]
        elif i % 600 == 1:
            lines += [f"names = names + ['{i}']", "s = g(s)"]
        else:
            lines.append(f"s = s * 0.75 + x * {(i % 9) - 4} + k")
    lines += ["if a == 5:", "    raise ValueError(len(names))"]
    lines += ["return s + t.sum() + len(names) + len(d) + d[0] + len(names[-2])"]
    function = generated("references_across", lines)
    compiled = taipan.njit(function)
    with no_allocation_leak():
        for a, x in ((3, 0.5), (10, -2.0), (4, 0.0)):
            assert compiled(a, x) == pytest.approx(function(a, x), rel=1e-12)
        with pytest.raises(ValueError, match="12"):
            compiled(5, 0.25)


def test_prange_inside_a_segmented_function():
    lines = arithmetic(2200)[:-1] + [
        "total = 0.0",
        "for i in prange(v.size):",
        "    total += v[i] * s",
        "return total",
    ]
    function = generated("with_prange", lines, parameters="a, x, v")
    function.__globals__["prange"] = taipan.prange
    compiled = taipan.njit(parallel=True)(function)
    v = np.arange(50_000, dtype=np.float64)
    assert compiled(3, 0.5, v) == pytest.approx(function(3, 0.5, v), rel=1e-9)


def test_segmented_device_function_passes_ptxas(tmp_path):
    function = generated("device_long", arithmetic(2500, arrays=False))
    ptx, _ = cuda.compile_ptx(function, (taipan.int64, taipan.float64), device=True, cc=(9, 0))
    assert "segment" in ptx
    if not os.path.exists(PTXAS):
        pytest.skip("ptxas not found")
    ptxas(ptx, tmp_path, relocatable=True)


@needs_gpu
def test_segmented_kernel_runs_on_the_gpu():
    body = arithmetic(2500, arrays=False)[:-1]
    lines = ["i = cuda.grid(1)", "if i < out.size:", "    a = i", "    x = 0.5"]
    lines += ["    " + line for line in body] + ["    out[i] = s"]
    kernel_function = generated("long_kernel", lines, parameters="out")
    kernel = cuda.jit(kernel_function)
    out = np.zeros(64)
    kernel[1, 64](out)
    expected = [generated("long_host", body + ["return s"])(i, 0.5) for i in range(64)]
    np.testing.assert_allclose(out, expected, rtol=1e-12)
