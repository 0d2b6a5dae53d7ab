"""The names kernels use (``cuda.threadIdx.x``, ``cuda.shared.array``...). Each object names the
builtin the compiler implements; called from Python, outside a kernel, they raise."""


class _Builtin:
    """A name the compiler implements; not callable from Python."""

    def __init__(self, builtin, doc=""):
        self._taipan_builtin = builtin
        self.__doc__ = doc
        self.__name__ = builtin.rsplit(".", 1)[-1]

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"{self._taipan_builtin}() can only be called inside a @cuda.jit kernel or device "
            "function"
        )

    def __repr__(self):
        return f"<taipan CUDA builtin {self._taipan_builtin}>"


class _Namespace(_Builtin):
    """A group of builtins (cuda.threadIdx, cuda.atomic...)."""

    def __init__(self, builtin, members, doc=""):
        super().__init__(builtin, doc)
        for member in members:
            setattr(self, member, _Builtin(f"{builtin}.{member}"))


threadIdx = _Namespace("cuda.threadIdx", ["x", "y", "z"], "The thread's index in its block.")
blockIdx = _Namespace("cuda.blockIdx", ["x", "y", "z"], "The block's index in the grid.")
blockDim = _Namespace("cuda.blockDim", ["x", "y", "z"], "The number of threads in a block.")
gridDim = _Namespace("cuda.gridDim", ["x", "y", "z"], "The number of blocks in the grid.")
shared = _Namespace("cuda.shared", ["array"], "Shared memory: shared.array(shape, dtype).")
local = _Namespace("cuda.local", ["array"], "Per-thread memory: local.array(shape, dtype).")
const = _Namespace("cuda.const", ["array_like"], "Constant memory: const.array_like(global).")
atomic = _Namespace(
    "cuda.atomic",
    [
        "add",
        "sub",
        "max",
        "min",
        "nanmax",
        "nanmin",
        "inc",
        "dec",
        "exch",
        "cas",
        "compare_and_swap",
        "and_",
        "or_",
        "xor",
    ],
    "Atomic operations on array elements; each returns the old value.",
)

cg = _Namespace("cuda.cg", ["this_grid"], "Cooperative groups: cg.this_grid().sync().")

laneid = _Builtin("cuda.laneid")
warpsize = _Builtin("cuda.warpsize")
grid = _Builtin("cuda.grid")
gridsize = _Builtin("cuda.gridsize")
syncthreads = _Builtin("cuda.syncthreads")
syncthreads_count = _Builtin("cuda.syncthreads_count")
syncthreads_and = _Builtin("cuda.syncthreads_and")
syncthreads_or = _Builtin("cuda.syncthreads_or")
syncwarp = _Builtin("cuda.syncwarp")
threadfence = _Builtin("cuda.threadfence")
threadfence_block = _Builtin("cuda.threadfence_block")
threadfence_system = _Builtin("cuda.threadfence_system")
shfl_sync = _Builtin("cuda.shfl_sync")
shfl_up_sync = _Builtin("cuda.shfl_up_sync")
shfl_down_sync = _Builtin("cuda.shfl_down_sync")
shfl_xor_sync = _Builtin("cuda.shfl_xor_sync")
ballot_sync = _Builtin("cuda.ballot_sync")
all_sync = _Builtin("cuda.all_sync")
any_sync = _Builtin("cuda.any_sync")
eq_sync = _Builtin("cuda.eq_sync")
match_any_sync = _Builtin("cuda.match_any_sync")
match_all_sync = _Builtin("cuda.match_all_sync")
activemask = _Builtin("cuda.activemask")
lanemask_lt = _Builtin("cuda.lanemask_lt")
popc = _Builtin("cuda.popc")
brev = _Builtin("cuda.brev")
clz = _Builtin("cuda.clz")
ffs = _Builtin("cuda.ffs")
fma = _Builtin("cuda.fma")
selp = _Builtin("cuda.selp")
cbrt = _Builtin("cuda.cbrt")
nanosleep = _Builtin("cuda.nanosleep")
# Loads and stores of one element with a PTX cache operator (ld.global.ca, st.global.cg...).
ldca = _Builtin("cuda.ldca")
ldcg = _Builtin("cuda.ldcg")
ldcs = _Builtin("cuda.ldcs")
ldlu = _Builtin("cuda.ldlu")
ldcv = _Builtin("cuda.ldcv")
stcg = _Builtin("cuda.stcg")
stcs = _Builtin("cuda.stcs")
stwb = _Builtin("cuda.stwb")
stwt = _Builtin("cuda.stwt")
