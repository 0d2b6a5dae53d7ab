"""``numba.core.datamodel``: taipan's data models of user-defined types (``taipan.datamodels``)."""

from numba._missing import fill_missing
from numba.core.datamodel import models  # noqa: F401
from numba.core.datamodel.models import register_default  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
