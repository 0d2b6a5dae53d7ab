"""``taipan.cuda.random`` in the simulator: the GPU path's xoroshiro128+ module (Numba's
``numba.cuda.random``) with its device functions made the simulator's.

The device functions are those of taipan.cuda.random, their code run by the interpreter (as
that module's documentation says, the Python code gives the GPU's numbers bit for bit): each is
a copy sharing one namespace, a copy of that module's, in which the device functions are the
copies, so that they call each other in the simulator. States are created on the CPU as on the
GPU path and kept in a simulated device array. ``install`` (taipan.cuda.simulator) makes this
module what ``import taipan.cuda.random`` gives while the simulator is on."""

import types

import numpy as np

from taipan.cuda import random as gpu
from taipan.cuda.dispatcher import CUDADispatcher
from taipan.cuda.simulator import intrinsics
from taipan.cuda.simulator.devicearray import device_array

_namespace = dict(vars(gpu))
_namespace["__builtins__"] = intrinsics.DEVICE_BUILTINS
_namespace["__name__"] = __name__

for _name, _value in vars(gpu).items():
    if isinstance(_value, CUDADispatcher) and _value.device:
        _python = _value.py_func
        _copy = types.FunctionType(
            _python.__code__, _namespace, _python.__name__, _python.__defaults__
        )
        _copy.__doc__ = _python.__doc__
        _copy.__qualname__ = _python.__qualname__
        _copy.py_func = _python
        _copy.device = True
        _copy.targetoptions = dict(_value.targetoptions)
        _copy._taipan_simulated = True
        _namespace[_name] = _copy

TWO_PI_FLOAT32 = gpu.TWO_PI_FLOAT32
TWO_PI_FLOAT64 = gpu.TWO_PI_FLOAT64
xoroshiro128p_dtype = gpu.xoroshiro128p_dtype
init_xoroshiro128p_states_cpu = gpu.init_xoroshiro128p_states_cpu
init_xoroshiro128p_states = gpu.init_xoroshiro128p_states  # copies into the states it is given

init_xoroshiro128p_state = _namespace["init_xoroshiro128p_state"]
rotl = _namespace["rotl"]
xoroshiro128p_next = _namespace["xoroshiro128p_next"]
xoroshiro128p_jump = _namespace["xoroshiro128p_jump"]
uint64_to_unit_float64 = _namespace["uint64_to_unit_float64"]
uint64_to_unit_float32 = _namespace["uint64_to_unit_float32"]
xoroshiro128p_uniform_float32 = _namespace["xoroshiro128p_uniform_float32"]
xoroshiro128p_uniform_float64 = _namespace["xoroshiro128p_uniform_float64"]
xoroshiro128p_normal_float32 = _namespace["xoroshiro128p_normal_float32"]
xoroshiro128p_normal_float64 = _namespace["xoroshiro128p_normal_float64"]


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new (simulated) device array of states for ``n`` random number generators (uint64,
    shape ``(n, 2)``), initialised as ``init_xoroshiro128p_states`` does."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"the number of states must be an integer, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"the number of states must not be negative, not {n}")
    states = device_array((int(n), 2), dtype=np.uint64, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


__all__ = list(gpu.__all__)
