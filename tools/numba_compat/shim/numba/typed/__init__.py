"""``numba.typed``: taipan has no typed containers, so ``List`` and ``Dict`` are pure-Python
stand-ins with Numba's constructors (``List.empty_list(item_type)``, ``Dict.empty(key_type,
value_type)``). Tests that use them in Python pass; compiled code given one fails to compile,
as taipan does not know the type."""

from numba._missing import fill_missing


class List(list):
    """A Python list with ``typed.List``'s constructors."""

    def __init__(self, iterable=(), lsttype=None, allocated=None):
        super().__init__(iterable)

    @classmethod
    def empty_list(cls, item_type=None, allocated=None):
        return cls()

    def copy(self):
        return List(self)

    def __getitem__(self, index):
        result = super().__getitem__(index)
        return List(result) if isinstance(index, slice) else result


class Dict(dict):
    """A Python dict with ``typed.Dict``'s constructor."""

    @classmethod
    def empty(cls, key_type=None, value_type=None, n_keys=0):
        return cls()

    def copy(self):
        return Dict(self)


__getattr__ = fill_missing(globals(), __name__)
