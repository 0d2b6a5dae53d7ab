"""``numba.core.datamodel.models``: taipan's models (``taipan.datamodels``); ``register_default``
is ``numba.core.extending.register_model`` (which registers nothing in plain-Python mode)."""

from numba._missing import fill_missing
from numba.core.extending import register_model as register_default  # noqa: F401
from taipan.datamodels import (  # noqa: F401
    DataModel,
    OpaqueModel,
    PointerModel,
    PrimitiveModel,
    StructModel,
)

__getattr__ = fill_missing(globals(), __name__)
