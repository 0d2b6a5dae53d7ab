"""debug=True describes the user's variables for debuggers, as numba-cuda's debug=True does:
full debug information (emissionKind FullDebug), a DILocalVariable per parameter (numbered
from 1) and per local variable, declared on its slot (llvm.dbg.declare), typed by DWARF base
types named as Numba names them (bool is DW_ATE_boolean, int32 DW_ATE_signed...), and the
subprogram's type listing the parameters. The code computes the same with it (CPU and PTX that
ptxas takes), and compiler temporaries stay out."""

import contextlib
import re
import warnings

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import boolean, complex128, cuda, float32, float64, int32, int64, njit, uint8, void
from taipan.runtime import live_blocks


def compare(x, y):
    z = x == y  # noqa: F841


def mixed(a, n, flag, c):
    total = 0.0
    count = n * 2
    for i in range(n):
        if flag:
            total += a[i]
    z = complex(count, 1)
    a[0] = total + z.real


def metadata(ir, pattern):
    """The metadata line `pattern` finds, and its node number."""
    match = re.search(r"^!(\d+) = " + pattern + r".*$", ir, re.MULTILINE)
    assert match, (pattern, ir)
    return match.group(0), match.group(1)


def variable(ir, name):
    line, number = metadata(ir, rf'!DILocalVariable\(name: "{name}"')
    type_number = re.search(r"type: !(\d+)", line).group(1)
    type_line, _ = metadata(ir, rf"(?<=^!{type_number} = )!DI\w+Type\(")
    return line, number, type_line


def test_parameters_and_locals_are_described():
    kernel = cuda.jit(void(int32, int32), debug=True, opt=False)(compare)
    ir = kernel.inspect_llvm((int32, int32))
    assert re.search(r"!DICompileUnit\(.*emissionKind: FullDebug", ir), ir
    for number, name in enumerate(("x", "y"), start=1):
        line, node, type_line = variable(ir, name)
        assert f"arg: {number}," in line
        assert 'name: "int32", size: 32, encoding: DW_ATE_signed' in type_line
        assert re.search(rf"#dbg_declare\(ptr %{name}, !{node}, !DIExpression\(\)", ir), ir
    line, node, type_line = variable(ir, "z")
    assert "arg:" not in line
    assert 'name: "bool", size: 8, encoding: DW_ATE_boolean' in type_line
    assert re.search(rf"#dbg_declare\(ptr %z, !{node},", ir), ir
    # The subprogram's type: no result (null), then the two parameters.
    types = re.search(r"!DISubroutineType\(types: !(\d+)\)", ir).group(1)
    listed, _ = metadata(ir, rf"(?<=^!{types} = )!\{{null, !\d+, !\d+\}}")
    assert listed


def test_every_kind_of_value_has_a_type_and_temporaries_stay_out():
    signature = (float64[::1], int64, boolean, uint8)
    kernel = cuda.jit(void(*signature), debug=True, opt=False)(mixed)
    ir = kernel.inspect_llvm(signature)
    expected = {
        "total": 'name: "float64", size: 64, encoding: DW_ATE_float',
        "count": 'name: "int64", size: 64, encoding: DW_ATE_signed',
        "flag": 'name: "bool", size: 8, encoding: DW_ATE_boolean',
        "c": 'name: "uint8", size: 8, encoding: DW_ATE_unsigned',
        "z": 'name: "complex128", size: 128, encoding: DW_ATE_complex_float',
        "a": 'DICompositeType(tag: DW_TAG_structure_type, name: "array(float64, 1d, C)"',
    }
    for name, described in expected.items():
        _, _, type_line = variable(ir, name)
        assert described in type_line, (name, type_line)
    names = re.findall(r'!DILocalVariable\(name: "([^"]*)"', ir)
    assert not [name for name in names if "$" in name or "@" in name or not name], names


def test_without_debug_there_are_no_variables():
    for options in ({}, {"lineinfo": True}):
        kernel = cuda.jit(void(int32, int32), **options)(compare)
        ir = kernel.inspect_llvm((int32, int32))
        assert "DILocalVariable" not in ir and "dbg_declare" not in ir


@needs_ptxas
@pytest.mark.parametrize("opt", [False, True])
def test_ptx_with_variables_assembles(opt, tmp_path):
    with pytest.warns(Warning) if opt else contextlib.nullcontext():
        ptx, _ = cuda.compile_ptx(
            mixed, void(float32[::1], int32, boolean, complex128), debug=True, opt=opt
        )
    assert ".target sm_90, debug" in ptx and ".section\t.debug_info" in ptx
    assert "mixed" in ptx
    ptxas(ptx, tmp_path)


def collatz(values, out):
    steps = np.zeros(values.size, np.int64)
    for i in range(values.size):
        n = values[i]
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps[i] += 1
        out[i] = steps[i]
    return steps.sum()


def counting(n):
    for i in range(n):
        doubled = i * 2
        yield doubled


def test_cpu_code_with_variables_computes_the_same():
    before = live_blocks()
    values = np.arange(1, 40)
    out, expected_out = np.zeros(39, np.int64), np.zeros(39, np.int64)
    assert njit(debug=True)(collatz)(values, out) == collatz(values, expected_out)
    assert np.array_equal(out, expected_out)
    assert list(njit(debug=True)(counting)(4)) == list(counting(4))
    assert live_blocks() == before


def answer():
    return 42


def built_by_exec():
    namespace = {}
    exec("def made():\n    return 1\n", {}, namespace)  # noqa: S102
    return namespace["made"]


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_debug_info_for_a_function_without_a_file_warns(target):
    from taipan.errors import DebugInfoWarning, NumbaDebugInfoWarning

    assert NumbaDebugInfoWarning is DebugInfoWarning
    made = built_by_exec()

    def compile_it(function, debug):
        if target == "cpu":
            return njit(debug=debug)(function)()
        return cuda.jit(device=True, debug=debug, opt=False)(function).compile_device(())

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compile_it(made, True)
    found = [w for w in caught if issubclass(w.category, DebugInfoWarning)]
    assert len(found) == 1, [str(w.message) for w in caught]
    message = str(found[0].message)
    assert "Could not find source for function" in message and str(made) in message
    assert "'<string>' does not exist" in message
    # Without debug, or for a function in a file, nothing is said.
    with warnings.catch_warnings():
        warnings.simplefilter("error", DebugInfoWarning)
        compile_it(built_by_exec(), False)
        compile_it(answer, True)


@pytest.mark.parametrize("ending", ["newline", "none"])
@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_debug_info_for_a_notebook_cell_does_not_warn(target, ending):
    """A notebook registers each cell's text in linecache, where debuggers and inspect find
    it: no DebugInfoWarning (numba-cuda's test_linecache_source, whose compiled text has no
    newline after its last line where linecache's lines each end in one)."""
    import linecache

    from taipan.errors import DebugInfoWarning

    text = "def cell(x):\n    return x + 1" + ("\n" if ending == "newline" else "")
    filename = f"<ipython-input-taipan-{target}-{ending}>"
    cached = [line + "\n" for line in text.splitlines()]
    linecache.cache[filename] = (len(text), None, cached, filename)
    try:
        namespace = {}
        exec(compile(text, filename, "exec"), namespace)  # noqa: S102
        cell = namespace["cell"]
        with warnings.catch_warnings():
            warnings.simplefilter("error", DebugInfoWarning)
            if target == "cpu":
                assert njit(debug=True)(cell)(1) == 2
            else:
                cuda.jit(device=True, debug=True, opt=False)(cell).compile_device((int64,))
    finally:
        linecache.cache.pop(filename, None)
