"""``taipan.cuda.random`` in the simulator: the xoroshiro128+ generator of
taipan.cuda.api.random (Numba's ``numba.cuda.random``) with its device functions made the
simulator's.

The device functions are api.random's, their code run by the interpreter (as that module's
documentation says, the Python code gives the GPU's numbers bit for bit): each is a copy
sharing one namespace, a copy of that module's, in which the device functions are the copies,
so that they call each other in the simulator. States are created on the CPU as on the
GPU path and kept in a simulated device array. ``install`` (taipan.cuda.simulator) makes this
module what ``import taipan.cuda.random`` gives while the simulator is on."""

from taipan.cuda import api
from taipan.cuda.simulator import intrinsics
from taipan.cuda.simulator.devicearray import device_array


def _simulated(function, python):
    """A device function of the simulator: the Python copy itself, marked as one."""
    function.py_func = python
    function.device = True
    function.targetoptions = {"device": True, "boundscheck": False}
    function._taipan_simulated = True
    return function


# api.random's names, its device functions (init_xoroshiro128p_state, rotl, xoroshiro128p_next
# and the rest) run by the interpreter with the simulator's builtins: their globals are a
# namespace of their own, whose builtins are the simulator's (print as the GPU's printf).
_namespace = {"__name__": __name__, "__builtins__": intrinsics.DEVICE_BUILTINS}
api.random.device_functions(_namespace, _simulated)
globals().update({name: _namespace[name] for name in api.random.NAMES if name in _namespace})


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new (simulated) device array of states for ``n`` random number generators (``(n,)``
    records of ``xoroshiro128p_dtype``, as Numba's), initialised as
    ``init_xoroshiro128p_states`` does."""
    return api.random.create_states(device_array, n, seed, subsequence_start, stream)


__all__ = list(api.random.NAMES)
