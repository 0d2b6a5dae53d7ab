"""Numba's array-compatible user types in NumPy operations: a ufunc of a value whose type has an
``as_array`` and an ``"__array__"`` lowering computes on its array and gives the result back in
the user's type through ``__array_wrap__`` (typed by ``type_callable('__array_wrap__')``,
lowered by ``lower_builtin('__array_wrap__', T, types.Array)``), as NumPy's ``__array_wrap__``
and Numba's ``resolve_output_type`` do; indexing a ``types.Buffer`` type with slices or arrays
gives a view in the type's own ``copy(ndim=..., layout=...)``, its array the view (Numba's
``make_view``).

The compiler asks a user type for the member ``"$ufunc.<ufunc's name>"`` (typing/CallInference);
the answer is an overload whose implementation is Python: convert the array-compatible operands,
call the ufunc, wrap. Indexing is the operator ``getitem``'s (taipan.user_types), which falls back
to ``view_getitem`` here."""

import threading

from taipan import extending
from taipan.errors import TypingError
from taipan.user_type_registry import user_view

_lock = threading.Lock()
_conversions = {}  # user type -> the intrinsic giving its array (a new reference)
_ufunc_entries = {}  # (user type, ufunc name) -> the member's (registry id, False)


def array_type(t):
    """The array a value of user type ``t`` stands for (its ``as_array``, where it lowers
    ``"__array__"``), else None."""
    from taipan.user_type_casts import array_view

    return array_view(t) if getattr(t, "kind_name", None) == "UserType" else None


def _as_array(t):
    """The intrinsic converting a value of array-compatible type ``t`` to its array."""
    with _lock:
        found = _conversions.get(t)
    if found is not None:
        return found
    from taipan.user_type_casts import array_of

    array = array_type(t)
    convert = array_of(t, array)

    def typer(typingctx, value):
        def codegen(context, builder, signature, args):
            return convert(context, builder, user_view(value), array, args[0])

        return array(value), codegen

    typer.__name__ = f"{t}.__array__"
    found = extending.intrinsic(typer)
    with _lock:
        return _conversions.setdefault(t, found)


def _array_priority(t):
    return getattr(user_view(t), "array_priority", 0.0)


def _wrapper_index(args):
    """Numba's ``select_array_wrapper``: the array-compatible operand of highest priority (the
    first of equals); arrays have priority 0."""
    best, priority = None, None
    for index, t in enumerate(args):
        compatible = t.kind_name == "Array" or array_type(t) is not None
        if compatible and (priority is None or _array_priority(t) > priority):
            best, priority = index, _array_priority(t)
    return best


_wrap_intrinsic = []


def _wrap():
    """The intrinsic ``(wrapper, array result)``: the user's ``__array_wrap__`` where its
    typers take them; else the array itself where the wrapper's priority is an array's (0),
    else a TypingError (Numba's ``resolve_output_type``)."""
    with _lock:
        if _wrap_intrinsic:
            return _wrap_intrinsic[0]

    def typer(typingctx, wrapper, array):
        from taipan.user_type_templates import callables

        with _lock:
            wrap = callables.get("__array_wrap__")
        found = wrap(typingctx, wrapper, array) if wrap is not None else None
        if found is not None:
            return found  # (signature, the user's lowering)
        if _array_priority(wrapper) != 0.0:
            raise TypingError(f"__array_wrap__ failed for ({wrapper}, {array})")
        return array(wrapper, array), _second_argument

    typer.__name__ = "array_wrap"
    made = extending.intrinsic(typer)
    with _lock:
        if not _wrap_intrinsic:
            _wrap_intrinsic.append(made)
        return _wrap_intrinsic[0]


def _wraps(ufunc, args, wrapper):
    """Whether the user's ``__array_wrap__`` types ``(wrapper, the ufunc's formal result)``
    (True where that result's dtype cannot be told here: the call of the wrap decides)."""
    from taipan.user_type_templates import callables

    with _lock:
        wrap = callables.get("__array_wrap__")
    if wrap is None:
        return False

    from taipan.typeof import from_dtype
    from taipan.types import _numpy_dtype

    arrays = [t if array_type(t) is None else array_type(t) for t in args]
    try:
        dtypes = [_numpy_dtype(a.dtype if a.kind_name == "Array" else a) for a in arrays]
        result = from_dtype(ufunc.resolve_dtypes((*dtypes, None))[-1])
    except (TypeError, ValueError, AttributeError, KeyError):
        return True
    ndim = max((a.ndim for a in arrays if a.kind_name == "Array"), default=0)
    formal = extending.types.Array(result, ndim, "C")
    return wrap(extending._TYPING_CONTEXT, wrapper, formal) is not None


def _second_argument(context, builder, signature, args):
    """A codegen giving its second argument (a new reference, as every result)."""
    context.nrt.incref(builder, signature.return_type, args[1])
    return args[1]


def find_ufunc(self_type, member):
    """The member finder's answer for ``"$ufunc.<name>"`` of an array-compatible type: an
    overload computing the ufunc on the operands' arrays and wrapping the result."""
    if array_type(self_type) is None or not isinstance(self_type, extending.types.ArrayCompatible):
        return None  # (Numba's ufuncs take types.ArrayCompatible operands only)
    key = (self_type, member)
    with _lock:
        if key in _ufunc_entries:
            return _ufunc_entries[key]
    ufunc = _ufunc_named(member.partition(".")[2])
    entry = extending._registry.member_overload_entry(f"{ufunc.__name__}({self_type})")
    entry.typers.append(lambda *args: _ufunc_implementation(ufunc, args))
    found = (entry.registry_id, False)
    with _lock:
        return _ufunc_entries.setdefault(key, found)


def _ufunc_named(name):
    import importlib

    module, _, attribute = name.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def _ufunc_implementation(ufunc, args):
    if len(args) != ufunc.nin:
        return None  # (output arguments: the ufunc's own rule refuses them)
    wrapper = _wrapper_index(args)
    if _array_priority(args[wrapper]) != 0.0 and not _wraps(ufunc, args, args[wrapper]):
        # (found here, the error names the user's line)
        raise TypingError(
            f"__array_wrap__ failed for ({args[wrapper]}, the result of {ufunc.__name__})"
        )
    names = [f"a{i}" for i in range(len(args))]
    namespace = {"ufunc": ufunc, "wrap": _wrap()}
    operands = []
    for i, (name, t) in enumerate(zip(names, args)):
        if array_type(t) is None:
            operands.append(name)
        else:
            namespace[f"convert{i}"] = _as_array(t)
            operands.append(f"convert{i}({name})")
    text = (
        f"def {ufunc.__name__}_of_arrays({', '.join(names)}):\n"
        f"    return wrap({names[wrapper]}, ufunc({', '.join(operands)}))\n"
    )
    exec(text, namespace)  # noqa: S102  (taipan reads the text exec compiled)
    return namespace[f"{ufunc.__name__}_of_arrays"]


def view_getitem(self_type, index_type):
    """The implementation of ``x[index]`` for a ``types.Buffer`` user type whose index the
    user's overloads do not take: the item of its array, or a view in the type's ``copy``."""
    if array_type(self_type) is None or not isinstance(
        user_view(self_type), extending.types.Buffer
    ):
        return None
    convert = _as_array(self_type)
    rewrap = _rewrap()

    def getitem_of_array(x, index):
        return rewrap(x, convert(x)[index])

    return getitem_of_array


_rewrap_intrinsic = []


def _rewrap():
    """The intrinsic ``(buffer value, item or view)``: an item as it is, a view as a value of
    the buffer type's ``copy(ndim=..., layout=...)`` holding it (Numba's ``make_view``)."""
    with _lock:
        if _rewrap_intrinsic:
            return _rewrap_intrinsic[0]

    def typer(typingctx, source, item):
        if item.kind_name != "Array":
            return item(source, item), _second_argument
        result = user_view(source).copy(ndim=item.ndim, layout=item.layout)

        def codegen(context, builder, signature, args):
            from taipan.core import cgutils
            from taipan.user_type_templates import find_lowering

            as_array = find_lowering("__array__", (result,))
            address = cgutils.alloca_once(builder, context.get_value_type(result), zfill=True)
            inner = as_array(context, builder, result.as_array(result), [address])
            view = context.cast(builder, args[1], item, result.as_array)
            builder.store(view, inner)
            context.nrt.incref(builder, result.as_array, view)  # the value holds it now
            return builder.load(address)

        return result(source, item), codegen

    typer.__name__ = "buffer_view"
    made = extending.intrinsic(typer)
    with _lock:
        if not _rewrap_intrinsic:
            _rewrap_intrinsic.append(made)
        return _rewrap_intrinsic[0]


# The operators that are NumPy's ufuncs on arrays (Numba's NumpyRulesArrayOperator), by the
# operator function's name.
_OPERATOR_UFUNCS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "true_divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "power",
    "lshift": "left_shift",
    "rshift": "right_shift",
    "and_": "bitwise_and",
    "or_": "bitwise_or",
    "xor": "bitwise_xor",
    "neg": "negative",
    "pos": "positive",
    "invert": "invert",
    "eq": "equal",
    "ne": "not_equal",
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
}


def operator_of_arrays(name, args):
    """The implementation of operator ``name`` (``"operator.add"``) of operands one of which is
    array-compatible: the operator's ufunc, which computes on the arrays and wraps the result
    (find_ufunc); None for other operators and operands."""
    ufunc_name = _OPERATOR_UFUNCS.get(name.partition(".")[2])
    compatible = [
        t
        for t in args
        if array_type(t) is not None and isinstance(t, extending.types.ArrayCompatible)
    ]
    if ufunc_name is None or not compatible:
        return None
    import numpy as np

    ufunc = getattr(np, ufunc_name)
    if len(args) == 1:

        def unary_of_arrays(a):
            return ufunc(a)

        return unary_of_arrays

    def binary_of_arrays(a, b):
        return ufunc(a, b)

    return binary_of_arrays
