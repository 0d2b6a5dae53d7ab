"""``numba.cuda.cudadrv.driver`` on taipan: the classes of the objects taipan.cuda makes
(streams, events, contexts, devices) and the errors; numba-cuda's driver-call internals stay
placeholders."""

import taipan.cuda as _cuda
from numba._missing import fill_missing
from taipan import config as _config
from taipan.cuda.api.errors import CudaDriverError as CudaAPIError  # noqa: F401
from taipan.cuda.api.errors import CudaSupportError, LinkerError  # noqa: F401

if _config.ENABLE_CUDASIM:
    from taipan.cuda.simulator.host import Context, Device, Event, Stream
else:
    from taipan.cuda.devices import Context, Device  # noqa: F401
    from taipan.cuda.streams import Event, Stream  # noqa: F401


def is_device_memory(obj):
    """Whether `obj` is device memory taipan can address (a device array or an object
    exporting the CUDA Array Interface)."""
    return _cuda.is_cuda_array(obj)


__getattr__ = fill_missing(globals(), __name__)
