"""``numba.core.typing``: ``signature`` (taipan's), ``templates.signature``,
``npydecl.supported_ufuncs`` and ``Context`` (the class of the typing context typing functions
receive, taipan.extending's) are mapped."""

from numba._missing import fill_missing
from numba.core.typing.templates import signature  # noqa: F401
from taipan.extending import _TypingContext as Context  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
