"""``cuda.jit`` in the simulator: kernels run on the CPU, in the Python interpreter.

A launch runs the grid's blocks one after another. The threads of a block run concurrently,
one Python thread each, taken from a pool of worker threads kept between blocks and launches,
so that they can meet at ``cuda.syncthreads()`` and warp collectives. A kernel that cannot
reach such a meeting point (none is named in its code, the device functions it names or the
functions nested in them) runs its threads one after another in the launching thread instead,
which gives the same results without a thread switch per GPU thread. A kernel that names
``cuda.cg.this_grid()`` runs all its blocks at once (a cooperative launch), so that the grid can
meet. Device functions are the Python functions themselves."""

import bdb
import functools
import os
import sys
import threading
import types
from _thread import allocate_lock

import numpy as np

from taipan import _core
from taipan.cuda import api
from taipan.cuda.simulator import context, intrinsics
from taipan.cuda.simulator.devicearray import DeviceNDArray, foreign_array

# Limits of the simulated device, checked as the driver checks a launch.
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK_DIM = (1024, 1024, 64)
MAX_GRID_DIM = (2**31 - 1, 65535, 65535)
MAX_SHARED_MEMORY_PER_BLOCK = 48 * 1024
# A cooperative grid runs all its threads at once, each a Python thread.
MAX_COOPERATIVE_THREADS = 8192
# Idle worker threads kept for later launches.
MAX_IDLE_WORKERS = 1024

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def jit(func_or_sig=None, device=False, **options):
    """A simulated kernel, or with ``device=True`` a device function (the Python function).
    A kernel's first signature gives its scalar arguments their types (``int32`` arguments
    arrive as np.int32, as compiled code would see them); arrays keep their own."""
    return api.jit_front(_make, func_or_sig, device, options)


def _make(function, options, signatures=None):
    if isinstance(function, Kernel):
        function = function.py_func
    function = getattr(function, "py_func", function)
    if options.get("device"):
        return _device_function(function, options)
    kernel = Kernel(function, options)
    if signatures:
        kernel._scalar_types = _scalar_types(signatures[0])
    return kernel


def _scalar_types(signature):
    """Per argument of a signature: the NumPy scalar type of a number, or None."""
    arguments, _ = api.split_signature(signature)
    found = []
    for argument in arguments:
        name = getattr(argument, "name", None)
        try:
            scalar = np.dtype(name).type if name else None  # arrays' names are not dtypes
        except (TypeError, ValueError):
            scalar = None
        found.append(scalar if scalar is not None and issubclass(scalar, np.number) else None)
    return found


def simulated_copy(function):
    """A copy of `function` (its code, globals, defaults and closure) whose builtins are the
    simulator's: print() writes what the GPU's printf would. The builtins of a function are
    taken from its globals when it is made, so the module's ``__builtins__`` is swapped for
    that moment; the module and every other function keep Python's."""
    namespace = function.__globals__
    missing = object()
    saved = namespace.get("__builtins__", missing)
    namespace["__builtins__"] = intrinsics.DEVICE_BUILTINS
    try:
        copy = types.FunctionType(
            function.__code__,
            namespace,
            function.__name__,
            function.__defaults__,
            function.__closure__,
        )
    finally:
        if saved is missing:
            del namespace["__builtins__"]
        else:
            namespace["__builtins__"] = saved
    copy.__kwdefaults__ = function.__kwdefaults__
    functools.update_wrapper(copy, function)
    del copy.__wrapped__
    return copy


def _device_function(function, options):
    """The function as kernels and the host call it: a copy (see simulated_copy) with the
    attributes of a device function."""
    copy = simulated_copy(function)
    copy.py_func = function
    copy.device = True
    copy.targetoptions = options
    copy._taipan_simulated = True
    return copy


class Kernel(api.LaunchableKernel):
    """A kernel of the simulator, launched as ``kernel[griddim, blockdim, stream, sharedmem](...)``
    like taipan's CUDADispatcher."""

    def __init__(self, py_func, options):
        self.py_func = py_func
        self.targetoptions = options
        functools.update_wrapper(self, py_func)
        del self.__wrapped__
        self._launchers = {}
        self._plan = None  # (meets, cooperative), found at the first launch
        self._scalar_types = []  # from a signature: the NumPy types of scalar arguments
        self._function = simulated_copy(py_func)  # what launches run
        # numba-cuda's argument handlers (prepare_args), applied at each launch.
        self.extensions = list(options.get("extensions") or ())

    @property
    def device(self):
        return False

    def __call__(self, *args, **kwargs):
        if context.inside_kernel():
            # Called from a kernel: a device function, as numba-cuda and the GPU path take it.
            return self._function(*args, **kwargs)
        raise api.called_from_python(self)

    def _launcher(self, griddim, blockdim, stream, sharedmem):
        return _Launcher(self, griddim, blockdim, stream, sharedmem)

    def _for_all(self, ntasks, tpb, stream, sharedmem):
        return _ForAll(self, ntasks, tpb, stream, sharedmem)

    def plan(self):
        """(whether threads can meet, whether the grid can) from the code the kernel reaches."""
        if self._plan is None:
            self._plan = _meeting_points(self.py_func)
        return self._plan

    def compile(self, signature):
        """Nothing to compile in the simulator."""
        return self

    def specialize(self, *args):
        return self

    @property
    def signatures(self):
        return []

    @property
    def overloads(self):
        """numba-cuda's simulator keeps no specialisations: any signature gives the one
        kernel's limits (``max_cooperative_grid_blocks``)."""
        return _AnySignature(_SimulatedOverload())

    def _no_code(self, *args, **kwargs):
        raise NotImplementedError(
            f"{self.__name__} runs in the CUDA simulator (TAIPAN_ENABLE_CUDASIM), which "
            "compiles nothing: there is no PTX, LLVM IR or SASS to inspect"
        )

    inspect_asm = inspect_llvm = inspect_sass = inspect_types = _no_code

    def __reduce__(self):
        if "<locals>" in self.__qualname__:
            raise TypeError(f"cannot pickle the simulated kernel {self.__qualname__}")
        return (_find, (self.__module__, self.__qualname__))

    def __repr__(self):
        return f"<CUDA kernel {self.__qualname__} (CUDA simulator)>"


class _SimulatedOverload:
    """What the simulator says of a kernel's specialisation."""

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks of `blockdim` a cooperative grid runs in the simulator: its threads
        all run at once, at most MAX_COOPERATIVE_THREADS of them."""
        threads = 1
        for extent in blockdim if isinstance(blockdim, tuple) else (blockdim,):
            threads *= extent
        return max(MAX_COOPERATIVE_THREADS // threads, 0)


class _AnySignature(dict):
    """An empty mapping whose every key gives `value` (numba-cuda's FakeOverloadDict)."""

    def __init__(self, value):
        super().__init__()
        self._value = value

    def __getitem__(self, key):
        return self._value


def _find(module, qualname):
    found = sys.modules[module]
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def _invalid(function):
    return api.CudaDriverError(f"CUDA_ERROR_INVALID_VALUE: invalid argument (in {function})")


def _check_limits(griddim, blockdim, sharedmem, cooperative):
    """What the driver refuses at a launch, refused the same way."""
    function = "cuLaunchCooperativeKernel" if cooperative else "cuLaunchKernel"
    threads = blockdim[0] * blockdim[1] * blockdim[2]
    if threads > MAX_THREADS_PER_BLOCK or any(b > m for b, m in zip(blockdim, MAX_BLOCK_DIM)):
        raise _invalid(function)
    if any(g > m for g, m in zip(griddim, MAX_GRID_DIM)):
        raise _invalid(function)
    if sharedmem > MAX_SHARED_MEMORY_PER_BLOCK or sharedmem < 0:
        raise _invalid(function)
    if cooperative and threads * griddim[0] * griddim[1] * griddim[2] > MAX_COOPERATIVE_THREADS:
        raise api.CudaDriverError(
            "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: too many blocks in cooperative launch "
            f"(in {function}; the CUDA simulator runs at most {MAX_COOPERATIVE_THREADS} threads "
            "of a cooperative grid)"
        )


class _Launcher(api.Launcher):
    def __call__(self, *args):
        self.run_pre_launch_callbacks(self.kernel)
        launch(self.kernel, self.griddim, self.blockdim, self.sharedmem, args)


class _ForAll(api.ForAll):
    def _launch(self, args):
        griddim, blockdim = self.dimensions(self.tpb or min(self.ntasks, 256))
        launch(self.kernel, griddim, blockdim, self.sharedmem, args)


def _argument(value):
    """What the kernel receives for an argument: device arrays as their NumPy array, host
    arrays as they are (kernels write them in place, as the copy back would), except read-only
    ones, whose writes the GPU path loses, so they get a copy."""
    if type(value) is DeviceNDArray:
        return value._array
    if isinstance(value, np.ndarray):
        return value if value.flags.writeable else value.copy()
    if type(value) is float:
        # Typed as the GPU path types them: NumPy promotes float32 with a Python float to
        # float32, but with a float64 to float64, as compiled code does.
        return np.float64(value)
    if type(value) is int:
        return np.int64(value) if -(2**63) <= value < 2**63 else value
    if type(value) is complex:
        return np.complex128(value)
    if hasattr(value, "__cuda_array_interface__"):
        return foreign_array(value)
    return value


def launch(kernel, griddim, blockdim, sharedmem, args):
    meets, cooperative = kernel.plan()
    _check_limits(griddim, blockdim, sharedmem, cooperative)
    after = []  # the copies back of cuda.Out and cuda.InOut hints
    if kernel.extensions or any(isinstance(a, api.args.ArgHint) for a in args):
        args, _ = api.args.prepare_arguments(
            args, kernel.extensions, 0, after, _core.typeof_or_none
        )
    args = tuple(_argument(a) for a in args)
    if kernel._scalar_types:
        args = tuple(
            scalar(value) if scalar is not None and not isinstance(value, np.ndarray) else value
            for value, scalar in zip(args, kernel._scalar_types + [None] * len(args))
        )
    state = context.Launch(
        kernel.__name__,
        kernel._function,
        args,
        griddim,
        blockdim,
        sharedmem,
        bool(kernel.targetoptions.get("debug")),
    )
    if state.debug:
        with np.errstate(divide="raise"):
            _run(state, meets, cooperative)
    else:
        _run(state, meets, cooperative)
    for callback in after:
        callback()


def _run(state, meets, cooperative):
    if cooperative or (meets and state.threads_per_block > 1):
        _run_threaded(state, cooperative)
    else:
        _run_sequential(state)


def _run_sequential(state):
    """Every thread of every block in turn, in this Python thread."""
    function, args = state.function, state.args
    bdx, bdy, bdz = state.blockdim
    gdx, gdy, gdz = state.griddim
    threadIdx, here = context.threadIdx, context.here
    tx = ty = tz = 0
    block = None
    try:
        for bz in range(gdz):
            for by in range(gdy):
                for bx in range(gdx):
                    block = context.SequentialBlock(state, (bx, by, bz))
                    context.enter(state, block, 0, 0, 0, 0)
                    base_x = bx * bdx
                    tid = 0
                    for tz in range(bdz):
                        threadIdx.z = tz
                        here.gz = bz * bdz + tz
                        for ty in range(bdy):
                            threadIdx.y = ty
                            here.gy = by * bdy + ty
                            for tx in range(bdx):
                                threadIdx.x = tx
                                here.gx = base_x + tx
                                here.tid = tid
                                tid += 1
                                function(*args)
    except Exception as error:  # noqa: BLE001 (reported with the thread that raised it)
        raise _located(state, error, error.__traceback__, (tx, ty, tz), block.index) from None
    finally:
        context.leave()


# --- concurrent threads -------------------------------------------------------------------------


class _Worker:
    """A Python thread that runs simulated GPU threads when its `go` lock is released."""

    __slots__ = ("block", "cpu", "go", "next", "thread", "tid")

    def __init__(self):
        self.go = allocate_lock()
        self.go.acquire()
        self.cpu = None
        self.block = None
        self.tid = 0
        self.next = None
        self.thread = threading.Thread(target=self._loop, name="taipan-cudasim", daemon=True)
        self.thread.start()

    def _loop(self):
        go = self.go
        while True:
            go.acquire()
            block = self.block
            if block is None:
                return
            following = self.next
            if following is not None:  # starting threads one after another, not all at once
                following.go.release()
            _run_thread(block, self.tid)

    def stop(self):
        self.block = None
        self.go.release()


_idle = []
_idle_lock = allocate_lock()


def _take_workers(count):
    with _idle_lock:
        taken = _idle[len(_idle) - count :] if count <= len(_idle) else list(_idle)
        del _idle[len(_idle) - len(taken) :]
    while len(taken) < count:
        taken.append(_Worker())
    return taken


def _return_workers(workers):
    with _idle_lock:
        _idle.extend(workers)
        extra = _idle[MAX_IDLE_WORKERS:]
        del _idle[MAX_IDLE_WORKERS:]
    for worker in extra:
        worker.stop()


def _current_cpu():
    """The CPU the calling thread runs on (Linux), else None."""
    try:
        with open("/proc/thread-self/stat", "rb") as stat:
            text = stat.read()
        return int(text[text.rindex(b")") + 2 :].split()[36])  # field 39, "processor"
    except (OSError, ValueError, IndexError):
        return None


def _pin(workers):
    """Puts the workers of a launch on the CPU the launching thread runs on. Only one of them
    runs Python at a time (they take turns holding the GIL), and a thread switch costs about
    40% less when the next thread waits on the same CPU than when the GIL must wake another."""
    if not hasattr(os, "sched_setaffinity"):
        return
    cpu = _current_cpu()
    if cpu is None:
        return
    for worker in workers:
        if worker.cpu != cpu:
            try:
                os.sched_setaffinity(worker.thread.native_id, {cpu})
            except OSError:
                return
            worker.cpu = cpu


def _after_fork():
    # The workers are threads of the parent: a child makes its own.
    global _idle_lock
    _idle_lock = allocate_lock()
    _idle.clear()


os.register_at_fork(after_in_child=_after_fork)


def _run_thread(block, tid):
    """Runs simulated thread `tid` of `block` in the calling worker."""
    state = block.launch
    bdx, bdy, _ = state.blockdim
    rest, tx = divmod(tid, bdx)
    tz, ty = divmod(rest, bdy)
    context.enter(state, block, tid, tx, ty, tz)
    try:
        if state.debug:
            with np.errstate(divide="raise"):
                state.function(*state.args)
        else:
            state.function(*state.args)
    except context.Abort:
        pass
    except BaseException as error:  # noqa: BLE001 (reported by the launching thread)
        state.fail(error, error.__traceback__, (tx, ty, tz), block.index)
    finally:
        context.leave()
        block.finish(tid)


def _run_threaded(state, cooperative):
    """Runs the blocks one after another (all at once for a cooperative grid), with a Python
    thread per simulated thread."""
    gdx, gdy, gdz = state.griddim
    indices = [(bx, by, bz) for bz in range(gdz) for by in range(gdy) for bx in range(gdx)]
    rounds = [indices] if cooperative else [[index] for index in indices]
    per_block = state.threads_per_block
    workers = _take_workers(per_block * len(rounds[0]))
    _pin(workers)
    for worker, following in zip(workers, workers[1:] + [None]):
        worker.next = following
    try:
        for round_indices in rounds:
            blocks = [context.ThreadedBlock(state, index) for index in round_indices]
            state.start_round(blocks)
            number = 0
            for block in blocks:
                for tid in range(per_block):
                    worker = workers[number]
                    worker.block = block
                    worker.tid = tid
                    number += 1
            workers[0].go.release()
            state.done.acquire()
            if state.failure is not None:
                break
    except BaseException:
        # Interrupted while the threads run (Ctrl-C): they end at their next meeting, and
        # these workers are not reused.
        with state.mutex:
            state._abort()
        workers = []
        raise
    finally:
        for worker in workers:
            worker.block = None
        _return_workers(workers)
    if state.failure is not None:
        error, traceback, tid, ctaid = state.failure
        if tid is None:
            raise error
        raise _located(state, error, traceback, tid, ctaid) from None


# --- errors ---------------------------------------------------------------------------------------

# NumPy's integer operations whose division by zero debug kernels report as Python words it.
# A true division (`divide`) stays NumPy's FloatingPointError, as numba-cuda's simulator
# reports it (its test_zero_division_error_in_debug expects that there).
_ZERO_DIVISION = {
    "floor_divide": "integer division or modulo by zero",
    "remainder": "integer division or modulo by zero",
    "divmod": "integer division or modulo by zero",
}


def _located(state, error, traceback, tid, ctaid):
    """The exception a failed simulated thread reports: the same type, its message prefixed by
    the thread's and block's indices as the GPU path's debug launches report them, and followed
    by the kernel line that raised it."""
    if not isinstance(error, Exception) or isinstance(error, bdb.BdbQuit):
        return error.with_traceback(traceback)
    kind = type(error)
    message = str(error)
    if kind is FloatingPointError and message.startswith("divide by zero encountered in scalar"):
        # debug=True: NumPy's report of an integer division by zero, as Python words it.
        operation = message.rsplit(" ", 1)[-1]
        if operation in _ZERO_DIVISION:
            kind = ZeroDivisionError
            message = _ZERO_DIVISION[operation]
    text = (
        f"tid={list(tid)} ctaid={list(ctaid)}: {message}"
        if message
        else (f"tid={list(tid)} ctaid={list(ctaid)}")
    )
    where = _kernel_line(traceback)
    if where:
        text += f" [{where}]"
    try:
        located = kind(text)
    except Exception:  # noqa: BLE001 (an exception type that takes other arguments)
        return error.with_traceback(traceback)
    return located.with_traceback(traceback)


def _kernel_line(traceback):
    """'function at file:line: source' of the innermost frame of the kernel's own code."""
    import linecache

    found = None
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if not os.path.abspath(code.co_filename).startswith(_PACKAGE):
            found = (code, traceback.tb_lineno)
        traceback = traceback.tb_next
    if found is None:
        return ""
    code, line = found
    source = linecache.getline(code.co_filename, line).strip()
    where = f"{code.co_name} at {code.co_filename}:{line}"
    return f"{where}: {source}" if source else where


# --- which kernels need their threads to run at once ----------------------------------------------

_MEETING_NAMES = frozenset(function.__name__ for function in intrinsics.MEETING_POINTS)
_MEETING_IDS = frozenset(id(function) for function in intrinsics.MEETING_POINTS)


def _code_objects(code):
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _code_objects(constant)


def _meeting_points(function):
    """(whether the code reachable from `function` names a barrier or warp collective, whether
    it names cuda.cg.this_grid()): the functions named in its code (device functions, other
    Python functions), in their code and so on are searched, by name and by value."""
    meets = cooperative = False
    seen = set()
    pending = [function]
    while pending:
        function = pending.pop()
        code = getattr(function, "__code__", None)
        if code is None or id(code) in seen:
            continue
        seen.add(id(code))
        namespace = getattr(function, "__globals__", {})
        cells = dict(zip(code.co_freevars, function.__closure__ or ()))
        for inner in _code_objects(code):
            for name in (*inner.co_names, *inner.co_freevars):
                if name in _MEETING_NAMES:
                    meets = True
                    cooperative = cooperative or name == "this_grid"
                value = namespace.get(name)
                if name in cells:
                    try:
                        value = cells[name].cell_contents
                    except ValueError:  # an empty cell
                        continue
                if id(value) in _MEETING_IDS:
                    meets = True
                    cooperative = cooperative or value is intrinsics.this_grid
                elif isinstance(value, types.FunctionType):
                    pending.append(value)
        for default in (*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()):
            if isinstance(default, types.FunctionType):
                pending.append(default)
    return meets, cooperative
