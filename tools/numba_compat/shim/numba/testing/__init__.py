"""``numba.testing``: the test-tag decorator Numba's ``tests.support`` builds (pytest runs the
tests, so ``load_testsuite`` is not needed)."""

from numba._missing import fill_missing


def make_tag_decorator(known_tags):
    """``tag('important')``: marks a test method with tags (as Numba's does)."""

    def tag(*tags):
        for name in tags:
            if name not in known_tags:
                raise ValueError(f"unknown tag: {name!r}")

        def decorate(function):
            function.tags = getattr(function, "tags", set()) | set(tags)
            return function

        return decorate

    return tag


def load_testsuite(loader, directory):
    import unittest

    return unittest.TestSuite()


__getattr__ = fill_missing(globals(), __name__)
