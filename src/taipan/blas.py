"""Finds a BLAS for matrix products in compiled code: NumPy's own OpenBLAS first (it ships with
every NumPy wheel), then a system BLAS. Without one, the runtime's blocked kernel is used.

Folders are read with os.listdir, not glob or ctypes.util (which import re, subprocess and
shutil, and run ldconfig): this runs during the first compile of every program using NumPy."""

import os
import sys

from taipan import _core


def _matching(folder, accept):
    """The paths of the files in ``folder`` whose names ``accept`` takes, sorted by name."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, name) for name in sorted(names) if accept(name)]


def _system_folders():
    """The dynamic loader's usual folders: LD_LIBRARY_PATH's, then the system's (Debian's
    multiarch folders included)."""
    folders = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    machine = os.uname().machine if hasattr(os, "uname") else ""
    for prefix in ("/usr/local/lib", "/usr/lib", "/lib"):
        if machine:
            folders.append(f"{prefix}/{machine}-linux-gnu")
        folders.append(prefix)
    folders += ["/usr/lib64", "/lib64", "/opt/homebrew/lib", "/usr/local/opt/openblas/lib"]
    return folders


def _shared_library(name):
    """A test for file names of the shared library ``name``: libNAME.so, libNAME.so.0...,
    libNAME.dylib, libNAME.0.dylib."""
    stem = f"lib{name}."

    def accept(filename):
        if not filename.startswith(stem):
            return False
        rest = filename[len(stem) :]
        return rest == "so" or rest.startswith("so.") or rest.endswith("dylib")

    return accept


def _candidates():
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        here = os.path.dirname(numpy.__file__)
        for folder in (os.path.join(here, os.pardir, "numpy.libs"), os.path.join(here, ".libs")):
            yield from _matching(folder, lambda name: "blas" in name and ".so" in name)
    folders = _system_folders()
    for name in ("openblas", "blas"):
        for folder in folders:
            yield from _matching(folder, _shared_library(name))
    # Last resort (no BLAS found above): the platform's own search, which may run ldconfig.
    import ctypes.util

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
