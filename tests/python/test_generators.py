"""Generators: functions with ``yield`` compiled as coroutines, consumed in compiled code (for
loops, next(), list(), sum(), yield from) and returned to Python as iterators. Every result is
compared with the Python function's; what stays unsupported (send(), yield as a value, return
with a value, generators in CUDA kernels) is refused with an error naming the line."""

import math

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import cuda, float64, njit, void
from taipan.errors import TypingError, UnsupportedError

# --- generator functions ------------------------------------------------------------------------


def count_up(n):
    for i in range(n):  # noqa: UP028 (a loop in the compiled generator)
        yield i


def nested_loops(n):
    for i in range(n):
        yield i
        for j in range(1, 3):
            yield i + j


def mixed_numbers(x):
    yield x
    yield x + 1.5
    yield x + 1j


def floats(a):
    for i in range(a.size):
        yield a[i] * 0.5


def special_floats():
    yield -0.0
    yield math.nan
    yield math.inf
    yield -1e308


def pairs(n):
    for i in range(n):
        yield i, i * 2.5


def rows(a):
    for i in range(a.shape[0]):
        yield a[i]


def squares_array(n):
    for i in range(n):
        yield np.arange(i) ** 2


def strings(n):
    for i in range(n):
        yield "x" * i


def with_locals(a, b):
    total = 0
    count = a
    while count < b:
        total += count
        yield total
        count += 1


def early_return(n):
    for i in range(n):
        if i == 3:
            return
        yield i
    yield -1


def bare_yields():
    yield
    yield None


@njit
def helper(x):
    return x * x + 1


def calls_helper(n):
    for i in range(n):
        yield helper(i)


def raising(n):
    for i in range(n):
        if i == 2:
            raise ValueError("two is too many")
        yield i


def infinite(a, b):
    x = a + 1
    while True:
        yield x + b


def booleans():
    yield True
    yield False


def empty_generator(n):
    if n <= 0:
        return
    yield n


def negative_and_large():
    yield -(2**63)
    yield 2**63 - 1
    yield -5


def delegating(n):
    yield from range(n)
    yield from count_up_compiled(n)


# --- consumers, written in compiled code -------------------------------------------------------

count_up_compiled = njit(count_up)
nested_compiled = njit(nested_loops)
mixed_compiled = njit(mixed_numbers)
strings_compiled = njit(strings)
squares_compiled = njit(squares_array)
raising_compiled = njit(raising)
infinite_compiled = njit(infinite)
pairs_compiled = njit(pairs)
special_compiled = njit(special_floats)


def python_of(function):
    return getattr(function, "py_func", function)


def check_returned(function, *args):
    """The compiled generator returned to Python yields what CPython's does, then stops."""
    compiled = njit(function)
    expected = list(function(*args))
    with no_allocation_leak():
        generator = compiled(*args)
        got = list(generator)
        with pytest.raises(StopIteration):
            next(generator)
        assert len(got) == len(expected)
        for pair in zip(got, expected):
            assert_same(*pair)
        pair = None
        del generator, got  # returned arrays hold their blocks


def assert_same(a, b):
    if isinstance(b, np.generic):  # compiled code boxes NumPy scalars as Python numbers
        b = b.item()
    if isinstance(b, np.ndarray):
        np.testing.assert_array_equal(a, b)
    elif isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif isinstance(b, float) and math.isnan(b):
        assert math.isnan(a)
    else:
        assert a == b and type(a) is type(b), (a, b)
        if isinstance(b, float) and b == 0:
            assert math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize(
    "function, args",
    [
        (count_up, (8,)),
        (count_up, (0,)),
        (count_up, (-3,)),
        (nested_loops, (5,)),
        (floats, (np.linspace(-1, 1, 7),)),
        (special_floats, ()),
        (pairs, (4,)),
        (strings, (4,)),
        (with_locals, (3, 9)),
        (early_return, (10,)),
        (early_return, (2,)),
        (bare_yields, ()),
        (calls_helper, (5,)),
        (booleans, ()),
        (empty_generator, (0,)),
        (negative_and_large, ()),
        (delegating, (4,)),
    ],
)
def test_returned_to_python(function, args):
    check_returned(function, *args)


def test_yield_types_are_unified():
    # As in Numba, the items take the unified type of every yield (complex128 here).
    with no_allocation_leak():
        got = list(mixed_compiled(8))
    assert got == list(mixed_numbers(8))
    assert all(type(x) is complex for x in got)


def test_yields_arrays_to_python():
    check_returned(squares_array, 5)
    a = np.arange(12.0).reshape(3, 4)
    check_returned(rows, a)


def test_array_argument_outlives_the_call():
    compiled = njit(floats)
    with no_allocation_leak():
        generator = compiled(np.arange(5.0))  # the array's only reference is the generator's
        assert list(generator) == list(floats(np.arange(5.0)))


def test_next_from_python_and_infinite_generator():
    compiled = njit(infinite)
    with no_allocation_leak():
        generator = compiled(5, 6)
        assert [next(generator) for _ in range(3)] == [12, 12, 12]
        del generator


def test_unfinished_generator_is_released():
    with no_allocation_leak():
        generator = strings_compiled(10)
        assert next(generator) == ""
        assert next(generator) == "x"
        del generator  # suspended with live references: destroying it releases them
    with no_allocation_leak():
        generator = squares_compiled(5)
        del generator  # never started


def test_exception_propagates_to_python():
    with no_allocation_leak():
        generator = raising_compiled(5)
        assert next(generator) == 0
        assert next(generator) == 1
        with pytest.raises(ValueError, match="two is too many"):
            next(generator)
        with pytest.raises(StopIteration):  # a generator that raised is finished
            next(generator)


def test_generator_is_an_iterator():
    generator = count_up_compiled(3)
    assert iter(generator) is generator
    assert [x for x in generator] == [0, 1, 2]


# --- consumed in compiled code ------------------------------------------------------------------


def check(function, *args):
    compiled = njit(function)
    expected = function(*args)
    with no_allocation_leak():
        got = compiled(*args)
        assert_same(got, expected)
        del got  # a returned array holds its block


def consume_sum(n):
    total = 0.0
    for y in count_up_compiled(n):
        total += y
    return total


def consume_nested(n):
    total = 0
    for y in nested_compiled(n):
        total += y
    return total


def consume_mixed(x):
    total = 0j
    for y in mixed_compiled(x):
        total += y
    return total


def consume_with_break(n):
    seen = 0
    for y in infinite_compiled(n, 1):
        seen += y
        if seen > 100:
            break
    return seen


def consume_strings(n):
    out = ""
    for s in strings_compiled(n):
        out += s + ","
    return out


def consume_arrays_break(n):
    total = 0
    for a in squares_compiled(n):
        total += a.sum()
        if total > 10:
            break
    return total


def consume_next(n):
    g = count_up_compiled(n)
    a = next(g)
    b = next(g)
    return a * 10 + b


def consume_next_exhausted(n):
    g = count_up_compiled(n)
    total = 0
    for _ in range(n):
        total += next(g)
    try:
        next(g)
    except StopIteration:
        return total
    return -1


def consume_next_default(n):
    g = count_up_compiled(n)
    first = next(g, -1)
    rest = 0.0
    while True:
        x = next(g, -1)
        if x < 0:
            break
        rest += x
    return first, rest, next(g, None) is None


def consume_in(n):
    g = count_up_compiled(n)
    found = 3 in g
    rest = 0
    for x in g:  # what `in` left unread
        rest += x
    return found, rest, 2.5 not in strings_lengths(n), "xx" in strings_compiled(n)


@njit
def strings_lengths(n):
    for s in strings_compiled(n):
        yield len(s) + 0.5


def consume_min_max(n):
    return min(outer_compiled(n)), max(count_up_compiled(n)), max(special_compiled())


def consume_min_of_nothing(n):
    return min(count_up_compiled(n))


def consume_list(n):
    return list(count_up_compiled(n))


def consume_sum_builtin(n):
    return sum(nested_compiled(n))


def consume_pairs(n):
    total = 0.0
    for i, x in pairs_compiled(n):
        total += i * x
    return total


def consume_for_else(n):
    for y in count_up_compiled(n):
        if y == 100:
            break
    else:
        return -1
    return 1


def consume_raising(n):
    total = 0
    try:
        for y in raising_compiled(n):
            total += y
    except ValueError:
        return -total
    return total


def outer_generator(n):
    for y in count_up_compiled(n):
        if y % 2 == 0:
            yield y * 3


outer_compiled = njit(outer_generator)


def consume_outer(n):
    total = 0
    for y in outer_compiled(n):
        total += y
    return total


def local_generator_variable(n):
    g = nested_compiled(n)
    first = next(g)
    rest = 0
    for y in g:
        rest += y
    return first, rest


def consume_enumerated(n):
    points = np.zeros(n, dtype=np.complex128)
    for i, c in enumerate(mixed_compiled(n)):
        points[i] = c
    return points


def consume_enumerated_from(n):
    total = 0
    for i, c in enumerate(squares_compiled(n), -3):
        total += i * 1000 + int(c.sum())
    return total


def consume_enumerated_arrays(n):
    total = 0
    for i, a in enumerate(squares_compiled(n)):
        total += i * a.sum()
        if i == 3:
            break
    return total


def consume_zip(n, m):
    total = 0.0
    for a, b, c in zip(count_up_compiled(n), range(m), halves(n + 1)):
        total += a * 100 + b * 10 + c
    return total


def consume_zip_arrays(n, m):
    # Stopping at the range drops the array the first generator had already yielded.
    total = 0.0
    for a, k in zip(squares_compiled(n), range(m)):
        total += a.sum() * k
    return total


def consume_zip_strings(n):
    out = ""
    for s, t in zip(strings_compiled(n), strings_compiled(n - 1)):
        out += s + "|" + t + ","
    return out


def consume_zip_list_tuple(n):
    values = [1.5, 2.5, 3.5]
    total = 0.0
    for x, g, t in zip(values, count_up_compiled(n), (7, 8, 9, 10)):
        total += x * g + t
    return total


@pytest.mark.parametrize(
    "function, args",
    [
        (consume_zip, (4, 10)),
        (consume_zip, (5, 2)),
        (consume_zip, (0, 3)),
        (consume_zip_arrays, (5, 3)),
        (consume_zip_arrays, (3, 5)),
        (consume_zip_strings, (4,)),
        (consume_zip_list_tuple, (2,)),
        (consume_zip_list_tuple, (6,)),
        (consume_enumerated, (3,)),
        (consume_enumerated_from, (4,)),
        (consume_enumerated_arrays, (6,)),
        (consume_sum, (5,)),
        (consume_sum, (0,)),
        (consume_nested, (6,)),
        (consume_mixed, (3,)),
        (consume_with_break, (4,)),
        (consume_strings, (4,)),
        (consume_arrays_break, (6,)),
        (consume_next, (3,)),
        (consume_next_exhausted, (4,)),
        (consume_next_default, (0,)),
        (consume_next_default, (4,)),
        (consume_in, (6,)),
        (consume_in, (2,)),
        (consume_min_max, (7,)),
        (consume_list, (5,)),
        (consume_list, (0,)),
        (consume_sum_builtin, (4,)),
        (consume_pairs, (4,)),
        (consume_for_else, (5,)),
        (consume_raising, (5,)),
        (consume_raising, (2,)),
        (consume_outer, (9,)),
        (local_generator_variable, (4,)),
    ],
)
def test_consumed_in_compiled_code(function, args):
    check(function, *args)


def test_min_of_empty_generator_raises():
    # In the running CPython's words ("min() iterable argument is empty" from 3.12).
    with pytest.raises(ValueError) as expected:
        consume_min_of_nothing(0)
    with no_allocation_leak(), pytest.raises(ValueError) as actual:
        njit(consume_min_of_nothing)(0)
    assert str(actual.value) == str(expected.value)


def test_exception_propagates_through_compiled_consumer():
    def consumer(n):
        total = 0
        for y in raising_compiled(n):
            total += y
        return total

    compiled = njit(consumer)
    with no_allocation_leak():
        assert compiled(2) == consumer(2)
        with pytest.raises(ValueError, match="two is too many"):
            compiled(5)


def test_next_of_exhausted_generator_raises_stop_iteration():
    def consumer():
        g = count_up_compiled(1)
        next(g)
        return next(g)

    with no_allocation_leak(), pytest.raises(StopIteration):
        njit(consumer)()


def test_generator_returned_from_compiled_code():
    def make(n):
        return nested_compiled(n)

    compiled = njit(make)
    with no_allocation_leak():
        assert list(compiled(3)) == list(nested_loops(3))


# --- unsupported --------------------------------------------------------------------------------


def test_yield_value_in_an_expression_is_refused_at_its_line():
    # `x = yield v` takes send()'s value (test_generator_send.py); other uses of it do not.
    def receiver():
        x = 1 + (yield 1)
        yield x

    with pytest.raises(UnsupportedError, match="yield is only supported as a statement"):
        njit(receiver)()


def test_return_value_is_refused():
    def returns_value(n):
        yield n
        return n

    with pytest.raises(UnsupportedError, match="return with a value in a generator"):
        njit(returns_value)(1)


def test_generator_without_yield_type():
    def never_yields():
        if 0:
            yield 1

    with pytest.raises(TypingError, match="does not yield any value"):
        njit(never_yields)()


def test_zip_of_generator_outside_a_loop():
    # A generator itself (taipan.builtin_library's zip of iterators), items taken in turn.
    def zipped(n):
        return list(zip(count_up_compiled(n), range(n - 1)))

    for n in (0, 1, 3):
        with no_allocation_leak():
            assert njit(zipped)(n) == zipped(n)


def counting(out, n):
    for i in range(n):
        out[0] += 1
        yield i


def test_any_and_all_stop_at_the_answer():
    compiled_counting = njit(counting)

    @njit
    def compiled_decide(out, n):
        return any(compiled_counting(out, n)), all(compiled_counting(out, n))

    for n in (0, 1, 5):
        expected_out, got_out = np.zeros(1), np.zeros(1)
        expected = (any(counting(expected_out, n)), all(counting(expected_out, n)))
        with no_allocation_leak():
            assert compiled_decide(got_out, n) == expected
        assert got_out[0] == expected_out[0]  # as many items resumed as CPython took


def test_any_of_generator_of_strings_is_refused():
    def stops_early(n):
        return any(strings_compiled(n))

    with pytest.raises(TypingError):
        njit(stops_early)(3)


def test_generators_refused_in_cuda_kernels():
    def kernel(out):
        total = 0
        for y in device(3):
            total += y
        out[0] = total

    device = cuda.jit(device=True)(count_up)
    with pytest.raises(UnsupportedError, match="generators are not supported in CUDA"):
        cuda.compile_ptx(kernel, void(float64[:]))


# --- generators as values ----------------------------------------------------------------------


def with_finally(out, n):
    try:
        for i in range(n):  # noqa: UP028 (a loop in the compiled generator)
            yield i
    finally:
        out[0] += 1


def test_finally_runs_when_finished_or_dropped():
    compiled = njit(with_finally)
    for function in (with_finally, compiled):
        with no_allocation_leak():
            out = np.zeros(1)
            assert list(function(out, 3)) == [0, 1, 2]
            assert out[0] == 1
            generator = function(out, 5)
            assert next(generator) == 0
            del generator  # CPython closes it: the finally block runs
            assert out[0] == 2
            del out


@njit
def halves(n):
    for i in range(n):
        yield i * 0.5


@njit
def consume_argument(g):
    total = 0.0
    for x in g:
        total += x
    return total


def test_generator_passed_to_a_jitted_function():
    def driver(n):
        return consume_argument(halves(n))

    with no_allocation_leak():
        assert njit(driver)(5) == consume_argument.py_func(halves.py_func(5))


def test_recursive_generator():
    @njit
    def countdown(n):
        if n > 0:
            yield n
            yield from countdown(n - 1)

    with no_allocation_leak():
        assert list(countdown(5)) == list(countdown.py_func(5))


def test_generator_variable_from_either_branch():
    def choose(flag, n):
        g = halves(n) if flag else halves(n + 1)
        return sum(g)

    compiled = njit(choose)
    with no_allocation_leak():
        for flag in (True, False):
            assert compiled(flag, 3) == sum(halves.py_func(3 if flag else 4))


def test_list_argument_from_python_is_refused():
    def appends(values):
        values.append(1)
        yield len(values)

    with pytest.raises(UnsupportedError, match="cannot take a list argument"):
        njit(appends)([1, 2])


def test_close_from_python():
    compiled = njit(with_finally)
    for function in (with_finally, compiled):
        with no_allocation_leak():
            out = np.zeros(1)
            generator = function(out, 5)
            assert next(generator) == 0
            generator.close()
            assert out[0] == 1
            with pytest.raises(StopIteration):
                next(generator)
            generator.close()  # closing twice does nothing
            assert out[0] == 1
            del generator, out


def caught_inside(n):
    for i in range(n):
        try:
            if i == 2:
                raise ValueError("skip")
            yield i
        except ValueError:
            pass
    yield -1


def test_try_inside_generator_body():
    check_returned(caught_inside, 5)


def consume_sorted(n):
    return sorted(outer_compiled(n))


def consume_extend(n):
    values = [100]
    values.extend(count_up_compiled(n))
    return values


def test_sorted_and_extend_of_generators():
    check(consume_sorted, 9)
    check(consume_extend, 4)


def test_yield_in_except_handler_is_refused():
    def in_handler(n):
        try:
            raise ValueError("x")
        except ValueError:
            yield n

    with pytest.raises(UnsupportedError, match="yield inside an except handler"):
        njit(in_handler)(1)


def pairs_of(n):
    inner = count_up_compiled(n)
    while True:
        a = next(inner)  # raises StopIteration inside this generator at the end
        yield a + next(inner, 100)


def test_stop_iteration_inside_a_generator_is_a_runtime_error():
    # PEP 479: CPython turns it into RuntimeError instead of ending the generator quietly.
    compiled = njit(pairs_of)

    def consumer(n):
        total = 0
        for x in compiled(n):
            total += x
        return total

    for function in (pairs_of, compiled):
        with no_allocation_leak(), pytest.raises(RuntimeError, match="generator raised"):
            list(function(3))
    with no_allocation_leak(), pytest.raises(RuntimeError, match="generator raised"):
        njit(consumer)(3)


def test_generator_inside_a_returned_tuple_is_refused():
    def both(n):
        return count_up_compiled(n), n

    with pytest.raises(UnsupportedError, match="must be the whole result"):
        njit(both)(3)
