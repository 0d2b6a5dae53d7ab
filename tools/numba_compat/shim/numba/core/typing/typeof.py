"""``numba.core.typing.typeof``: taipan's ``typeof`` and its registry of user classes'
types (``typeof_impl``, as ``numba.core.extending`` gives it); the rest placeholders."""

from numba._missing import fill_missing
from numba.core.extending import typeof_impl  # noqa: F401
from taipan import typeof  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
