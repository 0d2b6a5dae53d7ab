"""``numba.cuda.typing.typeof``: taipan's ``typeof``."""

from taipan import typeof  # noqa: F401
