"""numba-cuda's kernel-side API that its test suite reads: code to link held in memory
(``cuda.CUSource`` and its siblings, exported by both backends), declarations of foreign
functions (array parameters declared but refused when called, ``use_cooperative``, numba-cuda's
error texts), ``compile_device`` and its symbol, ``max_cooperative_grid_blocks`` (the simulator
here; the GPU on a GPU host), augmented stores through a ``CPointer``, and the float16
instructions PTX has (``abs.f16``, ``fma.rn.f16``, ``cvt.rn.f16.s8``, ``setp.*.f16``)."""

import re

import numpy as np
import pytest
from child_processes import run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cfunc, cuda, float16, float32, from_dtype, int8, int32, types, uint8, void
from taipan.cuda import fp16, linking
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

LINKABLE = (
    "Archive",
    "CUSource",
    "Cubin",
    "Fatbin",
    "LTOIR",
    "LinkableCode",
    "Object",
    "PTXSource",
)


@pytest.mark.parametrize("name", LINKABLE)
def test_linkable_code_classes_are_exported(name):
    assert getattr(cuda, name) is getattr(linking, name)


def test_linkable_code_classes_are_exported_by_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        f"""
        from taipan import cuda
        for name in {LINKABLE!r}:
            assert isinstance(getattr(cuda, name), type), name
        source = cuda.CUSource("extern \\"C\\" __device__ int f(int *r) {{ return 0; }}")
        assert source.kind == "cu" and source.name == "<unnamed-cu>"
        print("ok")
        """,
    )


def test_declarations_read_as_numba_cuda_s():
    declared = cuda.declare_device("f1", "int32(float32[:])")
    assert declared.name == "f1"
    assert declared.sig.args == (float32[:],) and declared.sig.return_type == int32
    with pytest.raises(TypeError, match="Return type must be provided for device declarations"):
        cuda.declare_device("f1", "(float32[:],)")
    with pytest.raises(TypeError, match="Return type must be provided for device declarations"):
        cuda.declare_device("f1", (float32[:],))


@pytest.mark.parametrize("parameter", [float32[:], int32[:, :], types.UniTuple(int32, 2)])
def test_a_call_of_a_declaration_foreign_code_cannot_take_is_refused(parameter):
    declared = cuda.declare_device("takes_it", types.void(parameter))

    def kernel(out):
        declared(out)

    with pytest.raises(TypingError, match="cannot be called from compiled code") as info:
        cuda.compile_ptx(kernel, void(parameter))
    assert "declared(out)" in str(info.value)


def test_use_cooperative_makes_the_calling_kernel_cooperative():
    plain = cuda.declare_device("plain_barrier_w34", "void()")
    grid = cuda.declare_device("grid_barrier_w34", "void()", use_cooperative=True)

    def calls_plain():
        plain()

    def calls_grid():
        grid()

    plain_ptx, _ = cuda.compile_ptx(calls_plain, void())
    grid_ptx, _ = cuda.compile_ptx(calls_grid, void())
    assert not linking.calls_cooperative_code(plain_ptx)
    assert linking.calls_cooperative_code(grid_ptx)


def test_device_functions_compile_device_names_their_symbol():
    @cuda.jit(device=True)
    def add_them(x, y):
        return x + y

    compiled = add_them.compile_device((int32, int32))
    symbol = compiled.fndesc.mangled_name
    assert "add_them" in symbol
    assert symbol in add_them.inspect_llvm((int32, int32))
    assert symbol in add_them.inspect_asm((int32, int32))
    assert add_them.compile_device((int32, int32)) is compiled


def test_device_functions_are_neither_launched_nor_disassembled():
    @cuda.jit(device=True)
    def helper():
        pass

    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):
        helper[1, 1]()
    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        helper.inspect_sass((int32, int32))

    @cuda.jit
    def kernel(out):
        out[0] = 1

    with pytest.raises(RuntimeError, match="is a kernel, not a device function"):
        kernel.compile_device((int32[:],))


def test_the_simulator_s_cooperative_grid_limit(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda, int32

        @cuda.jit
        def rows(m):
            g = cuda.cg.this_grid()
            for row in range(1, m.shape[0]):
                m[row, cuda.grid(1)] = m[row - 1, cuda.grid(1)] + 1
                g.sync()

        overload = rows.overloads[(int32[:, ::1],)]
        one = overload.max_cooperative_grid_blocks(256)
        assert one == overload.max_cooperative_grid_blocks((16, 16))
        assert one == overload.max_cooperative_grid_blocks((16, 4, 4)) and one >= 1
        blocks = min(overload.max_cooperative_grid_blocks(8), 4)
        m = np.zeros((5, 8 * blocks), np.int32)
        rows[blocks, 8](m)
        assert (m == np.arange(5)[:, None]).all()
        print("ok")
        """,
    )


@needs_gpu
def test_max_cooperative_grid_blocks_on_the_gpu():
    @cuda.jit("void(int32[:, ::1])")
    def rows(m):
        g = cuda.cg.this_grid()
        for row in range(1, m.shape[0]):
            m[row, cuda.grid(1)] = m[row - 1, cuda.grid(1)] + 1
            g.sync()

    overload = rows.overloads[(int32[:, ::1],)]
    blocks = overload.max_cooperative_grid_blocks(256)
    assert blocks >= cuda.get_current_device().MULTIPROCESSOR_COUNT
    assert blocks == overload.max_cooperative_grid_blocks((16, 16))
    assert blocks == overload.max_cooperative_grid_blocks((16, 4, 4))
    assert overload.cooperative and not overload._codelibrary._linking_files
    m = np.zeros((6, 32 * 2), np.int32)
    rows[2, 32](m)
    assert (m == np.arange(6)[:, None]).all()


@needs_ptxas
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64, np.float32])
def test_augmented_stores_through_a_pointer(dtype, tmp_path):
    from taipan.runtime import live_blocks

    pointee = from_dtype(np.dtype(dtype))
    signature = void(types.CPointer(pointee), types.uint32)

    def add_one(x, n):
        for i in range(n):
            x[i] += 1
            x[i] *= 3

    ptx, _ = cuda.compile_ptx(add_one, signature)
    ptxas(ptx, tmp_path)
    # The same function on the CPU, as a C callback given a NumPy array's data.
    compiled = cfunc(signature)(add_one)
    values = np.arange(6, dtype=dtype)
    before = live_blocks()
    compiled.ctypes(values.ctypes.data_as(compiled.ctypes.argtypes[0]), 4)
    assert live_blocks() == before
    expected = np.arange(6, dtype=dtype)
    expected[:4] = (expected[:4] + 1) * 3
    np.testing.assert_array_equal(values, expected)


def _ptx(function, signature, tmp_path):
    ptx, _ = cuda.compile_ptx(function, signature)
    ptxas(ptx, tmp_path)
    return ptx


@needs_ptxas
def test_float16_abs_and_fma_are_ptx_s_half_instructions(tmp_path):
    def absolute(out, a):
        out[0] = abs(a)
        out[1] = fp16.habs(a)

    def fused(out, a, b, c):
        out[0] = fp16.hfma(a, b, c)

    ptx = _ptx(absolute, void(float16[:], float16), tmp_path)
    assert "abs.f16" in ptx and "f32" not in ptx
    assert "fma.rn.f16" in _ptx(fused, void(float16[:], float16, float16, float16), tmp_path)


@needs_ptxas
@pytest.mark.parametrize("source, instruction", [(int8, "cvt.rn.f16.s8"), (uint8, "cvt.rn.f16.u8")])
def test_bytes_convert_to_float16_in_one_instruction(source, instruction, tmp_path):
    def convert(out, x):
        out[0] = np.float16(x)

    assert instruction in _ptx(convert, void(float16[:], source), tmp_path)


@needs_ptxas
@pytest.mark.parametrize("other", [int8, uint8, float16])
def test_float16_compares_with_bytes_in_float16(other, tmp_path):
    def greater(out, a, b):
        out[0] = a > b

    ptx = _ptx(greater, void(types.boolean[:], float16, other), tmp_path)
    assert re.search(r"setp\.(gt|lt)\.f16", ptx) and "f32" not in ptx


@pytest.mark.parametrize("other", [np.int8, np.uint8, np.int16])
def test_float16_comparisons_with_integers_keep_numpy_s_answers(other):
    from taipan import njit

    @njit
    def compare(a, b):
        return a > b, a >= b, a < b, a <= b, a == b, a != b

    halves = np.array([-np.inf, -300.0, -128.5, -1.0, -0.0, 0.5, 1.0, 127.0, 255.5, np.nan, 2049])
    info = np.iinfo(other)
    integers = np.array([info.min, -1 if info.min else 0, 0, 1, 127, info.max], dtype=other)
    for a in halves.astype(np.float16):
        for b in integers:
            expected = (a > b, a >= b, a < b, a <= b, a == b, a != b)
            assert compare(a, b) == tuple(bool(x) for x in expected), (a, b)


def test_forall_refuses_a_negative_task_count():
    @cuda.jit
    def kernel(out):
        out[0] = 1

    with pytest.raises(ValueError, match="Can't create ForAll with negative task count"):
        kernel.forall(-1)
    kernel.forall(0)(np.zeros(1))  # no tasks: nothing launched


def test_the_simulator_refuses_an_alignment(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def local():
            cuda.local.array(1, dtype=np.uint8, alignment=16)

        @cuda.jit
        def shared():
            cuda.shared.array(1, dtype=np.uint8, alignment=16)

        @cuda.jit
        def plain(out):
            a = cuda.local.array(2, dtype=np.int32, alignment=None)
            a[0] = 5
            out[0] = a[0]

        for kernel in (local, shared):
            try:
                kernel[1, 1]()
            except RuntimeError as error:
                assert "not supported in cudasim" in str(error), error
            else:
                raise AssertionError("alignment= was accepted")
        out = np.zeros(1, np.int32)
        plain[1, 1](out)
        assert out[0] == 5
        print("ok")
        """,
    )


def test_a_kernel_taking_this_grid_is_cooperative():
    def takes_the_grid(a):
        cuda.cg.this_grid()
        a[0] = 1.0

    def synchronises(a):
        cuda.cg.this_grid().sync()
        a[0] = 1.0

    def plain(a):
        a[0] = cuda.grid(1)

    cooperative = {
        function.__name__: linking.calls_cooperative_code(
            cuda.compile_ptx(function, void(float32[:]))[0]
        )
        for function in (takes_the_grid, synchronises, plain)
    }
    assert cooperative == {"takes_the_grid": True, "synchronises": True, "plain": False}
