"""CUDA's vector types (cuda.float32x4, cuda.short2...): construction from numbers and vectors in
every mix, element reads, the C aliases, conversions of the elements to the base type, compiled
for the CPU (the kernel code's values) and the GPU (ptxas for sm_90), and run by the simulator's
Python objects, which are the reference."""

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, types
from taipan.cuda.api import vector_types as api_vector_types
from taipan.cuda.vector_types import vector_types
from taipan.errors import TypingError


def _reader(vector_type):
    """A function making every 1..4 split of the type's elements and writing them out."""
    make = vector_type.user_facing_object
    base = vector_type.base_type
    n = vector_type.num_elements
    prefix = vector_type.name[:-1]
    v1, v2, v3 = (getattr(cuda, f"{prefix}{i}") for i in (1, 2, 3))

    def read(out):
        values = (base(1), base(2), base(3), base(4))
        whole = make(*values[:n]) if n > 1 else make(values[0])
        out[0, 0] = whole.x
        if n >= 2:
            out[0, 1] = whole.y
            split = make(v1(values[0]), *values[1:n]) if n > 2 else make(v1(values[0]), values[1])
            out[1, 0] = split.x
            out[1, 1] = split.y
        if n >= 3:
            out[0, 2] = whole.z
            mixed = make(values[0], v2(values[1], values[2]), *values[3:n])
            out[2, 0] = mixed.x
            out[2, 1] = mixed.y
            out[2, 2] = mixed.z
        if n == 4:
            out[0, 3] = whole.w
            tail = make(v3(values[0], values[1], values[2]), values[3])
            out[3, 3] = tail.w
            out[3, 0] = tail.x
        copy = make(whole)
        out[4, 0] = copy.x

    return read


@pytest.mark.parametrize("name", sorted(vector_types))
def test_every_type_constructs_and_reads_on_the_cpu(name):
    vector_type = vector_types[name]
    out = np.zeros((5, 4))
    njit(_reader(vector_type))(out)
    reference = np.zeros((5, 4))
    _reader(vector_type)(reference)  # the simulator's objects, in Python
    np.testing.assert_array_equal(out, reference)
    n = vector_type.num_elements
    np.testing.assert_array_equal(out[0, :n], np.arange(1, n + 1))


def test_elements_convert_to_the_base_type():
    @njit
    def run(out):
        v = cuda.uchar4(300, -1, 2.9, True)  # converted as NumPy converts (wraps, truncates)
        out[0] = v.x
        out[1] = v.y
        out[2] = v.z
        out[3] = v.w
        f = cuda.float2(1, 2**40 + 1)
        out[4] = f.y

    out = np.zeros(5)
    run(out)
    assert list(out) == [44.0, 255.0, 2.0, 1.0, float(np.float32(2**40 + 1))]


def test_aliases_are_the_same_objects():
    for name, vector_type in vector_types.items():
        assert getattr(cuda, name) is vector_type.user_facing_object
        for alias in vector_type.user_facing_object.aliases:
            assert getattr(cuda, alias) is getattr(cuda, name)
    assert cuda.float4 is cuda.float32x4 and cuda.double2 is cuda.float64x2
    assert len(api_vector_types.VECTOR_TYPES) == 40


@pytest.mark.parametrize(
    "make",
    [
        lambda: cuda.float4(1.0, 2.0, 3.0),
        lambda: cuda.float2(cuda.float2(1.0, 2.0), 3.0),
        lambda: cuda.float2(cuda.double1(1.0), 2.0),
    ],
    ids=["too few", "too many", "another base type"],
)
def test_wrong_elements_are_typing_errors(make):
    @njit
    def run():
        v = make()
        return v.x

    with pytest.raises(TypingError):
        run()


def test_simulator_objects_check_the_count():
    with pytest.raises(TypeError, match="takes 4 elements"):
        api_vector_types.VECTOR_TYPES["float32x4"](1.0)


def _kernel(arr):
    v1 = cuda.float64x4(1.0, 3.0, 5.0, 7.0)
    v2 = cuda.short2(10, 11)
    v3 = cuda.uint3(cuda.uint1(types.uint32(4)), cuda.uint2(5, 6))
    arr[0] = v1.x + v1.w
    arr[1] = v2.y
    arr[2] = v3.z
    for v in (cuda.int2(1, 2), cuda.int2(cuda.int1(3), 4)):
        arr[3] += v.x * v.y


@needs_ptxas
def test_kernel_assembles_for_sm_90(tmp_path):
    ptx, _ = cuda.compile_ptx(_kernel, (types.float64[:],), cc=(9, 0))
    ptxas(ptx, tmp_path)
    arr = np.zeros(4)
    njit(_kernel)(arr)
    assert list(arr) == [8.0, 11.0, 6.0, 14.0]
