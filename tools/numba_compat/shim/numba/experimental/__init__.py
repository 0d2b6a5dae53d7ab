"""``numba.experimental``: ``jitclass`` (taipan has no jit classes: a class made with it cannot
be instantiated; in plain-Python mode it is the class itself)."""

from numba import PLAIN_PYTHON
from numba._missing import fill_missing


def _refused_class(cls):
    from taipan.errors import UnsupportedError

    def refuse(*args, **kwargs):
        raise UnsupportedError("jitclass is not supported by taipan")

    return type(cls.__name__, (cls,), {"__new__": refuse, "__init__": refuse})


def jitclass(cls_or_spec=None, spec=None):
    def wrap(cls):
        return cls if PLAIN_PYTHON else _refused_class(cls)

    if isinstance(cls_or_spec, type):
        return wrap(cls_or_spec)
    return wrap


__getattr__ = fill_missing(globals(), __name__)
