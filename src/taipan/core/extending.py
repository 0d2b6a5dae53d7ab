"""Numba's ``numba.core.extending``: the same names as ``taipan.extending``."""

from taipan.extending import *
from taipan.extending import (  # noqa: F401
    get_cython_function_address,
    intrinsic,
    overload,
    overload_attribute,
    overload_method,
    register_jitable,
)
