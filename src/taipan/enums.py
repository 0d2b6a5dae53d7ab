"""Enums in compiled code (Numba's EnumMember/IntEnumMember and EnumClass/IntEnumClass types):
``enum.Enum`` and ``enum.IntEnum`` classes and members as globals, closure variables,
arguments, results and tuple items, with ``.value``, ``.name``, ``==``/``!=``/``is``/``is not``,
``Color['red']`` and ``Color.red``.

Everything here goes through taipan's extension API, as Numba's enumdecl/enumimpl go through
its registries: a member is a user type whose data model is its value's type (``value`` is
the only member of its struct), boxed back by calling its class with the value; a class is a
user type of an empty struct (it holds nothing at run time); global classes and members are
frozen as their unboxed bytes (bindings/GlobalResolution).
Imported by the bindings at the first enum value compiled code meets
(bindings/UserTypeBoxing), so ``import taipan`` does not import the extension API.
"""

import enum
import operator

from taipan import _core, typeof, types
from taipan.core import cgutils
from taipan.core.typeconv import Conversion
from taipan.core.typing.templates import AttributeTemplate
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    box,
    infer_getattr,
    lower_cast,
    lower_getattr_generic,
    make_attribute_wrapper,
    models,
    overload,
    overload_attribute,
    register_model,
    typeof_impl,
    unbox,
)
from taipan.user_type_registry import user_view


def _class_name(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


class EnumMember(types.Type):
    """A member of the Enum class ``instance_class`` whose values are of type ``dtype``."""

    def __init__(self, cls, dtype):
        self.instance_class = cls
        self.dtype = dtype
        super().__init__(name=f"{type(self).__name__}(<enum '{_class_name(cls)}'>, {dtype})")

    @property
    def key(self):
        return self.instance_class, self.dtype


class IntEnumMember(EnumMember):
    """A member of an IntEnum class: an integer too (arithmetic, comparisons, indexing)."""

    def can_convert_to(self, typingctx, other):
        """Numba's: an IntEnum member converts to the integer types (lower_cast below), where
        compiled code needs an int (``range(m)``, ``a[m]``, ``np.empty(m)``, ``int(m)``)."""
        if isinstance(other, types.Integer):
            return Conversion.safe
        return None


class EnumClass(types.Type):
    """The Enum class ``instance_class`` itself, whose members' values are of type ``dtype``."""

    member_class = EnumMember

    def __init__(self, cls, dtype):
        self.instance_class = cls
        self.dtype = dtype
        super().__init__(name=f"{type(self).__name__}(<enum '{_class_name(cls)}'>, {dtype})")

    @property
    def key(self):
        return self.instance_class, self.dtype

    @property
    def member_type(self):
        return self.member_class(self.instance_class, self.dtype)


class IntEnumClass(EnumClass):
    member_class = IntEnumMember


def _value_type(cls):
    """The one type of the values of ``cls``'s members (Numba refuses classes whose members'
    values differ in type), or None when compiled code cannot hold them."""
    members = list(cls.__members__.values())
    if not members:
        return None
    try:
        found = {typeof(member.value) for member in members}
    except (TypeError, ValueError):
        return None
    if len(found) != 1:
        return None
    (dtype,) = found
    # Members are frozen as constants and built from constants (Color.red): values holding
    # references (str) are not supported yet.
    if _core.holds_references(dtype):
        return None
    return dtype


@typeof_impl.register(enum.Enum)
def _typeof_member(value, context):
    dtype = _value_type(type(value))
    if dtype is None:
        return None
    # IntEnum and IntFlag members are ints (IntFlag does not derive from IntEnum)
    member_class = IntEnumMember if isinstance(value, int) else EnumMember
    return member_class(type(value), dtype)


@typeof_impl.register(enum.EnumMeta)
def _typeof_class(cls, context):
    dtype = _value_type(cls)
    if dtype is None:
        return None
    return (IntEnumClass if issubclass(cls, int) else EnumClass)(cls, dtype)


@register_model(EnumMember)
class _MemberModel(models.StructModel):
    """A member is its value (Numba's EnumModel is a proxy of the value's model)."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("value", fe_type.dtype)])


make_attribute_wrapper(EnumMember, "value", "value")


@lower_cast(IntEnumMember, types.Integer)
def _int_member_to_int(context, builder, fromty, toty, val):
    """The member's value, as the integer type wanted (Numba's int_enum_to_int)."""
    value = builder.extract_value(val, 0)
    return context.cast(builder, value, fromty.dtype, toty)


@register_model(EnumClass)
class _ClassModel(models.StructModel):
    """A class holds nothing at run time: what it is, its type says."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [])


@unbox(EnumClass)
def _unbox_class(typ, obj, c):
    return NativeValue(cgutils.create_struct_proxy(typ)(c.context, c.builder)._getvalue())


@box(EnumClass)
def _box_class(typ, val, c):
    return c.pyapi.unserialize(c.pyapi.serialize_object(typ.instance_class))


@unbox(EnumMember)
def _unbox_member(typ, obj, c):
    value_object = c.pyapi.object_getattr_string(obj, "value")
    is_error = cgutils.alloca_once_value(c.builder, cgutils.true_bit)
    member = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    with c.builder.if_then(cgutils.is_not_null(c.builder, value_object)):
        native = c.unbox(typ.dtype, value_object)
        c.pyapi.decref(value_object)
        member.value = native.value
        c.builder.store(native.is_error, is_error)
    return NativeValue(member._getvalue(), is_error=c.builder.load(is_error))


@box(EnumMember)
def _box_member(typ, val, c):
    # The member of the value: the class called with it (Color(1) is Color.red).
    member = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    result = cgutils.alloca_once_value(c.builder, c.pyapi.get_null_object())
    value_object = c.box(typ.dtype, member.value)
    with c.builder.if_then(cgutils.is_not_null(c.builder, value_object)):
        class_object = c.pyapi.unserialize(c.pyapi.serialize_object(typ.instance_class))
        c.builder.store(c.pyapi.call_function_objargs(class_object, (value_object,)), result)
        c.pyapi.decref(class_object)
        c.pyapi.decref(value_object)
    return c.builder.load(result)


def _member_names(cls):
    return tuple(cls.__members__)


@overload_attribute(EnumMember, "name")
def _member_name(member):
    # The name of the first member holding the value (an alias names its canonical member),
    # looked up among the class's values.
    cls = member.instance_class
    values = tuple(m.value for m in cls.__members__.values())
    names = tuple(m.name for m in cls.__members__.values())

    def name(member):
        value = member.value
        for i in range(len(values)):
            if values[i] == value:
                return names[i]
        return names[0]

    return name


def _equal_values(a, b):
    return a.value == b.value


def _unequal_values(a, b):
    return a.value != b.value


def _always_false(a, b):
    return False


def _always_true(a, b):
    return True


def _compare(a, b, equal):
    """``==``/``!=`` of two members: by value within one class, or between IntEnum members
    (ints); members of two plain Enum classes are never equal, as in Python."""
    if not (isinstance(a, EnumMember) and isinstance(b, EnumMember)):
        return None
    if a == b or (isinstance(a, IntEnumMember) and isinstance(b, IntEnumMember)):
        return _equal_values if equal else _unequal_values
    return _always_false if equal else _always_true


@overload(operator.eq)
def _member_eq(a, b):
    return _compare(a, b, True)


@overload(operator.ne)
def _member_ne(a, b):
    return _compare(a, b, False)


def _identity(a, b, same):
    """``is``/``is not``: members are singletons, so the same class and value is the same
    object; members of two classes never are."""
    if not (isinstance(a, EnumMember) and isinstance(b, EnumMember)):
        return None
    if a == b:
        return _equal_values if same else _unequal_values
    return _always_false if same else _always_true


@overload(operator.is_)
def _member_is(a, b):
    return _identity(a, b, True)


@overload(operator.is_not)
def _member_is_not(a, b):
    return _identity(a, b, False)


@infer_getattr
class _EnumClassAttribute(AttributeTemplate):
    """``Color.red``: the class's members are its attributes."""

    key = EnumClass

    def generic_resolve(self, ty, attr):
        if attr in ty.instance_class.__members__:
            return ty.member_type
        return None


@lower_getattr_generic(EnumClass)
def _enum_class_getattr(context, builder, ty, val, attr):
    ty = user_view(ty)  # the lowering is handed the compiler's handle on the type
    member = ty.instance_class.__members__[attr]
    return _member_constant(context, builder, ty.member_type, member)


def _member_constant(context, builder, member_type, member):
    proxy = cgutils.create_struct_proxy(member_type)(context, builder)
    proxy.value = context.get_constant_generic(builder, member_type.dtype, member.value)
    return proxy._getvalue()


@overload(operator.getitem)
def _enum_class_getitem(cls, name):
    """``Color['red']``: a member by a constant name, as Numba's static_getitem."""
    if not isinstance(cls, EnumClass):
        return None
    literal = getattr(name, "literal_value", None)
    if not isinstance(literal, str):
        raise TypingError(
            f"{cls.instance_class.__qualname__}[...] takes a constant string naming a member, "
            f"not {name}"
        )
    if literal not in cls.instance_class.__members__:
        raise TypingError(f"{cls.instance_class.__qualname__} has no member {literal!r}")
    member = cls.instance_class.__members__[literal]

    def getitem(cls, name):
        return member

    return getitem


# IntEnum members are ints (Numba's IntEnumMember converts to its integer type): an operator
# with one on either side works on the value.
def _int_value_operator(function):
    def both(a, b):
        return function(a.value, b.value)

    def left(a, b):
        return function(a.value, b)

    def right(a, b):
        return function(a, b.value)

    def typer(a, b):
        a_member, b_member = isinstance(a, EnumMember), isinstance(b, EnumMember)
        if a_member and b_member and function in (operator.eq, operator.ne):
            return None  # members with members: _compare
        if isinstance(a, IntEnumMember) and isinstance(b, IntEnumMember):
            return both
        if isinstance(a, IntEnumMember) and not b_member:
            return left
        if isinstance(b, IntEnumMember) and not a_member:
            return right
        return None

    overload(function)(typer)


for _function in (
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.lshift,
    operator.rshift,
    operator.and_,
    operator.or_,
    operator.xor,
    operator.eq,
    operator.ne,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
):
    _int_value_operator(_function)


def _negated_value(a):
    return -a.value


@overload(operator.neg)
def _int_member_neg(a):
    return _negated_value if isinstance(a, IntEnumMember) else None


def _hash_of_value(member):
    return hash(member.value)


@overload(hash)
def _member_hash(member):
    # Numba's intenum_hash: the hash of the value (int.__hash__ for an IntEnum member)
    return _hash_of_value if isinstance(member, IntEnumMember) else None
