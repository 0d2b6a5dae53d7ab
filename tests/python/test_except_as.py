"""``except E as e`` in compiled code: ``str(e)``, ``print(e)`` and ``raise e`` give what
CPython gives for exceptions raised by the function, by jitted callees and by taipan's own
checks; ``e.args`` is typed from the try body's raise statements and checked at run time.
Other uses of the exception (other attributes, storing it, the name outside its handler) are an
UnsupportedError at the user's line. Results are compared with the Python function's."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import no_allocation_leak, outcome

from taipan import njit
from taipan.errors import TypingError, UnsupportedError


def check(function, *args):
    with no_allocation_leak():
        got = outcome(function, *args)
    assert got == outcome(function.py_func, *args)


@njit
def callee(i):
    if i < 0:
        raise ValueError("negative", i)
    return i


@njit(boundscheck=True)
def messages(kind, a):
    try:
        if kind == 0:
            raise ValueError("bad value")
        if kind == 1:
            return str(a[kind + 10])
        if kind == 2:
            return str(1 // (kind - 2))
        if kind == 3:
            raise KeyError("key")
        if kind == 4:
            return str(callee(-kind))
        if kind == 5:
            raise ValueError
        if kind == 6:
            raise ValueError("x", 2.5)
        return "none"
    except (ValueError, KeyError) as e:
        return "caught: " + str(e)
    except IndexError as e:
        return "index: " + str(e)
    except ArithmeticError as err:
        return "arith: " + str(err) + "!"


@pytest.mark.parametrize("kind", range(8))
def test_str_of_caught_exception(kind):
    check(messages, kind, np.arange(3.0))


@njit
def strings(s, i):
    try:
        return s[i]
    except IndexError as e:
        return str(e)


def test_str_of_taipan_checks():
    check(strings, "abc", 1)
    check(strings, "abc", 7)


@njit
def reraises(kind):
    try:
        if kind == 0:
            raise KeyError("first")
        return 1
    except KeyError as e:
        try:
            raise ValueError("second")
        except ValueError as inner:
            text = str(inner)
        if kind == 0:
            raise e  # noqa: TRY201 - the form under test
        return len(text)


def test_raise_e_after_a_nested_handler():
    check(reraises, 0)
    check(reraises, 1)


@njit
def in_finally(kind):
    out = ""
    try:
        raise ValueError("outer")
    except ValueError as e:
        try:
            if kind:
                raise IndexError("inner")
        finally:
            out = str(e)  # also runs as a handler of the IndexError
    return out


def test_str_in_a_finally_inside_the_handler():
    check(in_finally, 0)
    check(in_finally, 1)


@njit
def prints(b):
    try:
        return 10 // b
    except ZeroDivisionError as e:
        print("caught", e, 1)
        return -1


def test_print_of_caught_exception(capfd):
    check(prints, 0)
    out = capfd.readouterr().out
    assert out == "caught integer division or modulo by zero 1\n" * 2


class Custom(Exception):
    def __str__(self):
        return "custom<" + self.args[0] + ">"


@njit
def custom(i):
    try:
        if i:
            raise Custom("x")
        raise Custom
    except Exception as e:  # noqa: BLE001 - catches the user's class through its base
        return str(e)


def test_user_class_str():
    check(custom, 1)


@njit
def two_handlers(i):
    try:
        if i:
            raise ValueError("v")
        raise TypeError("t")
    except ValueError as e:
        return "V" + str(e)
    except TypeError as e:
        return "T" + str(e)


def test_same_name_in_two_handlers():
    check(two_handlers, 0)
    check(two_handlers, 1)


def unsupported(function, match):
    with pytest.raises(UnsupportedError, match=match) as info:
        function(1)
    assert "line" in str(info.value)


@njit
def args_of_raised(which, text, number):
    try:
        if which == 0:
            raise ValueError(text, number)
        if which == 1:
            raise ValueError("constant", 7)
        negative = -number
        if which == 2:
            raise KeyError(text, negative)
        return ("", 0)
    except (ValueError, KeyError) as e:
        arguments = e.args
        return arguments[0] + "!", arguments[1] * 2


@njit
def args_of_one(which, number):
    try:
        if which == 0:
            raise ValueError(number)
        if which == 1:
            raise IndexError(3)
        return -1
    except Exception as e:  # noqa: BLE001 - every class is caught
        return e.args[0] + len(e.args)


@njit
def args_of_message(which):
    try:
        if which == 0:
            raise ValueError("bad")
        found = {1: 2}[which]
        return (str(found),)
    except Exception as e:  # noqa: BLE001 - every class is caught
        return e.args


def test_args_of_raised_exceptions():
    for which in range(4):
        for text, number in (("a", 5), ("", -3), ("é", 2**40)):
            check(args_of_raised, which, text, number)
    for which in range(3):
        check(args_of_one, which, 11)
    check(args_of_message, 0)
    check(args_of_message, 1)


def test_args_of_another_type_is_a_clear_type_error():
    # The try body's raise statements type e.args as (str,); the KeyError of the dict lookup
    # has an int: a TypeError naming both, never a wrong value.
    with no_allocation_leak(), pytest.raises(TypeError, match=r"e.args is \(5,\)"):
        args_of_message(5)


def test_args_refusals():
    @njit
    def no_raise(i):
        try:
            return 1 // i
        except ZeroDivisionError as e:
            return e.args

    @njit
    def computed_argument(i):
        try:
            raise ValueError(i + 1)
        except ValueError as e:
            return e.args

    @njit
    def different_types(i):
        try:
            if i:
                raise ValueError("x")
            raise ValueError(1, 2)
        except ValueError as e:
            return e.args

    @njit
    def other_attribute(i):
        try:
            raise ValueError("x")
        except ValueError as e:
            return e.errno

    unsupported(no_raise, r"'e.args' without a raise statement in the try body")
    unsupported(computed_argument, r"other than names and constants")
    with pytest.raises(TypingError, match="different types"):
        different_types(1)
    unsupported(other_attribute, r"'e.errno' of the exception bound by 'except \.\.\. as e'")


def test_storing_the_exception_is_unsupported():
    @njit
    def f(i):
        try:
            raise ValueError("x")
        except ValueError as e:
            x = e  # noqa: F841 - refused at compile time, as tested
        return i

    unsupported(f, "using the value of the exception")

    @njit
    def g(i):
        try:
            raise ValueError("x")
        except ValueError as e:  # noqa: F841 - refused at compile time, as tested
            e = 1
        return e  # noqa: F821 - refused at compile time, as tested

    unsupported(g, "assigning to the name")


def test_name_outside_handler_is_unsupported():
    @njit
    def f(i):
        e = i
        try:
            raise ValueError("x")
        except ValueError as e:
            print(e)
        return e

    unsupported(f, "also used outside the except block")
