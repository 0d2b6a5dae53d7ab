"""``numba.core.extending`` and ``numba.extending``: taipan's extension API (``overload``,
``overload_method``, ``overload_attribute``, ``register_jitable``, ``intrinsic``); Numba's
lower-level one (``box``, ``unbox``, ``register_model``, ``typeof_impl``...) is placeholders."""

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

__getattr__ = fill_missing(globals(), __name__)
