"""A stand-in for the ``filecheck`` package (FileCheck in Python), which numba-cuda 0.30's
``numba.cuda.testing`` imports at import time. The CUDA suite runner
(``tools/numba_compat/cuda_suite.py``) puts it on the path of both sides only where the real
package is not installed: importing works, and a FileCheck assertion fails on both sides alike,
so numba-cuda's own test support does not stop whole modules of the baseline."""


class FileCheckUnavailable(RuntimeError):
    """The real filecheck package is not installed."""


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise FileCheckUnavailable("filecheck is not installed (a stand-in was imported)")


def pattern_for_opts(*args, **kwargs):
    raise FileCheckUnavailable("filecheck is not installed (a stand-in was imported)")
