"""Recursive functions for test_recursion.py, after Numba's recursion_usecases: some compile
their explicit signature when this module is imported, inside their decorator, before their own
name is bound (so a failure shows as an import error of the test)."""

from taipan import jit, njit


@jit("i8(i8)", nopython=True)
def fib1(n):
    if n < 2:
        return n
    # The second call passes its argument by keyword.
    return fib1(n - 1) + fib1(n=n - 2)


def make_fib2():
    @jit("i8(i8)", nopython=True)
    def fib2(n):
        if n < 2:
            return n
        return fib2(n - 1) + fib2(n=n - 2)

    return fib2


fib2 = make_fib2()


@njit(["f8(f8, i8)", "i8(i8, i8)"])
def power_by_halves(x, n):
    # Two explicit signatures: each specialisation calls itself.
    if n == 0:
        return x - x + 1
    half = power_by_halves(x, n // 2)
    if n % 2:
        return half * half * x
    return half * half


@njit("i8(i8)")
def collatz_steps(n):
    if n == 1:
        return 0
    if n % 2 == 0:
        return 1 + collatz_steps(n // 2)
    return 1 + collatz_steps(3 * n + 1)


@njit("i8(i8)")
def raise_at_one(n):
    if n == 1:
        raise ValueError("raise_at_one")
    if n > 0:
        return raise_at_one(n - 1)
    return 1


# Implicit signature: compiled at the first call, when the name is bound.
@jit(nopython=True)
def fib3(n):
    if n < 2:
        return n
    return fib3(n - 1) + fib3(n - 2)


def make_type_change_self(decorate=lambda f: f):
    @decorate
    def type_change_self(x, y):
        if x > 1 and y > 0:
            return x + type_change_self(x - y, y)
        return y

    return type_change_self


@njit
def outer_fac(n):
    if n < 1:
        return 1
    return n * inner_fac(n - 1)


@njit
def inner_fac(n):
    if n < 1:
        return 1
    return n * outer_fac(n - 1)


def make_mutual2(decorate=lambda f: f):
    # Mutual recursion through keyword arguments named differently in each function.
    @decorate
    def foo(x):
        if x > 0:
            return 2 * bar(z=1, y=x)
        return 1 + x

    @decorate
    def bar(y, z):
        return foo(x=y - z)

    return foo, bar


def make_type_change_mutual(decorate=lambda f: f):
    @decorate
    def foo(x, y):
        if x > 1 and y > 0:
            # bar is called before this function's other return gives its type.
            return x + bar(x - y, y)
        return y

    @decorate
    def bar(x, y):
        if x > 1 and y > 0:
            return x + foo(x - y, y)
        return y

    return foo


def make_optional_return(decorate=lambda f: f):
    @decorate
    def f(x):
        if x > 5:
            return x
        if x > 2:
            return None
        return f(x + 4)

    return f
