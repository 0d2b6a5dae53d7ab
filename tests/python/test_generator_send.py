"""Generators' send(), throw() and close(), from compiled code and from Python, with CPython's
semantics: `x = yield v` gives what send() passed (None after next()), throw() raises where the
generator is suspended (its try statements see it), close() finishes it (finally blocks run)."""

import types

import numpy as np
import pytest
from numpy_checks import check_outcome, no_allocation_leak

from taipan import njit
from taipan.errors import TypingError, UnsupportedError


def in_python(function):
    """`function` calling the plain Python generators where it calls the compiled ones."""
    plain = {"averager_jit": averager, "echo_jit": echo, "guarded_jit": guarded}
    plain["with_finally_jit"] = with_finally
    return types.FunctionType(function.__code__, {**function.__globals__, **plain})


def check(function, *args):
    return check_outcome(function, *args, reference=in_python(function))


def averager():
    total = 0.0
    count = 0
    average = 0.0
    while True:
        value = yield average
        if value is None:
            continue
        total += value
        count += 1
        average = total / count


def echo(n):
    received = -1
    for i in range(n):
        got = yield i * 10 + received
        received = -2 if got is None else got


def guarded(n):
    i = 0
    while i < n:
        caught = False
        try:
            yield i
        except ValueError:
            caught = True
        if caught:
            yield -100
        i += 1


def with_finally(log):
    try:
        yield 1
        yield 2
    finally:
        log[0] = 99.0


averager_jit = njit(averager)
echo_jit = njit(echo)
guarded_jit = njit(guarded)
with_finally_jit = njit(with_finally)


def use_averager():
    g = averager_jit()
    out = [next(g)]
    for v in (10.0, 20.0, 30.0):
        out.append(g.send(v))
    out.append(g.send(None))
    out.append(next(g))
    return out


def use_echo(n):
    g = echo_jit(n)
    out = [next(g)]
    out.append(g.send(5))
    out.append(next(g))
    out.append(g.send(7))
    return out


def send_until_stop(n):
    g = echo_jit(n)
    out = [next(g)]
    try:
        while True:
            out.append(g.send(3))
    except StopIteration:
        out.append(-999)
    return out


def send_to_unstarted():
    g = echo_jit(3)
    return g.send(4)


def send_none_to_unstarted():
    g = echo_jit(3)
    return g.send(None)


def throw_caught(n):
    g = guarded_jit(n)
    out = [next(g)]
    out.append(g.throw(ValueError))
    out.append(next(g))
    out.append(g.throw(ValueError("again")))
    return out


def throw_uncaught(n):
    g = guarded_jit(n)
    next(g)
    try:
        g.throw(KeyError("k"))
    except KeyError:
        pass
    # it finished when the exception left it
    out = 0
    for _ in g:
        out += 1
    return out


def throw_into_unstarted():
    g = guarded_jit(3)
    try:
        g.throw(ValueError)
    except ValueError:
        pass
    out = 0
    for _ in g:
        out += 1
    return out


def close_runs_finally():
    log = np.zeros(1)
    g = with_finally_jit(log)
    first = next(g)
    g.close()
    rest = 0
    for _ in g:
        rest += 1
    g.close()  # closing again does nothing
    return first, rest, log[0]


@pytest.mark.parametrize(
    "function, args",
    [
        (use_averager, ()),
        (use_echo, (5,)),
        (send_until_stop, (3,)),
        (send_to_unstarted, ()),
        (send_none_to_unstarted, ()),
        (throw_caught, (4,)),
        (throw_uncaught, (4,)),
        (throw_into_unstarted, ()),
        (close_runs_finally, ()),
    ],
)
def test_from_compiled_code(function, args):
    check(function, *args)


@pytest.mark.parametrize("make", [lambda f: f, njit])
def test_from_python(make):
    def run(f_echo, f_guarded, f_averager):
        out = []
        g = f_echo(4)
        out.append(next(g))
        out.append(g.send(6))
        out.append(g.send(None))
        with pytest.raises(TypeError, match="just-started"):
            f_echo(2).send(1)
        g = f_guarded(3)
        out.append(next(g))
        out.append(g.throw(ValueError))
        out.append(next(g))
        with pytest.raises(KeyError):
            g.throw(KeyError("x"))
        with pytest.raises(StopIteration):
            next(g)
        a = f_averager()
        next(a)
        out.append(a.send(4))
        out.append(a.send(8))
        a.close()
        with pytest.raises(StopIteration):
            a.send(1.0)
        return out

    with no_allocation_leak():
        got = run(make(echo), make(guarded), make(averager))
    assert got == run(echo, guarded, averager)


def test_send_value_of_wrong_type_is_refused():
    def f():
        g = echo_jit(3)
        next(g)
        return g.send("text")

    with pytest.raises(TypingError):
        njit(f)()


def test_send_into_yield_from_is_refused_at_run_time():
    @njit
    def inner():
        x = yield 1
        yield 2 if x is None else x

    @njit
    def outer():
        yield from inner()

    g = outer()
    next(g)
    with pytest.raises(RuntimeError, match="yield from"):
        g.send(5)


def test_yield_value_of_array_generator_is_refused():
    def f(n):
        x = yield np.zeros(n)
        yield np.ones(n) + x

    with pytest.raises(UnsupportedError):
        next(njit(f)(2))
