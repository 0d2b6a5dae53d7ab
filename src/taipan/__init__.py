"""taipan: a just-in-time compiler for numerical Python with Numba's API, in C++ on LLVM."""

from taipan import _core
from taipan import errors as _errors
from taipan.errors import (
    ConversionError,
    ForceLiteralArg,
    InternalError,
    LoweringError,
    TaipanError,
    TypingError,
    UnsupportedError,
)

_core.set_error_classes(TypingError, UnsupportedError, InternalError)
_core.set_later_error_classes(LoweringError, ConversionError, ForceLiteralArg)
_core.set_value_error_class(_errors.ArgumentValueError)

_core.install_source_recorder()  # exec'd functions keep their text (taipan.source_texts)

from taipan import typed, types
from taipan.cfunc import CFunc, carray, cfunc, farray
from taipan.decorators import jit, njit
from taipan.literal_dispatch import literally
from taipan.objmode_context import objmode
from taipan.threads import (
    get_num_threads,
    get_thread_id,
    prange,
    set_num_threads,
    threading_layer,
)
from taipan.typeof import from_dtype, typeof
from taipan.types import (  # C's type names too (ulonglong...), as numba exports them
    Tuple,
    UniTuple,
    b1,
    bool_,
    boolean,
    byte,
    c8,
    c16,
    char,
    complex64,
    complex128,
    double,
    f2,
    f4,
    f8,
    float16,
    float32,
    float64,
    i1,
    i2,
    i4,
    i8,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    intp,
    long_,
    longlong,
    none,
    short,
    size_t,
    ssize_t,
    u1,
    u2,
    u4,
    u8,
    uchar,
    uint,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ulong,
    ulonglong,
    ushort,
    void,
)
from taipan.ufuncs import DUFunc, GUFunc, guvectorize, vectorize
from taipan.unrolling import literal_unroll

__version__ = "0.1.0"


def jitclass(cls_or_spec=None, spec=None):
    """Numba's ``jitclass`` (``taipan.jitclasses``, imported on first use)."""
    from taipan.jitclasses import jitclass as make

    return make(cls_or_spec, spec)


__all__ = [
    "CFunc",
    "DUFunc",
    "GUFunc",
    "InternalError",
    "TaipanError",
    "Tuple",
    "TypingError",
    "UniTuple",
    "UnsupportedError",
    "b1",
    "bool_",
    "boolean",
    "byte",
    "c8",
    "c16",
    "carray",
    "cfunc",
    "char",
    "complex64",
    "complex128",
    "double",
    "f2",
    "f4",
    "f8",
    "farray",
    "float16",
    "float32",
    "float64",
    "from_dtype",
    "get_num_threads",
    "get_thread_id",
    "guvectorize",
    "i1",
    "i2",
    "i4",
    "i8",
    "int8",
    "int16",
    "int32",
    "int64",
    "int_",
    "intc",
    "intp",
    "jit",
    "jitclass",
    "literal_unroll",
    "literally",
    "long_",
    "longlong",
    "njit",
    "none",
    "objmode",
    "prange",
    "set_num_threads",
    "short",
    "size_t",
    "ssize_t",
    "threading_layer",
    "typed",
    "typeof",
    "types",
    "u1",
    "u2",
    "u4",
    "u8",
    "uchar",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintc",
    "uintp",
    "ulong",
    "ulonglong",
    "ushort",
    "vectorize",
    "void",
]
