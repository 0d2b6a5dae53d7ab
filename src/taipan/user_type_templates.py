"""Numba's typing templates and lowering registrations for user-defined types: calls of Python
objects typed by ``type_callable``, ``infer_global`` and ``infer`` templates and lowered by
``lower_builtin``; attributes typed by ``infer_getattr`` templates and lowered by
``lower_getattr``/``lower_setattr``; ``make_attribute_wrapper`` members (taipan.user_types
re-exports them and answers the compiler's member questions).

A call of a Python class that ``type_callable`` types is an intrinsic (taipan.extending's
``_Intrinsic``) whose typing function asks the ``type_callable`` typers and whose codegen is the
``lower_builtin`` function matching the argument types: the user's llvmlite code is generated per
typed call into a function, then linked and inlined, through the bridge the intrinsics use
(taipan.intrinsic_builder). ``make_attribute_wrapper`` attributes are member overloads whose
implementation is such an intrinsic, reading the member from the StructModel's layout.
"""

import threading
from typing import ClassVar

from taipan import _core, datamodels, extending
from taipan.errors import TypingError
from taipan.user_type_registry import user_view

# Guards every registration table of the user-type modules (they run user code under it, which
# may register more: re-entrant).
lock = threading.RLock()


# Calls of Python objects (a user's class) typed by type_callable, lowered by lower_builtin.

_lowerings = []  # [(function, argument type specs, implementation)], newest last


def matches(spec, actual):
    if spec is extending.types.Any:
        return True
    if isinstance(spec, type):
        return isinstance(user_view(actual), spec)
    return spec == actual


def find_lowering(function, args):
    with lock:
        candidates = [entry for entry in _lowerings if entry[0] is function]
    for _, specs, implementation in reversed(candidates):
        if specs and specs[-1].__class__.__name__ == "VarArg":
            fixed = specs[:-1]
            if (
                len(args) >= len(fixed)
                and all(matches(s, a) for s, a in zip(fixed, args))
                and all(matches(specs[-1].dtype, a) for a in args[len(fixed) :])
            ):
                return implementation
        elif len(specs) == len(args) and all(matches(s, a) for s, a in zip(specs, args)):
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
            implementation = find_lowering(self.function, tuple(signature.args))
            if implementation is None:
                raise TypingError(
                    f"{self.__name__}{tuple(signature.args)} is typed by type_callable but "
                    "no lower_builtin implements it"
                )
            return signature, implementation
        return None


callables = {}  # Python object -> _UserCallable


def _add_call_typer(function, typer):
    with lock:
        callable_ = callables.get(function)
        if callable_ is None:
            callable_ = callables[function] = _UserCallable(function)
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


global_types = {}  # id(value) -> (value, type): infer_global(value, type)


def infer_global(function, typ=None):
    """Numba's ``infer_global(func)``: decorates a template class typing the calls of
    ``func`` (a Python function or class), which ``lower_builtin`` implementations lower.
    ``infer_global(value, typ)`` instead makes ``value``, read as a global or closure
    variable, of the user type ``typ``; its ``lower_constant`` (or ``unbox``) makes the
    constant."""
    if typ is not None:
        with lock:
            global_types[id(function)] = (function, typ)
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
        with lock:
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
    with lock:
        _attribute_templates.append(template_class)
    return template_class


def _registering(lowerings, type_spec, attr):
    """A decorator adding ``(type_spec, attr, implementation)`` to `lowerings` (attr None: any
    attribute) and giving the implementation back."""

    def decorate(implementation):
        with lock:
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


def template_type(value, attr):
    with lock:
        templates = list(reversed(_attribute_templates))
    for template in templates:
        if matches(template.key, value):
            found = template(extending._TYPING_CONTEXT).resolve(value, attr)
            if found is not None:
                return found
    return None


def _getattr_lowering(value, attr):
    with lock:
        lowerings = list(reversed(_getattr_lowerings))
    for spec, name, implementation in lowerings:
        if name == attr and matches(spec, value):
            return lambda context, builder, typ, val: implementation(context, builder, typ, val)
    for spec, name, implementation in lowerings:
        if name is None and matches(spec, value):
            return lambda context, builder, typ, val: implementation(
                context, builder, typ, val, attr
            )
    return None


_setattr_lowerings = []  # [(type spec, attribute or None for any, implementation)]
SETTER_PREFIX = "$setter."  # the compiler's name for `value.attr = x` (typing/JitClassTyping.h)


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
    with lock:
        lowerings = list(reversed(_setattr_lowerings))
    for spec, name, implementation in lowerings:
        if name == attr and matches(spec, value):
            return implementation
    for spec, name, implementation in lowerings:
        if name is None and matches(spec, value):
            return lambda context, builder, sig, args: implementation(
                context, builder, sig, args, attr
            )
    return None


def find_template_setter(self_type, attr):
    """The member finder's answer for ``value.attr = x`` of a user type: an overload whose
    implementation calls an intrinsic running the ``lower_setattr``."""
    key = (self_type, SETTER_PREFIX + attr)
    with lock:
        if key in _attribute_entries:
            return _attribute_entries[key]
    attribute_type = template_type(self_type, attr)
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
    with lock:
        _attribute_entries[key] = found
    return found


def find_template_attribute(self_type, attr):
    """The member finder's answer for ``value.attr`` of a user type that an attribute template
    types (read through its ``lower_getattr``), or None."""
    key = (self_type, attr)
    with lock:
        if key in _attribute_entries:
            return _attribute_entries[key]
    if template_type(self_type, attr) is None:
        return None
    lowering = _getattr_lowering(self_type, attr)
    if lowering is None:
        raise TypingError(f"the attribute {attr!r} of {self_type} is typed but not lowered")

    def typer(typingctx, value):
        result = template_type(value, attr)

        def codegen(context, builder, signature, args):
            return lowering(context, builder, signature.args[0], args[0])

        return result(value), codegen

    typer.__name__ = f"{self_type}.{attr}"
    reader = extending.intrinsic(typer)
    entry = extending._registry.member_overload_entry(f"{self_type}.{attr}")
    entry.typers.append(lambda value: lambda value: reader(value))
    found = (entry.registry_id, True)
    with lock:
        _attribute_entries[key] = found
    return found
