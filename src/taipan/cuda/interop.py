"""Device memory shared with other libraries without copies: the CUDA Array Interface
(``is_cuda_array``, ``as_cuda_array``) and DLPack both ways (``from_dlpack``, ``__dlpack__``)."""

import contextlib

import numpy as np

from taipan import _core, config
from taipan.cuda import api
from taipan.cuda.devicearray import DLPACK_CUDA, DLPACK_CUDA_MANAGED, DeviceNDArray
from taipan.cuda.streams import external_stream

_LEGACY_STREAM = 1  # CU_STREAM_LEGACY, as the interface names the legacy default stream

# DLPack's type codes of the dtypes taipan imports (6, bool, has no size in its name).
_DLPACK_NAMES = {0: "int", 1: "uint", 2: "float", 5: "complex"}


class ForeignMemory:
    """Device memory another library owns, kept alive while taipan arrays view it."""

    def __init__(self, pointer, owner):
        self.pointer = pointer
        self.owner = owner
        self.device = None  # looked up when asked for


def is_cuda_array(obj):
    """Whether `obj` exports the CUDA Array Interface."""
    return hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A taipan device array viewing the memory of an object that exports the CUDA Array
    Interface; no copy is made, and `obj` is kept alive by the view."""
    interface = getattr(obj, "__cuda_array_interface__", None)
    if interface is None:
        raise TypeError(f"{type(obj).__name__} does not export __cuda_array_interface__")
    return from_cuda_array_interface(interface, owner=obj, sync=sync)


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A taipan device array viewing the memory a CUDA Array Interface dict `desc` describes
    (numba-cuda's function of that name), kept alive through `owner`. The producer's stream
    (``desc["stream"]``) becomes the array's stream, and is synchronized first when `sync` and
    config.CUDA_ARRAY_INTERFACE_SYNC (taipan's own work, on the legacy default stream, already
    follows the legacy stream)."""
    api.devicearray.refuse_masked(desc)
    producer = desc.get("stream")
    stream = external_stream(producer) if producer is not None else 0
    if sync and config.CUDA_ARRAY_INTERFACE_SYNC and producer not in (None, _LEGACY_STREAM):
        stream.synchronize()
    return DeviceNDArray(
        tuple(desc["shape"]),
        desc.get("strides"),
        np.dtype(desc["typestr"]),
        ForeignMemory(int(desc["data"][0]), owner),
        stream=stream,
    )


def from_dlpack(obj):
    """A taipan device array viewing a DLPack tensor on a CUDA device (no copy). `obj` is an
    object with ``__dlpack__`` or a capsule."""
    if hasattr(obj, "__dlpack__"):
        device_type, device_id = obj.__dlpack_device__()
        if device_type not in (DLPACK_CUDA, DLPACK_CUDA_MANAGED):
            raise TypeError(
                f"cuda.from_dlpack needs a tensor on a CUDA device, not DLPack device {device_type}"
            )
        # The legacy default stream, on which taipan queues default work, of the tensor's own
        # device: producers order their work before the consumer's stream on that device.
        on_device = contextlib.nullcontext()
        if device_type == DLPACK_CUDA and device_id != _core.cuda_current_device():
            from taipan.cuda.devices import gpus

            on_device = gpus[device_id]
        with on_device:
            capsule = obj.__dlpack__(stream=1)
    else:
        capsule = obj
    holder, pointer, shape, strides, code, bits, lanes, device_type, _ = _core.dlpack_import(
        capsule
    )
    if device_type not in (DLPACK_CUDA, DLPACK_CUDA_MANAGED):
        raise TypeError(f"cuda.from_dlpack needs CUDA memory, not DLPack device {device_type}")
    if lanes != 1 or (code not in _DLPACK_NAMES and code != 6):
        raise TypeError(f"DLPack type (code {code}, {bits} bits, {lanes} lanes) is not supported")
    dtype = np.dtype(bool) if code == 6 else np.dtype(f"{_DLPACK_NAMES[code]}{bits}")
    byte_strides = None if strides is None else tuple(s * dtype.itemsize for s in strides)
    return DeviceNDArray(tuple(shape), byte_strides, dtype, ForeignMemory(pointer, holder))
