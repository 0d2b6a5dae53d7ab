"""cuda.mapped(): existing host arrays page-locked and mapped into the device's address space
for a block, as device arrays kernels use in place (numba-cuda's API). Here (no GPU): against
a stand-in driver, the memory is registered mapped, viewed at the driver's device address, and
unregistered when the block ends however it ends (so it can be mapped again at once); in the
simulator a kernel writes the host array through the view."""

import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python

from taipan import _core


@pytest.fixture
def stand_in_driver(monkeypatch):
    if not hasattr(_core, "cuda_available") or _core.cuda_available():
        pytest.skip("a real GPU is present: numba-cuda's test_deallocations covers it")
    from taipan.cuda import devices

    calls = []
    answers = {
        "cuda_available": lambda: True,
        "cuda_current_device": lambda: 0,
        "cuda_bound_context_is_primary": lambda: True,
        "cuda_device_name": lambda index: "stand-in",
        "cuda_compute_capability": lambda index: (9, 0),
        "cuda_memory_info": lambda: (32, 64),
        "cuda_synchronize": lambda: None,
        "cuda_register_host": lambda pointer, size, mapped=False: (
            calls.append(("register", pointer, size, mapped)) or (0x5000 if mapped else 0)
        ),
        "cuda_unregister_host": lambda pointer: calls.append(("unregister", pointer)),
    }
    for name, answer in answers.items():
        monkeypatch.setattr(_core, name, answer)
    devices._contexts.clear()
    yield calls
    devices._contexts.clear()


def test_mapped_arrays_view_the_registered_memory(stand_in_driver):
    from taipan import cuda

    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    with cuda.mapped(host) as view:
        assert isinstance(view, cuda.DeviceNDArray)
        assert (view.shape, view.strides, view.dtype) == (host.shape, host.strides, host.dtype)
        assert view.device_ctypes_pointer == 0x5000
        assert stand_in_driver == [("register", host.ctypes.data, 24, True)]
    assert stand_in_driver[-1] == ("unregister", host.ctypes.data)


def test_several_arrays_and_an_error_inside_the_block(stand_in_driver):
    from taipan import cuda

    first, second = np.zeros(4), np.ones(2, np.int32)
    with pytest.raises(KeyError), cuda.mapped(first, second) as views:
        assert [view.size for view in views] == [4, 2]
        raise KeyError("inside")
    unregistered = [call[1] for call in stand_in_driver if call[0] == "unregister"]
    assert unregistered == [first.ctypes.data, second.ctypes.data]
    with cuda.mapped(first):  # mapped again at once
        pass
    with pytest.raises(ValueError, match="contiguous"), cuda.mapped(np.zeros((4, 4))[:, ::2]):
        pass


def test_a_kernel_writes_the_host_array_in_the_simulator():
    program = textwrap.dedent(
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit
        def double(x):
            i = cuda.grid(1)
            if i < x.size:
                x[i] *= 2

        host = np.arange(5.0)
        with cuda.mapped(host) as view:
            double[1, 8](view)
        print(host.tolist())
        """
    )
    env = child_environment(TAIPAN_ENABLE_CUDASIM="1")
    result = run_python(["-c", program], env=env, timeout=120)
    assert result.stdout.split("\n")[0] == "[0.0, 2.0, 4.0, 6.0, 8.0]"
