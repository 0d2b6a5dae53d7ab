"""Kernel launches: the type of each argument, and the launch itself. Device arrays and objects
exporting ``__cuda_array_interface__`` go as they are; NumPy arrays are copied to the device
before the launch and back after it, as Numba does. The C++ launcher (``_core.CudaLauncher``)
takes the cached path and calls back here for the rest."""

import numpy as np

from taipan import _core
from taipan.cuda import devicearray, driver
from taipan.cuda.streams import stream_handle, wait_for_producer
from taipan.errors import TypingError


def argument_type(value):
    """The kernel argument type of a host or device value."""
    if type(value) is devicearray.DeviceNDArray:
        return value.kernel_argument()[0]
    device_type = devicearray.device_array_type(value)
    if device_type is not None:
        return device_type
    value_type = _core.typeof_or_none(value)
    if value_type is None:
        what = _core.describe_unsupported(value) or type(value).__name__
        raise TypingError(f"cannot pass a value of type {what} to a CUDA kernel")
    return value_type


def _describe(value, stream):
    """(pointer, shape, strides) of a device array for the launch."""
    interface = value.__cuda_array_interface__
    wait_for_producer(interface, stream)
    dtype = np.dtype(interface["typestr"])
    shape = tuple(interface["shape"])
    strides = interface.get("strides") or devicearray.c_strides(shape, dtype.itemsize)
    return (int(interface["data"][0]), shape, tuple(strides))


def launch(kernel, griddim, blockdim, stream, sharedmem, args, debug=False, types=None):
    """Launches `kernel`, copying NumPy arguments in and back out; `types` are the arguments'
    types when the caller knows them."""
    core = driver.ready()
    values, copies = None, []
    if types is not None and not debug and not kernel.cooperative:
        # The common case: device arrays and scalars only, types already known.
        values = []
        for value in args:
            if type(value) is devicearray.DeviceNDArray:
                value = value.kernel_argument()[1]
            elif isinstance(value, np.ndarray) or hasattr(value, "__cuda_array_interface__"):
                values = None
                break
            values.append(value)
    if values is None:
        values, types = [], []
        for value in args:
            value_type = argument_type(value)
            if isinstance(value, np.ndarray) and not hasattr(value, "__cuda_array_interface__"):
                device = devicearray.to_device(value, stream)
                copies.append((value, device))
                value = device
            if value_type.ndim or hasattr(value, "__cuda_array_interface__"):
                value = _describe(value, stream)
            values.append(value)
            types.append(value_type)
    handle = kernel.function()
    launch_stream = stream_handle(stream)
    core.cuda_launch(
        handle, griddim, blockdim, sharedmem, launch_stream, values, types, kernel.cooperative
    )
    if copies or debug:
        core.cuda_synchronize()
    for host, device in copies:
        if host.flags.writeable:
            result = device.copy_to_host(stream=stream)
            host[...] = result
    if debug:
        raise_kernel_exception(handle)


def raise_kernel_exception(handle):
    """After a debug kernel finished: raises the exception its first raising thread recorded."""
    raised = _core.cuda_take_exception(handle)
    if raised is not None:
        code, tid, ctaid, message = raised
        detail = message or _DEFAULT_MESSAGES.get(code, "exception in CUDA kernel")
        raise _core.exception_class(code)(f"tid={list(tid)} ctaid={list(ctaid)}: {detail}")


_DEFAULT_MESSAGES = {3: "index out of bounds", 4: "assertion failed"}


def launch_dimensions(value, what):
    """A launch dimension (an int or a tuple of up to 3) as a 3-tuple; the errors both the GPU
    path and the simulator give for bad ones."""
    if isinstance(value, int):
        value = (value,)
    try:
        value = tuple(int(v) for v in value)
    except TypeError:
        raise TypeError(
            f"{what} must be an int or a tuple of up to 3 ints, not {value!r}"
        ) from None
    if not 1 <= len(value) <= 3:
        raise ValueError(f"{what} must have 1 to 3 dimensions, not {len(value)}")
    if any(v <= 0 for v in value):
        raise ValueError(f"{what} must be positive in every dimension, not {value}")
    return value + (1,) * (3 - len(value))
