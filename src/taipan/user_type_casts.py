"""Conversions of user-defined types' values: to numbers where compiled code uses one as a
number (Numba's ``can_convert_to`` and ``lower_cast``), to arrays for array-compatible types (their
``"__array__"`` lowering), and from Python objects read as globals into constants
(``lower_constant``).
"""

from taipan import extending
from taipan.user_type_registry import user_view
from taipan.user_type_templates import find_lowering, lock, matches

# Constants: global and closure values of user types (Numba's lower_constant).

_constant_lowerings = []  # [(type spec, implementation)], newest last


def lower_constant(type_spec):
    """Numba's ``lower_constant(Type)``: decorates ``impl(context, builder, ty, pyval)``
    building the value of the Python object ``pyval`` (a global or closure variable of the
    user type ``ty``). taipan runs it once, when the function compiles, and keeps the bytes it
    built as a constant of the module (so the value must hold no references or addresses); a
    type without one is frozen by its ``unbox``."""

    def decorate(implementation):
        with lock:
            _constant_lowerings.append((type_spec, implementation))
        return implementation

    return decorate


def constant_into(value, t, address):
    """Writes the constant of ``value`` (of user type ``t``) at ``address`` by its type's
    ``lower_constant``: False when the type has none (src/bindings/UserTypeBoxing)."""
    from taipan.user_type_boxing import constant_writer

    t = user_view(t)
    with lock:
        lowerings = list(reversed(_constant_lowerings))
    for spec, implementation in lowerings:
        if matches(spec, t):
            constant_writer(t, value, implementation)(address)
            return True
    return False


# Implicit conversions of user types to numbers (Numba's can_convert_to and lower_cast).

_cast_lowerings = []  # [(from type spec, to type spec, implementation)], newest last
_cast_entries = {}  # (type, target name or None) -> the member finder's answer


def lower_cast(from_spec, to_spec):
    """Numba's ``lower_cast(FromType, ToType)``: decorates ``impl(context, builder, fromty,
    toty, value)`` converting a value of a user type to a number where compiled code uses it
    as one (its type's ``can_convert_to(typingctx, number)`` must allow it): an argument of a
    library function (``range(m)``, ``np.empty(m)``, ``int(m)``), an index (``a[m]``), an
    operand of arithmetic with numbers, a result returned as a declared number type."""

    def decorate(implementation):
        with lock:
            _cast_lowerings.append((from_spec, to_spec, implementation))
        return implementation

    return decorate


def _cast_lowering(from_type, to_type):
    with lock:
        lowerings = list(reversed(_cast_lowerings))
    for from_spec, to_spec, implementation in lowerings:
        if matches(from_spec, from_type) and matches(to_spec, to_type):
            return implementation
    return None


def _number_type(name):
    """taipan's number type called ``name`` (the compiler's spelling), or None."""
    found = getattr(extending.types, "boolean" if name == "bool" else name, None)
    if isinstance(found, extending.types.Type) and found.kind_name in _NUMBER_KINDS:
        return found
    return None


_NUMBER_KINDS = ("Boolean", "Integer", "Float", "Complex")


def _converts(from_type, to_type):
    """Whether the type allows the conversion (Numba's ``can_convert_to``, which a type
    without one does not) and a ``lower_cast`` implements it."""
    can_convert_to = getattr(from_type, "can_convert_to", None)
    if can_convert_to is None or not can_convert_to(extending._TYPING_CONTEXT, to_type):
        return False
    return _cast_lowering(from_type, to_type) is not None


def conversion_target(self_type, target_name):
    """The number a value of ``self_type`` converts to: ``target_name``'s, or where any number
    will do the type's own choice, tried in order: its ``dtype`` when a number (an IntEnum
    member's value type), int64, float64, complex128, bool."""
    if target_name is not None:
        target = _number_type(target_name)
        return target if target is not None and _converts(self_type, target) else None
    array = array_view(self_type)
    if array is not None:
        return array
    candidates = [getattr(self_type, "dtype", None)]
    candidates += [extending.types.int64, extending.types.float64, extending.types.complex128]
    candidates.append(extending.types.boolean)
    for candidate in candidates:
        if (
            isinstance(candidate, extending.types.Type)
            and candidate.kind_name in _NUMBER_KINDS
            and _converts(self_type, candidate)
        ):
            return candidate
    return None


def array_view(self_type):
    """Numba's array-compatible types: the ``as_array`` type of a user type that lowers
    ``"__array__"`` (its array, where compiled code needs one: ``len(x)``, ``x[i]``), else
    None."""
    array = getattr(self_type, "as_array", None)
    if not isinstance(array, extending.types.Type) or array.kind_name != "Array":
        return None
    return array if find_lowering("__array__", (self_type,)) is not None else None


def array_of(self_type, array):
    """The codegen of the conversion to ``array``: Numba's ``__array__`` lowering takes the
    value's address and gives the address of the array (a member); the result is a new
    reference, as every conversion's."""
    implementation = find_lowering("__array__", (self_type,))

    def convert(context, builder, fromty, toty, value):
        from taipan.core import cgutils

        address = cgutils.alloca_once_value(builder, value)
        result = implementation(context, builder, toty(fromty), [address])
        if result.type.is_pointer:
            result = builder.load(result)
        context.nrt.incref(builder, toty, result)
        return result

    return convert


def find_cast(self_type, member):
    """The member finder's answer for the compiler's ``$cast`` (a number of the type's choice)
    and ``$cast.<number type>``: an intrinsic taking the value and returning the number, which
    runs the ``lower_cast``; None when the type does not convert."""
    target_name = member.partition(".")[2] or None
    key = (self_type, target_name)
    with lock:
        if key in _cast_entries:
            return _cast_entries[key]
    target = conversion_target(self_type, target_name)
    found = None
    if target is not None:
        lowering = _cast_lowering(self_type, target) or array_of(self_type, target)

        def typer(typingctx, value):
            def codegen(context, builder, signature, args):
                return lowering(context, builder, user_view(value), target, args[0])

            return target(value), codegen

        typer.__name__ = f"{self_type}.__cast_to_{target}__"
        found = (extending.intrinsic(typer).registry_id, False)
    with lock:
        _cast_entries[key] = found
    return found
