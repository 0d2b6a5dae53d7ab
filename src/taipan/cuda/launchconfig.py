"""numba-cuda's launch configuration as compilation sees it: while a launch compiles its kernel
(``kernel[griddim, blockdim, stream, sharedmem](args)`` meeting new argument types), the
configuration is this thread's ``current_launch_config()``; at any other time it is None. A
compilation that depends on it calls ``cfg.dispatcher.mark_launch_config_sensitive()``, and the
kernel is then compiled again for each new configuration instead of being shared by all."""

import contextlib
import threading
from functools import wraps
from types import MethodType

_current = threading.local()


class LaunchConfig:
    """One launch: the dispatcher, its arguments and configuration (dimensions as 3-tuples)."""

    def __init__(self, dispatcher, args, launcher, types=()):
        self.dispatcher = dispatcher
        self.args = args
        self.launcher = launcher  # the configured launch (kernel[griddim, blockdim, ...])
        self.griddim = launcher.griddim
        self.blockdim = launcher.blockdim
        self.stream = launcher.stream
        self.sharedmem = launcher.sharedmem
        self.types = tuple(types)  # the argument types the kernel compiles for
        # What a kernel compiled for one configuration is kept by.
        self.key = (self.griddim, self.blockdim, self.sharedmem)
        self.sensitive = False  # set by the dispatcher's mark_launch_config_sensitive

    def __repr__(self):
        return (
            f"<LaunchConfig of {self.dispatcher!r}: griddim={self.griddim}, "
            f"blockdim={self.blockdim}, sharedmem={self.sharedmem}>"
        )


def current_launch_config():
    """The launch configuration of the compilation running on this thread, or None."""
    return getattr(_current, "config", None)


def ensure_current_launch_config():
    """The current launch configuration; RuntimeError when no launch is compiling."""
    config = current_launch_config()
    if config is None:
        raise RuntimeError("No launch config set for this thread")
    return config


@contextlib.contextmanager
def launching(config):
    """Makes `config` current on this thread while a launch compiles its kernel."""
    previous = current_launch_config()
    _current.config = config
    try:
        yield config
    finally:
        _current.config = previous


@contextlib.contextmanager
def capture_compile_config(dispatcher):
    """``{"config": ...}``: the launch configuration a compilation of `dispatcher` triggered
    by a launch saw (None while nothing compiled), recorded through its ``_compile_for_args``,
    which is restored afterwards."""
    if dispatcher is None:
        raise TypeError("dispatcher is required")
    record = {"config": None}
    missing = object()
    original_attribute = dispatcher.__dict__.get("_compile_for_args", missing)
    original = dispatcher._compile_for_args

    @wraps(original)
    def recording(self, *args, **kwargs):
        record["config"] = current_launch_config()
        return original(*args, **kwargs)

    dispatcher._compile_for_args = MethodType(recording, dispatcher)
    try:
        yield record
    finally:
        if original_attribute is missing:
            del dispatcher._compile_for_args
        else:
            dispatcher._compile_for_args = original_attribute


__all__ = ["capture_compile_config", "current_launch_config", "ensure_current_launch_config"]
