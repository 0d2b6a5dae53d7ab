"""Basic linear algebra on the GPU through NVIDIA's cuBLAS, with Pyculib's module-level
signatures (``pyculib.blas.gemm`` and friends):

- ``gemm(transa, transb, alpha, A, B, beta=0, C=None, stream=0)``: ``C = alpha * op(A) @
  op(B) + beta * C``, returns C;
- ``gemv(trans, alpha, A, x, beta=0, y=None, stream=0)``: ``y = alpha * op(A) @ x + beta * y``,
  returns y;
- ``axpy(alpha, x, y, stream=0)``: ``y += alpha * x`` in place, returns y;
- ``dot(x, y, stream=0)`` (``numpy.dot`` of vectors: no conjugation), ``dotc(x, y, stream=0)``
  (``numpy.vdot``: x conjugated) and ``nrm2(x, stream=0)`` (``numpy.linalg.norm``) return
  NumPy scalars.

``trans``, ``transa``, ``transb`` are 'N' (op(X) = X), 'T' (X transposed) or 'C' (conjugate
transpose), in either case. Matrices are the mathematical matrices their shape says, in any
memory order: C-contiguous arrays (NumPy's and taipan's default) are passed to column-major
cuBLAS as their transposes (C is computed as C^T = op(B)^T op(A)^T), F-contiguous ones as
they are, and views with a unit inner stride through the leading dimension; other layouts,
and the conjugations cuBLAS cannot express for them, go through a copy.

Operands are NumPy arrays (copied to the device on ``stream``), taipan device arrays or any
object exporting the CUDA Array Interface. Results: ``C`` and ``y`` are updated in place when
given (host ones through a copy) and returned; when omitted, the new result is a device array
if any operand is on the device and a NumPy array otherwise. The dtype is NumPy's result
type of the arrays (float32, float64, complex64 or complex128; other dtypes are refused);
alpha and beta are cast to it, as Python numbers do not widen it (Pyculib's did). Work is
queued on ``stream``; host results and the scalar functions wait for it.

One cuBLAS handle is kept per thread and device, in taipan's context (see libraries.py).
"""

import ctypes
import threading
from numbers import Number

import numpy as np

from taipan.cuda import libraries
from taipan.cuda import library_kernels as kernels

_STATUS = {
    0: "CUBLAS_STATUS_SUCCESS",
    1: "CUBLAS_STATUS_NOT_INITIALIZED",
    3: "CUBLAS_STATUS_ALLOC_FAILED",
    7: "CUBLAS_STATUS_INVALID_VALUE",
    8: "CUBLAS_STATUS_ARCH_MISMATCH",
    11: "CUBLAS_STATUS_MAPPING_ERROR",
    13: "CUBLAS_STATUS_EXECUTION_FAILED",
    14: "CUBLAS_STATUS_INTERNAL_ERROR",
    15: "CUBLAS_STATUS_NOT_SUPPORTED",
    16: "CUBLAS_STATUS_LICENSE_ERROR",
}
_OPS = {"N": 0, "T": 1, "C": 2}
_PREFIX = {
    np.dtype(np.float32): "S",
    np.dtype(np.float64): "D",
    np.dtype(np.complex64): "C",
    np.dtype(np.complex128): "Z",
}
_INT32_MAX = 2**31 - 1


class CuBLASError(RuntimeError):
    """cuBLAS refused a call; ``status`` is its cublasStatus_t."""

    def __init__(self, function, status):
        self.status = status
        super().__init__(f"{function} failed: {_STATUS.get(status, 'unknown status')} ({status})")


# --- the library -----------------------------------------------------------------------------

_api = None
_api_lock = threading.Lock()


def _library():
    global _api
    with _api_lock:
        if _api is None:
            library, _ = libraries.find_library("cublas")
            ptr, i32 = ctypes.c_void_p, ctypes.c_int
            declarations = {
                "cublasCreate_v2": [ctypes.POINTER(ptr)],
                "cublasDestroy_v2": [ptr],
                "cublasSetStream_v2": [ptr, ptr],
                "cublasGetProperty": [i32, ctypes.POINTER(i32)],
            }
            for p in "SDCZ":
                declarations[f"cublas{p}gemm_v2"] = [ptr, i32, i32, i32, i32, i32] + [
                    ptr,
                    ptr,
                    i32,
                    ptr,
                    i32,
                    ptr,
                    ptr,
                    i32,
                ]
                declarations[f"cublas{p}gemv_v2"] = [ptr, i32, i32, i32, ptr, ptr, i32] + [
                    ptr,
                    i32,
                    ptr,
                    ptr,
                    i32,
                ]
                declarations[f"cublas{p}axpy_v2"] = [ptr, i32, ptr, ptr, i32, ptr, i32]
            for name in ("Sdot", "Ddot", "Cdotu", "Cdotc", "Zdotu", "Zdotc"):
                declarations[f"cublas{name}_v2"] = [ptr, i32, ptr, i32, ptr, i32, ptr]
            for name in ("Snrm2", "Dnrm2", "Scnrm2", "Dznrm2"):
                declarations[f"cublas{name}_v2"] = [ptr, i32, ptr, i32, ptr]
            for name, arguments in declarations.items():
                function = getattr(library, name)
                function.argtypes = arguments
                function.restype = ctypes.c_int
            _api = library
        return _api


def _call(name, *arguments):
    status = getattr(_library(), name)(*arguments)
    if status != 0:
        raise CuBLASError(name, status)


def get_version():
    """cuBLAS's (major, minor, patch) version."""
    values = []
    for kind in range(3):  # MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
        value = ctypes.c_int()
        _call("cublasGetProperty", kind, ctypes.byref(value))
        values.append(value.value)
    return tuple(values)


_handles = threading.local()


def _handle(stream):
    """This thread's cuBLAS handle for the current device, set to ``stream``."""
    device, generation = libraries.enter_context()
    handles = getattr(_handles, "by_device", None)
    if handles is None:
        handles = _handles.by_device = {}
    key = (device, generation)
    entry = handles.get(key)
    if entry is None:
        created = ctypes.c_void_p()
        _call("cublasCreate_v2", ctypes.byref(created))
        entry = handles[key] = [created.value, None]
    handle, current = entry
    pointer = libraries.stream_pointer(stream)
    # Setting the stream resets cuBLAS's workspace, which cost 2.5% of a 4096^2 SGEMM when done
    # on every call: only a change of stream sets it.
    if pointer != current:
        _call("cublasSetStream_v2", handle, pointer or None)
        entry[1] = pointer
    return handle


# --- operands --------------------------------------------------------------------------------


def _dtype_of(value):
    if libraries.is_device(value):
        return np.dtype(value.__cuda_array_interface__["typestr"])
    return np.asarray(value).dtype


def _shape(value, ndim, name):
    """The shape of an operand, checked to have ``ndim`` dimensions, before any copying."""
    if libraries.is_device(value):
        shape = tuple(int(n) for n in value.__cuda_array_interface__["shape"])
    else:
        shape = np.shape(value)
    if len(shape) != ndim:
        kind = "a vector" if ndim == 1 else "a matrix"
        raise ValueError(f"{name} must be {kind} ({ndim} dimension(s)), not {len(shape)}-D")
    return shape


def _check_result_shape(value, shape, name):
    if value is not None and _shape(value, len(shape), name) != shape:
        raise ValueError(
            f"{name} has shape {_shape(value, len(shape), name)}; the result's is {shape}"
        )


def _common_dtype(named):
    """The cuBLAS dtype of the operands: NumPy's result type of the arrays."""
    dtypes = {name: _dtype_of(value) for name, value in named.items() if value is not None}
    for name, dtype in dtypes.items():
        if dtype not in _PREFIX:
            raise TypeError(
                f"{name} has dtype {dtype}: cuBLAS works on float32, float64, complex64 and "
                "complex128 arrays"
            )
    return np.result_type(*dtypes.values())


def _scalar(value, dtype, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Number):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    if dtype.kind != "c" and complex(value).imag != 0:
        raise TypeError(f"{name} is complex but the arrays are real ({dtype})")
    if dtype.kind != "c":
        value = complex(value).real
    return np.array(value, dtype=dtype)


def _pointer_to(scalar):
    return scalar.ctypes.data_as(ctypes.c_void_p)


class _Context:
    """Where the operands are and where results go: device mode as soon as one operand is on
    the device."""

    def __init__(self, stream, *values):
        self.stream = stream
        self.device_mode = any(libraries.is_device(v) for v in values if v is not None)

    def on_device(self, value, dtype, ndim, name):
        """``value`` as a device array of ``dtype`` (a copy when converted)."""
        from taipan.cuda.devicearray import device_array, to_device

        if libraries.is_device(value):
            array = libraries.as_device(value, self.stream)
            if array.ndim != ndim:
                raise ValueError(f"{name} must have {ndim} dimension(s), not {array.ndim}")
            if array.dtype != dtype:
                converted = device_array(array.shape, dtype, stream=self.stream)
                kernels.copy(converted, array, self.stream)
                array = converted
            return array
        host = np.asarray(value)
        if host.ndim != ndim:
            raise ValueError(f"{name} must have {ndim} dimension(s), not {host.ndim}")
        return to_device(np.asarray(host, dtype=dtype), stream=self.stream)


def _check_int(value, what):
    if value > _INT32_MAX:
        raise ValueError(f"{what} ({value}) is beyond cuBLAS's 32-bit interface")
    return value


def _matrix_layout(array):
    """('F', ld) when the device matrix is column-major with leading dimension ld, ('C', ld)
    when row-major (cuBLAS then sees its transpose), None when neither."""
    rows, cols = array.shape
    item = array.dtype.itemsize
    s0, s1 = array.strides
    if s0 % item or s1 % item:
        return None
    s0, s1 = s0 // item, s1 // item
    if (s1 == 1 or cols == 1) and (rows == 1 or s0 >= max(cols, 1)):
        return "C", max(s0 if rows > 1 else cols, 1)
    if (s0 == 1 or rows == 1) and (cols == 1 or s1 >= max(rows, 1)):
        return "F", max(s1 if cols > 1 else rows, 1)
    return None


def _contiguous_copy(array, stream, conjugate=False):
    from taipan.cuda.devicearray import device_array

    copy = device_array(array.shape, array.dtype, stream=stream)
    kernels.copy(copy, array, stream)
    if conjugate:
        kernels.conjugate(copy, stream)
    return copy


def _operand_op(array, transposed, conjugated, stream):
    """(device array, cuBLAS op, leading dimension) presenting the matrix ``array``, transposed
    and/or conjugated as asked, to column-major cuBLAS."""
    conjugated = conjugated and array.dtype.kind == "c"
    layout = _matrix_layout(array)
    if layout is None:
        array = _contiguous_copy(array, stream)
        layout = _matrix_layout(array)
    order, ld = layout
    if order == "F":
        if not conjugated:
            return array, ("T" if transposed else "N"), ld
        if transposed:
            return array, "C", ld
    else:
        if not conjugated:
            return array, ("N" if transposed else "T"), ld
        if not transposed:
            return array, "C", ld
    # conj(X) of a column-major X, or X^H of a row-major one: conjugate a row-major copy.
    array = _contiguous_copy(array, stream, conjugate=True)
    return array, ("N" if transposed else "T"), _matrix_layout(array)[1]


def _op_flags(trans, name):
    if not isinstance(trans, str) or trans.upper() not in _OPS:
        raise ValueError(f"{name} must be 'N', 'T' or 'C', not {trans!r}")
    trans = trans.upper()
    return trans != "N", trans == "C"  # (transposed, conjugated)


def _vector(array, stream):
    """(device array, increment) of a device vector; a copy when its stride is not a positive
    multiple of the element size."""
    item = array.dtype.itemsize
    stride = array.strides[0] if array.shape[0] > 1 else item
    if stride <= 0 or stride % item:
        array = _contiguous_copy(array, stream)
        stride = item
    return array, _check_int(stride // item, "the vector stride")


def _finish(context, given, device_result):
    """The result as the caller gets it: ``given`` (updated in place), or the new array."""
    if given is not None:
        if libraries.is_device(given):
            destination = libraries.as_device(given)
            if libraries.device_pointer(destination) != libraries.device_pointer(device_result):
                kernels.copy(destination, device_result, context.stream)
        else:
            host = np.empty(device_result.shape, device_result.dtype)
            device_result.copy_to_host(host, stream=context.stream)
            libraries.synchronize_stream(context.stream)
            given[...] = host
        return given
    if context.device_mode:
        return device_result
    host = device_result.copy_to_host(stream=context.stream)
    libraries.synchronize_stream(context.stream)
    return host


def _writable_target(context, given, shape, dtype, name, needs_values):
    """The device array cuBLAS writes the result to: ``given`` itself when it is a device array
    of the dtype and a layout cuBLAS takes, else a new array (holding given's values when
    ``needs_values``)."""
    from taipan.cuda.devicearray import device_array

    if given is None:
        return device_array(shape, dtype, stream=context.stream)
    if libraries.is_device(given):
        array = libraries.as_device(given, context.stream)
        if array.shape != shape:
            raise ValueError(f"{name} has shape {array.shape}; the result's is {shape}")
        if array.dtype != dtype:
            raise TypeError(f"{name} has dtype {array.dtype}; the result's is {dtype}")
        usable = _matrix_layout(array) if array.ndim == 2 else _vector_ok(array)
        if usable:
            return array
        copy = device_array(shape, dtype, stream=context.stream)
        if needs_values:
            kernels.copy(copy, array, context.stream)
        return copy
    if not isinstance(given, np.ndarray):
        raise TypeError(f"{name} must be a NumPy or device array, not {type(given).__name__}")
    if given.shape != shape:
        raise ValueError(f"{name} has shape {given.shape}; the result's is {shape}")
    if not given.flags.writeable:
        raise ValueError(f"{name} is read-only")
    if np.dtype(given.dtype) != dtype:
        raise TypeError(f"{name} has dtype {given.dtype}; the result's is {dtype}")
    if needs_values:
        return context.on_device(given, dtype, len(shape), name)
    return device_array(shape, dtype, stream=context.stream)


def _vector_ok(array):
    item = array.dtype.itemsize
    return array.shape[0] <= 1 or (array.strides[0] > 0 and array.strides[0] % item == 0)


# --- level 3 and 2 -----------------------------------------------------------------------------


def gemm(transa, transb, alpha, A, B, beta=0, C=None, stream=0):
    """C = alpha * op(A) @ op(B) + beta * C; returns C (a new array when C is None)."""
    ta, ca = _op_flags(transa, "transa")
    tb, cb = _op_flags(transb, "transb")
    dtype = _common_dtype({"A": A, "B": B, "C": C})
    alpha_value, beta_value = _scalar(alpha, dtype, "alpha"), _scalar(beta, dtype, "beta")
    a_shape, b_shape = _shape(A, 2, "A"), _shape(B, 2, "B")
    m, k = (a_shape[1], a_shape[0]) if ta else a_shape
    kb, n = (b_shape[1], b_shape[0]) if tb else b_shape
    if k != kb:
        raise ValueError(f"op(A) is {m}x{k} and op(B) is {kb}x{n}: their inner dimensions differ")
    _check_result_shape(C, (m, n), "C")
    context = _Context(stream, A, B, C)
    a = context.on_device(A, dtype, 2, "A")
    b = context.on_device(B, dtype, 2, "B")
    has_beta = C is not None and beta_value != 0
    c = _writable_target(context, C, (m, n), dtype, "C", needs_values=has_beta)
    if C is None:
        beta_value = np.zeros((), dtype)
    order, ldc = _matrix_layout(c)
    if m and n:
        if order == "F":  # C = op(A) op(B)
            first, second = (a, ta, ca), (b, tb, cb)
            rows, cols = m, n
        else:  # C^T = op(B)^T op(A)^T
            first, second = (b, not tb, cb), (a, not ta, ca)
            rows, cols = n, m
        p, op_p, ldp = _operand_op(first[0], first[1], first[2], stream)
        q, op_q, ldq = _operand_op(second[0], second[1], second[2], stream)
        for value, what in (
            (rows, "m"),
            (cols, "n"),
            (k, "k"),
            (ldp, "lda"),
            (ldq, "ldb"),
            (ldc, "ldc"),
        ):
            _check_int(value, what)
        _call(
            f"cublas{_PREFIX[dtype]}gemm_v2",
            _handle(stream),
            _OPS[op_p],
            _OPS[op_q],
            rows,
            cols,
            k,
            _pointer_to(alpha_value),
            libraries.device_pointer(p),
            ldp,
            libraries.device_pointer(q),
            ldq,
            _pointer_to(beta_value),
            libraries.device_pointer(c),
            ldc,
        )
    return _finish(context, C, c)


def gemv(trans, alpha, A, x, beta=0, y=None, stream=0):
    """y = alpha * op(A) @ x + beta * y; returns y (a new array when y is None)."""
    transposed, conjugated = _op_flags(trans, "trans")
    dtype = _common_dtype({"A": A, "x": x, "y": y})
    alpha_value, beta_value = _scalar(alpha, dtype, "alpha"), _scalar(beta, dtype, "beta")
    rows, cols = _shape(A, 2, "A")
    length_in, length_out = (rows, cols) if transposed else (cols, rows)
    (x_length,) = _shape(x, 1, "x")
    if x_length != length_in:
        raise ValueError(f"op(A) is {length_out}x{length_in} but x has {x_length} elements")
    _check_result_shape(y, (length_out,), "y")
    context = _Context(stream, A, x, y)
    a = context.on_device(A, dtype, 2, "A")
    vector = context.on_device(x, dtype, 1, "x")
    has_beta = y is not None and beta_value != 0
    target = _writable_target(context, y, (length_out,), dtype, "y", needs_values=has_beta)
    if y is None:
        beta_value = np.zeros((), dtype)
    if length_out:
        # cuBLAS's gemv takes op(buffer) with the buffer's own dimensions: a row-major A is the
        # column-major buffer A^T.
        layout = _matrix_layout(a)
        if layout is None:
            a = _contiguous_copy(a, stream)
            layout = _matrix_layout(a)
        order, lda = layout
        if conjugated and order == "C" and dtype.kind == "c":
            # A^H = conj(A^T buffer): conjugate a copy, then it is a plain transpose.
            a = _contiguous_copy(a, stream, conjugate=True)
            lda = _matrix_layout(a)[1]
            conjugated = False
        if order == "F":
            op = "C" if conjugated and dtype.kind == "c" else ("T" if transposed else "N")
            m, n = rows, cols
        else:
            op = "N" if transposed else "T"
            m, n = cols, rows
        vector, incx = _vector(vector, stream)
        incy = _vector(target, stream)[1]  # a usable stride: _writable_target saw to it
        for value, what in ((m, "m"), (n, "n"), (lda, "lda")):
            _check_int(value, what)
        _call(
            f"cublas{_PREFIX[dtype]}gemv_v2",
            _handle(stream),
            _OPS[op],
            m,
            n,
            _pointer_to(alpha_value),
            libraries.device_pointer(a),
            max(lda, 1),
            libraries.device_pointer(vector),
            incx,
            _pointer_to(beta_value),
            libraries.device_pointer(target),
            incy,
        )
    return _finish(context, y, target)


# --- level 1 -----------------------------------------------------------------------------------


def _two_vectors(x, y, stream):
    dtype = _common_dtype({"x": x, "y": y})
    if _shape(x, 1, "x") != _shape(y, 1, "y"):
        raise ValueError(f"x has {_shape(x, 1, 'x')[0]} elements and y {_shape(y, 1, 'y')[0]}")
    context = _Context(stream, x, y)
    vx = context.on_device(x, dtype, 1, "x")
    vy = context.on_device(y, dtype, 1, "y")
    if vx.shape != vy.shape:
        raise ValueError(f"x has {vx.shape[0]} elements and y {vy.shape[0]}")
    return dtype, vx, vy


def axpy(alpha, x, y, stream=0):
    """y = alpha * x + y, in place; returns y."""
    if y is None or not (libraries.is_device(y) or isinstance(y, np.ndarray)):
        raise TypeError(f"y must be a NumPy or device array, not {type(y).__name__}")
    dtype = _common_dtype({"x": x, "y": y})
    if _dtype_of(y) != dtype:
        raise TypeError(f"y has dtype {_dtype_of(y)}, but the result's is {dtype}")
    alpha_value = _scalar(alpha, dtype, "alpha")
    if _shape(x, 1, "x") != _shape(y, 1, "y"):
        raise ValueError(f"x has {_shape(x, 1, 'x')[0]} elements and y {_shape(y, 1, 'y')[0]}")
    context = _Context(stream, x, y)
    vx = context.on_device(x, dtype, 1, "x")
    target = _writable_target(context, y, (vx.shape[0],), dtype, "y", needs_values=True)
    if target.shape != vx.shape:
        raise ValueError(f"x has {vx.shape[0]} elements and y {target.shape[0]}")
    if vx.shape[0]:
        vx, incx = _vector(vx, stream)
        _check_int(vx.shape[0], "n")
        _call(
            f"cublas{_PREFIX[dtype]}axpy_v2",
            _handle(stream),
            vx.shape[0],
            _pointer_to(alpha_value),
            libraries.device_pointer(vx),
            incx,
            libraries.device_pointer(target),
            _vector(target, stream)[1],
        )
    return _finish(context, y, target)


def _dot(x, y, stream, conjugate):
    dtype, vx, vy = _two_vectors(x, y, stream)
    result = np.zeros((), dtype)
    if vx.shape[0]:
        vx, incx = _vector(vx, stream)
        vy, incy = _vector(vy, stream)
        prefix = _PREFIX[dtype]
        name = f"{prefix}dot" if dtype.kind != "c" else f"{prefix}dot{'c' if conjugate else 'u'}"
        _call(
            f"cublas{name}_v2",
            _handle(stream),
            _check_int(vx.shape[0], "n"),
            libraries.device_pointer(vx),
            incx,
            libraries.device_pointer(vy),
            incy,
            _pointer_to(result),
        )
    return result[()]


def dot(x, y, stream=0):
    """The dot product sum(x * y) of two vectors (numpy.dot; no conjugation)."""
    return _dot(x, y, stream, conjugate=False)


def dotc(x, y, stream=0):
    """sum(conj(x) * y) (numpy.vdot)."""
    return _dot(x, y, stream, conjugate=True)


def nrm2(x, stream=0):
    """The Euclidean norm of a vector (numpy.linalg.norm), a real NumPy scalar."""
    dtype = _common_dtype({"x": x})
    _shape(x, 1, "x")
    context = _Context(stream, x)
    vx = context.on_device(x, dtype, 1, "x")
    real = np.dtype(np.float32) if dtype in (np.float32, np.complex64) else np.dtype(np.float64)
    result = np.zeros((), real)
    if vx.shape[0]:
        vx, incx = _vector(vx, stream)
        name = {"S": "Snrm2", "D": "Dnrm2", "C": "Scnrm2", "Z": "Dznrm2"}[_PREFIX[dtype]]
        _call(
            f"cublas{name}_v2",
            _handle(stream),
            _check_int(vx.shape[0], "n"),
            libraries.device_pointer(vx),
            incx,
            _pointer_to(result),
        )
    return result[()]


__all__ = ["CuBLASError", "axpy", "dot", "dotc", "gemm", "gemv", "get_version", "nrm2"]
