"""``numba.experimental.jitclass``: taipan's jitclass (``taipan.jitclasses``); in plain-Python
mode the decorator gives the class itself."""

from numba import PLAIN_PYTHON
from numba._missing import fill_missing


def jitclass(cls_or_spec=None, spec=None):
    if PLAIN_PYTHON:
        if cls_or_spec is not None and spec is None and not isinstance(cls_or_spec, type):
            cls_or_spec = None
        return (lambda cls: cls) if cls_or_spec is None else cls_or_spec
    from taipan.jitclasses import jitclass as make

    return make(cls_or_spec, spec)


__getattr__ = fill_missing(globals(), __name__)
