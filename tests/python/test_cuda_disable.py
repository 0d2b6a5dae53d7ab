"""NUMBA_DISABLE_CUDA / TAIPAN_DISABLE_CUDA: taipan.cuda acts as if there were no GPU, saying
so (``cuda.cuda_error()``, ``CudaSupportError.msg``) at the first call that needs the driver,
launches included, as numba-cuda does; with the setting absent ``cuda_error()`` tells why CUDA
cannot be used, or None."""

import textwrap

import pytest
from child_processes import child_environment, run_python

SCRIPT = """
import numpy as np
from taipan import cuda

assert not cuda.is_available()
expected = "CUDA is disabled due to setting {variable}=1"
assert cuda.cuda_error() == expected, cuda.cuda_error()


@cuda.jit
def fill(out):
    out[cuda.grid(1)] = 1.0


for call in (
    lambda: cuda.device_array(1),
    lambda: cuda.to_device(np.zeros(3)),
    lambda: cuda.current_context(),
    lambda: fill[1, 3](np.zeros(3)),
):
    try:
        call()
    except cuda.CudaSupportError as error:
        assert error.msg == expected, error.msg
    else:
        raise AssertionError("CUDA was used although disabled")
print("ok")
"""


@pytest.mark.parametrize("variable", ["NUMBA_DISABLE_CUDA", "TAIPAN_DISABLE_CUDA"])
def test_disabled_cuda_refuses_every_driver_call(tmp_path, variable):
    env = child_environment(settings="none", **{variable: "1"})
    script = tmp_path / "disabled.py"
    script.write_text(textwrap.dedent(SCRIPT.replace("{variable}", variable)))
    result = run_python([script], env=env)
    assert result.stdout.strip() == "ok", result.stdout + result.stderr


def test_cuda_error_says_why_or_nothing():
    from taipan import cuda

    if cuda.is_available():
        assert cuda.cuda_error() is None
    else:
        assert isinstance(cuda.cuda_error(), str) and cuda.cuda_error()
