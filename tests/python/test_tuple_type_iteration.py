"""Tuple types iterate their element types, as Numba's BaseTuple does (numba-cuda's libdevice
tests build arrays of each: ``[ret[::1] for ret in sig.return_type]``); other types are not
iterable."""

import pytest

from taipan import types


def test_tuple_types_iterate_their_elements():
    assert list(types.Tuple([types.float64, types.int32])) == [types.float64, types.int32]
    assert list(types.UniTuple(types.int8, 3)) == [types.int8] * 3
    assert [t[::1] for t in types.Tuple([types.float32, types.int64])] == [
        types.float32[::1],
        types.int64[::1],
    ]
    assert list(types.Tuple([])) == []


@pytest.mark.parametrize("scalar", [types.float64, types.int32[:], types.none], ids=str)
def test_other_types_are_not_iterable(scalar):
    with pytest.raises(TypeError, match="not iterable"):
        iter(scalar)
