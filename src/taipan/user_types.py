"""Numba's low-level extension API for user-defined types: ``typeof_impl``, ``as_numba_type``,
``type_callable``, ``lower_builtin``, ``make_attribute_wrapper``, ``box``/``unbox`` with
``NativeValue``.

Typing callbacks and lowering functions are held here, in Python, keyed by the user's objects;
the compiler reaches them through the registry of taipan.extending. A call of a Python class
that ``type_callable`` types is an intrinsic (taipan.extending's ``_Intrinsic``) whose typing
function asks the ``type_callable`` typers and whose codegen is the ``lower_builtin`` function
matching the argument types: the user's llvmlite code is generated per typed call into a
function, then linked and inlined, through the bridge the intrinsics use
(taipan.intrinsic_builder). ``make_attribute_wrapper`` attributes are member overloads whose
implementation is such an intrinsic, reading the member from the StructModel's layout. Boxing
and unboxing compile the user's ``box``/``unbox`` into C functions (taipan.user_type_boxing).
"""

import threading

from taipan import _core, datamodels, extending
from taipan.errors import TypingError
from taipan.user_type_boxing import NativeValue, compile_conversions  # noqa: F401 - exported
from taipan.user_type_registry import user_view

_lock = threading.RLock()


class _TypeofRegistry:
    """Numba's ``typeof_impl`` as far as extensions use it: ``typeof_impl.register(PyClass)``
    decorates ``typeof(value, context)`` returning the value's type (or None)."""

    def __init__(self):
        self._functions = {}  # Python class -> typeof function

    def register(self, cls):
        def decorate(function):
            with _lock:
                self._functions[cls] = function
            _core.register_user_typeof_class(cls)
            return function

        return decorate

    def find(self, value):
        with _lock:
            for cls in type(value).__mro__:
                function = self._functions.get(cls)
                if function is not None:
                    return function
        return None

    def __call__(self, value, context=None):
        """The type of ``value``: a registered function's, else taipan's typeof (None when
        compiled code cannot take the value), as Numba's typeof_impl dispatches."""
        function = self.find(value)
        if function is not None:
            return function(value, context)
        try:
            return user_view(_core.typeof(value))
        except ValueError:
            return None


typeof_impl = _TypeofRegistry()


class _AsNumbaType:
    """Numba's ``as_numba_type``: ``register(PyClass, type)`` and ``as_numba_type(PyClass)``."""

    def __init__(self):
        self._types = {}

    def register(self, cls, numba_type):
        self._types[cls] = numba_type

    def __call__(self, cls):
        if cls in self._types:
            return self._types[cls]
        raise TypingError(f"no taipan type is registered for {cls!r} (as_numba_type.register)")


as_numba_type = _AsNumbaType()


def _typeof_hook(value):
    """The compiler's typeof of a value no built-in rule types (src/bindings/UserTypeBoxing)."""
    found = typeof_impl(value, _TYPEOF_PURPOSE)
    return found if isinstance(found, extending.types.Type) else None


class _TypeofContext:
    """The ``c`` a typeof function receives (Numba's ``_TypeofContext``)."""

    purpose = "argument"


_TYPEOF_PURPOSE = _TypeofContext()


# Calls of Python objects (a user's class) typed by type_callable, lowered by lower_builtin.

_lowerings = []  # [(function, argument type specs, implementation)], newest last


def _matches(spec, actual):
    if spec is extending.types.Any:
        return True
    if isinstance(spec, type):
        return isinstance(user_view(actual), spec)
    return spec == actual


def _find_lowering(function, args):
    with _lock:
        candidates = [entry for entry in _lowerings if entry[0] is function]
    for _, specs, implementation in reversed(candidates):
        if specs and specs[-1].__class__.__name__ == "VarArg":
            fixed = specs[:-1]
            if (
                len(args) >= len(fixed)
                and all(_matches(s, a) for s, a in zip(fixed, args))
                and all(_matches(specs[-1].dtype, a) for a in args[len(fixed) :])
            ):
                return implementation
        elif len(specs) == len(args) and all(_matches(s, a) for s, a in zip(specs, args)):
            return implementation
    return None


class _UserCallable:
    """The typing of calls of one Python object by its ``type_callable`` typers, as an
    intrinsic's typing function: it gives (signature, the matching lower_builtin)."""

    def __init__(self, function):
        self.function = function
        self.typers = []  # type_callable's functions, each typer(context) -> typer(*args)
        name = getattr(function, "__name__", "function")
        self.__name__ = name
        self.__qualname__ = getattr(function, "__qualname__", name)

    def __call__(self, typingctx, *args):
        args = tuple(user_view(a) for a in args)
        for factory in reversed(self.typers):
            result = factory(typingctx)(*args)
            if result is None:
                continue
            signature = result if isinstance(result, extending.Signature) else result(*args)
            implementation = _find_lowering(self.function, tuple(signature.args))
            if implementation is None:
                raise TypingError(
                    f"{self.__name__}{tuple(signature.args)} is typed by type_callable but "
                    "no lower_builtin implements it"
                )
            return signature, implementation
        return None


_callables = {}  # Python object -> _UserCallable


def type_callable(function):
    """Numba's ``type_callable(func)``: decorates ``typer_factory(context)`` returning
    ``typer(*arg_types)`` that gives the call's return type (or a signature), or None."""

    def decorate(factory):
        with _lock:
            callable_ = _callables.get(function)
            if callable_ is None:
                callable_ = _callables[function] = _UserCallable(function)
                extending._registry.callable_entry(function, callable_)
            callable_.typers.append(factory)
        return factory

    return decorate


def lower_builtin(function, *arg_types):
    """Numba's ``lower_builtin(func, *argtys)``: decorates ``impl(context, builder, sig,
    args)`` building the call's result with llvmlite, for calls typed by ``type_callable``."""

    def decorate(implementation):
        with _lock:
            _lowerings.append((function, tuple(arg_types), implementation))
        return implementation

    return decorate


lower = lower_builtin


# Attributes of StructModel members.


def _member_reader(type_class, member):
    """An intrinsic reading ``member`` of a value of a StructModel type."""

    def typer(typingctx, value):
        model = datamodels.model_of(value)
        if not isinstance(model, datamodels.StructModel) or member not in model._fields:
            raise TypingError(f"{value} has no data model member {member!r}")
        position = model.get_field_position(member)
        member_type = model._members_types[position]

        def codegen(context, builder, signature, args):
            field = builder.extract_value(args[0], position)
            if member_type.kind_name == "Boolean":  # held as a byte, as in tuples
                field = builder.icmp_unsigned("!=", field, field.type(0))
            return field

        return member_type(value), codegen

    typer.__name__ = f"{type_class.__name__}.{member}"
    return extending.intrinsic(typer)


def make_attribute_wrapper(type_class, struct_attr, python_attr):
    """Numba's ``make_attribute_wrapper(TypeClass, struct_attr, python_attr)``: the attribute
    ``python_attr`` of values of ``type_class`` reads the model's member ``struct_attr``."""
    reader = _member_reader(type_class, struct_attr)

    @extending.overload_attribute(type_class, python_attr)
    def attribute(value):
        def get(value):
            return reader(value)

        return get

    return attribute


# Attributes typed by an AttributeTemplate (infer_getattr) and lowered by lower_getattr.


class AttributeTemplate:
    """Numba's ``AttributeTemplate``: ``key`` is the type (or type class) whose attributes it
    types; ``resolve_<attr>(self, value_type)`` gives an attribute's type, or
    ``generic_resolve(self, value_type, attr)`` any attribute's (None: not this one)."""

    key = None

    def __init__(self, context):
        self.context = context

    def resolve(self, value, attr):
        resolver = getattr(self, "resolve_" + attr, None)
        if resolver is not None:
            return resolver(value)
        return self.generic_resolve(value, attr)

    def generic_resolve(self, value, attr):
        return None


_attribute_templates = []  # infer_getattr's template classes, newest last
_getattr_lowerings = []  # [(type spec, attribute or None for any, implementation)]
_attribute_entries = {}  # (type, attribute) -> registry id of its member overload


def infer_getattr(template_class):
    """Numba's ``@infer_getattr``: registers an ``AttributeTemplate`` class."""
    with _lock:
        _attribute_templates.append(template_class)
    return template_class


def lower_getattr(type_spec, attr):
    """Numba's ``lower_getattr(Type, attr)``: decorates ``impl(context, builder, typ, value)``
    giving the attribute's value."""

    def decorate(implementation):
        with _lock:
            _getattr_lowerings.append((type_spec, attr, implementation))
        return implementation

    return decorate


def lower_getattr_generic(type_spec):
    """Numba's ``lower_getattr_generic(Type)``: decorates ``impl(context, builder, typ, value,
    attr)`` for any attribute the templates type."""

    def decorate(implementation):
        with _lock:
            _getattr_lowerings.append((type_spec, None, implementation))
        return implementation

    return decorate


def _template_type(value, attr):
    with _lock:
        templates = list(reversed(_attribute_templates))
    for template in templates:
        if _matches(template.key, value):
            found = template(extending._TYPING_CONTEXT).resolve(value, attr)
            if found is not None:
                return found
    return None


def _getattr_lowering(value, attr):
    with _lock:
        lowerings = list(reversed(_getattr_lowerings))
    for spec, name, implementation in lowerings:
        if name == attr and _matches(spec, value):
            return lambda context, builder, typ, val: implementation(context, builder, typ, val)
    for spec, name, implementation in lowerings:
        if name is None and _matches(spec, value):
            return lambda context, builder, typ, val: implementation(
                context, builder, typ, val, attr
            )
    return None


def _find_template_attribute(self_type, attr):
    """The member finder for user types' attributes that templates type."""
    key = (self_type, attr)
    with _lock:
        if key in _attribute_entries:
            return _attribute_entries[key]
    if _template_type(self_type, attr) is None:
        return None
    lowering = _getattr_lowering(self_type, attr)
    if lowering is None:
        raise TypingError(f"the attribute {attr!r} of {self_type} is typed but not lowered")

    def typer(typingctx, value):
        result = _template_type(value, attr)

        def codegen(context, builder, signature, args):
            return lowering(context, builder, signature.args[0], args[0])

        return result(value), codegen

    typer.__name__ = f"{self_type}.{attr}"
    reader = extending.intrinsic(typer)
    entry = extending._registry.member_overload_entry(f"{self_type}.{attr}")
    entry.typers.append(lambda value: lambda value: reader(value))
    found = (entry.registry_id, True)
    with _lock:
        _attribute_entries[key] = found
    return found


extending._registry.add_member_finder({"UserType"}, _find_template_attribute)


# Boxing.


_boxers = {}  # type class -> box function
_unboxers = {}  # type class -> unbox function


def _registration(table):
    def register(type_class):
        def decorate(function):
            with _lock:
                table[type_class] = function
            return function

        return decorate

    return register


box = _registration(_boxers)
unbox = _registration(_unboxers)


def _find(table, t):
    with _lock:
        for cls in type(t).__mro__:
            if cls in table:
                return table[cls]
    return None


def _boxing_hook(t):
    """(unbox address, box address) of the user type ``t`` for the compiler's boxing, 0 where
    none is registered; compiled at their first use (taipan.user_type_boxing)."""
    t = user_view(t)
    return compile_conversions(t, _find(_unboxers, t), _find(_boxers, t))


_core.set_user_type_hooks(_typeof_hook, _boxing_hook)
