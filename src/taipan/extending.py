"""Numba's extension API: functions, methods and attributes implemented in Python for compiled
code (``overload``, ``overload_method``, ``overload_attribute``, ``register_jitable``) and
functions written in LLVM IR (``intrinsic``, as text or built with llvmlite's IRBuilder).

One registry serves users and taipan itself: the NumPy functions of ``taipan.numpy_library``
are registered with the same ``overload`` a user calls. The compiler asks the registry, through
the global resolver, what a global means (``lookup``), which implementation a call with given
argument types compiles (``implement``), which methods and attributes a type has
(``find_member``), and what an intrinsic's body is (``implement_intrinsic``).
"""

import _thread
import builtins
import collections
import sys
import weakref

from taipan import numpy_library, types
from taipan.compile_platform import compiling_platform
from taipan.errors import TypingError
from taipan.extension_typing import TYPING_CONTEXT as _TYPING_CONTEXT
from taipan.extension_typing import TypingContext as _TypingContext  # noqa: F401 (the shim's)
from taipan.extension_typing import calling as _calling
from taipan.extension_typing import is_library_typer as _is_library_typer
from taipan.extension_typing import literal_arguments as _literal_arguments
from taipan.extension_typing import try_literals as _try_literals
from taipan.types import Signature
from taipan.user_type_registry import user_view

__all__ = [
    "get_cython_function_address",
    "intrinsic",
    "is_jitted",
    "overload",
    "overload_attribute",
    "overload_method",
    "register_jitable",
    "types",
]


def _describe(args, kwargs):
    parts = [str(t) for t in args] + [f"{name}={t}" for name, t in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


class _Overload:
    """One function, method or attribute implemented in Python: its typing functions, tried in
    the order they were registered, and the implementation compiled for each argument types."""

    def __init__(self, registry_id, name, jit_options):
        self.registry_id = registry_id
        self.name = name
        self.jit_options = dict(jit_options or {})
        self.typers = []
        self.targets = {}  # typer -> its overload's target, where not "generic"
        # Users' typing functions registered with strict=True (Numba's default): their
        # implementations must take the same arguments (taipan.overload_signatures).
        self.strict = set()
        # Typing functions registered with prefer_literal=True: tried with the call's literal
        # arguments first (the others with them only after their plain types).
        self.prefer_literal = set()
        self.implementations = {}

    def implement(self, args, kwargs, may_decline=False, literals=()):
        platform = compiling_platform()
        key = (args, tuple(sorted(kwargs.items())), platform, tuple(literals))
        if key not in self.implementations:
            # User-defined types reach the typing functions as the user's instances.
            args = tuple(user_view(t) for t in args)
            kwargs = {name: user_view(t) for name, t in kwargs.items()}
            self.implementations[key] = self._choose(
                args, kwargs, may_decline, platform, _literal_arguments(args, literals)
            )
        dispatcher = self.implementations[key]
        return None if dispatcher is None else dispatcher._function_source()

    def _typers_for(self, platform, args=()):
        """The typing functions whose target includes `platform`, the most specific first (a
        'cuda' overload before a 'generic' one, as Numba orders them); else as registered,
        except that taipan's own typing function comes first where it claims the arguments
        (``_taipan_first_for``: Numba's built-in templates come before the user's overloads)."""
        ranked = []
        for typer in self.typers:
            target = self.targets.get(typer, "generic")
            if target != "generic" and _TARGET_PLATFORMS[target] != platform:
                continue
            claims = getattr(typer, "_taipan_first_for", None)
            first = claims is not None and claims(*args)
            ranked.append((not first, target == "generic", typer))
        ranked.sort(key=lambda item: item[:2])  # stable
        return [typer for _, _, typer in ranked]

    def _choose(self, args, kwargs, may_decline, platform, literal_args=None):
        from taipan.decorators import _check_options
        from taipan.dispatcher import Dispatcher

        binding_error = None
        for typer in self._typers_for(platform, args):
            try:
                implementation = _try_literals(
                    _calling(typer, kwargs),
                    args,
                    # (taipan's own library's typing functions take no literals)
                    None if _is_library_typer(typer) else literal_args,
                    typer in self.prefer_literal,
                )
            except TypeError as error:
                # The typing function's own parameters did not accept these arguments: another
                # one may (Numba tries every template), or taipan's own function (an overload
                # of math.log for one argument leaves math.log(x, base) to the library).
                if "argument" not in str(error):
                    raise
                binding_error = binding_error or error
                continue
            if implementation is None:
                continue
            if isinstance(implementation, Dispatcher):
                return implementation
            if not callable(implementation) or not hasattr(implementation, "__code__"):
                raise TypingError(
                    f"the typing function of {self.name} returned {implementation!r}, "
                    "not a Python function"
                )
            if typer in self.strict:
                from taipan.overload_signatures import check_signatures

                check_signatures(typer, implementation)
            dispatcher = Dispatcher(implementation, _check_options(dict(self.jit_options)))
            if platform == "cpu" and not kwargs:
                from taipan.runtime_option import runtime_disabled

                if runtime_disabled(self.jit_options):
                    # Compiled on its own first, as Numba does with its flags: one returning a
                    # new array is refused (taipan.runtime_option).
                    dispatcher.compile(tuple(args))
            return dispatcher
        if may_decline:
            return None  # taipan's own implementation of the function applies
        if binding_error is not None:
            raise TypingError(f"{self.name}() {_strip_function_name(binding_error)}") from None
        raise TypingError(
            f"No implementation of {self.name} for argument types {_describe(args, kwargs)}"
        )


def _strip_function_name(error):
    text = str(error)
    start = text.find("() ")
    return text[start + 3 :] if start >= 0 else text


class _Intrinsic:
    """A function written in LLVM IR, as text or built by a codegen function with llvmlite's
    IRBuilder (taipan.intrinsic_builder); callable from compiled code only.

    Pickling is Numba's: an intrinsic travels as its name, typing function (``_defn``, by value)
    and a uuid made at its first pickling; a process rebuilds one uuid into one object
    (``_memo``, weak, with the last ``_recent`` kept alive), so a round trip in the sending
    process gives the object itself back."""

    _taipan_intrinsic = True
    _pickle_uuid = None

    def __init__(self, name, defn, prefer_literal=False, **kwargs):
        self.registry_id = None  # until _register
        self._name = name
        self._defn = defn
        self._prefer_literal = prefer_literal
        self._ctor_kwargs = kwargs
        self.__name__ = getattr(defn, "__name__", name)
        self.__qualname__ = getattr(defn, "__qualname__", self.__name__)
        self.__doc__ = getattr(defn, "__doc__", None)
        # The typing function's module and annotations, as functools.wraps gives them (Numba's).
        self.__module__ = getattr(defn, "__module__", __name__)
        self.__annotations__ = dict(getattr(defn, "__annotations__", {}))
        self._bodies = {}

    def _register(self):
        """Makes the intrinsic known to the compiler (a registry id that calls name)."""
        _registry.add_intrinsic(self)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"the intrinsic {self.__name__} can only be called from compiled code")

    def __repr__(self):
        return f"<intrinsic {self._name}>"

    def __deepcopy__(self, memo):
        return self

    @property
    def _uuid(self):
        if self._pickle_uuid is None:
            import uuid

            self._set_uuid(str(uuid.uuid1()))
        return self._pickle_uuid

    def _set_uuid(self, value):
        self._pickle_uuid = value
        self._memo[value] = self
        self._recent.append(self)

    def __reduce__(self):
        # The typing function travels by value (a local function too: cloudpickle where it is
        # installed, as Numba's own pickler), so a receiving process can compile with it.
        states = _dumps_by_value((self._uuid, self._name, self._defn))
        return (_rebuild_intrinsic, (type(self), states))

    @classmethod
    def _rebuild(cls, uuid, name, defn):
        """The intrinsic pickled with ``uuid``: this process's, or a new registered one."""
        found = cls._memo.get(uuid)
        if found is not None:
            return found
        rebuilt = cls(name, defn)
        rebuilt._register()
        rebuilt._set_uuid(uuid)
        return rebuilt

    def implement(self, args, keywords=(), literals=()):
        # per platform: in a CUDA kernel, context.get_function links device functions instead
        # of calling CPU code at its address (taipan.intrinsic_builder_context)
        key = (tuple(args), tuple(keywords), compiling_platform(), tuple(literals))
        body = self._bodies.get(key)
        if body is None:
            order = self._bind(len(args), tuple(keywords))
            ordered = tuple(args) if order is None else tuple(args[i] for i in order)
            literal_args = _literal_arguments(tuple(args), tuple(literals))
            if literal_args is not None and order is not None:
                literal_args = tuple(literal_args[i] for i in order)
            built = self._build(ordered, literal_args)
            body = self._bodies[key] = built + ([] if order is None else order,)
        return body

    def _bind(self, count, keywords):
        """For each parameter of the typing function after ``typingctx``, the index of the call
        argument it takes (the last ``len(keywords)`` passed by name); None when in order."""
        if not keywords:
            return None
        import inspect

        parameters = list(inspect.signature(self._defn).parameters)[1:]
        positional = count - len(keywords)
        unknown = [name for name in keywords if name not in parameters[positional:]]
        if unknown:
            raise TypingError(
                f"the intrinsic {self.__name__} got an unexpected keyword argument {unknown[0]!r}"
            )
        order = list(range(positional))
        for name in parameters[positional:]:
            if name not in keywords:
                raise TypingError(f"the intrinsic {self.__name__} needs its argument {name!r}")
            order.append(positional + keywords.index(name))
        return order

    def _build(self, args, literal_args=None):
        views = tuple(user_view(t) for t in args)
        result = _try_literals(
            lambda arguments: self._defn(_TYPING_CONTEXT, *arguments),
            views,
            None if _is_library_typer(self._defn) else literal_args,
            self._prefer_literal,
        )
        if result is None:
            raise TypingError(
                f"No implementation of the intrinsic {self.__name__} for argument types "
                f"{_describe(args, {})}"
            )
        if not (isinstance(result, tuple) and len(result) == 2):
            raise TypingError(
                f"the intrinsic {self.__name__} must return (signature, codegen function or "
                f"LLVM IR text), not {result!r}"
            )
        signature, body = result
        if not isinstance(signature, Signature) or signature.return_type is None:
            raise TypingError(
                f"the intrinsic {self.__name__} must return a signature with a return type "
                f"such as int64(int64), not {signature!r}"
            )
        literals = [user_view(t) for t in signature.args]
        if any(isinstance(t, types.Literal) for t in literals):
            # a literal argument is compiled as its value's type
            signature = signature.return_type(
                *[
                    t.literal_type if isinstance(t, types.Literal) else original
                    for t, original in zip(literals, signature.args)
                ]
            )
        parameters = list(signature.args)
        if callable(body):
            from taipan.intrinsic_builder import build_module

            module, process_specific = build_module(self.__name__, signature, body)
            return (signature.return_type, parameters, "", "", module, process_specific)
        if not isinstance(body, str):
            raise TypingError(
                f"the intrinsic {self.__name__} must return as its body a codegen function "
                f"(context, builder, signature, args) or LLVM IR text, not {type(body).__name__}"
            )
        placeholders = {"{R}": llvm_type(signature.return_type)}
        for index, parameter in enumerate(parameters):
            placeholders[f"{{T{index}}}"] = llvm_type(parameter)
        for placeholder, replacement in placeholders.items():
            body = body.replace(placeholder, replacement)
        declarations = [line for line in body.splitlines() if line.strip().startswith("declare ")]
        instructions = [
            line for line in body.splitlines() if not line.strip().startswith("declare ")
        ]
        return (
            signature.return_type,
            parameters,
            "\n".join(instructions),
            "\n".join(declarations),
            "",
            "",
        )


# uuid -> the one intrinsic pickled or rebuilt with it; the last ones are kept alive as Numba's
# (its config.FUNCTION_CACHE_SIZE), so a pickle loaded soon after gives the same object.
_Intrinsic._memo = weakref.WeakValueDictionary()
_Intrinsic._recent = collections.deque(maxlen=128)


def _dumps_by_value(obj):
    """``obj`` pickled into bytes by cloudpickle, which carries functions defined in functions
    by value, where it is installed; else by pickle."""
    try:
        import cloudpickle as pickler
    except ImportError:
        import pickle as pickler
    return pickler.dumps(obj)


def _rebuild_intrinsic(cls, states):
    import pickle

    return cls._rebuild(*pickle.loads(states))


def llvm_type(t):
    """The LLVM IR spelling of a number type's value in registers (``i64``, ``double``, ``i1``
    for booleans), for intrinsic bodies."""
    kind = t.kind_name
    if kind == "Boolean":
        return "i1"
    if kind == "Integer":
        return f"i{t.bitwidth}"
    if kind == "Float":
        return {16: "half", 32: "float", 64: "double"}[t.bitwidth]
    if kind == "Complex":
        part = "float" if t.bitwidth == 64 else "double"
        return f"{{ {part}, {part} }}"
    if kind == "NoneType":
        return "void"
    raise TypingError(f"intrinsics take and return numbers, not {t}")


class _Registry:
    """Everything registered through this module, by the id the compiler holds."""

    def __init__(self):
        self._lock = _thread.RLock()
        self._entries = []  # registry id -> _Overload or _Intrinsic
        self._functions = {}  # Python object -> _Overload or _Intrinsic
        self._members = {}  # name -> [(type class, _Overload, is_attribute)]
        # Members that a library module finds itself (a jitclass's, a named tuple's), by the
        # kinds of types (and names, None for any) it answers for:
        # [(kind names, member names, finder(self_type, name))].
        self._member_finders = []

    def add_member_finder(self, kinds, finder, names=None):
        """Lets ``finder(self_type, name)`` answer for members ``names`` (None: any) of types of
        these kinds: it gives (registry id, is attribute) or None. Library modules register one
        when imported."""
        with self._lock:
            self._member_finders.append((frozenset(kinds), names, finder))

    def _add(self, entry_factory):
        with self._lock:
            entry = entry_factory(len(self._entries))
            self._entries.append(entry)
            return entry

    def _add_entry(self, entry):
        """Gives an intrinsic made before registration its registry id."""
        with self._lock:
            entry.registry_id = len(self._entries)
            self._entries.append(entry)

    def function_entry(self, function, jit_options):
        with self._lock:
            entry = self._functions.get(function)
            if entry is None:
                entry = self._add(lambda i: _Overload(i, _qualified_name(function), jit_options))
                self._functions[function] = entry
            return entry

    def member_entry(self, type_class, name, is_attribute, jit_options):
        with self._lock:
            for registered_class, entry, attribute in self._members.get(name, ()):
                if registered_class is type_class and attribute == is_attribute:
                    return entry
            what = getattr(type_class, "__name__", str(type_class))
            entry = self._add(lambda i: _Overload(i, f"{what}.{name}", jit_options))
            self._members.setdefault(name, []).append((type_class, entry, is_attribute))
            return entry

    def member_overload_entry(self, name):
        """An overload that a member finder answers with (taipan.user_types' template
        attributes): registered under no function and no type class."""
        return self._add(lambda i: _Overload(i, name, {}))

    def callable_entry(self, function, typer):
        """Makes calls of ``function`` (a user's class typed by ``type_callable``) intrinsics
        whose typing function is ``typer`` (taipan.user_types)."""
        entry = _Intrinsic(getattr(typer, "__name__", "intrinsic"), typer)
        with self._lock:
            self._add_entry(entry)
            self._functions[function] = entry
            return entry

    def add_intrinsic(self, entry):
        """Registers an intrinsic: calls of the object itself compile its body."""
        with self._lock:
            self._add_entry(entry)
            self._functions[entry] = entry
            return entry

    def intrinsic_entry(self, typer, **options):
        return self.add_intrinsic(
            _Intrinsic(getattr(typer, "__name__", "intrinsic"), typer, **options)
        )

    # The compiler's side (src/bindings/GlobalResolution.cpp).

    def lookup(self, obj):
        """("overload" or "intrinsic", registry id, name) for a registered object, else None."""
        if hasattr(obj, "_taipan_builtin"):
            # A CUDA builtin (cuda.grid...) is never registered: asking about one loads no
            # library (which costs tens of milliseconds in a kernel's first compilation).
            return None
        if "numpy" in sys.modules:
            _load_library_function(obj)
        _load_python_library(obj)
        try:
            entry = self._functions.get(obj)
        except TypeError:  # unhashable
            return None
        if entry is None:
            return None
        if isinstance(entry, _Intrinsic):
            return ("intrinsic", entry.registry_id, entry.__name__)
        return ("overload", entry.registry_id, entry.name)

    def implement(self, registry_id, args, kwargs, may_decline=False, literals=()):
        return self._entries[registry_id].implement(
            tuple(args), dict(kwargs), may_decline, tuple(literals)
        )

    def find_member(self, self_type, name):
        self_type = user_view(self_type)
        kind = self_type.kind_name
        if kind in ("Tuple", "DType") and name in _NAMEDTUPLE_MEMBERS:
            _load_module("taipan.namedtuples")
        for kinds, names, finder in self._member_finders:
            if kind in kinds and (names is None or name in names):
                found = finder(self_type, name)
                if found is not None:
                    return found
        if "numpy" in sys.modules:
            _load_library_member(name)
        if name in _BUILTIN_LIBRARY_MEMBERS.get(kind, ()):
            _load_python_library(builtins.sorted)  # loads taipan.builtin_library
        for type_class, entry, is_attribute in self._members.get(name, ()):
            if isinstance(self_type, type_class):
                return (entry.registry_id, is_attribute)
        return None

    def implement_intrinsic(self, registry_id, args, keywords=(), literals=()):
        return self._entries[registry_id].implement(args, keywords, tuple(literals))


# taipan's own NumPy functions (taipan.numpy_library) register lazily, one topic module at a time:
# the first time the compiler asks about a NumPy function or an array member that the library's
# manifest lists, its topic is imported (registering its overloads after any the user registered
# for the same function, which are tried first). Nothing is loaded before the program imports
# NumPy; `import taipan` imports neither this module nor the library.


def _load_library_function(obj):
    topic = numpy_library.topic_of(obj)
    if topic is not None:
        numpy_library.load(topic)


# Python's operator module, the builtins, hash(), heapq and random's variates written in Python
# (taipan.operator_library, taipan.builtin_library, taipan.hashing, taipan.heapq_library,
# taipan.random_library) and
# named tuples' members (taipan.namedtuples) load the first time the resolver asks about one.
_python_library_loaded = set()


def _load_python_library(obj):
    module = getattr(obj, "__module__", None)
    if module == "_operator":
        _load_module("taipan.operator_library")
    elif module == "builtins" and getattr(obj, "__name__", None) in _BUILTIN_LIBRARY_NAMES:
        _load_module("taipan.builtin_library")
    elif obj is hash:
        _load_module("taipan.hashing")  # hash() of numbers and tuples
    elif module in ("heapq", "_heapq"):
        _load_module("taipan.heapq_library")
    elif module == "random" and getattr(obj, "__name__", None) in _RANDOM_LIBRARY_NAMES:
        _load_module("taipan.random_library")


def _load_module(name):
    """Imports one of the library modules written in Python, which register themselves here
    (this module sits below them and names them only in this manifest)."""
    if name not in _python_library_loaded:
        _python_library_loaded.add(name)
        import importlib

        importlib.import_module(name)


# The random module's functions written in taipan.random_library (the others are C++ entries).
_RANDOM_LIBRARY_NAMES = frozenset(
    [
        "expovariate",
        "gammavariate",
        "betavariate",
        "paretovariate",
        "weibullvariate",
        "vonmisesvariate",
        "triangular",
        "lognormvariate",
        "shuffle",
    ]
)

_NAMEDTUPLE_MEMBERS = frozenset(["__new__", "_fields", "_make", "_asdict"])

_BUILTIN_LIBRARY_NAMES = frozenset(
    ["callable", "iter", "map", "filter", "zip", "enumerate", "min", "max", "sorted", "reversed"]
)

# Methods of Python's containers written in taipan.builtin_library, by container kind.
_BUILTIN_LIBRARY_MEMBERS = {"List": ("sort",), "ListType": ("sort",)}


def _load_library_member(name):
    topic = numpy_library.MEMBERS.get(name)
    if topic is not None:
        numpy_library.load(topic)


def _qualified_name(function):
    module = getattr(function, "__module__", None) or ""
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", repr(function))
    if module.startswith(("numpy.lib", "numpy.polynomial")):
        # the library's name (numpy.lib.stride_tricks.as_strided), not the defining module's
        listed = numpy_library.name_of(function)
        if listed is not None:
            return listed
    if module.startswith("numpy"):
        module = "numpy"
        if getattr(function, "__module__", "").startswith("numpy.linalg"):
            module = "numpy.linalg"
    return f"{module}.{name}" if module and module != "builtins" else name


_registry = _Registry()


def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False, **kwargs):
    """Registers a typing function for calls of ``func`` in compiled code.

    The typing function receives the taipan types of the call's arguments (as the call passes
    them: positionally or by keyword) and returns a Python function implementing ``func`` for
    those types, which taipan compiles, or None when it does not apply::

        @overload(scipy.special.expit)
        def expit_impl(x):
            if isinstance(x, types.Float):
                def impl(x):
                    return 1.0 / (1.0 + math.exp(-x))
                return impl
    """
    options = dict(jit_options or {})
    target = _overload_target(kwargs)

    def decorate(typer):
        entry = _registry.function_entry(func, options)
        entry.typers.append(typer)
        if target != "generic":
            entry.targets[typer] = target
        # (taipan's own library registers generic typing functions, *args included)
        if strict and not getattr(typer, "__module__", "").startswith("taipan."):
            entry.strict.add(typer)
        if prefer_literal:
            entry.prefer_literal.add(typer)
        return typer

    return decorate


# Numba's overload targets and the platform each compiles for ("generic": every platform).
_TARGET_PLATFORMS = {"generic": None, "cpu": "cpu", "cuda": "cuda", "gpu": "cuda"}


def _overload_target(kwargs):
    target = kwargs.get("target", "generic")
    if target not in _TARGET_PLATFORMS:
        raise ValueError(
            f"unknown overload target {target!r}; taipan knows {sorted(_TARGET_PLATFORMS)}"
        )
    return target


def _check_type_class(type_class):
    if not (isinstance(type_class, type) and issubclass(type(type_class), type)):
        raise TypeError(f"expected a type class such as types.Array, not {type_class!r}")


def overload_method(typ, attr, **kwargs):
    """Registers a typing function for the method ``attr`` of values whose type is an instance
    of the type class ``typ`` (``types.Array``...). The implementation takes the value first."""
    return _member_decorator(typ, attr, False, kwargs)


def overload_attribute(typ, attr, **kwargs):
    """Registers a typing function for the attribute ``attr`` of values of type class ``typ``;
    the implementation takes the value and returns the attribute's value."""
    return _member_decorator(typ, attr, True, kwargs)


def _member_decorator(typ, attr, is_attribute, kwargs):
    """The decorator registering a typing function for member ``attr`` of type class ``typ``."""
    _check_type_class(typ)
    options = dict(kwargs.get("jit_options") or {})
    target = _overload_target(kwargs)

    def decorate(typer):
        entry = _registry.member_entry(typ, attr, is_attribute, options)
        entry.typers.append(typer)
        if target != "generic":
            entry.targets[typer] = target
        if kwargs.get("prefer_literal"):
            entry.prefer_literal.add(typer)
        return typer

    return decorate


def register_jitable(*args, **kwargs):
    """Makes a plain Python function callable from compiled code (it is compiled for the
    argument types of each call), while it stays a plain function in Python."""

    def wrap(function):
        overload(function, jit_options=kwargs)(lambda *a, **k: function)
        return function

    if len(args) == 1 and not kwargs and callable(args[0]):
        return wrap(args[0])
    return wrap


def intrinsic(*args, **kwargs):
    """A function written in LLVM IR, for code below Python's level.

    The decorated typing function receives a typing context and the argument types, and returns
    ``(signature, body)``. The body is, as in Numba, a codegen function
    ``codegen(context, builder, signature, args)`` that builds the instructions with llvmlite's
    ``ir.IRBuilder`` and returns the result's value (``taipan.core.cgutils`` has Numba's
    helpers)::

        @intrinsic
        def add_one(typingctx, x):
            def codegen(context, builder, signature, args):
                return builder.add(args[0], context.get_constant(signature.return_type, 1))
            return x(x), codegen

    Or the body is LLVM IR text of the function's instructions, whose parameters are ``%arg0``,
    ``%arg1``...; ``{R}`` and ``{T0}``, ``{T1}``... stand for the LLVM types of the result and
    parameters, and lines starting with ``declare`` are placed outside the function::

        @intrinsic
        def popcount(typingctx, x):
            return x(x), '''
                declare {T0} @llvm.ctpop.{T0}({T0})
                %r = call {T0} @llvm.ctpop.{T0}({T0} %arg0)
                ret {T0} %r'''
    """

    def wrap(typer):
        return _registry.intrinsic_entry(typer, **kwargs)

    if len(args) == 1 and not kwargs and callable(args[0]):
        return wrap(args[0])
    return wrap


def is_jitted(function):
    """Whether ``function`` is a jitted function (a ``jit``/``njit`` dispatcher), as Numba's
    ``is_jitted``: a plain function, a ufunc made by ``vectorize`` or a gufunc is not."""
    from taipan.dispatcher import Dispatcher

    return isinstance(function, Dispatcher)


def get_cython_function_address(module_name, function_name):
    """Numba's ``get_cython_function_address``: the address of a C function a Cython module
    exports in ``__pyx_capi__`` (``scipy.special.cython_special``'s), which compiled code calls
    through ``ctypes.CFUNCTYPE(...)(address)`` or a ``WrapperAddressProtocol`` object."""
    from taipan.experimental.function_type import get_cython_function_address as address

    return address(module_name, function_name)


# Numba's low-level API for user-defined types lives in taipan.user_types and taipan.datamodels,
# which register through this module and so sit above it: their names load at first use.
_USER_TYPE_NAMES = {
    "NativeValue": "taipan.user_types",
    "as_numba_type": "taipan.user_types",
    "box": "taipan.user_types",
    "lower_builtin": "taipan.user_types",
    "lower_cast": "taipan.user_types",
    "lower_constant": "taipan.user_types",
    "lower_getattr": "taipan.user_types",
    "lower_getattr_generic": "taipan.user_types",
    "lower_setattr": "taipan.user_types",
    "lower_setattr_generic": "taipan.user_types",
    "infer_getattr": "taipan.user_types",
    "infer_global": "taipan.user_types",
    "infer": "taipan.user_types",
    "make_attribute_wrapper": "taipan.user_types",
    "overload_classmethod": "taipan.user_types",
    "type_callable": "taipan.user_types",
    "typeof_impl": "taipan.user_types",
    "unbox": "taipan.user_types",
    "register_model": "taipan.datamodels",
    "models": None,  # the module taipan.datamodels itself
}
__all__ += list(_USER_TYPE_NAMES)


def __getattr__(name):
    if name not in _USER_TYPE_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    importlib.import_module("taipan.user_types")  # installs the compiler's hooks
    module = importlib.import_module(_USER_TYPE_NAMES[name] or "taipan.datamodels")
    return module if _USER_TYPE_NAMES[name] is None else getattr(module, name)
