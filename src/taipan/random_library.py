"""The random module's variates in compiled code: expovariate, gammavariate, betavariate,
paretovariate, weibullvariate, vonmisesvariate, triangular, lognormvariate and shuffle, as
overloads compiled like any jitted function.

Each is CPython's own algorithm (Lib/random.py, the same draws in the same order and the same
float operations) over random.random(), random.normalvariate() and random.randrange(), which
compiled code takes from the thread's CPython-compatible Mersenne Twister (runtime/Random.cpp):
so a seeded stream gives the interpreter's numbers bit for bit, as Numba's test_random checks
against a CPython generator that follows the compiled one. Imported by taipan.extending the
first time a compiled function refers to a function of the random module."""

import math
import random

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload

_LOG4 = math.log(4.0)
_SG_MAGICCONST = 1.0 + math.log(4.5)
_TWOPI = 2.0 * math.pi


def _require_real(function, *values):
    """A typing error unless each argument is a real number (a type, or a default's value)."""
    for value in values:
        if not isinstance(value, (types.Integer, types.Float, types.Boolean, int, float)):
            raise TypingError(f"random.{function}() takes real numbers, not {value}")


@overload(random.expovariate)
def _expovariate(lambd=1.0):
    _require_real("expovariate", lambd)

    def expovariate(lambd=1.0):
        return -math.log(1.0 - random.random()) / lambd

    return expovariate


@overload(random.gammavariate)
def _gammavariate(alpha, beta):
    _require_real("gammavariate", alpha, beta)

    def gammavariate(alpha, beta):
        if alpha <= 0.0 or beta <= 0.0:
            raise ValueError("gammavariate: alpha and beta must be > 0.0")
        if alpha > 1.0:
            ainv = math.sqrt(2.0 * alpha - 1.0)
            bbb = alpha - _LOG4
            ccc = alpha + ainv
            while True:
                u1 = random.random()
                if not 1e-7 < u1 < 0.9999999:
                    continue
                u2 = 1.0 - random.random()
                v = math.log(u1 / (1.0 - u1)) / ainv
                x = alpha * math.exp(v)
                z = u1 * u1 * u2
                r = bbb + ccc * v - x
                if r + _SG_MAGICCONST - 4.5 * z >= 0.0 or r >= math.log(z):
                    return x * beta
        elif alpha == 1.0:
            return -math.log(1.0 - random.random()) * beta
        while True:
            u = random.random()
            b = (math.e + alpha) / math.e
            p = b * u
            if p <= 1.0:
                x = p ** (1.0 / alpha)
            else:
                x = -math.log((b - p) / alpha)
            u1 = random.random()
            if p > 1.0:
                if u1 <= x ** (alpha - 1.0):
                    break
            elif u1 <= math.exp(-x):
                break
        return x * beta

    return gammavariate


@overload(random.betavariate)
def _betavariate(alpha, beta):
    _require_real("betavariate", alpha, beta)

    def betavariate(alpha, beta):
        y = random.gammavariate(alpha, 1.0)
        if y:
            return y / (y + random.gammavariate(beta, 1.0))
        return 0.0

    return betavariate


@overload(random.paretovariate)
def _paretovariate(alpha):
    _require_real("paretovariate", alpha)

    def paretovariate(alpha):
        u = 1.0 - random.random()
        return u ** (-1.0 / alpha)

    return paretovariate


@overload(random.weibullvariate)
def _weibullvariate(alpha, beta):
    _require_real("weibullvariate", alpha, beta)

    def weibullvariate(alpha, beta):
        u = 1.0 - random.random()
        return alpha * (-math.log(u)) ** (1.0 / beta)

    return weibullvariate


@overload(random.vonmisesvariate)
def _vonmisesvariate(mu, kappa):
    _require_real("vonmisesvariate", mu, kappa)

    def vonmisesvariate(mu, kappa):
        if kappa <= 1e-6:
            return _TWOPI * random.random()
        s = 0.5 / kappa
        r = s + math.sqrt(1.0 + s * s)
        while True:
            u1 = random.random()
            z = math.cos(math.pi * u1)
            d = z / (r + z)
            u2 = random.random()
            if u2 < 1.0 - d * d or u2 <= (1.0 - d) * math.exp(d):
                break
        q = 1.0 / r
        f = (q + z) / (1.0 + q * z)
        u3 = random.random()
        if u3 > 0.5:
            return (mu + math.acos(f)) % _TWOPI
        return (mu - math.acos(f)) % _TWOPI

    return vonmisesvariate


@overload(random.triangular)
def _triangular(low=0.0, high=1.0, mode=None):
    _require_real("triangular", low, high)
    if mode is not None and not isinstance(mode, types.NoneType):
        _require_real("triangular", mode)

    def triangular(low=0.0, high=1.0, mode=None):
        u = random.random()
        lower = float(low)
        upper = float(high)
        if mode is None:
            c = 0.5
        elif upper - lower == 0.0:
            return lower  # CPython's ZeroDivisionError case
        else:
            c = (mode - lower) / (upper - lower)
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            lower, upper = upper, lower
        return lower + (upper - lower) * math.sqrt(u * c)

    return triangular


@overload(random.lognormvariate)
def _lognormvariate(mu, sigma):
    _require_real("lognormvariate", mu, sigma)

    def lognormvariate(mu, sigma):
        return math.exp(random.normalvariate(mu, sigma))

    return lognormvariate


@overload(random.shuffle)
def _shuffle(x):
    if not isinstance(x, (types.List, types.ListType, types.Array)):
        raise TypingError(f"random.shuffle() takes a list or an array, not {x}")
    if isinstance(x, types.Array) and x.ndim == 0:
        raise TypingError("random.shuffle() of a 0-d array: it has no items to shuffle")
    if isinstance(x, types.Array) and x.ndim > 1:

        def shuffle_rows(x):
            # CPython's draws; the rows are swapped whole, as Numba does (CPython's own swap of
            # two row views would copy one row over the other)
            for i in range(len(x) - 1, 0, -1):
                j = random.randrange(i + 1)
                x[i], x[j] = x[j].copy(), x[i].copy()

        return shuffle_rows

    def shuffle(x):
        for i in range(len(x) - 1, 0, -1):
            j = random.randrange(i + 1)
            x[i], x[j] = x[j], x[i]

    return shuffle
