"""isinstance() of datetime64 and timedelta64 values, decided at compile time by NumPy's class
tree: datetime64 is a generic; timedelta64 a signed integer (not a Python int)."""

import numpy as np
import pytest

import taipan

VALUES = [
    np.datetime64(1, "ns"),
    np.datetime64("NaT", "D"),
    np.timedelta64(1, "ns"),
    np.timedelta64(-3, "W"),
    np.timedelta64("NaT", "s"),
]

CLASSES = [
    np.datetime64,
    np.timedelta64,
    np.generic,
    np.number,
    np.integer,
    np.signedinteger,
    np.unsignedinteger,
    np.floating,
    int,
    float,
    complex,
    object,
]


@pytest.mark.parametrize("cls", CLASSES, ids=repr)
def test_isinstance_of_datetime_values(cls):
    @taipan.njit
    def is_instance(x):
        return isinstance(x, cls)

    for value in VALUES:
        assert is_instance(value) is is_instance.py_func(value), (value, cls)


def test_isinstance_with_a_tuple_of_classes():
    @taipan.njit
    def is_time(x):
        return isinstance(x, (np.datetime64, np.timedelta64)), isinstance(x, (int, np.integer))

    for value in VALUES:
        assert is_time(value) == is_time.py_func(value), value


def test_isinstance_prunes_the_other_branch():
    @taipan.njit
    def describe(x):
        if isinstance(x, np.timedelta64):
            return x * 2  # a datetime has no product: never typed for one
        return x

    assert describe(np.timedelta64(2, "s")) == np.timedelta64(4, "s")
    assert describe(np.datetime64(2, "s")) == np.datetime64(2, "s")
