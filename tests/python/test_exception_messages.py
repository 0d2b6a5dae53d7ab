"""Messages of exceptions raised by compiled code are Python's str() of the exception: constants
(frozen globals included) formatted as Python formats them, run-time values too."""

import math

import pytest

from taipan import njit

MESSAGE = "boom"
LIMIT = 1.5


@njit
def raising(x, n, case):
    if case == 0:
        raise ValueError(MESSAGE)
    if case == 1:
        raise ValueError("bad value", x)
    if case == 2:
        raise ValueError(x)
    if case == 3:
        raise ValueError("it's", LIMIT, n, True, None)
    if case == 4:
        assert x < 0, x * 2
    if case == 5:
        raise ValueError()
    if case == 6:
        raise RuntimeError(n, -0.0, 1e22, 1 + 2j)
    if case == 7:
        assert n < 0, "n must be negative"
    if case == 8:
        raise ZeroDivisionError('quote " and \\ backslash', n)
    if case == 9:
        raise ValueError(LIMIT)
    return x


@pytest.mark.parametrize("case", range(10))
@pytest.mark.parametrize(("x", "n"), [(2.5, 3), (float("nan"), -(2**63)), (1e-7, 0)])
def test_message_is_pythons(case, x, n):
    try:
        expected = raising.py_func(x, n, case)
    except Exception as error:  # noqa: BLE001 (any exception: the compiled one must match)
        with pytest.raises(type(error)) as actual:
            raising(x, n, case)
        # pytest adds its explanation to the messages of asserts it rewrote (py_func's).
        assert str(actual.value) == str(error).split("\nassert ")[0]
    else:
        result = raising(x, n, case)
        assert result == expected or (math.isnan(result) and math.isnan(expected))
