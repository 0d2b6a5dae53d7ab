"""Shared helpers: compare a taipan-compiled function with the Python function it wraps."""

from __future__ import annotations

import gc
import math
import os

import pytest

# A type accessor read on a type of another kind (types/TypeClasses.h) is an internal error in
# the tests rather than an empty value; child processes inherit the setting.
os.environ.setdefault("TAIPAN_STRICT_TYPES", "1")

_PLAIN = (bool, int, float, complex, str, type(None))


def _float_same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _ulps_apart(a: float, b: float) -> int:
    """How many representable doubles lie between two finite floats of the same sign."""
    import struct

    def key(x: float) -> int:
        bits = struct.unpack("<q", struct.pack("<d", x))[0]
        return bits if bits >= 0 else -(bits & 0x7FFFFFFFFFFFFFFF)

    return abs(key(a) - key(b))


def _float_close(a: float, b: float, ulps: int) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    if a == b:
        # zeros must agree in sign only when exactly zero on both sides
        return math.copysign(1.0, a) == math.copysign(1.0, b) or a != 0.0
    return _ulps_apart(a, b) <= ulps


def describe(value) -> str:
    return f"{value!r} ({type(value).__name__})"


def same(actual, expected, *, ulps: int = 0, strict_type: bool = True) -> bool:
    """True when ``actual`` (compiled) matches ``expected`` (CPython).

    ints exactly; floats bitwise (or within ``ulps`` units in the last place), nan == nan,
    signed zeros distinguished; complex componentwise; tuples elementwise.  With
    ``strict_type`` the Python types must agree too (bool is not int, int is not float).
    """
    if isinstance(expected, tuple):
        return (
            isinstance(actual, tuple)
            and len(actual) == len(expected)
            and all(
                same(a, e, ulps=ulps, strict_type=strict_type) for a, e in zip(actual, expected)
            )
        )
    if strict_type and type(expected) in _PLAIN and type(actual) is not type(expected):
        return False
    if isinstance(expected, complex):
        actual = complex(actual)
        return same(actual.real, expected.real, ulps=ulps, strict_type=False) and same(
            actual.imag, expected.imag, ulps=ulps, strict_type=False
        )
    if isinstance(expected, float) or (not strict_type and isinstance(actual, float)):
        try:
            a, e = float(actual), float(expected)
        except (TypeError, ValueError):
            return False
        return _float_close(a, e, ulps) if ulps else _float_same(a, e)
    return actual == expected


def run(fn, *args, **kwargs):
    """(result, None) or (None, exception) for one call."""
    try:
        return fn(*args, **kwargs), None
    except Exception as error:  # noqa: BLE001 - compared by the caller
        return None, error


def assert_same(
    f, *args, ulps: int = 0, strict_type: bool = True, check_message: bool = True, **kwargs
):
    """``f(*args, **kwargs)`` equals ``f.py_func(*args, **kwargs)``; or both raise the same
    exception type (and, with ``check_message``, the same message)."""
    expected, expected_error = run(f.py_func, *args, **kwargs)
    actual, actual_error = run(f, *args, **kwargs)
    where = f"{f.__name__}{args!r}" + (f" {kwargs!r}" if kwargs else "")
    if expected_error is not None:
        assert actual_error is not None, (
            f"{where}: CPython raised {expected_error!r}, taipan returned {describe(actual)}"
        )
        assert type(actual_error) is type(expected_error), (
            f"{where}: CPython raised {expected_error!r}, taipan raised {actual_error!r}"
        )
        if check_message:
            assert str(actual_error) == str(expected_error), (
                f"{where}: CPython raised {expected_error!r}, taipan raised {actual_error!r}"
            )
        return None
    if actual_error is not None:
        raise AssertionError(
            f"{where}: CPython returned {describe(expected)}, taipan raised {actual_error!r}"
        ) from actual_error
    assert same(actual, expected, ulps=ulps, strict_type=strict_type), (
        f"{where}: CPython returned {describe(expected)}, taipan returned {describe(actual)}"
    )
    return actual


def assert_raises_same(f, *args, exc_type=None, message=None, **kwargs):
    """Both raise; same exception type; message equal to ``message`` when given (taipan follows
    Numba's messages where they differ from CPython's), else to CPython's."""
    expected, expected_error = run(f.py_func, *args, **kwargs)
    actual, actual_error = run(f, *args, **kwargs)
    assert expected_error is not None, f"CPython returned {expected!r}"
    assert actual_error is not None, (
        f"taipan returned {describe(actual)}, CPython raised {expected_error!r}"
    )
    wanted_type = exc_type or type(expected_error)
    assert isinstance(expected_error, wanted_type)
    assert type(actual_error) is wanted_type, f"taipan raised {actual_error!r}"
    if message is not None:
        assert str(actual_error) == message, f"taipan raised {actual_error!r}"
    return actual_error


@pytest.fixture(autouse=True)
def _freeze_survivors():
    """After each test, collects its garbage and freezes what survives (dispatchers, compiled
    code, syntax trees), so the allocation checks' ``gc.collect()`` scans only objects the
    running test made. Without it a full collection grows with everything the process ever
    compiled: 16 ms each late in a run, most of the suite's time."""
    yield
    gc.collect()
    gc.freeze()
