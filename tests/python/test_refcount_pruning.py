"""Reference-count pruning (target/RefcountPruning): increment/decrement pairs that cancel are
removed within a block and across a block and a later one it dominates and that post-dominates
it, never where something between them may release the block. Values are compared with the
Python function and the runtime's counters; one test reads the IR of a gufunc call's loop."""

import re

import numpy as np

from taipan import guvectorize, njit
from taipan.runtime import live_blocks


def _same(f, *args):
    before = live_blocks()
    got = f(*args)
    expected = f.py_func(*args)
    np.testing.assert_array_equal(got, expected)
    del got
    assert live_blocks() == before


def _loop_blocks(ir):
    """The instructions of each basic block whose label says it is a loop's body."""
    blocks, label = {}, None
    for line in ir.splitlines():
        match = re.match(r"^([\w.]+):", line)
        if match:
            label = match.group(1)
            blocks[label] = []
        elif label is not None:
            blocks[label].append(line)
    return {name: lines for name, lines in blocks.items() if "body" in name}


@guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def _norm(x, out):
    s = 0.0
    for v in x:
        s += v * v
    out[0] = np.sqrt(s)


@njit
def _call_norm(a):
    out = np.empty(a.shape[0])
    _norm(a, out)
    return out


def test_a_gufunc_call_counts_no_references_per_row():
    a = np.arange(40.0).reshape(10, 4)
    before = live_blocks()
    np.testing.assert_allclose(_call_norm(a), np.sqrt((a * a).sum(axis=1)))
    assert live_blocks() == before
    ir = _call_norm.inspect_llvm(_call_norm.signatures[0])
    loops = _loop_blocks(ir)
    assert loops, "no loop body found in the IR"
    for name, lines in loops.items():
        calls = [line for line in lines if "taipan_nrt_incref" in line or "nrt_decref" in line]
        assert not calls, f"{name} counts references: {calls}"


@njit
def _view_outlives_reassigned_base(n):
    a = np.arange(n * 1.0)
    total = 0.0
    for i in range(4):
        v = a[1:]
        a = np.zeros(n) + i  # drops the old base while its view is still used below
        total += v.sum() + a[0]
    return total


def test_a_view_keeps_its_base_when_the_base_variable_is_reassigned():
    for n in (1, 2, 17):
        _same(_view_outlives_reassigned_base, n)


@njit
def _views_across_an_inner_loop(a):
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        row = a[i]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j]
        out[i] = s
    return out


def test_views_taken_before_an_inner_loop_and_dropped_after():
    for shape in ((0, 3), (1, 1), (5, 7)):
        a = np.arange(np.prod(shape) * 1.0).reshape(shape)
        _same(_views_across_an_inner_loop, a)
        _same(_views_across_an_inner_loop, np.asfortranarray(a))


@njit
def _allocation_inside_the_region(a):
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        row = a[i]
        tmp = row * 2.0  # a new block between the row's increment and decrement
        for j in range(tmp.shape[0]):
            out[i] += tmp[j]
    return out


def test_an_allocation_between_the_pair_keeps_both_counts():
    a = np.arange(12.0).reshape(3, 4)
    _same(_allocation_inside_the_region, a)


@njit
def _raise_between(a, k):
    total = 0.0
    for i in range(a.shape[0]):
        row = a[i]
        if i == k:
            raise ValueError("stop")
        total += row.sum()
    return total


def test_a_raise_between_increment_and_decrement_releases_everything():
    a = np.arange(12.0).reshape(4, 3)
    before = live_blocks()
    assert _raise_between(a, -1) == _raise_between.py_func(a, -1)
    for k in range(4):
        try:
            _raise_between(a, k)
        except ValueError as error:
            assert str(error) == "stop"
        else:
            raise AssertionError("no ValueError")
    assert live_blocks() == before


@njit
def _list_of_views(a):
    views = []
    for i in range(a.shape[0]):
        views.append(a[i])
    total = 0.0
    for v in views:
        total += v.sum()
    return total


def test_views_stored_in_a_container_keep_their_counts():
    a = np.arange(20.0).reshape(5, 4)
    _same(_list_of_views, a)
    b = np.arange(20.0).reshape(5, 4)
    before = live_blocks()
    assert _list_of_views(b * 1.0) == _list_of_views.py_func(b)
    assert live_blocks() == before
