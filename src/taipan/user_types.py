"""Numba's low-level extension API for user-defined types: ``typeof_impl``, ``as_numba_type``,
``type_callable``, ``lower_builtin``, ``make_attribute_wrapper``, ``box``/``unbox`` with
``NativeValue``, ``lower_cast``, ``lower_constant``, ``overload_classmethod``; and the compiler's
questions about user types: the typeof of values no built-in rule types, and the members
(attributes, operators, casts, class methods, calls) of their values.

Typing callbacks and lowering functions are held in Python, keyed by the user's objects; the
compiler reaches them through the registry of taipan.extending. The registrations live in
taipan.user_type_templates (calls and attributes typed by templates), taipan.user_type_casts
(conversions to numbers and arrays, constants) and taipan.user_type_boxing (``box``/``unbox``,
compiled into C functions); this module re-exports them and installs the compiler's hooks.
"""

from taipan import _core, datamodels, extending
from taipan.errors import TypingError
from taipan.user_type_boxing import (  # noqa: F401 - exported
    NativeValue,
    box,
    boxing_hook,
    compile_conversions,
    unbox,
)
from taipan.user_type_casts import (  # noqa: F401 - exported
    constant_into,
    find_cast,
    lower_cast,
    lower_constant,
)
from taipan.user_type_registry import user_view
from taipan.user_type_templates import (  # noqa: F401 - exported
    SETTER_PREFIX,
    AbstractTemplate,
    AttributeTemplate,
    CallableTemplate,
    ConcreteTemplate,
    FunctionTemplate,
    find_template_attribute,
    find_template_setter,
    global_types,
    infer,
    infer_getattr,
    infer_global,
    lock,
    lower,
    lower_builtin,
    lower_getattr,
    lower_getattr_generic,
    lower_setattr,
    lower_setattr_generic,
    make_attribute_wrapper,
    type_callable,
)

_constant_into = constant_into  # what src/bindings/UserTypeBoxing calls


class _TypeofRegistry:
    """Numba's ``typeof_impl`` as far as extensions use it: ``typeof_impl.register(PyClass)``
    decorates ``typeof(value, context)`` returning the value's type (or None)."""

    def __init__(self):
        self._functions = {}  # Python class -> typeof function

    def register(self, cls):
        def decorate(function):
            with lock:
                self._functions[cls] = function
            _core.register_user_typeof_class(cls)
            return function

        return decorate

    def find(self, value):
        with lock:
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
    with lock:
        registered = global_types.get(id(value))
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
        with lock:
            _classmethods.append((type_class, attr, entry.registry_id))
        # type classes become values compiled code can read (their metaclass's values)
        _core.register_user_typeof_class(type(type_class))
        return typer

    return decorate


def _type_class_family(value):
    """Numba's type classes ("kinds", types.Array), user Type subclasses ("user"), or None."""
    if isinstance(value, extending.types._TypeClass):
        return "kinds"
    if isinstance(value, type) and issubclass(value, extending.types.Type):
        return "user"
    return None


def _typeof_type_class(value):
    """A type class read as a global: a TypeClassRef once class methods are registered for
    type classes of its family (``types.Array`` too when only a subclass has one: reading one
    it lacks is Numba's "Unknown attribute" error), else None."""
    with lock:
        registered = [cls for cls, _, _ in _classmethods]
    family = _type_class_family(value)
    if family is not None and any(_type_class_family(cls) == family for cls in registered):
        return TypeClassRef(value)
    return None


def _find_classmethod(self_type, attr):
    with lock:
        methods = list(reversed(_classmethods))
    for cls, name, registry_id in methods:
        if name == attr and issubclass(self_type.instance_class, cls):
            return (registry_id, False)
    return None


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
    with lock:
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
    if attr.startswith(SETTER_PREFIX):
        return find_template_setter(self_type, attr[len(SETTER_PREFIX) :])
    if attr == "$cast" or attr.startswith("$cast."):
        return find_cast(self_type, attr)
    if attr == "__call__":  # a call of a value of the type
        return _find_type_class_overload(self_type)
    if attr.startswith("$ufunc."):  # a ufunc of an array-compatible value
        return _array_compatible().find_ufunc(self_type, attr)
    if isinstance(self_type, TypeClassRef):
        return _find_classmethod(self_type, attr)
    if attr in _OPERATOR_METHODS:
        return _find_operator(self_type, attr)
    return find_template_attribute(self_type, attr)


extending._registry.add_member_finder({"UserType"}, _find_template_attribute)

_core.set_user_type_hooks(_typeof_hook, boxing_hook)


@datamodels.register_model(TypeClassRef)
class _TypeClassRefModel(datamodels.StructModel):
    """A type class holds nothing at run time."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [])


@lower_constant(TypeClassRef)
def _type_class_constant(context, builder, ty, pyval):
    from taipan.core import cgutils

    return cgutils.create_struct_proxy(ty)(context, builder)._getvalue()
