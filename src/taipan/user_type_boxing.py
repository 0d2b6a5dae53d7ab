"""Boxing and unboxing of user-defined types: the user's ``@unbox``/``@box`` functions (Numba's
``unbox(typ, obj, c)`` and ``box(typ, val, c)``, building IR that calls Python's C API through
``c.pyapi``) compiled into C functions the boxing code calls (src/bindings/UserTypeBoxing).

Each becomes the codegen of an intrinsic called by a ``cfunc``: ``int8 unbox(void *object,
T *out)`` (nonzero on error, with a Python exception set) and ``void *box(T *value)`` (a new
reference, or null on error). They run with the GIL held, from the dispatcher. Python's C API
functions are declared in the module and found in the process when it is loaded; a Python
object the box function uses (``serialize_object``) is kept alive here and reached through its
address, so these modules are valid in this process only (they are never cached).
"""

import threading

from taipan import types
from taipan.errors import TypingError
from taipan.python_api import PythonAPI
from taipan.user_type_registry import user_view

_lock = threading.RLock()  # guards the registrations of box and unbox functions


class NativeValue:
    """Numba's ``NativeValue``: what an ``unbox`` returns, a value and an ``i1`` error flag."""

    def __init__(self, value, is_error=None, cleanup=None):
        self.value = value
        self.is_error = is_error
        self.cleanup = cleanup


class _BoxingContext:
    """The ``c`` a box or unbox function receives (Numba's ``_BoxContext``/``_UnboxContext``):
    ``context``, ``builder``, ``pyapi``, and ``box``/``unbox`` of the number types."""

    def __init__(self, context, builder):
        self.context = context
        self.builder = builder
        self.pyapi = PythonAPI(context, builder)

    def unbox(self, typ, obj):
        from taipan.core import cgutils

        api, builder = self.pyapi, self.builder
        kind = typ.kind_name
        if kind == "Float":  # Numba's: PyNumber_Float, then PyFloat_AsDouble of it (unguarded:
            # PyFloat_AsDouble(NULL) replaces a failed __float__'s error by a TypeError)
            number = api.number_float(obj)
            value = api.float_as_double(number)
            api.decref(number)
            if typ.bitwidth != 64:
                value = builder.fptrunc(value, self.context.get_value_type(typ))
        elif kind == "Integer":  # Numba's: PyNumber_Long, converted where it gave an object
            value = self._converted(api.number_long(obj), api.long_as_longlong, api.longlong)
            if typ.bitwidth != 64:
                value = builder.trunc(value, self.context.get_value_type(typ))
        elif kind == "Boolean":
            truth = api.object_istrue(obj)
            value = builder.icmp_signed(">", truth, truth.type(0))
        else:
            return self._unbox_by_taipan(typ, obj)
        return NativeValue(value, is_error=cgutils.is_not_null(builder, api.err_occurred()))

    def _converted(self, number, convert, lltype):
        """``convert(number)`` where ``number`` (a new reference, released here) is not null;
        zero, with the Python exception of its failure left set, where it is."""
        from taipan.core import cgutils

        builder = self.builder
        result = cgutils.alloca_once_value(builder, lltype(0))
        with builder.if_then(cgutils.is_not_null(builder, number), likely=True):
            builder.store(convert(number), result)
            self.pyapi.decref(number)
        return builder.load(result)

    def _unbox_by_taipan(self, typ, obj):
        """``c.unbox`` of an array, a tuple, a user type...: taipan's own conversion, called at
        its address (these modules are process-specific already). An array is the Python
        object's memory (no block of taipan's), which the argument keeps alive."""
        from taipan import _core
        from taipan.core import cgutils

        ir, builder = self.pyapi._ir, self.builder
        storage = cgutils.alloca_once(builder, self.context.get_data_type(typ))
        unbox_entry, _ = _core.member_conversion_entries()
        entry_type = ir.FunctionType(ir.IntType(8), [self.pyapi.pyobj] * 3)
        function = builder.inttoptr(
            ir.Constant(ir.IntType(64), unbox_entry), entry_type.as_pointer()
        )
        failed = builder.call(
            function,
            [
                obj,
                _address(ir, builder, _core.type_address(typ)),
                builder.bitcast(storage, self.pyapi.pyobj),
            ],
        )
        value = _from_data(self.context, builder, typ, builder.load(storage))
        return NativeValue(value, is_error=builder.icmp_unsigned("!=", failed, failed.type(0)))

    def box(self, typ, val):
        api, builder = self.pyapi, self.builder
        kind = typ.kind_name
        if kind == "Float":
            if typ.bitwidth != 64:
                val = builder.fpext(val, api.double)
            return api.float_from_double(val)
        if kind == "Integer":
            if typ.bitwidth != 64:
                extend = builder.sext if typ.signed else builder.zext
                val = extend(val, api.longlong)
            return api.long_from_longlong(val)
        if kind == "Boolean":
            return api.bool_from_bool(val)
        return self._box_by_taipan(typ, val)

    def _box_by_taipan(self, typ, val):
        """``c.box`` of an array, a tuple, a user type...: taipan's own conversion, which takes
        over the references it is given. As in Numba, ``c.box`` steals the value's references:
        it increfs them first, because taipan releases the boxed struct's members after the
        user's box function (src/bindings/UserTypeBoxing.cpp)."""
        from taipan import _core
        from taipan.core import cgutils

        ir, builder = self.pyapi._ir, self.builder
        self.context.nrt.incref(builder, typ, val)
        storage = cgutils.alloca_once(builder, self.context.get_data_type(typ))
        builder.store(_to_data(self.context, builder, typ, val), storage)
        _, box_entry = _core.member_conversion_entries()
        entry_type = ir.FunctionType(self.pyapi.pyobj, [self.pyapi.pyobj] * 2)
        function = builder.inttoptr(ir.Constant(ir.IntType(64), box_entry), entry_type.as_pointer())
        return builder.call(
            function,
            [
                _address(ir, builder, _core.type_address(typ)),
                builder.bitcast(storage, self.pyapi.pyobj),
            ],
        )


def _address(ir, builder, address):
    return builder.inttoptr(ir.Constant(ir.IntType(64), address), ir.IntType(8).as_pointer())


def _from_data(context, builder, typ, value):
    """A value loaded from memory in its register form (a bool byte becomes an ``i1``)."""
    if typ.kind_name == "Boolean":
        return builder.icmp_unsigned("!=", value, value.type(0))
    return value


def _to_data(context, builder, typ, value):
    if typ.kind_name == "Boolean":
        return builder.zext(value, context.get_data_type(typ))
    return value


def _check_model(t):
    from taipan import _core

    if _core.user_type_layout(t) is None:
        raise TypingError(f"the type {t} has no data model: register one with @register_model")


def compile_conversions(t, unbox_function, box_function):
    """(unbox address, box address) of the C functions converting values of ``t``."""
    from taipan import extending
    from taipan.cfunc import cfunc

    _check_model(t)
    pointer = types.CPointer(t)
    addresses = []
    if unbox_function is None:
        addresses.append(0)
    else:

        @extending.intrinsic
        def unbox_into(typingctx, obj, out):
            def codegen(context, builder, signature, args):
                native = unbox_function(t, args[0], _BoxingContext(context, builder))
                builder.store(native.value, args[1])
                if native.is_error is None:
                    return context.get_constant(types.int8, 0)
                return builder.zext(native.is_error, context.get_value_type(types.int8))

            return types.int8(types.voidptr, pointer), codegen

        def unbox_entry(obj, out):
            return unbox_into(obj, out)

        addresses.append(cfunc(types.int8(types.voidptr, pointer))(unbox_entry).address)
    if box_function is None:
        addresses.append(0)
    else:

        @extending.intrinsic
        def box_from(typingctx, value):
            def codegen(context, builder, signature, args):
                native = builder.load(args[0])
                return box_function(t, native, _BoxingContext(context, builder))

            return types.voidptr(pointer), codegen

        def box_entry(value):
            return box_from(value)

        addresses.append(cfunc(types.voidptr(pointer))(box_entry).address)
    return tuple(addresses)


def constant_writer(t, value, lower_constant):
    """A function ``write(address)`` storing the constant ``lower_constant(context, builder,
    t, value)`` builds (Numba's lower_constant of a global) at ``address``, in memory form: a
    cfunc run once while compiling the function that reads the global."""
    import ctypes

    from taipan import extending
    from taipan.cfunc import cfunc

    _check_model(t)
    pointer = types.CPointer(t)

    @extending.intrinsic
    def store_constant(typingctx, out):
        def codegen(context, builder, signature, args):
            builder.store(lower_constant(context, builder, t, value), args[0])
            return context.get_constant(types.int8, 0)

        return types.int8(pointer), codegen

    def constant_entry(out):
        return store_constant(out)

    compiled = cfunc(types.int8(pointer))(constant_entry)
    entry = ctypes.CFUNCTYPE(ctypes.c_int8, ctypes.c_void_p)(compiled.address)

    def write(out):
        entry(out)
        return compiled  # (the closure keeps the compiled code alive while it runs)

    return write


# The registrations of box and unbox functions, by type class.


_boxers = {}  # type class -> box function
_unboxers = {}  # type class -> unbox function


def _registration(table):
    def register(type_class):
        def decorate(function):
            with _lock:
                table[type_class] = function
            return function

        return decorate

    return register


box = _registration(_boxers)
unbox = _registration(_unboxers)


def _find(table, t):
    with _lock:
        for cls in type(t).__mro__:
            if cls in table:
                return table[cls]
    return None


def boxing_hook(t):
    """(unbox address, box address) of the user type ``t`` for the compiler's boxing, 0 where
    none is registered; compiled at their first use."""
    t = user_view(t)
    return compile_conversions(t, _find(_unboxers, t), _find(_boxers, t))
