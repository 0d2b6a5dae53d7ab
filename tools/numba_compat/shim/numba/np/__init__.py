"""``numba.np``: ``numpy_support`` is mapped; the rest are placeholders."""
