"""The warp collectives numba-cuda's test_warp_ops checks: activemask read inside each arm of a
branch (not merged after it), match_all_sync, the votes' argument checks with numba-cuda's
messages, and grid()'s refusal of a value not known when compiling. PTX is checked with ptxas
(no GPU needed); match_all_sync also runs in the simulator, and on a GPU where there is one."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas
from test_cuda_simulator import simulate

from taipan import boolean, cuda, float32, float64, int32, int64, uint32, uint64, void
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def activemask_per_branch(out):
    i = cuda.grid(1)
    if i % 2 == 0:
        out[i] = cuda.activemask()
    else:
        out[i] = cuda.activemask()


def match_all(values, out):
    i = cuda.grid(1)
    mask, same = cuda.match_all_sync(0x3FF, values[i])
    out[i] = mask if same else 0


def vote_all(mask, predicate, out):
    i = cuda.grid(1)
    out[i] = cuda.all_sync(mask[i], predicate[i])


def ballot(mask, predicate, out):
    i = cuda.grid(1)
    out[i] = cuda.ballot_sync(mask[i], predicate[i])


def grid_of(out, n):
    out[0] = cuda.grid(n)


@needs_ptxas
def test_activemask_is_read_in_each_arm_of_a_branch(tmp_path):
    ptx, _ = cuda.compile_ptx(activemask_per_branch, void(uint32[::1]))
    # Merged into one read after the branch, it would see the whole warp active again.
    assert len(re.findall(r"activemask\.b32", ptx)) == 2
    ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("value", [int32, int64, uint32, float32, float64])
def test_match_all_sync_compiles_for_each_value_type(value, tmp_path):
    ptx, _ = cuda.compile_ptx(match_all, void(value[::1], uint32[::1]))
    bits = 64 if value.bitwidth == 64 else 32
    assert re.search(rf"match\.all\.sync\.b{bits}", ptx), ptx
    ptxas(ptx, tmp_path)


def match_all_of_first(values):
    return cuda.match_all_sync(0xFFFFFFFF, values[0])


def test_match_all_sync_gives_a_mask_and_a_bool():
    _, result = cuda.compile_ptx(match_all_of_first, (int32[::1],), device=True)
    assert str(result) == "Tuple(uint32, bool)"


@pytest.mark.parametrize(
    "signature, message",
    [
        (void(float32[::1], int32[::1], int32[::1]), "Mask type must be an integer. Got float32"),
        (void(boolean[::1], int32[::1], int32[::1]), "Mask type must be an integer. Got bool"),
        (
            void(int32[::1], float64[::1], int32[::1]),
            "Predicate must be an integer or boolean. Got float64",
        ),
    ],
)
@pytest.mark.parametrize("kernel", [vote_all, ballot])
def test_votes_refuse_float_masks_and_predicates(kernel, signature, message):
    with pytest.raises(TypingError, match=re.escape(message)) as raised:
        cuda.compile_ptx(kernel, signature)
    assert "cuda.grid(1)" not in str(raised.value)  # the vote's line is named
    assert "_sync(mask[i], predicate[i])" in str(raised.value)


@needs_ptxas
@pytest.mark.parametrize(
    "mask, predicate",
    [(uint32, uint32), (int64, int64), (uint64, boolean), (int32, int32), (uint32, boolean)],
)
def test_votes_take_integer_masks_and_integer_or_bool_predicates(mask, predicate, tmp_path):
    for kernel in (vote_all, ballot):
        ptx, _ = cuda.compile_ptx(kernel, void(mask[::1], predicate[::1], int32[::1]))
        ptxas(ptx, tmp_path)


def test_grid_of_a_value_unknown_when_compiling_names_numbas_error():
    with pytest.raises(TypingError, match="RequireLiteralValue") as raised:
        cuda.compile_ptx(grid_of, void(int64[::1], int32))
    assert "cuda.grid() takes a constant 1, 2 or 3" in str(raised.value)


def test_match_all_sync_in_the_simulator(tmp_path):
    result = simulate(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def match_all(values, out):
            i = cuda.grid(1)
            mask, same = cuda.match_all_sync(0x3FF, values[i])
            out[i] = mask if same else 0

        values = np.zeros(10, np.int32)
        out = np.full(10, -1, np.int64)
        match_all[1, 10](values, out)
        print(out.tolist())
        values[1] = 4
        match_all[1, 10](values, out)
        print(out.tolist())
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == [str([0x3FF] * 10), str([0] * 10)]


@pytest.mark.cuda
@needs_gpu
def test_match_all_sync_and_activemask_on_the_gpu():
    kernel = cuda.jit(void(int32[::1], uint32[::1]))(match_all)
    values = np.zeros(10, np.int32)
    out = np.zeros(10, np.uint32)
    kernel[1, 10](values, out)
    assert (out == 0x3FF).all()
    values[1] = 4
    kernel[1, 10](values, out)
    assert (out == 0).all()
    masks = np.zeros(32, np.uint32)
    cuda.jit(activemask_per_branch)[1, 32](masks)
    np.testing.assert_equal(masks, np.tile(np.uint32([0x55555555, 0xAAAAAAAA]), 16))
