"""Numba's first-class function types (``numba.experimental.function_type`` and
``numba.core.types.function_type``): ``FunctionType(signature)``, the type of a function known
only at run time, and the ``WrapperAddressProtocol`` through which any object offers the address
of a C function and its signature.

A function value is two pointers: the address of a function called by the C convention and the
Python object it came from. cfuncs, ctypes and cffi function pointers and protocol objects give
their address as they are; a jitted function is compiled to a C entry for the signature (a
cfunc of its Python function, made once per signature and kept on the dispatcher) whose
exceptions propagate to the compiled code calling it through the value (runtime/Cfuncs.h);
a user's cfunc's are printed as unraisable and the call returns zero, as in Numba.
The bindings (src/bindings/FirstClassFunctions.cpp) call the functions below to type, unbox and
box function values and to resolve protocol objects and cfuncs used as globals."""

import ctypes
import threading
import weakref

from taipan import _core
from taipan.types import FunctionType, WrapperAddressProtocol

__all__ = ["FunctionType", "WrapperAddressProtocol", "get_cython_function_address"]


def get_cython_function_address(module_name, function_name):
    """The address of the C function ``function_name`` a Cython module exports in its
    ``__pyx_capi__`` (``scipy.special.cython_special``'s functions, for instance)."""
    import importlib

    module = importlib.import_module(module_name)
    capi = getattr(module, "__pyx_capi__", None)
    if capi is None:
        raise ValueError(f"module {module_name!r} exports no C functions (no __pyx_capi__)")
    try:
        capsule = capi[function_name]
    except KeyError:
        # Numba's wording (its _helperlib.c), which its tests compare whole
        raise ValueError(
            f"No function {function_name!r} found in __pyx_capi__ of {module_name!r}"
        ) from None
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


# The C names cffi gives its primitive types, as taipan's types.
_CFFI_NAMES = {
    "_Bool": "boolean",
    "float": "float32",
    "double": "float64",
    "int8_t": "int8",
    "int16_t": "int16",
    "int32_t": "int32",
    "int64_t": "int64",
    "uint8_t": "uint8",
    "uint16_t": "uint16",
    "uint32_t": "uint32",
    "uint64_t": "uint64",
}


def _is_dispatcher(value):
    return isinstance(value, _core.DispatcherBase)


def _is_ctypes_function(value):
    return isinstance(value, ctypes._CFuncPtr)


def _is_cffi_function(value):
    if type(value).__module__ != "_cffi_backend":
        return False
    import cffi

    return cffi.FFI().typeof(value).kind == "function"


def _cffi_type(ffi, c_type):
    from taipan import types

    if c_type.kind == "void":
        return types.none
    if c_type.kind == "pointer":
        return types.voidptr
    name = c_type.cname
    if name in _CFFI_NAMES:
        return getattr(types, _CFFI_NAMES[name])
    if c_type.kind == "primitive" and c_type.cname in ("char", "short", "int", "long", "long long"):
        return getattr(types, f"int{8 * ffi.sizeof(c_type)}")
    if c_type.kind == "primitive" and c_type.cname.startswith("unsigned "):
        return getattr(types, f"uint{8 * ffi.sizeof(c_type)}")
    raise TypeError(f"compiled code cannot pass the C type {name}")


def _signature_of(value):
    """The Signature of a function object compiled code can call by the C convention."""
    from taipan.types import parse_signature

    if hasattr(type(value), "__wrapper_address__"):
        return parse_signature(value.signature())
    if _is_ctypes_function(value):
        from taipan.ctypes_functions import _parameter_type, _result_type

        if value.argtypes is None:
            raise TypeError("a ctypes function without argtypes has no signature")
        return _core.signature(
            _result_type(value.restype), [_parameter_type(t) for t in value.argtypes]
        )
    if _is_cffi_function(value):
        import cffi

        ffi = cffi.FFI()
        kind = ffi.typeof(value)
        return _core.signature(
            _cffi_type(ffi, kind.result), [_cffi_type(ffi, t) for t in kind.args]
        )
    raise TypeError(f"{type(value).__name__} is not a function object")


def typeof_object(value):
    """The FunctionType of a protocol object, cfunc, ctypes or cffi function pointer passed as
    an argument; None for other objects (the bindings then try other kinds)."""
    try:
        signature = _signature_of(value)
    except TypeError:
        return None
    return _core.first_class_function_type(signature.return_type, list(signature.args))


def describe_unsupported(value):
    """Why a function object passed as an argument has no type (the argument error's detail),
    or "" when it is not a function object."""
    try:
        _signature_of(value)
    except Exception as error:  # noqa: BLE001 - any failure of the object's protocol is shown
        return (
            f"{type(value).__name__}, a function object whose signature compiled code cannot "
            f"use: {error}"
        )
    return ""


def _function_signature(function_type):
    return function_type.signature


# The Python objects function values came from, by the address compiled code calls: a value
# compiled code made (a global cfunc or protocol object, a jitted function's entry) carries no
# object, and boxing it gives back the object it came from while that object lives, as Numba's
# values carry theirs. When several live objects share an address and signature (a protocol
# object wrapping a cfunc), which one a value came from is unknown: it boxes as a plain
# FirstClassFunction. Weak: the registry keeps nothing alive.
_objects_by_address = {}
_objects_lock = threading.Lock()


def _remember_object(address, value, function_type):
    try:
        reference = weakref.ref(value)
    except TypeError:
        return  # an object without weak references (a ctypes function) is not remembered
    with _objects_lock:
        references = _objects_by_address.setdefault((address, function_type), [])
        references[:] = [known for known in references if known() is not None]
        if all(known() is not value for known in references):
            references.append(reference)


def _remembered_object(address, function_type):
    with _objects_lock:
        references = _objects_by_address.get((address, function_type), [])
        alive = [value for value in (known() for known in references) if value is not None]
    return alive[0] if len(alive) == 1 else None


def dispatcher_entry(dispatcher, function_type):
    """The cfunc of a jitted function's Python function compiled for ``function_type``'s
    signature, made once and kept on the dispatcher."""
    from taipan.cfunc import CFunc
    from taipan.errors import TypingError

    entries = dispatcher.__dict__.setdefault("_first_class_entries", {})
    entry = entries.get(function_type)
    if entry is None:
        options = dict(dispatcher.targetoptions, nopython=True)
        options.pop("cache", None)
        entry = CFunc(dispatcher.py_func, _function_signature(function_type), options)
        try:
            entry._compile()
        except TypingError as error:
            raise TypingError(
                f"the jitted function {dispatcher.__qualname__} does not compile as a "
                f"first-class function of type {function_type}: {error}"
            ) from None
        entries[function_type] = entry
        _remember_object(entry.address, dispatcher, function_type)
    return entry


def entry_type(dispatcher, function_type):
    """A jitted function used as a value of ``function_type`` in compiled code: the foreign
    function type of its C entry (its address, the C convention)."""
    entry = dispatcher_entry(dispatcher, function_type)
    signature = _function_signature(function_type)
    return _core.external_function_type(
        dispatcher.__qualname__,
        list(signature.args),
        signature.return_type,
        True,
        entry.address,
        own_entry=True,
    )


def closed_function_type(dispatcher):
    """The FunctionType of a dispatcher whose compilation is closed, as Numba takes it: explicit
    signatures, exactly one; None otherwise."""
    overloads = getattr(dispatcher, "_overloads", None)
    if not getattr(dispatcher, "_explicit", False) or overloads is None or len(overloads) != 1:
        return None
    ((arguments, compiled),) = overloads.items()
    try:
        return _core.first_class_function_type(compiled.return_type, list(arguments))
    except TypeError:
        return None  # a signature of values a C function cannot take


def wrapper_address(value, function_type):
    """The address of the C function compiled code calls for ``value`` as a function of
    ``function_type`` (unboxing an argument): Numba's ``_get_wrapper_address``."""
    if _is_dispatcher(value):
        return dispatcher_entry(value, function_type).address
    if hasattr(type(value), "__wrapper_address__"):
        address = value.__wrapper_address__()
        if not isinstance(address, int):
            raise TypeError(
                f"wrapper address must be integer, got {type(address).__name__} instance"
            )
    elif _is_ctypes_function(value):
        address = ctypes.cast(value, ctypes.c_void_p).value or 0
    elif _is_cffi_function(value):
        import cffi

        address = int(cffi.FFI().cast("uintptr_t", value))
    else:
        raise TypeError(f"a {type(value).__name__} is not a function of type {function_type}")
    if address <= 0:
        raise ValueError(
            f"wrapper address of {type(value)} instance must be a positive integer but got "
            f"{address} [sig={function_type}]"
        )
    _remember_object(address, value, function_type)
    return address


def external_function(value):
    """A protocol object or cfunc used as a global of compiled code: the foreign function type
    of its C function (its address, the C convention), called directly."""
    signature = _signature_of(value)
    address = value.__wrapper_address__()
    if not isinstance(address, int) or address <= 0:
        raise TypeError(
            f"its __wrapper_address__() gave {address!r}, not the address of a function "
            "(a positive int)"
        )
    _remember_object(address, value, FunctionType(signature))
    name = getattr(value, "__name__", None) or type(value).__name__
    return _core.external_function_type(
        name, list(signature.args), signature.return_type, True, address
    )


class FirstClassFunction(WrapperAddressProtocol):
    """A function value compiled code made from a C function (a global cfunc, ctypes function
    or protocol object, a jitted function's C entry) and returned: its address and signature,
    callable from Python through ctypes."""

    def __init__(self, address, function_type):
        self._address = address
        self._signature = _function_signature(function_type)
        self._ctypes = None

    def __wrapper_address__(self):
        return self._address

    def signature(self):
        return self._signature

    def __call__(self, *args):
        if self._ctypes is None:
            from taipan.cfunc import _ctype

            prototype = ctypes.CFUNCTYPE(
                _ctype(self._signature.return_type), *[_ctype(t) for t in self._signature.args]
            )
            self._ctypes = prototype(self._address)
        return self._ctypes(*args)

    def __repr__(self):
        return f"<first-class function {self._signature} at {self._address:#x}>"


def from_address(address, function_type):
    """Boxes a function value compiled code made (no Python object came with it): the object
    whose function it is while that lives, else a callable FirstClassFunction."""
    known = _remembered_object(address, function_type)
    if known is not None:
        return known
    return FirstClassFunction(address, function_type)
