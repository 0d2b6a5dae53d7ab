"""cuda.profiling() / profile_start() / profile_stop() (cuProfilerStart and Stop) and
cuda.is_supported_version() (a driver new enough for the PTX taipan writes), numba-cuda's API,
against a stand-in driver; the simulator's answer; no driver at all."""

import pytest
from child_processes import child_environment, run_python

from taipan import _core, cuda


@pytest.fixture
def stand_in_driver(monkeypatch):
    if not hasattr(_core, "cuda_available") or _core.cuda_available():
        pytest.skip("a real GPU is present: numba-cuda's test_profiler and test_detect cover it")
    calls = []
    answers = {
        "cuda_available": lambda: True,
        "cuda_current_device": lambda: 0,
        "cuda_compute_capability": lambda ordinal: (9, 0),
        "cuda_driver_version": lambda: 12040,
        "cuda_set_profiling": calls.append,
    }
    for name, answer in answers.items():
        monkeypatch.setattr(_core, name, answer)
    return calls


def test_profiling_brackets_the_block(stand_in_driver):
    with cuda.profiling():
        assert stand_in_driver == [True]
    assert stand_in_driver == [True, False]
    with pytest.raises(KeyError), cuda.profiling():
        raise KeyError("inside")
    assert stand_in_driver == [True, False, True, False]
    cuda.profile_start()
    cuda.profile_stop()
    assert stand_in_driver[-2:] == [True, False]


@pytest.mark.parametrize(
    "capability, version, supported",
    [((9, 0), 12040, True), ((9, 0), 11080, False), ((8, 0), 11000, True), ((7, 5), 10010, True)],
)
def test_supported_versions(stand_in_driver, monkeypatch, capability, version, supported):
    monkeypatch.setattr(_core, "cuda_compute_capability", lambda ordinal: capability)
    monkeypatch.setattr(_core, "cuda_driver_version", lambda: version)
    assert cuda.is_supported_version() is supported


def test_no_driver_is_no_supported_version():
    if hasattr(_core, "cuda_available") and _core.cuda_available():
        pytest.skip("a real GPU is present")
    assert cuda.is_supported_version() is False
    with pytest.raises(cuda.CudaSupportError):
        cuda.profile_start()


def test_the_simulator_answers_without_a_driver():
    program = (
        "from taipan import cuda\n"
        "with cuda.profiling():\n"
        "    pass\n"
        "print(cuda.is_supported_version())\n"
    )
    env = child_environment(TAIPAN_ENABLE_CUDASIM="1")
    result = run_python(["-c", program], env=env, timeout=120)
    assert result.stdout.strip() == "True"
