"""Kernels from the seed documents, shared by the PTX tests (run everywhere) and the GPU tests
(marker ``cuda``)."""

import math

import numpy as np
from numpy import rint

from taipan import cuda, jit

TPB = 16
TILE = 32


@cuda.jit
def add_grid_stride(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


@cuda.jit
def normalize(grayscales, normalized):
    i = cuda.grid(1)
    if i < grayscales.shape[0]:
        normalized[i] = grayscales[i] / 255


@cuda.jit
def weigh(normalized, weights, weighted):
    i = cuda.grid(1)
    if i < normalized.shape[0]:
        weighted[i] = normalized[i] * weights[i]


@cuda.jit
def activate(weighted, activated):
    i = cuda.grid(1)
    if i < weighted.shape[0]:
        activated[i] = math.tanh(weighted[i])


@cuda.jit
def matmul_simple(a, b, c):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        total = 0.0
        for k in range(a.shape[1]):
            total += a[i, k] * b[k, j]
        c[i, j] = total


@cuda.jit
def matmul_shared(a, b, c):
    sa = cuda.shared.array((TPB, TPB), np.float32)
    sb = cuda.shared.array((TPB, TPB), np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    blocks = cuda.gridDim.x
    total = 0.0
    for i in range(blocks):
        sa[tx, ty] = 0.0
        sb[tx, ty] = 0.0
        if x < a.shape[0] and ty + i * TPB < a.shape[1]:
            sa[tx, ty] = a[x, ty + i * TPB]
        if y < b.shape[1] and tx + i * TPB < b.shape[0]:
            sb[tx, ty] = b[tx + i * TPB, y]
        cuda.syncthreads()
        for j in range(TPB):
            total += sa[tx, j] * sb[j, ty]
        cuda.syncthreads()
    if x < c.shape[0] and y < c.shape[1]:
        c[x, y] = total


@cuda.jit
def count_threads(counter):
    cuda.atomic.add(counter, 0, 1)


@cuda.jit
def histogram(values, bins, counts):
    i = cuda.grid(1)
    if i < values.shape[0]:
        index = int(values[i] * bins)
        if index >= bins:
            index = bins - 1
        cuda.atomic.add(counts, index, 1)


@cuda.jit
def transpose_tiled(source, target):
    tile = cuda.shared.array((TILE, TILE + 1), np.float32)
    x = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    y = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    if x < source.shape[1] and y < source.shape[0]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = source[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + cuda.threadIdx.x
    y = cuda.blockIdx.x * TILE + cuda.threadIdx.y
    if x < target.shape[1] and y < target.shape[0]:
        target[y, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y]


@jit
def clamp(x, low, high):
    if x < low:
        return low
    if x > high:
        return high
    return x


@cuda.jit
def clamp_all(values, low, high):
    i = cuda.grid(1)
    if i < values.shape[0]:
        values[i] = clamp(values[i], low, high)


@cuda.jit(device=True)
def squared(x):
    return x * x


@cuda.jit
def warp_and_intrinsics(out, bits):
    i = cuda.grid(1)
    lane = cuda.laneid
    total = cuda.shfl_down_sync(0xFFFFFFFF, squared(i), 1)
    mask = cuda.ballot_sync(0xFFFFFFFF, lane % 2 == 0)
    if i < out.shape[0]:
        out[i] = total + cuda.popc(mask) + cuda.fma(1.0, 2.0, 3.0)
        bits[i] = cuda.clz(np.int32(i)) + cuda.ffs(np.int32(i)) + cuda.brev(np.uint32(i))


@cuda.jit
def shared_dynamic(values, out):
    buffer = cuda.shared.array(0, np.float32)
    i = cuda.threadIdx.x
    buffer[i] = values[i]
    cuda.syncthreads()
    out[i] = buffer[cuda.blockDim.x - 1 - i]


@cuda.jit
def atomics_all(values, ints):
    cuda.atomic.sub(values, 0, 1.0)
    cuda.atomic.max(values, 1, 5.0)
    cuda.atomic.min(values, 2, -5.0)
    cuda.atomic.exch(ints, 0, 7)
    cuda.atomic.cas(ints, 1, 0, 9)
    cuda.atomic.and_(ints, 2, 6)
    cuda.atomic.or_(ints, 3, 6)
    cuda.atomic.xor(ints, 4, 6)
    cuda.atomic.inc(ints, 5, 100)
    cuda.atomic.dec(ints, 6, 100)


@cuda.jit(debug=True)
def divide_debug(values, divisor):
    i = cuda.grid(1)
    if i < values.shape[0]:
        values[i] = values[i] // divisor[i]


@cuda.jit(debug=True)
def out_of_bounds_debug(values):
    i = cuda.grid(1)
    values[i + 1] = 1.0


@cuda.jit(debug=True)
def raises_debug(values):
    i = cuda.grid(1)
    if i == 5:
        raise ValueError("thread five objects")
    values[i] = i


@cuda.jit
def grid_sync_sum(values, out):
    # Every thread adds its value, the whole grid waits, then thread 0 reads the total.
    i = cuda.grid(1)
    if i < values.shape[0]:
        cuda.atomic.add(out, 0, values[i])
    grid = cuda.cg.this_grid()
    grid.sync()
    if i == 0:
        out[1] = out[0]


@cuda.jit
def prints(values):
    i = cuda.grid(1)
    if i == 0:
        print("value", values[0], "index", i, "100%")


LOOKUP = np.array([1.5, 2.5, 3.5, 4.5])


@cuda.jit
def constant_lookup(out):
    table = cuda.const.array_like(LOOKUP)
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = table[i % 4]


@cuda.jit
def half_axpy(a, x, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * x[i] + x[i]


@cuda.jit
def every_warp_intrinsic(out):
    # One warp of 32 threads; each writes what every intrinsic gave it.
    lane = cuda.laneid
    full = 0xFFFFFFFF
    scratch = cuda.local.array(2, np.int64)
    scratch[0] = lane
    scratch[1] = cuda.warpsize
    out[lane, 0] = cuda.shfl_sync(full, lane * 10, 3)
    out[lane, 1] = cuda.shfl_up_sync(full, lane, 1)
    out[lane, 2] = cuda.shfl_xor_sync(full, lane, 1)
    out[lane, 3] = cuda.all_sync(full, lane < 32)
    out[lane, 4] = cuda.any_sync(full, lane == 7)
    out[lane, 5] = cuda.eq_sync(full, lane < 16)
    out[lane, 6] = cuda.match_any_sync(full, lane % 2)
    out[lane, 7] = cuda.activemask()
    out[lane, 8] = cuda.lanemask_lt()
    out[lane, 9] = cuda.syncthreads_count(lane % 4 == 0)
    out[lane, 10] = cuda.syncthreads_and(lane >= 0)
    out[lane, 11] = cuda.syncthreads_or(lane == 31)
    cuda.syncwarp()
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()
    cuda.nanosleep(10)
    out[lane, 12] = scratch[0] + scratch[1]
    out[lane, 13] = int(cuda.cbrt(27.0))


@cuda.jit(device=True)
def divmod_pair(a, b):
    return a // b, a % b


@cuda.jit("UniTuple(float32, 2)(float32, float32)", device=True)
def sum_and_difference(a, b):
    return a + b, a - b


@cuda.jit
def tuple_results(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        quotient, remainder = divmod_pair(int(x[i]), 3)
        total, difference = sum_and_difference(x[i], np.float32(1.5))
        out[i, 0] = quotient
        out[i, 1] = remainder
        out[i, 2] = total
        out[i, 3] = difference


@cuda.jit
def make_pulses(t, period, amplitude, out):
    i = cuda.grid(1)
    if i < t.shape[0]:
        out[i] = max(math.sin(t[i] / period) - 0.3, 0.0) * amplitude


@cuda.jit
def add_arrays(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] + b[i]


# The talk's forall example, borrowed from cuDF: round a column to some decimal places.
@cuda.jit
def gpu_round(in_col, out_col, decimal):
    i = cuda.grid(1)
    f = 10**decimal

    if i < in_col.size:
        ret = in_col[i] * f
        ret = rint(ret)
        tmp = ret / f
        out_col[i] = tmp


@cuda.jit
def gpu_round_grid_stride(in_col, out_col, decimal):
    # The same with a grid-stride loop: any launch size covers the column.
    f = 10**decimal
    for i in range(cuda.grid(1), in_col.size, cuda.gridsize(1)):
        out_col[i] = rint(in_col[i] * f) / f
