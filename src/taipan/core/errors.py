"""``numba.core.errors``'s names: taipan's exceptions (defined in ``taipan.errors``)."""

from taipan.errors import (  # noqa: F401
    InternalError,
    NumbaError,
    TaipanError,
    TypingError,
    UnsupportedError,
)
