"""``numba.cuda.misc.special``: ``literal_unroll`` is taipan's, which kernels unroll too."""

from taipan import literal_unroll  # noqa: F401
