"""Device arrays and the marshalling of kernel arguments (placeholder until the driver lands)."""

from taipan import _core


def device_array_type(value):
    """The array type of an object exporting __cuda_array_interface__, else None."""
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is None:
        return None
    import numpy as np

    dtype = np.dtype(interface["typestr"])
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    contiguous = strides is None or tuple(strides) == _c_strides(shape, dtype.itemsize)
    return _core.array_type(
        str(dtype), len(shape), "C" if contiguous else "A", bool(interface["data"][1])
    )


def _c_strides(shape, itemsize):
    strides = []
    step = itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def launch(core, kernel, griddim, blockdim, stream, sharedmem, args, debug):
    raise NotImplementedError("kernel launches arrive with the CUDA driver bindings")
