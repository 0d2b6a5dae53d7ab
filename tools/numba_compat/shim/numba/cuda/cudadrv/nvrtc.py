"""``numba.cuda.cudadrv.nvrtc``: numba-cuda's ``find_closest_arch`` (the architecture a
compute capability's code is compiled for) answered by taipan's back end, which compiles for the
newest architecture LLVM's NVPTX knows at or below it; the rest of numba-cuda's NVRTC bindings
stay placeholders."""

import re

from numba._missing import fill_missing


def find_closest_arch(cc):
    """``(major, minor)`` of the architecture taipan writes PTX for when asked for `cc`."""
    from taipan import cuda

    ptx, _ = cuda.compile_ptx(lambda: None, (), cc=tuple(cc))
    digits = re.search(r"^\.target sm_(\d+)", ptx, re.MULTILINE).group(1)
    return int(digits[:-1]), int(digits[-1])


__getattr__ = fill_missing(globals(), __name__)
