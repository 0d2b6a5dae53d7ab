"""``numba.cuda._compat``: numba-cuda's flags for the installed cuda.core's version, which its
tests read to call cuda.core's API in that version's words (``LaunchConfig(is_cooperative=)``
from 1.0, ``cooperative_launch=`` before). Without cuda.core the version is 0."""

import re

try:
    from cuda import core as _core

    _VERSION_TEXT = getattr(_core, "__version__", "0")
except ImportError:
    _VERSION_TEXT = "0"

try:
    from packaging import version as _version

    CUDA_CORE_VERSION = _version.parse(_VERSION_TEXT)
    _at_least = lambda text: CUDA_CORE_VERSION >= _version.parse(text)
except ImportError:  # numba-cuda depends on packaging; compare release numbers without it
    CUDA_CORE_VERSION = tuple(int(part) for part in re.findall(r"\d+", _VERSION_TEXT)[:3])
    _at_least = lambda text: CUDA_CORE_VERSION >= tuple(map(int, text.split(".")))

CUDA_CORE_GT_0_6 = _at_least("0.6.0")
CUDA_CORE_GE_1_0 = _at_least("1.0.0")
