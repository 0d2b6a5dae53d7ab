"""Numba's ``pyapi`` (``c.pyapi`` in box and unbox functions, ``context.get_python_api`` in
intrinsics): LLVM IR calling Python's C API, valid with the GIL held, in this process only."""

_kept = []  # Python objects compiled code holds the address of (serialize_object)


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

    # Calling compiled code.

    def call_jit_code(self, func, sig, args):
        """Numba's ``call_jit_code``: ``func`` (a Python function) compiled for ``sig`` and
        called with ``args``; gives ``(is_error, result)``. Where it raised, ``is_error`` is
        true and its exception is the Python error set (which a box or unbox function then
        reports by failing)."""
        from taipan import _core
        from taipan.intrinsic_calls import compiled_address

        ir, builder = self._ir, self.builder
        address, parameters, result_type = compiled_address(func, sig, self.context._types)
        self.context._keep.append(func)
        entry = builder.inttoptr(ir.Constant(ir.IntType(64), address), self.voidptr)
        # The entry noted while it runs: its exception stays pending for this caller
        # (runtime/Cfuncs.h), instead of being printed as a cfunc's.
        previous = self._call("taipan_first_class_enter", self.voidptr, [self.voidptr], [entry])
        callee = builder.bitcast(entry, ir.FunctionType(result_type, parameters).as_pointer())
        result = builder.call(callee, list(args))
        failed = self._call("taipan_first_class_leave", self.int, [self.voidptr], [previous])
        is_error = builder.icmp_unsigned("!=", failed, failed.type(0))
        with builder.if_then(is_error, likely=False):
            raise_type = ir.FunctionType(ir.VoidType(), [])
            raise_pending = builder.inttoptr(
                ir.Constant(ir.IntType(64), _core.jit_code_exception_entry()),
                raise_type.as_pointer(),
            )
            builder.call(raise_pending, [])
        if sig.return_type.kind_name == "NoneType":
            result = self.context.get_dummy_value()
        return is_error, result

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
