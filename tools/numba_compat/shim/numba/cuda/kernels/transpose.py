"""``numba.cuda.kernels.transpose``: taipan.cuda's ``transpose``."""

from taipan.cuda.transpose import transpose  # noqa: F401
