"""numba-cuda's ``cuda.jit`` options that change the code or the loaded kernel, without a GPU
(the PTX is read, and assembled by ptxas where it is installed): ``launch_bounds`` (PTX's
.maxntid/.minnctapersm/.maxclusterrank), ``forceinline`` (LLVM's alwaysinline on a device
function), ``_dbg_optnone`` (functions left as lowered), ``lineinfo`` (line directives only),
``shared_memory_carveout``'s checks, the debug/lineinfo warning, and what the kernel keeps of
its shared arrays, and the variables' types a kernel reports (`type_annotation.typemap`). The
carveout's effect on a loaded kernel is a GPU test."""

import os
import re
import warnings

import numpy as np
import pytest
from ptx_assembly import PTXAS, needs_ptxas, ptxas

from taipan import boolean, config, cuda, float32, int32, void
from taipan.errors import InvalidConfigWarning, TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
SIGNATURE = void(float32[::1])


def store_index(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = i


def assemble_where_possible(ptx, tmp_path):
    if os.path.exists(PTXAS):
        ptxas(ptx, tmp_path)


def entry_directives(ptx):
    """The PTX between the kernel's parameter list and its body: the tuning directives."""
    entry = ptx.index(".entry ")
    return ptx[ptx.index(")", entry) : ptx.index("{", entry)]


@needs_ptxas
@pytest.mark.parametrize(
    ("bounds", "expected"),
    [
        (128, [r"\.maxntid 128, 1, 1"]),
        ((256,), [r"\.maxntid 256, 1, 1"]),
        ((128, 2), [r"\.maxntid 128, 1, 1", r"\.minnctapersm 2"]),
        ((64, 3, 4), [r"\.maxntid 64, 1, 1", r"\.minnctapersm 3", r"\.maxclusterrank 4"]),
    ],
)
def test_launch_bounds_become_the_kernel_directives(bounds, expected, tmp_path):
    kernel = cuda.jit(SIGNATURE, launch_bounds=bounds)(store_index)
    directives = entry_directives(kernel.inspect_asm(SIGNATURE.args))
    for pattern in expected:
        assert re.search(pattern, directives), directives
    names = {"maxntid", "minnctapersm", "maxclusterrank"}
    assert len(re.findall(r"\.(\w+)", directives)) == len(expected)
    assert set(re.findall(r"\.(\w+)", directives)) <= names
    ptxas(kernel.inspect_asm(SIGNATURE.args), tmp_path)
    ptx, _ = cuda.compile_ptx(store_index, SIGNATURE, launch_bounds=bounds)
    assert entry_directives(ptx) == directives


def test_no_launch_bounds_no_directives():
    ptx, _ = cuda.compile_ptx(store_index, SIGNATURE)
    assert not re.search(r"\.(maxntid|minnctapersm|maxclusterrank)", ptx)


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        ((128, 2, 4, 8), r"Got 4 launch bounds: \(128, 2, 4, 8\)\. A maximum of three"),
        (0, "launch bounds are positive ints, not 0"),
        ((128, -1), "launch bounds are positive ints, not -1"),
        ((128.0,), "launch bounds are positive ints, not 128.0"),
    ],
)
def test_bad_launch_bounds_are_refused(bounds, message):
    with pytest.raises(ValueError, match=message):
        cuda.jit("void()", launch_bounds=bounds)(lambda: None)
    with pytest.raises(ValueError, match=message):
        cuda.compile_ptx(store_index, SIGNATURE, launch_bounds=bounds)


def test_launch_bounds_are_for_kernels():
    with pytest.raises(ValueError, match="apply to kernels"):
        cuda.compile_ptx(store_index, SIGNATURE, device=True, launch_bounds=128)


def set_zero(a):
    a[0] = 0


def call_set_zero_of(callee):
    def call_set_zero(a):
        callee(a)

    return call_set_zero


@pytest.mark.parametrize("forceinline", [True, False])
def test_forceinline_inlines_even_unoptimised(forceinline, tmp_path):
    # At opt=False LLVM inlines nothing but what is marked alwaysinline.
    callee = cuda.jit(device=True, forceinline=forceinline)(set_zero)
    kernel = cuda.jit(void(int32[::1]), opt=False)(call_set_zero_of(callee))
    ir = kernel.inspect_llvm(kernel.signatures[0])
    calls = re.findall(r"call [^@\n]*@taipan_set_zero_\w+\(", ir)
    assert bool(calls) is not forceinline, ir
    ptx = kernel.inspect_asm(kernel.signatures[0])
    assert ("taipan_set_zero_" in ptx) is not forceinline  # declared and called, or not
    assemble_where_possible(ptx, tmp_path)


def test_dbg_optnone_leaves_functions_as_lowered():
    callee = cuda.jit(device=True)(set_zero)
    kernel = cuda.jit(void(int32[::1]), _dbg_optnone=True)(call_set_zero_of(callee))
    ir = kernel.inspect_llvm(kernel.signatures[0])
    assert re.search(r"call [^@\n]*@taipan_call_set_zero_\w+\(", ir), ir  # the root: not inlined
    assert "optnone" in ir and "noinline" in ir
    plain = cuda.jit(void(int32[::1]))(call_set_zero_of(callee)).inspect_llvm()
    assert "optnone" not in next(iter(plain.values()))


def test_lineinfo_gives_line_directives_without_debug_sections(tmp_path):
    kernel = cuda.jit(SIGNATURE, lineinfo=True)(store_index)
    ir = kernel.inspect_llvm(SIGNATURE.args)
    assert re.search(r"!DICompileUnit\(.*emissionKind: DebugDirectivesOnly", ir), ir
    ptx = kernel.inspect_asm(SIGNATURE.args)
    assert re.search(r'\.file\s+\d+\s+".*test_cuda_jit_options\.py"', ptx), ptx
    assert re.search(r"\.loc\s+\d+\s+\d+\s+\d+", ptx)
    assert ".debug_info" not in ptx and ".target sm_90, debug" not in ptx
    plain = cuda.jit(SIGNATURE)(store_index).inspect_asm(SIGNATURE.args)
    assert ".loc" not in plain and ".file" not in plain
    assemble_where_possible(ptx, tmp_path)


def test_debug_keeps_its_line_tables():
    kernel = cuda.jit(SIGNATURE, debug=True, opt=False)(store_index)
    ir = kernel.inspect_llvm(SIGNATURE.args)
    # Full debug information (variables too, as numba-cuda's debug=True), line tables included.
    assert re.search(r"!DICompileUnit\(.*emissionKind: FullDebug", ir), ir
    assert re.search(r"!DILocation\(line: \d+", ir), ir


def test_debug_with_lineinfo_warns():
    with pytest.warns(InvalidConfigWarning, match="debug and lineinfo are mutually exclusive"):
        cuda.jit(debug=True, lineinfo=True, opt=False)(store_index)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.jit(lineinfo=True)(store_index)


@pytest.mark.parametrize(
    ("carveout", "error", "message"),
    [
        (150, ValueError, "must be between -1 and 100"),
        (-2, ValueError, "must be between -1 and 100"),
        ("InvalidOption", ValueError, "Invalid carveout value: InvalidOption"),
        (1.5, TypeError, "shared_memory_carveout must be str or int, got float"),
        (True, TypeError, "shared_memory_carveout must be str or int, got bool"),
    ],
)
def test_bad_carveouts_are_refused_at_decoration(carveout, error, message):
    with pytest.raises(error, match=message):
        cuda.jit(shared_memory_carveout=carveout)(store_index)
    with pytest.raises(error, match=message):
        cuda.jit(SIGNATURE, shared_memory_carveout=carveout)(store_index)


@pytest.mark.parametrize("carveout", ["MaxL1", "maxshared", "default", 0, 50, 100, -1])
def test_carveouts_do_not_change_the_code(carveout):
    plain = cuda.jit(SIGNATURE)(store_index).inspect_asm(SIGNATURE.args)
    kernel = cuda.jit(SIGNATURE, shared_memory_carveout=carveout)(store_index)
    assert kernel.inspect_asm(SIGNATURE.args) == plain


@needs_gpu
@pytest.mark.cuda
@pytest.mark.parametrize(("carveout", "percent"), [("MaxL1", 0), ("MaxShared", 100), (50, 50)])
def test_the_carveout_is_set_on_the_loaded_kernel(carveout, percent):
    kernel = cuda.jit(SIGNATURE, shared_memory_carveout=carveout)(store_index)
    x = cuda.to_device(np.zeros(10, dtype=np.float32))
    kernel[1, 10](x)
    np.testing.assert_array_equal(x.copy_to_host(), np.arange(10, dtype=np.float32))
    loaded = kernel.overloads[SIGNATURE.args]
    assert loaded.carveout == percent
    preferred = cuda.driver.function_attribute(loaded.function(), 9)
    assert preferred == percent or carveout == "default"


@needs_ptxas
def test_a_shared_array_is_kept_even_when_values_are_forwarded(tmp_path):
    def round_trip(out):
        buffer = cuda.shared.array(10, dtype=np.float32)
        for j in range(10):
            buffer[j] = j
        for j in range(10):
            out[j] = buffer[j]

    ptx, _ = cuda.compile_ptx(round_trip, SIGNATURE)
    assert re.search(r"\.shared \.align 16 \.b8 \w+\[40\]", ptx), ptx
    ptxas(ptx, tmp_path)


def local_of_unknown_dtype(x):
    a = cuda.local.array(4, dtype="int33")
    x[0] = a[0]


def shared_of_unknown_dtype(x):
    a = cuda.shared.array(4, dtype="int33")
    x[0] = a[0]


@pytest.mark.parametrize(
    ("function", "which"), [(local_of_unknown_dtype, "local"), (shared_of_unknown_dtype, "shared")]
)
def test_an_invalid_dtype_name_is_named(function, which):
    message = rf"cuda\.{which}\.array\(\): Invalid NumPy dtype specified: 'int33'"
    with pytest.raises(TypingError, match=message):
        cuda.compile_ptx(function, void(int32[::1]))


# --- what a compiled kernel tells of its typing ------------------------------------------------


def local_of(dtype):
    def kernel(x):
        buffer = cuda.local.array(10, dtype=dtype)
        buffer[0] = x[0]
        x[0] = buffer[0] + 1

    return kernel


@pytest.mark.parametrize("dtype", [int32, np.int32, "int32"])
def test_the_type_annotation_maps_variables_to_types(dtype):
    kernel = cuda.jit(void(int32[::1]))(local_of(dtype))
    annotation = next(iter(kernel.overloads.values())).type_annotation
    assert annotation.typemap["buffer"].dtype == int32
    assert annotation.typemap["buffer"] == int32[::1]
    assert annotation.typemap["x"] == int32[::1]
    assert "buffer  :: " in str(annotation)


def test_lto_ptx_is_the_kernels_whole_ptx():
    kernel = cuda.jit(SIGNATURE)(store_index)
    ptx = kernel.inspect_asm(SIGNATURE.args)
    assert kernel.inspect_lto_ptx(SIGNATURE.args) == ptx
    assert kernel.inspect_lto_ptx() == {SIGNATURE.args: ptx}
    assert kernel.overloads[SIGNATURE.args].inspect_asm((9, 0)) == ptx


def print_value(x, to_print):
    if to_print:
        print("value", x)


def test_print_formats_live_in_constant_memory(tmp_path):
    ptx, _ = cuda.compile_ptx(print_value, void(int32, boolean))
    value_format = r"\.const \.align 1 \.b8 \S+\[12\] = \{118, 97, 108"  # "value %lld\n"
    assert re.search(value_format, ptx), ptx
    assert "cvta.const" in ptx
    assemble_where_possible(ptx, tmp_path)


def test_the_debug_default_reaches_cuda_jit(monkeypatch):
    monkeypatch.setattr(config, "CUDA_DEBUGINFO_DEFAULT", True)
    with pytest.warns(InvalidConfigWarning, match="debug=True with opt=True"):
        cuda.jit(SIGNATURE)(store_index)
    kernel = cuda.jit(SIGNATURE, opt=False)(store_index)
    assert re.search(r"\.section\s+\.debug_info\s+\{", kernel.inspect_asm(SIGNATURE.args))
    plain = cuda.jit(SIGNATURE, debug=False)(store_index)  # given: the default does not apply
    assert ".debug_info" not in plain.inspect_asm(SIGNATURE.args)


def test_dump_llvm_prints_each_compiled_kernel(monkeypatch, capsys):
    monkeypatch.setattr(config, "DUMP_LLVM", True)
    kernel = cuda.jit(SIGNATURE)(store_index)
    out = capsys.readouterr().out
    assert re.search(r"--LLVM DUMP store_index\(.*\)--+\n", out), out[:300]
    assert '!"kernel", i32 1' in out
    assert kernel.inspect_llvm(SIGNATURE.args) in out
    monkeypatch.setattr(config, "DUMP_LLVM", False)
    cuda.jit(SIGNATURE)(store_index)
    assert capsys.readouterr().out == ""
