"""The context of a simulated GPU thread, and the meeting points of a block's threads.

Every simulated GPU thread runs in a Python thread, which holds its indices in thread-locals:
``threadIdx``, ``blockIdx``, ``blockDim`` and ``gridDim`` are ``threading.local`` objects whose
``x``, ``y`` and ``z`` each Python thread sets for itself, and ``here`` holds the rest (the
block, the thread's linear index, its global indices). A kernel reads them through
``taipan.cuda`` as it would on the GPU, so any number of block threads (and kernels launched from
several host threads) run at once without swapping anything in the kernel's globals.

A ``Launch`` is what its threads share; a ``ThreadedBlock`` is a block whose threads run
concurrently and meet at barriers (``cuda.syncthreads``), warp collectives (shuffles, votes) and
grid barriers (cooperative groups). A meeting is a ``Meeting``: the threads that arrive before the
last one wait on its gate, a lock that the last arrival releases and each waiter passes on to
the next, so the threads resume one after another (they take turns holding the GIL anyway). A
thread that has returned from the kernel no longer counts at a barrier, as on the GPU, and
when every live thread waits with nothing left to release it the launch reports a deadlock
instead of hanging. A ``SequentialBlock`` runs its threads one after another in one Python
thread: the launcher uses it for kernels that cannot reach a meeting point."""

import threading
from _thread import allocate_lock


class Abort(BaseException):
    """Ends a simulated thread early: another thread of the launch failed, or they deadlocked.
    A BaseException, so that kernel code catching Exception does not swallow it."""


class _Outside:
    """The value of a context attribute in a Python thread that runs no simulated kernel: a
    non-data descriptor, so the thread's own value (in the instance dictionary) wins."""

    def __init__(self, what):
        self.what = what

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        raise RuntimeError(
            f"{self.what} is only defined inside a kernel or device function running in the "
            "CUDA simulator"
        )


def _dim3_class(name):
    members = {axis: _Outside(f"cuda.{name}.{axis}") for axis in "xyz"}
    members["__slots__"] = ()
    members["__repr__"] = lambda self: f"<cuda.{name} (CUDA simulator)>"
    members["__doc__"] = f"cuda.{name}: x, y and z of the simulated thread that reads them."
    return type(name, (threading.local,), members)


threadIdx = _dim3_class("threadIdx")()
blockIdx = _dim3_class("blockIdx")()
blockDim = _dim3_class("blockDim")()
gridDim = _dim3_class("gridDim")()


class _Here(threading.local):
    """The rest of a simulated thread's context: its block, linear index in the block (``tid``),
    global indices (``gx``...) and the grid's extent (``sx``...)."""

    block = _Outside("the simulated block")
    tid = _Outside("cuda.laneid")
    gx = gy = gz = _Outside("cuda.grid()")
    sx = sy = sz = _Outside("cuda.gridsize()")


here = _Here()


def enter(launch, block, tid, tx, ty, tz):
    """Makes the calling Python thread simulated thread (tx, ty, tz) of `block`."""
    bdx, bdy, bdz = launch.blockdim
    gdx, gdy, gdz = launch.griddim
    bx, by, bz = block.index
    threadIdx.x, threadIdx.y, threadIdx.z = tx, ty, tz
    blockIdx.x, blockIdx.y, blockIdx.z = bx, by, bz
    blockDim.x, blockDim.y, blockDim.z = bdx, bdy, bdz
    gridDim.x, gridDim.y, gridDim.z = gdx, gdy, gdz
    h = here
    h.block = block
    h.tid = tid
    h.gx, h.gy, h.gz = bx * bdx + tx, by * bdy + ty, bz * bdz + tz
    h.sx, h.sy, h.sz = bdx * gdx, bdy * gdy, bdz * gdz


def inside_kernel():
    """Whether the calling Python thread is a simulated thread (running a kernel)."""
    return "block" in here.__dict__


def leave():
    """Forgets the calling Python thread's simulated context (so that the launch's arrays are
    not kept alive by it, and reading an index outside a kernel says so)."""
    for dim in (threadIdx, blockIdx, blockDim, gridDim, here):
        dim.__dict__.clear()


# Kinds of warp collectives.
SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR, BALLOT, ALL, ANY, EQ, MATCH_ANY, SYNCWARP, MATCH_ALL = (
    range(11)
)
_KIND_NAMES = (
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "ballot_sync",
    "all_sync",
    "any_sync",
    "eq_sync",
    "match_any_sync",
    "syncwarp",
    "match_all_sync",
)


class Meeting:
    """One barrier or warp collective: who arrived, with what, and what they get back."""

    __slots__ = ("arrived", "count", "gate", "kind", "lanes", "open", "result", "values")

    def __init__(self, kind=None):
        self.gate = allocate_lock()
        self.gate.acquire()
        self.open = False
        self.arrived = 0  # threads arrived (barriers)
        self.count = 0  # of them, those whose predicate was true (syncthreads_count...)
        self.values = {}  # lane: (value, operand), for warp collectives
        self.lanes = 0  # bit mask of the lanes arrived
        self.kind = kind
        self.result = None  # one result for all, or a dict by lane for shuffles

    def release(self):
        if not self.open:
            self.open = True
            self.gate.release()

    def wait(self, launch):
        """Blocks until released, then lets the next waiter go."""
        gate = self.gate
        gate.acquire()
        gate.release()
        if launch.abort:
            raise Abort


def _warp_result(kind, values, lanes):
    """What a warp collective gives: one value for all lanes, or a dict by lane (shuffles)."""
    if kind <= SHFL_XOR:
        results = {}
        for lane, (value, operand) in values.items():
            if kind == SHFL_IDX:
                source = int(operand) & 31
            elif kind == SHFL_UP:
                source = lane - int(operand)
            elif kind == SHFL_DOWN:
                source = lane + int(operand)
            else:
                source = lane ^ int(operand)
            # A source outside the warp (or not taking part) gives the lane its own value.
            found = values.get(source) if 0 <= source < 32 else None
            results[lane] = value if found is None else found[0]
        return results
    if kind == BALLOT:
        return sum(1 << lane for lane, (value, _) in values.items() if value)
    if kind == ALL:
        return all(value for value, _ in values.values())
    if kind == ANY:
        return any(value for value, _ in values.values())
    if kind == EQ:
        first = next(iter(values.values()))[0]
        return all(value == first for value, _ in values.values())
    if kind == MATCH_ANY:
        results = {}
        for lane, (value, _) in values.items():
            results[lane] = sum(1 << other for other, (v, _) in values.items() if v == value)
        return results
    if kind == MATCH_ALL:
        first = next(iter(values.values()))[0]
        same = all(value == first for value, _ in values.values())
        return (sum(1 << lane for lane in values) if same else 0, same)
    return None  # syncwarp


def lane_result(meeting, lane):
    result = meeting.result
    return result[lane] if type(result) is dict else result


class Launch:
    """What the threads of one launch share: the kernel and its arguments, the configuration,
    and, while threads run concurrently, the counts deadlock detection needs and the first
    failure. One lock (``mutex``) guards the meetings of all its blocks."""

    def __init__(self, name, function, args, griddim, blockdim, sharedmem, debug):
        self.name = name
        self.function = function
        self.args = args
        self.griddim = griddim
        self.blockdim = blockdim
        self.threads_per_block = blockdim[0] * blockdim[1] * blockdim[2]
        self.sharedmem = sharedmem
        self.debug = debug
        self.mutex = allocate_lock()
        self.live = 0  # threads running now that have not returned
        self.blocked = 0  # of them, those waiting at a meeting
        self.blocks = []  # the blocks running now
        self.grid_meeting = None
        self.abort = False
        self.failure = None  # (exception, traceback, tid, ctaid) of the first failure
        self.done = None

    def start_round(self, blocks):
        """Starts running `blocks` concurrently; `done` is released when all their threads
        have returned."""
        self.blocks = blocks
        self.live = sum(block.live for block in blocks)
        self.blocked = 0
        self.grid_meeting = None
        self.done = allocate_lock()
        self.done.acquire()

    def fail(self, error, traceback, tid, ctaid):
        with self.mutex:
            if self.failure is None:
                self.failure = (error, traceback, tid, ctaid)
            self._abort()

    def _abort(self):
        """Releases every waiting thread, which then ends (mutex held)."""
        self.abort = True
        for block in self.blocks:
            block.release_all()
        if self.grid_meeting is not None:
            self.grid_meeting.release()

    def check_deadlock(self):
        """After a thread blocked or returned (mutex held): when every live thread waits, no
        meeting can complete any more."""
        if self.live and self.blocked == self.live and not self.abort:
            waits = []
            for block in self.blocks:
                waits += block.describe_waits()
            if self.grid_meeting is not None and self.grid_meeting.arrived:
                waits.append(f"{self.grid_meeting.arrived} at cuda.cg.this_grid().sync()")
            error = RuntimeError(
                f"deadlock in kernel {self.name}: every thread still running waits for others "
                f"that never arrive ({'; '.join(waits)}). Threads must reach the same barriers, "
                "and a warp collective must be reached by every lane its mask names."
            )
            if self.failure is None:
                self.failure = (error, None, None, None)
            self._abort()

    def grid_sync(self):
        with self.mutex:
            if self.abort:
                raise Abort
            meeting = self.grid_meeting
            if meeting is None:
                meeting = self.grid_meeting = Meeting()
            meeting.arrived += 1
            if meeting.arrived < self.live:
                self.blocked += 1
                self.check_deadlock()
            else:
                self._complete_grid(meeting, meeting.arrived - 1)
                return
        meeting.wait(self)

    def _complete_grid(self, meeting, waiting):
        """Releases a grid barrier's `waiting` threads (mutex held)."""
        self.grid_meeting = None
        self.blocked -= waiting
        meeting.release()


class _Warp:
    __slots__ = ("live", "pending")

    def __init__(self, live):
        self.live = live  # bit mask of the lanes that have not returned
        self.pending = {}  # collectives under way, by mask


class _Block:
    """What the threads of a block share: its index and shared memory."""

    def __init__(self, launch, index):
        self.launch = launch
        self.index = index
        self.shared = {}  # static shared arrays by call site
        self._dynamic = None
        self._dynamic_views = None
        self.live = launch.threads_per_block

    def dynamic_shared(self, dtype):
        """The dynamic shared memory (the launch's 4th parameter) as an array of `dtype`: every
        view of the block aliases the same bytes, as on the GPU."""
        if self._dynamic is None:
            import numpy as np

            self._dynamic = np.empty(self.launch.sharedmem, np.uint8)
            self._dynamic_views = {}
        view = self._dynamic_views.get(dtype)
        if view is None:
            count = self.launch.sharedmem // dtype.itemsize
            view = self._dynamic[: count * dtype.itemsize].view(dtype)
            self._dynamic_views[dtype] = view
        return view

    def active_mask(self, tid):
        """The bit mask of the lanes of `tid`'s warp that the block has: simulated threads do
        not run in lock-step, so no lane is set aside; collectives leave out lanes that have
        returned, so the mask is safe to pass them."""
        first = tid & ~31
        return (1 << min(32, self.launch.threads_per_block - first)) - 1


class SequentialBlock(_Block):
    """A block whose threads run one after another in one Python thread. Meetings cannot work
    then, except in a block of one thread, where each completes at once."""

    def _alone(self, what):
        if self.launch.threads_per_block != 1:
            raise RuntimeError(
                f"{what} was reached in kernel {self.launch.name}, which the CUDA simulator runs "
                "one thread after another because no barrier or warp collective was found in its "
                "code or the device functions it names; call the intrinsic through taipan.cuda "
                "or a name bound to it where the kernel can see it"
            )

    def barrier(self, value):
        self._alone("cuda.syncthreads()")
        meeting = Meeting()
        meeting.arrived = 1
        meeting.count = 1 if value else 0
        return meeting

    def gather(self, tid, kind, mask, value, operand):
        self._alone(f"cuda.{_KIND_NAMES[kind]}()")
        return _single(kind, tid & 31, value, operand)

    def grid_sync(self):
        if self.launch.griddim != (1, 1, 1):
            raise RuntimeError(
                f"cuda.cg.this_grid().sync() was reached in kernel {self.launch.name}, which was "
                "not launched as a cooperative grid (no this_grid() found in its code)"
            )
        self._alone("cuda.cg.this_grid().sync()")


def _single(kind, lane, value, operand):
    meeting = Meeting(kind)
    meeting.values[lane] = (value, operand)
    meeting.result = _warp_result(kind, meeting.values, 1 << lane)
    return lane_result(meeting, lane)


class ThreadedBlock(_Block):
    """A block whose threads run concurrently, one Python thread each."""

    def __init__(self, launch, index):
        super().__init__(launch, index)
        self.meeting = None  # the barrier under way
        threads = launch.threads_per_block
        self.warps = [_Warp((1 << min(32, threads - first)) - 1) for first in range(0, threads, 32)]

    def barrier(self, value):
        launch = self.launch
        with launch.mutex:
            if launch.abort:
                raise Abort
            meeting = self.meeting
            if meeting is None:
                meeting = self.meeting = Meeting()
            meeting.arrived += 1
            if value:
                meeting.count += 1
            if meeting.arrived < self.live:
                launch.blocked += 1
                launch.check_deadlock()
            else:
                self._complete_barrier(meeting, meeting.arrived - 1)
                return meeting
        meeting.wait(launch)
        return meeting

    def _complete_barrier(self, meeting, waiting):
        """Releases the barrier's `waiting` threads (mutex held)."""
        self.meeting = None
        self.launch.blocked -= waiting
        meeting.release()

    def gather(self, tid, kind, mask, value, operand):
        launch = self.launch
        lane = tid & 31
        warp = self.warps[tid >> 5]
        mask = (int(mask) & 0xFFFFFFFF) | (1 << lane)
        with launch.mutex:
            if launch.abort:
                raise Abort
            meeting = warp.pending.get(mask)
            if meeting is None:
                meeting = warp.pending[mask] = Meeting(kind)
            meeting.values[lane] = (value, operand)
            meeting.lanes |= 1 << lane
            expected = mask & warp.live
            if meeting.lanes & expected != expected:
                launch.blocked += 1
                launch.check_deadlock()
            else:
                self._complete_gather(warp, mask, meeting, len(meeting.values) - 1)
                return lane_result(meeting, lane)
        meeting.wait(launch)
        return lane_result(meeting, lane)

    def _complete_gather(self, warp, mask, meeting, waiting):
        """Computes a warp collective's results and releases its `waiting` lanes (mutex
        held)."""
        del warp.pending[mask]
        meeting.result = _warp_result(meeting.kind, meeting.values, meeting.lanes)
        self.launch.blocked -= waiting
        meeting.release()

    def grid_sync(self):
        self.launch.grid_sync()

    def finish(self, tid):
        """Thread `tid` returned: it no longer counts at meetings."""
        launch = self.launch
        with launch.mutex:
            self.live -= 1
            launch.live -= 1
            warp = self.warps[tid >> 5]
            warp.live &= ~(1 << (tid & 31))
            meeting = self.meeting
            # Meetings it no longer holds up complete: every thread there was waiting.
            if meeting is not None and meeting.arrived >= self.live:
                self._complete_barrier(meeting, meeting.arrived)
            for mask, pending in list(warp.pending.items()):
                expected = mask & warp.live
                if pending.lanes & expected == expected:
                    self._complete_gather(warp, mask, pending, len(pending.values))
            grid = launch.grid_meeting
            if grid is not None and grid.arrived >= launch.live:
                launch._complete_grid(grid, grid.arrived)
            if launch.live == 0:
                launch.done.release()
            else:
                launch.check_deadlock()

    def release_all(self):
        if self.meeting is not None:
            self.meeting.release()
        for warp in self.warps:
            for meeting in warp.pending.values():
                meeting.release()

    def describe_waits(self):
        waits = []
        if self.meeting is not None and self.meeting.arrived:
            waits.append(
                f"{self.meeting.arrived} of block {list(self.index)} at cuda.syncthreads()"
            )
        for number, warp in enumerate(self.warps):
            for mask, meeting in warp.pending.items():
                waits.append(
                    f"{len(meeting.values)} of warp {number} of block {list(self.index)} at "
                    f"cuda.{_KIND_NAMES[meeting.kind]}(mask={mask:#010x})"
                )
        return waits
