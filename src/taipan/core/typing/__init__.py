"""Numba's ``numba.core.typing``: ``signature(return_type, *args)`` (Numba's typing templates
are in ``templates`` as far as taipan has them)."""

from taipan.core.typing.templates import signature

__all__ = ["signature"]
