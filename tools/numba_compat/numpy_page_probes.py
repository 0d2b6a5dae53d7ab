"""The probes of numpy_page.py: per entry of Numba's NumPy page, small functions that taipan
compiles and runs, compared with CPython running them with NumPy.

A probe is a Python expression (or a function body, when it holds a newline) over the fixture
names of ``fixtures()``; its parameters are the fixtures it names, made afresh for each side so
that in-place changes compare too. ``(probe, reference)`` pairs compare with a different
expression run by NumPy, where Numba documents behaviour NumPy lacks (or NumPy removed the
spelling). Random probes seed both sides first. Entries with behaviour that no expression shows
(record subtyping, memoryview arguments) have a function in ``CUSTOM``.
"""

from __future__ import annotations

import math
import re
import traceback
import warnings

import numpy as np
from numpy_page_probes_table import PROBES, REMOVED, ufunc_probes

import taipan

# Constants the probes read as globals.
FIELDS = ("a", "b")


def fixtures() -> dict:
    """Fresh arguments, by name."""
    record = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex128), ("d", "f8", 3)])
    records = np.zeros(3, record)
    records["a"] = [1.5, -2.0, 0.25]
    records["b"] = [3, 4, 5]
    records["c"] = [1 + 1j, 2 - 1j, 0.5j]
    records["d"] = np.arange(9.0).reshape(3, 3)
    aligned = np.dtype([("ival", np.int32), ("fval", np.float64)], align=True)
    return {
        "f1": np.array([1.5, -2.25, 3.0, 0.5, 4.75, -0.125]),
        "f2": (np.arange(12.0) * 0.75 - 3.0).reshape(3, 4),
        "f3": np.arange(24.0).reshape(2, 3, 4) - 7.5,
        "n1": np.array([1.5, np.nan, 3.0, -0.5, np.nan, 2.25]),
        "n2": np.array([[1.5, np.nan, 3.0], [-0.5, 4.0, np.nan]]),
        "i1": np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3]),
        "i2": np.arange(12).reshape(3, 4),
        "u1": np.array([7, 3, 9, 1, 5, 8, 2]),
        "c1": np.array([1 + 2j, -0.5 + 1j, 3 - 4j, 0.25 - 0.5j]),
        "c2": np.array([[2 + 1j, 1 - 1j], [0.5j, 3 + 0j]]),
        "b1": np.array([True, False, True, True, False]),
        "z1": np.array([0.0, 0.0, 1.5, 0.0, 2.5, 0.0, 0.0]),
        "sq": np.array([[2.0, -1.0, 0.5], [1.0, 3.0, 0.2], [0.0, 0.7, 2.0]]),
        "spd": np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]),
        "tall": np.array([[1.0, 2.0], [3.0, 4.5], [5.0, -1.0], [0.5, 0.25]]),
        "v3": np.array([1.0, -2.0, 0.5]),
        "w3": np.array([0.5, 4.0, -1.0]),
        "k": 2,
        "x": 0.7,
        "n": 5,
        "dt": np.array(["2020-01-01", "2021-03-04", "NaT"], dtype="M8[D]"),
        "td": np.array([3, -2, 7], dtype="m8[h]"),
        "rec": records[1],
        "recs": records,
        "arec": np.ones(2, aligned),
        "coef": np.array([1.0, -2.0, 0.5]),
        "coef2": np.array([[1.0, 2.0], [-0.5, 0.25], [3.0, 1.0]]),
        "g": np.random.default_rng(1234),
        "sbytes": np.array([b"ab", b"cde", b""]),
        "e5": np.arange(2 * 3 * 4 * 5 * 2).reshape(2, 3, 4, 5, 2),
        "ix": np.array([[0, 2], [1, 3]]),
        "e0": np.zeros(0),
        "e2": np.zeros((0, 3)),
        "f32": np.array([1.5, -2.25, 3.0, 0.5], dtype=np.float32),
        "herm": np.array([[2.0, 1 - 1j], [1 + 1j, 3.0]]),
        "iy": np.array([[1, 0], [4, 2]]),
    }


_FIXTURE_NAMES = set(fixtures())
_IDENTIFIER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)")


def _parameters(source: str) -> list[str]:
    names = []
    for name in _IDENTIFIER.findall(re.sub(r"(['\"]).*?\1", "", source)):
        if name in _FIXTURE_NAMES and name not in names:
            names.append(name)
    return names


def _function(source: str, seed: int | None):
    """A Python function of the fixtures ``source`` names, returning its value."""
    parameters = _parameters(source)
    body = source if "\n" in source else f"return {source}"
    if seed is not None:
        body = f"np.random.seed({seed})\n" + body
    text = f"def probe({', '.join(parameters)}):\n" + "".join(
        f"    {line}\n" for line in body.splitlines()
    )
    namespace = {
        "np": np,
        "FIELDS": FIELDS,
        "literal_unroll": taipan.literal_unroll,
        "as_strided": np.lib.stride_tricks.as_strided,
        "sliding_window_view": np.lib.stride_tricks.sliding_window_view,
        "P": np.polynomial.polynomial,
        "pu": np.polynomial.polyutils,
        "Polynomial": np.polynomial.Polynomial,
    }
    exec(compile(text, f"<probe {source[:40]!r}>", "exec"), namespace)  # noqa: S102 - our table
    return namespace["probe"], parameters


def _numeric_kind(value) -> str | None:
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    if isinstance(value, (complex, np.complexfloating)):
        return "complex"
    return None


def _close(got, want, rtol: float) -> bool:
    got = np.asarray(got)
    want = np.asarray(want)
    if got.dtype.kind in "fc" or want.dtype.kind in "fc":
        return bool(np.allclose(got, want, rtol=rtol, atol=rtol * 1e-3, equal_nan=True))
    return bool(np.array_equal(got, want))


def disagreement(got, want, rtol: float = 1e-12) -> str | None:
    """None when the compiled result ``got`` matches NumPy's ``want``, else why not."""
    if isinstance(want, np.ndarray):
        if not isinstance(got, np.ndarray):
            return f"returned {type(got).__name__}, NumPy an array"
        if got.shape != want.shape:
            return f"shape {got.shape}, NumPy {want.shape}"
        if got.dtype != want.dtype:
            return f"dtype {got.dtype}, NumPy {want.dtype}"
        if want.dtype.names:
            for field in want.dtype.names:
                why = disagreement(got[field], want[field], rtol)
                if why:
                    return f"field {field}: {why}"
            return None
        if want.dtype.kind in "SUMm":
            return (
                None
                if np.array_equal(got, want, equal_nan=want.dtype.kind in "Mm")
                else ("values differ")
            )
        return None if _close(got, want, rtol) else f"values differ: {got!r} vs {want!r}"[:300]
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return f"returned {type(got).__name__}, NumPy {type(want).__name__} of {len(want)}"
        for index, (a, b) in enumerate(zip(got, want)):
            why = disagreement(a, b, rtol)
            if why:
                return f"item {index}: {why}"
        return None
    kind = _numeric_kind(want)
    if kind is not None:
        if _numeric_kind(got) != kind:
            return f"returned {type(got).__name__} {got!r}, NumPy {type(want).__name__} {want!r}"
        return None if _close(got, want, rtol) else f"{got!r} vs NumPy's {want!r}"
    if isinstance(want, (np.datetime64, np.timedelta64)):
        same = type(got) is type(want) and (got == want or (np.isnat(got) and np.isnat(want)))
        return None if same else f"{got!r} vs NumPy's {want!r}"
    if isinstance(want, np.void):
        return disagreement(np.array([got])[0:1], np.array([want])[0:1], rtol)
    if isinstance(want, np.dtype) or want is None or isinstance(want, (str, bytes)):
        return None if got == want else f"{got!r} vs NumPy's {want!r}"
    if isinstance(want, np.polynomial.Polynomial):
        if not isinstance(got, np.polynomial.Polynomial):
            return f"returned {type(got).__name__}"
        return disagreement(
            (got.coef, got.domain, got.window), (want.coef, want.domain, want.window), rtol
        )
    try:
        return None if got == want else f"{got!r} vs NumPy's {want!r}"
    except Exception as error:  # noqa: BLE001 - a comparison that fails is a disagreement
        return f"cannot compare {type(got).__name__} with {type(want).__name__}: {error}"


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:240]


def run_variant(variant) -> str | None:
    """None when one probe agrees with NumPy, else the reason."""
    if callable(variant):
        try:
            return variant()
        except Exception as error:  # noqa: BLE001 - the reason is reported
            return _first_line(error)
    options = {}
    if isinstance(variant, dict):
        options = variant
        variant = options["probe"]
    source, reference = variant if isinstance(variant, tuple) else (variant, variant)
    seed = options.get("seed")
    rtol = options.get("rtol", 1e-12)
    probe, parameters = _function(source, seed)
    expected_function, expected_parameters = _function(reference, seed)
    arguments = fixtures()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = expected_function(*[arguments[p] for p in expected_parameters])
            want_error = None
        except Exception as error:  # noqa: BLE001 - the compiled side must raise it too
            want, want_error = None, error
    arguments = fixtures()
    compiled = taipan.njit(probe)
    try:
        got = compiled(*[arguments[p] for p in parameters])
    except Exception as error:  # noqa: BLE001 - the reason is reported
        if want_error is not None and isinstance(error, type(want_error)):
            return None
        return f"`{source.splitlines()[-1].strip()}`: {_first_line(error)}"
    if want_error is not None:
        return f"`{source}`: NumPy raises {_first_line(want_error)}, taipan returned {got!r}"
    why = disagreement(got, want, rtol)
    return None if why is None else f"`{source.splitlines()[-1].strip()}`: {why}"


def _record_subtyping_signature():
    narrow = np.array([1.0], dtype=[("a", "f8")])[0]
    wide = np.array([(2.0, 3.0)], dtype=[("a", "f8"), ("b", "f8")])[0]
    function = taipan.njit(taipan.float64(taipan.typeof(narrow)))(lambda rec: rec["a"])
    return disagreement(function(wide), function.py_func(wide))


def _record_subtyping_disabled():
    narrow = np.array([1.0], dtype=[("a", "f8")])[0]
    wide = np.array([(2.0, 3.0)], dtype=[("a", "f8"), ("b", "f8")])[0]
    function = taipan.njit(lambda rec: rec["a"] * 2)
    function(narrow)
    function.disable_compile()
    return disagreement(function(wide), function.py_func(wide))


def _shuffle_buffer(make):
    """np.random.shuffle of a buffer-providing object, seeded, against NumPy's shuffle of the
    same values as an array."""

    def check():
        def shuffle(buffer):
            np.random.seed(5)
            np.random.shuffle(buffer)

        values = np.arange(20, dtype=np.int64)
        buffer = make(values.copy())
        taipan.njit(shuffle)(buffer)
        expected = values.copy()
        shuffle(expected)
        return disagreement(np.asarray(buffer).view(np.int64).copy(), expected)

    return check


def _bytearray_shuffle():
    def shuffle(buffer):
        np.random.seed(5)
        np.random.shuffle(buffer)

    buffer = bytearray(range(20))
    taipan.njit(shuffle)(buffer)
    expected = np.arange(20, dtype=np.uint8)
    shuffle(expected)
    return disagreement(np.frombuffer(buffer, np.uint8).copy(), expected)


CUSTOM = {
    "record subtyping": [_record_subtyping_signature, _record_subtyping_disabled],
}


def variants_of(name: str) -> list:
    if name.startswith("ufunc "):
        return ufunc_probes(name.split()[1])
    variants = list(PROBES.get(name, [])) + list(CUSTOM.get(name, []))
    if name == "numpy.random.shuffle":
        variants += [_shuffle_buffer(memoryview), _bytearray_shuffle]
    return variants


def measure(name: str) -> dict:
    """The entry's status (✅/partial/❌/n/a), probe count and reason."""
    if name in REMOVED:
        return {"status": "n/a", "probes": 0, "reason": REMOVED[name]}
    variants = variants_of(name)
    if not variants:
        return {"status": "❌", "probes": 0, "reason": "no probe written"}
    failures = []
    for variant in variants:
        try:
            why = run_variant(variant)
        except Exception:  # noqa: BLE001 - a broken probe is a failure to report
            why = "probe error: " + traceback.format_exc().strip().splitlines()[-1]
        if why:
            failures.append(why)
    passed = len(variants) - len(failures)
    if not failures:
        status = "✅"
    elif passed:
        status = "partial"
    else:
        status = "❌"
    reason = ""
    if failures:
        reason = f"{len(failures)} of {len(variants)} fail; " + failures[0]
    return {"status": status, "probes": len(variants), "reason": reason[:400]}


__all__ = ["disagreement", "fixtures", "math", "measure"]
