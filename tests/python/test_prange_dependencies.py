"""prange loops whose iterations depend on each other through array elements (issue 28, item
7): a write and another access of the same array whose indices, affine in the loop variable,
reach one element in two different iterations make the loop run serially, with a
ParallelSafetyWarning at the loop's line; indices that provably never meet keep it parallel;
an index the analysis cannot decide keeps it parallel, as Numba does, with a note in
parallel_diagnostics(). Every result is compared with py_func under several thread counts."""

import gc
import inspect
import warnings

import numpy as np
import pytest

import taipan
from taipan import njit, prange
from taipan.errors import ParallelSafetyWarning
from taipan.runtime import live_blocks

THREAD_COUNTS = sorted(
    {1, min(2, taipan.config.NUMBA_NUM_THREADS), taipan.config.NUMBA_NUM_THREADS}
)


@pytest.fixture
def thread_counts():
    """Yields the thread counts to run under, restoring the count afterwards."""
    previous = taipan.get_num_threads()
    yield THREAD_COUNTS
    taipan.set_num_threads(previous)


def loop_line(function):
    lines, first = inspect.getsourcelines(function)
    return first + next(i for i, line in enumerate(lines) if "prange" in line)


def loops_of(dispatcher):
    return dispatcher.overloads[dispatcher.signatures[0]].parallel_loops


def copies(args):
    return [arg.copy() if isinstance(arg, np.ndarray) else arg for arg in args]


def run_everywhere(dispatcher, function, args, thread_counts, repeats=5):
    """Runs the compiled function `repeats` times under each thread count; each result must be
    py_func's, and the runtime's blocks must all be freed."""
    expected = function(*copies(args))
    gc.collect()
    before = live_blocks()
    for threads in thread_counts:
        taipan.set_num_threads(threads)
        for _ in range(repeats):
            np.testing.assert_array_equal(dispatcher(*copies(args)), expected)
    gc.collect()
    assert live_blocks() == before


# ---- loops whose iterations depend on each other ----


def issue_example(n):
    a = np.zeros(n, dtype=np.int64)
    for i in prange(1, n):
        a[i] = a[i - 1] + 1
    return a


def copies_previous(a):
    for i in prange(1, a.shape[0]):
        a[i] = a[i - 1]
    return a


def writes_next(a):
    for i in prange(a.shape[0] - 1):
        a[i + 1] = a[i] + 3
    return a


def reads_two_back(a):
    for i in prange(2, a.shape[0]):
        a[i] = a[i - 2] + a[i - 1]
    return a


def rows_from_previous_row(a):
    for i in prange(1, a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = a[i - 1, j] + j
    return a


def row_slices(a):
    for i in prange(1, a.shape[0]):
        a[i, :] = a[i - 1, :] * 3
    return a


def row_views(a):
    for i in prange(1, a.shape[0]):
        row = a[i]
        previous = a[i - 1]
        for j in range(a.shape[1]):
            row[j] = previous[j] + 1
    return a


def through_alias(a):
    b = a
    for i in prange(1, a.shape[0]):
        b[i] = a[i - 1] + 1
    return a


def through_shifted_view(a):
    b = a[1:]
    for i in prange(a.shape[0] - 1):
        b[i] = a[i] + 1
    return a


def reads_whole_array(a):
    for i in prange(a.shape[0]):
        a[i] = a.sum()
    return a


def same_element_every_iteration(a):
    for i in prange(a.shape[0]):
        a[0] = i
    return a


def reads_written_first_element(a):
    for i in prange(a.shape[0]):
        a[i] = a[0] + i
    return a


def adds_previous_in_place(a):
    for i in prange(1, a.shape[0]):
        a[i] += a[i - 1]
    return a


def runs_backwards(a):
    for i in prange(a.shape[0] - 1, 0, -1):
        a[i] = a[i - 1] + 1
    return a


def record_field_from_previous(a):
    for i in prange(1, a.shape[0]):
        a[i]["x"] = a[i - 1]["y"] + 1
    return a


def even_view_reads_next_even(a):
    evens = a[::2]
    for i in prange(evens.shape[0] - 1):
        evens[i] = a[2 * i + 2] + 1
    return a


RECORD = np.dtype([("x", np.int64), ("y", np.int64)])

DEPENDENT = [
    (issue_example, (200,), "a[i - 1] (read at line"),
    (copies_previous, (np.arange(300),), "a[i - 1] (read at line"),
    (writes_next, (np.arange(300),), "writes as a[i + 1]"),
    (reads_two_back, (np.arange(60),), "a[i - 2] (read at line"),
    (rows_from_previous_row, (np.arange(200).reshape(40, 5),), "a[i - 1, j] (read at line"),
    (row_slices, (np.arange(120).reshape(20, 6),), "a[i - 1, :] (read at line"),
    (row_views, (np.arange(200).reshape(40, 5),), "previous[j] (read at line"),
    (through_alias, (np.arange(300),), "writes as b[i]"),
    (through_shifted_view, (np.arange(300),), "writes as b[i]"),
    (reads_whole_array, (np.ones(50, dtype=np.int64),), "a (read at line"),
    (same_element_every_iteration, (np.zeros(100, dtype=np.int64),), "a[0] (written at line"),
    (reads_written_first_element, (np.arange(100),), "a[0] (read at line"),
    (adds_previous_in_place, (np.arange(100),), "a[i - 1] (read at line"),
    (runs_backwards, (np.arange(100),), "a[i - 1] (read at line"),
    (record_field_from_previous, (np.ones(30, RECORD),), "a[i - 1] (read at line"),
    (even_view_reads_next_even, (np.arange(101),), "a[2*i + 2] (read at line"),
]


@pytest.mark.parametrize(
    "function, args, fragment", DEPENDENT, ids=[case[0].__name__ for case in DEPENDENT]
)
def test_dependent_loops_warn_once_and_run_serially(function, args, fragment, thread_counts):
    f = njit(parallel=True)(function)
    with pytest.warns(ParallelSafetyWarning) as record:
        f(*copies(args))
    assert len(record) == 1
    message = str(record[0].message)
    assert "iterations depend on each other through array" in message
    assert fragment in message
    assert record[0].filename == function.__code__.co_filename
    assert record[0].lineno == loop_line(function)
    (loop,) = loops_of(f)
    assert not loop["parallel"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParallelSafetyWarning)  # no second warning
        run_everywhere(f, function, args, thread_counts)


def test_the_reason_names_the_lines_of_both_accesses():
    f = njit(parallel=True)(row_views)
    with pytest.warns(ParallelSafetyWarning) as record:
        f(np.ones((4, 3)))
    first = loop_line(row_views)
    message = str(record[0].message)
    assert f"previous[j] (read at line {first + 4})" in message
    assert f"writes as row[j] (line {first + 4})" in message


# ---- loops whose accesses provably never meet across iterations ----


def odd_from_even(a):
    for i in prange(a.shape[0] // 2):
        a[2 * i + 1] = a[2 * i] * 2
    return a


def each_row_a_recurrence(a):
    for i in prange(a.shape[0]):
        for j in range(1, a.shape[1]):
            a[i, j] = a[i, j - 1] + a[i, j]
    return a


def reads_shifted_other_array(a):
    b = np.zeros_like(a)
    for i in prange(1, a.shape[0]):
        b[i] = a[i - 1]
    return b


def updates_in_place(a):
    for i in prange(a.shape[0]):
        a[i] = a[i] * 2 + 1
    return a


def stride_two_pairs(a):
    for i in prange(0, a.shape[0] - 1, 2):
        a[i + 1] = a[i] + 5
    return a


def reads_first_element_not_written(a):
    for i in prange(1, a.shape[0]):
        a[i] = a[0] * i
    return a


def own_row_views(a):
    for i in prange(a.shape[0]):
        row = a[i]
        for j in range(1, a.shape[1]):
            row[j] = row[j - 1] + 1
    return a


def private_scratch_array(a):
    out = np.empty(a.shape[0])
    for i in prange(a.shape[0]):
        scratch = np.empty(3)
        scratch[0] = a[i]
        scratch[1] = scratch[0] * 2
        scratch[2] = scratch[1] + 1
        out[i] = scratch.sum()
    return out


def transposed_access(a):
    for i in prange(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = a[i, j] + j
    return a


def odd_view_from_even_view(a):
    evens, odds = a[::2], a[1::2]
    for i in prange(odds.shape[0]):
        odds[i] = evens[i] * 3
    return a


def record_fields_of_own_element(a):
    for i in prange(a.shape[0]):
        a[i]["x"] = a[i]["y"] * 2
    return a


INDEPENDENT = [
    (odd_from_even, (np.arange(100),)),
    (each_row_a_recurrence, (np.arange(120).reshape(12, 10),)),
    (reads_shifted_other_array, (np.arange(300),)),
    (updates_in_place, (np.arange(300),)),
    (stride_two_pairs, (np.arange(101),)),
    (reads_first_element_not_written, (np.arange(1, 80),)),
    (own_row_views, (np.arange(60).reshape(6, 10),)),
    (private_scratch_array, (np.arange(50.0),)),
    (transposed_access, (np.arange(40).reshape(8, 5),)),
    (odd_view_from_even_view, (np.arange(101),)),
    (record_fields_of_own_element, (np.ones(30, RECORD),)),
]


@pytest.mark.parametrize("function, args", INDEPENDENT, ids=[c[0].__name__ for c in INDEPENDENT])
def test_independent_loops_stay_parallel_without_notes(function, args, thread_counts):
    f = njit(parallel=True)(function)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParallelSafetyWarning)
        run_everywhere(f, function, args, thread_counts)
    (loop,) = loops_of(f)
    assert loop["parallel"], loop["reason"]
    assert loop["notes"] == []


# ---- loops the analysis cannot decide: parallel, as in Numba, with a note ----


def scatter(a, idx, values):
    for i in prange(idx.shape[0]):
        a[idx[i]] = values[i]
    return a


def may_wrap_around(a):
    for i in prange(a.shape[0] // 2):
        a[2 * i] = a[2 * i - 1]
    return a


def offset_by_argument(a, k):
    for i in prange(a.shape[0] - k):
        a[i + k] = a[i] + 1
    return a


def passes_array_to_function(a):
    for i in prange(a.shape[0]):
        a[i] = element_plus_one(a, i)
    return a


@njit
def element_plus_one(a, i):
    return a[i] + 1


UNDECIDED = [
    (scatter, (np.zeros(20), np.arange(20)[::-1].copy(), np.arange(20.0)), "a[idx[i]]"),
    (may_wrap_around, (np.arange(20),), "may be negative"),
    (offset_by_argument, (np.zeros(40), 20), "differ by variables"),
    (passes_array_to_function, (np.arange(30),), "may be any part of 'a'"),
]


@pytest.mark.parametrize(
    "function, args, fragment", UNDECIDED, ids=[c[0].__name__ for c in UNDECIDED]
)
def test_undecided_loops_stay_parallel_with_a_note(function, args, fragment, capsys):
    f = njit(parallel=True)(function)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParallelSafetyWarning)
        result = f(*copies(args))
    # These cases write disjoint elements for the arguments given, so the result is exact.
    np.testing.assert_array_equal(result, function(*copies(args)))
    (loop,) = loops_of(f)
    assert loop["parallel"]
    assert loop["notes"] and any(fragment in note for note in loop["notes"]), loop["notes"]
    f.parallel_diagnostics()
    text = capsys.readouterr().out
    assert "parallel on the thread pool" in text
    assert "note: " in text and "cannot tell whether they reach the same element" in text
    assert fragment in text


def test_parallel_diagnostics_variable_prints_the_note(monkeypatch, capsys):
    monkeypatch.setattr(taipan.config, "PARALLEL_DIAGNOSTICS", 1)
    f = njit(parallel=True)(scatter)
    f(np.zeros(4), np.arange(4), np.ones(4))
    assert "note: a[idx[i]] (written at line" in capsys.readouterr().err
