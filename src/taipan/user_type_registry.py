"""User-defined types: Python subclasses of ``taipan.types.Type`` (Numba's extension API).

A subclass instance wraps a C++ type of kind UserType (src/core/types/UserTypes.h). Numba's
rules hold: ``name`` is what ``Type.__init__(name)`` was given, ``key`` defaults to the name,
and two types are equal when their classes are the same and their keys are equal. This module
gives each (class, key) one registry id, which is the C++ type's identity, so equal types are
one interned C++ type (``==`` and ``hash`` compare it). The compiler hands Python bare handles
on that C++ type; ``user_view`` gives back the user's instance (whose class ``isinstance``
tests). Data models (taipan.datamodels) become the C++ type's layout when both are known.
"""

import _thread
import functools

from taipan import _core

_lock = _thread.RLock()  # not threading: `import taipan` stays without it
_ids = {}  # (class, key) -> registry id
_instances = []  # registry id -> the first instance made with that (class, key)
_model_hooks = []  # callbacks run on each newly bound instance (taipan.datamodels)

_core_type_init = _core.Type.__init__


def _type_init(self, name=None, *args, **kwargs):
    """``Type.__init__(self, name)``, as Numba's: the instance is bound to its C++ type once
    the outermost ``__init__`` of its class has run (its key may depend on what it set)."""
    _core_type_init(self)
    self.__dict__["_taipan_name"] = str(name) if name is not None else type(self).__name__
    if not self.__dict__.get("_taipan_init_depth"):
        bind(self)


def _get_name(self):
    return self.__dict__.get("_taipan_name", type(self).__name__)


def _set_name(self, name):
    self.__dict__["_taipan_name"] = str(name)


_NAME = property(_get_name, _set_name, doc="Numba's Type.name: what Type.__init__ was given")


def _attribute(name, built_in):
    """A user type's attribute ``name`` (``dtype``, ``layout``, ``count``...: names the built-in
    types answer in C++): what the instance set, else the built-in answer (None)."""

    def get(self):
        found = self.__dict__.get(name, _UNSET)
        return built_in.__get__(self) if found is _UNSET else found

    def set_(self, value):
        self.__dict__[name] = value

    return property(get, set_)


_UNSET = object()


def _init_subclass(cls, **kwargs):
    """Wraps a subclass's own ``__init__`` so that the instance is bound when it returns."""
    if _core.Type in cls.__bases__ and "name" not in cls.__dict__:
        cls.name = _NAME  # readable (and settable, as in Numba) before the instance is bound
    if _core.Type in cls.__bases__:
        # Extensions set attributes that the built-in types answer in C++ (self.dtype = ...,
        # self.ndim = ..., as Numba's Array subclasses do): settable on user types.
        for name, built_in in vars(_core.Type).items():
            if isinstance(built_in, property) and name not in _OWN and name not in cls.__dict__:
                setattr(cls, name, _attribute(name, built_in))
    init = cls.__dict__.get("__init__")
    if init is None:
        return

    @functools.wraps(init)
    def wrapped(self, *args, **kwargs):
        depth = self.__dict__.get("_taipan_init_depth", 0)
        self.__dict__["_taipan_init_depth"] = depth + 1
        try:
            init(self, *args, **kwargs)
        finally:
            self.__dict__["_taipan_init_depth"] = depth
        if depth == 0:
            bind(self)

    cls.__init__ = wrapped


def _key(self):
    """Numba's ``Type.key``: what, with the class, decides equality (the name by default)."""
    return self.name


def bind(instance):
    """Points ``instance`` at the C++ user type of its (class, key), making it on first use."""
    if "_taipan_name" not in instance.__dict__:
        raise TypeError(
            f"{type(instance).__name__}.__init__ must call Type.__init__(self, name) "
            "(super().__init__(name=...)) as in Numba"
        )
    # The name first (key defaults to it): a placeholder C++ type has none of its own.
    name = instance.__dict__["_taipan_name"]
    with _lock:
        identity = (type(instance), _key_of(instance, name))
        registry_id = _ids.get(identity)
        if registry_id is None:
            registry_id = len(_instances)
            _ids[identity] = registry_id
            _instances.append(instance)
        _core.bind_user_type(instance, _core.user_type(registry_id, name))
    for hook in _model_hooks:
        hook(instance)


def _key_of(instance, name):
    key_property = type(instance).key
    if key_property is _KEY:  # the default: the name (read before binding gives it)
        key = name
    else:
        key = instance.key
    try:
        hash(key)
    except TypeError:
        raise TypeError(f"the key of the type {name} must be hashable, not {key!r}") from None
    return key


def user_view(t):
    """The user's instance for a handle on a user type the compiler gave; other types as they
    are."""
    if t is not None and getattr(t, "kind_name", None) == "UserType":
        return _instances[t.registry_id]
    return t


def instances_of(cls):
    """The bound instances (one per key) of user type class ``cls`` and its subclasses."""
    with _lock:
        return [t for t in _instances if isinstance(t, cls)]


_KEY = property(_key)
# What stays the C++ type's on user types (name has its own property, key is Numba's).
_OWN = frozenset(["registry_id", "kind", "kind_name", "name", "key"])
_core.Type.__init__ = _type_init
_core.Type.__init_subclass__ = classmethod(_init_subclass)
_core.Type.key = _KEY
# Numba's Type.mangling_args and is_precise(), which some extensions read.
_core.Type.is_precise = lambda self: True
