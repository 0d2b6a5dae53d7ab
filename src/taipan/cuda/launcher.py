"""Kernel launches: the type of each argument, and the launch of what the C++ launcher
(``_core.CudaLauncher``) leaves here. That launcher reads every argument itself (device arrays,
objects exporting ``__cuda_array_interface__``, scalars, and NumPy arrays, which it copies to the
device before the launch and back after it, as Numba does), asking the dispatcher only for the
kernel of new argument types; it calls back here only for values it cannot describe (of no kernel
type, which ``argument_type`` reports, an interface with a mask, or a tuple holding arrays or
records, whose items are converted here one by one). Arguments are laid out in C++ either way."""

import numpy as np

from taipan import _core, config
from taipan import types as _types
from taipan.cuda import api, devicearray, driver
from taipan.cuda.streams import stream_handle, wait_for_producer
from taipan.errors import TypingError


def cuda_core_view(value):
    """A device array viewing a cuda.core ``Buffer`` (its bytes, as uint8) or
    ``StridedMemoryView`` (its dtype, shape and strides), which numba-cuda's kernels take as
    arrays; None for any other value. Memory the device cannot reach is refused."""
    kind = type(value)
    if not kind.__module__.startswith("cuda.core") or kind.__name__ not in _CUDA_CORE_VIEWS:
        return None
    if not value.is_device_accessible:
        raise TypingError(f"cannot pass a {kind.__name__} of host memory to a CUDA kernel")
    if kind.__name__ == "Buffer":
        shape, strides, dtype = (int(value.size),), None, np.dtype(np.uint8)
        address, readonly = int(value.handle), False
    else:  # StridedMemoryView: strides count elements, not bytes
        dtype = np.dtype(value.dtype)
        shape = tuple(value.shape)
        strides = (
            None if value.strides is None else tuple(s * dtype.itemsize for s in value.strides)
        )
        address, readonly = int(value.ptr), bool(value.readonly)
    from taipan.cuda.interop import from_cuda_array_interface

    interface = {
        "shape": shape,
        "strides": strides,
        "typestr": dtype.str,
        "data": (address, readonly),
        "version": 3,
        "stream": None,
    }
    return from_cuda_array_interface(interface, owner=value, sync=False)


_CUDA_CORE_VIEWS = ("Buffer", "StridedMemoryView")


def argument_type(value):
    """The kernel argument type of a host or device value."""
    if type(value) is devicearray.DeviceNDArray:
        return value.kernel_argument()[0]
    if isinstance(value, devicearray.DeviceRecord):  # the record, by the address of its bytes
        return _core.typeof_or_none(value.kernel_value())
    device_type = devicearray.device_array_type(value)
    if device_type is not None:
        return device_type
    value_type = _core.typeof_or_none(value)
    if value_type is None and type(value) is tuple:
        # A tuple holding device arrays: typed item by item (typeof knows host values only).
        return _types.Tuple([argument_type(item) for item in value])
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


def _tuple_items(value, value_type, stream, copies):
    """A tuple argument as cuda_launch lays it out: each item converted as it is at the top
    level (a device array as (pointer, shape, strides), a NumPy array or record copied to the
    device first, the copy added to `copies` and written back after the kernel, a record as the
    device address of its bytes), tuples item by item; numba-cuda copies such arrays too."""
    items = []
    for item, item_type in zip(value, value_type.types):
        if item_type.kind_name == "Tuple" and isinstance(item, tuple):
            item = _tuple_items(item, item_type, stream, copies)
        elif isinstance(item, np.ndarray) and not hasattr(item, "__cuda_array_interface__"):
            host = item
            if item_type.layout == "F":  # the layout the kernel was compiled for
                item = devicearray.device_array(host.shape, host.dtype, order="F", stream=stream)
                item.copy_to_device(host, stream=stream)
            else:
                item = devicearray.to_device(host, stream)
            copies.append((host, item))
            item = _describe(item, stream)
        elif isinstance(item, np.void):
            device = devicearray.to_device(np.array([item], dtype=item.dtype), stream)
            copies.append((item, device))
            item = device.device_ctypes_pointer
        elif item_type.kind_name == "Record":  # a device record
            item = item.device_ctypes_pointer
        elif item_type.ndim or hasattr(item, "__cuda_array_interface__"):
            item = _describe(item, stream)
        items.append(item)
    return tuple(items)


def launch(kernel, griddim, blockdim, stream, sharedmem, args, debug=False):
    """Launches `kernel` from Python (what the C++ launcher leaves here): the arguments are
    described here, NumPy ones copied in and back out, and laid out in C++ (cuda_launch)."""
    core = driver.ready()
    values, types, copies = [], [], []
    for value in args:
        value_type = argument_type(value)
        if value_type.kind_name == "Tuple" and isinstance(value, tuple):
            values.append(_tuple_items(value, value_type, stream, copies))
            types.append(value_type)
            continue
        if isinstance(value, np.ndarray) and not hasattr(value, "__cuda_array_interface__"):
            if not copies:
                warn_implicit_copy(stacklevel=4)
            # The copy keeps the layout the kernel was compiled for: an 'F' array's code reads
            # no strides (a C-ordered copy of it was read in the wrong order).
            if value_type.layout == "F":
                device = devicearray.device_array(
                    value.shape, value.dtype, order="F", stream=stream
                )
                device.copy_to_device(value, stream=stream)
            else:
                device = devicearray.to_device(value, stream)
            copies.append((value, device))
            value = device
        elif isinstance(value, devicearray.DeviceRecord):
            if value.stream and stream_handle(value.stream) != stream_handle(stream):
                driver._driver().cuda_synchronize_stream(stream_handle(value.stream))
            values.append(value.device_ctypes_pointer)
            types.append(value_type)
            continue
        elif isinstance(value, np.void):
            # A record is the address of its bytes: a device copy's, written back after.
            device = devicearray.to_device(np.array([value], dtype=value.dtype), stream)
            copies.append((value, device))
            values.append(device.device_ctypes_pointer)
            types.append(value_type)
            continue
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
        if not host.flags.writeable:
            continue
        result = device.copy_to_host(stream=stream)
        if isinstance(host, np.void):
            for name in host.dtype.names:
                host[name] = result[0][name]
        else:
            host[...] = result
    if debug:
        raise_kernel_exception(handle)


# numba-cuda's threshold: fewer blocks than this leave most GPUs mostly idle (twice the
# multiprocessors would be the ideal minimum, but that varies from 4 to 132 between GPUs; a
# fixed number also spares the launch a driver query).
_LOW_OCCUPANCY_BLOCKS = 128


def warn_low_occupancy(griddim, stacklevel=3):
    """numba-cuda's warning for a grid of fewer than 128 blocks (most of the GPU idles),
    unless config.CUDA_LOW_OCCUPANCY_WARNINGS is off: on a kernel's launch configuration, and
    on the launches of CUDA ufuncs and gufuncs, as numba-cuda's go through a configuration
    too."""
    if not config.CUDA_LOW_OCCUPANCY_WARNINGS:
        return
    blocks = griddim[0] * griddim[1] * griddim[2]
    # Without a driver the launch fails anyway: its error alone is the message.
    if blocks < _LOW_OCCUPANCY_BLOCKS and driver.is_available():
        import warnings

        from taipan.errors import PerformanceWarning

        warnings.warn(
            PerformanceWarning(
                f"Grid size {blocks} will likely result in GPU under-utilization due to low "
                "occupancy."
            ),
            stacklevel=stacklevel,
        )


def warn_implicit_copy(stacklevel=3):
    """numba-cuda's warning for a launch that copies host arrays to the device and back (when
    config.CUDA_WARN_ON_IMPLICIT_COPY is set); arrays given as cuda.In/Out/InOut do not warn."""
    if not config.CUDA_WARN_ON_IMPLICIT_COPY:
        return
    import warnings

    from taipan.errors import PerformanceWarning

    warnings.warn(
        PerformanceWarning(
            "Host array used in CUDA kernel will incur copy overhead to/from device."
        ),
        stacklevel=stacklevel,
    )


def raise_kernel_exception(handle):
    """After a debug kernel finished: raises the exception its first raising thread recorded."""
    raised = _core.cuda_take_exception(handle)
    if raised is not None:
        code, tid, ctaid, message = raised
        # A raise statement's site follows its message past a unit separator (LowerRaise.cpp).
        message, _, site = message.partition("\x1f")
        detail = message or _DEFAULT_MESSAGES.get(code, "exception in CUDA kernel")
        raise _core.exception_class(code)(f"{site}tid={list(tid)} ctaid={list(ctaid)}: {detail}")


launch_dimensions = api.launch_dimensions  # here too, as before


_DEFAULT_MESSAGES = {3: "index out of bounds", 4: "assertion failed"}
