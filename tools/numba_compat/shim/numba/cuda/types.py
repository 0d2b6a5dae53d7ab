"""``numba.cuda.types``: taipan's types, as ``numba.core.types`` in the shim. Where taipan's
``Type`` cannot be subclassed from Python, ``Type`` is a stand-in base (taipan's types answer
``isinstance`` with it): a test's own type class then builds, and compiled code refuses it
when a test uses it."""

import taipan.types as _taipan_types
from numba.core import types as _core_types
from numba.core.types import *
from numba.core.types import __getattr__ as _placeholder


def __getattr__(name):
    # bfloat16 is taipan's cuda.bf16 type, imported on first use (it registers overloads of
    # the casts and math functions); numba.core.types' names its __all__ leaves out (Opaque,
    # Dummy...) are its own; the rest are placeholders.
    if name == "bfloat16":
        from taipan.cuda.bf16 import bfloat16

        return bfloat16
    if not name.startswith("_") and name in vars(_core_types):
        return vars(_core_types)[name]
    return _placeholder(name)


def _subclassable(base):
    try:

        class Probe(base):
            def __init__(self):
                super().__init__(name="probe")

        Probe()
    except (TypeError, AttributeError):
        return False
    return True


if not _subclassable(_taipan_types.Type):

    class _TypeMeta(type):
        def __instancecheck__(cls, instance):
            if type.__instancecheck__(cls, instance):
                return True
            return cls is Type and isinstance(instance, _taipan_types.Type)

    class Type(metaclass=_TypeMeta):  # stands in for taipan's
        """A type class a test defines (numba-cuda's extension tests): a name only."""

        def __init__(self, name):
            self.name = name

        def __repr__(self):
            return self.name

        __str__ = __repr__

else:
    Type = _taipan_types.Type  # subclassable: numba-cuda's extension types are taipan's user types
