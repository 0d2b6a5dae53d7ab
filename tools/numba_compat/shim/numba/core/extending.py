"""``numba.core.extending`` and ``numba.extending``: taipan's extension API (``overload``,
``overload_method``, ``overload_attribute``, ``register_jitable``, ``intrinsic``); Numba's
lower-level one (``box``, ``unbox``, ``register_model``, ``typeof_impl``...) is placeholders,
whose registration decorators register nothing (so that a module registering a type at import
still imports; what the registration would have made fails where a test uses it)."""

from numba._missing import fill_missing
from numba.core import types  # noqa: F401
from taipan.extending import (  # noqa: F401
    get_cython_function_address,
    intrinsic,
    overload,
    overload_attribute,
    overload_method,
    register_jitable,
)


def _registers_nothing(*args, **kwargs):
    """A registration decorator of Numba's low-level API: gives the decorated object back."""

    def decorate(obj):
        return obj

    return decorate


class _Registry:
    register = staticmethod(_registers_nothing)


typeof_impl = _Registry()
type_callable = register_model = lower_builtin = lower_cast = lower_getattr = _registers_nothing
lower_getattr_generic = lower_setattr = lower_constant = box = unbox = reflect = _registers_nothing
overload_classmethod = infer_getattr = _registers_nothing


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    """Numba's attribute wrapper of a data model's field: registers nothing in taipan."""


__getattr__ = fill_missing(globals(), __name__)
