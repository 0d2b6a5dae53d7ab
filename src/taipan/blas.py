"""Finds a BLAS for matrix products in compiled code: NumPy's own OpenBLAS first (it ships with
every NumPy wheel), then a system BLAS. Without one, the runtime's blocked kernel is used."""

import ctypes.util
import glob
import os
import sys

from taipan import _core


def _candidates():
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        here = os.path.dirname(numpy.__file__)
        for folder in (os.path.join(here, os.pardir, "numpy.libs"), os.path.join(here, ".libs")):
            yield from sorted(glob.glob(os.path.join(folder, "*blas*.so*")))
    for name in ("openblas", "blas"):
        path = ctypes.util.find_library(name)
        if path:
            yield path


def find_blas():
    """Registers the first BLAS found; returns its path, or None."""
    for path in _candidates():
        if _core.register_blas(path):
            return path
    return None
