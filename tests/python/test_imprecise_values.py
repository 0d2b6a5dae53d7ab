"""Values of Python objects in compiled code (Numba's imprecise types): `np.dtype("O")` and an
array of objects (`cuda.shared.array(10, dtype="O")`) have no compiled form, and as in Numba
the error names the variable that would hold one ("Cannot infer the type of variable 'arr',
have imprecise type: array(pyobject, 1d, C).", numba-cuda's test_sm::test_invalid_array_type),
at the user's line. A dtype string NumPy does not know stays "Invalid NumPy dtype specified"."""

import numpy as np
import pytest

from taipan import cuda, njit, void
from taipan.errors import ImpreciseTypeError, TypingError
from taipan.runtime import live_blocks


@pytest.fixture(autouse=True)
def no_leaks():
    before = live_blocks()
    yield
    assert live_blocks() == before


def shared_of_object_dtype():
    arr = cuda.shared.array(10, dtype=np.dtype("O"))  # noqa: F841


def shared_of_object_string():
    arr = cuda.shared.array(10, dtype="O")  # noqa: F841


def shared_of_object_word():
    arr = cuda.shared.array((4, 2), dtype="object")  # noqa: F841


def local_of_object_string():
    arr = cuda.local.array(3, dtype="|O")  # noqa: F841


def shared_of_unknown_dtype():
    arr = cuda.shared.array(10, dtype="int33")  # noqa: F841


@pytest.mark.parametrize(
    "kernel, imprecise, line",
    [
        (shared_of_object_dtype, "dtype(pyobject)", 'dtype=np.dtype("O")'),
        (shared_of_object_string, "array(pyobject, 1d, C)", 'dtype="O")'),
        (shared_of_object_word, "array(pyobject, 2d, C)", 'dtype="object")'),
        (local_of_object_string, "array(pyobject, 1d, C)", 'dtype="|O")'),
    ],
)
def test_a_kernels_array_of_objects_names_its_variable(kernel, imprecise, line):
    with pytest.raises(TypingError) as raised:
        cuda.jit(void())(kernel)
    message = str(raised.value)
    assert message.startswith(
        f"Cannot infer the type of variable 'arr', have imprecise type: {imprecise}."
    )
    assert f"in {kernel.__name__}" in message and line in message


def test_numba_cudas_invalid_array_type_messages():
    with pytest.raises(TypingError, match=".*Cannot infer the type of variable 'arr'.*"):
        cuda.jit(void())(shared_of_object_dtype)
    with pytest.raises(TypingError, match=".*Invalid NumPy dtype specified: 'int33'.*"):
        cuda.jit(void())(shared_of_unknown_dtype)


def object_dtype_kept():
    d = np.dtype("O")  # noqa: F841
    return 1


def object_dtype_reassigned(x):
    d = x
    d = np.dtype("|O")
    return d


def array_of_object_dtype(n):
    values = np.empty(n, dtype=np.dtype("O"))
    return values


def object_dtype_returned():
    return np.dtype("O")


@pytest.mark.parametrize(
    "function, variable",
    [(object_dtype_kept, "d"), (object_dtype_reassigned, "d"), (array_of_object_dtype, "values")],
)
def test_a_variable_given_an_object_dtype_cannot_be_typed(function, variable):
    arguments = () if function is object_dtype_kept else (3,)
    with pytest.raises(TypingError) as raised:
        njit(function)(*arguments)
    message = str(raised.value)
    assert message.startswith(
        f"Cannot infer the type of variable '{variable}', have imprecise type: dtype(pyobject)."
    )
    assert f"in {function.__name__}" in message


def test_an_object_dtype_outside_a_variable_is_a_typing_error_naming_a_value():
    with pytest.raises(TypingError) as raised:
        njit(object_dtype_returned)()
    message = str(raised.value)
    assert message.startswith(
        "Cannot infer the type of a value, have imprecise type: dtype(pyobject)."
    )
    assert "return np.dtype" in message
    assert not isinstance(raised.value, ImpreciseTypeError)  # the Python class stays inside


def number_dtypes():
    return np.empty(2, dtype=np.dtype("f4")).dtype == np.float32, np.dtype("i8") == np.int64


def test_number_dtypes_still_work():
    assert njit(number_dtypes)() == (True, True)


def test_the_python_error_class():
    error = ImpreciseTypeError("dtype(pyobject)")
    assert isinstance(error, TypingError) and error.imprecise_type == "dtype(pyobject)"
    assert str(error) == "Cannot infer the type of a value, have imprecise type: dtype(pyobject)."


def empty_of_objects(n):
    values = np.empty(n, dtype="O")
    return values


def zeros_of_objects(n):
    values = np.zeros((n, 2), "object")
    return values


def converted_to_objects(n):
    values = np.ones(n).astype("|O")
    return values


def returned_objects(n):
    return np.empty(n, dtype="O")


@pytest.mark.parametrize(
    "function, imprecise",
    [
        (empty_of_objects, "array(pyobject, 1d, C)"),
        (zeros_of_objects, "array(pyobject, 2d, C)"),
        (converted_to_objects, "array(pyobject, 1d, C)"),
    ],
)
def test_a_numpy_array_of_objects_names_its_variable(function, imprecise):
    # was "Invalid NumPy dtype specified: 'O'", though NumPy reads 'O' as the object dtype
    with pytest.raises(TypingError) as raised:
        njit(function)(3)
    message = str(raised.value)
    assert message.startswith(
        f"Cannot infer the type of variable 'values', have imprecise type: {imprecise}."
    )
    assert f"in {function.__name__}" in message
    with pytest.raises(TypingError, match="have imprecise type: array.pyobject, 1d, C.") as raised:
        njit(returned_objects)(3)
    assert str(raised.value).startswith("Cannot infer the type of a value")
