"""An eager @guvectorize (signatures given) types each loop when decorated, raising there what
compiling would, and generates the loop's code at its first call: a library defining gufuncs
at import (quantecon defines four) pays only for those it calls. The loops see the globals and
closure values of the decoration, as loops compiled then would; results, errors, threads, the
parallel target, copies for core sizes and pickles are as with code generated at once."""

import pickle
import threading

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import guvectorize
from taipan.errors import TypingError

TARGETS = ["cpu", "parallel"]

SCALE = 2.0


def scaled_copy(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * SCALE


def probability_vectors(r, out):
    """quantecon's _probvec: every operand an input, `r` sorted and `out` written in place."""
    n = r.shape[0]
    r.sort()
    out[0] = r[0]
    for i in range(1, n):
        out[i] = r[i] - r[i - 1]
    out[n] = 1 - r[n - 1]


def set_bits(ints, out):
    """quantecon's _ints_arr_to_bits: a uint64 output from int32 inputs."""
    out[0] = 0
    for i in range(ints.shape[0]):
        out[0] |= np.uint64(1) << np.uint64(ints[i])


def loops_generated(gufunc):
    """Whether each loop of a gufunc taipan built has code yet (the compiler's record)."""
    from taipan.serialize import _built_ufuncs
    from taipan.ufuncs import _DeferredLoop

    _, compiler, _ = _built_ufuncs[id(gufunc)]
    return [not isinstance(loop, _DeferredLoop) or loop.generated for _, _, loop in compiler.loops]


@pytest.mark.parametrize("target", TARGETS)
def test_code_is_generated_for_the_loop_called_only(target):
    gufunc = guvectorize(
        ["(float64[:], float64[:])", "(int64[:], int64[:])", "(float32[:], float32[:])"],
        "(n)->(n)",
        target=target,
    )(scaled_copy)
    assert loops_generated(gufunc) == [False, False, False]
    with no_allocation_leak():
        result = gufunc(np.arange(6, dtype=np.int64).reshape(2, 3))
    assert result.dtype == np.int64 and result.tolist() == [[0, 2, 4], [6, 8, 10]]
    assert loops_generated(gufunc) == [False, True, False]
    assert gufunc.types == ["d->d", "l->l", "f->f"]
    for dtype in (np.float64, np.float32, np.int64):
        a = np.linspace(-3, 3, 7).astype(dtype)
        expected = np.empty_like(a)
        scaled_copy(a, expected)
        result = gufunc(a)
        assert result.dtype == dtype and np.array_equal(result, expected)
    assert loops_generated(gufunc) == [True, True, True]


@pytest.mark.parametrize("target", TARGETS)
def test_loops_in_place_and_of_other_output_types(target):
    probvec = guvectorize(["(f8[:], f8[:])"], "(n), (k)", target=target)(probability_vectors)
    bits = guvectorize(["(i4[:], u8[:])"], "(m)->()", target=target)(set_bits)
    rng = np.random.default_rng(5)
    r = rng.random((50, 3))
    ours, theirs = np.empty((50, 4)), np.empty((50, 4))
    r_ours, r_theirs = r.copy(), r.copy()
    with no_allocation_leak():
        probvec(r_ours, ours)
    for row in range(50):
        probability_vectors(r_theirs[row], theirs[row])
    assert np.array_equal(ours, theirs) and np.array_equal(r_ours, r_theirs)
    ints = np.array([[0, 1, 2], [3, 0, 63]], dtype=np.int32)
    assert bits(ints).tolist() == [7, (1 << 63) | 9]
    assert bits(ints).dtype == np.uint64


def test_globals_and_closure_values_of_the_decoration_are_the_ones_used():
    global SCALE
    gufunc = guvectorize(["(f8[:], f8[:])"], "(n)->(n)")(scaled_copy)
    try:
        SCALE = 5.0  # rebound after the decoration, before the first call
        assert gufunc(np.array([1.0, 2.0])).tolist() == [2.0, 4.0]
    finally:
        SCALE = 2.0

    offset = 1.0

    def shifted(a, out):
        for i in range(a.shape[0]):
            out[i] = a[i] + offset

    gufunc = guvectorize(["(f8[:], f8[:])"], "(n)->(n)")(shifted)
    offset = 10.0  # the closure cell changes; the loop keeps 1.0
    assert gufunc(np.array([1.0, 2.0])).tolist() == [2.0, 3.0]


def test_typing_errors_are_raised_when_decorated():
    def unknown_attribute(a, out):
        out[0] = a.no_such_attribute

    with pytest.raises(TypingError, match="no_such_attribute"):
        guvectorize(["(f8[:], f8[:])"], "(n)->()")(unknown_attribute)

    def unknown_name(a, out):
        out[0] = a[0] + not_defined_anywhere  # noqa: F821

    with pytest.raises(TypingError, match="not_defined_anywhere"):
        guvectorize(["(f8[:], f8[:])", "(i8[:], i8[:])"], "(n)->()")(unknown_name)


def test_an_error_of_the_loop_is_raised_from_its_first_call():
    def checked(a, out):
        for i in range(a.shape[0]):
            if a[i] < 0:
                raise ValueError("negative element")
            out[i] = a[i]

    gufunc = guvectorize(["(f8[:], f8[:])"], "(n)->(n)")(checked)
    with pytest.raises(ValueError, match="negative element"):
        gufunc(np.array([1.0, -1.0]))
    assert gufunc(np.array([1.0, 2.0])).tolist() == [1.0, 2.0]


@pytest.mark.parametrize("target", TARGETS)
def test_first_calls_from_many_threads_at_once(target):
    gufunc = guvectorize(["(f8[:], f8[:])", "(i8[:], i8[:])"], "(n)->(n)", target=target)(
        scaled_copy
    )
    start = threading.Barrier(8)
    results, errors = [None] * 8, []

    def call(k):
        try:
            start.wait()
            dtype = np.float64 if k % 2 else np.int64
            results[k] = gufunc(np.full((3, 4), k, dtype=dtype))
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=call, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    for k, result in enumerate(results):
        assert result.dtype == (np.float64 if k % 2 else np.int64)
        assert np.array_equal(result, np.full((3, 4), 2 * k))


def test_pickle_before_the_first_call_carries_the_code():
    gufunc = guvectorize(["(f8[:], f8[:])"], "(n)->(n)")(scaled_copy)
    payload = pickle.dumps(gufunc)  # by value: the object code goes with it
    assert loops_generated(gufunc) == [True]
    restored = pickle.loads(payload)
    assert restored(np.array([1.5])).tolist() == [3.0]
    assert gufunc(np.array([1.5])).tolist() == [3.0]
