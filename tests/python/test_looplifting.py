"""Loop lifting: object-mode functions (forceobj=True, and nopython=False's fallback) run their
outermost loops natively when the loops type; results compared with the interpreter's."""

import warnings

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import jit
from taipan.errors import TaipanWarning


@jit(forceobj=True)
def scale_in_place(a, factor):
    label = object()
    total = 0.0
    for i in range(a.shape[0]):
        a[i] = a[i] * factor
        total += a[i]
    return total, type(label).__name__


def test_loop_modifies_array_in_place():
    for dtype in (np.float64, np.int64, np.float32):
        a = np.arange(20, dtype=dtype)
        b = a.copy()
        with no_allocation_leak():
            got = scale_in_place(a, 3)
        assert got == scale_in_place.py_func(b, 3)
        np.testing.assert_array_equal(a, b)
    assert len(scale_in_place.lifted) == 1
    assert scale_in_place.lifted[0].signatures


@jit(forceobj=True)
def live_outs_feed_later_code(n):
    names = {"x": object()}
    acc = 1
    last = -1
    k = 0
    while k < n:
        acc = (acc * 3 + k) % 1000003
        last = k
        k += 1
    return acc, last, k, len(names), f"{acc}-{last}"


@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_live_outs_feed_later_code(n):
    assert live_outs_feed_later_code(n) == live_outs_feed_later_code.py_func(n)
    assert live_outs_feed_later_code.lifted[0].signatures


@jit(forceobj=True)
def two_loops(a):
    s = 0.0
    for x in a:
        s += x
    text = str(s)
    m = 0.0
    for i in range(len(a)):
        if a[i] > m:  # noqa: PLR1730 (a branch in the lifted loop)
            m = a[i]
    return text, m


def test_two_loops_each_lifted():
    a = np.random.default_rng(0).random(50)
    assert two_loops(a) == two_loops.py_func(a)
    assert len(two_loops.lifted) == 2
    assert all(loop.signatures for loop in two_loops.lifted)


@jit(forceobj=True)
def builds_list(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


@jit(forceobj=True)
def loop_with_return(a):
    for i in range(len(a)):
        if a[i] < 0:
            return i
    return -1


@jit(forceobj=True)
def body_does_not_type(n):
    items = []
    for i in range(n):
        items.append(str(i) + "x" if i % 2 else object())
    return len(items)


def test_loops_that_cannot_be_lifted_stay_interpreted():
    assert builds_list(6) == builds_list.py_func(6)  # a list: changes would be lost
    assert not builds_list.lifted[0].signatures
    a = np.array([1.0, 2.0, -3.0])
    assert loop_with_return(a) == loop_with_return.py_func(a) == 2
    assert loop_with_return.lifted == ()  # return in the loop: never lifted
    assert body_does_not_type(5) == body_does_not_type.py_func(5)


@jit(forceobj=True)
def loop_variable_used_after(n):
    i = -1
    for i in range(n):
        pass
    return i


@pytest.mark.parametrize("n", [0, 3])
def test_loop_variable_used_after(n):
    assert loop_variable_used_after(n) == loop_variable_used_after.py_func(n)


@jit(forceobj=True)
def unbound_after_empty_loop(n):
    for j in range(n):
        pass
    return j  # unbound when n == 0, as in CPython


def test_unbound_live_out_behaves_as_cpython():
    assert unbound_after_empty_loop(4) == 3
    with pytest.raises(UnboundLocalError):
        unbound_after_empty_loop(0)


@jit(forceobj=True)
def raises_in_loop(a):
    for i in range(len(a)):
        if a[i] < 0:
            raise ValueError("negative")
    return 0


def test_exception_from_lifted_loop():
    with pytest.raises(ValueError, match="negative"):
        raises_in_loop(np.array([1.0, -1.0]))


def test_looplift_false_lifts_nothing():
    @jit(forceobj=True, looplift=False)
    def f(a):
        s = 0
        for x in a:
            s += x
        return s

    assert f(np.arange(4)) == 6
    assert f.lifted == ()


def test_nopython_false_falls_back_with_warning():
    @jit(nopython=False)
    def f(a):
        d = {"k": object()}
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s, len(d)

    a = np.arange(10.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert f(a) == f.py_func(a)
    assert any(issubclass(w.category, TaipanWarning) for w in caught)
    (overload,) = f.overloads.values()
    assert len(overload.lifted) == 1


def test_nopython_false_compiles_when_it_types():
    @jit(nopython=False)
    def f(a):
        return a.sum()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(np.arange(5)) == 10
    assert f.nopython_signatures


def test_plain_jit_stays_nopython():
    from taipan.errors import TypingError

    @jit
    def f():
        return {"k": object()}

    with pytest.raises(TypingError):
        f()


def test_inspect_types_names_lifted_loops(capsys):
    scale_in_place(np.arange(3.0), 2)
    scale_in_place.inspect_types()
    out = capsys.readouterr().out
    assert "1 loop(s) lifted" in out
    assert "Loop at line 18: lifted" in out


def test_method_and_dedented_source():
    class Box:
        @jit(forceobj=True)
        def total(self, a):
            s = 0
            for x in a:
                s += x
            return s

    assert Box().total(np.arange(5)) == 10


@jit(forceobj=True)
def nested_breaks_and_widening(a, n):
    marker = object()
    found = -1
    for i in range(n):
        for j in range(n):
            if a[i, j] > 5:
                found = i * 10 + j
                break
        else:
            continue
        break
    else:
        found = -2
    k = 0
    while True:
        k += 1
        if k > 3:
            break
    s = 0
    for _ in range(n):
        s += 0.5
    return found, k, s, type(s), type(marker).__name__


@pytest.mark.parametrize("n", [0, 2, 4])
def test_nested_breaks_and_a_live_out_that_changes_type(n):
    a = np.arange(16).reshape(4, 4)
    assert nested_breaks_and_widening(a, n) == nested_breaks_and_widening.py_func(a, n)
    first, second, widening = nested_breaks_and_widening.lifted
    assert first.signatures and second.signatures
    assert not widening.signatures  # int in, float out: interpreted (keeps the int when n == 0)


def test_closure_variables_are_live_ins():
    scale = 2.5

    @jit(forceobj=True)
    def f(a):
        marker = object()
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * scale
        return s, type(marker).__name__

    a = np.arange(6.0)
    assert f(a) == f.py_func(a)
    assert f.lifted[0].signatures
    assert len(f.signatures) == 1
    assert f.overloads[f.signatures[0]].lifted == f.lifted
