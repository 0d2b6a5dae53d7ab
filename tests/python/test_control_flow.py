"""if/elif/else, while and for loops, break/continue, loop else clauses, early returns."""

from __future__ import annotations

import itertools

import pytest
from conftest import assert_same

from taipan import njit


@njit
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


@njit
def classify(n):
    if n % 15 == 0:
        r = 15
    elif n % 5 == 0:
        r = 5
    elif n % 3 == 0:
        r = 3
    else:
        r = n
    return r


@njit
def if_without_else(x):
    y = 0
    if x > 10:
        y = 1
    if x > 100:
        y += 10
    return y


@njit
def nested_if(a, b):
    if a > 0:
        if b > 0:
            return 1
        else:
            if b == 0:
                return 2
            return 3
    elif a == 0:
        return 4 if b else 5
    return 6


@njit
def truthiness(x):
    if x:
        return 1
    return 0


@njit
def while_sum(n):
    total = 0
    i = 0
    while i < n:
        total += i
        i += 1
    return total


@njit
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@njit
def while_true_break(n):
    i = 0
    while True:
        i += 1
        if i * i > n:
            break
    return i


@njit
def range1(n):
    total = 0
    for i in range(n):
        total = total * 3 + i
    return total


@njit
def range2(a, b):
    total = 0
    for i in range(a, b):
        total = total * 3 + i
    return total


@njit
def range3(a, b, c):
    total = 0
    count = 0
    for i in range(a, b, c):
        total = total * 3 + i
        count += 1
    return total, count


@njit
def range_float_accumulate(n):
    x = 0.0
    for i in range(n):
        x += 1.0 / (i + 1)
    return x


@njit
def loop_variable_after_loop(n):
    i = -1
    for i in range(n):
        pass
    return i


@njit
def break_continue(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        if i > 20:
            break
        total += i
    return total


@njit
def while_continue(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2:
            continue
        total += i
    return total


@njit
def for_else(n, target):
    for i in range(n):
        if i == target:
            found = i
            break
    else:
        found = -1
    return found


@njit
def while_else(n, target):
    i = 0
    result = 0
    while i < n:
        if i == target:
            result = 100 + i
            break
        i += 1
    else:
        result = -1
    return result


@njit
def early_return_in_loop(n):
    for i in range(n):
        if i * i >= n:
            return i
    return -1


@njit
def early_return_nested(n):
    for i in range(n):
        for j in range(n):
            if i * j == 12:
                return i, j
    return -1, -1


@njit
def nested_loops(n, m):
    total = 0
    for i in range(n):
        for j in range(i, m):
            if j == 7:
                continue
            total += i * j
            if total > 10000:
                break
    return total


@njit
def triangle(n):
    count = 0
    i = 0
    while i < n:
        j = 0
        while j <= i:
            count += 1
            j += 1
        i += 1
    return count


@njit
def nested_break_else(n):
    primes = 0
    for candidate in range(2, n):
        for d in range(2, candidate):
            if d * d > candidate:
                primes += 1
                break
            if candidate % d == 0:
                break
        else:
            primes += 1
    return primes


@njit
def variable_types_in_branches(flag, x):
    if flag:
        y = x * 2.0
    else:
        y = x + 0.5
    return y


@njit
def pass_statement(x):
    if x:
        pass
    else:
        pass
    return x


@njit
def loop_with_float_counter(x):
    steps = 0
    while x > 1.0:
        x /= 2.0
        steps += 1
    return steps, x


@njit
def fizzbuzz_code(n):
    code = 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            code = code * 7 + 3
        elif i % 5 == 0:
            code = code * 7 + 2
        elif i % 3 == 0:
            code = code * 7 + 1
        code %= 1000000007
    return code


@njit
def reversed_range(n):
    total = 0
    for i in range(n - 1, -1, -1):
        total = total * 2 + i
        total %= 1000003
    return total


@pytest.mark.parametrize("x", [-5, 0, 5, -0.5, 0.0, -0.0, 2.5])
def test_sign(x):
    assert_same(sign, x)


@pytest.mark.parametrize("n", [1, 3, 5, 7, 15, 30, 0, -15, -4])
def test_elif_chain(n):
    assert_same(classify, n)


@pytest.mark.parametrize("x", [0, 11, 101, -1])
def test_if_without_else(x):
    assert_same(if_without_else, x)


@pytest.mark.parametrize("a, b", list(itertools.product([-1, 0, 1], [-1, 0, 1])))
def test_nested_if(a, b):
    assert_same(nested_if, a, b)


@pytest.mark.parametrize("x", [0, 1, -1, 0.0, -0.0, 0.1, float("nan"), True, False, 0j, 1j])
def test_truthiness(x):
    assert_same(truthiness, x)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000, -3])
def test_while(n):
    assert_same(while_sum, n)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 27, 97, 871])
def test_collatz(n):
    assert_same(collatz, n)


@pytest.mark.parametrize("n", [0, 1, 15, 16, 1000])
def test_while_true_break(n):
    assert_same(while_true_break, n)


@pytest.mark.parametrize("n", [-5, -1, 0, 1, 2, 10, 25])
def test_range_one_arg(n):
    assert_same(range1, n)
    assert_same(loop_variable_after_loop, n)


@pytest.mark.parametrize("a, b", [(0, 10), (5, 10), (10, 5), (-5, 5), (-10, -3), (3, 3), (-3, -10)])
def test_range_two_args(a, b):
    assert_same(range2, a, b)


@pytest.mark.parametrize(
    "a, b, c",
    [
        (0, 10, 1),
        (0, 10, 3),
        (0, 10, 20),
        (10, 0, -1),
        (10, 0, -3),
        (10, -10, -7),
        (0, 10, -1),
        (10, 0, 1),
        (-5, 5, 2),
        (5, -5, -2),
        (0, 0, 1),
        (0, 0, -1),
        (3, 4, 100),
        (4, 3, -100),
        (-1, -20, -4),
    ],
)
def test_range_three_args(a, b, c):
    assert_same(range3, a, b, c)


@njit
def range_first_last(a, b, c):
    first = 0
    last = 0
    count = 0
    for i in range(a, b, c):
        if count == 0:
            first = i
        last = i
        count += 1
    return first, last, count


@pytest.mark.parametrize(
    "a, b, c",
    [
        (2**62, 2**62 + 10, 3),
        (-(2**62), -(2**62) - 10, -3),
        (2**63 - 5, 2**63 - 1, 1),
        (-(2**63), -(2**63) + 7, 2),
        (2**63 - 1, 2**63 - 10, -4),
        (0, 2**62, 2**60),
    ],
)
def test_range_near_int64_limits(a, b, c):
    assert_same(range_first_last, a, b, c)


def test_range_zero_step():
    # CPython: ValueError("range() arg 3 must not be zero"); Numba raises the same
    assert_same(range3, 0, 10, 0, check_message=False)


def test_range_float_accumulate():
    for n in [0, 1, 10, 1000]:
        assert_same(range_float_accumulate, n)


@pytest.mark.parametrize("n", [0, 1, 5, 30, 100])
def test_break_continue(n):
    assert_same(break_continue, n)
    assert_same(while_continue, n)


@pytest.mark.parametrize("n, target", [(10, 3), (10, 20), (0, 0), (5, 4), (5, -1)])
def test_loop_else(n, target):
    assert_same(for_else, n, target)
    assert_same(while_else, n, target)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 100])
def test_early_return(n):
    assert_same(early_return_in_loop, n)
    assert_same(early_return_nested, n)


@pytest.mark.parametrize("n, m", [(0, 0), (3, 5), (10, 10), (20, 30), (100, 100)])
def test_nested_loops(n, m):
    assert_same(nested_loops, n, m)


@pytest.mark.parametrize("n", [0, 1, 5, 100])
def test_nested_while(n):
    assert_same(triangle, n)


@pytest.mark.parametrize("n", [2, 3, 10, 100, 1000])
def test_nested_break_else(n):
    assert_same(nested_break_else, n)


def test_variable_unified_across_branches():
    for flag in (True, False):
        assert_same(variable_types_in_branches, flag, 3.0)


def test_pass():
    assert_same(pass_statement, 3)
    assert_same(pass_statement, 0)


@pytest.mark.parametrize("x", [0.5, 1.0, 3.0, 1e10, 1e300])
def test_float_loop(x):
    assert_same(loop_with_float_counter, x)


def test_fizzbuzz():
    assert_same(fizzbuzz_code, 1000)


def test_reversed_range():
    for n in (0, 1, 10, 500):
        assert_same(reversed_range, n)


def test_int_promoted_to_float_in_loop():
    @njit
    def f(n):
        x = 0
        for i in range(n):
            x = x + 0.5 * i
        return x

    # Numba unifies int and float to float64
    assert f(0) == 0 and f(4) == 3.0
    assert isinstance(f(4), float)


def test_loop_over_range_variable_step():
    @njit
    def f(n, step):
        total = 0
        for i in range(n, -n, step):
            total += i * i
        return total

    for n, step in [(10, -1), (10, -3), (7, -7), (5, 2), (0, -1)]:
        assert_same(f, n, step)


def test_deep_nesting():
    @njit
    def f(n):
        total = 0
        for a in range(n):
            for b in range(a):
                for c in range(b):
                    if (a + b + c) % 2:
                        continue
                    total += a * b - c
        return total

    assert_same(f, 12)


def test_range_bound_changed_inside_loop():
    @njit
    def f(n):
        total = 0
        for i in range(n):
            n -= 1  # the range was built before: the loop still runs the original n times
            total += i
        return total, n

    assert_same(f, 10)


def test_loop_variable_reassigned_in_body():
    @njit
    def f(n):
        total = 0
        for i in range(n):
            total += i
            i = 100  # does not affect the next iteration
            total += i
        return total

    assert_same(f, 5)


@pytest.mark.parametrize("a, b, c", [(0, 10, 3), (10, 0, -3), (0, 10, -1), (5, 5, 1), (-7, 7, 2)])
def test_len_of_range(a, b, c):
    @njit
    def f(a, b, c):
        return len(range(a, b, c)), len(range(b)), len(range(a, b))

    assert_same(f, a, b, c)


def test_while_with_compound_condition():
    @njit
    def f(x, y):
        steps = 0
        while x > 0 and (y > 0 or steps < 3) and not (x == 7 or y == -50):
            x -= 1
            y -= 2
            steps += 1
        return steps, x, y

    for x, y in [(10, 4), (20, 0), (7, 7), (0, 5), (12, 100)]:
        assert_same(f, x, y)


@pytest.mark.xfail(
    reason="missing: 'x in range(...)' is UnsupportedError (''in' is supported on "
    "tuples only'; Numba supports it)",
    strict=True,
)
def test_in_range():
    @njit
    def f(x, n):
        return x in range(n), x in range(0, n, 2), x not in range(n)

    for x, n in [(3, 10), (10, 10), (-1, 5), (4, 5)]:
        assert_same(f, x, n)


# Short loops over constant ranges are emitted as copies of their body (compile time); every
# Python rule of the loop must survive: break, continue, else, the variable after the loop,
# negative and non-dividing steps, empty ranges, and exceptions raised in a copy.


def constant_loops(x):
    total = 0.0
    for j in range(3):
        total += x * j
    for j in range(7, -2, -3):
        total -= j
    for k in range(0):
        total += 1000.0
    for k in range(2, 9, 4):
        if k > x:
            break
        total += k
    else:
        total += 0.5
    for m in range(5):
        if m % 2:
            continue
        total += m * 0.25
    return total, j, m


@pytest.mark.parametrize("x", [-1.0, 0.0, 3.0, 5.0, 100.0])
def test_constant_range_loops_unrolled(x):
    assert_same(njit(constant_loops), x)


def constant_loop_raises(n):
    s = 0
    for j in range(4):
        s += 10 // (n - j)
    return s


@pytest.mark.parametrize("n", [-3, 1, 2, 7])
def test_constant_range_loop_raising_in_a_copy(n):
    assert_same(njit(constant_loop_raises), n)


def constant_loop_with_nested_loop(n):
    s = 0
    for i in range(3):
        for j in range(n):
            s += i * j
    return s


def test_constant_range_loop_around_a_loop():
    assert_same(njit(constant_loop_with_nested_loop), 4)


def test_constant_range_copies_leave_no_loop_in_the_ir():
    def three(x):
        for j in range(3):
            x = x * 2 + j
        return x

    compiled = njit(three)
    assert_same(compiled, 5)
    unoptimized = next(iter(compiled._inspect("llvm-unoptimized", None).values()))
    assert "for.cond" not in unoptimized
