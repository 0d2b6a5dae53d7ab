"""Fast Fourier transforms on the GPU through NVIDIA's cuFFT (the successor of Pyculib's and
NumbaPro's ``fft``), with the shapes, dtypes and normalisation of ``numpy.fft``.

Functions: ``fft``, ``ifft``, ``rfft``, ``irfft`` (one axis, batched over the others),
``fft2``, ``ifft2``, ``rfft2``, ``irfft2`` (two axes, the last two by default), ``fftn``,
``ifftn``, ``rfftn``, ``irfftn`` (any axes, all by default), and NumbaPro's in-place
``fft_inplace`` and ``ifft_inplace`` (every axis of a complex array).

Arguments: ``a`` is a NumPy array, a taipan device array or any object exporting the CUDA
Array Interface (CuPy, PyTorch). The second positional argument is ``out`` (Pyculib's order:
``fft(a, out)``); ``n``/``s``, ``axis``/``axes``, ``norm`` and ``stream`` are keywords.
``out`` may be a device or a host array of exactly the result's shape and dtype; without it
the result is a new device array for a device input and a NumPy array for a host input.
Everything is queued on ``stream`` (host results wait for it).

Dtypes as NumPy 2 computes them: float32 and complex64 give complex64 (``irfft``: float32),
everything else complex128 (``irfft``: float64); ``rfft`` refuses complex input.

Normalisation as NumPy's: ``norm`` None or "backward" leaves the forward transform unscaled
and divides the inverse by n, "ortho" scales both by 1/sqrt(n), "forward" divides the forward
transform by n. Pyculib's and NumbaPro's ``ifft`` did not divide by n: where code relied on
that, multiply by n (or pass ``norm="forward"`` to both directions). Pyculib's ``fft`` of a
2-D array transformed both axes; here, as in NumPy, ``fft`` transforms the last axis only
(use ``fft2`` or ``fftn``). ``fft_inplace``/``ifft_inplace`` transform every axis, as
NumbaPro's did, with NumPy's normalisation.

cuFFT itself does not scale: the scaling is a taipan kernel run after it (skipped when the
factor is 1). Plans are cached per device (16 of them, least recently used first out).
"""

import ctypes
import math
import threading
from collections import OrderedDict

import numpy as np

from taipan.cuda import libraries
from taipan.cuda import library_kernels as kernels

# cufftType
_C2C, _Z2Z, _R2C, _D2Z, _C2R, _Z2D = 0x29, 0x69, 0x2A, 0x6A, 0x2C, 0x6C
_FORWARD, _INVERSE = -1, 1

_RESULTS = {
    0: "CUFFT_SUCCESS",
    1: "CUFFT_INVALID_PLAN",
    2: "CUFFT_ALLOC_FAILED",
    3: "CUFFT_INVALID_TYPE",
    4: "CUFFT_INVALID_VALUE",
    5: "CUFFT_INTERNAL_ERROR",
    6: "CUFFT_EXEC_FAILED",
    7: "CUFFT_SETUP_FAILED",
    8: "CUFFT_INVALID_SIZE",
    9: "CUFFT_UNALIGNED_DATA",
    11: "CUFFT_INVALID_DEVICE",
    13: "CUFFT_NO_WORKSPACE",
    14: "CUFFT_NOT_IMPLEMENTED",
    16: "CUFFT_NOT_SUPPORTED",
    17: "CUFFT_MISSING_DEPENDENCY",
    18: "CUFFT_NVRTC_FAILURE",
    19: "CUFFT_NVJITLINK_FAILURE",
    20: "CUFFT_NVSHMEM_FAILURE",
}

_NORMS = (None, "backward", "ortho", "forward")
_PLAN_CACHE_SIZE = 16


class CuFFTError(RuntimeError):
    """cuFFT refused a call; ``status`` is its cufftResult."""

    def __init__(self, function, status):
        self.status = status
        super().__init__(f"{function} failed: {_RESULTS.get(status, 'unknown result')} ({status})")


# --- the library -----------------------------------------------------------------------------

_api = None
_api_lock = threading.Lock()


def _library():
    """cuFFT's functions, declared once."""
    global _api
    with _api_lock:
        if _api is None:
            library, _ = libraries.find_library("cufft")
            i64, ptr, i32 = ctypes.c_longlong, ctypes.c_void_p, ctypes.c_int
            declarations = {
                "cufftCreate": [ctypes.POINTER(i32)],
                "cufftMakePlanMany64": [
                    i32,
                    i32,
                    ctypes.POINTER(i64),
                    ctypes.POINTER(i64),
                    i64,
                    i64,
                    ctypes.POINTER(i64),
                    i64,
                    i64,
                    i32,
                    i64,
                    ctypes.POINTER(ctypes.c_size_t),
                ],
                "cufftDestroy": [i32],
                "cufftSetStream": [i32, ptr],
                "cufftExecC2C": [i32, ptr, ptr, i32],
                "cufftExecZ2Z": [i32, ptr, ptr, i32],
                "cufftExecR2C": [i32, ptr, ptr],
                "cufftExecD2Z": [i32, ptr, ptr],
                "cufftExecC2R": [i32, ptr, ptr],
                "cufftExecZ2D": [i32, ptr, ptr],
                "cufftGetVersion": [ctypes.POINTER(i32)],
            }
            for name, arguments in declarations.items():
                function = getattr(library, name)
                function.argtypes = arguments
                function.restype = ctypes.c_int
            _api = library
        return _api


def _check(function, status):
    if status != 0:
        raise CuFFTError(function, status)


def get_version():
    """cuFFT's version number (12000 for cuFFT 12.0)."""
    version = ctypes.c_int()
    _check("cufftGetVersion", _library().cufftGetVersion(ctypes.byref(version)))
    return version.value


# --- plans -----------------------------------------------------------------------------------


class _Plan:
    """A cuFFT plan for one layout; executions through it are serialised (a plan holds its
    stream and work area)."""

    def __init__(self, key):
        api = _library()
        (_, _, rank, n, inembed, istride, idist, onembed, ostride, odist, kind, batch) = key
        handle = ctypes.c_int()
        _check("cufftCreate", api.cufftCreate(ctypes.byref(handle)))
        self.handle = handle.value
        self.kind = kind
        self.stream = 0  # a new plan runs on the default stream
        self.lock = threading.Lock()
        array = ctypes.c_longlong * rank
        work = ctypes.c_size_t()
        status = api.cufftMakePlanMany64(
            self.handle,
            rank,
            array(*n),
            array(*inembed),
            istride,
            idist,
            array(*onembed),
            ostride,
            odist,
            kind,
            batch,
            ctypes.byref(work),
        )
        if status != 0:
            api.cufftDestroy(self.handle)
            raise CuFFTError(f"cufftMakePlanMany64 (n={list(n)}, batch={batch})", status)
        self.key = key

    def execute(self, source, target, direction, stream):
        api = _library()
        with self.lock:
            if stream != self.stream:
                _check("cufftSetStream", api.cufftSetStream(self.handle, stream or None))
                self.stream = stream
            if self.kind == _C2C:
                status = api.cufftExecC2C(self.handle, source, target, direction)
            elif self.kind == _Z2Z:
                status = api.cufftExecZ2Z(self.handle, source, target, direction)
            elif self.kind == _R2C:
                status = api.cufftExecR2C(self.handle, source, target)
            elif self.kind == _D2Z:
                status = api.cufftExecD2Z(self.handle, source, target)
            elif self.kind == _C2R:
                status = api.cufftExecC2R(self.handle, source, target)
            else:
                status = api.cufftExecZ2D(self.handle, source, target)
        _check("cufftExec", status)

    def destroy(self):
        from taipan.cuda import driver

        # Plans of a closed context went with it.
        if self.key[1] == driver.context_generation():
            _library().cufftDestroy(self.handle)


_plans = OrderedDict()
_plans_lock = threading.Lock()


def _plan(key):
    with _plans_lock:
        plan = _plans.get(key)
        if plan is not None:
            _plans.move_to_end(key)
            return plan
    plan = _Plan(key)
    with _plans_lock:
        _plans[key] = plan
        while len(_plans) > _PLAN_CACHE_SIZE:
            _, old = _plans.popitem(last=False)
            _recipes.clear()  # some may execute the plan destroyed now
            old.destroy()
    return plan


def clear_plan_cache():
    """Destroys the cached plans (they are remade when needed)."""
    with _plans_lock:
        plans = list(_plans.values())
        _plans.clear()
        _recipes.clear()
    for plan in plans:
        plan.destroy()


# --- arguments -------------------------------------------------------------------------------


def _precision_dtypes(dtype, kind):
    """(input dtype, output dtype) cuFFT works in for a transform kind and an input dtype."""
    single = np.dtype(dtype) in (np.float16, np.float32, np.complex64)
    real, complex_ = (np.float32, np.complex64) if single else (np.float64, np.complex128)
    if kind == "c2c":
        return np.dtype(complex_), np.dtype(complex_)
    if kind == "r2c":
        return np.dtype(real), np.dtype(complex_)
    return np.dtype(complex_), np.dtype(real)


_CUFFT_TYPES = {
    ("c2c", np.float32): _C2C,
    ("c2c", np.float64): _Z2Z,
    ("r2c", np.float32): _R2C,
    ("r2c", np.float64): _D2Z,
    ("c2r", np.float32): _C2R,
    ("c2r", np.float64): _Z2D,
}


def _normalise_axes(ndim, axes):
    if ndim == 0:
        raise ValueError("cannot transform a 0-dimensional array")
    normalised = []
    for axis in axes:
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"axes must be integers, not {type(axis).__name__}")
        if not -ndim <= axis < ndim:
            raise ValueError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
        normalised.append(int(axis) % ndim)
    if len(set(normalised)) != len(normalised):
        raise ValueError("repeated axis in the FFT's axes")
    return normalised


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(
            f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".'
        )
    return norm or "backward"


def _scale_factor(norm, forward, points):
    if norm == "ortho":
        return 1.0 / math.sqrt(points)
    if (norm == "backward") != forward:
        return 1.0 / points
    return 1.0


def _shape_of(a):
    return tuple(int(n) for n in a.shape)


class _Operand:
    """The input as the transform reads it: a host array (converted with NumPy) or a device
    array (converted, padded or cut by a kernel when needed)."""

    def __init__(self, a, stream):
        self.on_device = libraries.is_device(a)
        if self.on_device:
            self.array = libraries.as_device(a, stream)
        else:
            self.array = np.asarray(a)
            if self.array.dtype == object:
                raise TypeError("FFT input must be a numeric array")
        self.shape = _shape_of(self.array)
        self.dtype = np.dtype(self.array.dtype)
        if self.dtype.kind not in "biufc":
            raise TypeError(f"cannot take the FFT of an array of {self.dtype}")


def _resized_host(array, shape):
    """A host array cut or zero-padded to ``shape`` (same number of dimensions)."""
    if array.shape == shape:
        return array
    result = np.zeros(shape, array.dtype)
    region = tuple(slice(0, min(a, b)) for a, b in zip(array.shape, shape))
    result[region] = array[region]
    return result


def _input_on_device(operand, dtype, shape, stream, private):
    """A C-contiguous device array of ``dtype`` and ``shape`` holding the input (cut or
    zero-padded); a new one when ``private`` (cuFFT's c2r overwrites its input) or when the
    given array does not fit as it is."""
    from taipan.cuda.devicearray import device_array, to_device

    if not operand.on_device:
        host = _resized_host(operand.array, shape)
        return to_device(np.ascontiguousarray(host, dtype=dtype), stream=stream)
    array = operand.array
    if not private and array.dtype == dtype and array.shape == shape and array.is_c_contiguous():
        return array
    copy = device_array(shape, dtype, stream=stream)
    kernels.copy(copy, array, stream)
    return copy


def _execute_block(plan_kind, source, target, sizes, first, last, direction, stream):
    """One cuFFT transform over the consecutive axes first..last of the C-contiguous device
    arrays ``source`` and ``target``, batched over the others."""
    device, generation = libraries.enter_context()
    ishape, oshape = source.shape, target.shape
    outer = math.prod(ishape[:first])
    inner = math.prod(ishape[last + 1 :])
    in_dims = tuple(ishape[first : last + 1])
    out_dims = tuple(oshape[first : last + 1])
    in_block, out_block = math.prod(in_dims), math.prod(out_dims)
    rank = last - first + 1
    in_item, out_item = source.dtype.itemsize, target.dtype.itemsize
    stream_handle = libraries.stream_pointer(stream)

    executions = []  # (plan, input offset, output offset), for _Recipe

    def run(batch, stride, idist, odist, offsets):
        key = (
            device,
            generation,
            rank,
            tuple(sizes),
            in_dims,
            stride,
            idist,
            out_dims,
            stride,
            odist,
            plan_kind,
            batch,
        )
        plan = _plan(key)
        for in_offset, out_offset in offsets:
            executions.append((plan, in_offset, out_offset))
            plan.execute(
                libraries.device_pointer(source) + in_offset,
                libraries.device_pointer(target) + out_offset,
                direction,
                stream_handle,
            )

    if inner == 1:
        run(outer, 1, in_block, out_block, [(0, 0)])
    elif outer == 1:
        run(inner, inner, 1, 1, [(0, 0)])
    elif outer <= inner:
        steps = [
            (o * in_block * inner * in_item, o * out_block * inner * out_item) for o in range(outer)
        ]
        run(inner, inner, 1, 1, steps)
    else:
        steps = [(i * in_item, i * out_item) for i in range(inner)]
        run(outer, inner, in_block * inner, out_block * inner, steps)
    return executions


# --- repeated calls ----------------------------------------------------------------------------


class _Recipe:
    """What a transform of a taipan device array into ``out`` (or a new array) did, for calls
    like it: the plans executed at what offsets, the scaling. Argument handling costs more than
    cuFFT's own enqueueing, so a repeated call skips it."""

    def __init__(self, executions, direction, stream, factor, out_shape, out_dtype):
        self.executions = executions
        self.direction = direction
        self.stream_handle = libraries.stream_pointer(stream)
        self.factor = factor
        self.out_shape = out_shape
        self.out_dtype = out_dtype

    def run(self, a, out, stream):
        from taipan.cuda.devicearray import device_array

        target = (
            out if out is not None else device_array(self.out_shape, self.out_dtype, stream=stream)
        )
        source, destination = a.device_ctypes_pointer, target.device_ctypes_pointer
        for plan, in_offset, out_offset in self.executions:
            plan.execute(
                source + in_offset, destination + out_offset, self.direction, self.stream_handle
            )
        if self.factor != 1.0:
            kernels.scale(target, self.factor, stream)
        return target


_recipes = {}
_RECIPE_CACHE_SIZE = 64


def _recipe_key(a, out, kind, sizes, axes, forward, norm, stream):
    """What a transform's recipe depends on, or None when it takes no recipe: the input is
    not a taipan device array, or ``out`` is given but is not one, or (a real transform) may
    overlap the input."""
    from taipan.cuda.devicearray import DeviceNDArray

    if type(a) is not DeviceNDArray:
        return None
    if out is None:
        out_layout = None
    elif type(out) is DeviceNDArray and kind == "c2c":
        out_layout = (out.shape, out.strides, out.dtype)
    else:
        return None
    sizes = None if sizes is None else tuple(sizes)
    context = libraries.enter_context()
    layout = (a.shape, a.strides, a.dtype)
    return (layout, out_layout, kind, sizes, tuple(axes), forward, norm, stream, context)


def _transform(a, out, kind, sizes, axes, forward, norm, stream):
    """The FFT of ``a`` over ``axes`` (the real axis last for r2c and c2r) with logical
    lengths ``sizes`` (None: from the input)."""
    try:
        key = _recipe_key(a, out, kind, sizes, axes, forward, norm, stream)
        recipe = _recipes.get(key) if key is not None else None
    except TypeError:  # an argument that does not hash: the checks below say what is wrong
        key = recipe = None
    if recipe is not None:
        return recipe.run(a, out, stream)
    norm = _check_norm(norm)
    operand = _Operand(a, stream)
    ndim = len(operand.shape)
    axes = _normalise_axes(ndim, axes)
    if kind == "r2c" and operand.dtype.kind == "c":
        raise TypeError("rfft takes real input: pass the real part, or use fft")
    if sizes is None:
        sizes = [operand.shape[axis] for axis in axes]
        if kind == "c2r":
            sizes[-1] = 2 * (sizes[-1] - 1)
    sizes = [int(n) for n in sizes]
    if len(sizes) != len(axes):
        raise ValueError("the lengths (n or s) and the axes must be as many")
    for n in sizes:
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    in_dtype, out_dtype = _precision_dtypes(operand.dtype, kind)
    in_shape, out_shape = list(operand.shape), list(operand.shape)
    for axis, n in zip(axes, sizes):
        in_shape[axis] = out_shape[axis] = n
    half = sizes[-1] // 2 + 1
    if kind == "r2c":
        out_shape[axes[-1]] = half
    elif kind == "c2r":
        in_shape[axes[-1]] = half
    in_shape, out_shape = tuple(in_shape), tuple(out_shape)
    if out is not None:
        _check_out(out, out_shape, out_dtype)

    source = _input_on_device(operand, in_dtype, in_shape, stream, private=(kind == "c2r"))
    target = _output_target(out, source, kind, out_shape, out_dtype, stream)
    real_dtype = np.float32 if in_dtype in (np.float32, np.complex64) else np.float64
    direction = _FORWARD if forward else _INVERSE

    if math.prod(in_shape) == 0 or math.prod(out_shape) == 0:  # nothing to transform
        return _deliver(operand, out, target, stream)
    ordered = sorted(axes)
    consecutive = ordered == list(range(ordered[0], ordered[-1] + 1))
    one_block = consecutive and len(axes) <= 3 and (kind == "c2c" or axes[-1] == ordered[-1])
    executions = None
    if one_block:
        block_sizes = [sizes[axes.index(axis)] for axis in ordered]
        plan_kind = _CUFFT_TYPES[(kind, real_dtype)]
        executions = _execute_block(
            plan_kind, source, target, block_sizes, ordered[0], ordered[-1], direction, stream
        )
    else:
        _separable(kind, real_dtype, source, target, sizes, axes, direction, stream)
    factor = _scale_factor(norm, forward, math.prod(sizes))
    if target.size and factor != 1.0:
        kernels.scale(target, factor, stream)
    # The same call again can skip the checks when cuFFT read the input as it is and wrote
    # where the caller gets the result.
    if key is not None and executions and source is a and (out is None or target is out):
        with _plans_lock:
            if len(_recipes) >= _RECIPE_CACHE_SIZE:
                _recipes.clear()
            _recipes[key] = _Recipe(executions, direction, stream, factor, out_shape, out_dtype)
    return _deliver(operand, out, target, stream)


def _separable(kind, real_dtype, source, target, sizes, axes, direction, stream):
    """A transform over axes cuFFT cannot take in one plan, as a sequence of one-axis
    transforms (the multidimensional DFT is separable)."""
    c2c = _CUFFT_TYPES[("c2c", real_dtype)]
    last = axes[-1]
    if kind == "c2c":
        current = source
        for axis, n in zip(axes, sizes):
            _execute_block(c2c, current, target, [n], axis, axis, direction, stream)
            current = target
    elif kind == "r2c":
        r2c = _CUFFT_TYPES[("r2c", real_dtype)]
        _execute_block(r2c, source, target, [sizes[-1]], last, last, direction, stream)
        for axis, n in zip(axes[:-1], sizes[:-1]):
            _execute_block(c2c, target, target, [n], axis, axis, direction, stream)
    else:  # c2r: the complex axes first, in place on the private copy of the input
        for axis, n in zip(axes[:-1], sizes[:-1]):
            _execute_block(c2c, source, source, [n], axis, axis, direction, stream)
        c2r = _CUFFT_TYPES[("c2r", real_dtype)]
        _execute_block(c2r, source, target, [sizes[-1]], last, last, direction, stream)


def _check_out(out, shape, dtype):
    if not (libraries.is_device(out) or isinstance(out, np.ndarray)):
        raise TypeError(
            f"out must be a NumPy or device array, not {type(out).__name__} (the second "
            "argument is out, as in Pyculib: pass n=, s=, axis= and axes= by keyword)"
        )
    if libraries.is_device(out):
        out = libraries.as_device(out)
    if isinstance(out, np.ndarray) and not out.flags.writeable:
        raise ValueError("out is read-only")
    if _shape_of(out) != shape:
        raise ValueError(f"out has shape {_shape_of(out)}; the result's is {shape}")
    if np.dtype(out.dtype) != dtype:
        raise TypeError(f"out has dtype {np.dtype(out.dtype)}; the result's is {dtype}")


def _output_target(out, source, kind, shape, dtype, stream):
    """The C-contiguous device array cuFFT writes: ``out`` itself when it is one (and not
    the input of a real transform), else a new array."""
    from taipan.cuda.devicearray import device_array

    if out is not None and libraries.is_device(out):
        target = libraries.as_device(out, stream)
        if target.is_c_contiguous() and (kind == "c2c" or not _overlaps(target, source)):
            return target
    return device_array(shape, dtype, stream=stream)


def _overlaps(a, b):
    a0, b0 = libraries.device_pointer(a), libraries.device_pointer(b)
    return a0 < b0 + max(b.nbytes, 1) and b0 < a0 + max(a.nbytes, 1)


def _deliver(operand, out, target, stream):
    """The result where the caller wants it: ``out`` (filled from ``target`` if cuFFT did not
    write there), a device array for a device input, a NumPy array for a host input."""
    if out is not None:
        if libraries.is_device(out):
            destination = libraries.as_device(out, stream)
            if libraries.device_pointer(destination) != libraries.device_pointer(target):
                kernels.copy(destination, target, stream)
        else:
            target.copy_to_host(out, stream=stream)
            libraries.synchronize_stream(stream)
        return out
    if operand.on_device:
        return target
    result = target.copy_to_host(stream=stream)
    libraries.synchronize_stream(stream)
    return result


# --- NumPy's functions -------------------------------------------------------------------------


def _one_axis(n, axis):
    return None if n is None else [n], [axis]


def fft(a, out=None, *, n=None, axis=-1, norm=None, stream=0):
    """The one-dimensional discrete Fourier transform along ``axis`` (numpy.fft.fft)."""
    sizes, axes = _one_axis(n, axis)
    return _transform(a, out, "c2c", sizes, axes, True, norm, stream)


def ifft(a, out=None, *, n=None, axis=-1, norm=None, stream=0):
    """The one-dimensional inverse transform along ``axis`` (numpy.fft.ifft)."""
    sizes, axes = _one_axis(n, axis)
    return _transform(a, out, "c2c", sizes, axes, False, norm, stream)


def rfft(a, out=None, *, n=None, axis=-1, norm=None, stream=0):
    """The transform of real input along ``axis``, its n//2 + 1 non-negative frequencies
    (numpy.fft.rfft)."""
    sizes, axes = _one_axis(n, axis)
    return _transform(a, out, "r2c", sizes, axes, True, norm, stream)


def irfft(a, out=None, *, n=None, axis=-1, norm=None, stream=0):
    """The inverse of ``rfft``: ``n`` real values (default 2 * (m - 1)) along ``axis``
    (numpy.fft.irfft)."""
    sizes, axes = _one_axis(n, axis)
    return _transform(a, out, "c2r", sizes, axes, False, norm, stream)


def _many_axes(a, s, axes, default_all):
    ndim = len(_shape_of(a))
    if axes is None:
        if s is not None:
            axes = list(range(-len(s), 0))
        else:
            axes = list(range(ndim)) if default_all else [-2, -1]
    axes = list(axes)
    if s is not None:
        s = list(s)
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
    return s, axes


def fft2(a, out=None, *, s=None, axes=(-2, -1), norm=None, stream=0):
    """The two-dimensional transform over ``axes`` (numpy.fft.fft2), batched over the rest."""
    s, axes = _many_axes(a, s, axes, False)
    return _transform(a, out, "c2c", s, axes, True, norm, stream)


def ifft2(a, out=None, *, s=None, axes=(-2, -1), norm=None, stream=0):
    """The two-dimensional inverse transform (numpy.fft.ifft2)."""
    s, axes = _many_axes(a, s, axes, False)
    return _transform(a, out, "c2c", s, axes, False, norm, stream)


def rfft2(a, out=None, *, s=None, axes=(-2, -1), norm=None, stream=0):
    """The two-dimensional transform of real input (numpy.fft.rfft2)."""
    s, axes = _many_axes(a, s, axes, False)
    return _transform(a, out, "r2c", s, axes, True, norm, stream)


def irfft2(a, out=None, *, s=None, axes=(-2, -1), norm=None, stream=0):
    """The inverse of ``rfft2`` (numpy.fft.irfft2)."""
    s, axes = _many_axes(a, s, axes, False)
    return _transform(a, out, "c2r", s, axes, False, norm, stream)


def fftn(a, out=None, *, s=None, axes=None, norm=None, stream=0):
    """The N-dimensional transform over ``axes`` (all by default; numpy.fft.fftn)."""
    s, axes = _many_axes(a, s, axes, True)
    return _transform(a, out, "c2c", s, axes, True, norm, stream)


def ifftn(a, out=None, *, s=None, axes=None, norm=None, stream=0):
    """The N-dimensional inverse transform (numpy.fft.ifftn)."""
    s, axes = _many_axes(a, s, axes, True)
    return _transform(a, out, "c2c", s, axes, False, norm, stream)


def rfftn(a, out=None, *, s=None, axes=None, norm=None, stream=0):
    """The N-dimensional transform of real input, halved along the last axis (numpy.fft.rfftn)."""
    s, axes = _many_axes(a, s, axes, True)
    return _transform(a, out, "r2c", s, axes, True, norm, stream)


def irfftn(a, out=None, *, s=None, axes=None, norm=None, stream=0):
    """The inverse of ``rfftn`` (numpy.fft.irfftn)."""
    s, axes = _many_axes(a, s, axes, True)
    return _transform(a, out, "c2r", s, axes, False, norm, stream)


def _inplace(a, forward, stream):
    if not (libraries.is_device(a) or isinstance(a, np.ndarray)):
        raise TypeError(f"an in-place FFT needs an array, not {type(a).__name__}")
    dtype = np.dtype(a.dtype)
    if dtype not in (np.complex64, np.complex128):
        raise TypeError(f"an in-place FFT needs a complex64 or complex128 array, not {dtype}")
    if isinstance(a, np.ndarray) and not a.flags.writeable:
        raise ValueError("the array is read-only")
    axes = list(range(len(_shape_of(a))))
    _transform(a, a, "c2c", None, axes, forward, None, stream)
    return a


def fft_inplace(a, stream=0):
    """NumbaPro's in-place forward transform over every axis of a complex array."""
    return _inplace(a, True, stream)


def ifft_inplace(a, stream=0):
    """NumbaPro's in-place inverse transform over every axis, divided by the number of
    points as NumPy's ifftn is (NumbaPro's was unnormalised)."""
    return _inplace(a, False, stream)


__all__ = [
    "CuFFTError",
    "clear_plan_cache",
    "fft",
    "fft2",
    "fft_inplace",
    "fftn",
    "get_version",
    "ifft",
    "ifft2",
    "ifft_inplace",
    "ifftn",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftn",
]
