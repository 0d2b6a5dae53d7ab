"""``numba.cuda.misc``: numba-cuda's home of ``special`` (``literal_unroll``)."""
