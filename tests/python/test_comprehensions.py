"""List comprehensions and generator expressions consumed by sum/any/all/min/max/list/sorted
in compiled code, compared with the interpreter (``f.py_func``): element types, filters, nested
clauses and comprehensions, Python 3 scoping, and the constructs that stay unsupported."""

import re

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import njit, prange
from taipan.errors import TypingError, UnsupportedError


def squares(n):
    return [i * i for i in range(n)]


def floats(n):
    return [i * 0.5 for i in range(n)]


def bools(n):
    return [i % 3 == 0 for i in range(n)]


def negative_step(n):
    return [i for i in range(n, -n, -2)]


def filtered(n):
    return [i for i in range(n) if i % 2 == 1 if i > 2]


def filters_everything(n):
    return [i for i in range(n) if i < 0]


def two_clauses(n):
    return [i * 10 + j for i in range(n) for j in range(i) if (i + j) % 2 == 0]


def nested(n):
    return [[i * j for j in range(n)] for i in range(n)]


def nested_reads_outer_target(n):
    return [[i + j for j in range(i)] for i in range(n)]


def shadows_outer(n):
    i = 100
    values = [i for i in range(n)]
    return i + len(values)


def reads_outer(n):
    scale = 3
    offset = n + 1
    return [scale * i + offset for i in range(n)]


def same_name_twice(n):
    a = [x for x in range(n)]
    b = [x * 0.5 for x in range(n)]
    return len(a) + len(b) + b[-1] if n else 0.0


def first_iterable_in_outer_scope(n):
    x = n
    return [x for x in range(x)]


def over_array(a):
    return [x * 2.0 for x in a if x > 0]


def over_list(n):
    values = [1, 5, 2, 8]
    return [v - n for v in values]


def over_comprehension(n):
    return [v + 1 for v in [i * i for i in range(n)]]


def over_zip_enumerate(a):
    return [i * x for i, x in enumerate(a)] + [x - y for x, y in zip(a, a[::-1])]


def tuple_target(n):
    pairs = [(i, i * i) for i in range(n)]
    return [a + b for a, b in pairs]


def in_a_loop(n):
    total = 0
    for k in range(n):
        total += len([i for i in range(k) if i % 2 == 0])
    return total


def in_conditional_expression(n):
    return len([i for i in range(n)]) if n > 2 else -1


def evaluation_order(n):
    def grow(items):
        items.append(1)
        return len(items)

    values = [0]
    # grow runs before the comprehension reads values, and after the first one (Python's order)
    return [len(values) for _ in range(n)] + [grow(values)] + [len(values) for _ in range(n)]


def into_array(n):
    return np.array([i * 1.5 for i in range(n)])


def sum_of_generator(a):
    return sum(x * x for x in a)


def sum_of_ints(n):
    return sum(i for i in range(n) if i % 3 != 0)


def sum_of_bools(n):
    return sum(i % 2 == 0 for i in range(n))


def sum_with_start(n):
    return sum((i for i in range(n)), 10) + sum((i * 0.5 for i in range(n)), -1.5)


def any_all(n):
    return (
        any(i > 3 for i in range(n)),
        all(i < 3 for i in range(n)),
        any(i == j for i in range(n) for j in range(2)),
        all(i != j + 2 for i in range(n) for j in range(3)),
    )


def any_stops_early(n):
    values = [1, 2, 3]
    # values[i] raises IndexError past the end: any() must stop at the first true item
    return any(values[i] > 1 for i in range(n))


def all_stops_early(n):
    values = [1, 2, 3]
    return all(values[i] < 2 for i in range(n))


def min_max(a):
    return min(x for x in a), max(x * 2 for x in a), min(i - 3 for i in range(5))


def list_and_sorted(n):
    return (
        list(i % 4 for i in range(n)),  # noqa: C400 (list() of a generator is tested)
        sorted(i % 4 for i in range(n)),
        sorted((i % 4 for i in range(n)), reverse=True),
    )


def consumer_in_comprehension(n):
    return [sum(j for j in range(i)) for i in range(n)]


def generator_in_generator(n):
    return sum(sum(j * 0.5 for j in range(i)) for i in range(n))


def shadows_with_another_type(n):
    x = 2.5
    values = [x for x in range(n)]
    return x, values


def in_while_condition(n):
    k = 0
    while len([i for i in range(k)]) < n:
        k += 1
    return k


def in_try(n):
    try:
        values = [10 // (i - 2) for i in range(n)]
    except ZeroDivisionError:
        values = [-1]
    return values


def in_inner_function(n):
    scale = 3

    def scaled(k):
        return [scale * i for i in range(k)]

    return scaled(n), sum(x for x in scaled(n))


def of_lists(n):
    return sum(len(row) for row in [[j for j in range(i)] for i in range(n)])


def any_all_of_ints(n):
    return any(i for i in range(n)), all(i for i in range(n)), all(i + 1 for i in range(n))


def tuples_of_mixed(n):
    return [(i, i * 0.5, i > 1) for i in range(n)]


@pytest.mark.parametrize(
    "function",
    [
        squares,
        floats,
        bools,
        negative_step,
        filtered,
        filters_everything,
        two_clauses,
        nested,
        nested_reads_outer_target,
        shadows_outer,
        reads_outer,
        same_name_twice,
        first_iterable_in_outer_scope,
        over_list,
        over_comprehension,
        tuple_target,
        in_a_loop,
        in_conditional_expression,
        evaluation_order,
        sum_of_ints,
        sum_of_bools,
        sum_with_start,
        any_all,
        list_and_sorted,
        consumer_in_comprehension,
        generator_in_generator,
        shadows_with_another_type,
        in_while_condition,
        in_try,
        in_inner_function,
        of_lists,
        any_all_of_ints,
        tuples_of_mixed,
    ],
)
@pytest.mark.parametrize("n", [0, 1, 5])
def test_matches_python(function, n):
    compiled = njit(function)
    with no_allocation_leak():
        result = compiled(n)
    assert result == function(n)
    if function is not generator_in_generator:  # a float sum of nothing is 0.0, as in Numba
        assert type(result) is type(function(n))


@pytest.mark.parametrize("function", [over_array, sum_of_generator, over_zip_enumerate])
def test_over_arrays(function):
    a = np.array([1.5, -2.0, 3.0, 0.25])
    compiled = njit(function)
    with no_allocation_leak():
        assert compiled(a) == function(a)
        assert compiled(a[:0]) == function(a[:0])


def test_np_array_of_comprehension():
    compiled = njit(into_array)
    for n in (0, 3):
        with no_allocation_leak():
            np.testing.assert_array_equal(compiled(n), into_array(n))


@pytest.mark.parametrize("function", [any_stops_early, all_stops_early])
def test_any_all_stop_at_their_answer(function):
    compiled = njit(function)
    with no_allocation_leak():
        assert compiled(10) == function(10)


def over_string(s):
    return [c + "!" for c in s if c != "b"]


def test_over_string():
    compiled = njit(over_string)
    with no_allocation_leak():
        assert compiled("abc") == over_string("abc")
        assert compiled("") == over_string("")


def in_prange(n):
    out = np.zeros(n)
    for k in prange(n):
        out[k] = sum(i * 1.0 for i in range(k)) + len([j for j in range(k) if j % 2 == 0])
    return out


def test_in_parallel_loop():
    # each thread's comprehension builds its own list (its hidden variables are private)
    compiled = njit(parallel=True)(in_prange)
    with no_allocation_leak():
        result = compiled(200)
        np.testing.assert_array_equal(result, in_prange(200))
        del result  # the returned array's block


def any_all_of_values(a):
    values = [x > 1 for x in a]
    return (
        any(values),
        all(values),
        any(a),
        all(a),
        any(range(0)),
        all(range(3)),
        any((0, 0, 1)),
        all([x for x in a if x > 5]),  # noqa: C419 (of a list)
    )


def test_any_all_of_values():
    compiled = njit(any_all_of_values)
    for a in (np.array([0.0, 2.0, 3.0]), np.array([2.0, 3.0]), np.zeros(0)):
        with no_allocation_leak():
            assert compiled(a) == any_all_of_values(a)


def test_min_max():
    a = np.array([3.0, -1.0, 2.5])
    compiled = njit(min_max)
    with no_allocation_leak():
        assert compiled(a) == min_max(a)
    with pytest.raises(ValueError) as expected:  # 3.12 words it "iterable argument is empty"
        min_max(a[:0])
    with no_allocation_leak(), pytest.raises(ValueError, match=re.escape(str(expected.value))):
        compiled(a[:0])


def generator_as_value(n):
    g = (i for i in range(n))
    return g


def tuple_of_generator(n):
    return tuple(i for i in range(n))


def set_comprehension(n):
    return {i for i in range(n)}


def target_read_after(n):
    values = [i for i in range(n)]
    return i + len(values)  # noqa: F821 (the comprehension's i does not leak)


def sum_with_variable_start(n):
    return sum((i for i in range(n)), n)


def sum_shadowed(n):
    sum = len
    return sum(i for i in range(n))


@pytest.mark.parametrize(
    "function, message",
    [
        (generator_as_value, "generator expressions are only supported as the argument of"),
        (tuple_of_generator, "generator expressions are only supported as the argument of"),
        (sum_shadowed, "only supported as the argument of the builtin sum()"),
        (target_read_after, "name 'i' is not defined"),
        (sum_with_variable_start, "takes a constant start value only"),
    ],
)
def test_unsupported(function, message):
    with pytest.raises((UnsupportedError, TypingError)) as info:
        njit(function)(3)
    text = str(info.value)
    assert message in text, text
    assert "test_comprehensions.py" in text, text
    assert "line" in text, text


def test_set_comprehension_matches_python():
    compiled = njit(set_comprehension)
    with no_allocation_leak():
        got = compiled(20)
    assert got == set_comprehension(20)
    assert list(got) == list(set_comprehension(20))  # CPython's order
