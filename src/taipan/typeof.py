"""``typeof(value)``: the type taipan gives a Python value."""

from taipan import _core


def typeof(value, purpose=None):
    """The taipan type of ``value``; raises ValueError when compiled code cannot take it."""
    return _core.typeof(value)
