"""Eager ``@jit`` signatures are typed when decorated and get their code at their first use
(taipan.deferred_signatures): results equal the Python function's for every signature and the
conversions between them; every error compiling raises is raised by the decorator; the code
reads the namespace of the decoration; recursion, calls from compiled code, threads, pickles,
``overloads``, ``inspect_types`` and ``get_metadata`` see compiled functions; allocations
balance."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest
from conftest import assert_same

import taipan
from taipan import njit, types
from taipan.deferred_signatures import DeferredSignature
from taipan.errors import TypingError
from taipan.runtime import live_blocks


def waiting(dispatcher):
    """The argument types whose code has not been generated yet."""
    return [
        key
        for key, value in dict.items(dispatcher._overloads)
        if isinstance(value, DeferredSignature)
    ]


@njit(["float64(float64, float64)", "int64(int64, int64)", "complex128(complex128, float64)"])
def combine(a, b):
    return a * b + a - b


def test_code_waits_for_the_first_call_and_results_are_pythons():
    assert len(waiting(combine)) == 3
    assert_same(combine, 3, 4)
    assert waiting(combine) == [(types.float64, types.float64), (types.complex128, types.float64)]
    for args in [(2.5, -1.0), (np.int32(7), np.int8(-3)), (1 + 2j, 0.5), (True, 3), (1e308, 2.0)]:
        assert_same(combine, *args)
    assert waiting(combine) == []
    assert combine.signatures == [
        (types.float64, types.float64),
        (types.int64, types.int64),
        (types.complex128, types.float64),
    ]


@njit("int64(int64)")
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@njit
def calls_fib(x):
    return fib(x) + 1


def test_recursion_and_a_compiled_caller():
    # the caller needs only the declared return type: no code for fib yet
    assert calls_fib(10) == 56
    assert waiting(fib) == [(types.int64,)]
    assert fib(20) == fib.py_func(20) == 6765
    assert waiting(fib) == []


@njit(["(float64[:],)"])  # no return type: inferred
def total_plus_one(a):
    return a.sum() + 1


@njit
def calls_total(a):
    return total_plus_one(a) * 2


def test_an_undeclared_return_type_is_inferred_when_a_caller_needs_it():
    a = np.arange(5.0)
    assert calls_total(a) == 22.0
    assert total_plus_one.nopython_signatures[0].return_type == types.float64
    assert_same(total_plus_one, a)


@njit(["float64[:](float64[:], int64)"])
def scaled_copy(a, k):
    return a * k


def test_arrays_allocate_and_free():
    before = live_blocks()
    a = np.linspace(0, 1, 7)
    result = scaled_copy(a, 3)
    assert result.dtype == np.float64 and np.array_equal(result, scaled_copy.py_func(a, 3))
    del a, result
    assert live_blocks() == before


def test_typing_errors_come_from_the_decorator():
    with pytest.raises(TypingError, match="(?i)unknown attribute 'foo'") as raised:

        @njit(["int64(int64)", "float64(float64)"])
        def broken(x):
            return x.foo

    assert "broken" in str(raised.value) and "return x.foo" in str(raised.value)
    # the second signature fails after the first typed
    with pytest.raises(TypingError):

        @njit(["float64(float64)", "float64(unicode_type)"])
        def half_good(x):
            return x / 2.0


def test_a_declared_return_type_that_does_not_convert_fails_at_decoration():
    with pytest.raises(TypingError):

        @njit("int64(float64[:])")
        def returns_array(a):
            return a


def test_a_malformed_signature_fails_at_decoration():
    with pytest.raises(Exception) as raised:

        @njit("int64(int64")
        def malformed(x):
            return x

    assert not isinstance(raised.value, AssertionError)


OFFSET = 10


@njit("int64(int64)")
def add_offset(x):
    return x + OFFSET


def make_closure(value):
    @njit("float64(float64)")
    def closure(x):
        return x * value

    value = value + 100  # rebinding after the decoration goes unseen, as Numba compiled then
    return closure


def test_the_code_reads_the_namespace_of_the_decoration():
    global OFFSET
    OFFSET = 20
    try:
        assert add_offset(1) == 11
    finally:
        OFFSET = 10
    assert make_closure(2.0)(3.0) == 6.0


def test_a_first_call_that_raises_then_works():
    @njit("int64(int64, int64)")
    def divide(a, b):
        return a // b

    with pytest.raises(ZeroDivisionError):
        divide(1, 0)
    assert divide(7, 2) == 3


def test_inspection_generates_the_code():
    @njit(["int64(int64)", "float64(float64)"])
    def twice(x):
        return 2 * x

    assert len(waiting(twice)) == 2
    assert "twice" in str(twice.inspect_llvm(twice.signatures[0]))  # from the source: no code
    assert len(waiting(twice)) == 2
    assert set(twice.overloads) == {(types.int64,), (types.float64,)}
    assert waiting(twice) == []
    assert "timers" in twice.get_metadata(twice.signatures[0])


def test_get_metadata_and_compile_of_a_waiting_signature():
    @njit(["int64(int64)", "float64(float64)"])
    def thrice(x):
        return 3 * x

    assert "timers" in thrice.get_metadata((types.float64,))
    assert waiting(thrice) == [(types.int64,)]
    thrice.compile("int64(int64)")
    assert waiting(thrice) == []
    assert thrice(2) == 6


def test_threads_make_the_first_call_together():
    @njit("float64(float64)")
    def shared(x):
        return x * 0.5 + 1.0

    results = []
    barrier = threading.Barrier(8)

    def call(value):
        barrier.wait()
        results.append((value, shared(value)))

    threads = [threading.Thread(target=call, args=(float(i),)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [(float(i), i * 0.5 + 1.0) for i in range(8)]


def test_pickles_before_the_first_call():
    assert pickle.loads(pickle.dumps(combine)) is combine  # by reference
    clone = pickle.loads(pickle.dumps(make_closure(4.0)))  # by value, carrying code
    assert clone(2.0) == 8.0


def test_parallel_signatures_still_compile_when_decorated():
    @njit("float64(float64[:])", parallel=True)
    def parallel_sum(a):
        total = 0.0
        for i in taipan.prange(a.shape[0]):
            total += a[i]
        return total

    assert waiting(parallel_sum) == []
    assert parallel_sum(np.ones(10)) == 10.0


def test_disable_compile_after_decoration_keeps_the_signatures():
    @njit(["int64(int64)", "float64(float64)"])
    def closed(x):
        return x + 1

    closed.disable_compile()
    assert closed(1) == 2 and closed(np.float32(1.5)) == 2.5
    assert closed(np.int8(3)) == 4  # converts to a signature, as before
    assert waiting(closed) == []


def test_importing_annotate_keeps_signatures_deferred():
    """Only recording annotations needs code at decoration; an import of taipan.annotate (by
    another test in the same process, say) records nothing and changes nothing."""
    import taipan.annotate  # noqa: F401

    @njit(["int64(int64)"])
    def add_one(n):
        return n + 1

    assert waiting(add_one) == [(types.int64,)]
    assert_same(add_one, 41)
    assert waiting(add_one) == []
