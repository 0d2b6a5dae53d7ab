"""np.frombuffer of a bytes value made in compiled code (``a.tobytes()``): a read-only view of
its bytes in the dtype asked for, with NumPy's count and offset rules."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks


@pytest.mark.parametrize(
    "a", [np.array([1.5, -2.0, 3.25]), np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]]
)
def test_roundtrip_and_dtypes(a):
    @taipan.njit
    def views(a):
        data = a.tobytes()
        return (
            np.frombuffer(data),
            np.frombuffer(data, np.int32),
            np.frombuffer(data, np.uint8, 5, 3),
        )

    before = live_blocks()
    results = views(a)
    for got, want in zip(results, views.py_func(a)):
        assert got.dtype == want.dtype and not got.flags.writeable
        np.testing.assert_array_equal(got, want)
    del results, got
    assert live_blocks() == before


def test_bad_sizes_raise_value_error_as_numpy():
    @taipan.njit
    def view(a, count, offset):
        return np.frombuffer(a.tobytes(), np.float64, count, offset)

    a = np.arange(3.0)
    for count, offset in [(4, 0), (-1, 4), (1, 30)]:
        with pytest.raises(ValueError):
            view.py_func(a, count, offset)
        with pytest.raises(ValueError):
            view(a, count, offset)


def test_writing_to_the_view_is_a_typing_error():
    @taipan.njit
    def write(a):
        b = np.frombuffer(a.tobytes())
        b[0] = 1.0
        return b

    with pytest.raises(taipan.TypingError):
        write(np.arange(3.0))
