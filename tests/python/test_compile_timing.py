"""Per-stage compile times: ``dispatcher.get_metadata(sig)["timers"]`` (Numba's spelling) for CPU
functions and CUDA kernels, and ``TAIPAN_TIMING=1``, which prints them after each compile."""

import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import cuda, float64, int64, void

CPU_STAGES = (
    "front end",
    "type inference",
    "lowering",
    "target finalization",
    "optimization: instcombine",
    "code generation",
    "loading",
)


def test_metadata_has_every_stage_for_a_cpu_function():
    @taipan.njit
    def total(a):
        s = 0.0
        for x in a:
            s += x
        return s

    assert total(np.arange(4.0)) == total.py_func(np.arange(4.0))
    key = (taipan.typeof(np.arange(4.0)),)
    timers = total.get_metadata(key)["timers"]
    for stage in CPU_STAGES:
        assert stage in timers, stage
    assert all(seconds >= 0 for seconds in timers.values())
    assert 0 < sum(timers.values()) < 60
    assert total.get_metadata()[key] == {"timers": timers}


def test_front_end_is_charged_to_the_first_compilation_only():
    @taipan.njit
    def twice(x):
        return x * 2

    assert twice(3) == 6 and twice(1.5) == 3.0
    first = twice.get_metadata((int64,))["timers"]["front end"]
    second = twice.get_metadata((float64,))["timers"]["front end"]
    assert first > 0 and second == 0


def test_metadata_by_signature_string():
    @taipan.njit("float64(float64)")
    def half(x):
        return x / 2

    assert "lowering" in half.get_metadata("float64(float64)")["timers"]


def test_cuda_kernel_metadata_without_a_gpu():
    @cuda.jit(void(float64[:]))
    def scale(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= 2

    timers = scale.get_metadata((float64[:],))["timers"]
    for stage in ("type inference", "lowering", "optimization: instcombine"):
        assert stage in timers
    assert "code generation (PTX)" in timers


def test_taipan_timing_prints_the_report(tmp_path):
    program = tmp_path / "timed.py"
    program.write_text(
        textwrap.dedent(
            """
            import taipan

            @taipan.njit
            def add(a, b):
                return a + b

            assert add(1, 2) == 3
            """
        )
    )
    result = run_python([program], env=child_environment(TAIPAN_TIMING="1"))
    assert "taipan: compiled add(int64, int64)" in result.stderr
    for stage in ("front end", "type inference", "code generation", "loading", "total"):
        assert stage in result.stderr


@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_cuda_kernel_loading_is_timed_on_the_gpu():
    @cuda.jit
    def fill(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = i

    a = cuda.device_array(64, dtype=np.float64)
    fill[1, 64](a)
    assert np.array_equal(a.copy_to_host(), np.arange(64.0))
    (metadata,) = fill.get_metadata().values()  # the one specialisation
    timers = metadata["timers"]
    assert timers["linking and loading (driver)"] > 0
