"""``numba.core.types``: taipan's types; Numba's type names taipan lacks are placeholders. In
plain-Python mode every type is wrapped so that no signature a test builds is refused (see
``_plain``)."""

from numba import PLAIN_PYTHON
from numba._missing import fill_missing
from numba.core.types import containers, functions  # noqa: F401
from taipan.types import *
from taipan.types import (
    C_TYPE_NAMES,
    Array,
    BaseTuple,
    Boolean,
    Complex,
    CPointer,
    DictType,
    Float,
    Integer,
    ListType,
    NoneType,
    NPDatetime,
    NPTimedelta,
    Number,
    Optional,
    Record,
    Tuple,
    Type,
    UnicodeType,
    UniTuple,
    b1,
    bool_,
    boolean,
    byte,
    c8,
    c16,
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
    intc,
    intp,
    none,
    string,
    u1,
    u2,
    u4,
    u8,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    unicode_type,
    void,
    voidptr,
)

__all__ = [
    "Array",
    "BaseTuple",
    "Boolean",
    "CPointer",
    "Complex",
    "DictType",
    "Float",
    "Integer",
    "ListType",
    "NPDatetime",
    "NPTimedelta",
    "NoneType",
    "Number",
    "Optional",
    "Record",
    "Tuple",
    "UniTuple",
    "UnicodeType",
    "b1",
    "bool_",
    "boolean",
    "byte",
    "c8",
    "c16",
    "complex64",
    "complex128",
    "double",
    "f2",
    "f4",
    "f8",
    "float16",
    "float32",
    "float64",
    "i1",
    "i2",
    "i4",
    "i8",
    "int8",
    "int16",
    "int32",
    "int64",
    "intc",
    "intp",
    "none",
    "string",
    "u1",
    "u2",
    "u4",
    "u8",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintc",
    "uintp",
    "unicode_type",
    "void",
    "voidptr",
]
__all__ += list(C_TYPE_NAMES)  # char, ulonglong, size_t...: numba exports them too

float_ = float32
complex_ = complex128
signed_domain = frozenset([int8, int16, int32, int64])
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset([float32, float64])
complex_domain = frozenset([complex64, complex128])
number_domain = real_domain | integer_domain | complex_domain

if not hasattr(Type, "key"):
    Type.key = property(lambda t: t.name)  # Numba's Type.key (a scalar type's is its name)

if PLAIN_PYTHON:
    from numba.core.types import _plain

    __getattr__ = _plain.wrap_module(globals(), __name__)
else:
    _missing = fill_missing(globals(), __name__)
    # Numba's enum types: taipan.enums' user types, imported when first named (it registers
    # the enums' typing and lowering).
    _ENUM_TYPES = ("EnumMember", "IntEnumMember", "EnumClass", "IntEnumClass")

    def __getattr__(name):
        if name in _ENUM_TYPES:
            import taipan.enums

            return getattr(taipan.enums, name)
        return _missing(name)
