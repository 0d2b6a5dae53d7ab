"""ctypes foreign functions called from CPU-compiled code: the type of a function object whose
``argtypes`` and ``restype`` are set, with the address compiled code calls it through (the
global resolver asks for it in src/bindings/GlobalResolution.cpp)."""

import ctypes

from taipan import _core, types


def _number_types():
    # c_long, c_size_t... are aliases of the fixed-width classes on every platform; reading their
    # sizes keeps the table right where long is 32 bits.
    table = {
        ctypes.c_bool: types.boolean,
        ctypes.c_float: types.float32,
        ctypes.c_double: types.float64,
    }
    signed = (ctypes.c_byte, ctypes.c_short, ctypes.c_int, ctypes.c_long, ctypes.c_longlong)
    unsigned = (ctypes.c_ubyte, ctypes.c_ushort, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulonglong)
    for c_type in signed + (ctypes.c_ssize_t,):
        table.setdefault(c_type, getattr(types, f"int{8 * ctypes.sizeof(c_type)}"))
    for c_type in unsigned + (ctypes.c_size_t,):
        table.setdefault(c_type, getattr(types, f"uint{8 * ctypes.sizeof(c_type)}"))
    return table


_NUMBERS = _number_types()
_VOID_POINTERS = (ctypes.c_void_p, ctypes.c_char_p)


def _pointer_target(c_type):
    """The taipan type a ctypes pointer class points to; None for c_void_p-like pointers."""
    if c_type in _VOID_POINTERS:
        return None
    pointee = getattr(c_type, "_type_", None)
    if isinstance(pointee, type) and pointee in _NUMBERS:
        return _NUMBERS[pointee]
    raise TypeError(f"compiled code cannot pass the ctypes type {c_type.__name__}")


def _parameter_type(c_type):
    if c_type in _NUMBERS:
        return _NUMBERS[c_type]
    if c_type in _VOID_POINTERS or issubclass(c_type, ctypes._Pointer):
        return _core.pointer_type(_pointer_target(c_type))
    raise TypeError(f"compiled code cannot pass the ctypes type {c_type.__name__}")


def _result_type(c_type):
    if c_type is None:
        return types.none
    return _parameter_type(c_type)


def function_type(function):
    """The ExternalFunction type of a ctypes function object, called through its address by the
    C convention. Raises TypeError saying why when compiled code cannot call it."""
    name = getattr(function, "__name__", None) or "ctypes function"
    if function.argtypes is None:
        raise TypeError(
            f"is the ctypes function {name} without argtypes: set its argtypes and restype "
            "so that compiled code knows how to call it"
        )
    try:
        parameters = [_parameter_type(c_type) for c_type in function.argtypes]
        result = _result_type(function.restype)
    except TypeError as error:
        raise TypeError(f"is the ctypes function {name}, but {error}") from None
    address = ctypes.cast(function, ctypes.c_void_p).value
    return _core.external_function_type(name, parameters, result, True, address)
