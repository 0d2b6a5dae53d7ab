"""Intrinsics in Numba's form: ``codegen(context, builder, signature, args)`` builds the body
with llvmlite's pure-Python ``ir.IRBuilder``, and taipan's LLVM 19 reads the module as text.

For each typed instance this module builds an llvmlite module holding one function,
``@intrinsic``, whose parameters and result have the LLVM types taipan gives the signature's
types (``_core.llvm_type_text``: lower/LowerTypes is the one place that decides them), with
pointers typed after the taipan type (``CPointer(float64)`` is ``double*``, an array's data
pointer points to its elements, any other pointer is ``i8*``) because llvmlite's builder needs
typed pointers to load and index. The compiler parses the text (typed-pointer syntax becomes
``ptr``), links it and inlines it (lower/LowerIntrinsics.cpp). llvmlite is imported only when
such an intrinsic is first typed.
"""

import re
import traceback

from taipan import _core
from taipan.errors import LoweringError, TypingError


def llvmlite_ir(what):
    """llvmlite's ``ir`` module, or a TypingError saying that ``what`` needs it."""
    try:
        from llvmlite import ir
    except ImportError:
        raise TypingError(
            f"{what} builds LLVM IR with llvmlite's IRBuilder, but llvmlite is not installed "
            "(pip install llvmlite; it comes with numba)"
        ) from None
    return ir


_TOKEN = re.compile(r"\s*(\{|\}|\[|\]|<|>|,|x\b|[A-Za-z_][A-Za-z0-9_.]*|\d+)")


def parse_type(ir, text):
    """The llvmlite type of an LLVM type's text as LLVM 19 prints it (opaque ``ptr`` becomes
    ``i8*``)."""
    tokens = [match.group(1) for match in _TOKEN.finditer(text)]
    position = 0

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def parse():
        token = take()
        if token == "{":
            elements = []
            while tokens[position] != "}":
                elements.append(parse())
                if tokens[position] == ",":
                    take()
            take()
            return ir.LiteralStructType(elements)
        if token in ("[", "<"):
            count = int(take())
            take()  # x
            element = parse()
            take()  # ] or >
            return (ir.ArrayType if token == "[" else ir.VectorType)(element, count)
        if token == "ptr":
            return ir.IntType(8).as_pointer()
        if token.startswith("i") and token[1:].isdigit():
            return ir.IntType(int(token[1:]))
        simple = {"half": ir.HalfType, "float": ir.FloatType, "double": ir.DoubleType}
        if token in simple:
            return simple[token]()
        if token == "void":
            return ir.VoidType()
        raise TypingError(f"taipan cannot describe the LLVM type {text} to llvmlite")

    return parse()


class LlvmTypes:
    """The llvmlite types of taipan types, in registers (``value``) and in memory (``data``)."""

    def __init__(self, ir):
        self.ir = ir
        self._cache = {}

    def value(self, t):
        return self._type(t, False)

    def data(self, t):
        return self._type(t, True)

    def _type(self, t, in_memory):
        key = (t, in_memory)
        found = self._cache.get(key)
        if found is None:
            parsed = parse_type(self.ir, _core.llvm_type_text(t, in_memory))
            found = self._cache[key] = self._with_pointees(t, parsed)
        return found

    def _with_pointees(self, t, parsed):
        """Gives the pointers of ``parsed`` the pointee the taipan type ``t`` knows."""
        ir = self.ir
        kind = t.kind_name
        if kind == "Pointer" and t.dtype is not None:
            return self.data(t.dtype).as_pointer()
        if kind == "Array":
            # Numba's array struct: meminfo, parent, nitems, itemsize, data, shape, strides.
            elements = list(parsed.elements)
            elements[4] = self.data(t.dtype).as_pointer()
            return ir.LiteralStructType(elements)
        if kind == "Tuple":
            return ir.LiteralStructType([self.data(element) for element in t.types])
        if kind == "Optional":
            return ir.LiteralStructType([ir.IntType(8), self.data(t.type)])
        if kind == "UserType":  # laid out as its data model (taipan.datamodels)
            layout = _core.user_type_layout(t)
            return parsed if layout is None else self._with_pointees(layout, parsed)
        return parsed


def _parts(lltype):
    """The element types of a struct or an array type, else None."""
    if hasattr(lltype, "elements"):
        return list(lltype.elements)
    if hasattr(lltype, "element") and hasattr(lltype, "count"):
        return [lltype.element] * lltype.count
    return None


def converts(got, expected):
    """Whether a codegen's result of LLVM type ``got`` stands for ``expected``: the same LLVM 19
    type (every pointer is ``ptr``), or Numba's forms of taipan's: a tuple built as an array
    (``cgutils.pack_array``, Numba's UniTuple) or with ``i1`` booleans where taipan's tuples hold
    bytes."""
    if got.is_pointer or expected.is_pointer:
        return got.is_pointer and expected.is_pointer
    got_parts, expected_parts = _parts(got), _parts(expected)
    if got_parts is not None and expected_parts is not None:
        return len(got_parts) == len(expected_parts) and all(
            converts(a, b) for a, b in zip(got_parts, expected_parts)
        )
    if got == expected:
        return True
    return getattr(got, "width", None) == 1 and getattr(expected, "width", None) == 8


def _retype(ir, builder, value, expected):
    """``value`` as LLVM type ``expected`` (``converts(value.type, expected)``): pointers cast,
    aggregates rebuilt element by element, ``i1`` booleans widened to bytes."""
    if value.type == expected:
        return value
    if expected.is_pointer:
        return builder.bitcast(value, expected)
    if not hasattr(expected, "elements") and not hasattr(expected, "element"):
        return builder.zext(value, expected)
    rebuilt = ir.Constant(expected, ir.Undefined)
    for index, element in enumerate(_parts(expected)):
        part = _retype(ir, builder, builder.extract_value(value, index), element)
        rebuilt = builder.insert_value(rebuilt, part, index)
    return rebuilt


def _user_frame(error):
    """``file:line`` of the innermost frame of the user's code in a codegen's traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        if "/taipan/" not in frame.filename.replace("\\", "/") and "llvmlite" not in frame.filename:
            return f"{frame.filename}:{frame.lineno}"
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"


def build_module(name, signature, codegen):
    """The LLVM module text defining ``@intrinsic`` for one typed instance, and why it is valid
    in this process only ('' when it holds no address)."""
    ir = llvmlite_ir(f"the intrinsic {name}")
    from taipan.intrinsic_builder_context import IntrinsicContext

    types = LlvmTypes(ir)
    parameters = [types.value(t) for t in signature.args]
    returns_none = signature.return_type.kind_name == "NoneType"
    result_type = ir.VoidType() if returns_none else types.value(signature.return_type)
    module = ir.Module(name=f"intrinsic {name}")
    function = ir.Function(module, ir.FunctionType(result_type, parameters), name="intrinsic")
    # Numba's lowering keeps the entry block open for alloca_once (cgutils.alloca_once puts
    # allocations there) and branches from it to the body when the body is done.
    entry = function.append_basic_block("entry")
    body = function.append_basic_block("body")
    builder = ir.IRBuilder(body)
    context = IntrinsicContext(ir, types, module)
    try:
        value = codegen(context, builder, signature, list(function.args))
    except TypingError:
        raise
    except Exception as error:  # noqa: BLE001 - any error of the user's codegen is a TypingError
        raise TypingError(
            f"the codegen of the intrinsic {name} raised {type(error).__name__}: {error} "
            f"(at {_user_frame(error)})"
        ) from None
    if builder.block.is_terminated:
        raise TypingError(
            f"the codegen of the intrinsic {name} must leave its builder in an open block and "
            "return the result's value, not terminate the block itself"
        )
    if returns_none:
        builder.ret_void()
    elif value is None:
        raise LoweringError(
            f"non-void function returns None from implementation: the codegen of the "
            f"intrinsic {name} returned NoneType, but its signature's return type is "
            f"{signature.return_type}"
        )
    else:
        if not isinstance(value, ir.Value) or not converts(value.type, result_type):
            got = value.type if isinstance(value, ir.Value) else type(value).__name__
            raise TypingError(
                f"the codegen of the intrinsic {name} returned {got}, but its signature's "
                f"return type {signature.return_type} is {result_type} in LLVM IR"
            )
        builder.ret(_retype(ir, builder, value, result_type))
    ir.IRBuilder(entry).branch(body)
    # Modules of device functions it calls follow, each after the marker the lowering splits
    # at (lower/LowerIntrinsics.cpp).
    text = "".join([str(module)] + [LINKED_MODULE_MARKER + m for m in context.linked_modules])
    return text, context.process_specific


# The line separating the intrinsic's module from modules linked with it (LowerIntrinsics.cpp).
LINKED_MODULE_MARKER = "\n; taipan.linked-module\n"
