"""try/except/else/finally in compiled code: exceptions raised in the function, by jitted callees
and by taipan's own checks are caught by class (through the hierarchy), re-raised, or propagate
unchanged; returns, breaks and continues run the finally blocks they leave. Every result is
compared with the Python function's, and the runtime's allocation counters must balance."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import no_allocation_leak, outcome

from taipan import njit, prange
from taipan.errors import UnsupportedError


def check(compiled, *args):
    """The compiled function gives what its Python function gives, several times, leaking no
    block and leaving nothing pending for the next call."""
    expected = outcome(compiled.py_func, *args)

    def same(got):
        if expected[0] == "value" and isinstance(expected[1], np.ndarray):
            return got[0] == "value" and np.array_equal(got[1], expected[1])
        return got == expected

    assert same(outcome(compiled, *args))  # compile outside the counted calls
    with no_allocation_leak():
        for _ in range(3):
            assert same(outcome(compiled, *args))
    return expected


class MyError(Exception):
    pass


class SubError(MyError):
    pass


class OtherError(Exception):
    pass


@njit
def divide(a, b):
    return a // b


@njit
def raise_mine(kind):
    if kind == 1:
        raise MyError("mine")
    if kind == 2:
        raise SubError("sub", kind)
    if kind == 3:
        raise OtherError
    return kind


@pytest.mark.parametrize("b", [0, 3])
def test_catches_own_zero_division(b):
    @njit
    def f(a, b):
        try:
            return a // b
        except ZeroDivisionError:
            return -1

    check(f, 7, b)


@pytest.mark.parametrize("b", [0, 2])
def test_hierarchy_tuple_bare_and_exception(b):
    @njit
    def arithmetic(a, b):
        try:
            x = a / b
        except ArithmeticError:
            x = -1.0
        return x

    @njit
    def in_tuple(a, b):
        try:
            x = a % b
        except (ValueError, ZeroDivisionError):
            x = -2
        return x

    @njit
    def bare(a, b):
        try:
            x = a // b
        except:  # noqa: E722 - a bare except is what is tested
            x = -3
        return x

    @njit
    def everything(a, b):
        try:
            x = divide(a, b)
        except Exception:  # noqa: BLE001 - catching everything is what is tested
            x = -4
        return x

    for f in (arithmetic, in_tuple, bare, everything):
        check(f, 5, b)


@pytest.mark.parametrize("kind", [0, 1, 2, 3])
def test_user_classes_and_subclasses(kind):
    @njit
    def f(kind):
        try:
            return raise_mine(kind)
        except SubError:
            return 20
        except MyError:
            return 10

    @njit
    def parent(kind):
        try:
            raise_mine(kind)
        except MyError:
            return 1
        return 0

    check(f, kind)
    check(parent, kind)


def test_unmatched_exception_propagates_unchanged():
    @njit
    def f(a, b):
        try:
            return a // b
        except ValueError:
            return -1

    @njit
    def user(kind):
        try:
            return raise_mine(kind)
        except OtherError:
            return -1

    assert check(f, 1, 0)[0] == "raised"
    assert check(user, 2) == ("raised", SubError, "('sub', 2)")


@pytest.mark.parametrize("i", [1, 5, -7])
def test_boundscheck_index_error(i):
    @njit(boundscheck=True)
    def f(a, i):
        try:
            return a[i]
        except IndexError:
            return -1.0

    @njit(boundscheck=True)
    def lookup(a, i):
        try:
            v = a[i] + 1.0
        except LookupError:
            v = 0.0
        return v

    a = np.arange(4.0)
    check(f, a, i)
    check(lookup, a, i)


@pytest.mark.parametrize("b", [0, 1])
def test_else_and_finally(b):
    @njit
    def f(a, b):
        log = 0
        try:
            x = a // b
        except ZeroDivisionError:
            log += 1
            x = 0
        else:
            log += 10
        finally:
            log += 100
        return x, log

    check(f, 4, b)


def test_exception_in_else_is_not_caught_by_its_handlers():
    @njit
    def f(b):
        try:
            x = 1
        except ZeroDivisionError:
            return -1
        else:
            x = 1 // b
        return x

    assert check(f, 0)[1] is ZeroDivisionError
    check(f, 1)


@pytest.mark.parametrize("b", [0, 1])
def test_finally_runs_on_exception_and_reraises(b):
    @njit
    def f(out, b):
        try:
            out[0] = 1 // b
        finally:
            out[1] += 1.0
        return out[0]

    out = np.zeros(2)
    compiled = outcome(f, out, b)
    expected_out = np.zeros(2)
    assert compiled == outcome(f.py_func, expected_out, b)
    assert np.array_equal(out, expected_out)


@pytest.mark.parametrize("b", [0, 1])
def test_return_break_continue_run_finally(b):
    @njit
    def returns(out, b):
        try:
            if b:
                return 1
        finally:
            out[0] += 1
        return 2

    @njit
    def loops(n, b):
        total = 0
        for i in range(n):
            try:
                if i == 2:
                    continue
                if i == 5:
                    break
                total += i // b
            except ZeroDivisionError:
                total += 100
                if i == 3:
                    break
                continue
            finally:
                total += 1000
        return total

    @njit
    def while_loop(n, b):
        i = 0
        total = 0
        while True:
            i += 1
            try:
                if i > n:
                    break
                total += i // b
            finally:
                total += 1
        return total

    out, expected = np.zeros(1), np.zeros(1)
    assert outcome(returns, out, b) == outcome(returns.py_func, expected, b)
    assert np.array_equal(out, expected)
    check(loops, 8, b)
    if b:
        check(while_loop, 4, b)
    else:
        assert check(while_loop, 4, b)[1] is ZeroDivisionError


def test_return_in_finally_replaces_exception_and_value():
    @njit
    def f(b):
        try:
            return 1 // b
        finally:
            return -5  # noqa: SIM107, B012 - overriding in finally is the behaviour under test

    check(f, 0)
    check(f, 1)


@pytest.mark.parametrize("b", [0, 1])
def test_bare_raise_reraises_the_handled_exception(b):
    @njit
    def f(a, b):
        try:
            return a // b
        except ZeroDivisionError:  # noqa: TRY203 - a bare re-raise is what is tested
            raise

    @njit
    def after_inner_catch(kind):
        try:
            raise_mine(kind)
        except MyError:
            try:
                raise_mine(3)
            except OtherError:
                pass
            raise
        return 0

    check(f, 3, b)
    assert check(after_inner_catch, 2) == ("raised", SubError, "('sub', 2)")
    check(after_inner_catch, 0)


def test_raise_in_handler_and_nesting():
    @njit
    def f(a, b):
        try:
            try:
                return a // b
            except ZeroDivisionError:
                raise ValueError("converted", a)
        except ValueError:
            return -7

    @njit
    def escapes(a, b):
        try:
            return a // b
        except ZeroDivisionError:
            raise MyError("from handler")

    check(f, 1, 0)
    check(f, 9, 2)
    assert check(escapes, 1, 0) == ("raised", MyError, "from handler")


def test_catching_in_a_loop():
    @njit
    def f(n):
        caught = 0
        for i in range(n):
            try:
                raise_mine(i % 4)
            except MyError:
                caught += 1
            except OtherError:
                caught += 100
        return caught

    check(f, 1000)


@pytest.mark.parametrize("n", [3, 4])
def test_arrays_of_the_interrupted_statement_are_released(n):
    @njit
    def fails(n):
        if n == 3:
            raise ValueError("three")
        return np.ones(n)

    @njit
    def f(n):
        a = np.arange(n) * 2.0
        try:
            b = a + fails(n) + np.ones(n)
        except ValueError:
            b = a - 1.0
        return b

    @njit
    def in_loop(n):
        total = np.zeros(n)
        for x in np.arange(n):
            try:
                total = total + fails(n) * x
            except ValueError:
                total = total + 1.0
            finally:
                total = total * 2.0
        return total

    check(f, n)
    check(in_loop, n)


@pytest.mark.parametrize("stop", [6, 20])
def test_prange_loop_inside_try_runs_in_order(stop):
    # The handler reads the loop variable and the elements written before the raise, so the loop
    # runs in order under parallel=True (Numba's test_try_outside_prange_map).
    def udt(arr, x):
        out = arr.copy()
        i = -7
        try:
            for i in prange(arr.size):
                if i == x:
                    raise ValueError
                out[i] = arr[i] + i
        except Exception:  # noqa: BLE001 - catching everything is what is tested
            out[i] = -1
        return out

    check(njit(parallel=True)(udt), np.arange(10), stop)
    check(njit(udt), np.arange(10), stop)


def test_try_in_prange_body_runs_in_order():
    # Numba's test_try_in_prange_map and test_try_in_prange_reduction.
    def mapped(arr, x):
        out = arr.copy()
        for i in prange(arr.size):
            try:
                if i == x:
                    raise ValueError
                out[i] = arr[i] + i
            except Exception:  # noqa: BLE001 - catching everything is what is tested
                out[i] = -1
        return out

    def reduced(n):
        c = 0
        for _ in prange(n):
            try:
                c += 1
            except Exception:  # noqa: BLE001 - catching everything is what is tested
                c += 1
        return c

    check(njit(parallel=True)(mapped), np.arange(10), 6)
    check(njit(parallel=True)(reduced), 10)


class MyValueError(ValueError):
    pass


@njit
def catching_callee(x):
    try:
        if x == 1:
            raise MyValueError("m")
        if x == 2:
            raise KeyError("k")
        return 10 // (x - 3)
    except ZeroDivisionError:
        return -3


@pytest.mark.parametrize("n", [9, 20])
def test_nested_try_in_while_with_continue_break_in_finally_and_handlers(n):
    @njit
    def f(n):
        total = 0
        i = 0
        while i < n:
            i += 1
            try:
                try:
                    total += catching_callee(i % 5)
                except ValueError:  # catches the subclass raised by the callee
                    total += 100
                    raise IndexError("again")
                finally:
                    total += 1000
                    if i == 7:
                        continue  # noqa: B012 - leaving a finally is what is tested
            except IndexError:
                total += 7
            except KeyError:
                total += 11
                if i > 8:
                    break
            else:
                total += 3
            finally:
                total *= 2
                total %= 1000003
        return total

    check(f, n)


def test_unused_as_name_and_refusals():
    @njit
    def named(b):
        try:
            return 1 // b
        except ZeroDivisionError as e:  # noqa: F841 - binding without use is what is tested
            return -1

    check(named, 0)

    @njit
    def uses(b):
        try:
            return 1 // b
        except ZeroDivisionError as e:
            print(e.args)
            return -1

    with pytest.raises(UnsupportedError, match="as e"):
        uses(0)

    @njit
    def bare_raise():
        raise  # noqa: PLE0704 - refused at compile time, as tested

    with pytest.raises(UnsupportedError, match="bare 'raise'"):
        bare_raise()


class TwoArgumentError(Exception):
    pass


class ArgumentsToSuper(Exception):
    def __init__(self, text, extra):
        super().__init__(text)
        self.extra = extra


def raised(function, *args):
    """The class, args and str() of what ``function(*args)`` raises."""
    with pytest.raises(Exception) as caught:
        function(*args)
    return type(caught.value), caught.value.args, str(caught.value)


@njit
def raises_with_arguments(which, text, number):
    if which == 0:
        raise ValueError(text, number)
    if which == 1:
        raise TwoArgumentError(text, number, -0.0)
    if which == 2:
        raise np.linalg.LinAlgError(text, 3)
    if which == 3:
        raise ArgumentsToSuper(text, number)
    if which == 4:
        raise KeyError(number)
    if which == 5:
        raise IndexError("constant", 2, True)
    raise ValueError(number)


@pytest.mark.parametrize("which", range(7))
def test_raised_exceptions_keep_their_arguments(which):
    for text, number in (("hello", 5), ("", -1), ("é", 2**40)):
        expected = raised(raises_with_arguments.py_func, which, text, number)
        assert raised(raises_with_arguments, which, text, number) == expected
        with no_allocation_leak():
            assert raised(raises_with_arguments, which, text, number) == expected


@njit
def message_of_caught(which, number):
    try:
        raises_with_arguments(which, "x", number)
    except Exception as error:  # noqa: BLE001 - every class is caught
        return str(error)
    return ""


@njit
def reraised_from_handler(number):
    try:
        raises_with_arguments(0, "again", number)
    except ValueError:  # noqa: TRY203 - the bare re-raise is what is tested
        raise
    return 0


def test_kept_arguments_in_compiled_handlers_and_reraise():
    for which in range(7):
        check(message_of_caught, which, 3)
    assert raised(reraised_from_handler, 4) == raised(reraised_from_handler.py_func, 4)


@njit(boundscheck=True)
def own_checks(which, a, n):
    d = {1: 2.0}
    if which == 0:
        return a[n]
    if which == 1:
        return d[n]
    if which == 2:
        return 1 // n
    return [1, 2][n]


def test_exceptions_of_taipan_checks_have_python_arguments():
    a = np.arange(3.0)
    for which, n in ((0, 7), (0, -4), (1, 5), (2, 0), (3, 2)):
        expected = raised(own_checks.py_func, which, a, n)
        got = raised(own_checks, which, a, n)
        assert got[0] is expected[0] and got[1] == expected[1], (got, expected)


@njit
def many_caught_with_arguments(n):
    total = 0
    for i in range(n):
        try:
            raise ValueError(str(i), i)  # a new string each time, kept with the exception
        except ValueError:
            total += i
    return total


def test_arguments_kept_for_caught_exceptions_are_released():
    check(many_caught_with_arguments, 0)
    check(many_caught_with_arguments, 100)  # beyond the 32 kept on a thread
