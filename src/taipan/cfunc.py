"""``@cfunc(signature)``: a function compiled to a native C entry point that C code calls
directly (SciPy's ``LowLevelCallable``, ctypes, cffi), and ``carray``/``farray``, which view
memory behind a pointer as an array inside it."""

from taipan import _core
from taipan.wrappers import adapt_to_numpy_once, wrap_python_function

# ctypes is imported on first use: `import taipan` stays free of it.
_CTYPE_NAMES = {
    "bool": "c_bool",
    "int8": "c_int8",
    "int16": "c_int16",
    "int32": "c_int32",
    "int64": "c_int64",
    "uint8": "c_uint8",
    "uint16": "c_uint16",
    "uint32": "c_uint32",
    "uint64": "c_uint64",
    "float32": "c_float",
    "float64": "c_double",
}
_C_NAMES = {
    "bool": "bool",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float32": "float",
    "float64": "double",
}


def _ctype(t):
    """The ctypes type of a C signature's argument or result type (None: void)."""
    import ctypes

    if t is None or t.kind_name == "NoneType":
        return None
    if t.kind_name == "Pointer":
        return ctypes.c_void_p if t.dtype is None else ctypes.POINTER(_ctype(t.dtype))
    try:
        return getattr(ctypes, _CTYPE_NAMES[t.name])
    except KeyError:
        from taipan.errors import TypingError

        raise TypingError(f"a cfunc's signature takes numbers and pointers, not {t}") from None


def _c_name(t):
    """The C spelling of a type (for cffi)."""
    if t is None or t.kind_name == "NoneType":
        return "void"
    if t.kind_name == "Pointer":
        return "void *" if t.dtype is None else _c_name(t.dtype) + " *"
    return _C_NAMES[t.name]


class CFunc:
    """A compiled C-callable function: ``address``, ``ctypes``, ``cffi``, ``native_name``, and
    calls from Python through ctypes."""

    def __init__(self, py_func, signature, options):
        from taipan.types import parse_signature

        wrap_python_function(self, py_func)
        parsed = parse_signature(signature)
        if parsed.return_type is None:
            from taipan.errors import TypingError

            raise TypingError(
                f"@cfunc needs a return type in its signature (e.g. 'float64(float64)'), "
                f"not {signature!r}"
            )
        self.argument_types = tuple(parsed.args)
        self.return_type = parsed.return_type
        self.targetoptions = dict(options)
        self._ctypes = None
        self._compiled = None
        self._carried = None

    def _compile(self):
        if self._compiled is None:
            from taipan.frontend import read_function

            source = read_function(self.py_func, self.targetoptions)
            adapt_to_numpy_once()
            compiled = self._load_carried(source)
            if compiled is None:
                compiled = _core.compile(
                    source,
                    list(self.argument_types),
                    self.return_type,
                    keep_object=True,
                    cfunc=True,
                )
            self._compiled = compiled
        return self._compiled

    def _load_carried(self, source):
        from taipan.serialize import load_carried

        carried, self._carried = self._carried, None
        return load_carried(
            carried, source, self.argument_types, return_type=self.return_type, cfunc=True
        )

    @property
    def address(self):
        """The C function's address."""
        return self._compile().address

    @property
    def _pyfunc(self):
        """Numba's spelling of ``py_func``."""
        return self.py_func

    @property
    def _wrapper_address(self):
        """Numba's spelling of ``address``."""
        return self.address

    @property
    def _sig(self):
        """Numba's spelling of the signature."""
        return _core.signature(self.return_type, list(self.argument_types))

    def __wrapper_address__(self):
        """The WrapperAddressProtocol (taipan.experimental.function_type): compiled code takes
        a cfunc as a first-class function value, called through this address."""
        return self.address

    def signature(self):
        """The WrapperAddressProtocol's signature."""
        return self._sig

    @property
    def native_name(self):
        """The C function's symbol in taipan's JIT."""
        return self._compile().entry_name

    @property
    def ctypes(self):
        """A ctypes function pointer to the C function (``scipy.LowLevelCallable(f.ctypes)``)."""
        if self._ctypes is None:
            import ctypes

            prototype = ctypes.CFUNCTYPE(
                _ctype(self.return_type), *[_ctype(t) for t in self.argument_types]
            )
            self._ctypes = prototype(self.address)
        return self._ctypes

    @property
    def cffi(self):
        """A cffi function pointer to the C function (needs the cffi package)."""
        import cffi

        ffi = cffi.FFI()
        arguments = ", ".join(_c_name(t) for t in self.argument_types) or "void"
        return ffi.cast(f"{_c_name(self.return_type)} (*)({arguments})", self.address)

    def inspect_llvm(self):
        """The optimised LLVM IR of the function (without its C entry)."""
        from taipan.frontend import read_function

        source = read_function(self.py_func, self.targetoptions)
        return _core.inspect(source, list(self.argument_types), "llvm")

    def __call__(self, *args):
        from taipan.errors import TypingError

        try:
            function = self.ctypes
        except TypingError:
            # Arrays or None in the signature, which C cannot spell: the Python function, as
            # Numba calls every cfunc from Python (compiled code calls the C entry).
            return self.py_func(*args)
        return function(*args)

    def __reduce__(self):
        # By reference when its module's name finds it, else by value with its object code.
        from taipan.serialize import reduce_cfunc

        return reduce_cfunc(self)

    def __setstate__(self, state):
        from taipan.serialize import is_set_up, restore_function

        if is_set_up(self):
            return
        type(self).__init__(
            self,
            restore_function(state),
            state["return_type"](*state["argument_types"]),
            state["options"],
        )
        self._carried = state.get("compiled")

    def __repr__(self):
        return f"<taipan.CFunc {self.__qualname__}>"


def cfunc(sig, locals=None, cache=False, pipeline_class=None, **options):
    """Numba's ``@cfunc(signature)``: compiles the function at once to a C function taking and
    returning the signature's types (numbers, booleans, ``CPointer(dtype)``, ``voidptr``).
    An exception raised inside is printed as unraisable and the function returns zero."""
    if locals:
        from taipan.errors import UnsupportedError

        raise UnsupportedError("@cfunc(locals=...) is not supported")

    def decorate(py_func):
        compiled = CFunc(py_func, sig, dict(options, nopython=True))
        compiled._compile()
        return compiled

    return decorate


def _as_pointer(ptr):
    import ctypes

    if isinstance(ptr, int):
        return ptr
    return ctypes.cast(ptr, ctypes.c_void_p).value


def carray(ptr, shape, dtype=None):
    """A C-ordered array view of the memory at ``ptr`` (a ctypes pointer or an address) with
    ``shape``; in compiled code (a cfunc's ``CPointer`` argument), the same view without a
    copy."""
    return _array_view(ptr, shape, dtype, "C")


def farray(ptr, shape, dtype=None):
    """The Fortran-ordered counterpart of ``carray``."""
    return _array_view(ptr, shape, dtype, "F")


def _array_view(ptr, shape, dtype, order):
    import ctypes

    import numpy as np

    if dtype is None:
        pointee = getattr(getattr(ptr, "_type_", None), "__name__", None)
        if pointee is None:
            raise TypeError("carray/farray of a void pointer needs its dtype")
        dtype = np.ctypeslib.as_array(ptr, shape=(1,)).dtype
    dtype = np.dtype(getattr(dtype, "name", dtype))
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    count = int(np.prod(shape)) if shape else 1
    buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(_as_pointer(ptr))
    return np.frombuffer(buffer, dtype=dtype).reshape(shape, order=order)


for _function in (cfunc, carray, farray):
    _function.__module__ = "taipan"

__all__ = ["CFunc", "carray", "cfunc", "farray"]
