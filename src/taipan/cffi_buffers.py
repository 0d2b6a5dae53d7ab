"""cffi's ``ffi`` objects in compiled code, as Numba supports them: ``ffi.from_buffer(array)`` is
a pointer to the array's data (``CPointer(dtype)``), which foreign functions declared with a
pointer parameter receive (``cuda.declare_device``, ``cfunc``-style callbacks). An ``FFI``
object (cffi.FFI(), or the ``ffi`` of a compiled cffi module) is an opaque value holding
nothing at run time.

Everything here goes through taipan's extension API. Imported by the bindings at the first
FFI object compiled code meets (bindings/UserTypeBoxing), so ``import taipan`` imports
neither cffi nor the extension API.
"""

import sys

from taipan import types
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    intrinsic,
    models,
    overload_method,
    register_model,
    typeof_impl,
    unbox,
)


class FFIType(types.Opaque):
    """The type of cffi's FFI objects."""


ffi_type = FFIType("cffi.FFI")
register_model(FFIType)(models.OpaqueModel)


def _typeof_ffi(value, context):
    return ffi_type


def register(cls):
    """Types the instances of `cls` as FFI objects when it is one of cffi's FFI classes (cffi.FFI,
    or the backend's, of compiled modules' ``ffi``); the bindings call it with the class of each
    object named FFI they meet."""
    if cls.__module__ in ("cffi.api", "_cffi_backend") and cls.__name__ == "FFI":
        typeof_impl.register(cls)(_typeof_ffi)


for _module in ("cffi.api", "_cffi_backend"):
    if isinstance(getattr(sys.modules.get(_module), "FFI", None), type):
        register(sys.modules[_module].FFI)


@unbox(FFIType)
def _unbox_ffi(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@intrinsic
def _data_pointer(typingctx, array):
    if array.kind_name != "Array":
        return None

    def codegen(context, builder, signature, args):
        return builder.extract_value(args[0], 4)  # the array's data (Numba's array layout)

    return types.CPointer(array.dtype)(array), codegen


@overload_method(FFIType, "from_buffer")
def _from_buffer(ffi, buffer):
    """Numba's rules: a contiguous array (more than one dimension only in C order)."""
    if buffer.kind_name != "Array":
        raise TypingError(f"from_buffer() expected a buffer object, got {buffer}")
    if buffer.layout not in ("C", "F"):
        raise TypingError(f"from_buffer() unsupported on non-contiguous buffers (got {buffer})")
    if buffer.layout != "C" and buffer.ndim > 1:
        raise TypingError(
            f"from_buffer() only supports multidimensional arrays with C layout (got {buffer})"
        )
    return lambda ffi, buffer: _data_pointer(buffer)
