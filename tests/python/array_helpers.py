"""Shared helpers for the array tests: sample arrays of every dtype, the same data in several
memory layouts, and comparisons of compiled results with NumPy's."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

INT_DTYPES = ["int8", "int16", "int32", "int64"]
UINT_DTYPES = ["uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float32", "float64"]
COMPLEX_DTYPES = ["complex64", "complex128"]
INTEGER_DTYPES = INT_DTYPES + UINT_DTYPES
REAL_DTYPES = INTEGER_DTYPES + FLOAT_DTYPES
NUMERIC_DTYPES = REAL_DTYPES + COMPLEX_DTYPES
ALL_DTYPES = ["bool"] + NUMERIC_DTYPES


def sample(dtype, shape=(3, 4), seed=0):
    """Deterministic array of ``dtype`` and ``shape`` whose values fit every dtype (small, and
    nonnegative for unsigned types), distinct enough that layout mix-ups show."""
    dtype = np.dtype(dtype)
    size = int(np.prod(shape, dtype=np.int64))
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        data = rng.integers(0, 2, size).astype(bool)
    elif dtype.kind == "u":
        data = rng.permutation(size).astype(dtype) % 100 + 1
    elif dtype.kind == "i":
        data = (rng.permutation(size) % 100 - 40).astype(dtype)
    elif dtype.kind == "f":
        data = (rng.standard_normal(size) * 10).astype(dtype)
    else:
        data = (rng.standard_normal(size) * 10 + 1j * rng.standard_normal(size) * 10).astype(dtype)
    return data.astype(dtype).reshape(shape)


def layouts(a):
    """The data of 2-D array ``a`` in several layouts: (name, array) pairs.  Views of bigger
    arrays keep their strides (not contiguous), negative strides included."""
    big = np.zeros((a.shape[0] * 2, a.shape[1] + 1), dtype=a.dtype)
    big[::2, 1:] = a
    neg = np.zeros_like(a)
    neg[...] = a[::-1, ::-1]
    return [
        ("C", np.ascontiguousarray(a)),
        ("F", np.asfortranarray(a)),
        ("strided", big[::2, 1:]),
        ("negative", neg[::-1, ::-1]),
        ("transposed", np.ascontiguousarray(a.T).T),
    ]


def layouts_1d(a):
    """1-D array ``a`` as contiguous, strided and reversed views."""
    big = np.zeros(a.shape[0] * 3, dtype=a.dtype)
    big[::3] = a
    rev = np.ascontiguousarray(a[::-1])
    return [("C", np.ascontiguousarray(a)), ("strided", big[::3]), ("negative", rev[::-1])]


def _equal_nan(actual, expected):
    if actual.dtype.kind in "fc" or expected.dtype.kind in "fc":
        return np.array_equal(actual, expected, equal_nan=True)
    return np.array_equal(actual, expected)


def assert_array_same(actual, expected, *, rtol=0.0, check_dtype=True):
    """``actual`` is an ndarray equal to ``expected``: same shape, same dtype (unless told
    otherwise), same values (NaN equal to NaN; within ``rtol`` when given)."""
    assert isinstance(actual, np.ndarray), f"expected an ndarray, got {type(actual).__name__}"
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    if check_dtype:
        assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != {expected.dtype}"
    if rtol:
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=0, equal_nan=True)
    else:
        assert _equal_nan(actual, expected), f"\nactual:\n{actual!r}\nexpected:\n{expected!r}"


def assert_value_same(actual, expected, *, rtol=0.0):
    """A scalar (or array) result equal to NumPy's: arrays via ``assert_array_same``; scalars
    by value, NaN equal to NaN, with the same kind (bool / integer / float / complex)."""
    if isinstance(expected, np.ndarray) and expected.ndim > 0:
        assert_array_same(actual, expected, rtol=rtol)
        return
    assert not isinstance(actual, np.ndarray) or actual.ndim == 0, f"got array {actual!r}"
    exp = np.asarray(expected)
    act = np.asarray(actual)
    kinds = {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c"}
    assert kinds[act.dtype.kind] == kinds[exp.dtype.kind], (
        f"{actual!r} ({type(actual).__name__}) vs {expected!r} ({type(expected).__name__})"
    )
    if exp.dtype.kind in "fc":
        if rtol:
            np.testing.assert_allclose(act, exp, rtol=rtol, atol=0, equal_nan=True)
        else:
            assert np.array_equal(act, exp, equal_nan=True), f"{actual!r} != {expected!r}"
    else:
        assert act == exp, f"{actual!r} != {expected!r}"


def compare(f, *args, rtol=0.0, check_dtype=True):
    """``f(*copies)`` equals ``f.py_func(*copies)``; arguments that are arrays are copied for
    each side (keeping layout), and the arrays after the call must agree too (mutation)."""

    def copies():
        out = []
        for arg in args:
            if isinstance(arg, np.ndarray):
                c = np.empty_like(arg, order="K")
                c[...] = arg
                # keep non-contiguous / negative layouts: copy into the same kind of view
                if not (arg.flags.c_contiguous or arg.flags.f_contiguous):
                    c = _same_layout_copy(arg)
                out.append(c)
            else:
                out.append(arg)
        return out

    expected_args = copies()
    actual_args = copies()
    expected = f.py_func(*expected_args)
    actual = f(*actual_args)
    _compare_results(actual, expected, rtol=rtol, check_dtype=check_dtype)
    for a, e in zip(actual_args, expected_args):
        if isinstance(e, np.ndarray):
            assert_array_same(a, e, rtol=rtol)
    return actual


def _compare_results(actual, expected, *, rtol, check_dtype):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), repr(actual)
        for a, e in zip(actual, expected):
            _compare_results(a, e, rtol=rtol, check_dtype=check_dtype)
    elif isinstance(expected, np.ndarray) and expected.ndim > 0:
        assert_array_same(actual, expected, rtol=rtol, check_dtype=check_dtype)
    elif expected is None:
        assert actual is None, repr(actual)
    else:
        assert_value_same(actual, expected, rtol=rtol)


def _same_layout_copy(arg):
    """A fresh array equal to ``arg`` whose strides have the same signs and gaps."""
    steps = tuple(2 if s != 0 else 1 for s in arg.strides)
    base = np.zeros(tuple(n * k for n, k in zip(arg.shape, steps)), dtype=arg.dtype)
    index = tuple(
        slice(None, None, k) if s >= 0 else slice(None, None, -k)
        for s, k in zip(arg.strides, steps)
    )
    view = base[index]
    view[...] = arg
    return view


def run_script(source: str, tmp_path, env=None):
    """Runs ``source`` in a fresh interpreter (for code that may crash the process, or that
    needs environment variables read at import); returns the CompletedProcess."""
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(source))
    full_env = None
    if env is not None:
        full_env = dict(os.environ)
        full_env.update(env)
    return subprocess.run(
        [sys.executable, str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env=full_env,
    )
