"""Record width subtyping (Numba's): a record whose leading fields are those of a compiled
record type (same names, types and offsets) is passed to the function compiled for it where no
new compilation may happen (an explicit signature, ``disable_compile``); anything else is
refused with Numba's TypeError."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

NARROW = np.dtype([("a", "f8")])
WIDE = np.dtype([("a", "f8"), ("b", "f8")])
WIDER = np.dtype([("a", "f8"), ("b", "f8"), ("c", "i4")])


def record(dtype, *values):
    return np.array([tuple(values)], dtype=dtype)[0]


def read_a(rec):
    return rec["a"]


def test_explicit_signature_takes_a_wider_record():
    narrow = record(NARROW, 1.0)
    function = taipan.njit(taipan.float64(taipan.typeof(narrow)))(read_a)
    before = live_blocks()
    assert function(record(WIDE, 2.5, 3.0)) == read_a(record(WIDE, 2.5, 3.0))
    assert function(record(WIDER, -4.0, 3.0, 7)) == -4.0
    assert len(function.signatures) == 1  # no compilation for the wider records
    assert live_blocks() == before


@pytest.mark.parametrize("explicit", [False, True])
def test_disabled_compile_uses_the_narrow_specialisation(explicit):
    narrow = record(NARROW, 1.0)
    if explicit:
        function = taipan.njit(taipan.float64(taipan.typeof(narrow)))(read_a)
    else:
        function = taipan.njit(read_a)
        assert function(narrow) == 1.0
    function.disable_compile()
    wide = record(WIDE, 2.0, 3.0)
    assert function(wide) == function.py_func(wide)
    assert len(function.signatures) == 1


def test_open_dispatcher_still_compiles_for_the_wider_record():
    function = taipan.njit(read_a)
    function(record(NARROW, 1.0))
    assert function(record(WIDE, 5.0, 6.0)) == 5.0
    assert len(function.signatures) == 2  # Numba compiles an exact match when it may


def test_writes_reach_the_wider_record():
    def write(rec, value):
        rec["a"] = value
        return rec["a"] * 2

    function = taipan.njit(write)
    function(record(NARROW, 1.0), 0.0)
    function.disable_compile()
    wide = record(WIDE, 2.0, 3.0)
    assert function(wide, 8.5) == 17.0
    assert wide["a"] == 8.5 and wide["b"] == 3.0


def test_tuple_of_records():
    def total(records):
        x = 0.0
        for i in range(len(records)):
            x += records[i]["a"]
        return x

    function = taipan.njit(total)
    function((record(NARROW, 1.0), record(NARROW, 2.0)))
    function.disable_compile()
    wide = (record(WIDE, 2.0, 3.0), record(WIDE, 3.0, 4.0))
    assert function(wide) == total(wide)


def test_array_field():
    narrow = np.zeros(1, dtype=[("a", "f8", (4,))])[0]
    wide = np.zeros(1, dtype=[("a", "f8", (4,)), ("b", "f8")])[0]
    wide["a"][0] = 2.0
    function = taipan.njit(lambda rec: rec["a"][0])
    function(narrow)
    function.disable_compile()
    assert function(wide) == 2.0


@pytest.mark.parametrize(
    "compiled, given",
    [
        (np.dtype([("c", "f8")]), NARROW),  # another field name
        (WIDE, NARROW),  # fewer fields
        (NARROW, np.dtype([("a", "f4"), ("b", "f4")])),  # the field's type differs
        (NARROW, np.dtype([("b", "f8"), ("a", "f8")])),  # the field's offset differs
        (NARROW, np.dtype([("a", "f8"), ("b", "i1")], align=True)),  # aligned vs packed
    ],
)
def test_refused_records(compiled, given):
    function = taipan.njit(lambda rec: rec[0])
    function(np.zeros(1, compiled)[0])
    function.disable_compile()
    with pytest.raises(TypeError, match="No matching definition for argument type"):
        function(np.zeros(1, given)[0])


def test_compile_after_disable_raises_numbas_error():
    function = taipan.njit(read_a)
    function.disable_compile()
    with pytest.raises(RuntimeError, match="compilation disabled"):
        function.compile((taipan.typeof(record(NARROW, 1.0)),))
    function.disable_compile(False)
    assert function(record(NARROW, 3.0)) == 3.0


def test_jitted_caller_passes_a_wider_record_to_a_narrow_signature():
    narrow = record(NARROW, 1.0)
    callee = taipan.njit(taipan.float64(taipan.typeof(narrow)))(read_a)

    def caller(records):
        total = 0.0
        for i in range(len(records)):
            total += callee(records[i])
        return total

    wide = np.array([(2.0, 3.0), (0.5, 9.0)], dtype=WIDE)
    before = live_blocks()
    assert taipan.njit(caller)(wide) == 2.5
    assert live_blocks() == before
