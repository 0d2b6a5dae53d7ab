"""Lists of lists stored into arrays (``a[:] = [[1, 2], [3, 4]]``, ``a[i] = [[...], [...]]``
of a 3-d ``a``, lists of tuples) as NumPy stores them: first the array NumPy makes of the
nested lists (a ragged one raises NumPy's ValueError), converted to the array's dtype, then
broadcast into the target. Compared with ``py_func``; no memory block is left behind, also
when the store raises."""

import numpy as np
import pytest
from child_processes import child_environment, run_python

from taipan import njit
from taipan.runtime import live_blocks

DTYPES = [np.float64, np.float32, np.int64, np.int16, np.uint8, np.complex128, np.bool_]


def check(function, *arguments):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in arguments]
    expected = function.py_func(*copies)
    before = live_blocks()
    result = function(*arguments)
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)
    del result
    assert live_blocks() == before


@njit
def whole_from_literal(a):
    a[:] = [[1, 2], [3, 4]]
    return a


@njit
def rows_of_a_3d_array(a, n):
    for i in range(n):
        a[i] = [[i, i + 1], [2 * i, 7]]
    return a


@njit
def from_list_variables(a, x, y):
    first = [x, y]
    second = [y, x]
    rows = [first, second]
    a[:, :] = rows
    return a


@njit
def broadcast_one_row(a, x):
    a[:] = [[x, x + 1, x + 2]]
    return a


@njit
def list_of_tuples(a):
    a[:] = [(1, 2), (3, 4)]
    return a


@njit
def three_levels(a):
    a[1:] = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    return a


@njit
def built_in_a_loop(a, n):
    rows = []
    for i in range(n):
        rows.append([float(i), i * 0.5])
    a[:] = rows
    return a


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_nested_lists_into_every_dtype(dtype):
    check(whole_from_literal, np.zeros((2, 2), dtype))
    check(rows_of_a_3d_array, np.zeros((3, 2, 2), dtype), 3)
    check(list_of_tuples, np.zeros((2, 2), dtype))
    check(three_levels, np.zeros((3, 2, 2), dtype))


@pytest.mark.parametrize("x, y", [(1.5, -2.25), (0.0, 1e300)])
def test_nested_list_variables_and_views(x, y):
    check(from_list_variables, np.zeros((2, 2)), x, y)
    check(from_list_variables, np.zeros((4, 4))[::2, 1::2], x, y)
    check(broadcast_one_row, np.zeros((4, 3)), x)
    check(broadcast_one_row, np.zeros((3, 4)).T, x)


@pytest.mark.parametrize("n", [1, 4])
def test_nested_lists_built_at_run_time(n):
    check(built_in_a_loop, np.zeros((n, 2)), n)


def test_an_empty_list_of_rows_does_not_fit_a_row_shape_as_numpy():
    # NumPy makes an array of shape (0,) of it, which does not broadcast into (0, 2); taipan's
    # ValueError says that the empty list has fewer dimensions than its type.
    with pytest.raises(ValueError, match="could not broadcast"):
        built_in_a_loop.py_func(np.zeros((0, 2)), 0)
    before = live_blocks()
    with pytest.raises(ValueError, match="empty list nested 2 deep"):
        built_in_a_loop(np.zeros((0, 2)), 0)
    assert live_blocks() == before


@njit
def ragged(a):
    a[:] = [[1, 2], [3]]
    return a


@njit
def too_many_rows(a):
    a[:] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    return a


@njit
def rows_of_length(a, n):
    a[:] = [[1.0] * n, [2.0] * n]
    return a


@pytest.mark.parametrize(
    "function, arguments, message",
    [
        (ragged, (np.zeros((2, 2)),), "setting an array element with a sequence"),
        (too_many_rows, (np.zeros((2, 3)),), "could not broadcast input array"),
        (rows_of_length, (np.zeros((2, 3)), 2), "could not broadcast input array"),
    ],
)
def test_shapes_that_do_not_fit_raise_valueerror_as_numpy(function, arguments, message):
    with pytest.raises(ValueError, match=message):
        function.py_func(
            *[a.copy() for a in arguments if isinstance(a, np.ndarray)], *arguments[1:]
        )
    before = live_blocks()
    with pytest.raises(ValueError, match=message):
        function(*arguments)
    assert live_blocks() == before


def test_fitting_run_time_lengths_store():
    check(rows_of_length, np.zeros((2, 3)), 3)
    check(rows_of_length, np.zeros((2, 1)), 1)


CHILD = """
import numpy as np
from taipan import njit

@njit
def store(a, x):
    a[:] = [[x, 2], [3, 4]]
    a[:] = [[x], [1.5]]
    return a

for i in range(1000):
    store(np.zeros((2, 2)), float(i))
print("done")
"""


def test_stores_release_their_temporary_array_once():
    # A second release of the converted array corrupts the block cache, which fails only when
    # the cache is torn down at the process's exit: run it in a child and check its exit.
    result = run_python(["-c", CHILD], env=child_environment())
    assert result.stdout.strip() == "done"
