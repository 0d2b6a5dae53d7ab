"""Plain-Python mode's types: taipan's types behind a proxy that refuses nothing.

In plain-Python mode the compiling decorators ignore signatures, but a test builds them first:
``types.int64(types.unicode_type)``, ``types.Optional(types.intp)``, ``from_dtype(record)``.
taipan refuses some of those (types it does not support yet), which would fail the test before
it runs its Python, and so leave it out of the denominator for a reason that is taipan's. Here
every type is a ``PlainType``: the taipan type where taipan has one, else a stand-in; calling,
indexing or taking an attribute of one that taipan refuses gives another stand-in. Equality,
hashing and ``isinstance`` go to the taipan types inside.
"""

import contextlib

import taipan
from taipan import types as _types


def _is_taipan(value):
    return isinstance(value, (_types.Type, _types.Signature)) or (
        isinstance(value, type) and isinstance(value, _types._TypeClass)
    )


def wrap(value):
    if isinstance(value, PlainType):
        return value
    if _is_taipan(value):
        return PlainType(value, str(value))
    if isinstance(value, tuple) and any(_is_taipan(item) for item in value):
        return tuple(wrap(item) for item in value)
    return value


def unwrap(value):
    if isinstance(value, PlainType):
        if value._real is None:
            raise TypeError(f"{value._name} has no taipan type")
        return value._real
    if isinstance(value, (tuple, list)):
        return type(value)(unwrap(item) for item in value)
    if isinstance(value, dict):
        return {key: unwrap(item) for key, item in value.items()}
    return value


class PlainType:
    """A taipan type or type class (``_real``), or a stand-in for one taipan lacks."""

    __slots__ = ("_name", "_real")

    def __init__(self, real, name):
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_name", name)

    def _derived(self, name, compute):
        if self._real is not None:
            with contextlib.suppress(Exception):  # taipan refuses: a stand-in instead
                return wrap(compute())
        return PlainType(None, name)

    def __call__(self, *args, **kwargs):
        return self._derived(
            f"{self._name}(...)", lambda: self._real(*unwrap(args), **unwrap(kwargs))
        )

    def __getitem__(self, key):
        return self._derived(f"{self._name}[...]", lambda: self._real[unwrap(key)])

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if name == "key" and self._real is not None:
            return getattr(self._real, "name", str(self._real))
        return self._derived(f"{self._name}.{name}", lambda: getattr(self._real, name))

    def __instancecheck__(self, instance):
        if self._real is None or not isinstance(self._real, type):
            return False
        try:
            return isinstance(unwrap(instance), self._real)
        except TypeError:
            return False

    def __mro_entries__(self, bases):
        return (self._real,) if isinstance(self._real, type) else (object,)

    def __eq__(self, other):
        if self._real is None or (isinstance(other, PlainType) and other._real is None):
            return self is other
        try:
            return self._real == unwrap(other)
        except Exception:  # noqa: BLE001
            return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._real) if self._real is not None else id(self)

    def __iter__(self):
        return iter(wrap(tuple(self._real))) if self._real is not None else iter(())

    def __len__(self):
        return len(self._real) if self._real is not None else 0

    def __repr__(self):
        return repr(self._real) if self._real is not None else self._name

    def __str__(self):
        return str(self._real) if self._real is not None else self._name


def standin(name):
    return PlainType(None, name)


def typeof(value, purpose=None):
    """taipan's ``typeof``, or a stand-in for a value taipan cannot type."""
    try:
        return wrap(taipan.typeof(value))
    except Exception:  # noqa: BLE001
        return standin(f"typeof({type(value).__name__})")


def wrap_module(namespace, module_name):
    """Wraps every taipan type and type class in ``namespace``; unknown names become
    stand-ins."""
    for name, value in list(namespace.items()):
        if name.startswith("_"):
            continue
        if _is_taipan(value):
            namespace[name] = wrap(value)
        elif isinstance(value, frozenset):
            namespace[name] = frozenset(wrap(item) for item in value)

    def __getattr__(name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        value = namespace[name] = standin(f"{module_name}.{name}")
        return value

    return __getattr__
