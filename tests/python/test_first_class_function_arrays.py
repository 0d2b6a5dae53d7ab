"""Arrays and None through first-class function values (Numba's FunctionType) and cfuncs: a
cfunc's signature may take arrays (their struct, passed as a compiled call passes it) and None,
and so may FunctionType(...) signatures, which jitted functions convert to (numba's
test_function_type: test_pr4967_array, test_function_with_none_argument,
TestMultiFunctionType.test_base). A result is still a number, a pointer or None."""

import numpy as np
import pytest

from taipan import cfunc, njit, typeof, types
from taipan.errors import TypingError
from taipan.runtime import live_blocks
from taipan.types import float64, int64


@pytest.fixture(autouse=True)
def no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


@cfunc("intp(intp[:], float64[:])")
def first_sum(x, y):
    return x[0] + y[0]


@cfunc("intp(intp[:], float64[:])")
def first_difference(x, y):
    return x[0] - y[0]


def choose(fx, fy, i):
    a = np.array([10], dtype=np.intp)
    b = np.array([12], dtype=np.float64)
    if i == 0:
        f = fx
    elif i == 1:
        f = fy
    else:
        return
    return f(a, b)


@pytest.mark.parametrize("i", [0, 1, 2])
def test_cfuncs_taking_arrays_as_values(i):
    # numba's test_pr4967_array
    assert njit(choose)(first_sum, first_difference, i) == choose(first_sum, first_difference, i)


def test_cfunc_array_arguments_of_other_layouts_and_temporaries():
    @cfunc(float64(float64[:, :], int64))
    def corner_total(m, k):
        return m[:k, :k].sum()

    @njit
    def call(f, m, k):
        return f(m, k) + f(np.ones((3, 3)), 2)  # a temporary array argument

    m = np.arange(16.0).reshape(4, 4)
    for view in (m, m.T, m[::2, ::2], np.asfortranarray(m)):
        assert call(corner_total, view, 2) == view[:2, :2].sum() + 4.0


def test_cfunc_with_a_none_parameter():
    # numba's test_function_with_none_argument
    @cfunc(int64(types.none))
    def one(i):
        return 1

    @njit
    def call(f):
        return f(None)

    assert call(one) == 1


def test_cfunc_with_arrays_has_no_ctypes_signature():
    # C code cannot be written against taipan's array struct (Numba's to_ctypes refuses too);
    # called from Python, such a cfunc runs its Python function, as Numba runs every cfunc's.
    with pytest.raises(TypingError, match="array"):
        first_sum.ctypes  # noqa: B018
    assert first_sum(np.array([3], dtype=np.intp), np.array([4.5])) == 7.5


nb_array = typeof(np.ones(2))
int_callee = types.FunctionType(int64(int64))
array_callee = types.FunctionType(float64(nb_array))


@njit([int64(int_callee, int64), float64(array_callee, nb_array)])
def call_callee(callee, a):
    return callee(a)


@njit
def identity(b):
    return b


@njit
def total(c):
    return c.sum()


def test_jitted_functions_convert_to_array_signatures():
    # numba's TestMultiFunctionType.test_base
    c = np.array([0.5, 1.5, -4.0])
    assert call_callee(identity, 7) == 7
    assert call_callee(total, c) == c.sum()
    assert call_callee(total, np.ones(2)) == 2.0


@njit
def raises_on_empty(a):
    if a.size == 0:
        raise ValueError("empty")
    return a[0]


def test_exceptions_pass_through_array_signatures():
    @njit(float64(types.FunctionType(float64(float64[::1])), float64[::1]))
    def call(f, a):
        return f(a)

    assert call(raises_on_empty, np.array([2.5])) == 2.5
    with pytest.raises(ValueError, match="empty"):
        call(raises_on_empty, np.empty(0))


@njit
def mean_of(a):
    return a.mean()


@njit
def largest(a):
    return a.max()


def test_a_choice_of_jitted_functions_called_with_arrays():
    @njit
    def pick(flag, a):
        f = mean_of if flag else largest
        return f(a)

    a = np.array([1.0, 5.0, 3.0])
    assert pick(True, a) == 3.0
    assert pick(False, a) == 5.0


def test_array_results_and_other_parameters_stay_refused():
    with pytest.raises(TypeError, match="returns a number, a pointer or None"):
        types.FunctionType(nb_array(nb_array))
    with pytest.raises(TypeError, match="numbers, pointers, arrays and None"):
        types.FunctionType(float64(types.unicode_type))
    with pytest.raises(TypingError, match="cfunc returns"):
        cfunc(nb_array(nb_array))(lambda a: a)


def test_wrong_array_type_is_a_typing_error():
    @njit
    def call(f):
        return f(np.ones(3, dtype=np.int32), np.ones(1))

    with pytest.raises(TypingError, match="argument 1"):
        call(first_sum)
