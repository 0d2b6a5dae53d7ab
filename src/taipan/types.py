"""taipan's types, spelled as in Numba: ``float64``, ``int32``, ``UniTuple(int64, 3)``,
``float64[:, ::1]``; calling a type builds a signature: ``float64(float64, int32)``."""

import abc
import copyreg
import struct

from taipan import _core

Type = _core.Type
Signature = _core.Signature


def _iterate_tuple_type(self):
    """A tuple type iterates its element types, as Numba's BaseTuple does (numba-cuda's tests
    write ``for t in signature.return_type``); other types are not iterable."""
    if self.kind_name != "Tuple":
        raise TypeError(f"{self.name} is not iterable")
    return iter(self.types)


Type.__iter__ = _iterate_tuple_type

_NAMES = [
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "intp",
    "uintp",
    "intc",
    "uintc",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "boolean",
    "none",
    "void",
    "i1",
    "i2",
    "i4",
    "i8",
    "u1",
    "u2",
    "u4",
    "u8",
    "f2",
    "f4",
    "f8",
    "c8",
    "c16",
    "b1",
]
for _name in _NAMES:
    globals()[_name] = _core.scalar_type(_name)
bool_ = boolean = globals()["boolean"]
byte = uint8 = globals()["uint8"]
double = float64 = globals()["float64"]
float_ = float32 = globals()["float32"]


def _c_integer(struct_code, signed):
    """The integer type of a C type's size on this platform (``struct``'s native code for it:
    ``import ctypes`` costs `import taipan` milliseconds), as Numba spells C types."""
    return globals()[f"{'' if signed else 'u'}int{struct.calcsize(struct_code) * 8}"]


# C's type names, as Numba defines them (numba.core.types): sized like this platform's C types.
char = _c_integer("b", True)
uchar = _c_integer("B", False)
short = _c_integer("h", True)
ushort = _c_integer("H", False)
long_ = _c_integer("l", True)
ulong = _c_integer("L", False)
longlong = _c_integer("q", True)
ulonglong = _c_integer("Q", False)
ssize_t = _c_integer("n", True)
size_t = _c_integer("N", False)
int_ = globals()["intp"]
uint = globals()["uintp"]
C_TYPE_NAMES = (
    "char",
    "uchar",
    "short",
    "ushort",
    "long_",
    "ulong",
    "longlong",
    "ulonglong",
    "ssize_t",
    "size_t",
    "int_",
    "uint",
)


class _TypeClass(type):
    """The metaclass of Numba's type classes: ``isinstance(t, types.Array)`` tests the kind of a
    taipan type (what overload typing functions do), and calling the class builds a type."""

    def __instancecheck__(cls, instance):
        return isinstance(instance, Type) and cls._matches(instance)

    def __call__(cls, *args, **kwargs):
        return cls._make(*args, **kwargs)


class Number(metaclass=_TypeClass):
    """Integers, floats and complex numbers (booleans are not numbers, as in Numba)."""

    @staticmethod
    def _matches(t):
        return t.kind_name in ("Integer", "Float", "Complex")

    @staticmethod
    def _make(*args):
        raise TypeError("types.Number is a class of types; use int64, float64...")


class Integer(Number):
    """int8 ... uint64."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Integer"


class Float(Number):
    """float16, float32, float64."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Float"


class Complex(Number):
    """complex64, complex128."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Complex"


class Boolean(metaclass=_TypeClass):
    """The boolean type."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Boolean"

    @staticmethod
    def _make(*args):
        return _core.scalar_type("boolean")


class NoneType(metaclass=_TypeClass):
    """The type of None."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "NoneType"

    @staticmethod
    def _make(*args):
        return _core.scalar_type("none")


class Array(metaclass=_TypeClass):
    """``Array(dtype, ndim, layout, readonly=False)``: NumPy arrays; layout 'C', 'F' or 'A'."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Array"

    @staticmethod
    def _make(dtype, ndim, layout="A", readonly=False):
        records_or_text = isinstance(dtype, Type) and (
            dtype.kind_name in ("Record", "NPDatetime", "NPTimedelta")
            or isinstance(dtype, UnicodeCharSeq)
        )
        if records_or_text and layout in ("C", "F", "A"):  # and datetimes: their unit's type
            return _core.array_type_of(dtype, int(ndim), layout, bool(readonly))
        if not isinstance(dtype, Type) or dtype.kind_name not in (
            "Boolean",
            "Integer",
            "Float",
            "Complex",
        ):
            raise TypeError(f"an array's dtype must be a number type, not {dtype!r}")
        if layout not in ("C", "F", "A"):
            raise ValueError(f"an array's layout is 'C', 'F' or 'A', not {layout!r}")
        return _core.array_type(dtype.name, int(ndim), layout, bool(readonly))


class Optional(metaclass=_TypeClass):
    """``Optional(T)``: a value of type T or None, decided at run time (a variable that is None
    on one path and a number on another, or an argument declared optional). ``.type`` is T."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Optional"

    @staticmethod
    def _make(t):
        if isinstance(t, DeferredType):
            return _DeferredOptional(t)
        return _core.optional_type(t)


optional = Optional


class DeferredType:
    """A type named before it exists (Numba's ``deferred_type()``), for a jitclass field that
    holds the class itself: ``node_type = deferred_type()``, the spec names
    ``optional(node_type)``, then ``node_type.define(Node.class_type.instance_type)`` gives it
    (and the class its fields)."""

    def __init__(self):
        self._defined = None
        self._waiting = []  # callbacks run once it is defined

    def define(self, t):
        if self._defined is not None:
            raise TypeError("deferred type already defined")
        if not isinstance(t, Type):
            raise TypeError(f"a deferred type is defined as a taipan type, not {t!r}")
        self._defined = t
        waiting, self._waiting = self._waiting, []
        for callback in waiting:
            callback()

    def get(self):
        if self._defined is None:
            raise RuntimeError("deferred type not defined")
        return self._defined

    def __repr__(self):
        return f"DeferredType#{id(self):x}"


class _DeferredOptional:
    """``optional(deferred)``: Optional of a type defined later."""

    def __init__(self, deferred):
        self.deferred = deferred

    def get(self):
        return _core.optional_type(self.deferred.get())

    def __repr__(self):
        return f"OptionalType({self.deferred!r})"


def deferred_type():
    """A type to be defined later (``.define(t)``): Numba's ``deferred_type``."""
    return DeferredType()


class List(metaclass=_TypeClass):
    """``List(dtype)``: a list of ``dtype`` items (Numba's reflected list: a Python list passed
    in has the callee's changes afterwards). ``.dtype`` is the item type."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "List"

    @staticmethod
    def _make(dtype, reflected=False):
        return _core.list_type(dtype)


class BaseTuple(metaclass=_TypeClass):
    """Tuples, uniform or not."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Tuple"

    @staticmethod
    def _make(element_types):
        return _core.tuple_type(list(element_types))


class UniTuple(BaseTuple):
    """``UniTuple(dtype, count)``: a tuple of ``count`` elements of type ``dtype``."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Tuple" and t.count > 0 and len(set(t.types)) == 1

    @staticmethod
    def _make(dtype, count):
        return _core.tuple_type([dtype] * count)


class Tuple(BaseTuple):
    """``Tuple(types)``: a tuple whose elements have the given types (a UniTuple when they are
    all the same, as in Numba)."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Tuple" and not UniTuple._matches(t)


class LiteralList(metaclass=_TypeClass):
    """``[1, 'a', 2.5]``: a list literal whose items differ in type (Numba's LiteralList),
    immutable, stored as the tuple of its items but not a tuple. ``.types`` are the items'."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "LiteralList"


class NPDatetime(metaclass=_TypeClass):
    """``NPDatetime(unit)``: NumPy datetime64 values of ``unit`` (``'ns'``, ``'D'``, ``''`` for
    the generic unit), held as an int64 count with NaT as its smallest value."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "NPDatetime"

    @staticmethod
    def _make(unit=""):
        return _core.datetime_type(True, unit)


class NPTimedelta(metaclass=_TypeClass):
    """``NPTimedelta(unit)``: NumPy timedelta64 values of ``unit``."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "NPTimedelta"

    @staticmethod
    def _make(unit=""):
        return _core.datetime_type(False, unit)


class ListType(metaclass=_TypeClass):
    """``ListType(item_type)``: the type of a ``taipan.typed.List`` (Numba's typed list), whose
    ``item_type`` is fixed; ``List`` is the reflected list of a Python list argument."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "ListType"

    @staticmethod
    def _make(item_type):
        return _core.typed_list_type(item_type)


class DictType(metaclass=_TypeClass):
    """``DictType(key_type, value_type)``: the type of a ``taipan.typed.Dict`` and of dicts made
    in compiled code."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "DictType"

    @staticmethod
    def _make(key_type, value_type):
        return _core.dict_type(key_type, value_type)


class Record(metaclass=_TypeClass):
    """Record types: the element type of a NumPy structured dtype, as ``from_dtype(dtype)`` and
    ``typeof`` give it. ``Record(fields, size, aligned)`` builds one from Numba's spelling:
    ``fields`` a list of ``(name, {"type": T, "offset": n})``."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Record"

    @staticmethod
    def _make(fields, size, aligned=False):
        import numpy as np

        names, formats, offsets = [], [], []
        for name, info in fields:
            names.append(name)
            formats.append(_numpy_dtype(info["type"]))
            offsets.append(info["offset"])
        spec = {"names": names, "formats": formats, "offsets": offsets, "itemsize": size}
        return _core.record_type(np.dtype(spec, align=bool(aligned)))

    @classmethod
    def make_c_struct(cls, name_types):
        """A record laid out as a C struct (align=True) of ``(name, type)`` pairs."""
        import numpy as np

        spec = [(name, _numpy_dtype(t)) for name, t in name_types]
        return _core.record_type(np.dtype(spec, align=True))


class NestedArray(metaclass=_TypeClass):
    """A fixed-shape subarray field of a record (``('v', 'f8', (3,))``); reading the field
    gives an array view."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "NestedArray" and t.dtype.kind_name != "StringLiteral"

    @staticmethod
    def _make(*args):
        raise TypeError("NestedArray types come from record dtypes (from_dtype)")


class UnicodeCharSeq(metaclass=_TypeClass):
    """Numba's UnicodeCharSeq(n): NumPy's ``<U n``, an array's dtype or a record's field (an
    item reads as a str)."""

    _character = "unichr"

    @classmethod
    def _matches(cls, t):
        return (
            t.kind_name == "NestedArray"
            and t.dtype.kind_name == "StringLiteral"
            and t.dtype.literal_value == cls._character
        )

    @classmethod
    def _make(cls, count):
        return type_from_spec(("characters", cls._character, int(count)))


class CharSeq(UnicodeCharSeq):
    """Numba's CharSeq(n): NumPy's ``S n`` (an item reads as its bytes)."""

    _character = "char"


def _numpy_dtype(t):
    """The NumPy dtype of a taipan element type (a number, a Record or a NestedArray)."""
    import numpy as np

    if t.kind_name == "Record":
        return _core.record_numpy_dtype(t)
    if t.kind_name == "NestedArray" and t.dtype.kind_name == "StringLiteral":
        return np.dtype(("U" if t.dtype.literal_value == "unichr" else "S") + str(t.shape[0]))
    if t.kind_name == "NestedArray":
        return np.dtype((_numpy_dtype(t.dtype), t.shape))
    return np.dtype("bool" if t.name == "bool" else t.name)


class UnicodeType(metaclass=_TypeClass):
    """The class of ``unicode_type``, Python's str."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "UnicodeType"

    @staticmethod
    def _make():
        return unicode_type


class ClassInstanceType(metaclass=_TypeClass):
    """The type of a jitclass's instances (Numba's ClassInstanceType):
    ``Point.class_type.instance_type``, which signatures, ``typeof`` and other classes' fields
    name. ``.struct`` maps the field names to their types, ``.class_type`` is the class's
    ClassType."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "ClassInstanceType"

    @staticmethod
    def _make(*args):
        raise TypeError("jitclass instance types come from Point.class_type.instance_type")


class ClassType:
    """Numba's ``ClassType``: what ``Point.class_type`` is. ``instance_type`` is the type of
    instances (for signatures, ``typeof`` and other classes' fields), ``class_def`` the
    original Python class, ``struct`` the fields (name -> type)."""

    def __init__(self, class_def, name, instance_type, struct):
        self.class_def = class_def
        self.name = name
        self.instance_type = instance_type
        self.struct = struct
        self.methods = {}  # name -> Python function
        self.jit_methods = {}  # name -> dispatcher
        self.jit_props = {}  # name -> {"get": dispatcher, "set": dispatcher}
        self.jit_static_methods = {}  # name -> dispatcher
        self.members = {}  # name -> (registry id, is attribute) for compiled code
        self.class_members = {}  # static methods read from the class (Point.sm) -> registry id
        self.member_dispatchers = {}  # member name -> the dispatcher implementing it
        self.optional_members = {}  # member name -> (registry id, is attribute) on Optional(T)
        self.class_id = None
        self.box_class = None
        self.constructor = None  # the dispatcher making an instance from __init__'s arguments
        self.init_signature = None

    def __repr__(self):
        return f"jitclass.{self.name}#{self.instance_type.name}"


class _UnsupportedTypeInstance:
    """A placeholder for a Numba type instance such as ``unicode_type``: importing it works;
    using it in a signature raises UnsupportedError."""

    def __init__(self, name, type_class):
        self._name, self._type_class = name, type_class

    def __repr__(self):
        return self._name

    def __call__(self, *args):
        self._type_class._refuse(self._name)


unicode_type = string = _core.scalar_type("unicode_type")


class SliceType(metaclass=_TypeClass):
    """The class of ``slice2_type`` (a slice whose step is None or 1) and ``slice3_type``."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "SliceType"

    @staticmethod
    def _make(*args):
        raise TypeError("slice types are slice2_type and slice3_type")


slice2_type = _core.typeof(slice(None))
slice3_type = _core.typeof(slice(None, None, 2))


class FunctionType(metaclass=_TypeClass):
    """``FunctionType(signature)``: Numba's first-class function type, of a function value
    known at run time (taipan.experimental.function_type)."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "FunctionType"

    @staticmethod
    def _make(signature):
        parsed = parse_signature(signature)
        if parsed.return_type is None:
            raise TypeError(f"a function type needs a return type: {signature!r}")
        return _core.first_class_function_type(parsed.return_type, list(parsed.args))


class WrapperAddressProtocol(abc.ABC):
    """Base class of objects that compiled code calls as first-class functions (Numba's
    WrapperAddressProtocol): they give the address of a C function (``__wrapper_address__()``)
    and its signature (``signature()``)."""

    @abc.abstractmethod
    def __wrapper_address__(self):
        """The address of the C function, a positive int."""

    @abc.abstractmethod
    def signature(self):
        """The function's signature (``float64(float64)``)."""


class CPointer(metaclass=_TypeClass):
    """``CPointer(dtype)``: a pointer to elements of ``dtype``, for parameters of foreign
    functions (``cuda.declare_device``; kernels pass an array's data to it) and intrinsics;
    ``isinstance(t, types.CPointer)`` tests for one (``voidptr`` is not, as in Numba)."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Pointer" and t.dtype is not None

    @staticmethod
    def _make(dtype):
        return _core.pointer_type(dtype)


class NumberClass(metaclass=_TypeClass):
    """The type of a NumPy scalar class used as a value (``np.float64`` passed as a dtype);
    ``t.dtype`` is the number type."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "Function" and t.dtype is not None

    @staticmethod
    def _make(*args):
        raise TypeError("types.NumberClass is the type of np.float64 and such: use typeof")


voidptr = _core.pointer_type(None)


def type_spec(t):
    """A type as nested tuples of names and numbers (``repr`` and ``ast.literal_eval`` round-trip
    it), for pickles and cache files: numbers, None, arrays, pointers and tuples of them; None
    for other kinds."""
    kind = t.kind_name
    if kind == "UnicodeType":
        return ("scalar", "unicode_type")
    if kind in ("Boolean", "Integer", "Float", "Complex", "NoneType"):
        return ("scalar", "none" if kind == "NoneType" else t.name)
    if kind == "Array" and t.dtype.kind_name != "Record":
        return ("array", t.dtype.name, t.ndim, t.layout, t.readonly)
    if kind == "Tuple":
        elements = [type_spec(element) for element in t.types]
        return None if None in elements else ("tuple", *elements)
    if kind == "Record":
        fields = tuple(
            (name, type_spec(field), offset) for name, (field, offset) in t.fields.items()
        )
        return None if any(f[1] is None for f in fields) else ("record", fields, t.size, t.aligned)
    if kind == "NestedArray" and t.dtype.kind_name == "StringLiteral":
        return ("characters", t.dtype.literal_value, t.shape[0])
    if kind == "NestedArray":
        return ("nested", type_spec(t.dtype), tuple(t.shape))
    if kind == "Array" and t.dtype.kind_name == "Record":
        return ("array_of", type_spec(t.dtype), t.ndim, t.layout, t.readonly)
    if kind == "Optional":
        value = type_spec(t.type)
        return None if value is None else ("optional", value)
    if kind == "ListType":
        item = type_spec(t.item_type)
        return None if item is None else ("typed_list", item)
    if kind == "DictType" and t.key_type is not None:
        key, value = type_spec(t.key_type), type_spec(t.value_type)
        return None if key is None or value is None else ("dict", key, value)
    if kind == "Pointer":
        pointee = None if t.dtype is None else type_spec(t.dtype)
        return None if t.dtype is not None and pointee is None else ("pointer", pointee)
    return None


def type_from_spec(spec):
    """The type a ``type_spec`` describes."""
    if spec[0] == "scalar":
        return _core.scalar_type(spec[1])
    if spec[0] == "array":
        return _core.array_type(*spec[1:])
    if spec[0] == "pointer":
        return _core.pointer_type(None if spec[1] is None else type_from_spec(spec[1]))
    if spec[0] == "typed_list":
        return _core.typed_list_type(type_from_spec(spec[1]))
    if spec[0] == "dict":
        return _core.dict_type(type_from_spec(spec[1]), type_from_spec(spec[2]))
    if spec[0] == "optional":
        return _core.optional_type(type_from_spec(spec[1]))
    if spec[0] == "record":
        fields = [(name, {"type": type_from_spec(f), "offset": o}) for name, f, o in spec[1]]
        return Record(fields, spec[2], spec[3])
    if spec[0] in ("nested", "characters"):
        import numpy as np

        if spec[0] == "characters":
            element = np.dtype(("U" if spec[1] == "unichr" else "S") + str(spec[2]))
        else:
            element = np.dtype((_numpy_dtype(type_from_spec(spec[1])), spec[2]))
        return _core.record_type(np.dtype([("f", element)])).fields["f"][0]
    if spec[0] == "array_of":
        return _core.array_type_of(type_from_spec(spec[1]), *spec[2:])
    return _core.tuple_type([type_from_spec(element) for element in spec[1:]])


def _reduce_type(t):
    """Pickling of types (pickles of compiled code name their argument types)."""
    spec = type_spec(t)
    if spec is None:
        import pickle

        raise pickle.PicklingError(f"taipan type {t} cannot be pickled")
    return type_from_spec, (spec,)


copyreg.pickle(Type, _reduce_type)


def parse_signature(signature):
    """A Signature from a string such as ``'float64(float64, int32)'`` or a Signature."""
    if isinstance(signature, Signature):
        return signature
    if isinstance(signature, _UnsupportedTypeInstance):
        signature()  # raises UnsupportedError, naming what is missing
    if isinstance(signature, str):
        namespace = {name: value for name, value in globals().items() if not name.startswith("_")}
        for name, value in namespace.items():
            if isinstance(value, _UnsupportedTypeInstance) and name in signature:
                import re  # only here: `import taipan` does not pay for re

                if re.search(rf"\b{name}\b", signature):
                    value()  # raises UnsupportedError, naming what is missing
        try:
            result = eval(signature, {"__builtins__": {}}, namespace)
        except (NameError, SyntaxError, TypeError, AttributeError) as error:
            raise TypeError(f"invalid signature {signature!r}: {error}") from None
        return parse_signature(result)
    if isinstance(signature, tuple):
        for value in signature:
            if isinstance(value, _UnsupportedTypeInstance):
                value()
        return _core.signature(None, signature)
    if isinstance(signature, Type):
        raise TypeError(f"a signature needs argument types: write {signature}(...)")
    raise TypeError(f"invalid signature {signature!r}")


# User-defined types (Numba's extension API): Type subclassed in Python, with Numba's name, key
# and equality rules (taipan.user_type_registry).
import taipan.user_type_registry  # noqa: F401 - gives Type its subclassing rules


class Dummy(Type):
    """Numba's ``types.Dummy``: the base of types whose values carry no data of their own."""


class Opaque(Dummy):
    """Numba's ``types.Opaque``: a type whose values are addresses taipan does not look into
    (with ``models.OpaqueModel``)."""


class Phantom(Dummy):
    """Numba's ``types.Phantom``: a type that only typing uses."""


Any = Phantom("any")


class Callable(Type):
    """Numba's ``types.Callable``: the base of user types of callable values (their calls are
    typed by ``type_callable`` and lowered by ``lower_builtin``)."""


class Literal(Type):
    """Numba's ``types.Literal``: the type of a constant written as a call's argument, as typing
    functions see it (``literal_value``; ``literal_type`` is the type the call compiles with).
    Numba tries a typing function with the arguments' plain types first, then with their
    literals (``overload(..., prefer_literal=True)``: literals first)."""

    def __init__(self, value):
        self.literal_value = value
        super().__init__(name=f"Literal[{type(value).__name__}]({value})")

    @property
    def key(self):
        return type(self.literal_value), self.literal_value


class IntegerLiteral(Literal):
    """Numba's ``types.IntegerLiteral``: an integer written as the argument (an int64)."""

    @property
    def literal_type(self):
        return globals()["int64"]

    @property
    def bitwidth(self):
        return 64

    @property
    def signed(self):
        return True


class StringLiteral(metaclass=_TypeClass):
    """Numba's ``types.StringLiteral``: a constant string (``literal_value``), as typing functions
    see a string written as an argument, or a parameter specialised by ``literally``."""

    @staticmethod
    def _matches(t):
        return t.kind_name == "StringLiteral"

    @staticmethod
    def _make(*args):
        raise TypeError("StringLiteral types come from constant strings in compiled code")


class IterableType(Type):
    """Numba's ``types.IterableType``: the base of user types that can be iterated."""


class SimpleIterableType(IterableType):
    """Numba's ``types.SimpleIterableType(name, iterator_type)``."""

    def __init__(self, name, iterator_type):
        self._iterator_type = iterator_type
        super().__init__(name)

    @property
    def iterator_type(self):
        return self._iterator_type


class ArrayCompatible(Type):
    """Numba's ``types.ArrayCompatible``: the base of user types that behave as arrays
    (``as_array`` gives the array type)."""

    array_priority = 0.0

    @property
    def as_array(self):
        raise NotImplementedError


class Buffer(ArrayCompatible):
    """Numba's ``types.Buffer(dtype, ndim, layout)``: the base of user types of buffers (not an
    IterableType too, as Numba's is: nanobind classes take one nanobind base)."""

    mutable = True

    def __init__(self, dtype, ndim, layout, readonly=False, name=None):
        if layout not in ("C", "F", "A"):
            raise ValueError(f"a layout is 'C', 'F' or 'A', not {layout!r}")
        self.dtype = dtype
        self.ndim = ndim
        self.layout = layout
        if readonly:
            self.mutable = False
        if name is None:
            kind = type(self).__name__.lower()
            name = f"{'readonly ' if readonly else ''}{kind}({dtype}, {ndim}d, {layout})"
        super().__init__(name)

    @property
    def as_array(self):
        return Array(self.dtype, self.ndim, self.layout)

    @property
    def key(self):
        return self.dtype, self.ndim, self.layout, self.mutable


class VarArg:
    """Numba's ``types.VarArg(dtype)``: any number of arguments of ``dtype``, last in a
    ``lower_builtin``'s argument types."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"*{self.dtype}"


class CompileResultWAP(WrapperAddressProtocol):
    """Numba's ``types.CompileResultWAP(cres)``: a compile result as a first-class function of
    its signature, callable from compiled code (through its C entry) and from Python."""

    def __init__(self, cres):
        if type(cres).__name__ != "CompileResult" or not hasattr(cres, "c_entry"):
            raise TypeError(
                f"CompileResultWAP takes a compile result (a value of dispatcher.overloads), "
                f"not {type(cres).__name__}"
            )
        self.cres = cres
        self._entry = cres.c_entry()
        self.address = self._entry.address

    def __wrapper_address__(self):
        return self.address

    def signature(self):
        return self.cres.signature

    def __call__(self, *args, **kwargs):
        return self.cres.entry_point(*args, **kwargs)

    def dump(self, tab=""):
        print(f"{tab}DUMP {type(self).__name__} [{self.cres.py_func.__name__}, {self.address}]")
