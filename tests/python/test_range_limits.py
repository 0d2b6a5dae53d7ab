"""Ranges within a few steps of the int64 limits: loops (constant and variable steps, unrolled
constant ranges), len(), enumerate, zip, ranges held in variables, list(), min/max and
reversed() agree with CPython, where a value one step past the last item would not fit an
int64."""

from __future__ import annotations

import pytest
from conftest import assert_same

from taipan import njit
from taipan.runtime import live_blocks

SMALLEST, LARGEST = -(2**63), 2**63 - 1
CAP = 12  # loops stop after this many items, so that a wrong endless loop still returns
STEPS = [1, -1, 2, -2, 3, -3, 7, -7, 2**62, -(2**62), LARGEST, SMALLEST]


def bounds_for(step):
    """(start, stop) pairs within a few steps of both limits in the step's direction, with
    empty ranges and ranges spanning the whole int64 line."""
    magnitude = abs(step)
    near = [0, 1, 2, 3 * magnitude - 1, 3 * magnitude, 3 * magnitude + 1]
    pairs = []
    for offset in near:
        for back in near:
            if step > 0:
                low, high = SMALLEST + back, LARGEST - back
                pairs += [(low, low + offset), (high - offset, high)]
                pairs += [(high - offset, LARGEST), (SMALLEST, low + offset)]
            else:
                low, high = SMALLEST + back, LARGEST - back
                pairs += [(high, high - offset), (low + offset, low)]
                pairs += [(low + offset, SMALLEST), (LARGEST, high - offset)]
    pairs += [(SMALLEST, LARGEST), (LARGEST, SMALLEST), (0, 0), (LARGEST, LARGEST)]
    pairs += [(SMALLEST, SMALLEST), (-5, 5), (5, -5)]
    fitting = [(a, b) for a, b in pairs if SMALLEST <= a <= LARGEST and SMALLEST <= b <= LARGEST]
    return sorted(set(fitting))


def item_count(r):
    """len(r), which CPython refuses above sys.maxsize."""
    return (r[-1] - r[0]) // r.step + 1 if r else 0


@njit
def items(start, stop, step):
    out = []
    for x in range(start, stop, step):
        out.append(x)
        if len(out) == CAP:
            break
    return out


@njit
def items_held(start, stop, step):
    r = range(start, stop, step)
    out = []
    for x in r:
        out.append(x)
        if len(out) == CAP:
            break
    return out


@njit
def items_else(start, stop, step):
    count = 0
    for x in range(start, stop, step):
        count += 1
        if count == CAP:
            break
    else:
        return -count  # the loop ran out of items
    return count


@njit
def enumerated(start, stop, step):
    out = []
    for k, x in enumerate(range(start, stop, step)):
        out.append((k, x))
        if k + 1 == CAP:
            break
    return out


@njit
def zipped(start, stop, step, back):
    out = []
    for x, y in zip(range(start, stop, step), range(stop, start, back)):
        out.append((x, y))
        if len(out) == CAP:
            break
    return out


@njit
def length(start, stop, step):
    return len(range(start, stop, step))


@njit
def listed(start, stop, step):
    return list(range(start, stop, step))


@njit
def extremes(start, stop, step):
    r = range(start, stop, step)
    return min(r), max(r)


@njit
def backwards(start, stop, step):
    out = []
    for x in reversed(range(start, stop, step)):
        out.append(x)
        if len(out) == CAP:
            break
    return out


@njit
def rising_constant_steps(start, stop):
    """One loop per constant step: each stops at the limit without wrapping."""
    out = []
    for step_items in range(6):
        out.append(-1)
        count = 0
        if step_items == 0:
            for x in range(start, stop, 2):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 1:
            for x in range(start, stop, 3):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 2:
            for x in range(start, stop, 7):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 3:
            for x in range(start, stop, 4611686018427387904):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 4:
            for x in range(start, stop, 9223372036854775807):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        else:
            for x in range(start, stop):
                out.append(x)
                count += 1
                if count == CAP:
                    break
    return out


@njit
def falling_constant_steps(start, stop):
    out = []
    for step_items in range(6):
        out.append(-1)
        count = 0
        if step_items == 0:
            for x in range(start, stop, -2):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 1:
            for x in range(start, stop, -3):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 2:
            for x in range(start, stop, -7):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 3:
            for x in range(start, stop, -4611686018427387904):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        elif step_items == 4:
            for x in range(start, stop, -9223372036854775807 - 1):
                out.append(x)
                count += 1
                if count == CAP:
                    break
        else:
            for x in range(start, stop, -1):
                out.append(x)
                count += 1
                if count == CAP:
                    break
    return out


@njit
def constant_ranges():
    """Constant ranges short enough to be unrolled while lowering."""
    out = []
    for x in range(-9223372036854775807 - 1 + 7, -9223372036854775807 - 1, -3):
        out.append(x)  # noqa: PERF402 (a loop is what is tested)
    out.append(0)
    for x in range(9223372036854775807 - 7, 9223372036854775807, 3):
        out.append(x)  # noqa: PERF402 (a loop is what is tested)
    out.append(0)
    for x in range(-9223372036854775807 - 1, 9223372036854775807, 4611686018427387904):
        out.append(x)  # noqa: PERF402 (a loop is what is tested)
    out.append(0)
    for x in range(9223372036854775807, -9223372036854775807 - 1, -4611686018427387904):
        out.append(x)  # noqa: PERF402 (a loop is what is tested)
    out.append(0)
    for x in range(-9223372036854775807 - 1, 9223372036854775807, 9223372036854775807):
        out.append(x)  # noqa: PERF402 (a loop is what is tested)
    out.append(0)
    for x in range(9223372036854775807, -9223372036854775807 - 1, -9223372036854775807 - 1):
        out.append(x)  # noqa: PERF402 (a loop is what is tested)
    return out


@pytest.fixture
def no_leak():
    before = live_blocks()
    yield
    assert live_blocks() == before


@pytest.mark.parametrize("step", STEPS)
def test_loops_stop_at_the_int64_limits(no_leak, step):
    for start, stop in bounds_for(step):
        assert_same(items, start, stop, step)
        assert_same(items_held, start, stop, step)
        assert_same(items_else, start, stop, step)


def test_the_reported_loop():
    assert items(SMALLEST + 7, SMALLEST, -3) == [SMALLEST + 7, SMALLEST + 4, SMALLEST + 1]
    assert items(LARGEST - 7, LARGEST, 3) == [LARGEST - 7, LARGEST - 4, LARGEST - 1]


def test_constant_steps_stop_at_the_int64_limits(no_leak):
    for start, stop in bounds_for(2) + bounds_for(2**62):
        assert_same(rising_constant_steps, start, stop)
    for start, stop in bounds_for(-2) + bounds_for(-(2**62)):
        assert_same(falling_constant_steps, start, stop)


def test_constant_ranges_at_the_int64_limits(no_leak):
    assert_same(constant_ranges)


@pytest.mark.parametrize("step", STEPS)
def test_len_enumerate_zip_min_max_at_the_int64_limits(no_leak, step):
    # len() above sys.maxsize is CPython's OverflowError; enumerate and zip still walk.
    for start, stop in bounds_for(step):
        assert_same(length, start, stop, step)
        assert_same(enumerated, start, stop, step)
        assert_same(zipped, start, stop, step, -step if step != SMALLEST else LARGEST)
        r = range(start, stop, step)
        if item_count(r) <= 100:
            assert_same(listed, start, stop, step)
            assert_same(extremes, start, stop, step)
        else:  # CPython's min() and max() would walk every item
            assert extremes(start, stop, step) == (min(r[0], r[-1]), max(r[0], r[-1]))


@pytest.mark.parametrize("step", STEPS)
def test_reversed_at_the_int64_limits(no_leak, step):
    for start, stop in bounds_for(step):
        r = range(start, stop, step)
        if item_count(r) > LARGEST:
            continue  # len() of it raises OverflowError, which reversed() reads
        beyond = start - (1 if step > 0 else -1) not in range(SMALLEST, LARGEST + 1)
        if (r and beyond) or (step == SMALLEST and item_count(r) > 1):
            # reversed() of it needs a stop past the int64 limits or a step of 2**63: refused,
            # never wrapped
            with pytest.raises(OverflowError):
                backwards(start, stop, step)
            continue
        assert_same(backwards, start, stop, step)
