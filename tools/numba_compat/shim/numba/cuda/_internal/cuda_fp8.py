"""``numba.cuda._internal.cuda_fp8``: cuda_fp8.h's types and storage conversions (``fp8_e5m2``,
``cvt_float_to_fp8``, ``saturation_t``...), which are taipan's ``cuda.fp8``."""

from numba._missing import fill_missing
from taipan.cuda.fp8 import *

__getattr__ = fill_missing(globals(), __name__)
