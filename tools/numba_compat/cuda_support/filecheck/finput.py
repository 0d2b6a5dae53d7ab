"""The stand-in's ``filecheck.finput``: see the package's docstring."""

from filecheck import _Unavailable, pattern_for_opts  # noqa: F401

Matcher = Options = Parser = FInput = _Unavailable
