"""``numba.cuda._internal.cuda_bf16``: cuda_bf16.h's names (``nv_bfloat16``, ``htrunc``...),
which are taipan's ``cuda.bf16``."""

from numba._missing import fill_missing
from taipan.cuda.bf16 import *

__getattr__ = fill_missing(globals(), __name__)
