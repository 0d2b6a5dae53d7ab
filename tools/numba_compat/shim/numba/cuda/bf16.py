"""``numba.cuda.bf16``: numba-cuda's bfloat16 bindings, which are taipan's ``cuda.bf16``."""

from taipan.cuda.bf16 import *
from taipan.cuda.bf16 import __all__  # noqa: F401
