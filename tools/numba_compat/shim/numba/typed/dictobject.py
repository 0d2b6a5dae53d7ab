"""``numba.typed.dictobject``: ``new_dict(key_type, value_type)``, with which Numba's tests make
dicts in compiled code, is ``taipan.typed.Dict.empty`` (in Python and in compiled code)."""

from numba._missing import fill_missing
from taipan.typed import Dict


def new_dict(key, value, n_keys=0):
    """An empty typed Dict of the given key and value types."""
    return Dict.empty(key, value, n_keys)


new_dict._taipan_builtin = "taipan.typed.Dict.empty"

__getattr__ = fill_missing(globals(), __name__)
