"""Numba's ``numba.core.typeconv``: ``Conversion``, the kinds of conversion a type's
``can_convert_to(typingctx, other)`` answers with (taipan.user_types reads any true value as
"converts")."""

import enum

__all__ = ["Conversion"]


class Conversion(enum.IntEnum):
    """How a value converts to another type, from the best to the worst (Numba's values)."""

    exact = 1  # the same type
    promote = 2  # to a wider type of the same kind (int32 to int64)
    safe = 3  # without losing information (int32 to float64)
    unsafe = 4  # possibly losing information (float64 to int32)
    nil = 99  # not at all
