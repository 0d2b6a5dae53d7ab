"""The searches written for speed (numpy_library/branch_free.py: binary-search steps as selects
marked ``!unpredictable``; a sorted array searched from its whole range for many keys; the
histogram's bin correction without branches) give NumPy's results: np.searchsorted, np.digitize,
np.interp and np.histogram on sorted and unsorted data, NaN and infinities, ties, values on
and next to the bin edges, every dtype pairing, both sides; allocations balance. The selects
stay selects in the generated code."""

from __future__ import annotations

import numpy as np
import pytest
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.numpy_library.branch_free import choose_unpredictable

SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 1.0, 2.5])


@njit
def searchsorted_left(a, v):
    return np.searchsorted(a, v)


@njit
def searchsorted_right(a, v):
    return np.searchsorted(a, v, side="right")


@njit
def searchsorted_side(a, v, side):
    return np.searchsorted(a, v, side=side)


@njit
def searchsorted_one(a, v):
    return np.array([np.searchsorted(a, v), np.searchsorted(a, v, side="right")])


@njit
def digitize(x, bins):
    return np.digitize(x, bins)


@njit
def digitize_right(x, bins):
    return np.digitize(x, bins, right=True)


@njit
def interp(x, xp, fp):
    return np.interp(x, xp, fp)


@njit
def histogram(a, bins):
    counts, edges = np.histogram(a, bins)
    return np.concatenate((counts.astype(np.float64), edges.astype(np.float64)))


@njit
def histogram_range(a, bins, low, high):
    counts, edges = np.histogram(a, bins, (low, high))
    return np.concatenate((counts.astype(np.float64), edges.astype(np.float64)))


def _sorted_with_specials(rng, n, dtype):
    values = np.concatenate([rng.uniform(-3, 3, n), SPECIALS]).astype(dtype)
    return np.sort(values)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8])
@pytest.mark.parametrize("keys", [3, 50, 2000])  # few keys: NumPy's narrowing; many: whole range
def test_searchsorted_sorted_and_unsorted(dtype, keys):
    rng = np.random.default_rng(keys)
    for n in (0, 1, 2, 7, 64, 300):
        if np.issubdtype(dtype, np.integer):
            a = np.sort(rng.integers(0, 100, n).astype(dtype))
            v = rng.integers(-5, 105, keys).astype(dtype)
        else:
            a = _sorted_with_specials(rng, n, dtype)
            v = np.concatenate([rng.uniform(-4, 4, keys), SPECIALS, a[: n // 2]]).astype(dtype)
        for array in (a, a[::-1].copy(), rng.permutation(a)):
            check_like_numpy(searchsorted_left, array, v)
            check_like_numpy(searchsorted_right, array, v)
            check_like_numpy(searchsorted_side, array, v.reshape(1, -1), "right")
            check_like_numpy(searchsorted_left, array, v.astype(np.float64))


def test_searchsorted_with_nan_in_the_middle_is_numpys():
    """An array not in NumPy's order only because of a NaN before numbers: NumPy's own search."""
    a = np.array([0.0, 1.0, np.nan, 2.0, 3.0] * 20)
    v = np.linspace(-1, 4, 400)
    check_like_numpy(searchsorted_left, a, v)
    check_like_numpy(searchsorted_right, a, v)


def test_searchsorted_scalar_keys():
    rng = np.random.default_rng(5)
    a = _sorted_with_specials(rng, 100, np.float64)
    for key in [*SPECIALS, *a[::7], -10.0, 10.0]:
        check_like_numpy(searchsorted_one, a, key)
        check_like_numpy(searchsorted_one, a.astype(np.float32), np.float32(key))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_digitize_both_directions(dtype):
    rng = np.random.default_rng(11)
    bins = np.linspace(-2, 2, 33).astype(dtype)
    x = np.concatenate([rng.uniform(-3, 3, 500), SPECIALS, bins]).astype(np.float64)
    for edges in (bins, bins[::-1].copy(), np.repeat(bins, 2)):
        check_like_numpy(digitize, x, edges)
        check_like_numpy(digitize_right, x, edges)
        check_like_numpy(digitize, x.astype(dtype), edges)
    check_like_numpy(digitize, x, np.zeros(0))
    check_like_numpy(digitize, x, np.array([1.0, 0.0, 2.0]))  # not monotonic: ValueError


def test_interp_random_and_unsorted_points():
    rng = np.random.default_rng(3)
    for n in (2, 5, 9, 40, 1000):
        xp = np.sort(rng.uniform(0, 10, n))
        fp = np.sin(xp)
        x = np.concatenate([rng.uniform(-1, 11, 3000), xp, [np.nan, np.inf, -np.inf]])
        check_like_numpy(interp, x, xp, fp)
        check_like_numpy(interp, x, rng.permutation(xp), fp)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_histogram_values_on_and_beside_the_edges(dtype):
    rng = np.random.default_rng(7)
    for bins in (1, 3, 50, 97):
        data = rng.uniform(-1.3, 2.9, 2000)
        edges = np.histogram_bin_edges(data, bins)
        near = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
        values = np.concatenate([data, near]).astype(dtype)
        check_like_numpy(histogram, values, bins)
        check_like_numpy(histogram_range, values, bins, -1.0, 2.5)
        check_like_numpy(histogram_range, values, bins, 0.1, 0.3)
    check_like_numpy(histogram, np.full(10, 3.0).astype(dtype), 4)  # one value: ±0.5
    check_like_numpy(histogram, np.zeros(0, dtype), 5)
    check_like_numpy(histogram_range, np.array([0.0, 1e-300]), 3, 0.0, 1e-300)


@njit
def choose_each(flags, a, b):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = choose_unpredictable(flags[i], a[i], b[i])
    return out


def test_choose_unpredictable_is_a_marked_select():
    flags = np.array([True, False, True])
    a = np.array([1.0, 2.0, 3.0])
    b = np.array([-1.0, -2.0, -3.0])
    assert choose_each(flags, a, b).tolist() == [1.0, -2.0, 3.0]
    ir = choose_each.inspect_llvm(choose_each.signatures[0])
    assert "!unpredictable" in ir


def test_bisect_steps_stay_selects():
    """digitize's search loop compiles to conditional moves, not a branch per step."""
    digitize(np.zeros(3), np.linspace(0, 1, 5))
    asm = digitize.inspect_asm(digitize.signatures[0])
    assert "cmov" in asm


@njit
def bincount(x, minlength):
    return np.bincount(x, minlength=minlength)


@njit
def bincount_weighted(x, w):
    return np.bincount(x, w)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.uint32, np.bool_])
def test_bincount_counts_and_errors(dtype):
    rng = np.random.default_rng(9)
    for n in (0, 1, 7, 1000):
        x = rng.integers(0, 2 if dtype is np.bool_ else 200, n).astype(dtype)
        for minlength in (0, 5, 300):
            check_like_numpy(bincount, x, minlength)
        if n:  # NumPy gives int64 for no values even with weights: a type known only then
            check_like_numpy(bincount_weighted, x, rng.random(n))
    if np.issubdtype(dtype, np.signedinteger):
        check_like_numpy(bincount, np.array([3, -1, 2], dtype), 0)  # negative: ValueError
        check_like_numpy(bincount, np.array([3, 1, 2], dtype), -1)  # minlength < 0 first
        check_like_numpy(bincount, np.array([-3], dtype), -1)


@pytest.mark.parametrize(
    "center, spread, bins",
    [
        (0.0, 1.0, 50),
        (1e6, 1e-6, 50),  # far from zero: the estimate's margin grows with |first| / width
        (-3e9, 1e-3, 1000),
        (1e15, 16.0, 7),
        (0.0, 1e-300, 10),  # widths near the denormals: every bin checked against the edges
        (5.0, 2.0, 100_000),
    ],
)
def test_histogram_estimates_against_numpy(center, spread, bins):
    """Values whose estimated bin is taken without reading the edges (far from an edge) and
    values on, beside and between edges, against NumPy's np.histogram."""
    rng = np.random.default_rng(bins)
    data = center + spread * rng.random(20_000)
    edges = np.histogram_bin_edges(data, bins)
    near = np.concatenate(
        [
            edges,
            np.nextafter(edges, -np.inf),
            np.nextafter(edges, np.inf),
            (edges[1:] + edges[:-1]) / 2,
        ]
    )
    values = np.concatenate([data, near[(near >= data.min()) & (near <= data.max())]])
    check_like_numpy(histogram, values, bins)
    low, high = float(values.min()), float(values.max())
    check_like_numpy(histogram_range, values, bins, low, high)
    check_like_numpy(histogram_range, values, bins, low - spread / 3, high + spread / 7)


def _numpy25_binsearch(a, key, right):
    """NumPy 2.5's binsearch (npysort/binsearch.cpp) in Python, for one key: every key probes
    the whole range; NaN sorts last."""

    def before(x, y):  # x < y (left) or x <= y (right), NaN last
        if right:
            return not (np.isnan(x) or x > y) if not np.isnan(y) else True
        return not np.isnan(x) and (np.isnan(y) or x < y)

    interval = len(a)
    if interval == 0:
        return 0
    base = 0
    while interval > 1:
        half = interval >> 1
        interval -= half
        if before(a[base + half], key):
            base += half
    return base + (1 if before(a[base], key) else 0)


def test_whole_range_search_is_numpy_2_5s_on_unsorted_arrays():
    """The search taipan uses with NumPy >= 2.5 installed probes as NumPy 2.5 does, so unsorted
    arrays (reversed, permuted, a NaN in the middle) give NumPy 2.5's answers; sorted arrays give
    the one right answer (the installed NumPy's)."""
    from taipan.numpy_library import search

    whole = search.whole_range_searcher(False)

    @njit
    def search_whole(a, keys, right):
        out = np.empty(keys.shape[0], np.int64)
        for k in range(keys.shape[0]):
            out[k] = whole(a, a, keys[k], right)
        return out

    rng = np.random.default_rng(25)
    for n in (0, 1, 2, 3, 7, 64, 301):
        ordered = _sorted_with_specials(rng, n, np.float64)
        keys = np.concatenate([rng.uniform(-4, 4, 40), SPECIALS, ordered[: n // 2]])
        for a in (ordered, ordered[::-1].copy(), rng.permutation(ordered)):
            for right in (False, True):
                expected = [_numpy25_binsearch(a, key, right) for key in keys]
                assert search_whole(a, keys, right).tolist() == expected
        for right in (False, True):
            side = "right" if right else "left"
            assert search_whole(ordered, keys, right).tolist() == (
                np.searchsorted(ordered, keys, side=side).tolist()
            )
    nan_middle = np.array([0.0, 1.0, np.nan, 2.0, 3.0] * 20)
    keys = np.linspace(-1, 4, 400)
    expected = [_numpy25_binsearch(nan_middle, key, False) for key in keys]
    assert search_whole(nan_middle, keys, False).tolist() == expected
    assert search.WHOLE_RANGE_PROBES == (np.lib.NumpyVersion(np.__version__) >= "2.5.0.dev0")
