"""Numba's check that an overload's implementation takes the arguments its typing function
takes (``overload(..., strict=True)``, the default): positional names, keyword names and
defaults, ``*args`` only where the implementation has one, no ``**kwargs``; ``strict=False``
skips it. Errors are TypingErrors in Numba's words."""

import pytest

from taipan import njit
from taipan.errors import TypingError
from taipan.extending import overload


def _declare(implementation, strict=True):
    """A fresh function overloaded by a typing function (a, b, kw=None) returning
    ``implementation``, and a jitted caller."""

    def target(a, b, kw=None):
        return a + b

    def typer(a, b, kw=None):
        return implementation

    overload(target, strict=strict)(typer)

    @njit
    def call(x, y):
        return target(x, y, kw=3)

    return call


def same(a, b, kw=None):
    return a + b


def other_default(a, b, kw=12):
    return a + b


def other_keyword(a, b, kwarg=None):
    return a + b


def other_name(a, c, kw=None):
    return a + c


def too_few(a, kw=None):
    return a


def star_after_a(a, *args, kw=None):
    return a + args[0]


@pytest.mark.parametrize(
    "implementation, what",
    [
        (other_default, "keyword argument default values"),
        (other_keyword, "keyword argument names"),
        (other_name, "argument names"),
        (too_few, "argument names"),
    ],
)
def test_mismatches_are_typing_errors(implementation, what):
    with pytest.raises(TypingError, match="Typing and implementation arguments differ in") as e:
        _declare(implementation)(1, 2)
    assert what in str(e.value)
    assert "Implementation signature:" in str(e.value)


def test_matching_and_star_args_implementations_compile():
    assert _declare(same)(1, 2) == 3
    assert _declare(star_after_a)(1, 2) == 3  # *args takes the typing function's b


def test_strict_false_skips_the_check():
    assert _declare(other_name, strict=False)(1, 2) == 3


def test_keyword_arguments_in_the_typing_function_are_refused():
    def target(a, kw=None):
        return a

    def typer(a, **kws):
        return lambda a, kw=None: a

    overload(target)(typer)

    @njit
    def call(x):
        return target(x, kw=1)

    with pytest.raises(TypingError, match=r"VAR_KEYWORD .* '\*\*kws'"):
        call(1)


def test_star_args_only_in_the_typing_function_are_refused():
    def target(a, b):
        return a

    def typer(a, *rest):
        return lambda a, b: a

    overload(target)(typer)

    @njit
    def call(x):
        return target(x, 2)

    with pytest.raises(TypingError, match=r"VAR_POSITIONAL .* '\*rest'"):
        call(1)
