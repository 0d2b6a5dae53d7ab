"""``typeof(value)``: the type taipan gives a Python value."""

from taipan import _core


def typeof(value, purpose=None):
    """The taipan type of ``value``; raises ValueError when compiled code cannot take it."""
    from taipan.user_type_registry import user_view

    return user_view(_core.typeof(value))  # a user-defined type is the user's instance


def from_dtype(dtype):
    """The taipan type of one element of the NumPy ``dtype``: a number type, or a ``Record``
    for a structured dtype (Numba's ``numba.from_dtype``)."""
    import numpy as np

    dtype = np.dtype(dtype)
    if dtype.fields is not None:
        return _core.record_type(dtype)
    return _core.typeof(np.zeros(1, dtype)).dtype
