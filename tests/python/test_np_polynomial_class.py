"""np.polynomial.Polynomial in compiled code: made from 1-D arrays of any real dtype
(coefficients alone, or with a domain and a window), returned to Python as NumPy's Polynomial
(equal to the one Python makes), its coef/domain/window read in compiled code as float64
arrays; Numba's errors for wrong shapes. Counters checked."""

import numpy as np
import pytest
from numpy.polynomial import Polynomial

import taipan
from taipan.errors import TypingError
from taipan.runtime import live_blocks


@taipan.njit
def from_coefficients(c):
    return Polynomial(c)


@taipan.njit
def from_all(c, domain, window):
    return Polynomial(c, domain, window)


@taipan.njit
def members(c, domain, window):
    p = Polynomial(c, domain, window)
    return p.coef, p.domain, p.window


@taipan.njit
def default_members(c):
    p = Polynomial(c)
    return p.coef.sum(), p.domain, p.window


COEFFICIENTS = [
    np.array([0, 1]),
    np.array([1.5, -0.0, np.nan]),
    np.array([3], dtype=np.int8),
    np.arange(10.0)[::3],
    np.zeros(0),
]


def same_polynomial(got, expected):
    assert type(got) is Polynomial
    for name in ("coef", "domain", "window"):
        g, e = getattr(got, name), getattr(expected, name)
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("c", COEFFICIENTS, ids=repr)
def test_made_like_numpys(c):
    before = live_blocks()
    if c.size:  # NumPy's Polynomial of no coefficients is refused by NumPy itself
        same_polynomial(from_coefficients(c), Polynomial(c))
    for domain in (np.array([0, 1]), np.array([-2.5, 3.0])):
        for window in (np.array([0.0, 1.0]), np.array([-1, 1])):
            if c.size:
                same_polynomial(from_all(c, domain, window), Polynomial(c, domain, window))
            got = members(c, domain, window)
            np.testing.assert_array_equal(got[0], c.astype(np.float64))
            np.testing.assert_array_equal(got[1], domain.astype(np.float64))
            assert got[2].dtype == np.float64
    del got
    assert live_blocks() == before


def test_members_of_the_default_form():
    before = live_blocks()
    total, domain, window = default_members(np.array([1, 2, 3]))
    assert total == 6.0
    np.testing.assert_array_equal(domain, Polynomial([1]).domain)
    np.testing.assert_array_equal(window, Polynomial([1]).window)
    del domain, window
    assert live_blocks() == before


def test_the_members_are_copies():
    domain = np.array([0.0, 1.0])
    p = from_all(np.array([1.0]), domain, domain)
    p.domain[0] = 7.0
    assert domain[0] == 0.0


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.array([1, 2]), np.array([1, 2, 3]), np.array([1, 2])), "Domain has wrong number"),
        ((np.array([1, 2]), np.array([1, 2]), np.array([1, 2, 3])), "Window has wrong number"),
    ],
)
def test_wrong_lengths_are_value_errors(args, message):
    with pytest.raises(ValueError, match=message):
        from_all(*args)


def test_wrong_shapes_are_typing_errors():
    with pytest.raises(TypingError, match="Coefficient array is not 1-d"):
        from_all(np.arange(4).reshape(2, 2), np.array([0, 1]), np.array([0, 1]))
    with pytest.raises(ValueError):  # NumPy's refusal of booleans
        Polynomial(np.array([True, False]))
    with pytest.raises(TypingError, match="real numbers"):
        from_coefficients(np.array([True, False]))
    with pytest.raises(TypingError, match="must be an array"):
        from_coefficients(3.0)
    with pytest.raises(TypingError, match="both domain and window"):
        taipan.njit(lambda c, d: Polynomial(c, d))(np.array([1.0]), np.array([0, 1]))
