"""``numba.cuda.cudadrv.nvrtc``: numba-cuda's ``find_closest_arch`` (the architecture a
compute capability's code is compiled for), ``get_supported_ccs`` and ``get_arch_option``
answered by taipan's back end, which compiles for the newest architecture LLVM's NVPTX knows at
or below the one asked for; the rest of numba-cuda's NVRTC bindings stay placeholders."""

import functools
import re

from numba._missing import fill_missing
from numba.core import config

# The oldest compute capability numba-cuda's toolkits (CUDA 12) compile for.
_LOWEST_CC = (5, 0)


@functools.cache
def find_closest_arch(cc):
    """``(major, minor)`` of the architecture taipan writes PTX for when asked for `cc`."""
    from taipan import cuda

    ptx, _ = cuda.compile_ptx(lambda: None, (), cc=tuple(cc))
    digits = re.search(r"^\.target sm_(\d+)", ptx, re.MULTILINE).group(1)
    return int(digits[:-1]), int(digits[-1])


def get_supported_ccs():
    """Every compute capability taipan writes PTX for, from 5.0 up, oldest first: each
    architecture found by asking for the one just below the last found."""
    supported = []
    cc = find_closest_arch((99, 9))
    while cc >= _LOWEST_CC and cc not in supported:
        supported.append(cc)
        major, minor = cc
        below = (major, minor - 1) if minor else (major - 1, 9)
        closest = find_closest_arch(below)
        if closest > below:  # nothing older is known
            break
        cc = closest
    return sorted(supported)


def get_lowest_supported_cc():
    return min(get_supported_ccs())


def get_arch_option(major, minor, arch=""):
    """The ``compute_XY`` option for the closest architecture to ``major.minor`` (config's
    FORCE_CUDA_CC, when set, instead), with an arch-specific suffix ("a") kept only where the
    architecture is the one asked for, as numba-cuda chooses it."""
    forced = vars(config).get("FORCE_CUDA_CC")
    if isinstance(forced, tuple):
        major, minor = forced[0], forced[1]
        arch = forced[2] if len(forced) == 3 else ""
    else:
        closest = find_closest_arch((major, minor))
        if closest != (major, minor) and arch:
            raise ValueError(
                f"Can't use arch-specific compute_{major}{minor}{arch} with closest found "
                f"compute capability compute_{closest[0]}{closest[1]}"
            )
        major, minor = closest
    return f"compute_{major}{minor}{arch}"


def _get_nvrtc_version():
    """``(major, minor)`` of the NVRTC library taipan loads (for CUDA C++ sources)."""
    from taipan import _core
    from taipan.cuda import linking

    linking._find_nvrtc()
    return tuple(_core.nvrtc_version())


__getattr__ = fill_missing(globals(), __name__)
