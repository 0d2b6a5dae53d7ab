"""Small taipan kernels the cuFFT and cuBLAS wrappers need around the libraries' calls:
scaling (FFT normalisation), copies between layouts, dtypes and sizes (zero padding), and
complex conjugation. They compile on first use, like any kernel."""

import math

import numpy as np

from taipan.cuda import intrinsics
from taipan.cuda.decorators import jit

_THREADS = 256


@jit
def _scale(values, factor):
    i = intrinsics.grid(1)
    if i < values.shape[0]:
        values[i] *= factor


@jit
def _negate_odd(values):
    """Negates every second element: the imaginary parts of a complex array's real view."""
    i = intrinsics.grid(1)
    if 2 * i + 1 < values.shape[0]:
        values[2 * i + 1] = -values[2 * i + 1]


@jit
def _copy4(dst, src):
    """dst[i, j, k, l] = src[i, j, k, l] where src has that element, else 0: copies between
    layouts and dtypes, and pads or truncates (four dimensions; fewer are padded with 1s)."""
    flat = intrinsics.grid(1)
    n3 = dst.shape[3]
    n2 = dst.shape[2]
    n1 = dst.shape[1]
    if flat < dst.shape[0] * n1 * n2 * n3:
        l = flat % n3
        rest = flat // n3
        k = rest % n2
        rest = rest // n2
        j = rest % n1
        i = rest // n1
        if i < src.shape[0] and j < src.shape[1] and k < src.shape[2] and l < src.shape[3]:
            dst[i, j, k, l] = src[i, j, k, l]
        else:
            dst[i, j, k, l] = 0


def _blocks(count):
    return max(1, math.ceil(count / _THREADS))


def scale(array, factor, stream=0):
    """Multiplies a C-contiguous device array by a real factor, in place."""
    from taipan.cuda.libraries import reinterpret

    if array.size == 0:
        return
    view = reinterpret(array, _real_dtype(array.dtype))
    factor = view.dtype.type(factor)
    _scale[_blocks(view.size), _THREADS, stream](view, factor)


def conjugate(array, stream=0):
    """Conjugates a C-contiguous complex device array in place."""
    from taipan.cuda.libraries import reinterpret

    if array.size == 0 or array.dtype.kind != "c":
        return
    view = reinterpret(array, _real_dtype(array.dtype))
    _negate_odd[_blocks(array.size), _THREADS, stream](view)


def copy(dst, src, stream=0):
    """Copies device array ``src`` into device array ``dst`` of the same number of dimensions
    (at most four), whatever their layouts, casting to dst's dtype; where ``dst`` is larger
    along an axis the rest is zero, where it is smaller ``src`` is cut."""
    if src.ndim != dst.ndim:
        raise ValueError(f"copy between {src.ndim} and {dst.ndim} dimensions")
    if dst.ndim > 4:
        raise NotImplementedError("device copies of more than four dimensions")
    if dst.size == 0:
        return
    _copy4[_blocks(dst.size), _THREADS, stream](_as4(dst), _as4(src))


def _as4(array):
    """The array with leading axes of length 1 up to four dimensions (a view)."""
    from taipan.cuda.devicearray import DeviceNDArray

    missing = 4 - array.ndim
    if missing == 0:
        return array
    return DeviceNDArray(
        (1,) * missing + array.shape,
        (0,) * missing + tuple(array.strides),
        array.dtype,
        array._buffer,
        array._offset,
        array.stream,
    )


def _real_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64)
    return dtype
