"""tools/numba_compat/numpy_page.py: every entry of Numba's NumPy page has probes (or NumPy no
longer has it), and the comparison it makes tells agreement from disagreement."""

import sys
from pathlib import Path

import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "numba_compat"
sys.path.insert(0, str(TOOLS))

import numpy_page
import numpy_page_probes
from numpy_page_probes_table import REMOVED


def test_every_entry_of_the_page_has_probes():
    entries = numpy_page.read_entries()
    names = [entry["name"] for entry in entries]
    assert len(names) == len(set(names)) and len(names) > 400
    assert "numpy.linalg.svd" in names and "ufunc arctan2" in names
    assert "record subtyping" in names and "Generator.zipf" in names
    missing = [n for n in names if n not in REMOVED and not numpy_page_probes.variants_of(n)]
    assert not missing


@pytest.mark.parametrize(
    "got, want",
    [
        (np.array([1.0, 2.0]), np.array([1.0, 2.0], np.float32)),  # dtype
        (np.array([1.0, 2.0]), np.array([[1.0, 2.0]])),  # shape
        (np.array([1.0, 2.0]), np.array([1.0, 2.5])),  # values
        (1, 1.0),  # kind of number
        ((1.0, 2.0), (1.0,)),  # length
        (2.0, np.float64(2.0000001)),
    ],
)
def test_disagreements_are_found(got, want):
    assert numpy_page_probes.disagreement(got, want)


@pytest.mark.parametrize(
    "got, want",
    [
        (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
        (3, np.int64(3)),
        (2.5, np.float64(2.5)),
        ((np.arange(3), True), (np.arange(3), np.True_)),
    ],
)
def test_agreements_are_found(got, want):
    assert numpy_page_probes.disagreement(got, want) is None


def test_a_probe_runs_compiled_and_compares_with_numpy():
    assert numpy_page_probes.measure("numpy.diag")["status"] == "✅"
    assert numpy_page_probes.run_variant("np.sort(f1)") is None
    # a probe whose compiled result differs from NumPy's is reported, not passed
    assert numpy_page_probes.run_variant(("np.sort(f1)", "np.sort(f1)[::-1]"))
