"""``numba.cpython``: only ``unicode._MAX_UNICODE`` is mapped."""
