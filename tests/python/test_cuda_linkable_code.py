"""Code linked from memory (numba-cuda's LinkableCode objects: CUSource, PTXSource...) and
module callbacks, and link= entries refused in numba-cuda's words. Here (no GPU): the objects,
the refusals, NVRTC's warnings and errors, and the callbacks run against a stand-in driver and
a stand-in cuda.core (the objects setup/teardown receive); on a GPU the module's global is
set by its setup callback (numba-cuda's test_module_callbacks)."""

import io
import sys
import threading
import types
import warnings

import numpy as np
import pytest

from taipan import _core, cuda
from taipan.cuda import linking
from taipan.cuda.api.errors import LinkFileKindError, LinkFileNotFoundError
from taipan.cuda.launcher import argument_type

needs_nvrtc = pytest.mark.skipif(not _core.nvrtc_available(), reason="NVRTC not installed")
needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def test_linkable_code_objects_hold_their_data_and_name():
    source = linking.CUSource("int x;", name="mine.cu")
    assert (source.data, source.name, source.kind) == ("int x;", "mine.cu", "cu")
    assert linking.PTXSource(io.StringIO(".version 8.0")).data == ".version 8.0"
    assert linking.Cubin(io.BytesIO(b"\x7fELF")).data == b"\x7fELF"
    assert linking.Fatbin(b"").name == "<unnamed-fatbin>"
    assert linking.Archive(b"").kind == 4 and linking.Object(b"").kind == 3
    assert not source.has_callbacks
    with pytest.raises(TypeError, match="setup_callback must be callable"):
        linking.CUSource("", setup_callback=3)
    with pytest.raises(TypeError, match="teardown_callback must be callable"):
        linking.CUSource("", teardown_callback="no")


def test_linkable_code_from_paths(tmp_path):
    path = tmp_path / "functions.ptx"
    path.write_text(".version 8.0\n")
    code = linking.LinkableCode.from_path(str(path))
    assert isinstance(code, linking.PTXSource)
    assert (code.name, code.data) == ("functions", ".version 8.0\n")
    assert linking.LinkableCode.from_path_or_obj(code) is code
    with pytest.raises(ValueError, match="Unknown extension: .txt"):
        linking.LinkableCode.from_path(str(tmp_path / "notes.txt"))


def kernel_body(x):
    x[0] = 1


@pytest.mark.parametrize(
    "link, error, words",
    [
        (
            "header.cuh",
            LinkFileKindError,
            "Don't know how to link file with extension .cuh",
        ),
        ("data", LinkFileKindError, "Don't know how to link file with no extension"),
        ("nonexistent.a", LinkFileNotFoundError, "nonexistent.a not found"),
    ],
)
def test_link_entries_are_refused_in_numba_cudas_words(link, error, words):
    with pytest.raises(error, match=words) as info:
        cuda.jit("void(int32[::1])", link=[link])(kernel_body)
    # numba-cuda's LinkerError (a RuntimeError), and what Python raises for such files.
    assert isinstance(info.value, cuda.LinkerError)
    assert isinstance(info.value, FileNotFoundError if "found" in words else ValueError)
    if "found" in words:
        assert info.value.args == ("nonexistent.a not found",)


def test_ltoir_cannot_be_linked_by_the_drivers_linker():
    with pytest.raises(cuda.LinkerError, match="LTO-IR needs nvJitLink"):
        cuda.jit(link=[linking.LTOIR(b"", name="lto")])(kernel_body)


@needs_nvrtc
def test_nvrtc_warnings_come_as_one_user_warning_when_declaring():
    source = linking.CUSource(
        'extern "C" __device__ int warn_here(int *r, int a) { int unused; *r = a; return 0; }',
        name="warn_here.cu",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cuda.jit("void(int32[::1])", link=[source])(kernel_body)
        cuda.jit("void(int32[::1])", link=[source])(kernel_body)  # compiled once
    messages = [str(w.message) for w in caught if "NVRTC log messages" in str(w.message)]
    assert len(messages) == 1
    assert "NVRTC log messages whilst compiling warn_here.cu" in messages[0]
    assert "declared but never referenced" in messages[0]
    assert all(w.category is UserWarning for w in caught if "NVRTC" in str(w.message))


@needs_nvrtc
def test_nvrtc_errors_name_the_result_and_the_source(tmp_path):
    path = tmp_path / "broken.cu"
    path.write_text('extern "C" __device__ int broken(int *r) { SYNTAX ERROR }\n')
    with pytest.raises(cuda.NvrtcCompilationError) as info:
        cuda.jit("void(int32[::1])", link=[str(path)])(kernel_body)
    message = str(info.value)
    assert "NVRTC_ERROR_COMPILATION" in message
    assert 'identifier "SYNTAX" is undefined' in message
    assert 'in the compilation of "broken.cu"' in message  # the file's name, as numba-cuda's
    with pytest.raises(cuda.NvrtcCompilationError, match="<unnamed-cu>"):
        cuda.jit("void(int32[::1])", link=[linking.CUSource("SYNTAX ERROR")])(kernel_body)
    # A kernel compiled at its first launch compiles its CUDA C++ then too.
    cuda.jit(link=[linking.CUSource("SYNTAX ERROR", name="later.cu")])(kernel_body)


@needs_nvrtc
def test_link_inputs_compile_cuda_sources_and_pass_the_rest(tmp_path):
    ptx_file = tmp_path / "other.ptx"
    ptx_file.write_text(".version 8.0\n")
    cu = linking.CUSource('extern "C" __device__ int f(int *r) { *r = 1; return 0; }', name="f")
    cubin = linking.Cubin(b"\x7fELF...", name="pre")
    inputs = linking.link_inputs("PTX TEXT", "entry", [cu, str(ptx_file), cubin], 90)
    kinds = [(kind, name) for kind, name, _ in inputs]
    assert kinds == [(1, "entry.ptx"), (0, "f"), (1, str(ptx_file)), (0, "pre")]
    assert inputs[1][2][:4] == b"\x7fELF"  # NVRTC's relocatable cubin
    assert inputs[2][2] is None  # the linker reads the file
    assert inputs[3][2] == b"\x7fELF..."


# --- module callbacks, against a stand-in driver and cuda.core -----------------------------------


class _StandInObjectCode:
    """cuda.core's ObjectCode as load_with_callbacks uses it: a handle per loaded module."""

    made: "list[_StandInObjectCode]" = []  # noqa: RUF012 (the stand-in's registry)

    def __init__(self, cubin, name):
        self.cubin, self.name = cubin, name
        self.handle = 1000 + len(_StandInObjectCode.made)
        _StandInObjectCode.made.append(self)

    @classmethod
    def from_cubin(cls, cubin, name=""):
        return cls(cubin, name)


@pytest.fixture
def stand_in_loading(monkeypatch):
    """A driver (one device) and cuda.core/cuda.bindings stand-ins, so that the loading of a
    kernel with module callbacks runs without a GPU."""
    if not hasattr(_core, "cuda_available") or _core.cuda_available():
        pytest.skip("a real GPU is present: numba-cuda's test_module_callbacks covers it")
    from taipan.cuda import devices

    answers = {
        "cuda_available": lambda: True,
        "cuda_current_device": lambda: 0,
        "cuda_bound_context_is_primary": lambda: True,
        "cuda_device_name": lambda index: "stand-in",
        "cuda_compute_capability": lambda index: (9, 0),
        "cuda_memory_info": lambda: (32, 64),
        "cuda_synchronize": lambda: None,
        "cuda_link": lambda inputs, max_registers=0: (b"linked cubin", ""),
    }
    for name, answer in answers.items():
        monkeypatch.setattr(_core, name, answer)
    bindings = types.SimpleNamespace(
        CUresult=types.SimpleNamespace(CUDA_SUCCESS=0),
        cuLibraryGetModule=lambda library: (0, 5000 + library),
        cuModuleGetFunction=lambda module, name: (0, module + 1),
    )
    core = types.SimpleNamespace(ObjectCode=_StandInObjectCode)
    driver_module = types.ModuleType("cuda.bindings.driver")
    driver_module.__dict__.update(vars(bindings))
    bindings_package = types.ModuleType("cuda.bindings")
    bindings_package.driver = driver_module
    core_module = types.ModuleType("cuda.core")
    core_module.ObjectCode = core.ObjectCode
    cuda_package = types.ModuleType("cuda")
    cuda_package.__path__ = []
    for name, module in {
        "cuda": cuda_package,
        "cuda.bindings": bindings_package,
        "cuda.bindings.driver": driver_module,
        "cuda.core": core_module,
    }.items():
        monkeypatch.setitem(sys.modules, name, module)
    _StandInObjectCode.made.clear()
    devices._contexts.clear()
    yield
    linking.run_teardowns()
    devices._contexts.clear()


def test_setup_runs_once_per_module_and_teardown_at_reset(stand_in_loading):
    calls = []
    source = linking.CUSource(
        "",
        setup_callback=lambda code: calls.append(("setup", code.handle)),
        teardown_callback=lambda code: calls.append(("teardown", code.handle)),
    )

    @cuda.jit(link=[source])
    def kernel(x):
        x + 1

    int64_kernel = kernel.specialize_for([argument_type(np.int64(1))])
    float_kernel = kernel.specialize_for([argument_type(1.5)])
    # Four threads load the int64 kernel at once: one module, one setup.
    threads = [threading.Thread(target=int64_kernel.function) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    module, function = int64_kernel.function()
    assert (module, function) == (5000 + calls[0][1], 5001 + calls[0][1])
    float_kernel.function()
    assert [kind for kind, _ in calls] == ["setup", "setup"]
    assert len({handle for _, handle in calls}) == 2
    cuda.current_context().reset()
    assert sorted(calls[2:]) == sorted(("teardown", handle) for _, handle in calls[:2])
    cuda.current_context().reset()  # each teardown runs once
    assert len(calls) == 4


def test_setup_or_teardown_alone(stand_in_loading):
    seen = []
    for setup, teardown in [(seen.append, None), (None, seen.append)]:
        source = linking.CUSource("", setup_callback=setup, teardown_callback=teardown)

        @cuda.jit(link=[source])
        def kernel(x):
            x + 1

        kernel.specialize_for([argument_type(np.int64(1))]).function()
        cuda.current_context().reset()
    assert [code.handle for code in seen] == [1000, 1001]


@needs_gpu
def test_a_setup_callback_sets_the_modules_global():
    bindings = pytest.importorskip("cuda.bindings.driver")
    module = """
__device__ int num = 0;
extern "C" __device__ int get_num(int &retval) { retval = num; return 0; }
"""

    def set_forty_two(code):
        result, address, size = bindings.cuLibraryGetGlobal(code.handle, b"num")
        assert result == bindings.CUresult.CUDA_SUCCESS
        value = np.array([42], np.int32)
        bindings.cuMemcpyHtoD(address, value.ctypes.data, size)

    get_num = cuda.declare_device(
        "get_num", "int32()", link=[linking.CUSource(module, setup_callback=set_forty_two)]
    )

    @cuda.jit
    def kernel(out):
        out[0] = get_num()

    out = np.zeros(1, np.int32)
    kernel[1, 1](out)
    assert out[0] == 42


def test_the_text_of_linked_code_tells_its_contents_apart():
    # Cache keys read the options' text: two sources of one name must not share it.
    first, second = linking.CUSource("int a;", name="same"), linking.CUSource("int b;", name="same")
    assert repr(first) != repr(second) and "same" in repr(first)
    assert repr(first) == repr(linking.CUSource(io.StringIO("int a;"), name="same"))
