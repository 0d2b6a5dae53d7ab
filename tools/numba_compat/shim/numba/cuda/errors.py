"""``numba.cuda.errors``: numba-cuda's names on taipan's classes. ``LoweringError`` is taipan's
(raised when an intrinsic's codegen returns None for a non-void signature, on CUDA as on the
CPU), ``CudaLoweringError`` a subclass of it; the launch-configuration helpers check with
taipan's rules (``taipan.cuda.api.launching``). taipan raises a kernel's own exception class,
never ``KernelRuntimeError``: it is numba-cuda's class, for code that names it."""

from numba._missing import fill_missing
from numba.core.errors import LoweringError, UnsupportedBytecodeError  # noqa: F401
from taipan.cuda.api.launching import launch_dimensions


class KernelRuntimeError(RuntimeError):
    """numba-cuda's error of a kernel that raised (its simulator's); ``tid`` and ``ctaid`` are
    the raising thread's and block's indices."""

    def __init__(self, msg, tid=None, ctaid=None):
        self.tid, self.ctaid, self.msg = tid, ctaid, msg
        super().__init__(f"An exception was raised in thread={tid} block={ctaid}\n\t{msg}")


class CudaLoweringError(LoweringError):
    pass


missing_launch_config_msg = """
Kernel launch configuration was not specified. Use the syntax:

kernel_function[blockspergrid, threadsperblock](arg0, arg1, ..., argn)

See https://numba.readthedocs.io/en/stable/cuda/kernels.html#kernel-invocation for help.

"""


def normalize_kernel_dimensions(griddim, blockdim):
    """(griddim, blockdim) as 3-tuples, as a launch reads them; numba-cuda's ValueError when
    either is missing."""
    if griddim is None or blockdim is None:
        raise ValueError(missing_launch_config_msg)
    return launch_dimensions(griddim, "griddim"), launch_dimensions(blockdim, "blockdim")


__getattr__ = fill_missing(globals(), __name__)
