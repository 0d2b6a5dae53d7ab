"""np.nanmedian, np.nanpercentile and np.nanquantile (numpy_library/nan_order_statistics.py)
compared with NumPy over dtypes, shapes, layouts, NaN placements and q forms; allocations
balance."""

from __future__ import annotations

import numpy as np
import pytest
from array_helpers import layouts
from numpy_checks import check_like_numpy

from taipan import njit
from taipan.errors import TypingError


@njit
def nanmedian(a):
    return np.nanmedian(a)


@njit
def nanpercentile(a, q):
    return np.nanpercentile(a, q)


@njit
def nanquantile(a, q):
    return np.nanquantile(a, q)


def data(dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((4, 5)) * 10
    if np.dtype(dtype).kind == "f":
        a[rng.random((4, 5)) < 0.3] = np.nan
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", ["int16", "int64", "float32", "float64"])
def test_like_numpy(dtype):
    for _, a in layouts(data(dtype)):
        check_like_numpy(nanmedian, a, rtol=1e-6)
        for q in (0, 30, 50, 99.5, 100, np.array([10.0, 90.0]), [25, 75], (5,)):
            check_like_numpy(nanpercentile, a, q, rtol=1e-6)
            check_like_numpy(nanquantile, a, np.asarray(q) / 100.0, rtol=1e-6)
    check_like_numpy(nanmedian, data(dtype)[1, :3], rtol=1e-6)


def test_all_nan_and_errors():
    every = np.full((2, 3), np.nan)
    check_like_numpy(nanmedian, every)
    check_like_numpy(nanpercentile, every, 40)
    check_like_numpy(nanquantile, every, np.array([0.2, 0.8]))
    check_like_numpy(nanquantile, data("float64"), 1.5)  # NumPy's ValueError
    with pytest.raises(TypingError, match="complex arrays"):
        nanmedian(np.zeros(3, np.complex128))
