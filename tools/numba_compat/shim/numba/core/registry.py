"""``numba.core.registry``: ``cpu_target`` with no contexts (``compile_extra`` ignores them)."""

from types import SimpleNamespace

from numba._missing import fill_missing

cpu_target = SimpleNamespace(typing_context=None, target_context=None)

__getattr__ = fill_missing(globals(), __name__)
