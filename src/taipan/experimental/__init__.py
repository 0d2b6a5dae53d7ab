"""Numba's ``numba.experimental`` namespace: ``jitclass``."""


def jitclass(cls_or_spec=None, spec=None):
    """Numba's ``jitclass`` (``taipan.jitclasses``, imported on first use)."""
    from taipan.jitclasses import jitclass as make

    return make(cls_or_spec, spec)


__all__ = ["jitclass"]
