"""examples/curand_binding: cuRAND's device API reached from taipan kernels as the talk
"Accelerated Python with Numba" shows (``cuda.declare_device`` with a user type for the state
pointer, ``@cuda.jit(link=['shim.cu'], extensions=[curand_state_arg_handler])``).

Without a GPU: the NumPy Philox the GPU check compares with equals cuRAND's own (its header's
rounds, compiled for the host; libcurand's host generator at the places its orderings take
numbers from), the kernels' PTX assembles and links with shim.cu compiled by NVRTC, foreign
functions take user types whose model is a pointer, and a launch compiles for the user type and
passes the handler's address. examples/curand_binding/check_on_gpu.py runs the kernels on a GPU.
"""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from ptx_assembly import PTXAS, ptxas

from taipan import _core, cuda, types
from taipan.errors import TypingError
from taipan.extending import models, register_model

FOLDER = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "curand_binding")
sys.path.insert(0, os.path.abspath(FOLDER))

import check_on_gpu
import curand_binding as cb
import philox_reference

NVCC = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
NVLINK = shutil.which("nvlink") or "/usr/local/cuda/bin/nvlink"
needs = {
    tool: pytest.mark.skipif(not os.path.exists(path), reason=f"{tool} not installed")
    for tool, path in (("ptxas", PTXAS), ("nvcc", NVCC), ("nvlink", NVLINK))
}


def libcurand_or_skip():
    try:
        return check_on_gpu._libcurand()
    except OSError:
        pytest.skip("libcurand not installed")


@needs["nvcc"]
def test_the_reference_rounds_are_the_curand_headers(tmp_path):
    """philox4x32_10 = curand_philox4x32_x.h's curand_Philox4x32_10, compiled for the host."""
    rng = np.random.default_rng(7)
    counters = rng.integers(0, 2**32, size=(64, 4), dtype=np.uint64).astype(np.uint32)
    seeds = [0, 1234, 0xFFFFFFFFFFFFFFFF, int(rng.integers(0, 2**63))]
    lines = [f"{{{', '.join(f'{v}u' for v in row)}}}," for row in counters]
    source = tmp_path / "philox.cu"
    source.write_text(
        "#define QUALIFIERS static inline __host__ __device__\n"
        "#include <curand_philox4x32_x.h>\n#include <cstdio>\n"
        f"static const unsigned counters[][4] = {{{''.join(lines)}}};\n"
        f"static const unsigned long long seeds[] = {{{', '.join(f'{s}ull' for s in seeds)}}};\n"
        "int main() {\n  for (unsigned long long seed : seeds)\n"
        "    for (auto &c : counters) {\n"
        "      uint4 r = curand_Philox4x32_10(make_uint4(c[0], c[1], c[2], c[3]),\n"
        "                                     make_uint2((unsigned)seed, (unsigned)(seed >> 32)));\n"
        '      printf("%u %u %u %u\\n", r.x, r.y, r.z, r.w);\n    }\n}\n'
    )
    subprocess.run([NVCC, "-o", str(tmp_path / "philox"), str(source)], check=True)
    output = subprocess.run([str(tmp_path / "philox")], capture_output=True, text=True, check=True)
    expected = np.array(output.stdout.split(), dtype=np.uint64).reshape(len(seeds), -1, 4)
    for seed, blocks in zip(seeds, expected):
        assert np.array_equal(philox_reference.philox4x32_10(counters, seed), blocks)


@pytest.mark.parametrize("seed", [1234, 0xDEADBEEFCAFE])
@pytest.mark.parametrize("offset", [0, 1001])
@pytest.mark.parametrize("ordering", sorted(check_on_gpu.ORDERINGS))
def test_the_host_api_gives_the_reference_numbers_at_its_places(seed, offset, ordering):
    """libcurand's Philox host generator = the device API's numbers at host_api_place, past the
    point where its 65536 interleaved subsequences wrap (output 262144)."""
    libcurand_or_skip()
    count = 4 * philox_reference.HOST_API_SUBSEQUENCES + 600
    host = check_on_gpu._host_api_ctypes(
        check_on_gpu.RNG_PHILOX, seed, offset, check_on_gpu.ORDERINGS[ordering], count
    )
    assert np.array_equal(host, philox_reference.host_api_numbers(seed, offset, count))
    # The guess "thread i's curand_init(seed, 0, i) gives output i" holds for the first four
    # outputs only: the host takes four numbers from each subsequence in turn.
    sequential = philox_reference.device_numbers(seed, 0, np.arange(8))
    host_at_zero = check_on_gpu._host_api_ctypes(
        check_on_gpu.RNG_PHILOX, seed, 0, check_on_gpu.ORDERINGS[ordering], 8
    )
    assert list(host_at_zero == sequential) == [True] * 4 + [False] * 4


def kernels_and_signatures():
    states = cb.curand_philox_state_pointer
    u64 = types.uint64[::1]
    return [
        (check_on_gpu.state_sizes, (types.uint64[::1],)),
        (check_on_gpu.philox_setup, (states, types.uint64, u64, u64)),
        (check_on_gpu.philox_draw, (states, types.uint32[:, ::1])),
        (check_on_gpu.setup, (cb.curand_state_pointer, types.uint64)),
        (
            check_on_gpu.count_low_bits_native,
            (cb.curand_state_pointer, types.int64, types.int32[::1]),
        ),
    ]


@needs["ptxas"]
def test_the_kernels_assemble_and_link_with_the_shim(tmp_path):
    objects = []
    for kernel, signature in kernels_and_signatures():
        ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=(9, 0))
        # the state pointer reaches the shims as a 64-bit pointer parameter
        assert "_numba_curand" in ptx and ".extern .func" in ptx
        # a folder of its own for each kernel's object: ptxas() names its files kernel.*
        folder = tmp_path / kernel.py_func.__name__
        folder.mkdir()
        objects.append(ptxas(ptx, folder, relocatable=True))
    from taipan.cuda import linking

    try:
        shim = linking.compile_cuda_source(cb.SHIM, 90)
    except Exception as error:  # noqa: BLE001 (NVRTC or the CUDA headers missing here)
        pytest.skip(f"NVRTC cannot compile shim.cu here: {error}")
    if not os.path.exists(NVLINK):
        pytest.skip("nvlink not installed")
    (tmp_path / "shim.cubin").write_bytes(shim)
    for obj in objects:
        subprocess.run(
            [NVLINK, "-arch=sm_90", obj, str(tmp_path / "shim.cubin"), "-o", f"{obj}.cubin"],
            check=True,
        )


@needs["ptxas"]
def test_foreign_functions_take_user_types_whose_model_is_a_pointer():
    def draw(states, out):
        out[0] = cb.philox(states, 0)

    ptx, _ = cuda.compile_ptx(draw, (cb.curand_philox_state_pointer, types.uint32[::1]))
    declaration = ptx[ptx.index(".extern .func") :].split(";")[0]
    assert declaration.count(".param .b64") == 3  # result slot, state pointer, index

    def wrong(states, out):
        out[0] = cb.philox(out, 0)  # an array where the state pointer goes

    with pytest.raises(
        TypingError, match=r"argument 1 of _numba_curand_philox\(\) must be"
    ) as info:
        cuda.compile_ptx(wrong, (cb.curand_philox_state_pointer, types.uint32[::1]))
    assert "cb.philox(out, 0)" in str(info.value)

    class Pair(types.Type):
        def __init__(self):
            super().__init__(name="Pair")

    @register_model(Pair)
    class PairModel(models.StructModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, [("x", types.int32), ("y", types.int32)])

    # a struct's layout is taipan's: C code cannot be written against it
    with pytest.raises(TypeError, match="cannot take a parameter of type Pair"):
        _core.external_function_type("takes_pair", [Pair()], types.int32, False)
    with pytest.raises(TypeError, match="cannot return a value of type Pair"):
        _core.external_function_type("gives_pair", [], Pair(), False)


class FakePhiloxStates(cb.CurandPhiloxStates):
    """State arrays with an address and no device memory (this machine may have no GPU)."""

    def __init__(self, n, address):
        self.n, self.address = n, address

    @property
    def data(self):
        return self.address


def test_a_launch_compiles_for_the_user_type_and_passes_the_handlers_address(monkeypatch):
    """numba-cuda's rule: the kernel is compiled for the arguments' own types (the state
    pointer, through typeof_impl); the handler changes only what is passed (its address)."""
    from taipan.cuda import dispatcher

    launched = []
    monkeypatch.setattr(
        dispatcher, "launch", lambda kernel, *config, debug=False: launched.append(config[-1])
    )
    check_on_gpu.philox_setup[1, 4](
        FakePhiloxStates(4, 0x7F00_0000_1000),
        np.uint64(5),
        np.zeros(4, dtype=np.uint64),
        np.zeros(4, dtype=np.uint64),
    )
    assert launched[0][0] == 0x7F00_0000_1000 and launched[0][1] == 5
    assert list(check_on_gpu.philox_setup.overloads)[-1][0] == cb.curand_philox_state_pointer


@needs["ptxas"]
def test_a_foreign_function_may_return_a_pointer_model_user_type(tmp_path):
    state_at = cuda.declare_device(
        "state_at",
        cb.curand_philox_state_pointer(cb.curand_philox_state_pointer, types.uint64),
        abi="c",
    )

    def kernel(states, out):
        out[0] = cb.philox(state_at(states, 1), 0)

    ptx, _ = cuda.compile_ptx(kernel, (cb.curand_philox_state_pointer, types.uint32[::1]))
    assert ".extern .func  (.param .b64 func_retval0) state_at" in ptx
    ptxas(ptx, tmp_path, relocatable=True)
