"""Numba's low-level extension API for user-defined types: ``typeof_impl``, ``as_numba_type``,
``type_callable``, ``lower_builtin``, ``make_attribute_wrapper``, ``box``/``unbox`` with
``NativeValue``, ``lower_cast``, ``lower_constant``, ``overload_classmethod``.

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
from typing import ClassVar

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
    with _lock:
        registered = _global_types.get(id(value))
    if registered is not None and registered[0] is value:
        return registered[1]  # infer_global(value, type)
    if _classmethods and isinstance(value, type):
        found = _typeof_type_class(value)
        if found is not None:
            return found
    # Only a registered function answers: the classes above are registered for their values
    # alone, and taipan's own typeof would ask this hook again.
    function = typeof_impl.find(value)
    found = function(value, _TYPEOF_PURPOSE) if function is not None else None
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
    """The typing of calls of one Python object by its ``type_callable`` typers and typing
    templates (``infer_global``), as an intrinsic's typing function: it gives (signature, the
    matching lower_builtin)."""

    def __init__(self, function):
        self.function = function
        # typer(typingctx, args) -> a signature or None: type_callable's functions and templates
        self.typers = []
        name = getattr(function, "__name__", "function")
        self.__name__ = name
        self.__qualname__ = getattr(function, "__qualname__", name)

    def __call__(self, typingctx, *args):
        args = tuple(user_view(a) for a in args)
        for typer in reversed(self.typers):
            signature = typer(typingctx, args)
            if signature is None:
                continue
            implementation = _find_lowering(self.function, tuple(signature.args))
            if implementation is None:
                raise TypingError(
                    f"{self.__name__}{tuple(signature.args)} is typed by type_callable but "
                    "no lower_builtin implements it"
                )
            return signature, implementation
        return None


_callables = {}  # Python object -> _UserCallable


def _add_call_typer(function, typer):
    with _lock:
        callable_ = _callables.get(function)
        if callable_ is None:
            callable_ = _callables[function] = _UserCallable(function)
            if function is print:
                _overload_print(callable_)
            elif _has_own_implementation(function):
                _overload_through(function, callable_)
            else:
                extending._registry.callable_entry(function, callable_)
        callable_.typers.append(typer)


def _has_own_implementation(function):
    """Whether calls of ``function`` have implementations besides the user's (an operator, a
    builtin, a NumPy or math function, one with overloads): the user's typing then applies only
    where it types the call, through an overload that declines otherwise."""
    module = getattr(function, "__module__", None) or ""
    if module in ("_operator", "operator", "builtins", "math", "cmath") or module.startswith(
        "numpy"
    ):
        return True
    try:
        return function in extending._registry._functions
    except TypeError:
        return False


def _overload_through(function, callable_):
    """Registers an overload of ``function`` whose implementation calls an intrinsic typed by
    the user's typers and lowered by their ``lower_builtin``, declining where none types the
    call."""
    lowered = extending.intrinsic(callable_)

    def typer(*args, **kwargs):
        if kwargs or callable_(extending._TYPING_CONTEXT, *args) is None:
            return None
        return _calling(lowered, len(args))

    extending.overload(function)(typer)


def _overload_print(callable_):
    """``print(...)`` where a value of a user type has a ``"print_item"`` lowering (Numba's
    print of items): each item printed in turn, separated by spaces, the line ended, with the
    GIL held (as Numba's print takes it); the items without one are boxed and printed as
    Python prints them. Other calls decline to taipan's own print."""

    def item_lowering(t):
        found = callable_(extending._TYPING_CONTEXT, t)
        return None if found is None else found[1]

    @extending.intrinsic
    def print_items(typingctx, *items):
        lowerings = [item_lowering(t) for t in items]

        def codegen(context, builder, signature, args):
            from taipan.user_type_boxing import _BoxingContext

            c = _BoxingContext(context, builder)
            pyapi = c.pyapi
            state = pyapi.gil_ensure()
            for index, (t, value, lowering) in enumerate(zip(items, args, lowerings)):
                if index:
                    pyapi.sys_write_stdout(context.insert_const_string(builder.module, " "))
                if lowering is not None:
                    lowering(context, builder, extending.types.none(t), [value])
                    continue
                literal = getattr(t, "literal_value", None)
                if literal is not None:  # a constant ("del"): its text, known now
                    text = context.insert_const_string(builder.module, str(literal))
                    fmt = context.insert_const_string(builder.module, "%s")
                    pyapi.sys_format_stdout(fmt, text)
                    continue
                obj = c.box(t, value)
                pyapi.print_object(obj)
                pyapi.decref(obj)
            pyapi.sys_write_stdout(context.insert_const_string(builder.module, "\n"))
            pyapi.gil_release(state)

        return extending.types.none(*items), codegen

    def typer(*args, **kwargs):
        if kwargs or not any(item_lowering(a) is not None for a in args):
            return None
        return _calling(print_items, len(args))

    extending.overload(print)(typer)


def _calling(lowered, count):
    """An implementation of ``count`` parameters calling the intrinsic ``lowered`` (an
    overload's implementation has named parameters; taipan reads the text exec compiled)."""
    names = ", ".join(f"a{i}" for i in range(count))
    namespace = {"lowered": lowered}
    exec(f"def call({names}):\n    return lowered({names})\n", namespace)  # noqa: S102
    return namespace["call"]


def type_callable(function):
    """Numba's ``type_callable(func)``: decorates ``typer_factory(context)`` returning
    ``typer(*arg_types)`` that gives the call's return type (or a signature), or None."""

    def decorate(factory):
        def typer(typingctx, args):
            result = factory(typingctx)(*args)
            if result is None or isinstance(result, extending.Signature):
                return result
            return result(*args)

        _add_call_typer(function, typer)
        return factory

    return decorate


# Numba's function templates (numba.core.typing.templates), for infer_global and infer.


class FunctionTemplate:
    """The base of Numba's function templates: ``key`` is what they type (a function),
    ``context`` the typing context."""

    key = None

    def __init__(self, context):
        self.context = context

    def apply(self, args, kws):
        """The signature of a call with argument types ``args`` (and keyword types ``kws``),
        or None when this template does not type it."""
        raise NotImplementedError


class AbstractTemplate(FunctionTemplate):
    """Numba's ``AbstractTemplate``: ``generic(self, args, kws)`` gives the signature."""

    def generic(self, args, kws):
        raise NotImplementedError

    def apply(self, args, kws):
        return self.generic(tuple(args), dict(kws))


class ConcreteTemplate(FunctionTemplate):
    """Numba's ``ConcreteTemplate``: ``cases`` lists the signatures. A call takes the first
    case whose argument types are the call's, else the first its numbers convert to (Numba's
    overload resolution picks among conversions the same way for one-case templates)."""

    cases: ClassVar[list] = []

    def apply(self, args, kws):
        if kws:
            return None
        args = tuple(args)
        for case in self.cases:
            if tuple(case.args) == args:
                return case
        numbers = ("Boolean", "Integer", "Float", "Complex")
        for case in self.cases:
            if len(case.args) == len(args) and all(
                a == b or (a.kind_name in numbers and b.kind_name in numbers)
                for a, b in zip(args, case.args)
            ):
                return case
        return None


class CallableTemplate(FunctionTemplate):
    """Numba's ``CallableTemplate``: ``generic(self)`` gives ``typer(*arg_types)``, which
    gives the return type (or a signature), or None."""

    def generic(self):
        raise NotImplementedError

    def apply(self, args, kws):
        result = self.generic()(*args, **kws)
        if result is None or isinstance(result, extending.Signature):
            return result
        return result(*args)


def _template_typer(template_class):
    def typer(typingctx, args):
        return template_class(typingctx).apply(args, {})

    return typer


_global_types = {}  # id(value) -> (value, type): infer_global(value, type)


def infer_global(function, typ=None):
    """Numba's ``infer_global(func)``: decorates a template class typing the calls of
    ``func`` (a Python function or class), which ``lower_builtin`` implementations lower.
    ``infer_global(value, typ)`` instead makes ``value``, read as a global or closure
    variable, of the user type ``typ``; its ``lower_constant`` (or ``unbox``) makes the
    constant."""
    if typ is not None:
        with _lock:
            _global_types[id(function)] = (function, typ)
        _core.register_user_typeof_class(type(function))
        return None

    def decorate(template_class):
        template_class.key = function
        _add_call_typer(function, _template_typer(template_class))
        return template_class

    return decorate


def _internal_key(key):
    """The function taipan types in place of Numba's internal key ``key`` (``"print_item"``:
    ``print`` of one value; ``"getitem"``, ``"setitem"``: the operator functions, which the
    indexing of user types asks), else ``key`` itself (``"__array__"`` is asked for by its
    name; Numba's other internal operations are not extensible in taipan)."""
    if not isinstance(key, str):
        return key
    import operator

    internal = {
        "print_item": print,
        "getitem": operator.getitem,
        "static_getitem": operator.getitem,
        "setitem": operator.setitem,
        "static_setitem": operator.setitem,
    }
    # Other keys ("__array_wrap__", "getiter"...) stay strings: registered, never asked for.
    return internal.get(key, key)


def infer(template_class):
    """Numba's ``@infer``: registers a template class by its ``key``, a Python function or
    class, or one of Numba's internal keys taipan maps onto a function (``"print_item"`` is
    ``print`` of one value; ``"getitem"``/``"setitem"`` are ``operator.getitem``/``setitem``),
    which ``lower_builtin`` with the same key lowers."""
    key = template_class.key
    if key is None:
        raise NotImplementedError("@infer of a template without a key")
    _add_call_typer(_internal_key(key), _template_typer(template_class))
    return template_class


def lower_builtin(function, *arg_types):
    """Numba's ``lower_builtin(func, *argtys)``: decorates ``impl(context, builder, sig,
    args)`` building the call's result with llvmlite, for calls typed by ``type_callable``."""

    function = _internal_key(function)

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
            # The member is borrowed from the value: the result is a new reference.
            context.nrt.incref(builder, member_type, field)
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


def _registering(lowerings, type_spec, attr):
    """A decorator adding ``(type_spec, attr, implementation)`` to `lowerings` (attr None: any
    attribute) and giving the implementation back."""

    def decorate(implementation):
        with _lock:
            lowerings.append((type_spec, attr, implementation))
        return implementation

    return decorate


def lower_getattr(type_spec, attr):
    """Numba's ``lower_getattr(Type, attr)``: decorates ``impl(context, builder, typ, value)``
    giving the attribute's value."""
    return _registering(_getattr_lowerings, type_spec, attr)


def lower_getattr_generic(type_spec):
    """Numba's ``lower_getattr_generic(Type)``: decorates ``impl(context, builder, typ, value,
    attr)`` for any attribute the templates type."""
    return _registering(_getattr_lowerings, type_spec, None)


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


_setattr_lowerings = []  # [(type spec, attribute or None for any, implementation)]
_SETTER_PREFIX = "$setter."  # the compiler's name for `value.attr = x` (typing/JitClassTyping.h)


def lower_setattr(type_spec, attr):
    """Numba's ``lower_setattr(Type, attr)``: decorates ``impl(context, builder, sig, args)``
    storing ``args[1]`` into the attribute of ``args[0]``; ``sig`` is ``none(Type,
    attribute type)`` with the attribute's type from the attribute templates, to which the
    stored value is converted."""
    return _registering(_setattr_lowerings, type_spec, attr)


def lower_setattr_generic(type_spec):
    """Numba's ``lower_setattr_generic(Type)``: decorates ``impl(context, builder, sig, args,
    attr)`` for any attribute the templates type."""
    return _registering(_setattr_lowerings, type_spec, None)


def _setattr_lowering(value, attr):
    with _lock:
        lowerings = list(reversed(_setattr_lowerings))
    for spec, name, implementation in lowerings:
        if name == attr and _matches(spec, value):
            return implementation
    for spec, name, implementation in lowerings:
        if name is None and _matches(spec, value):
            return lambda context, builder, sig, args: implementation(
                context, builder, sig, args, attr
            )
    return None


def _find_template_setter(self_type, attr):
    """The member finder's answer for ``value.attr = x`` of a user type: an overload whose
    implementation calls an intrinsic running the ``lower_setattr``."""
    key = (self_type, _SETTER_PREFIX + attr)
    with _lock:
        if key in _attribute_entries:
            return _attribute_entries[key]
    attribute_type = _template_type(self_type, attr)
    lowering = _setattr_lowering(self_type, attr)
    if attribute_type is None or lowering is None:
        return None

    def typer(typingctx, value, stored):
        def codegen(context, builder, signature, args):
            lowering(context, builder, signature, args)

        return extending.types.none(value, attribute_type), codegen

    typer.__name__ = f"{self_type}.{attr}.__set__"
    store = extending.intrinsic(typer)

    def implement(value, stored):
        def set_(value, stored):
            store(value, stored)

        return set_

    entry = extending._registry.member_overload_entry(f"{self_type}.{attr} (set)")
    entry.typers.append(implement)
    found = (entry.registry_id, False)
    with _lock:
        _attribute_entries[key] = found
    return found


# Constants: global and closure values of user types (Numba's lower_constant).

_constant_lowerings = []  # [(type spec, implementation)], newest last


def lower_constant(type_spec):
    """Numba's ``lower_constant(Type)``: decorates ``impl(context, builder, ty, pyval)``
    building the value of the Python object ``pyval`` (a global or closure variable of the
    user type ``ty``). taipan runs it once, when the function compiles, and keeps the bytes it
    built as a constant of the module (so the value must hold no references or addresses); a
    type without one is frozen by its ``unbox``."""

    def decorate(implementation):
        with _lock:
            _constant_lowerings.append((type_spec, implementation))
        return implementation

    return decorate


def _constant_into(value, t, address):
    """Writes the constant of ``value`` (of user type ``t``) at ``address`` by its type's
    ``lower_constant``: False when the type has none (src/bindings/UserTypeBoxing)."""
    from taipan.user_type_boxing import constant_writer

    t = user_view(t)
    with _lock:
        lowerings = list(reversed(_constant_lowerings))
    for spec, implementation in lowerings:
        if _matches(spec, t):
            constant_writer(t, value, implementation)(address)
            return True
    return False


# Class methods of type classes (Numba's overload_classmethod): `MyArray.make(n)` in compiled
# code, where MyArray is a Python subclass of a taipan type class.

_classmethods = []  # [(type class, attribute, registry id of its overload)], newest last


class TypeClassRef(extending.types.Type):
    """The type of a type class read as a global (``MyArray`` in ``MyArray.make(n)``): it
    holds nothing at run time; its class methods are ``overload_classmethod``'s."""

    def __init__(self, instance_class):
        self.instance_class = instance_class
        super().__init__(name=f"typeref[{instance_class.__qualname__}]")

    @property
    def key(self):
        return self.instance_class


def overload_classmethod(type_class, attr, **kwargs):
    """Numba's ``overload_classmethod(TypeClass, attr)``: decorates a typing function ``typer(
    cls, *args)`` whose implementation ``impl(cls, *args)`` is the class method ``attr`` of
    ``TypeClass`` and its subclasses, called on the class in compiled code (``cls`` is its
    ``TypeClassRef``)."""
    _check_type_class = extending._check_type_class
    _check_type_class(type_class)
    options = dict(kwargs.get("jit_options") or {})

    def decorate(typer):
        entry = extending._registry.member_overload_entry(f"{type_class.__name__}.{attr}")
        entry.jit_options = options
        entry.typers.append(typer)
        with _lock:
            _classmethods.append((type_class, attr, entry.registry_id))
        # type classes become values compiled code can read (their metaclass's values)
        _core.register_user_typeof_class(type(type_class))
        return typer

    return decorate


def _typeof_type_class(value):
    """A type class read as a global: a TypeClassRef once class methods are registered for
    type classes of its metaclass (``types.Array`` too when only a subclass has one: reading
    one it lacks is Numba's "Unknown attribute" error), else None."""
    with _lock:
        registered = [cls for cls, _, _ in _classmethods]
    if isinstance(value, type) and any(type(value) is type(cls) for cls in registered):
        return TypeClassRef(value)
    return None


def _find_classmethod(self_type, attr):
    with _lock:
        methods = list(reversed(_classmethods))
    for cls, name, registry_id in methods:
        if name == attr and issubclass(self_type.instance_class, cls):
            return (registry_id, False)
    return None


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
        with _lock:
            _cast_lowerings.append((from_spec, to_spec, implementation))
        return implementation

    return decorate


def _cast_lowering(from_type, to_type):
    with _lock:
        lowerings = list(reversed(_cast_lowerings))
    for from_spec, to_spec, implementation in lowerings:
        if _matches(from_spec, from_type) and _matches(to_spec, to_type):
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


def _conversion_target(self_type, target_name):
    """The number a value of ``self_type`` converts to: ``target_name``'s, or where any number
    will do the type's own choice, tried in order: its ``dtype`` when a number (an IntEnum
    member's value type), int64, float64, complex128, bool."""
    if target_name is not None:
        target = _number_type(target_name)
        return target if target is not None and _converts(self_type, target) else None
    array = _array_view(self_type)
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


def _array_view(self_type):
    """Numba's array-compatible types: the ``as_array`` type of a user type that lowers
    ``"__array__"`` (its array, where compiled code needs one: ``len(x)``, ``x[i]``), else
    None."""
    array = getattr(self_type, "as_array", None)
    if not isinstance(array, extending.types.Type) or array.kind_name != "Array":
        return None
    return array if _find_lowering("__array__", (self_type,)) is not None else None


def _array_of(self_type, array):
    """The codegen of the conversion to ``array``: Numba's ``__array__`` lowering takes the
    value's address and gives the address of the array (a member); the result is a new
    reference, as every conversion's."""
    implementation = _find_lowering("__array__", (self_type,))

    def convert(context, builder, fromty, toty, value):
        from taipan.core import cgutils

        address = cgutils.alloca_once_value(builder, value)
        result = implementation(context, builder, toty(fromty), [address])
        if result.type.is_pointer:
            result = builder.load(result)
        context.nrt.incref(builder, toty, result)
        return result

    return convert


def _find_cast(self_type, member):
    """The member finder's answer for the compiler's ``$cast`` (a number of the type's choice)
    and ``$cast.<number type>``: an intrinsic taking the value and returning the number, which
    runs the ``lower_cast``; None when the type does not convert."""
    target_name = member.partition(".")[2] or None
    key = (self_type, target_name)
    with _lock:
        if key in _cast_entries:
            return _cast_entries[key]
    target = _conversion_target(self_type, target_name)
    found = None
    if target is not None:
        lowering = _cast_lowering(self_type, target) or _array_of(self_type, target)

        def typer(typingctx, value):
            def codegen(context, builder, signature, args):
                return lowering(context, builder, user_view(value), target, args[0])

            return target(value), codegen

        typer.__name__ = f"{self_type}.__cast_to_{target}__"
        found = (extending.intrinsic(typer).registry_id, False)
    with _lock:
        _cast_entries[key] = found
    return found


# The compiler asks a user type for these methods for `a + b`, `-a`...: the overloads and
# templates of the operator module's function answer (Numba types operators that way).
_OPERATOR_METHODS = {
    "__add__": "add",
    "__sub__": "sub",
    "__mul__": "mul",
    "__truediv__": "truediv",
    "__floordiv__": "floordiv",
    "__mod__": "mod",
    "__pow__": "pow",
    "__lshift__": "lshift",
    "__rshift__": "rshift",
    "__and__": "and_",
    "__or__": "or_",
    "__xor__": "xor",
    "__matmul__": "matmul",
    "__neg__": "neg",
    "__pos__": "pos",
    "__invert__": "invert",
    "__getitem__": "getitem",
    "__setitem__": "setitem",
    "__delitem__": "delitem",  # `del p[i]` (read as p.__delitem__(i), bindings/AstReader)
    "__eq__": "eq",
    "__ne__": "ne",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
    # `is`/`is not` between two user-type values (typing/ExpressionInference.cpp)
    "$is": "is_",
    "$is_not": "is_not",
}


_operator_entries = {}  # method name -> registry id of its member overload


def _find_operator(self_type, method):
    """A member overload that chooses among the operator function's typing functions (the
    user's overloads and templates), a TypingError naming the operator when none applies."""
    import operator

    function = getattr(operator, _OPERATOR_METHODS[method])
    extending._registry.lookup(function)  # loads taipan's operator library first
    with _lock:
        entry = extending._registry._functions.get(function)
        if entry is None or isinstance(entry, extending._Intrinsic):
            return None
        found = _operator_entries.get(method)
        if found is None:
            name = f"operator.{function.__name__}"
            member = extending._registry.member_overload_entry(name)
            member.typers.append(lambda *args: _choose_operator(entry, name, args))
            found = _operator_entries[method] = (member.registry_id, False)
    return found


def _choose_operator(entry, name, args):
    """The implementation the user's typing functions of an operator give for ``args``. Those
    of taipan's operator library (taipan.operator_library: the operator written as itself, for
    calls such as operator.add(a, b)) would recurse into the same operator of a user type."""
    for typer in entry.typers:
        if getattr(typer, "__module__", None) == "taipan.operator_library":
            continue
        implementation = typer(*args)
        if implementation is not None:
            return implementation
    array_compatible = _array_compatible()
    if name == "operator.getitem":  # a types.Buffer's items and views (Numba's GetItemBuffer)
        implementation = array_compatible.view_getitem(*args)
    else:  # an array-compatible operand: the operator's ufunc (Numba's array operators)
        implementation = array_compatible.operator_of_arrays(name, args)
    if implementation is not None:
        return implementation
    raise TypingError(f"No implementation of {name} for argument types {_describe_types(args)}")


def _array_compatible():
    """taipan.array_compatible (ufuncs, operators and views of array-compatible values), which
    sits above this module and uses its conversions: imported by name at first use."""
    import importlib

    return importlib.import_module("taipan.array_compatible")


def _describe_types(args):
    return "(" + ", ".join(str(a) for a in args) + ")"


def _find_type_class_overload(self_type):
    """The overloads registered for the type class of ``self_type`` (or a base of it), which a
    call of a value of the type tries (Numba's ``@overload(TypeClass)`` of ``types.Callable``
    subclasses); as a member overload taking the call's arguments."""
    for cls in type(self_type).__mro__:
        try:
            entry = extending._registry._functions.get(cls)
        except TypeError:
            continue
        if isinstance(entry, extending._Overload):
            return (entry.registry_id, False)
    return None


def _find_template_attribute(self_type, attr):
    """The member finder for user types' attributes that templates type, attribute stores
    (lower_setattr) and operators (overloads or templates of the operator's function)."""
    if attr.startswith(_SETTER_PREFIX):
        return _find_template_setter(self_type, attr[len(_SETTER_PREFIX) :])
    if attr == "$cast" or attr.startswith("$cast."):
        return _find_cast(self_type, attr)
    if attr == "__call__":  # a call of a value of the type
        return _find_type_class_overload(self_type)
    if attr.startswith("$ufunc."):  # a ufunc of an array-compatible value
        return _array_compatible().find_ufunc(self_type, attr)
    if isinstance(self_type, TypeClassRef):
        return _find_classmethod(self_type, attr)
    if attr in _OPERATOR_METHODS:
        return _find_operator(self_type, attr)
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


@datamodels.register_model(TypeClassRef)
class _TypeClassRefModel(datamodels.StructModel):
    """A type class holds nothing at run time."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [])


@lower_constant(TypeClassRef)
def _type_class_constant(context, builder, ty, pyval):
    from taipan.core import cgutils

    return cgutils.create_struct_proxy(ty)(context, builder)._getvalue()
