"""``numba.cuda.typing``: ``typeof`` and the signatures of ``templates``; the rest placeholders."""

from numba.cuda.typing.templates import signature  # noqa: F401  (numba-cuda exports it here)
