"""a[i] = v where v is of a user type that converts to the array's number type (Numba's
can_convert_to with lower_cast, asked for that number): IntEnum members into integer arrays;
a value with no conversion to that type (an Enum member, an IntEnum member into floats, which
Numba's IntEnumMember does not convert to) is still refused at the store."""

import enum

import numpy as np
import pytest

from taipan import njit
from taipan.errors import TypingError


class Level(enum.IntEnum):
    low = 3
    high = 300


class Color(enum.Enum):
    red = 1


def test_int_enum_members_store_into_number_arrays():
    @njit
    def run(ints, small):
        ints[0] = Level.low
        ints[1] = Level.high
        small[0] = Level.high  # converted as int64 300 is into int8: wraps, as NumPy's casts
        return ints[0] + ints[1]

    ints = np.zeros(2, np.int64)
    small = np.zeros(1, np.int8)
    assert run(ints, small) == 303
    assert list(ints) == [3, 300] and small[0] == np.int64(300).astype(np.int8)


@pytest.mark.parametrize(
    ("member", "dtype"), [(Color.red, np.int64), (Level.low, np.float64)], ids=["enum", "float"]
)
def test_a_member_without_that_number_is_refused(member, dtype):
    @njit
    def run(values):
        values[0] = member

    with pytest.raises(TypingError, match="cannot store"):
        run(np.zeros(1, dtype))
