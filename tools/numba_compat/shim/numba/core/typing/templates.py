"""``numba.core.typing.templates``: ``signature`` is taipan's; Numba's typing templates are
placeholders. A signature of types taipan does not have (a test's own ``types.Type``
subclasses) is a placeholder too, so that a module building one at import still imports."""

from numba import PLAIN_PYTHON
from numba._missing import _Poison, fill_missing
from taipan.core.typing.templates import signature as _signature


def signature(return_type, *args, **kwargs):
    try:
        return _signature(return_type, *args, **kwargs)
    except TypeError:
        return _Poison("numba.core.typing.templates.signature(...) of types taipan lacks")


def _registers_nothing(*args, **kwargs):
    """A typing registration of Numba's (``infer``, ``infer_global``, ``infer_getattr``):
    registers nothing in taipan and gives the decorated class back."""
    if len(args) == 1 and not kwargs and isinstance(args[0], type):
        return args[0]  # @infer, @infer_getattr on a class

    def decorate(obj):
        return obj

    return decorate


def _or_nothing(register):
    """taipan's registration, or (where taipan refuses it: Numba's internal keys such as
    "print_item", a global typed by a type) none, the class given back (refusals deferred)."""

    def call(*args, **kwargs):
        try:
            result = register(*args, **kwargs)
        except NotImplementedError:
            return _registers_nothing(*args, **kwargs)
        if callable(result) and not isinstance(result, type):
            inner = result

            def decorate(obj):
                try:
                    return inner(obj)
                except NotImplementedError:
                    return obj

            return decorate
        return result

    return call


if PLAIN_PYTHON:
    infer = infer_global = infer_getattr = _registers_nothing
else:
    from taipan.core.typing import templates as _templates

    infer = _or_nothing(_templates.infer)
    infer_global = _or_nothing(_templates.infer_global)
    infer_getattr = _templates.infer_getattr
from taipan.core.typing.templates import (  # noqa: F401
    AbstractTemplate,
    AttributeTemplate,
    CallableTemplate,
    ConcreteTemplate,
)

__getattr__ = fill_missing(globals(), __name__)
