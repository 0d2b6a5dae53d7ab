"""Numba's ``jitclass``: a class whose instances live in compiled code's memory.

An instance is one reference-counted block holding its fields (``runtime/JitClasses.h``); its
type is a ``ClassInstanceType`` (``Point.class_type.instance_type``) carrying the class's field
names and types. Compiled code reads and writes fields directly; everything else goes through
the extension registry (``taipan.extending``): the class object is an overload whose
implementation allocates an instance and calls the compiled ``__init__``, and methods,
properties (getter and setter), static methods and operator methods are members of the
instance type, each implemented by one ``njit`` dispatcher of the class's own function with
``self`` first. From Python, calling the class runs that constructor and returns a *box*, an
object of a class derived from ``_core.JitClassInstance`` holding the block: attribute reads
and writes and method calls on it call compiled accessors (made once per class), so compiled
code and Python share the one instance (a compiled function setting ``p.x`` changes the
caller's ``p``).
"""

import _thread
import inspect

from taipan import _core, types
from taipan.errors import TypingError, UnsupportedError
from taipan.extending import _Overload, _registry
from taipan.types import ClassType

__all__ = ["ClassType", "JitClassType", "jitclass"]

_lock = _thread.RLock()
_class_types = []  # class id -> ClassType
_by_instance_type = {}  # instance type -> ClassType
_by_class_type_name = {}  # "Overload(<entry name>)", the class object's type -> ClassType


def _allocate(instance_type):
    """A new instance with zeroed fields; compiled code only (taipan.jitclass.allocate)."""
    raise TypeError("taipan.jitclass._allocate runs in compiled code only")


_allocate._taipan_builtin = "taipan.jitclass.allocate"

# The kinds of types a field may have: numbers, booleans, arrays, tuples of those, strings,
# typed lists and dicts, datetimes and instances of jitclasses.
_FIELD_KINDS = frozenset(
    [
        "Boolean",
        "Integer",
        "Float",
        "Complex",
        "Array",
        "UnicodeType",
        "ListType",
        "DictType",
        "NPDatetime",
        "NPTimedelta",
        "ClassInstanceType",
    ]
)

# What an Optional field may hold: None or a number, a boolean or a jitclass instance.
_OPTIONAL_KINDS = frozenset(["Boolean", "Integer", "Float", "Complex", "ClassInstanceType"])

_PYTHON_TYPES = {
    int: "int64",
    float: "float64",
    bool: "boolean",
    complex: "complex128",
}


def _annotation_type(value):
    """The taipan type a class annotation names: a type, a jitclass, a Python number class or
    str, ``list[T]``/``typing.List[T]`` (a typed list), ``dict[K, V]`` (a typed dict)."""
    if isinstance(value, JitClassType):
        return value.class_type.instance_type
    if value is str:
        return types.unicode_type
    if value in _PYTHON_TYPES:
        return getattr(types, _PYTHON_TYPES[value])
    origin = getattr(value, "__origin__", None)
    arguments = getattr(value, "__args__", ())
    if origin is list and len(arguments) == 1:
        return types.ListType(_annotation_type(arguments[0]))
    if origin is dict and len(arguments) == 2:
        return types.DictType(_annotation_type(arguments[0]), _annotation_type(arguments[1]))
    return value


def _field_type(class_name, field, value, annotated):
    """The taipan type a spec entry or annotation names, or an error naming the field; a
    deferred type (or an optional of one) is kept as it is, resolved once it is defined."""
    if annotated:
        value = _annotation_type(value)
    if isinstance(value, ClassType):
        return value.instance_type
    if isinstance(value, (types.DeferredType, types._DeferredOptional)):
        return value
    if not isinstance(value, types.Type):
        raise TypeError(
            f"spec values should be Numba type instances, got {value!r} (field '{field}' of "
            f"jitclass {class_name})"
        )
    _check_field_type(class_name, field, value)
    return value


def _check_field_type(class_name, field, t):
    kind = t.kind_name
    if kind == "Tuple":
        for element in t.types:
            _check_field_type(class_name, field, element)
        return
    if kind == "Optional" and t.type.kind_name in _OPTIONAL_KINDS:
        return
    if kind in _FIELD_KINDS:
        if kind == "ListType" and t.item_type is None:
            raise TypingError(f"jitclass {class_name}: field '{field}' needs the list's item type")
        return
    if kind == "List":
        raise UnsupportedError(
            f"jitclass {class_name}: field '{field}' has type {t}, a reflected list, which an "
            "instance cannot hold (its changes could not be reflected into a Python list); use "
            "types.ListType(...) and taipan.typed.List"
        )
    raise UnsupportedError(
        f"jitclass {class_name}: field '{field}' has type {t}, which a jitclass field cannot "
        "hold (numbers, booleans, arrays, tuples, strings, typed lists and dicts and jitclass "
        "instances can)"
    )


def _annotations(cls):
    hints = {}
    for klass in reversed(cls.__mro__[:-1]):
        hints.update(inspect.get_annotations(klass))
    return hints


def _mangle(class_name, name):
    """CPython's private-name mangling, as the methods' own code spells the attribute."""
    if name.startswith("__") and not name.endswith("__"):
        return "_" + class_name.lstrip("_") + name
    return name


_IGNORED = frozenset(
    [
        "__weakref__",
        "__module__",
        "__dict__",
        "__doc__",
        "__qualname__",
        "__firstlineno__",
        "__static_attributes__",
        "__annotations__",
        "__annotate_func__",
        "__annotations_cache__",
        "__orig_bases__",
        "__parameters__",
    ]
)


def _class_members(cls):
    """The class's functions, properties and static methods, base classes first (Numba copies
    the members of a plain class's bases); anything else is a TypeError, as in Numba."""
    members = {}
    for klass in reversed(cls.__mro__[:-1]):
        members.update(klass.__dict__)
    methods, props, static_methods, others = {}, {}, {}, {}
    for name, value in members.items():
        if inspect.isfunction(value):
            methods[name] = value
        elif isinstance(value, property):
            props[name] = value
        elif isinstance(value, staticmethod):
            static_methods[name] = value.__func__
        elif name in _IGNORED or (name == "__hash__" and value is None):
            continue
        elif isinstance(value, classmethod):
            raise UnsupportedError(
                f"jitclass {cls.__name__}: class methods are not supported ({name})"
            )
        else:
            others[name] = value
    if others:
        raise TypeError(f"class members are not yet supported: {', '.join(others)}")
    for name, prop in props.items():
        if prop.fdel is not None:
            raise TypeError(f"deleter is not supported: {name}")
    return methods, props, static_methods


def _normalise_spec(cls, spec):
    if spec is None:
        pairs = []
    elif isinstance(spec, dict):
        pairs = list(spec.items())
    else:
        try:
            pairs = [tuple(entry) for entry in spec]
        except TypeError:
            raise TypeError(f"spec must be a list of (name, type) pairs or a dict, not {spec!r}")
        if any(len(entry) != 2 for entry in pairs):
            raise TypeError(f"spec must be a list of (name, type) pairs, not {spec!r}")
    fields = {}
    for name, value in pairs:
        if not isinstance(name, str):
            raise TypeError(f"spec keys should be strings, got {name!r}")
        fields[name] = _field_type(cls.__name__, name, value, False)
    for name, value in _annotations(cls).items():
        if name not in fields:
            fields[name] = _field_type(cls.__name__, name, value, True)
    return {_mangle(cls.__name__, name): value for name, value in fields.items()}


def _njit(function):
    from taipan.decorators import njit

    return njit(function)


def _exec_function(source, namespace, name):
    exec(source, namespace)  # noqa: S102 - code built from identifiers of the class
    return namespace[name]


def _parameter_text(signature, skip_first):
    """The parameter list of ``signature`` (without ``self`` when ``skip_first``) as source,
    with defaults named ``_default_<name>`` (values taken from the function), and the names as
    a call passes them on (``*args`` spread again). Parameters with constant defaults, and
    ``*args``; ``**kwargs`` is refused."""
    parameters = list(signature.parameters.values())
    if skip_first:
        parameters = parameters[1:]
    texts, passed, defaults = [], [], {}
    keyword_only = False
    for parameter in parameters:
        if parameter.kind == parameter.VAR_KEYWORD:
            raise UnsupportedError(
                f"jitclass methods with **kwargs are not supported ({parameter})"
            )
        if parameter.kind == parameter.VAR_POSITIONAL:
            keyword_only = True  # the parameters after *args are keyword-only
            texts.append(f"*{parameter.name}")
            passed.append(f"*{parameter.name}")
            continue
        if parameter.kind == parameter.KEYWORD_ONLY and not keyword_only:
            keyword_only = True
            texts.append("*")
        if parameter.default is parameter.empty:
            texts.append(parameter.name)
        else:
            texts.append(f"{parameter.name}=_default_{parameter.name}")
            defaults[f"_default_{parameter.name}"] = parameter.default
        passed.append(f"{parameter.name}={parameter.name}" if keyword_only else parameter.name)
    return ", ".join(texts), ", ".join(passed), defaults


def _make_constructor(class_type, init):
    """The function compiled code calls for ``Point(...)``: a new instance, then ``__init__``
    on it. Its parameters are ``__init__``'s without ``self``."""
    namespace = {
        "_allocate": _allocate,
        "_instance_type": class_type.instance_type,
    }
    if init is None:
        source = "def _jitclass_new():\n    return _allocate(_instance_type)\n"
    else:
        parameters, passed, defaults = _parameter_text(inspect.signature(init), True)
        namespace.update(defaults)
        namespace["_init"] = class_type.jit_methods["__init__"]
        source = (
            f"def _jitclass_new({parameters}):\n"
            "    _self = _allocate(_instance_type)\n"
            f"    _init(_self{', ' if passed else ''}{passed})\n"
            "    return _self\n"
        )
    function = _exec_function(source, namespace, "_jitclass_new")
    function.__qualname__ = f"{class_type.name}.__new__"
    return _njit(function)


def _make_static_wrapper(class_type, name, function):
    """``self.sm(a)`` in compiled code: the static method called without ``self``."""
    parameters, passed, defaults = _parameter_text(inspect.signature(function), False)
    namespace = dict(defaults)
    namespace["_static"] = class_type.jit_static_methods[name]
    source = (
        f"def _jitclass_static(_self{', ' if parameters else ''}{parameters}):\n"
        f"    return _static({passed})\n"
    )
    return _njit(_exec_function(source, namespace, "_jitclass_static"))


def _make_ne(class_type):
    """``!=`` of a class defining ``__eq__`` only: ``not (self == other)``, as Python's
    object.__ne__ does."""

    def __ne__(self, other):
        return not (self == other)

    return _njit(__ne__)


# Python's fallbacks for bool(), complex(), float() and int() of an object whose class lacks
# the method: (method, the methods it falls back to in order); _fallback_body gives the body.
_FALLBACKS = [
    ("__bool__", ["__len__", None]),
    ("__complex__", ["__float__", "__index__"]),
    ("__float__", ["__index__"]),
    ("__int__", ["__index__"]),
]


def _fallback_body(method, candidate, found):
    """``method`` of an instance computed as CPython's fallback through ``candidate`` (the
    compiled method ``found``; None: no method at all, bool() is then True)."""
    if method == "__bool__":
        if candidate is None:

            def __bool__(self):
                return True

            return __bool__

        def __bool__(self):
            return len(self) != 0

        return __bool__
    if method == "__complex__":

        def __complex__(self):
            return complex(found(self))

        return __complex__
    if method == "__float__":

        def __float__(self):
            return float(found(self))

        return __float__

    def __int__(self):
        return found(self)

    return __int__


def _conversion_fallbacks(jit_methods):
    """The compiled methods bool(p), complex(p), float(p) and int(p) use when the class lacks
    the one Python would call first, as CPython falls back (``__len__`` for truth...)."""
    made = {}
    for method, candidates in _FALLBACKS:
        if method in jit_methods:
            continue
        for candidate in candidates:
            if candidate is None or candidate in jit_methods:
                found = jit_methods.get(candidate)
                made[method] = _njit(_fallback_body(method, candidate, found))
                break
    return made


def _make_checked_len(dispatcher):
    """``len(p)`` in compiled code: the class's ``__len__``, refused when negative, as
    CPython's len() refuses it."""

    def __len__(self):
        n = dispatcher(self)
        if n < 0:
            raise ValueError("__len__() should return >= 0")
        return n

    return _njit(__len__)


def _make_accessors(field):
    namespace = {}
    source = (
        f"def _get_field(self):\n    return self.{field}\n"
        f"def _set_field(self, value):\n    self.{field} = value\n"
    )
    _exec_function(source, namespace, "_get_field")
    return _njit(namespace["_get_field"]), _njit(namespace["_set_field"])


def _register_members(class_type):
    """Each method, property and static method of the class as a member of its instance type in
    taipan.extending's registry (compiled code's ``p.m(...)``, ``p.prop``, ``p.prop = v``)."""

    def add(name, dispatcher, is_attribute):
        entry = _registry._add(lambda i: _Overload(i, f"{class_type.name}.{name}", {}))
        entry.typers.append(lambda *args, **kwargs: dispatcher)
        class_type.members[name] = (entry.registry_id, is_attribute)
        class_type.member_dispatchers[name] = dispatcher

    for name, dispatcher in class_type.jit_methods.items():
        if name == "__len__":
            add(name, _make_checked_len(dispatcher), False)
        elif name != "__init__":
            add(name, dispatcher, False)
    if "__eq__" in class_type.jit_methods and "__ne__" not in class_type.jit_methods:
        add("__ne__", _make_ne(class_type), False)
    for name, dispatcher in _conversion_fallbacks(class_type.jit_methods).items():
        add(name, dispatcher, False)
    for name, accessors in class_type.jit_props.items():
        if "get" in accessors:
            add(name, accessors["get"], True)
        if "set" in accessors:
            add("$setter." + name, accessors["set"], False)
    for name, function in class_type.methods.items():
        if name in class_type.jit_static_methods:
            add(name, _make_static_wrapper(class_type, name, function), False)
    # The class object: Point(...) in compiled code, and Point.sm(...) of a static method.
    entry = _registry.function_entry(class_type.jitclass, {})
    with _lock:
        if f"Overload({entry.name})" in _by_class_type_name:
            entry.name = f"{entry.name}#{class_id_of(class_type)}"
        _by_class_type_name[f"Overload({entry.name})"] = class_type
    constructor = class_type.constructor
    entry.typers.append(lambda *args, **kwargs: constructor)
    for name, dispatcher in class_type.jit_static_methods.items():
        label = f"{class_type.name}.{name}"
        static = _registry._add(lambda i, _label=label: _Overload(i, _label, {}))
        static.typers.append(lambda *args, _dispatcher=dispatcher, **kwargs: _dispatcher)
        class_type.class_members[name] = (static.registry_id, False)


def _method_caller(dispatcher, name):
    def method(self, *args, **kwargs):
        return dispatcher(self, *args, **kwargs)

    method.__name__ = name
    return method


def _make_box_class(class_type, fields):
    """The Python class of boxes: fields as properties calling compiled accessors, methods and
    properties calling the class's dispatchers with the box as ``self``."""
    namespace = {
        "__slots__": (),
        "__module__": class_type.class_def.__module__,
        "__qualname__": class_type.class_def.__qualname__,
        "__doc__": class_type.class_def.__doc__,
    }
    for field in fields:
        getter, setter = _make_accessors(field)
        namespace[field] = property(getter, setter)
    for name, dispatcher in class_type.jit_methods.items():
        if name in ("__init__", "__new__"):
            continue
        namespace[name] = _method_caller(dispatcher, name)
    if "__eq__" in class_type.jit_methods and "__ne__" not in class_type.jit_methods:
        namespace["__ne__"] = lambda self, other: not (self == other)  # noqa: SIM201
    for name, accessors in class_type.jit_props.items():
        namespace[name] = property(accessors.get("get"), accessors.get("set"))
    for name, dispatcher in class_type.jit_static_methods.items():
        namespace[name] = staticmethod(dispatcher)
    return type(class_type.name, (_core.JitClassInstance,), namespace)


class JitClassType(type):
    """The type of every jitclass (``Point``): calling it makes an instance through the compiled
    constructor; ``isinstance(p, Point)`` is true for its boxes."""

    def __new__(mcls, name, bases, namespace):
        if any(isinstance(base, JitClassType) for base in bases):
            raise TypeError("cannot subclass from a jitclass")
        if "class_type" not in namespace:
            raise TypeError("a jitclass is made by taipan.jitclass")
        return super().__new__(mcls, name, bases, namespace)

    def __instancecheck__(cls, instance):
        return isinstance(instance, _core.JitClassInstance) and (
            instance._numba_type_ == cls.class_type.instance_type
        )

    def __call__(cls, *args, **kwargs):
        class_type = cls.class_type
        signature = class_type.init_signature
        if signature is None:
            if args or kwargs:
                raise TypeError(f"{class_type.name}() takes no arguments")
            return class_type.constructor()
        bound = signature.bind(None, *args, **kwargs)
        bound.apply_defaults()
        return class_type.constructor(*bound.args[1:], **bound.kwargs)


def _display_name(cls, class_id, fields):
    """Numba's name of an instance type, ``instance.jitclass.Point#0<x:float64,y:float64>``,
    fixed when the type is made (a deferred field shows as ``deferred``)."""

    def text(t):
        if isinstance(t, types._DeferredOptional):
            return "OptionalType(deferred)"
        return "deferred" if isinstance(t, types.DeferredType) else str(t)

    shown = ",".join(f"{name}:{text(t)}" for name, t in fields.items())
    return f"instance.jitclass.{cls.__name__}#{class_id}<{shown}>"


def _define_fields_when_known(class_type, fields):
    """Gives the instance type its fields now, or once every deferred type among them is
    defined (a class holding itself: its own instance type exists only after decoration)."""
    pending = [
        value
        for value in fields.values()
        if isinstance(value, (types.DeferredType, types._DeferredOptional))
    ]
    undefined = [
        value.deferred if isinstance(value, types._DeferredOptional) else value for value in pending
    ]
    undefined = [deferred for deferred in undefined if deferred._defined is None]
    if undefined:
        undefined[0]._waiting.append(lambda: _define_fields_when_known(class_type, fields))
        return
    resolved = {}
    for name, value in fields.items():
        if isinstance(value, (types.DeferredType, types._DeferredOptional)):
            value = value.get()
            _check_field_type(class_type.name, name, value)
        resolved[name] = value
    class_type.struct = resolved
    _core.define_jitclass_fields(class_type.instance_type, list(resolved), list(resolved.values()))


def _register_class(cls, spec):
    if isinstance(cls, JitClassType):
        raise TypeError("cannot subclass from a jitclass")
    if not isinstance(cls, type):
        raise TypeError(f"jitclass decorates a class, not {cls!r}")
    for base in cls.__mro__[1:-1]:
        if isinstance(base, JitClassType):
            raise TypeError("cannot subclass from a jitclass")
    fields = _normalise_spec(cls, spec)
    methods, props, static_methods = _class_members(cls)
    shadowed = (set(methods) | set(props) | set(static_methods)) & set(fields)
    if shadowed:
        raise NameError(f"name shadowing: {', '.join(sorted(shadowed))}")
    with _lock:
        class_id = len(_class_types)
        instance_type = _core.jitclass_type(
            class_id, cls.__name__, _display_name(cls, class_id, fields)
        )
        class_type = ClassType(cls, cls.__name__, instance_type, fields)
        class_type.class_id = class_id
        _class_types.append(class_type)
        _by_instance_type[instance_type] = class_type
    _define_fields_when_known(class_type, fields)
    class_type.methods = dict(methods)
    class_type.methods.update(static_methods)
    class_type.jit_methods = {name: _njit(function) for name, function in methods.items()}
    class_type.jit_props = {}
    for name, prop in props.items():
        accessors = {}
        if prop.fget is not None:
            accessors["get"] = _njit(prop.fget)
        if prop.fset is not None:
            accessors["set"] = _njit(prop.fset)
        class_type.jit_props[name] = accessors
    class_type.jit_static_methods = {
        name: _njit(function) for name, function in static_methods.items()
    }
    init = methods.get("__init__")
    if init is not None:
        class_type.init_signature = inspect.signature(init)
    class_type.constructor = _make_constructor(class_type, init)
    namespace = {
        "class_type": class_type,
        "_taipan_jitclass": True,
        "__doc__": cls.__doc__,
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
    }
    namespace.update(class_type.jit_static_methods)
    jitclass_object = JitClassType(cls.__name__, (cls,), namespace)
    class_type.jitclass = jitclass_object
    class_type.box_class = _make_box_class(class_type, fields)
    _core.register_jitclass_box(instance_type, class_type.box_class)
    _register_members(class_type)
    return jitclass_object


def jitclass(cls_or_spec=None, spec=None):
    """Makes a class whose instances compiled code creates, passes and changes (Numba's
    ``jitclass``). ``spec`` gives the fields' types: a list of ``(name, type)`` pairs or a
    dict; fields annotated in the class (``x: float64``) are added to it::

        @jitclass([("value", types.int64)])
        class Counter:
            def __init__(self, value):
                self.value = value

            def increment(self):
                self.value += 1
    """
    if cls_or_spec is not None and spec is None and not isinstance(cls_or_spec, type):
        spec, cls_or_spec = cls_or_spec, None

    def wrap(cls):
        return _register_class(cls, spec)

    if cls_or_spec is None:
        return wrap
    return wrap(cls_or_spec)


def class_id_of(class_type):
    return class_type.class_id


def _find_member(self_type, name):
    """(registry id, is attribute) of member ``name`` of a jitclass instance type, or of static
    method ``name`` of a jitclass object (whose type is an Overload), or None."""
    if self_type.kind_name == "Function":
        class_type = _by_class_type_name.get(self_type.name)
        return None if class_type is None else class_type.class_members.get(name)
    if self_type.kind_name == "Optional":
        class_type = _by_instance_type.get(self_type.type)
        return None if class_type is None else _optional_member(class_type, name)
    class_type = _by_instance_type.get(self_type)
    if class_type is None:
        return None
    found = class_type.members.get(name)
    if found is None and name.startswith("__") and not name.endswith("__"):
        # The reader keeps `self.__m` unmangled; the class's code means `_Point__m`.
        found = class_type.members.get(_mangle(class_type.name, name))
    return found


def _optional_member(class_type, name):
    """``x.m(...)`` or ``x.prop`` where x may be None (a field or expression of type
    Optional(instance)): the member, called after raising Python's AttributeError for None."""
    if name in class_type.optional_members:
        return class_type.optional_members[name]
    member = class_type.members.get(name)
    if member is None and name.startswith("__") and not name.endswith("__"):
        name = _mangle(class_type.name, name)
        member = class_type.members.get(name)
    if member is None or name.startswith("$"):
        return None
    is_attribute = member[1]
    function = class_type.methods.get(name)
    if is_attribute or function is None or name in class_type.jit_static_methods:
        parameters, passed = "", ""
    else:
        parameters, passed, defaults = _parameter_text(inspect.signature(function), True)
    namespace = {"_member": class_type.member_dispatchers[name]}
    if parameters:
        namespace.update(defaults)
    message = repr(f"'NoneType' object has no attribute '{name}'")
    source = (
        f"def _optional_member(self{', ' if parameters else ''}{parameters}):\n"
        "    if self is None:\n"
        f"        raise AttributeError({message})\n"
        f"    return _member(self{', ' if passed else ''}{passed})\n"
    )
    dispatcher = _njit(_exec_function(source, namespace, "_optional_member"))
    entry = _registry._add(lambda i: _Overload(i, f"{class_type.name}.{name}", {}))
    entry.typers.append(lambda *args, **kwargs: dispatcher)
    class_type.optional_members[name] = (entry.registry_id, is_attribute)
    return class_type.optional_members[name]


def _instance_type_attribute(self, name):
    """Numba's attributes of an instance type (``instance_type.struct``, ``.class_type``,
    ``.jit_methods``...), read from its ClassType."""
    class_type = None
    if not name.startswith("__") and self.kind_name == "ClassInstanceType":
        class_type = _by_instance_type.get(self)
    if class_type is None:
        raise AttributeError(f"'{type(self).__name__}' object has no attribute {name!r}")
    if name == "class_type":
        return class_type
    return getattr(class_type, name)


_core.Type.__getattr__ = _instance_type_attribute


def class_type_of(instance_type):
    """The ClassType of a jitclass instance type, or None."""
    return _by_instance_type.get(instance_type)


# A jitclass's methods and properties (also of an optional instance), and its static methods
# (Point.sm), for the compiler's member lookups.
_registry.add_member_finder(("ClassInstanceType", "Function", "Optional"), _find_member)
