"""examples/quaternion: the Quaternion type of github.com/gmarkall/extending-numba-cuda, whose
attributes are lowered with an llvmlite IRBuilder calling taipan's math.atan and math.asin
(``context.get_function``), in a CUDA kernel and in CPU code.

Here: the CPU lowering against Python's properties, the kernel's PTX through ptxas (the device
functions inlined), the kernel in the simulator. ``python examples/quaternion/quaternion.py``
runs it on a GPU."""

import os
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path
from ptx_assembly import PTXAS, ptxas

from taipan import cuda, njit, types
from taipan.errors import TypingError
from taipan.runtime import live_blocks

pytest.importorskip("llvmlite")

FOLDER = os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", "examples", "quaternion")
)
sys.path.insert(0, FOLDER)

import quaternion as example


def test_the_lowered_attributes_are_pythons_properties():
    components = example.sample_components(2000, seed=3)
    # edge cases: zero products (a negative zero from theta's negation), signed zeros
    components[1] = [1.0, 0.0, 0.0, 0.0]
    components[2] = [-0.0, 0.0, -0.0, 1.0]
    out = np.zeros((len(components), 3))
    before = live_blocks()
    example.angles_cpu(components, out)
    assert live_blocks() == before
    expected = example.python_angles(components)
    np.testing.assert_array_equal(out, expected)  # the same libm calls, bit for bit
    assert np.signbit(out[1, 1]) == np.signbit(expected[1, 1])
    np.testing.assert_allclose(out[0], [-0.94688683, -0.52359878, -0.40259505], rtol=1e-8)


def test_a_zero_denominator_follows_the_lowerings_ieee_division():
    """The lowering divides with builder.fdiv, as the original example does: where Python's
    property raises ZeroDivisionError, atan's argument is an infinity."""
    components = np.array([[1.0, 1.0, 0.0, 0.0], [1.0, -1.0, 0.0, 0.0]])
    out = np.zeros((2, 3))
    example.angles_cpu(components, out)
    assert out[0, 0] == np.pi / 2 and out[1, 0] == -np.pi / 2
    with pytest.raises(ZeroDivisionError):
        _ = example.Quaternion(1.0, 1.0, 0.0, 0.0).phi


def test_construction_types_and_unknown_attributes():
    @njit
    def members(a, b):
        q = example.Quaternion(a, b, 0.5, 0.25)
        return q.a, q.b, q.c, q.d

    assert members(1.0, 2.0) == (1.0, 2.0, 0.5, 0.25)

    @njit
    def unknown(a):
        return example.Quaternion(a, a, a, a).omega

    with pytest.raises(TypingError, match="omega") as info:
        unknown(1.0)
    assert ".omega" in str(info.value)  # the user's line

    @njit
    def from_integers(a):
        return example.Quaternion(a, a, a, a).phi  # the typer takes floats only

    with pytest.raises(TypingError):
        from_integers(1)


@pytest.mark.skipif(not os.path.exists(PTXAS), reason="ptxas not installed")
def test_the_kernel_assembles_with_the_math_inlined(tmp_path):
    signature = (types.float64[:, ::1], types.float64[:, ::1])
    ptx, _ = cuda.compile_ptx(example.angles_kernel.py_func, signature, cc=(9, 0))
    ptxas(ptx, tmp_path)
    # atan and asin were compiled as device functions and inlined: no calls, no foreign code
    assert ".extern" not in ptx and "call." not in ptx
    assert ptx.count("st.global.f64") == 3


def test_the_kernel_runs_in_the_simulator():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env.update(TAIPAN_ENABLE_CUDASIM="1", PYTHONPATH=child_python_path())
    result = subprocess.run(
        [sys.executable, os.path.join(FOLDER, "quaternion.py"), "--count", "600"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS  kernel vs Python on 600" in result.stdout
    assert "PASS  CPU vs Python on 600" in result.stdout
