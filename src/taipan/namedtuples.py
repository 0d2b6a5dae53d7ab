"""Named tuple members in compiled code, written in Python for each class: ``_fields`` (of the
class and of an instance), ``_make(iterable)``, ``_asdict()`` and the constructor that fills
fields left out from the class's defaults (``namedtuple(..., defaults=...)``, and
``typing.NamedTuple`` fields with a value). Calling the class with every field, ``p.x`` and
``_replace`` are typed by type inference itself (typing/NamedTupleTyping.h). Found through
``taipan.extending``'s ``find_member`` (the compiler asks for the member of a named tuple type,
or of its class as a value)."""

import threading

from taipan.errors import TypingError
from taipan.extending import _NAMEDTUPLE_MEMBERS, _Overload, _registry

_lock = threading.Lock()
_members = {}  # (class, name, of the class) -> (registry id, is attribute)


def _exec(source, namespace, name):
    exec(source, namespace)  # noqa: S102 - code built from the class's field names
    return namespace[name]


def _constructor(cls):
    """``Point(1)`` with fields left out: a function whose parameters are the fields, the
    defaults as the class gives them, calling the class with every field."""
    defaults = getattr(cls, "_field_defaults", {})
    if not defaults:
        return None
    fields = cls._fields
    namespace = {"_class": cls}
    parameters = []
    for index, field in enumerate(fields):
        if field in defaults:
            namespace[f"_default_{index}"] = defaults[field]
            parameters.append(f"{field}=_default_{index}")
        else:
            parameters.append(field)
    source = (
        f"def _namedtuple_new({', '.join(parameters)}):\n    return _class({', '.join(fields)})\n"
    )
    function = _exec(source, namespace, "_namedtuple_new")
    function.__qualname__ = f"{cls.__name__}.__new__"
    return lambda *args, **kwargs: function


def _fields_reader(cls, of_class):
    names = tuple(cls._fields)
    if of_class:

        def _fields():
            return names

    else:

        def _fields(self):
            return names

    return lambda *args, **kwargs: _fields


def _maker(cls, of_class):
    """``_make(iterable)``: the class called with the iterable's items; a tuple is spread, a
    sequence of another length is CPython's TypeError."""
    count = len(cls._fields)
    leading = "" if of_class else "self, "
    spread = {}

    def typer(*args, **kwargs):
        iterable = args[-1]
        tuple_like = iterable.kind_name == "Tuple"
        if tuple_like and iterable.count != count:
            raise TypingError(
                f"{cls.__name__}._make(): expected {count} items, got {iterable.count}"
            )
        if tuple_like not in spread:
            if tuple_like:
                body = "    return _class(*iterable)\n"
            else:
                items = ", ".join(f"iterable[{i}]" for i in range(count))
                body = (
                    f"    if len(iterable) != {count}:\n"
                    f"        raise TypeError('Expected {count} arguments, got ' + "
                    "str(len(iterable)))\n"
                    f"    return _class({items})\n"
                )
            source = f"def _make({leading}iterable):\n{body}"
            spread[tuple_like] = _exec(source, {"_class": cls}, "_make")
        return spread[tuple_like]

    return typer


def _dict_maker(cls):
    """``_asdict()``: a dict of the fields' names to their values (one value type, as compiled
    dicts have)."""
    items = ", ".join(f"{name!r}: self[{i}]" for i, name in enumerate(cls._fields))
    function = _exec(f"def _asdict(self):\n    return {{{items}}}\n", {}, "_asdict")
    return lambda *args, **kwargs: function


def find_member(self_type, name):
    """(registry id, is attribute) of member ``name`` of a named tuple type, or of a named tuple
    class used as a value (a DType whose dtype is the class's type), or None."""
    of_class = self_type.kind_name == "DType"
    cls = (self_type.dtype if of_class else self_type).instance_class
    if cls is None or (name == "_asdict" and of_class):
        return None
    key = (cls, name, of_class)
    with _lock:
        found = _members.get(key)
    if found is not None:
        return found
    if name == "__new__":
        typer = _constructor(cls)
    elif name == "_fields":
        typer = _fields_reader(cls, of_class)
    elif name == "_make":
        typer = _maker(cls, of_class)
    else:
        typer = _dict_maker(cls)
    if typer is None:
        return None
    entry = _registry._add(lambda i: _Overload(i, f"{cls.__name__}.{name}", {}))
    entry.typers.append(typer)
    with _lock:
        found = _members.setdefault(key, (entry.registry_id, name == "_fields"))
    return found


_registry.add_member_finder(("Tuple", "DType"), find_member, _NAMEDTUPLE_MEMBERS)
