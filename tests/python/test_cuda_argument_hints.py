"""numba-cuda's argument hints and handlers: ``cuda.In(a)`` (copied to the device, not back),
``cuda.Out(a)`` (not copied in, copied back), ``cuda.InOut(a)`` (both, a bare host array's
rule), ``wrap_arg``, and ``cuda.jit(extensions=[...])`` / ``kernel.extensions``: objects whose
``prepare_args(ty, val, stream=, retr=)`` may replace each launch argument. The kernel tests
(marked ``cuda``) run on a GPU and, through a child process, in the simulator."""

import os
import subprocess
import sys

import numpy as np
import pytest
from child_processes import child_python_path

from taipan import config, cuda, float64, int32, int64, types, void
from taipan.cuda.api.args import ArgHint, wrap_arg

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
TESTS = os.path.dirname(os.path.abspath(__file__))

RECORD = np.dtype([("b", np.int32), ("c", np.float64)], align=True)


def set_first_to_three(a):
    a[0] = 3


def set_record_to_three(r):
    r[0]["b"] = 3


def add_one_everywhere(out, a):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] + 1


class DefaultIn:
    """numba-cuda's example handler: host arrays are inputs unless said otherwise."""

    def prepare_args(self, ty, val, **kwargs):
        return ty, wrap_arg(val, default=cuda.In)


class Doubling:
    """A handler replacing each float argument by its double, and recording what it saw."""

    def __init__(self):
        self.seen = []

    def prepare_args(self, ty, val, stream=0, retr=None):
        self.seen.append((str(ty), type(val).__name__, retr is not None))
        if isinstance(val, float):
            return ty, val * 2
        return ty, val


def test_hints_wrap_their_value_and_wrap_arg_keeps_a_hint():
    values = np.zeros(3)
    hint = cuda.Out(values)
    assert isinstance(hint, ArgHint) and hint.value is values
    assert wrap_arg(hint) is hint
    assert isinstance(wrap_arg(values), cuda.InOut)
    assert isinstance(wrap_arg(values, default=cuda.In), cuda.In)
    assert repr(cuda.In(1)) == "In(1)"


@needs_gpu
@pytest.mark.cuda
@pytest.mark.parametrize(
    ("hint", "copied_back"), [(None, True), ("InOut", True), ("In", False), ("Out", True)]
)
def test_a_hint_decides_the_copies_of_an_array(hint, copied_back):
    kernel = cuda.jit(set_first_to_three)
    host = np.zeros(4, dtype=np.int64)
    kernel[1, 1](getattr(cuda, hint)(host) if hint else host)
    assert host[0] == (3 if copied_back else 0)
    if not config.ENABLE_CUDASIM:  # the simulator compiles nothing
        assert list(kernel.overloads) == [(int64[::1],)]  # typed as the array itself


@needs_gpu
@pytest.mark.cuda
def test_out_does_not_copy_the_input():
    kernel = cuda.jit(add_one_everywhere)
    host_in = np.arange(8, dtype=np.float64)
    host_out = np.full(8, -5.0)
    kernel[1, 8](cuda.Out(host_out), cuda.In(host_in))
    np.testing.assert_array_equal(host_out, host_in + 1)
    np.testing.assert_array_equal(host_in, np.arange(8, dtype=np.float64))


@needs_gpu
@pytest.mark.cuda
def test_hints_of_records_and_of_device_arrays():
    kernel = cuda.jit(set_record_to_three)
    record = np.zeros(1, dtype=RECORD)
    kernel[1, 1](cuda.In(record))
    assert record[0]["b"] == 0
    kernel[1, 1](cuda.InOut(record))
    assert record[0]["b"] == 3
    device = cuda.to_device(np.zeros(2, dtype=np.int64))
    cuda.jit(set_first_to_three)[1, 1](cuda.In(device))  # on the device already: as it is
    assert device.copy_to_host()[0] == 3


@needs_gpu
@pytest.mark.cuda
def test_an_extension_makes_host_arrays_inputs():
    kernel = cuda.jit(set_first_to_three)
    kernel.extensions.append(DefaultIn())
    host = np.zeros(1, dtype=np.int64)
    kernel[1, 1](host)
    assert host[0] == 0  # In: not copied back
    kernel[1, 1](cuda.InOut(host))  # a hint given by the caller wins
    assert host[0] == 3
    record = np.zeros(1, dtype=RECORD)
    cuda.jit(set_record_to_three, extensions=[DefaultIn()])[1, 1](record)
    assert record[0]["b"] == 0


@needs_gpu
@pytest.mark.cuda
def test_extensions_see_every_argument_and_may_replace_it():
    doubling = Doubling()

    @cuda.jit(void(float64[::1], float64), extensions=[doubling])
    def store(out, x):
        out[0] = x

    out = cuda.to_device(np.zeros(1))
    store[1, 1](out, 1.5)
    assert out.copy_to_host()[0] == 3.0
    assert [seen[1] for seen in doubling.seen] == ["DeviceNDArray", "float"]
    assert all(seen[2] for seen in doubling.seen)  # a retr list to append to


@needs_gpu
@pytest.mark.cuda
def test_extensions_run_last_registered_first():
    order = []

    class Named:
        def __init__(self, name):
            self.name = name

        def prepare_args(self, ty, val, **kwargs):
            order.append(self.name)
            return ty, val

    kernel = cuda.jit(set_first_to_three, extensions=[Named("first"), Named("second")])
    kernel[1, 1](cuda.to_device(np.zeros(1, dtype=np.int64)))
    assert order == ["second", "first"]


def test_the_gpu_tests_pass_in_the_simulator():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TAIPAN_", "NUMBA_"))}
    env["PYTHONPATH"] = child_python_path(TESTS)
    env["TAIPAN_ENABLE_CUDASIM"] = "1"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "cuda", __file__],
        cwd=os.path.dirname(os.path.dirname(TESTS)),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "9 passed" in result.stdout, result.stdout[-2000:]


def axpy(r, a, x, y, n):
    i = cuda.grid(1)
    if i < n:
        r[i] = a * x[i] + y[i]


AXPY = void(
    types.CPointer(int32), int32, types.CPointer(int32), types.CPointer(int32), types.uint32
)


def test_integers_launch_as_the_addresses_of_pointer_parameters():
    kernel = cuda.jit(AXPY)(axpy)
    key = (int64,) * 5
    chosen = kernel.specialize_for(key)  # what a launch with five Python ints runs
    assert chosen is kernel.specialize_for(key)
    assert chosen is not kernel.overloads[tuple(AXPY.args)]  # a and n convert from int64
    plain = cuda.jit(void(types.CPointer(int32), int32))(set_pointer_first)
    assert plain.specialize_for((int64, int32)) is plain.overloads[tuple(plain.signatures[0])]
    with pytest.raises(TypeError, match="No matching definition"):
        plain.specialize_for((float64, int32))


def set_pointer_first(p, value):
    p[0] = value


@needs_gpu
@pytest.mark.cuda
def test_a_kernel_of_pointers_runs_with_device_addresses():
    if config.ENABLE_CUDASIM:
        pytest.skip("the simulator has no device addresses")
    kernel = cuda.jit(AXPY)(axpy)
    x = cuda.to_device(np.arange(10, dtype=np.int32))
    y = cuda.to_device(np.arange(10, dtype=np.int32) * 2)
    r = cuda.device_array_like(x)
    address = [a.__cuda_array_interface__["data"][0] for a in (r, x, y)]
    kernel[1, 32](address[0], 5, address[1], address[2], 10)
    np.testing.assert_array_equal(r.copy_to_host(), 5 * np.arange(10) + 2 * np.arange(10))
