"""``types.Array`` of datetime64 and timedelta64 dtypes (Numba's ``types.Array(NPDatetime('s'),
1, 'C')``): the type of such arrays, usable in explicit signatures."""

import numpy as np
import pytest

import taipan
from taipan import types
from taipan.runtime import live_blocks


@pytest.mark.parametrize("dtype", ["m8[s]", "M8[D]", "m8[ms]"])
@pytest.mark.parametrize("layout", ["C", "A"])
def test_array_type_of_a_datetime_dtype(dtype, layout):
    unit = taipan.typeof(np.zeros(1, dtype)).dtype
    declared = types.Array(unit, 2, layout)
    assert declared.dtype == unit and declared.ndim == 2 and declared.layout == layout
    if layout == "C":
        assert declared == taipan.typeof(np.zeros((2, 2), dtype))


def test_explicit_signature_with_timedelta_arrays():
    unit = taipan.typeof(np.zeros(1, "m8[s]")).dtype
    array = types.Array(unit, 1, "C")

    @taipan.njit((array, array))
    def total(a, b):
        return np.add(a, b)

    a = np.array([3, -2], "m8[s]")
    b = np.array([60, 5], "m8[s]")
    before = live_blocks()
    got = total(a, b)
    np.testing.assert_array_equal(got, np.add(a, b))
    assert got.dtype == np.dtype("m8[s]")
    del got
    assert live_blocks() == before


def test_other_dtypes_are_still_refused():
    with pytest.raises(TypeError, match="number type"):
        types.Array(types.unicode_type, 1, "C")
