"""An eager @vectorize whose signatures give their return types types each loop when decorated,
raising there what compiling would, and generates a loop's code at its first call (as the
eager @guvectorize does). Results, output types, NumPy's loop choice, reductions, calls from
compiled code, threads, the parallel target and pickles are those of loops compiled at once;
the loops see the namespace of the decoration. A signature without a return type still
compiles when decorated (only compiling tells its output type)."""

import pickle
import threading

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import float64, njit, vectorize
from taipan.errors import TypingError

TARGETS = ["cpu", "parallel"]

FACTOR = 3


def scale_and_shift(x, y):
    return x * FACTOR + y


def loops_generated(ufunc):
    """Whether each loop of a ufunc taipan built has code yet (the compiler's record)."""
    from taipan.serialize import _built_ufuncs
    from taipan.ufuncs import _DeferredLoop

    _, compiler, _ = _built_ufuncs[id(ufunc)]
    return [not isinstance(loop, _DeferredLoop) or loop.generated for _, _, loop in compiler.loops]


SIGNATURES = ["float64(float64, float64)", "int64(int64, int64)", "float32(float32, float32)"]


@pytest.mark.parametrize("target", TARGETS)
def test_code_is_generated_for_the_loop_called_only(target):
    ufunc = vectorize(SIGNATURES, target=target)(scale_and_shift)
    assert isinstance(ufunc, np.ufunc) and ufunc.types == ["dd->d", "ll->l", "ff->f"]
    assert loops_generated(ufunc) == [False, False, False]
    with no_allocation_leak():
        result = ufunc(np.arange(5, dtype=np.float32), np.float32(0.5))
    assert result.dtype == np.float32 and result.tolist() == [0.5, 3.5, 6.5, 9.5, 12.5]
    assert loops_generated(ufunc) == [False, False, True]
    for dtype in (np.float64, np.int64, np.float32, np.int32, np.bool_):
        a = np.arange(-4, 4).astype(dtype)
        expected = np.vectorize(scale_and_shift, otypes=[ufunc(a, a).dtype])(a, a)
        assert np.array_equal(ufunc(a, a), expected)
    assert ufunc.reduce(np.arange(4.0)) == scale_and_shift(
        scale_and_shift(scale_and_shift(0.0, 1.0), 2.0), 3.0
    )
    assert loops_generated(ufunc) == [True, True, True]


def test_compiled_callers_need_no_loop_code():
    ufunc = vectorize(SIGNATURES)(scale_and_shift)

    @njit
    def call(a, b):
        return ufunc(a, b) + ufunc(a[0], b[0])

    a = np.arange(3.0)
    assert np.array_equal(call(a, a), scale_and_shift(a, a) + 0.0)
    assert loops_generated(ufunc) == [False, False, False]


def test_typing_errors_come_from_the_decorator():
    def broken(x):
        return x.foo

    with pytest.raises(TypingError, match="(?i)unknown attribute 'foo'"):
        vectorize(["float64(float64)"])(broken)
    with pytest.raises(TypeError):  # a signature of the wrong arity
        vectorize(["float64(float64, float64)"])(lambda x: x)
    with pytest.raises(TypingError):  # a return type the result does not convert to
        vectorize(["float64(float64)"])(lambda x: (x, x))


def test_the_loops_read_the_namespace_of_the_decoration():
    global FACTOR
    ufunc = vectorize(["float64(float64, float64)"])(scale_and_shift)
    FACTOR = 100
    try:
        assert ufunc(1.0, 0.0) == 3.0
    finally:
        FACTOR = 3


def test_a_first_call_from_many_threads():
    ufunc = vectorize(["float64(float64)"])(lambda x: x * 0.5)
    results = []
    barrier = threading.Barrier(8)

    def call(value):
        barrier.wait()
        results.append(ufunc(np.full(1000, value)).sum())

    threads = [threading.Thread(target=call, args=(float(i),)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [i * 500.0 for i in range(8)]


def test_without_return_types_the_loops_compile_when_decorated():
    ufunc = vectorize([(float64, float64)])(scale_and_shift)
    assert loops_generated(ufunc) == [True]
    assert ufunc(1.0, 2.0) == 5.0


def test_a_pickle_made_before_the_first_call_works():
    ufunc = vectorize(SIGNATURES)(scale_and_shift)
    clone = pickle.loads(pickle.dumps(ufunc))
    assert clone(np.arange(3), 1).tolist() == [1.0, 4.0, 7.0]
