"""numba-cuda's argument hints, the same on the GPU path and in the simulator: ``cuda.In(a)``
(copied to the device, never back), ``cuda.Out(a)`` (allocated on the device, copied back
after the kernel), ``cuda.InOut(a)`` (both: what a bare host array gets), and ``wrap_arg``,
which ``extensions=`` handlers use (their ``prepare_args(ty, val, stream=, retr=)`` returns the
argument's type and a value, possibly a hint). A hint's ``to_device(retr, stream)`` gives the
device array the kernel gets, and appends to ``retr`` what runs after the kernel (the copy
back). The copies are the backend's: each registers them with ``use_device_copies``."""

from taipan.cuda.api.devicearray import DeviceArrayFront

_copies = []  # (to_device(array, stream), device_array_like(array, stream))


def use_device_copies(to_device, device_array_like):
    """Registers how the backend copies a host array to the device and makes an uninitialised
    device array like one (taipan.cuda's GPU backend, or its simulator, when imported)."""
    _copies[:] = [(to_device, device_array_like)]


def _on_device(value):
    return isinstance(value, DeviceArrayFront) or hasattr(value, "__cuda_array_interface__")


def _copy_back(device, host, stream):
    def copy_back():
        if getattr(host, "flags", None) is None or host.flags.writeable:
            device.copy_to_host(host, stream=stream)
        return host

    return copy_back


class ArgHint:
    """A launch argument with a rule for its copies between host and device."""

    copy_input = True  # the host's data is copied to the device before the launch
    copy_output = False  # the device's data is copied back to the host after it

    def __init__(self, value):
        self.value = value

    def to_device(self, retr, stream=0):
        """The device array the kernel gets; what must run after the kernel is appended to
        `retr` (a list of callables of no argument)."""
        if _on_device(self.value):  # already on the device: nothing to copy
            return self.value
        to_device, device_array_like = _copies[0]
        if self.copy_input:
            device = to_device(self.value, stream)
        else:
            device = device_array_like(self.value, stream)
        if self.copy_output:
            retr.append(_copy_back(device, self.value, stream))
        else:
            retr.append(lambda: device)  # keeps the copy alive until the kernel has run
        return device

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"


class In(ArgHint):
    """An input: copied to the device, not back."""


class Out(ArgHint):
    """An output: the kernel's writes are copied back; the host's data is not copied in."""

    copy_input = False
    copy_output = True


class InOut(ArgHint):
    """Copied to the device before the kernel and back after it (a host array's default)."""

    copy_output = True


def wrap_arg(value, default=InOut):
    """`value` as a hint: itself when it is one, else ``default(value)``."""
    return value if isinstance(value, ArgHint) else default(value)


def prepare_arguments(args, extensions, stream, retr, argument_type):
    """(values, types) of a launch's arguments after the dispatcher's ``extensions`` (the
    last registered first, as numba-cuda applies them) and the hints: each hint becomes the
    device array its ``to_device`` gives, its type that of the value it wraps. What must run
    after the kernel is appended to `retr`."""
    values, types = [], []
    for value in args:
        value_type = argument_type(value.value if isinstance(value, ArgHint) else value)
        for extension in reversed(extensions):
            value_type, value = extension.prepare_args(value_type, value, stream=stream, retr=retr)
        if isinstance(value, ArgHint):
            value = value.to_device(retr, stream)
        values.append(value)
        types.append(value_type)
    return values, types
