"""``numba.cuda.cudadrv.devicearray`` on taipan: taipan's device arrays and the layout helpers
numba-cuda's tests call (``array_core``, ``is_contiguous``, ``sentry_contiguous``,
``errmsg_contiguous_buffer``, ``auto_device``, ``from_array_like``)."""

import numpy as np

import taipan.cuda as _cuda
from numba._missing import fill_missing
from taipan import config as _config
from taipan.cuda.api.devicearray import DeviceArrayFront as DeviceNDArrayBase
from taipan.cuda.api.devicearray import (  # noqa: F401
    array_core,
    check_array_compatibility,
    errmsg_contiguous_buffer,
    is_contiguous,
    sentry_contiguous,
)

DeviceNDArray = _cuda.DeviceNDArray
MappedNDArray = _cuda.MappedNDArray
if not _config.ENABLE_CUDASIM:  # the simulator has no device records, as numba-cuda's
    from taipan.cuda.devicearray import DeviceRecord

    def from_record_like(rec, stream=0, gpu_data=None):
        """A device record of `rec`'s dtype (uninitialised)."""
        return DeviceRecord(rec.dtype, stream=stream, gpu_data=gpu_data)


def from_array_like(ary, stream=0, gpu_data=None):
    """An uninitialised device array of `ary`'s shape, strides and dtype."""
    return DeviceNDArray(ary.shape, ary.strides, ary.dtype, stream=stream, gpu_data=gpu_data)


def verify_cuda_ndarray_interface(obj):
    """Refuses an object without a device array's attributes (shape, strides, dtype, size)."""
    for name, kind in (("shape", tuple), ("strides", tuple), ("dtype", np.dtype), ("size", int)):
        if not hasattr(obj, name):
            raise AttributeError(f"{obj!r} has no attribute {name!r}")
        if not isinstance(getattr(obj, name), kind):
            raise TypeError(f"{obj!r} has attribute {name!r} not of type {kind}")


def is_cuda_ndarray(obj):
    """Whether `obj` is a taipan device array."""
    return isinstance(obj, DeviceNDArrayBase)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(device array, whether it was copied from the host): device arrays and objects
    exporting the CUDA Array Interface are used as they are, host data is copied."""
    if is_cuda_ndarray(obj) or type(obj).__name__ == "DeviceRecord":
        return obj, False
    if hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, np.ndarray):
        return _cuda.as_cuda_array(obj), False
    if isinstance(obj, np.void):
        return _cuda.to_device(obj, stream=stream, copy=copy), True
    host = np.asarray(obj)
    sentry_contiguous(host)  # numba-cuda copies one run of memory: strided arrays are refused
    return _cuda.to_device(host, stream=stream, copy=copy), True


__getattr__ = fill_missing(globals(), __name__)
