"""The LAPACK that NumPy (or SciPy) already loaded, as ctypes functions that compiled code calls
through their addresses (src/taipan/ctypes_functions.py): nothing is linked into taipan.

NumPy's wheels bundle OpenBLAS with ILP64 LAPACK symbols (``scipy_dgesv_64_`` in NumPy 2,
``dgesv_64_`` before); without them, SciPy's ``cython_lapack`` exports its LAPACK's function
pointers (32-bit integers). Every LAPACK argument is passed by pointer (the Fortran ABI), so
each is declared ``void*`` and the implementations pass one-element arrays for scalars;
gfortran's hidden lengths of CHARACTER arguments follow the others."""

import ctypes
import glob
import os
import sys

import numpy as np


class Lapack:
    """A source of LAPACK routines: ``routine(name, ...)`` gives a ctypes function."""

    def __init__(self, description, integer, find_address):
        self.description = description
        self.integer = integer  # NumPy type of LAPACK's INTEGER
        self._find_address = find_address
        self._routines = {}

    def routine(self, name, pointer_count, character_count=0):
        """The ctypes function of LAPACK routine `name` ("dgesv") taking `pointer_count`
        arguments, `character_count` of them CHARACTER (whose lengths are appended)."""
        routine = self._routines.get(name)
        if routine is None:
            address = self._find_address(name)
            if not address:
                raise LookupError(f"the LAPACK routine {name} is missing from {self.description}")
            parameters = [ctypes.c_void_p] * pointer_count + [ctypes.c_size_t] * character_count
            routine = ctypes.CFUNCTYPE(None, *parameters)(address)
            routine.__name__ = name
            self._routines[name] = routine
        return routine


def _numpy_openblas():
    """NumPy's bundled OpenBLAS (already loaded by NumPy, so dlopen finds the same copy)."""
    here = os.path.dirname(np.__file__)
    for folder in (os.path.join(here, os.pardir, "numpy.libs"), os.path.join(here, ".libs")):
        for path in sorted(glob.glob(os.path.join(folder, "*openblas*.so*"))):
            try:
                library = ctypes.CDLL(path)
            except OSError:
                continue
            for prefix, suffix, integer in (
                ("scipy_", "_64_", np.int64),
                ("", "_64_", np.int64),
                ("scipy_", "_", np.int32),
                ("", "_", np.int32),
            ):
                if hasattr(library, f"{prefix}dgesv{suffix}"):

                    def find(name, library=library, prefix=prefix, suffix=suffix):
                        function = getattr(library, f"{prefix}{name}{suffix}", None)
                        return ctypes.cast(function, ctypes.c_void_p).value if function else None

                    return Lapack(path, integer, find)
    return None


def _scipy_cython_lapack():
    """SciPy's LAPACK through the function pointers cython_lapack exports (32-bit INTEGER)."""
    if "scipy" not in sys.modules:
        return None
    try:
        from scipy.linalg import cython_lapack
    except ImportError:
        return None
    capsules = cython_lapack.__pyx_capi__
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.argtypes, get_name.restype = [ctypes.py_object], ctypes.c_char_p
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.argtypes, get_pointer.restype = [ctypes.py_object, ctypes.c_char_p], ctypes.c_void_p

    def find(name):
        capsule = capsules.get(name)
        return get_pointer(capsule, get_name(capsule)) if capsule is not None else None

    return Lapack("scipy.linalg.cython_lapack", np.int32, find)


def find_lapack():
    """NumPy's LAPACK, else SciPy's, else None."""
    return _numpy_openblas() or _scipy_cython_lapack()
