"""NumPy's window functions: np.bartlett, np.blackman, np.hamming, np.hanning and np.kaiser, as
NumPy computes them (float64 arrays of M points; an empty array for M < 1, [1.0] for M = 1).
np.kaiser's Bessel function I0 is Cephes' Chebyshev expansion, as NumPy's np.i0."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.unrolling import literal_unroll


@register_jitable
def _bartlett(M):
    n = np.arange(1.0 - M, M, 2)
    return np.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


@register_jitable
def _blackman(M):
    n = np.arange(1.0 - M, M, 2)
    return 0.42 + 0.5 * np.cos(np.pi * n / (M - 1)) + 0.08 * np.cos(2.0 * np.pi * n / (M - 1))


@register_jitable
def _hamming(M):
    n = np.arange(1 - M, M, 2)
    return 0.54 + 0.46 * np.cos(np.pi * n / (M - 1))


@register_jitable
def _hanning(M):
    n = np.arange(1 - M, M, 2)
    return 0.5 + 0.5 * np.cos(np.pi * n / (M - 1))


def _window(points):
    def window_typer(M):
        if not isinstance(M, types.Integer):
            raise TypingError("M must be an integer")

        def window(M):
            if M < 1:
                return np.empty(0, dtype=np.float64)
            if M == 1:
                return np.ones(1, dtype=np.float64)
            return points(M)

        return window

    return window_typer


overload(np.bartlett)(_window(_bartlett))
overload(np.blackman)(_window(_blackman))
overload(np.hamming)(_window(_hamming))
overload(np.hanning)(_window(_hanning))

# Cephes' coefficients of I0 on [0, 8] and (8, inf), as NumPy's np.i0 has them.
_I0_A = (
    -4.41534164647933937950e-18,
    3.33079451882223809783e-17,
    -2.43127984654795469359e-16,
    1.71539128555513303061e-15,
    -1.16853328779934516808e-14,
    7.67618549860493561688e-14,
    -4.85644678311192946090e-13,
    2.95505266312963983461e-12,
    -1.72682629144155570723e-11,
    9.67580903537323691224e-11,
    -5.18979560163526290666e-10,
    2.65982372468238665035e-9,
    -1.30002500998624804212e-8,
    6.04699502254191894932e-8,
    -2.67079385394061173391e-7,
    1.11738753912010371815e-6,
    -4.41673835845875056359e-6,
    1.64484480707288970893e-5,
    -5.75419501008210370398e-5,
    1.88502885095841655729e-4,
    -5.76375574538582365885e-4,
    1.63947561694133579842e-3,
    -4.32430999505057594430e-3,
    1.05464603945949983183e-2,
    -2.37374148058994688156e-2,
    4.93052842396707084878e-2,
    -9.49010970480476444210e-2,
    1.71620901522208775349e-1,
    -3.04682672343198398683e-1,
    6.76795274409476084995e-1,
)
_I0_B = (
    -7.23318048787475395456e-18,
    -4.83050448594418207126e-18,
    4.46562142029675999901e-17,
    3.46122286769746109310e-17,
    -2.82762398051658348494e-16,
    -3.42548561967721913462e-16,
    1.77256013305652638360e-15,
    3.81168066935262242075e-15,
    -9.55484669882830764870e-15,
    -4.15056934728722208663e-14,
    1.54008621752140982691e-14,
    3.85277838274214270114e-13,
    7.18012445138366623367e-13,
    -1.79417853150680611778e-12,
    -1.32158118404477131188e-11,
    -3.14991652796324136454e-11,
    1.18891471078464383424e-11,
    4.94060238822496958910e-10,
    3.39623202570838634515e-9,
    2.26666899049817806459e-8,
    2.04891858946906374183e-7,
    2.89137052083475648297e-6,
    6.88975834691682398426e-5,
    3.36911647825569408990e-3,
    8.04490411014108831608e-1,
)


@register_jitable
def _chebyshev(x, coefficients):
    b0 = coefficients[0]
    b1 = 0.0
    b2 = 0.0
    for c in literal_unroll(coefficients[1:]):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


@register_jitable
def _i0(x):
    x = abs(x)
    if x <= 8.0:
        return np.exp(x) * _chebyshev(x / 2.0 - 2.0, _I0_A)
    return np.exp(x) * _chebyshev(32.0 / x - 2.0, _I0_B) / np.sqrt(x)


@overload(np.kaiser)
def _kaiser(M, beta):
    if not isinstance(M, types.Integer):
        raise TypingError("M must be an integer")
    if not isinstance(beta, (types.Integer, types.Float)):
        raise TypingError("beta must be an integer or float")

    def kaiser(M, beta):
        if M < 1:
            return np.empty(0, dtype=np.float64)
        if M == 1:
            return np.ones(1, dtype=np.float64)
        n = np.arange(0, M)
        alpha = (M - 1) / 2.0
        out = np.empty(M, dtype=np.float64)
        scale = _i0(np.float64(beta))
        for i in range(M):
            out[i] = _i0(beta * np.sqrt(1 - ((n[i] - alpha) / alpha) ** 2.0)) / scale
        return out

    return kaiser
