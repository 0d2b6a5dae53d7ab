"""One factory for the struct-like user types the extension tests build (the shape of Numba's
Interval example): a Python class holding named numbers, its taipan type, a StructModel of those
members, attribute wrappers, and where a test asks for them typeof, unbox, a constructor
callable in compiled code and a conversion to numbers. Registrations are process-global, so each
call makes new classes: two tests never share a type by accident.

Also the ``no_leaks`` fixture the extension test files use: ``from struct_user_types import
no_leaks  # noqa: F401`` makes it autouse there."""

from types import SimpleNamespace

import pytest

from taipan import types
from taipan.core import cgutils
from taipan.core.typeconv import Conversion
from taipan.extending import (
    NativeValue,
    lower_builtin,
    lower_cast,
    make_attribute_wrapper,
    models,
    register_model,
    type_callable,
    typeof_impl,
    unbox,
)
from taipan.runtime import live_blocks

pytest.importorskip("llvmlite")


@pytest.fixture(autouse=True)
def no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


def plain_class(name, members):
    """A Python class ``name`` whose constructor takes ``members`` in order and keeps them as
    attributes, equal when they are."""

    def __init__(self, *values):
        if len(values) != len(members):
            raise TypeError(f"{name}() takes {len(members)} arguments")
        for member, value in zip(members, values):
            setattr(self, member, value)

    def __eq__(self, other):
        return type(other) is type(self) and vars(other) == vars(self)

    def __repr__(self):
        return f"{name}({', '.join(repr(getattr(self, m)) for m in members)})"

    namespace = {"__init__": __init__, "__eq__": __eq__, "__repr__": __repr__, "__hash__": None}
    return type(name, (), namespace)


def struct_user_type(
    name,
    members,
    *,
    python_class=None,
    attributes=True,
    typeof=True,
    unboxes=True,
    constructs=False,
    converts_to=None,
):
    """A new user type ``name`` with the StructModel ``members`` ({member: taipan type}, in
    order). Returns a namespace:
    ``python_class`` (``python_class`` or a new ``plain_class``), ``type_class``, ``type`` (its
    one instance).

    - ``attributes``: each member is an attribute of the values in compiled code;
    - ``typeof``: Python objects of the class are of the type when passed to compiled code;
    - ``unboxes``: they are read into the struct from their attributes;
    - ``constructs``: compiled code calls the class with numbers, converted to the members';
    - ``converts_to``: a taipan type class (``types.Float``): values convert to its types where
      compiled code needs one (``can_convert_to`` and ``lower_cast``: the first member, cast).
    """
    cls = python_class or plain_class(name, list(members))

    class StructType(types.Type):
        def __init__(self):
            super().__init__(name=name)

        if converts_to is not None:

            def can_convert_to(self, typingctx, other):
                return Conversion.safe if isinstance(other, converts_to) else None

    StructType.__name__ = StructType.__qualname__ = f"{name}Type"
    instance = StructType()
    layout = list(members.items())

    @register_model(StructType)
    class _Model(models.StructModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, layout)

    if attributes:
        for member in members:
            make_attribute_wrapper(StructType, member, member)

    if typeof:
        typeof_impl.register(cls)(lambda value, c: instance)

    if unboxes:

        @unbox(StructType)
        def _unbox(typ, obj, c):
            struct = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            failed = cgutils.false_bit
            for member, member_type in layout:
                attribute = c.pyapi.object_getattr_string(obj, member)
                native = c.unbox(member_type, attribute)
                c.pyapi.decref(attribute)
                setattr(struct, member, native.value)
                failed = c.builder.or_(failed, native.is_error)
            return NativeValue(struct._getvalue(), is_error=failed)

    if constructs:

        @type_callable(cls)
        def _type_constructor(context):
            def typer(*args):
                if len(args) == len(layout) and all(isinstance(a, types.Number) for a in args):
                    return instance
                return None

            return typer

        @lower_builtin(cls, *[types.Number] * len(layout))
        def _construct(context, builder, sig, args):
            struct = cgutils.create_struct_proxy(instance)(context, builder)
            for (member, member_type), value, value_type in zip(layout, args, sig.args):
                setattr(struct, member, context.cast(builder, value, value_type, member_type))
            return struct._getvalue()

    if converts_to is not None:
        first_type = layout[0][1]

        @lower_cast(StructType, converts_to)
        def _to_number(context, builder, fromty, toty, value):
            first = builder.extract_value(value, 0)
            return context.cast(builder, first, first_type, toty)

    return SimpleNamespace(python_class=cls, type_class=StructType, type=instance)
