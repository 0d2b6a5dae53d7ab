"""``numba.core.extending`` and ``numba.extending``: taipan's extension API (``overload``,
``overload_method``, ``overload_attribute``, ``register_jitable``, ``intrinsic``) and its API for
user-defined types (``typeof_impl``, ``type_callable``, ``register_model``/``models``,
``make_attribute_wrapper``, ``lower_builtin``, ``infer_getattr``/``lower_getattr``,
``box``/``unbox``/``NativeValue``, ``as_numba_type``, ``infer_global``/``infer`` with the
function templates, ``lower_cast``, ``lower_constant``, ``overload_classmethod``). The
registrations taipan does not have yet (``reflect``) register nothing, so that a module
registering them at import still imports; what they would have made fails where a test uses
it."""

from numba import PLAIN_PYTHON
from numba._missing import fill_missing
from numba.core import types  # noqa: F401
from taipan.extending import (  # noqa: F401
    NativeValue,
    _Intrinsic,
    as_numba_type,
    box,
    get_cython_function_address,
    infer_getattr,
    intrinsic,
    is_jitted,
    lower_builtin,
    lower_cast,
    lower_constant,
    lower_getattr,
    lower_getattr_generic,
    make_attribute_wrapper,
    models,
    overload,
    overload_attribute,
    overload_classmethod,
    overload_method,
    register_jitable,
    register_model,
    type_callable,
    typeof_impl,
    unbox,
)


def _registers_nothing(*args, **kwargs):
    """A registration decorator of Numba's low-level API that taipan lacks: gives the decorated
    object back."""

    def decorate(obj):
        return obj

    return decorate


reflect = _registers_nothing
from numba.core.typing.templates import infer, infer_global  # noqa: F401 (deferring)
from taipan.extending import lower_setattr, lower_setattr_generic

if PLAIN_PYTHON:
    # Nothing is compiled, and the types are plain mode's proxies, which a data model could not
    # lay out: the registrations register nothing (the model classes stay, as base classes).

    class _Registry:
        register = staticmethod(_registers_nothing)

        def __call__(self, *args, **kwargs):
            return None

    typeof_impl = _Registry()
    as_numba_type = _Registry()
    type_callable = register_model = lower_builtin = lower_cast = box = unbox = _registers_nothing
    lower_constant = overload_classmethod = _registers_nothing
    lower_getattr = lower_getattr_generic = _registers_nothing
    lower_setattr = lower_setattr_generic = _registers_nothing

    def infer_getattr(template_class):
        return template_class

    def make_attribute_wrapper(typeclass, struct_attr, python_attr):
        """Registers nothing in plain-Python mode."""


__getattr__ = fill_missing(globals(), __name__)
