"""``numba.cuda.cudadrv.devices`` on taipan: the current context and the device list."""

import taipan.cuda as _cuda
from numba._missing import fill_missing
from numba.cuda.cudadrv.driver import require_context  # noqa: F401

gpus = _cuda.gpus


def get_context(devnum=None):
    """The context of device `devnum` (the current device when None)."""
    if devnum is not None:
        _cuda.select_device(devnum)
    return _cuda.current_context()


def reset():
    """Waits for the current device's work (see taipan's Context.reset)."""
    _cuda.current_context().reset()


__getattr__ = fill_missing(globals(), __name__)
