"""Dict comprehensions, dict(iterable of pairs), dict(zip(...)), dict(<generator expression>)
and set() of every iterable in compiled code, compared with CPython (contents and insertion
order), with no memory block left behind."""

import numpy as np
import pytest
from numpy_checks import check_in_order as check

from taipan import njit
from taipan.errors import TypingError, UnsupportedError

# Dict comprehensions --------------------------------------------------------------------------


def squares(n):
    return {i: i * i for i in range(n)}


def with_condition(n):
    return {i: i / 2 for i in range(n) if i % 3 != 0}


def nested(n):
    return {(i, j): i * 10 + j for i in range(n) for j in range(i) if (i + j) % 2 == 0}


def over_array(a):
    return {int(x): x * 2.0 for x in a}


def string_keys(n):
    return {str(i) * 2: i for i in range(n)}


def repeated_keys(n):
    return {i % 3: i for i in range(n)}  # a later value replaces, the key keeps its place


def comprehension_of_dict(n):
    d = {i: float(i) for i in range(n)}
    return {v: k for k, v in d.items() if k > 1}


def nested_comprehension(n):
    return {i: {j: j * i for j in range(i)} for i in range(n)}


def list_values(n):
    return {i: [j for j in range(i)] for i in range(n)}


def array_values(n):
    return {i: np.arange(i) for i in range(n)}


def scope_is_private(n):
    i = -7
    d = {i: i + 1 for i in range(n)}
    return i, d


def in_expression(n):
    return len({i: i for i in range(n)}) + sum([1 for _ in range(2)])


@pytest.mark.parametrize(
    "function, args",
    [
        (squares, (0,)),
        (squares, (6,)),
        (with_condition, (10,)),
        (nested, (5,)),
        (over_array, (np.array([3.5, -1.0, 2.0, -0.0, 3.0]),)),
        (string_keys, (4,)),
        (repeated_keys, (8,)),
        (comprehension_of_dict, (5,)),
        (nested_comprehension, (4,)),
        (list_values, (4,)),
        (array_values, (4,)),
        (scope_is_private, (3,)),
        (in_expression, (5,)),
    ],
)
def test_dict_comprehension(function, args):
    check(function, *args)


def test_dict_comprehension_nan_keys():
    def f(a):
        return len({x: 1 for x in a})

    check(f, np.array([np.nan, np.nan, 1.0, -0.0, 0.0]))


@njit
def noted(order, x):
    order.append(x)
    return x


def key_then_value(n):
    order = [0]
    d = {noted(order, i): noted(order, -i * 10) for i in range(1, n)}
    return d, order


def test_dict_comprehension_key_then_value():
    check(key_then_value, 4)


def test_dict_comprehension_unhashable_key_is_refused():
    def f(n):
        return {np.arange(i): i for i in range(n)}

    with pytest.raises(TypingError):
        njit(f)(3)


# dict(iterable) -------------------------------------------------------------------------------


def dict_of_list_of_pairs(n):
    return dict([(i, i * 1.5) for i in range(n)])  # noqa: C404 - what is tested


def dict_of_zip(keys, values):
    return dict(zip(keys, values))


def dict_of_enumerate(a):
    return dict(enumerate(a))


def dict_of_generator(n):
    return dict((i, -i) for i in range(n) if i != 2)  # noqa: C402 - what is tested


def dict_of_tuple_of_pairs():
    return dict(((1, "a"), (2, "b"), (1, "c")))  # noqa: C406 - what is tested


def dict_of_dict(n):
    d = {i: i for i in range(n)}
    e = dict(d)
    e[100] = 1
    return d, e


def dict_of_empty_list():
    d = dict([])  # noqa: C406 - what is tested
    d[1] = 2.5
    return d


def dict_of_set_of_pairs(n):
    return dict({(i, i + 1) for i in range(n)})


def generator_of_pairs(n):
    for i in range(n):
        yield i, float(i)


pairs_jit = njit(generator_of_pairs)


def dict_of_generator_function(n):
    return dict(pairs_jit(n))


@pytest.mark.parametrize(
    "function, args",
    [
        (dict_of_list_of_pairs, (0,)),
        (dict_of_list_of_pairs, (5,)),
        (dict_of_zip, (np.arange(4), np.linspace(0, 1, 6))),
        (dict_of_zip, ([3, 1, 3], [1.5, 2.5, 3.5])),
        (dict_of_zip, ([1, 2, 3], "abc")),
        (dict_of_zip, ([1, 2, 3, 4], "abc")),
        (dict_of_enumerate, (np.array([2.5, np.nan, -0.0]),)),
        (dict_of_generator, (6,)),
        (dict_of_tuple_of_pairs, ()),
        (dict_of_dict, (4,)),
        (dict_of_empty_list, ()),
        (dict_of_set_of_pairs, (5,)),
    ],
)
def test_dict_of_iterable(function, args):
    check(function, *args)


def test_dict_of_generator_function():
    check(dict_of_generator_function, 5)


def test_dict_of_non_pairs_is_refused():
    def triples(n):
        return dict([(i, i, i) for i in range(n)])

    def numbers(n):
        return dict([i for i in range(n)])

    for f in (triples, numbers):
        with pytest.raises(TypingError):
            njit(f)(3)


def test_dict_of_keywords_is_refused():
    def f():
        return dict(a=1)  # noqa: C408 - what is tested

    with pytest.raises((TypingError, UnsupportedError)):
        njit(f)()


def test_dict_shadowed_name_is_not_the_builtin():
    def f(n):
        dict = len
        return dict(zip(range(n), range(n)))

    with pytest.raises((TypingError, UnsupportedError)):
        njit(f)(3)


# set() of every iterable ----------------------------------------------------------------------


def set_of_generator(n):
    return list(set(pairs_jit(n)))


def set_of_dict(n):
    d = {i * 7 % 5: i for i in range(n)}
    return set(d)


def set_comprehension_nested(n):
    return {i * j for i in range(n) for j in range(i) if j % 2 == 0}


def set_of_string(s):
    return list(set(s))


@pytest.mark.parametrize(
    "function, args",
    [
        (set_of_generator, (4,)),
        (set_of_dict, (9,)),
        (set_comprehension_nested, (6,)),
        (set_of_string, ("hello world",)),
    ],
)
def test_set_of_iterable(function, args):
    check(function, *args)
