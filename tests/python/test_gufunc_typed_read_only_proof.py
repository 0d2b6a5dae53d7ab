"""The parallel in-place gufunc check reads the typed function, not annotation text.

A compiled loop carries ``array_variables``: the locals whose type may hold an array or a view
of one (arrays, records, lists, optionals, tuples holding any of them), read from the typed
function when it is compiled or loaded by typing it again. ``written_operands`` proves
parameters read-only against those names; a loop whose types are unknown proves nothing, so a
written operand can never be taken as read-only.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_gufunc_inplace import _written_in_place

from taipan import guvectorize, njit
from taipan.gufunc_writes import written_operands
from taipan.runtime import live_blocks
from taipan.types import parse_signature


def kinds_of_locals(values, n):
    row = values[0]
    pair = (values, 1)
    maybe = values if n > 0 else None
    items = [values[0]]
    total = 0.0
    count = 0
    label = "x"
    both = (total, count)
    for i in range(n):
        total += values[i, 0]
        count += 1
    return row[0] + pair[1] + total + count + len(label) + len(items) + both[1] + (maybe is None)


def test_array_variables_are_read_from_the_typed_function():
    f = njit(kinds_of_locals)
    before = live_blocks()
    assert f(np.ones((3, 2)), 3) == f.py_func(np.ones((3, 2)), 3)
    assert live_blocks() == before
    (compiled,) = f.overloads.values()
    names = set(compiled.array_variables)
    assert {"values", "row", "pair", "maybe", "items"} <= names
    assert not names & {"total", "count", "label", "both", "i", "n"}


def sums_rows(values, labels, out):
    # `label` is a number: labels stays read-only; `row` is a view of values kept in a local,
    # which the syntactic proof does not follow: values counts as written.
    for i in range(labels.shape[0]):
        label = labels[i]
        row = values[i]
        out[0] += row[0] * label


def writes_through_a_local_view(values, labels, out):
    view = labels[:]
    view[0] = 0
    out[0] = values[0, 0]


def writes_through_a_tuple(values, labels, out):
    pair = (labels, 1)
    pair[0][0] = 0
    out[0] = values[0, 0]


SIGNATURE = "void(float64[:, :], int64[:], float64[:])"


@pytest.mark.parametrize(
    "function, written",
    [(sums_rows, [0, 2]), (writes_through_a_local_view, [1, 2]), (writes_through_a_tuple, [1, 2])],
)
def test_written_operands_follow_the_typed_locals(function, written):
    assert _written_in_place(function, "(m,n),(m),()", SIGNATURE) == written


def test_unknown_types_prove_nothing():
    types = [tuple(parse_signature(SIGNATURE).args)]
    assert written_operands(sums_rows, types, [None]) == [0, 1, 2]
    assert written_operands(sums_rows, types, [[]]) == [2]
    assert written_operands(sums_rows, types, [["row"]]) == [0, 2]
    # A local some loop types as holding an array, assigned an element read: labels may be
    # written through it (the names of every loop count).
    assert written_operands(sums_rows, types * 2, [["row"], ["label"]]) == [0, 1, 2]


def test_parallel_results_with_the_typed_proof():
    gufunc = guvectorize([SIGNATURE], "(m,n),(m),()", target="parallel")(sums_rows)
    serial = guvectorize([SIGNATURE], "(m,n),(m),()", target="cpu")(sums_rows)
    rng = np.random.default_rng(3)
    values = rng.random((500, 4, 3))
    labels = np.arange(4)  # broadcast over the 500 elements: only read
    out, expected = np.zeros(500), np.zeros(500)
    before = live_blocks()
    gufunc(values, labels, out)
    serial(values, labels, expected)
    np.testing.assert_array_equal(out, expected)
    assert live_blocks() == before
