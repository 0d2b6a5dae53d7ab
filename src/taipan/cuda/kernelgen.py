"""Kernels that taipan writes as Python source for the CUDA library layer (CUDA ufuncs and
gufuncs, ``cuda.reduce``): the source is registered with linecache, so the front end reads it as
it reads a user's function; the user's scalar function becomes a device function the kernel
calls; compiled kernels launch from argument descriptions (pointer, shape, strides) without a
device-array object per operand."""

import itertools
import linecache
import re
import sys

import numpy as np

from taipan import _core
from taipan.cuda import api, devicearray
from taipan.cuda.devicearray import DeviceNDArray
from taipan.cuda.interop import ForeignMemory, from_dlpack
from taipan.cuda.launcher import raise_kernel_exception, warn_low_occupancy
from taipan.cuda.streams import stream_handle, wait_for_producer

_counter = itertools.count()
_functions = {}


def identifier(text):
    """``text`` made a Python identifier (a lambda's ``<lambda>`` becomes ``_lambda_``)."""
    name = re.sub(r"\W", "_", text)
    return name if name and not name[0].isdigit() else f"_{name}"


def cuda_package():
    """The ``taipan.cuda`` module, which generated kernels name ``cuda`` (``cuda.grid(1)``):
    the package this module belongs to, so Python has imported it before this module."""
    return sys.modules["taipan.cuda"]


def generated_function(name, source, namespace, origin):
    """The function ``name`` that ``source`` defines, its globals ``namespace``. The text is put
    in linecache under a file name naming ``origin``, so the front end and error messages read
    it. The same text and namespace give the same function object (and so the same kernel)."""
    key = (name, source, tuple(sorted(namespace.items(), key=lambda item: item[0])))
    function = _functions.get(key)
    if function is None:
        filename = f"<taipan.cuda {origin} {name} #{next(_counter)}>"
        lines = source.splitlines(keepends=True)
        linecache.cache[filename] = (len(source), None, lines, filename)
        scope = dict(namespace)
        exec(compile(source, filename, "exec"), scope)  # noqa: S102 - text written by taipan
        function = _functions[key] = scope[name]
    return function


def device_function(functor, options):
    """What a generated kernel calls for ``functor``: a CUDA device function as it is, a CPU
    ``@jit`` function as it is (kernels compile those for the GPU), a Python function compiled
    with ``cuda.jit(device=True)``."""
    from taipan.cuda.decorators import jit
    from taipan.cuda.dispatcher import CUDADispatcher
    from taipan.dispatcher import CompiledFunction

    if isinstance(functor, CUDADispatcher):
        if not functor.device:
            raise TypeError(
                f"{functor.__name__} is a CUDA kernel: give a scalar Python function or a "
                "device function (cuda.jit(device=True))"
            )
        return functor
    if isinstance(functor, CompiledFunction):
        return functor
    if not hasattr(functor, "__code__"):
        raise TypeError(f"expected a Python function, not {type(functor).__name__}")
    return jit(functor, device=True, **options)


def converting_kernel(dispatcher, key, signature):
    """The kernel for argument types `key` that `dispatcher`'s given `signature` takes through
    conversions, as numba-cuda launches them: it converts each scalar argument to the
    signature's type and runs the function (as a device function) on the converted values,
    computing what the signature's kernel computes. (The launcher lays the arguments out by
    their own types, so the signature's kernel itself cannot take them.) Arrays pass as they
    are: a conversion only changes their layout to one the function reads either way."""
    from taipan.cuda.dispatcher import CUDADispatcher, same_integer_bits

    options = {k: v for k, v in dispatcher._jit_options.items() if k != "device"}
    namespace = {"core": device_function(dispatcher.py_func, options)}
    names = [f"a{i}" for i in range(len(key))]
    converted = []
    for name, actual, formal in zip(names, key, signature):
        if same_integer_bits(actual, formal) and actual.dtype != formal.dtype:
            # numba-cuda passes the array as it is: its bits, read as the signature's dtype
            namespace[f"dtype_{name}"] = np.dtype(str(formal.dtype))
            converted.append(f"{name}.view(dtype_{name})")
        elif actual == formal or formal.ndim:
            converted.append(name)
        else:
            namespace[f"to_{name}"] = formal
            converted.append(f"to_{name}({name})")
    kernel_name = f"converting_{identifier(dispatcher.__name__)}"
    source = f"def {kernel_name}({', '.join(names)}):\n    core({', '.join(converted)})\n"
    function = generated_function(kernel_name, source, namespace, "kernel")
    return CUDADispatcher(function, options, [key])._kernels[key]


def foreign_view(value, stream):
    """A taipan device array viewing another library's GPU array (CUDA Array Interface, or
    DLPack on a CUDA device), once its producer's stream is done; None for anything else."""
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        api.devicearray.refuse_masked(interface)
        wait_for_producer(interface, stream)
        return DeviceNDArray(
            tuple(interface["shape"]),
            interface.get("strides"),
            np.dtype(interface["typestr"]),
            ForeignMemory(int(interface["data"][0]), value),
        )
    if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__"):
        device_type, _ = value.__dlpack_device__()
        if device_type in (devicearray.DLPACK_CUDA, devicearray.DLPACK_CUDA_MANAGED):
            return from_dlpack(value)
    return None


scalar_type = api.ufuncs.scalar_type


def array_type(dtype, ndim, layout):
    """The kernel argument type of a writable device array."""
    return devicearray._array_type(np.dtype(dtype), ndim, layout, False)


_multiprocessors = {}


def multiprocessors():
    """The number of multiprocessors of the current GPU."""
    device = _core.cuda_current_device()
    count = _multiprocessors.get(device)
    if count is None:
        count = _multiprocessors[device] = _core.cuda_device_attribute(device, 16)
    return count


def grid_blocks(items, threads, blocks_per_multiprocessor):
    """Blocks of ``threads`` for a grid-stride loop over ``items``: one item per thread, at most
    ``blocks_per_multiprocessor`` blocks per multiprocessor of the current GPU."""
    return max(1, min(-(-items // threads), multiprocessors() * blocks_per_multiprocessor))


def launch(kernel, blocks, threads, stream, values, types, debug=False):
    """Launches a compiled kernel (taipan.cuda.dispatcher.Kernel) on ``blocks`` x ``threads``;
    ``values`` are scalars and (pointer, shape, strides) of arrays, ``types`` their types."""
    handle = kernel.function()
    warn_low_occupancy((blocks, 1, 1), stacklevel=5)  # under the ufunc's or gufunc's call
    _core.cuda_launch(
        handle, (blocks, 1, 1), (threads, 1, 1), 0, stream_handle(stream), values, types, False
    )
    if debug:
        _core.cuda_synchronize()
        raise_kernel_exception(handle)
