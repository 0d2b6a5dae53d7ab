"""CUDA's vector types (numba-cuda's ``cuda.float32x4``, ``cuda.short2``...): the objects
kernels call, one per base type (int8 ... uint64, float32, float64) and element count (1 to 4),
with their C names as aliases (``float4``, ``double2``, ``uchar3``, ``longlong1``...), shared by
both backends. Compiled code types them in taipan.cuda.vector_types; the simulator runs the
kernels as Python, where calling one makes a value with the attributes ``x``, ``y``, ``z``,
``w``. Constructors take any mix of numbers and vectors of the same base type whose elements
add up to the count (``float4(float2(1, 2), 3, 4)``)."""

import numpy as np

PREFIXES = (
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
)
ATTRIBUTES = ("x", "y", "z", "w")
# C's names of the base types, by the NumPy type each is on this platform (numba-cuda's table).
_C_NAMES = {
    "char": np.byte,
    "short": np.short,
    "int": np.intc,
    "long": np.int_,
    "longlong": np.longlong,
    "uchar": np.ubyte,
    "ushort": np.ushort,
    "uint": np.uintc,
    "ulong": np.uint,
    "ulonglong": np.ulonglong,
    "float": np.single,
    "double": np.double,
}


class VectorTypeObject:
    """What ``cuda.float32x4`` is: ``base`` ("float32"), ``count`` (4), ``aliases``. Called in
    Python (the simulator's kernels) it makes a value whose elements are the arguments'
    elements, converted to the base type."""

    def __init__(self, base, count):
        self.base = base
        self.count = count
        self.__name__ = self.__qualname__ = f"{base}x{count}"
        self.aliases = []

    def __repr__(self):
        return f"<{self.__name__}>"

    def __call__(self, *args):
        elements = []
        for arg in args:
            if isinstance(arg, VectorValue):
                elements.extend(arg.elements)
            else:
                elements.append(arg)
        if len(elements) != self.count:
            raise TypeError(
                f"{self.__name__} takes {self.count} elements, not {len(elements)} ({args!r})"
            )
        scalar = getattr(np, self.base)
        return VectorValue(self, [scalar(e) for e in elements])


class VectorValue:
    """A vector made in Python: its elements as ``x``, ``y``, ``z``, ``w``."""

    def __init__(self, vector_type, elements):
        self.vector_type = vector_type
        self.elements = tuple(elements)
        for name, value in zip(ATTRIBUTES, self.elements):
            setattr(self, name, value)

    def __repr__(self):
        return f"{self.vector_type.__name__}{self.elements}"


VECTOR_TYPES = {}  # name ("float32x4") -> its object
for _prefix in PREFIXES:
    for _count in (1, 2, 3, 4):
        _object = VectorTypeObject(_prefix, _count)
        VECTOR_TYPES[_object.__name__] = _object
for _alias, _scalar in _C_NAMES.items():
    _base = np.dtype(_scalar).name
    for _count in (1, 2, 3, 4):
        VECTOR_TYPES[f"{_base}x{_count}"].aliases.append(f"{_alias}{_count}")

# Every name taipan.cuda exports for them: the types' own and their aliases.
NAMES = {name: obj for name, obj in VECTOR_TYPES.items()}
NAMES.update({alias: obj for obj in VECTOR_TYPES.values() for alias in obj.aliases})
globals().update(NAMES)
