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

from taipan import types
from taipan.errors import TypingError

_kept = []  # Python objects compiled code holds the address of (serialize_object)


class NativeValue:
    """Numba's ``NativeValue``: what an ``unbox`` returns, a value and an ``i1`` error flag."""

    def __init__(self, value, is_error=None, cleanup=None):
        self.value = value
        self.is_error = is_error
        self.cleanup = cleanup


class PythonAPI:
    """Numba's ``c.pyapi`` as far as box and unbox functions use it."""

    def __init__(self, context, builder):
        from llvmlite import ir

        self._ir = ir
        self.context = context
        self.builder = builder
        self.module = builder.module
        self.pyobj = ir.IntType(8).as_pointer()
        self.voidptr = self.pyobj
        self.cstring = self.pyobj
        self.long = ir.IntType(64)
        self.longlong = ir.IntType(64)
        self.ulonglong = ir.IntType(64)
        self.py_ssize_t = ir.IntType(64)
        self.double = ir.DoubleType()
        self.int = ir.IntType(32)

    def _function(self, name, result, arguments, var_arg=False):
        from taipan.core import cgutils

        function_type = self._ir.FunctionType(result, arguments, var_arg=var_arg)
        return cgutils.get_or_insert_function(self.module, function_type, name)

    def _call(self, name, result, arguments, values):
        return self.builder.call(self._function(name, result, arguments), list(values))

    # References and errors.

    def incref(self, obj):
        self._call("Py_IncRef", self._ir.VoidType(), [self.pyobj], [obj])

    def decref(self, obj):
        self._call("Py_DecRef", self._ir.VoidType(), [self.pyobj], [obj])

    def get_null_object(self):
        return self._ir.Constant(self.pyobj, None)

    def err_occurred(self):
        return self._call("PyErr_Occurred", self.pyobj, [], [])

    def err_clear(self):
        self._call("PyErr_Clear", self._ir.VoidType(), [], [])

    def _exception_class(self, exception):
        name = exception if isinstance(exception, str) else f"PyExc_{exception.__name__}"
        variable = self.module.globals.get(name)
        if variable is None:
            variable = self._ir.GlobalVariable(self.module, self.pyobj, name)
        return self.builder.load(variable)

    def err_set_string(self, exception, message):
        text = self.context.insert_const_string(self.module, message)
        self._call(
            "PyErr_SetString",
            self._ir.VoidType(),
            [self.pyobj, self.cstring],
            [self._exception_class(exception), text],
        )

    def err_set_object(self, exception, obj):
        self._call(
            "PyErr_SetObject",
            self._ir.VoidType(),
            [self.pyobj, self.pyobj],
            [self._exception_class(exception), obj],
        )

    # Objects.

    def object_getattr_string(self, obj, attr):
        name = self.context.insert_const_string(self.module, attr)
        return self._call(
            "PyObject_GetAttrString", self.pyobj, [self.pyobj, self.cstring], [obj, name]
        )

    def object_getattr(self, obj, attr):
        return self._call("PyObject_GetAttr", self.pyobj, [self.pyobj, self.pyobj], [obj, attr])

    def object_setattr_string(self, obj, attr, value):
        name = self.context.insert_const_string(self.module, attr)
        return self._call(
            "PyObject_SetAttrString",
            self.int,
            [self.pyobj, self.cstring, self.pyobj],
            [obj, name, value],
        )

    def object_istrue(self, obj):
        return self._call("PyObject_IsTrue", self.int, [self.pyobj], [obj])

    def call_function_objargs(self, callee, objargs):
        function = self._function(
            "PyObject_CallFunctionObjArgs", self.pyobj, [self.pyobj], var_arg=True
        )
        return self.builder.call(function, [callee, *objargs, self.get_null_object()])

    def call(self, callee, args=None, kws=None):
        null = self.get_null_object()
        return self._call(
            "PyObject_Call",
            self.pyobj,
            [self.pyobj, self.pyobj, self.pyobj],
            [callee, args if args is not None else null, kws if kws is not None else null],
        )

    def tuple_pack(self, items):
        function = self._function("PyTuple_Pack", self.pyobj, [self.py_ssize_t], var_arg=True)
        return self.builder.call(function, [self.py_ssize_t(len(items)), *items])

    def tuple_getitem(self, tup, index):
        return self._call(
            "PyTuple_GetItem",
            self.pyobj,
            [self.pyobj, self.py_ssize_t],
            [tup, self.py_ssize_t(index)],
        )

    def serialize_object(self, obj):
        """The address of ``obj``, kept alive here (Numba's pickles it into the module)."""
        _kept.append(obj)
        self.context.process_specific = (
            "a box or unbox function holds the address of a Python object"
        )
        return self._ir.Constant(self.long, id(obj)).inttoptr(self.pyobj)

    def unserialize(self, structaddr):
        """A new reference to the object ``serialize_object`` gave."""
        self.incref(structaddr)
        return structaddr

    # Strings and printing.

    def object_str(self, obj):
        return self._call("PyObject_Str", self.pyobj, [self.pyobj], [obj])

    def string_as_string(self, strobj):
        return self._call("PyUnicode_AsUTF8", self.cstring, [self.pyobj], [strobj])

    def sys_write_stdout(self, fmt, *args):
        function = self._function("PySys_WriteStdout", self._ir.VoidType(), [self.cstring], True)
        self.builder.call(function, [fmt, *args])

    def sys_format_stdout(self, fmt, *args):
        """``PySys_FormatStdout``: as ``sys_write_stdout``, without its 1000-byte limit."""
        function = self._function("PySys_FormatStdout", self._ir.VoidType(), [self.cstring], True)
        self.builder.call(function, [fmt, *args])

    def print_object(self, obj):
        """Writes ``str(obj)`` to ``sys.stdout`` (Numba's ``print_object``), however long."""
        strobj = self.object_str(obj)
        fmt = self.context.insert_const_string(self.module, "%s")
        self.sys_format_stdout(fmt, self.string_as_string(strobj))
        self.decref(strobj)

    # The GIL, for code that may run without it (Numba's gil_ensure/gil_release).

    def gil_ensure(self):
        return self._call("PyGILState_Ensure", self.int, [], [])

    def gil_release(self, state):
        self._call("PyGILState_Release", self._ir.VoidType(), [self.int], [state])

    # Numbers.

    def number_float(self, obj):
        return self._call("PyNumber_Float", self.pyobj, [self.pyobj], [obj])

    def number_long(self, obj):
        return self._call("PyNumber_Long", self.pyobj, [self.pyobj], [obj])

    def float_as_double(self, fobj):
        return self._call("PyFloat_AsDouble", self.double, [self.pyobj], [fobj])

    def float_from_double(self, value):
        return self._call("PyFloat_FromDouble", self.pyobj, [self.double], [value])

    def long_as_longlong(self, obj):
        return self._call("PyLong_AsLongLong", self.longlong, [self.pyobj], [obj])

    def long_from_longlong(self, value):
        return self._call("PyLong_FromLongLong", self.pyobj, [self.longlong], [value])

    long_from_long = long_from_ssize_t = long_from_longlong
    long_as_long = long_as_ssize_t = long_as_longlong

    def bool_from_bool(self, value):
        wide = self.builder.zext(value, self.long)
        return self._call("PyBool_FromLong", self.pyobj, [self.long], [wide])

    def string_from_string(self, string):
        return self._call("PyUnicode_FromString", self.pyobj, [self.cstring], [string])


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
