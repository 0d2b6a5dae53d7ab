"""``numba.cuda.kernels``: numba-cuda's library kernels that taipan has (``transpose``)."""
