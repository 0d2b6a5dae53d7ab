"""``cuda.local.array`` and ``cuda.shared.array`` as numba-cuda takes them: ``alignment=`` (a
constant power of two, a multiple of 8, checked with numba-cuda's errors) aligning the array's
memory, and arrays of a user type with a data model of its own (Numba's extension API: a
``StructModel`` type) whose elements are stored and read whole. Checked here by the PTX (ptxas
assembles it for sm_90; the alignment is PTX's ``.align``) and, on a GPU, by running them."""

import importlib.util
import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, types
from taipan.core import cgutils
from taipan.errors import ArgumentValueError, TypingError
from taipan.extending import (
    lower_builtin,
    make_attribute_wrapper,
    models,
    register_model,
    type_callable,
    typeof_impl,
)

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
# The user type's constructor is lowered by building llvmlite IR.
needs_llvmlite = pytest.mark.skipif(
    importlib.util.find_spec("llvmlite") is None, reason="llvmlite not installed"
)

RECORD = np.dtype([("a", np.uint8), ("b", np.int32), ("c", np.float64)], align=False)
DTYPES = [np.uint8, np.uint64, RECORD]
SIGNATURE = "void(uint64[:])"


def address_kernel(space, shape, dtype, alignment):
    """A kernel storing the address of one array of `space` ("local" or "shared")."""
    if space == "local":

        def kernel(out):
            array = cuda.local.array(shape=shape, dtype=dtype, alignment=alignment)
            out[0] = array.ctypes.data

    else:

        def kernel(out):
            array = cuda.shared.array(shape=shape, dtype=dtype, alignment=alignment)
            out[0] = array.ctypes.data

    return kernel


def declared_alignments(ptx, space):
    return [int(n) for n in re.findall(rf"^\s*\.{space} \.align (\d+) ", ptx, re.MULTILINE)]


@needs_ptxas
@pytest.mark.parametrize("space", ["local", "shared"])
@pytest.mark.parametrize("shape", [1, 50, (2, 3), (1, 4, 5)])
@pytest.mark.parametrize("dtype", DTYPES, ids=["uint8", "uint64", "record"])
@pytest.mark.parametrize("alignment", [16, 64, 256])
def test_an_alignment_aligns_the_array(space, shape, dtype, alignment, tmp_path):
    ptx, _ = cuda.compile_ptx(address_kernel(space, shape, dtype, alignment), SIGNATURE)
    ptxas(ptx, tmp_path)
    assert declared_alignments(ptx, space) == [alignment]


@needs_ptxas
@pytest.mark.parametrize("space", ["local", "shared"])
def test_without_an_alignment_the_element_s_is_kept(space, tmp_path):
    expected = {np.uint8: 1, np.uint64: 8} if space == "local" else {np.uint8: 16, np.uint64: 16}
    for dtype, alignment in expected.items():
        ptx, _ = cuda.compile_ptx(address_kernel(space, 7, dtype, None), SIGNATURE)
        ptxas(ptx, tmp_path)
        assert declared_alignments(ptx, space) == [alignment]


@pytest.mark.parametrize("space", ["local", "shared"])
@pytest.mark.parametrize(
    "alignment, reason",
    [
        (-1, "positive"),
        (0, "positive"),
        (3, "a power of 2"),
        (17, "a power of 2"),
        (33, "a power of 2"),
        (4, "a multiple of 8"),
    ],
)
def test_an_invalid_alignment_is_numba_cuda_s_value_error(space, alignment, reason):
    kernel = address_kernel(space, 4, np.uint8, alignment)
    with pytest.raises(ValueError, match=f"Alignment must be {reason}") as raised:
        cuda.compile_ptx(kernel, SIGNATURE)
    assert isinstance(raised.value, ArgumentValueError) and isinstance(raised.value, TypingError)
    assert "array = cuda." in str(raised.value)  # the user's line


@pytest.mark.parametrize("space", ["local", "shared"])
@pytest.mark.parametrize("alignment", ["1.0", "16", 1.0, 16.0, True])
def test_an_alignment_that_is_no_constant_integer_is_a_typing_error(space, alignment):
    kernel = address_kernel(space, 4, np.uint8, alignment)
    with pytest.raises(TypingError, match="RequireLiteralValue: alignment must be a constant"):
        cuda.compile_ptx(kernel, SIGNATURE)


def test_an_alignment_held_in_a_variable_is_refused():
    def kernel(out, alignment):
        array = cuda.local.array(4, dtype=np.uint8, alignment=alignment)
        out[0] = array.ctypes.data

    with pytest.raises(TypingError, match="alignment must be a constant integer, not int64"):
        cuda.compile_ptx(kernel, "void(uint64[:], int64)")


ALIGNMENT = 128


@needs_ptxas
def test_an_alignment_may_be_a_global_or_a_keyword_after_the_shape(tmp_path):
    def kernel(out):
        local = cuda.local.array(3, np.float64, ALIGNMENT)
        shared = cuda.shared.array((2, 2), np.int32, alignment=ALIGNMENT // 2)
        local[0] = 1.5
        shared[0, 0] = 2
        out[0] = local.ctypes.data + shared.ctypes.data + np.uint64(local[0] + shared[0, 0])

    ptx, _ = cuda.compile_ptx(kernel, SIGNATURE)
    ptxas(ptx, tmp_path)
    assert declared_alignments(ptx, "local") == [128]
    assert declared_alignments(ptx, "shared") == [64]


@needs_gpu
@pytest.mark.parametrize("space", ["local", "shared"])
@pytest.mark.parametrize("dtype", DTYPES, ids=["uint8", "uint64", "record"])
@pytest.mark.parametrize("alignment", [16, 64, 256])
def test_the_array_s_address_is_aligned_on_the_gpu(space, dtype, alignment):
    out = np.zeros(1, np.uint64)
    cuda.jit(address_kernel(space, (2, 3), dtype, alignment))[1, 1](out)
    assert out[0] != 0 and out[0] % alignment == 0


# A user type with a StructModel (numba-cuda's extensions_usecases): arrays of it in local and
# shared memory.


class Pair:
    def __init__(self, x, y):
        self.x, self.y = x, y


class PairType(types.Type):
    def __init__(self):
        super().__init__(name="MemoryArrayPair")


pair_type = PairType()


@typeof_impl.register(Pair)
def _typeof_pair(value, context):
    return pair_type


@register_model(PairType)
class _PairModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.int32), ("y", types.int32)])


make_attribute_wrapper(PairType, "x", "x")
make_attribute_wrapper(PairType, "y", "y")


@type_callable(Pair)
def _type_pair(context):
    def typer(x, y):
        if isinstance(x, types.Integer) and isinstance(y, types.Integer):
            return pair_type

    return typer


@lower_builtin(Pair, types.Integer, types.Integer)
def _make_pair(context, builder, sig, args):
    pair = cgutils.create_struct_proxy(pair_type)(context, builder)
    pair.x, pair.y = args
    return pair._getvalue()


def fill_pairs_locally(outx, outy):
    pairs = cuda.local.array(10, dtype=pair_type)
    for i in range(len(pairs)):
        pairs[i] = Pair(types.int32(i), types.int32(i * 2))
    for i in range(len(pairs)):
        outx[i] = pairs[i].x
        outy[i] = pairs[i].y


def fill_pairs_shared(outx, outy):
    pairs = cuda.shared.array(10, dtype=pair_type)
    i = cuda.threadIdx.x
    pairs[i] = Pair(types.int32(i), types.int32(i * 3))
    cuda.syncthreads()
    j = 9 - i
    outx[i] = pairs[j].x
    outy[i] = pairs[j].y


def copy_through(kind):
    if kind == "local":

        def kernel(x):
            copy = cuda.local.array(10, dtype=pair_type)
            copy[0] = x[0]
            x[1] = copy[0]

    else:

        def kernel(x):
            copy = cuda.shared.array(10, dtype=pair_type)
            copy[0] = x[0]
            x[1] = copy[0]

    return kernel


@needs_llvmlite
@needs_ptxas
@pytest.mark.parametrize("kind", ["local", "shared"])
def test_an_array_of_a_struct_model_type_is_typed_as_one(kind, tmp_path):
    kernel = cuda.jit(types.void(pair_type[::1]))(copy_through(kind))
    annotation = next(iter(kernel.overloads.values()))._type_annotation
    assert annotation.typemap["copy"] == pair_type[::1]
    assert annotation.typemap["copy"].dtype == pair_type
    ptxas(kernel.inspect_asm(kernel.signatures[0]), tmp_path)


@needs_llvmlite
@needs_ptxas
@pytest.mark.parametrize("kernel", [fill_pairs_locally, fill_pairs_shared])
def test_elements_of_a_struct_model_type_are_stored_and_read(kernel, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, "void(int32[::1], int32[::1])")
    ptxas(ptx, tmp_path)
    assert "st.global.u32" in ptx


@needs_llvmlite
def test_a_value_of_another_type_is_not_stored_into_them():
    def kernel(out):
        pairs = cuda.local.array(4, dtype=pair_type)
        pairs[0] = 5
        out[0] = pairs[0].x

    with pytest.raises(TypingError, match="cannot store a value of type int64 into"):
        cuda.compile_ptx(kernel, "void(int32[::1])")


def test_a_user_type_without_a_data_model_is_no_dtype():
    class Modelless(types.Type):
        def __init__(self):
            super().__init__(name="MemoryArrayModelless")

    modelless = Modelless()

    def kernel(out):
        array = cuda.local.array(4, dtype=modelless)
        out[0] = len(array)

    with pytest.raises(TypingError, match="the dtype must be"):
        cuda.compile_ptx(kernel, "void(int64[::1])")


@needs_llvmlite
@needs_gpu
def test_struct_model_arrays_on_the_gpu():
    outx = np.zeros(10, np.int32)
    outy = np.zeros(10, np.int32)
    cuda.jit(fill_pairs_locally)[1, 1](outx, outy)
    np.testing.assert_array_equal(outx, np.arange(10))
    np.testing.assert_array_equal(outy, np.arange(10) * 2)
    cuda.jit(fill_pairs_shared)[1, 10](outx, outy)
    np.testing.assert_array_equal(outx, np.arange(10)[::-1])
    np.testing.assert_array_equal(outy, np.arange(10)[::-1] * 3)
