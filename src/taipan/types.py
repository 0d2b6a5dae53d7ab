"""taipan's types, spelled as in Numba: ``float64``, ``int32``, ``UniTuple(int64, 3)``,
``float64[:, ::1]``; calling a type builds a signature: ``float64(float64, int32)``."""

from taipan import _core

Type = _core.Type
Signature = _core.Signature

_NAMES = [
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "intp",
    "uintp",
    "intc",
    "uintc",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "boolean",
    "none",
    "void",
    "i1",
    "i2",
    "i4",
    "i8",
    "u1",
    "u2",
    "u4",
    "u8",
    "f2",
    "f4",
    "f8",
    "c8",
    "c16",
    "b1",
]
for _name in _NAMES:
    globals()[_name] = _core.scalar_type(_name)
bool_ = boolean = globals()["boolean"]
byte = uint8 = globals()["uint8"]
double = float64 = globals()["float64"]
float_ = float32 = globals()["float32"]
int_ = int64 = globals()["int64"]


def UniTuple(dtype, count):
    """A tuple of ``count`` elements of type ``dtype``."""
    return _core.tuple_type([dtype] * count)


def Tuple(element_types):
    """A tuple whose elements have the given types."""
    return _core.tuple_type(list(element_types))


def CPointer(dtype):
    """A pointer to elements of ``dtype``, for parameters of foreign functions
    (``cuda.declare_device``); kernels pass an array's data to it."""
    return _core.pointer_type(dtype)


voidptr = _core.pointer_type(None)


def parse_signature(signature):
    """A Signature from a string such as ``'float64(float64, int32)'`` or a Signature."""
    if isinstance(signature, Signature):
        return signature
    if isinstance(signature, str):
        namespace = {name: value for name, value in globals().items() if not name.startswith("_")}
        try:
            result = eval(signature, {"__builtins__": {}}, namespace)
        except (NameError, SyntaxError, TypeError, AttributeError) as error:
            raise TypeError(f"invalid signature {signature!r}: {error}") from None
        return parse_signature(result)
    if isinstance(signature, tuple):
        return _core.signature(None, signature)
    if isinstance(signature, Type):
        raise TypeError(f"a signature needs argument types: write {signature}(...)")
    raise TypeError(f"invalid signature {signature!r}")
