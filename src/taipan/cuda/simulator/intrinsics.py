"""What kernels call through ``taipan.cuda`` in the simulator: the thread hierarchy, barriers,
warp collectives, shared, local and constant arrays, and the bit and arithmetic intrinsics.
Each reads the calling Python thread's context (context.py)."""

import sys

import numpy as np

from taipan import _core
from taipan.cuda.simulator import context
from taipan.cuda.simulator.context import (
    ALL,
    ANY,
    BALLOT,
    EQ,
    MATCH_ALL,
    MATCH_ANY,
    SHFL_DOWN,
    SHFL_IDX,
    SHFL_UP,
    SHFL_XOR,
    SYNCWARP,
    blockDim,
    blockIdx,
    gridDim,
    threadIdx,
)

here = context.here
warpsize = 32
FULL_MASK = 0xFFFFFFFF

__all__ = ["blockDim", "blockIdx", "gridDim", "threadIdx", "warpsize"]


# --- the thread hierarchy ---------------------------------------------------------------------


def grid(ndim):
    """The thread's global index: an int for ``ndim`` 1, a tuple for 2 and 3."""
    if ndim == 1:
        return here.gx
    if ndim == 2:
        return (here.gx, here.gy)
    if ndim == 3:
        return (here.gx, here.gy, here.gz)
    raise ValueError(f"cuda.grid() takes 1, 2 or 3 dimensions, not {ndim!r}")


def gridsize(ndim):
    """The number of threads in the grid along 1, 2 or 3 axes."""
    if ndim == 1:
        return here.sx
    if ndim == 2:
        return (here.sx, here.sy)
    if ndim == 3:
        return (here.sx, here.sy, here.sz)
    raise ValueError(f"cuda.gridsize() takes 1, 2 or 3 dimensions, not {ndim!r}")


def current_laneid():
    """The lane of the calling thread in its warp (what ``cuda.laneid`` reads)."""
    return here.tid & 31


# --- barriers ---------------------------------------------------------------------------------


def syncthreads():
    """Waits until every thread of the block (that has not returned) arrives."""
    here.block.barrier(None)


def syncthreads_count(predicate):
    """syncthreads(), returning how many threads passed a true predicate."""
    return here.block.barrier(predicate).count


def syncthreads_and(predicate):
    """syncthreads(), returning 1 when every thread's predicate was true."""
    meeting = here.block.barrier(predicate)
    return 1 if meeting.count == meeting.arrived else 0


def syncthreads_or(predicate):
    """syncthreads(), returning 1 when some thread's predicate was true."""
    return 1 if here.block.barrier(predicate).count else 0


def threadfence():
    """Memory fences order nothing more in the simulator: every access is seen at once."""


def threadfence_block():
    """A no-op in the simulator (see threadfence)."""


def threadfence_system():
    """A no-op in the simulator (see threadfence)."""


def nanosleep(ns):
    """A no-op in the simulator."""


class _GridGroup:
    """``cuda.cg.this_grid()``: the whole grid, whose ``sync()`` waits for every thread."""

    __slots__ = ()

    def sync(self):
        here.block.grid_sync()

    def __repr__(self):
        return "<cuda.cg grid group (CUDA simulator)>"


_GRID = _GridGroup()


def this_grid():
    return _GRID


class _Namespace:
    def __init__(self, name, **members):
        self._name = name
        for member, value in members.items():
            setattr(self, member, value)

    def __repr__(self):
        return f"<cuda.{self._name} (CUDA simulator)>"


cg = _Namespace("cg", this_grid=this_grid)


# --- warp collectives -------------------------------------------------------------------------


def _gather(kind, mask, value, operand=None):
    h = here
    return h.block.gather(h.tid, kind, mask, value, operand)


def shfl_sync(mask, value, src_lane):
    """The value of lane ``src_lane`` (modulo 32)."""
    return _gather(SHFL_IDX, mask, value, src_lane)


def shfl_up_sync(mask, value, delta):
    """The value of lane ``laneid - delta``; lanes below ``delta`` keep their own."""
    return _gather(SHFL_UP, mask, value, delta)


def shfl_down_sync(mask, value, delta):
    """The value of lane ``laneid + delta``; lanes past the warp's end keep their own."""
    return _gather(SHFL_DOWN, mask, value, delta)


def shfl_xor_sync(mask, value, lane_mask):
    """The value of lane ``laneid ^ lane_mask``."""
    return _gather(SHFL_XOR, mask, value, lane_mask)


def ballot_sync(mask, predicate):
    """The bit mask of the lanes whose predicate is true."""
    return _gather(BALLOT, mask, predicate)


def all_sync(mask, predicate):
    """Whether every lane's predicate is true."""
    return _gather(ALL, mask, predicate)


def any_sync(mask, predicate):
    """Whether some lane's predicate is true."""
    return _gather(ANY, mask, predicate)


def eq_sync(mask, value):
    """Whether every lane has the same value."""
    return _gather(EQ, mask, value)


def match_any_sync(mask, value):
    """The bit mask of the lanes whose value equals this lane's."""
    return _gather(MATCH_ANY, mask, value)


def match_all_sync(mask, value):
    """(the mask of the taking part lanes, True) when all of them have the same value, else
    (0, False)."""
    return _gather(MATCH_ALL, mask, value)


def syncwarp(mask=FULL_MASK):
    """Waits for the lanes of ``mask``."""
    _gather(SYNCWARP, mask, None)


def activemask():
    """The lanes of the calling thread's warp (every lane the block has: simulated threads do
    not diverge)."""
    h = here
    return h.block.active_mask(h.tid)


def lanemask_lt():
    """The bit mask of the lanes below this one."""
    return (1 << (here.tid & 31)) - 1


# --- bits and arithmetic ----------------------------------------------------------------------


def _width(value):
    """The bit width of an integer as compiled code types it (Python ints are int64)."""
    if isinstance(value, np.integer):
        return value.dtype.itemsize * 8
    return 64


def _as_type_of(value, result, width):
    """`result` (an unsigned bit pattern) in `value`'s integer type."""
    if isinstance(value, np.integer):
        if value.dtype.kind == "i" and result >= 1 << (width - 1):
            result -= 1 << width
        return value.dtype.type(result)
    if result >= 1 << 63:
        result -= 1 << 64
    return result


def popc(value):
    """The number of bits set."""
    width = _width(value)
    return (int(value) & ((1 << width) - 1)).bit_count()


def brev(value):
    """The bits in reverse order."""
    width = _width(value)
    bits = int(value) & ((1 << width) - 1)
    return _as_type_of(value, int(format(bits, f"0{width}b")[::-1], 2), width)


def clz(value):
    """The number of leading zero bits."""
    width = _width(value)
    return width - (int(value) & ((1 << width) - 1)).bit_length()


def ffs(value):
    """The position (from 1) of the lowest bit set, 0 when none is."""
    bits = int(value) & ((1 << _width(value)) - 1)
    return (bits & -bits).bit_length()


def fma(a, b, c):
    """a * b + c."""
    return a * b + c


def selp(test, a, b):
    """a when the test holds, else b."""
    return a if test else b


def cbrt(value):
    """The cube root."""
    return np.cbrt(value)


# Loads and stores with a cache operator: the simulator has no caches, so plain reads and writes.
def _cache_load(array, index):
    return array[index]


def _cache_store(array, index, value):
    array[index] = value


ldca = ldcg = ldcs = ldlu = ldcv = _cache_load
stcg = stcs = stwb = stwt = _cache_store


# --- memory -----------------------------------------------------------------------------------

_dtypes = {}


def as_dtype(dtype):
    """A NumPy dtype from a NumPy type or dtype, a taipan type or a name."""
    try:
        return _dtypes[dtype]
    except (KeyError, TypeError):
        pass
    name = getattr(dtype, "name", None)
    if isinstance(dtype, _core.Type) and dtype.kind_name == "Record":
        found = _core.record_numpy_dtype(dtype)  # its name is no dtype string
    elif isinstance(name, str) and not isinstance(dtype, (np.dtype, type)):
        found = np.dtype(name)  # a taipan type (taipan.float32)
    else:
        found = np.dtype(dtype)
    try:
        _dtypes[dtype] = found
    except TypeError:
        pass
    return found


def _refuse_alignment(function, alignment):
    """numba-cuda's simulator refuses alignment= (and taipan's GPU compiler has none yet)."""
    if alignment is not None:
        raise RuntimeError(f"{function}(alignment=...) is not supported in cudasim")


def _shared_array(shape, dtype, alignment=None):
    """A block's shared array: one per call site (as the GPU has one per declaration), made by
    the first thread of the block that reaches it. ``shape`` 0 is the dynamic shared memory."""
    _refuse_alignment("cuda.shared.array", alignment)
    block = here.block
    if shape == 0:
        return block.dynamic_shared(as_dtype(dtype))
    frame = sys._getframe(1)
    key = (frame.f_code, frame.f_lasti)
    found = block.shared.get(key)
    if found is None:
        found = block.shared.setdefault(key, np.empty(shape, as_dtype(dtype)))
    return found


def _local_array(shape, dtype, alignment=None):
    """An array of the thread's own."""
    _refuse_alignment("cuda.local.array", alignment)
    return np.empty(shape, as_dtype(dtype))


def _const_array_like(ndarray):
    """Constant memory holding `ndarray`'s values: a read-only view, since kernels cannot write
    constant memory."""
    view = np.asarray(ndarray).view()
    view.flags.writeable = False
    return view


shared = _Namespace("shared", array=_shared_array)
local = _Namespace("local", array=_local_array)
const = _Namespace("const", array_like=_const_array_like)

# --- print -------------------------------------------------------------------------------------


def _device_text(value):
    """A value as the GPU's printf shows it (what print() in a compiled kernel writes)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return "%f" % float(value)  # noqa: UP031 (C's %f)
    if value is None:
        return "None"
    return str(value)  # what compiled kernels cannot print: Python's text


def device_print(*values, **keywords):
    """print() as kernels and device functions see it in the simulator: called by a simulated
    GPU thread without keywords, it writes the line the GPU's printf would (numbers as printf
    formats them) in one piece, so that lines of concurrent threads do not mix; any other call
    is Python's print."""
    if keywords or "block" not in here.__dict__:
        return print(*values, **keywords)
    sys.stdout.write(" ".join(map(_device_text, values)) + "\n")
    return None


def _builtins():
    import builtins

    return dict(vars(builtins), print=device_print)


# The builtins of the simulator's copies of kernels and device functions (launch.py).
DEVICE_BUILTINS = _builtins()


# The intrinsics a simulated thread can only complete together with others; a kernel that
# cannot reach any of them runs its threads one after another (see launch.py).
MEETING_POINTS = (
    syncthreads,
    syncthreads_count,
    syncthreads_and,
    syncthreads_or,
    syncwarp,
    shfl_sync,
    shfl_up_sync,
    shfl_down_sync,
    shfl_xor_sync,
    ballot_sync,
    all_sync,
    any_sync,
    eq_sync,
    match_any_sync,
    match_all_sync,
    this_grid,
)
