"""float(text) of a constant text is decided while compiling (kernels have no strings): the
same value as CPython's float() for every form it folds (signs, spaces, inf, infinity, nan in
any case, points, exponents, out-of-range magnitudes), the run-time parse for the others
(underscores, errors), and float("nan") in a kernel assembled by ptxas."""

import math
import struct

import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, types

TEXTS = [
    "nan", "-nan", "+NaN", "inf", "-inf", "Infinity", "-INFINITY", " 1.5e3 ", "\t-0.0\n", ".5",
    "5.", "1e308", "1e309", "-1e400", "1e-320", "4.9e-324", "2e-324", "0.1", "123456789012345678",
    "3.141592653589793238462643383279", "1E+5", "7e-0", "0", "-0",
]  # fmt: skip
FALLBACK = ["1_000.5", "0x10", "", "  ", "e5", "1e", "1.2.3", "in f", "nanx"]


def _bits(value):
    return struct.pack("<d", value)


@pytest.mark.parametrize("text", TEXTS)
def test_folded_texts_give_cpythons_value(text):
    function = njit(eval(f"lambda: float({text!r})"))  # a constant text in the source
    assert _bits(function()) == _bits(float(text)) or (
        math.isnan(function()) and math.isnan(float(text))
    )
    if math.isnan(float(text)):
        assert math.copysign(1, function()) == math.copysign(1, float(text))


@pytest.mark.parametrize("text", FALLBACK)
def test_other_texts_parse_at_run_time(text):
    function = njit(eval(f"lambda: float({text!r})"))
    try:
        expected = float(text)
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error).split(":")[0]):
            function()
        return
    assert function() == expected


def _kernel(out):
    out[0] = float("nan")
    out[1] = float("-inf")
    out[2] = float("2.5")


@needs_ptxas
def test_kernels_take_constant_texts(tmp_path):
    ptx, _ = cuda.compile_ptx(_kernel, (types.float64[:],), cc=(9, 0))
    ptxas(ptx, tmp_path)
