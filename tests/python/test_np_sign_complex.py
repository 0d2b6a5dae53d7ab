"""np.sign of complex numbers: NumPy 2's z / |z| (0 for 0; NaN parts for a NaN or two infinite
parts; one infinite part gives that part's sign), for arrays and scalars, both widths."""

import numpy as np
import pytest

import taipan
from taipan.runtime import live_blocks

INF, NAN = np.inf, np.nan
VALUES = [
    1 + 2j,
    -0.5 + 1j,
    0j,
    complex(-0.0, 0.0),
    complex(INF, 1),
    complex(-INF, 5),
    complex(1, -INF),
    complex(INF, INF),
    complex(NAN, 1),
    complex(1, NAN),
    3 + 0j,
    -2j,
    1e-310 + 1e-310j,
    1e300 + 1e300j,
]


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_array_sign_matches_numpy(dtype):
    z = np.array(VALUES, dtype=dtype)
    before = live_blocks()
    got = taipan.njit(lambda z: np.sign(z))(z)
    with np.errstate(all="ignore"):
        want = np.sign(z)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2e-7 if dtype == np.complex64 else 1e-15)
    del got
    assert live_blocks() == before


@pytest.mark.parametrize("value", VALUES)
def test_scalar_sign_matches_numpy(value):
    got = taipan.njit(lambda z: np.sign(z))(value)
    with np.errstate(all="ignore"):
        want = complex(np.sign(np.complex128(value)))
    assert type(got) is complex
    np.testing.assert_allclose(got, want, rtol=1e-15)
