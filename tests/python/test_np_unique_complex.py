"""np.unique of complex arrays (the values only, as Numba's np.unique takes its first argument):
sorted as NumPy sorts complex numbers, NaN-holding values one when ``equal_nan`` (NumPy keeps
the first of the input), all of them otherwise."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

NAN = np.nan

CASES = [
    np.array([1 + 2j, 1 + 2j, -1j, 3 + 0j, 0j, -1j]),
    np.array([complex(NAN, 1), 2 + 0j, complex(1, NAN), complex(NAN, NAN), 2 + 0j]),
    np.array([complex(1, NAN), complex(NAN, 1)]),
    np.zeros(0, complex),
    np.array([[2 - 1j, 0.5j], [2 - 1j, -0.5j]]),
]


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("values", CASES, ids=range(len(CASES)))
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_matches_numpy(values, dtype, equal_nan):
    values = values.astype(dtype)
    function = taipan.njit(lambda a, equal_nan: np.unique(a, equal_nan=equal_nan))
    before = live_blocks()
    got = function(values, equal_nan)
    want = np.unique(values, equal_nan=equal_nan)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got.real), np.signbit(want.real))
    del got
    assert live_blocks() == before


def test_outputs_beyond_the_values_are_refused_for_complex():
    with pytest.raises(taipan.TypingError):
        taipan.njit(lambda a: np.unique(a, return_counts=True))(np.array([1j, 1j]))
