"""Launch configurations, the same on the GPU path and in the simulator: the checks of
``kernel[griddim, blockdim, stream, sharedmem]`` (the errors both give), the launcher cache of
a kernel, and ``forall``. A backend's kernel class supplies ``_launcher`` (how one
configuration launches) and ``_for_all``."""

import contextlib
import numbers
import pickle


def launch_dimensions(value, what):
    """A launch dimension (an int or a sequence of 1 to 3 ints) as a 3-tuple; numba-cuda's
    errors for bad ones (and a ValueError for one not positive, which its driver refuses)."""
    dims = list(value) if isinstance(value, (tuple, list)) else [value]
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} must be a sequence of 1, 2 or 3 integers, got {dims!r}")
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in dims):
        raise TypeError(f"{what} must be a sequence of integers, got {dims!r}")
    value = tuple(int(v) for v in dims)
    if any(v <= 0 for v in value):
        raise ValueError(f"{what} must be positive in every dimension, not {value}")
    return value + (1,) * (3 - len(value))


def launch_configuration(configuration):
    """(griddim, blockdim, stream, sharedmem) of ``[griddim, blockdim[, stream[,
    sharedmem]]]``, the dimensions as 3-tuples."""
    if not isinstance(configuration, tuple) or not 2 <= len(configuration) <= 4:
        raise ValueError("launch configuration must be [griddim, blockdim[, stream[, sharedmem]]]")
    griddim, blockdim, *rest = configuration
    stream = rest[0] if rest else 0
    sharedmem = rest[1] if len(rest) > 1 else 0
    return (
        launch_dimensions(griddim, "griddim"),
        launch_dimensions(blockdim, "blockdim"),
        stream,
        int(sharedmem),
    )


def called_from_python(kernel):
    """The error calling a kernel or device function like a Python function gives."""
    if kernel.device:
        return TypeError(
            f"{kernel.__name__} is a CUDA device function: call it from a kernel, not from Python"
        )
    return TypeError(
        f"{kernel.__name__} is a CUDA kernel: launch it as {kernel.__name__}[griddim, blockdim](...)"
    )


class KernelNotConfigured(TypeError, ValueError):
    """A kernel called like a Python function, without ``[griddim, blockdim]``: numba-cuda's
    ValueError, and the TypeError taipan raised before."""


def not_configured(kernel):
    """The error of calling the GPU kernel ``kernel`` without a launch configuration, with
    numba-cuda's words ("launch configuration was not specified") and the launch to write."""
    if kernel.device:
        return called_from_python(kernel)
    name = kernel.__name__
    return KernelNotConfigured(
        f"{name} is a CUDA kernel: the kernel launch configuration was not specified; launch it "
        f"as {name}[griddim, blockdim](...)"
    )


class LaunchableKernel:
    """The launch front of a kernel class: ``kernel[configuration]`` gives a launcher, made by
    the backend's ``_launcher(griddim, blockdim, stream, sharedmem)`` and kept per
    configuration in ``self._launchers`` (a dict the subclass makes); ``kernel.forall(n)``
    one from ``_for_all(ntasks, tpb, stream, sharedmem)``."""

    def __getitem__(self, configuration):
        try:
            launcher = self._launchers.get(configuration)
        except TypeError:  # a list among the dimensions: configured afresh each time
            launcher = None
        if launcher is not None:
            return launcher
        launcher = self._configure(configuration)
        # Configurations naming a stream object are not kept: the cache would keep the stream
        # alive, and a program making a stream per step would grow it without end.
        if len(configuration) < 3 or isinstance(configuration[2], int):
            with contextlib.suppress(TypeError):
                self._launchers[configuration] = launcher
        return launcher

    def _configure(self, configuration):
        if self.device:
            # numba-cuda's words and class.
            raise RuntimeError(
                f"Cannot compile a device function as a kernel: {self.__name__} is a device "
                "function (cuda.jit(device=True)); call it from a kernel"
            )
        return self._launcher(*launch_configuration(configuration))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launcher covering `ntasks` threads (blocks of `tpb`, or as many as the backend
        chooses)."""
        return self._for_all(int(ntasks), int(tpb), stream, int(sharedmem))


class Launcher:
    """One configuration of a kernel: ``kernel[griddim, blockdim, stream, sharedmem]``."""

    def __init__(self, kernel, griddim, blockdim, stream, sharedmem):
        self.kernel = kernel
        self.griddim = griddim
        self.blockdim = blockdim
        self.stream = stream
        self.sharedmem = sharedmem
        # numba-cuda's host-side hooks, each called as callback(kernel, launch_config) right
        # before a launch of this configuration (the kernel: the specialisation launched).
        self.pre_launch_callbacks = _PreLaunchCallbacks(self)

    def __reduce__(self):
        """Pickled as the kernel (by its own ``__reduce__``) and the configuration, which the
        receiver configures again; not with pre-launch callbacks, as numba-cuda refuses."""
        if self.pre_launch_callbacks:
            raise pickle.PicklingError(
                "Cannot pickle configured launches with pre-launch callbacks"
            )
        configuration = (self.griddim, self.blockdim, self.stream, self.sharedmem)
        return _configured_launcher, (self.kernel, configuration)

    def run_pre_launch_callbacks(self, kernel):
        for callback in list(self.pre_launch_callbacks):
            callback(kernel, self)

    def _stop_being_reused(self):
        """Takes this configuration out of the kernel's kept launchers: ``kernel[config]``
        gives a fresh one again, as each of numba-cuda's subscriptions does, so callbacks given
        to this one do not run for launches written later."""
        kept = getattr(self.kernel, "_launchers", None)
        if not kept:
            return
        mine = (self.griddim, self.blockdim, self.stream, self.sharedmem)
        for key in list(kept):
            try:
                same = launch_configuration(key) == mine
            except (TypeError, ValueError):
                same = False
            if same:
                kept.pop(key, None)


class _PreLaunchCallbacks(list):
    """A configuration's pre-launch callbacks: giving it one makes the configuration its own
    (see Launcher._stop_being_reused); the C++ launcher hands a launch with callbacks to the
    Python launcher, which runs them."""

    def __init__(self, launcher):
        super().__init__()
        self._launcher = launcher

    def _changing(self):
        self._launcher._stop_being_reused()

    def append(self, callback):
        self._changing()
        super().append(callback)

    def extend(self, callbacks):
        self._changing()
        super().extend(callbacks)

    def insert(self, index, callback):
        self._changing()
        super().insert(index, callback)

    def __iadd__(self, callbacks):
        self._changing()
        return super().__iadd__(callbacks)

    def __setitem__(self, index, value):
        self._changing()
        super().__setitem__(index, value)


def _configured_launcher(kernel, configuration):
    return kernel[configuration]


class ForAll:
    """``kernel.forall(ntasks, tpb, stream, sharedmem)``: one thread per task, in blocks of
    `tpb` threads (0: the backend's ``_block_size`` chooses)."""

    def __init__(self, kernel, ntasks, tpb, stream, sharedmem):
        if ntasks < 0:  # numba-cuda's words
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
        self.kernel = kernel
        self.ntasks = ntasks
        self.tpb = tpb
        self.stream = stream
        self.sharedmem = sharedmem

    def __call__(self, *args):
        if self.ntasks > 0:
            self._launch(args)

    def dimensions(self, tpb):
        """(griddim, blockdim) covering the tasks with blocks of `tpb` threads."""
        return ((self.ntasks + tpb - 1) // tpb, 1, 1), (tpb, 1, 1)
