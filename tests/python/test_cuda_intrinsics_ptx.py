"""Unit tests of the lowering of each CUDA intrinsic: a one-line kernel per intrinsic compiles
to PTX holding the instruction (or special register) it must become. No GPU needed."""

import re

import numpy as np  # noqa: F401  (used by the generated kernels)
import pytest
from module_files import load_module

from taipan import cuda, float64, int32, void

# (name, kernel body over `out` (int32[:]) and `real` (float64[:]), PTX pattern). atomic.inc
# and atomic.dec wrap at their bound as Numba's do, through a compare-and-swap loop.
INTRINSICS = [
    ("threadIdx", "out[0] = cuda.threadIdx.x + cuda.threadIdx.y + cuda.threadIdx.z", r"%tid\.z"),
    ("blockIdx", "out[0] = cuda.blockIdx.y", r"%ctaid\.y"),
    ("blockDim", "out[0] = cuda.blockDim.z", r"%ntid\.z"),
    ("gridDim", "out[0] = cuda.gridDim.x", r"%nctaid\.x"),
    ("grid", "out[0] = cuda.grid(1)", r"%ctaid\.x"),
    ("gridsize", "out[0] = cuda.gridsize(2)[1]", r"%nctaid\.y"),
    ("laneid", "out[0] = cuda.laneid", r"%laneid"),
    ("syncthreads", "cuda.syncthreads()", r"bar\.sync|barrier\.sync"),
    ("syncthreads_count", "out[0] = cuda.syncthreads_count(out[1])", r"bar\.red\.popc"),
    ("syncthreads_and", "out[0] = cuda.syncthreads_and(out[1])", r"bar\.red\.and"),
    ("syncthreads_or", "out[0] = cuda.syncthreads_or(out[1])", r"bar\.red\.or"),
    ("syncwarp", "cuda.syncwarp()", r"bar\.warp\.sync"),
    ("threadfence", "cuda.threadfence()", r"membar\.gl|fence\.sc\.gpu"),
    ("threadfence_block", "cuda.threadfence_block()", r"membar\.cta|fence\.sc\.cta"),
    ("threadfence_system", "cuda.threadfence_system()", r"membar\.sys|fence\.sc\.sys"),
    ("atomic.add", "out[1] = cuda.atomic.add(out, 0, 1)", r"atom(\.global)?\.add\.u32"),
    ("atomic.add float", "real[1] = cuda.atomic.add(real, 0, 1.0)", r"atom(\.global)?\.add\.f64"),
    ("atomic.sub", "out[1] = cuda.atomic.sub(out, 0, 1)", r"atom(\.global)?\.add\.u32"),
    ("atomic.max", "out[1] = cuda.atomic.max(out, 0, 5)", r"atom(\.global)?\.max\.s32"),
    ("atomic.min", "out[1] = cuda.atomic.min(out, 0, 5)", r"atom(\.global)?\.min\.s32"),
    ("atomic.inc", "out[1] = cuda.atomic.inc(out, 0, 9)", r"atom(\.global)?\.(inc\.u32|cas\.b32)"),
    ("atomic.dec", "out[1] = cuda.atomic.dec(out, 0, 9)", r"atom(\.global)?\.(dec\.u32|cas\.b32)"),
    ("atomic.exch", "out[1] = cuda.atomic.exch(out, 0, 3)", r"atom(\.global)?\.exch\.b32"),
    ("atomic.cas", "out[1] = cuda.atomic.cas(out, 0, 1, 2)", r"atom(\.global)?\.cas\.b32"),
    ("atomic.and_", "out[1] = cuda.atomic.and_(out, 0, 3)", r"atom(\.global)?\.and\.b32"),
    ("atomic.or_", "out[1] = cuda.atomic.or_(out, 0, 3)", r"atom(\.global)?\.or\.b32"),
    ("atomic.xor", "out[1] = cuda.atomic.xor(out, 0, 3)", r"atom(\.global)?\.xor\.b32"),
    ("shfl_sync", "out[0] = cuda.shfl_sync(-1, out[1], 0)", r"shfl\.sync\.idx"),
    ("shfl_up_sync", "out[0] = cuda.shfl_up_sync(-1, out[1], 1)", r"shfl\.sync\.up"),
    ("shfl_down_sync", "out[0] = cuda.shfl_down_sync(-1, out[1], 1)", r"shfl\.sync\.down"),
    ("shfl_xor_sync", "out[0] = cuda.shfl_xor_sync(-1, out[1], 1)", r"shfl\.sync\.bfly"),
    ("ballot_sync", "out[0] = cuda.ballot_sync(-1, out[1] > 0)", r"vote\.sync\.ballot"),
    ("all_sync", "out[0] = cuda.all_sync(-1, out[1] > 0)", r"vote\.sync\.all"),
    ("any_sync", "out[0] = cuda.any_sync(-1, out[1] > 0)", r"vote\.sync\.any"),
    ("eq_sync", "out[0] = cuda.eq_sync(-1, out[1] > 0)", r"vote\.sync\.uni|vote\.sync\.all"),
    ("match_any_sync", "out[0] = cuda.match_any_sync(-1, out[1])", r"match\.any\.sync"),
    ("activemask", "out[0] = cuda.activemask()", r"activemask"),
    ("lanemask_lt", "out[0] = cuda.lanemask_lt()", r"%lanemask_lt"),
    ("popc", "out[0] = cuda.popc(out[1])", r"popc\.b32"),
    ("brev", "out[0] = cuda.brev(out[1])", r"brev\.b32"),
    ("clz", "out[0] = cuda.clz(out[1])", r"clz\.b32"),
    ("ffs", "out[0] = cuda.ffs(out[1])", r"popc\.b32|brev\.b32|bfind"),
    ("fma", "real[0] = cuda.fma(real[1], real[2], real[3])", r"fma\.rn\.f64"),
    ("nanosleep", "cuda.nanosleep(100)", r"nanosleep"),
    (
        "shared.array",
        (
            "s = cuda.shared.array(32, np.int32)\n    s[cuda.threadIdx.x] = out[1]\n"
            "    cuda.syncthreads()\n    out[0] = s[31 - cuda.threadIdx.x]"
        ),
        r"\.shared",
    ),
    (
        "local.array",
        "s = cuda.local.array(4, np.float64)\n    s[out[1]] = 1.0\n    real[0] = s[out[2]]",
        r"\.local",
    ),
    ("print", "print('value', out[0])", r"vprintf"),
]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    lines = ["import numpy as np", "from taipan import cuda", ""]
    for index, (_, body, _) in enumerate(INTRINSICS):
        lines += ["@cuda.jit", f"def kernel_{index}(out, real):", f"    {body}", ""]
    path = tmp_path_factory.mktemp("intrinsics") / "intrinsic_kernels.py"
    path.write_text("\n".join(lines))
    return load_module(path, "intrinsic_kernels")


@pytest.mark.parametrize(
    ("index", "pattern"),
    [(i, entry[2]) for i, entry in enumerate(INTRINSICS)],
    ids=[entry[0] for entry in INTRINSICS],
)
def test_intrinsic_lowers_to_its_instruction(kernels, index, pattern):
    kernel = getattr(kernels, f"kernel_{index}")
    ptx, _ = cuda.compile_ptx(kernel, void(int32[:], float64[:]))
    assert re.search(pattern, ptx), f"{pattern!r} not in the PTX:\n{ptx}"
