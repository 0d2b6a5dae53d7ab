"""``numba.cuda.args``: the argument hints (``In``, ``Out``, ``InOut``, ``ArgHint``) and
``wrap_arg``, which extensions' ``prepare_args`` use; taipan's (taipan.cuda.api.args)."""

from taipan.cuda.api.args import ArgHint, In, InOut, Out, wrap_arg

__all__ = ["ArgHint", "In", "InOut", "Out", "wrap_arg"]
