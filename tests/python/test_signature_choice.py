"""Which explicit signature a call runs: Numba's rule (numba/core/typeconv), by conversion kinds
exact < promote < safe < unsafe. Numba's own choice is computed in the same run, by the routine
its dispatcher calls on a miss (the type manager's select_overload, over the casting graph of
numba/core/typeconv/rules.py), and by real Numba dispatchers for a few cases end to end."""

import itertools

import numpy as np
import pytest

from taipan import njit
from taipan import types as taipan_types

KINDS = [
    "boolean",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
]

VALUES = {
    "boolean": np.bool_(True),
    "int8": np.int8(3),
    "int16": np.int16(3),
    "int32": np.int32(3),
    "int64": 3,
    "uint8": np.uint8(3),
    "uint16": np.uint16(3),
    "uint32": np.uint32(3),
    "uint64": np.uint64(3),
    "float32": np.float32(3.0),
    "float64": 3.0,
    "complex64": np.complex64(3.0),
    "complex128": 3.0 + 0j,
}


def _numba():
    return pytest.importorskip("numba")


def _numba_choice(signatures, arguments):
    """Numba's choice among ``signatures`` (tuples of type names) for ``arguments``: an index,
    "ambiguous" or None (no signature fits)."""
    numba = _numba()
    from numba.core.typeconv.rules import default_type_manager

    def numba_type(name):
        return getattr(numba.types, name)

    try:
        return default_type_manager.select_overload(
            [numba_type(a) for a in arguments],
            [[numba_type(t) for t in s] for s in signatures],
            True,  # allow_unsafe: a dispatcher that cannot compile allows unsafe conversions
            False,
        )
    except TypeError as error:
        return "ambiguous" if "Ambiguous" in str(error) else None


def _taipan_choice(dispatcher, signatures, arguments):
    key = tuple(getattr(taipan_types, name) for name in arguments)
    keys = [tuple(getattr(taipan_types, name) for name in s) for s in signatures]
    try:
        return keys.index(dispatcher._best_signature(key))
    except TypeError as error:
        return "ambiguous" if "Ambiguous" in str(error) else None


def _dispatcher(signatures):
    def one(x):
        return x

    def two(x, y):
        return x

    function = one if len(signatures[0]) == 1 else two
    texts = [f"{s[0]}({', '.join(s)})" for s in signatures]
    return njit(texts)(function)


def test_numba_table_is_the_closure_of_its_rules():
    """The conversion kind of every pair of scalar kinds is Numba's."""
    numba = _numba()
    from numba.core.typeconv.rules import default_type_manager

    from taipan import _core

    kinds = KINDS + ["float16"]
    for source, target in itertools.product(kinds, kinds):
        expected = default_type_manager.check_compatible(
            getattr(numba.types, source), getattr(numba.types, target)
        )
        expected = 1 if source == target else (None if expected is None else int(expected))
        actual = _core.conversion_kind(getattr(taipan_types, source), getattr(taipan_types, target))
        assert actual == expected, f"{source} -> {target}: Numba {expected}, taipan {actual}"


@pytest.mark.parametrize("first, second", list(itertools.combinations(KINDS, 2)))
def test_choice_between_two_signatures(first, second):
    signatures = [(first,), (second,)]
    dispatcher = _dispatcher(signatures)
    for argument in KINDS:
        expected = _numba_choice(signatures, (argument,))
        actual = _taipan_choice(dispatcher, signatures, (argument,))
        assert actual == expected, (
            f"{argument} among {signatures}: Numba {expected}, taipan {actual}"
        )


def test_choice_among_all_scalar_signatures():
    signatures = [(kind,) for kind in KINDS]
    dispatcher = _dispatcher(signatures)
    for argument in KINDS:
        assert _taipan_choice(dispatcher, signatures, (argument,)) == _numba_choice(
            signatures, (argument,)
        )


@pytest.mark.parametrize(
    "signatures",
    [
        [("float64", "int32"), ("int32", "float64")],  # a tie for (int64, int64)
        [("float32", "float32"), ("float64", "float64")],
        [("int8", "float64"), ("int64", "float32"), ("complex128", "complex128")],
        [("uint64", "int64"), ("int64", "uint64"), ("float64", "float64")],
    ],
)
def test_choice_with_two_arguments(signatures):
    dispatcher = _dispatcher(signatures)
    for arguments in itertools.product(KINDS, KINDS):
        expected = _numba_choice(signatures, arguments)
        actual = _taipan_choice(dispatcher, signatures, arguments)
        assert actual == expected, (
            f"{arguments} among {signatures}: Numba {expected}, taipan {actual}"
        )


def test_an_int_runs_the_float64_version():
    """numba-stats' crystalball integral: a Python int took the float32 version."""

    @njit(["float32(float32)", "float64(float64)"])
    def third(x):
        return x / 3.0

    assert third(1) == 1 / 3.0
    assert third(16777217) == 16777217 / 3.0


def test_calls_choose_as_numba_dispatchers_do():
    """Real Numba dispatchers, whose overloads return the name of the type their argument has,
    choose the signature taipan's call runs (the value shows the conversion taipan made)."""
    numba = _numba()
    from numba.extending import overload

    def kind_of(x):
        raise NotImplementedError

    @overload(kind_of)
    def _kind_of(x):
        name = str(x)
        return lambda x: name

    def which(x):
        return kind_of(x)

    cases = [
        (["float32", "float64"], 16777217, 16777217.0),
        (["int64"], 2.75, 2),  # unsafe, but the only one: the float truncates
        (["uint8", "int16"], np.int8(-5), -5),
        (["int64", "float64"], np.uint64(5), 5.0),
        (["int8", "float32"], 300, "ambiguous"),
        (["float64", "complex128"], True, "ambiguous"),
    ]
    for kinds, argument, expected in cases:
        numba_signatures = [numba.types.unicode_type(getattr(numba.types, k)) for k in kinds]
        try:
            chosen = numba.njit(numba_signatures)(which)(argument)
        except TypeError as error:
            assert "Ambiguous overloading" in str(error)
            chosen = "ambiguous"

        @njit([f"{k}({k})" for k in kinds])
        def identity(x):
            return x

        if expected == "ambiguous":
            assert chosen == "ambiguous", (kinds, argument, chosen)
            with pytest.raises(TypeError, match="Ambiguous overloading"):
                identity(argument)
            continue
        assert chosen in kinds, (kinds, argument, chosen)
        key = identity._best_signature(identity._argument_types((argument,)))
        assert key == (getattr(taipan_types, chosen),), (kinds, argument, chosen, key)
        result = identity(argument)
        assert result == expected and type(result) is type(expected), (kinds, argument, result)


def test_no_matching_definition():
    @njit(["int64(int64)"])
    def f(x):
        return x

    with pytest.raises(TypeError, match="No matching definition"):
        f(1j)


def test_ambiguous_call_raises():
    @njit(["float64(float64, int32)", "float64(int32, float64)"])
    def f(x, y):
        return x + y

    with pytest.raises(TypeError, match="Ambiguous overloading"):
        f(1, 2)
    assert f(1.5, 2) == 3.5
