"""np.polynomial.Polynomial in compiled code, as Numba has it: ``Polynomial(coef)`` and
``Polynomial(coef, domain, window)`` of 1-D arrays make a value of ``PolynomialType`` (a struct
of three float64 arrays, the arguments converted as NumPy converts them), whose ``coef``,
``domain`` and ``window`` compiled code reads, and which returns to Python as NumPy's
Polynomial. Written with the extension API (a user type, its data model, an intrinsic that
builds it, a box function), the way Numba's numba/np/polynomial/polynomial_core.py is."""

import numpy as np
from numpy.polynomial import Polynomial

from taipan import types
from taipan.core import cgutils
from taipan.core.imputils import impl_ret_borrowed
from taipan.errors import TypingError
from taipan.extending import (
    box,
    intrinsic,
    make_attribute_wrapper,
    models,
    overload,
    register_jitable,
    register_model,
)

_SERIES = types.Array(types.float64, 1, "C")


class PolynomialType(types.Type):
    """A np.polynomial.Polynomial: its coefficients, domain and window, each a 1-D float64
    array (NumPy keeps them as float64 arrays too)."""

    def __init__(self):
        super().__init__(name="PolynomialType")


polynomial_type = PolynomialType()


@register_model(PolynomialType)
class PolynomialModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("coef", _SERIES), ("domain", _SERIES), ("window", _SERIES)]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(PolynomialType, "coef", "coef")
make_attribute_wrapper(PolynomialType, "domain", "domain")
make_attribute_wrapper(PolynomialType, "window", "window")


@intrinsic
def _new_polynomial(typingctx, coef, domain, window):
    def codegen(context, builder, signature, arguments):
        polynomial = cgutils.create_struct_proxy(signature.return_type)(context, builder)
        polynomial.coef, polynomial.domain, polynomial.window = arguments
        # the arrays are the caller's: the struct holds references of its own
        return impl_ret_borrowed(context, builder, signature.return_type, polynomial._getvalue())

    return polynomial_type(_SERIES, _SERIES, _SERIES), codegen


@register_jitable
def _series(a):
    """A new C float64 copy of a 1-D array (NumPy's Polynomial keeps copies of its arguments)."""
    return np.ascontiguousarray(a.astype(np.float64))


def _check_series(value, name):
    if not isinstance(value, types.Array):
        raise TypingError(f"Polynomial's {name} must be an array, not {value}")
    if value.ndim != 1:
        what = "Coefficient array" if name == "coef" else f"Polynomial's {name}"
        raise TypingError(f"{what} is not 1-d")  # Numba's words
    # NumPy finds no common type for booleans ("Coefficient arrays have no common type")
    if not isinstance(value.dtype, (types.Integer, types.Float)):
        raise TypingError(f"Polynomial's {name} must hold real numbers, not {value.dtype}")


@overload(np.polynomial.Polynomial)
def _polynomial(coef, domain=None, window=None):
    _check_series(coef, "coef")
    given = [
        value is not None and not isinstance(value, types.NoneType) for value in (domain, window)
    ]
    if not any(given):

        def from_coefficients(coef, domain=None, window=None):
            default = np.array([-1.0, 1.0])
            return _new_polynomial(_series(coef), default, default.copy())

        return from_coefficients
    if not all(given):
        raise TypingError("Polynomial takes both domain and window, or neither")
    _check_series(domain, "domain")
    _check_series(window, "window")

    def from_all(coef, domain=None, window=None):
        if domain.shape[0] != 2:
            raise ValueError("Domain has wrong number of elements.")
        if window.shape[0] != 2:
            raise ValueError("Window has wrong number of elements.")
        return _new_polynomial(_series(coef), _series(domain), _series(window))

    return from_all


@box(PolynomialType)
def _box_polynomial(typ, val, c):
    """NumPy's Polynomial(coef, domain, window) of the three arrays boxed."""
    polynomial = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    coef = c.box(_SERIES, polynomial.coef)
    domain = c.box(_SERIES, polynomial.domain)
    window = c.box(_SERIES, polynomial.window)
    cls = c.pyapi.unserialize(c.pyapi.serialize_object(Polynomial))
    result = c.pyapi.call_function_objargs(cls, (coef, domain, window))
    for obj in (coef, domain, window):
        c.pyapi.decref(obj)
    return result
