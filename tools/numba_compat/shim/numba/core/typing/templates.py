"""``numba.core.typing.templates``: ``signature`` is taipan's; Numba's typing templates are
placeholders."""

from numba._missing import fill_missing
from taipan.core.typing.templates import signature  # noqa: F401

__getattr__ = fill_missing(globals(), __name__)
