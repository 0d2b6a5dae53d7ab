"""``numba.core.typing``: ``signature`` (taipan's), ``templates.signature`` and
``npydecl.supported_ufuncs`` are mapped."""

from numba._missing import fill_missing
from numba.core.typing.templates import signature  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
