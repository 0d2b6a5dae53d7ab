"""np.array and np.asarray of lists, comprehensions, tuples of lists and lists of arrays, at any
depth, compared with NumPy running ``f.py_func``: shapes, dtypes (unified over the items, or
the dtype argument), empty sequences, and NumPy's ValueError for ragged ones."""

import numpy as np
import pytest
from numpy_checks import check_like_numpy, no_allocation_leak

from taipan import njit
from taipan.errors import UnsupportedError


@njit
def from_comprehension(n):
    return np.array([i * 1.5 for i in range(n)])


@njit
def from_appended_list(n):
    items = [0]
    for i in range(n):
        items.append(-i)
    return np.array(items)


@njit
def nested_comprehension(n):
    return np.array([[i * j for j in range(n)] for i in range(n)])


@njit
def three_deep(n):
    return np.array([[[i * j - k for k in range(n)] for j in range(n)] for i in range(n)])


@njit
def filtered_rows(n):
    return np.array([[i * j for j in range(n)] for i in range(n) if i % 2 == 1])


@njit
def list_of_arrays(n):
    return np.array([np.arange(n) * y for y in range(n)])


@njit
def list_of_2d_arrays(n):
    return np.array([np.ones((2, n)) * y for y in range(3)])


@njit
def list_of_tuples(n):
    return np.array([(i, i * 0.5, -i) for i in range(n)])


@njit
def tuple_of_lists(n):
    return np.array(([i for i in range(n)], [i * 2.5 for i in range(n)]))


@njit
def literal_nested():
    return np.array([[1, 2, 3], [4, 5, 6]])


@njit
def with_dtype(n):
    return np.array([i for i in range(n)], dtype=np.complex64)


@njit
def complex_items(n):
    return np.array([i * 1j for i in range(n)])


@njit
def bool_items(n):
    return np.array([i % 3 == 0 for i in range(n)])


@njit
def asarray_of_list(n):
    return np.asarray([i - 0.25 for i in range(n)])


@njit
def ragged(n):
    return np.array([[i * j for j in range(i + 1)] for i in range(n)])


@njit
def ragged_arrays(n):
    return np.array([np.arange(n), np.arange(n + 1)])


@njit
def array_then_modified(n):
    items = [1.5, -0.0, np.nan]
    a = np.array(items)
    items.append(2.0)
    a[0] = n
    return a, len(items)


@pytest.mark.parametrize(
    "f",
    [
        from_comprehension,
        from_appended_list,
        nested_comprehension,
        three_deep,
        filtered_rows,
        list_of_arrays,
        list_of_2d_arrays,
        list_of_tuples,
        tuple_of_lists,
        with_dtype,
        complex_items,
        bool_items,
        asarray_of_list,
    ],
)
@pytest.mark.parametrize("n", [2, 5])
def test_like_numpy(f, n):
    check_like_numpy(f, n)


@pytest.mark.parametrize("f", [from_comprehension, from_appended_list, with_dtype, asarray_of_list])
def test_empty_one_dimensional(f):
    check_like_numpy(f, 0)


@pytest.mark.parametrize("f", [nested_comprehension, three_deep, list_of_tuples])
def test_empty_nested_list_is_an_error(f):
    # NumPy sees no items and makes a 1-D float64 array; the compiled array has the depth its
    # type gives, so an empty outer list raises rather than returning a different shape.
    assert f.py_func(0).shape == (0,)
    with no_allocation_leak(), pytest.raises(ValueError, match="fewer dimensions"):
        f(0)


def test_literal_nested():
    check_like_numpy(literal_nested)


def test_copy_is_independent_of_the_list():
    expected, expected_length = array_then_modified.py_func(7)
    with no_allocation_leak():
        a, length = array_then_modified(7)
        np.testing.assert_array_equal(a, expected)
        assert length == expected_length
        del a


@pytest.mark.parametrize("f", [ragged, ragged_arrays])
def test_ragged_is_numpy_value_error(f):
    with pytest.raises(ValueError, match="inhomogeneous shape after 1 dimensions"):
        f.py_func(3)
    message = "inhomogeneous shape after 1 dimensions"
    with no_allocation_leak(), pytest.raises(ValueError, match=message):
        f(3)
    # one row is never ragged
    check_like_numpy(ragged, 1)


def test_list_of_strings_is_refused():
    @njit
    def strings():
        return np.array(["a", "b"])

    with pytest.raises(UnsupportedError, match="numpy.array takes nested lists"):
        strings()
