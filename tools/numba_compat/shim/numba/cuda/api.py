"""``numba.cuda.api``: numba-cuda's host API module; the names its tests import from it are
taipan.cuda's, the rest placeholders."""

from numba._missing import fill_missing
from taipan.cuda import is_bfloat16_supported, is_float16_supported, is_fp8_supported  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
