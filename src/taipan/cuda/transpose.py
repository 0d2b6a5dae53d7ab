"""numba-cuda's ``numba.cuda.kernels.transpose``: the transpose of a 2-D array, written into
another on the device. Arrays of numbers move through shared memory one square tile per block,
so that both the reads and the writes go along rows; arrays of records (which shared arrays
do not hold) are copied element by element."""

import functools
import math

from taipan import cuda  # the backend's names: the kernels run in the simulator too

_TILE = 32  # a tile's side; a block has one thread per element of its tile


def _transpose_tiles(source, target):
    """target[j, i] = source[i, j]: block (x, y) moves the tile of source's rows from y * _TILE
    and columns from x * _TILE (one column more in shared memory: no bank conflicts)."""
    tile = cuda.shared.array((_TILE, _TILE + 1), dtype=source.dtype)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    first_row = cuda.blockIdx.y * _TILE
    first_column = cuda.blockIdx.x * _TILE
    if first_row + ty < source.shape[0] and first_column + tx < source.shape[1]:
        tile[ty, tx] = source[first_row + ty, first_column + tx]
    cuda.syncthreads()
    if first_column + ty < target.shape[0] and first_row + tx < target.shape[1]:
        target[first_column + ty, first_row + tx] = tile[tx, ty]


def _transpose_elements(source, target):
    """target[j, i] = source[i, j], one thread per element."""
    j, i = cuda.grid(2)
    if j < target.shape[0] and i < target.shape[1]:
        target[j, i] = source[i, j]


@functools.cache
def _kernel(name):
    """The kernel of that name, compiled by the backend in use (the GPU's or the simulator's)."""
    return cuda.jit(globals()[name])


def transpose(a, b=None):
    """The transpose of the 2-D array ``a`` (a device array, or a host array the launch copies),
    written into ``b`` and returned: a new device array on ``a``'s stream when ``b`` is None,
    else a device array of ``a``'s dtype whose shape is ``a``'s reversed."""
    stream = getattr(a, "stream", 0)
    if a.ndim != 2:
        raise ValueError(f"transpose takes a 2-D array, not one of {a.ndim} dimensions")
    rows, columns = a.shape
    if b is None:
        b = cuda.device_array((columns, rows), dtype=a.dtype, stream=stream)
    if tuple(b.shape) != (columns, rows) or b.dtype != a.dtype:
        raise ValueError(
            f"the transpose of a {a.dtype} array of shape {a.shape} is a {a.dtype} array of "
            f"shape {(columns, rows)}, not a {b.dtype} array of shape {tuple(b.shape)}"
        )
    if a.size == 0:
        return b
    if a.dtype.fields is None:
        blocks = (math.ceil(columns / _TILE), math.ceil(rows / _TILE))
        _kernel("_transpose_tiles")[blocks, (_TILE, _TILE), stream](a, b)
    else:
        side = 16
        blocks = (math.ceil(columns / side), math.ceil(rows / side))
        _kernel("_transpose_elements")[blocks, (side, side), stream](a, b)
    return b
