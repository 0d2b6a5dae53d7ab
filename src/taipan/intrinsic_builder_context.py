"""The ``context`` an intrinsic's ``codegen(context, builder, signature, args)`` receives: the
part of Numba's target context that extensions use (types, constants, casts, tuples, struct
helpers, calling a function taipan compiles), over taipan's data model
(``intrinsic_builder.LlvmTypes``)."""

import math

from taipan.errors import TypingError


class IntrinsicContext:
    """Numba's ``BaseContext`` as far as intrinsics use it, for one intrinsic's module."""

    address_size = 64
    # Reference counting is on: a codegen increfs what it hands on (impl_ret_borrowed). In
    # kernels the runtime's calls are no-ops (device arrays are borrowed).
    enable_nrt = True
    enable_debuginfo = False

    def __init__(self, ir, types, module):
        self._ir = ir
        self._types = types
        self._module = module
        self.nrt = ReferenceCounting(ir)
        # Why the module holds addresses valid in this process only ('' when none).
        self.process_specific = ""
        self._keep = []  # the compiled functions the module calls by address
        # LLVM IR modules of the device functions it calls in a CUDA kernel, linked with it.
        self.linked_modules = []

    # Types.

    def get_value_type(self, ty):
        """The LLVM type of a value of ``ty`` in registers (a bool is ``i1``)."""
        return self._types.value(ty)

    def get_data_type(self, ty):
        """The LLVM type of ``ty`` in memory and in arrays (a bool is ``i8``)."""
        return self._types.data(ty)

    get_argument_type = get_value_type
    get_return_type = get_value_type

    def get_dummy_type(self):
        return self._ir.IntType(8).as_pointer()

    def get_dummy_value(self):
        return self._ir.Constant(self.get_dummy_type(), None)

    def get_abi_sizeof(self, lltype):
        """The size in bytes of an LLVM type, as x86-64 and NVPTX lay it out."""
        return _abi_size(self._ir, lltype)

    def get_abi_alignment(self, lltype):
        return _abi_alignment(self._ir, lltype)

    # Constants.

    def get_constant(self, ty, val):
        """The constant ``val`` of the number type ``ty``."""
        ir = self._ir
        kind = ty.kind_name
        lltype = self.get_value_type(ty)
        if kind == "Boolean":
            return ir.Constant(lltype, int(bool(val)))
        if kind in ("Integer", "NPDatetime", "NPTimedelta"):
            bits = ty.bitwidth if kind == "Integer" else 64
            value = int(val) & ((1 << bits) - 1)
            if value >= 1 << (bits - 1):
                value -= 1 << bits
            return ir.Constant(lltype, value)
        if kind == "Float":
            return ir.Constant(lltype, float(val))
        if kind == "Complex":
            val = complex(val)
            part = lltype.elements[0]
            return ir.Constant(lltype, [ir.Constant(part, val.real), ir.Constant(part, val.imag)])
        if kind == "NoneType":
            return ir.Constant(lltype, None)
        raise NotImplementedError(f"get_constant of the type {ty}")

    def get_constant_generic(self, builder, ty, val):
        """A constant of ``ty``: numbers, and tuples of them (``val`` a tuple)."""
        if ty.kind_name == "Tuple":
            elements = [
                self._to_data(self.get_constant_generic(builder, t, v), t)
                for t, v in zip(ty.types, val)
            ]
            return self._ir.Constant(self.get_value_type(ty), elements)
        return self.get_constant(ty, val)

    def get_constant_null(self, ty):
        return self._ir.Constant(self.get_value_type(ty), None)

    def get_constant_undef(self, ty):
        return self._ir.Constant(self.get_value_type(ty), self._ir.Undefined)

    def insert_const_string(self, module, string):
        """A pointer (``i8*``) to a constant NUL-terminated copy of ``string``."""
        from taipan.core import cgutils

        text = cgutils.make_bytearray(string.encode("utf-8") + b"\0")
        data = cgutils.global_constant(module, ".const." + _symbol_part(string), text)
        return data.bitcast(self._ir.IntType(8).as_pointer())

    # Conversions.

    def is_true(self, builder, ty, val):
        """An ``i1`` that is true when the number ``val`` of type ``ty`` is."""
        return self.cast(builder, val, ty, _boolean())

    def cast(self, builder, val, fromty, toty):
        """``val`` of number type ``fromty`` converted to ``toty`` as Python and NumPy convert
        (ints wrap, floats truncate toward zero, a number is true when non-zero)."""
        if fromty == toty:
            return val
        ir = self._ir
        source, target = fromty.kind_name, toty.kind_name
        lltype = self.get_value_type(toty)
        if target == "Boolean":
            if source == "Complex":
                real, imag = builder.extract_value(val, 0), builder.extract_value(val, 1)
                zero = ir.Constant(real.type, 0)
                return builder.or_(
                    builder.fcmp_unordered("!=", real, zero),
                    builder.fcmp_unordered("!=", imag, zero),
                )
            if source == "Float":
                return builder.fcmp_unordered("!=", val, ir.Constant(val.type, 0))
            if source in ("Integer", "Boolean"):
                return builder.icmp_unsigned("!=", val, ir.Constant(val.type, 0))
        if target == "Integer":
            if source == "Boolean":
                return builder.zext(val, lltype)
            if source == "Integer":
                if lltype.width == val.type.width:
                    return val
                if lltype.width < val.type.width:
                    return builder.trunc(val, lltype)
                return builder.sext(val, lltype) if fromty.signed else builder.zext(val, lltype)
            if source == "Float":
                return builder.fptosi(val, lltype) if toty.signed else builder.fptoui(val, lltype)
        if target == "Float":
            if source == "Boolean":
                return builder.uitofp(val, lltype)
            if source == "Integer":
                return builder.sitofp(val, lltype) if fromty.signed else builder.uitofp(val, lltype)
            if source == "Float":
                if fromty.bitwidth < toty.bitwidth:
                    return builder.fpext(val, lltype)
                return builder.fptrunc(val, lltype)
        if target == "Complex":
            part_type = _float_type(toty.bitwidth // 2)
            if source == "Complex":
                real = self.cast(
                    builder,
                    builder.extract_value(val, 0),
                    _float_type(fromty.bitwidth // 2),
                    part_type,
                )
                imag = self.cast(
                    builder,
                    builder.extract_value(val, 1),
                    _float_type(fromty.bitwidth // 2),
                    part_type,
                )
            elif source in ("Boolean", "Integer", "Float"):
                real = self.cast(builder, val, fromty, part_type)
                imag = ir.Constant(real.type, 0)
            else:
                real = None
            if real is not None:
                value = builder.insert_value(ir.Constant(lltype, ir.Undefined), real, 0)
                return builder.insert_value(value, imag, 1)
        raise NotImplementedError(f"cast from {fromty} to {toty} in an intrinsic")

    def _to_data(self, value, ty):
        """A value in registers in its memory form (a bool becomes a byte)."""
        if ty.kind_name == "Boolean" and isinstance(value, self._ir.Constant):
            return self._ir.Constant(self._ir.IntType(8), int(bool(value.constant)))
        return value

    # Tuples and structs.

    def make_tuple(self, builder, typ, values):
        """The tuple of type ``typ`` holding ``values`` (values in registers)."""
        ir = self._ir
        tup = ir.Constant(self.get_value_type(typ), ir.Undefined)
        for index, (value, element) in enumerate(zip(values, typ.types)):
            if element.kind_name == "Boolean" and value.type == ir.IntType(1):
                value = builder.zext(value, ir.IntType(8))
            tup = builder.insert_value(tup, value, index)
        return tup

    def make_helper(self, builder, typ, value=None, ref=None):
        """Numba's struct proxy of a value of ``typ`` (arrays, complex numbers)."""
        from taipan.core import cgutils

        return cgutils.create_struct_proxy(typ)(self, builder, value=value, ref=ref)

    def make_array(self, typ):
        """The struct proxy class of arrays of type ``typ`` (fields meminfo, parent, nitems,
        itemsize, data, shape, strides, as in Numba)."""
        from taipan.core import cgutils

        return cgutils.create_struct_proxy(typ)

    def make_complex(self, builder, typ, value=None):
        return self.make_helper(builder, typ, value=value)

    def get_python_api(self, builder):
        """Numba's ``context.get_python_api(builder)``: calls of Python's C API (printing,
        objects), valid with the GIL held and in this process only; not in kernels."""
        from taipan.compile_platform import compiling_platform
        from taipan.errors import TypingError
        from taipan.python_api import PythonAPI

        if compiling_platform() == "cuda":
            raise TypingError("context.get_python_api: kernels cannot call Python's C API")
        self.process_specific = self.process_specific or (
            "an intrinsic calls Python's C API (context.get_python_api)"
        )
        return PythonAPI(self, builder)

    # Calling code taipan compiles.

    def get_function(self, fn, sig):
        """``fn`` (a Python function, a jitted one or a builtin such as ``math.atan``) compiled
        by taipan for the signature ``sig``, as ``impl(builder, args)`` that calls it."""
        from taipan.intrinsic_calls import function_for

        return self._caller(function_for(fn, len(sig.args)), sig, getattr(fn, "__name__", fn))

    def compile_internal(self, builder, impl, sig, args, locals=None):
        """Compiles the Python function ``impl`` for ``sig`` and calls it with ``args``."""
        return self._caller(impl, sig, getattr(impl, "__name__", impl))(builder, args)

    def _caller(self, pyfunc, sig, what):
        from taipan.compile_platform import compiling_platform
        from taipan.intrinsic_calls import compiled_address

        if compiling_platform() == "cuda":
            return self._device_caller(pyfunc, sig)
        ir = self._ir
        address, parameter_types, result_type = compiled_address(pyfunc, sig, self._types)
        self._keep.append(pyfunc)
        self.process_specific = (
            f"an intrinsic calls {what}, compiled in this process for its context.get_function "
            "or compile_internal"
        )
        function_type = ir.FunctionType(result_type, parameter_types)
        boolean = ir.IntType(1)

        def call(builder, args):
            # An instruction, not a constant expression: llvmlite calls only named values.
            pointer = builder.inttoptr(
                ir.Constant(ir.IntType(64), address), function_type.as_pointer()
            )
            values = []
            for value, expected in zip(args, parameter_types):
                if value.type == boolean and expected != boolean:
                    value = builder.zext(value, expected)  # a C bool is a byte
                values.append(value)
            result = builder.call(pointer, values)
            if sig.return_type.kind_name == "Boolean" and result.type != boolean:
                result = builder.icmp_unsigned("!=", result, ir.Constant(result.type, 0))
            if sig.return_type.kind_name == "NoneType":
                return self.get_dummy_value()
            return result

        return call

    def _device_caller(self, pyfunc, sig):
        """In a CUDA kernel: ``pyfunc`` compiled as a device function with the C ABI, declared
        here and defined by the LLVM IR the module carries (``linked_modules``)."""
        from taipan.intrinsic_calls import device_function

        ir = self._ir
        symbol, module_text = device_function(pyfunc, sig)
        if module_text not in self.linked_modules:
            self.linked_modules.append(module_text)
        parameters = [self._types.value(t) for t in sig.args]
        returns_none = sig.return_type.kind_name == "NoneType"
        result = ir.VoidType() if returns_none else self._types.value(sig.return_type)
        callee = self._module.globals.get(symbol)
        if callee is None:
            callee = ir.Function(self._module, ir.FunctionType(result, parameters), name=symbol)

        def call(builder, args):
            value = builder.call(callee, list(args))
            return self.get_dummy_value() if returns_none else value

        return call


class ReferenceCounting:
    """Numba's ``context.nrt`` as codegen functions use it: ``incref``/``decref`` of every
    memory block a value holds (an array's meminfo, a list's or dict's block, the members of a
    user type whose data model holds them), through taipan's runtime."""

    def __init__(self, ir):
        self._ir = ir

    def incref(self, builder, typ, value):
        self._call(builder, "taipan_nrt_incref", typ, value)

    def decref(self, builder, typ, value):
        self._call(builder, "taipan_nrt_decref", typ, value)

    def _call(self, builder, name, typ, value):
        from taipan.core import cgutils

        ir = self._ir
        pointer = ir.IntType(8).as_pointer()
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer]), name
        )
        for block in _blocks(builder, typ, value):
            if block.type != pointer:
                block = builder.bitcast(block, pointer)
            builder.call(function, [block])


def _blocks(builder, typ, value):
    """The memory blocks (pointers) a value of ``typ`` holds, as taipan's lowering finds them
    (lower/Temporaries.cpp collectBlocks): what the type's data model says, recursively."""
    from taipan import _core

    if not _core.holds_references(typ):
        return []
    kind = typ.kind_name
    if kind == "Array":
        return [builder.extract_value(value, 0)]  # the meminfo
    if kind == "Tuple":
        found = []
        for index, element in enumerate(typ.types):
            found += _blocks(builder, element, builder.extract_value(value, index))
        return found
    if kind == "Optional":  # None's payload is null pointers, which the runtime skips
        return _blocks(builder, typ.type, builder.extract_value(value, 1))
    if kind == "UserType":  # its value is its data model's layout
        return _blocks(builder, _core.user_type_layout(typ), value)
    return [value]  # a container, a string, a jitclass instance: the block's address


def _boolean():
    from taipan import types

    return types.boolean


def _float_type(bits):
    from taipan import types

    return {16: types.float16, 32: types.float32, 64: types.float64}[bits]


def _symbol_part(text):
    return "".join(c if c.isalnum() else "_" for c in text[:16])


def _abi_alignment(ir, lltype):
    if isinstance(lltype, ir.ArrayType):
        return _abi_alignment(ir, lltype.element)
    if isinstance(lltype, (ir.LiteralStructType, ir.IdentifiedStructType)):
        return max((_abi_alignment(ir, e) for e in lltype.elements), default=1)
    return _abi_size(ir, lltype)


def _abi_size(ir, lltype):
    if isinstance(lltype, ir.IntType):
        return max(1, 1 << math.ceil(math.log2(max(lltype.width, 8)))) // 8
    if isinstance(lltype, ir.HalfType):
        return 2
    if isinstance(lltype, ir.FloatType):
        return 4
    if isinstance(lltype, (ir.DoubleType, ir.PointerType)):
        return 8
    if isinstance(lltype, ir.ArrayType):
        return lltype.count * _abi_size(ir, lltype.element)
    if isinstance(lltype, ir.VectorType):
        return lltype.count * _abi_size(ir, lltype.element)
    if isinstance(lltype, (ir.LiteralStructType, ir.IdentifiedStructType)):
        offset = 0
        for element in lltype.elements:
            align = _abi_alignment(ir, element)
            offset = (offset + align - 1) // align * align + _abi_size(ir, element)
        align = _abi_alignment(ir, lltype)
        return (offset + align - 1) // align * align
    raise TypingError(f"taipan cannot size the LLVM type {lltype}")
