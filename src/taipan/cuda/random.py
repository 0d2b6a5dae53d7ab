"""Random numbers in CUDA kernels (Numba's ``numba.cuda.random``) on the GPU path: the
xoroshiro128+ generator of taipan.cuda.api.random (whose documentation says how states are
kept), its device functions compiled with ``cuda.jit(device=True)`` for kernels to call, and
states created on the host and copied into taipan device arrays."""

from taipan.cuda import api
from taipan.cuda.decorators import jit
from taipan.cuda.devicearray import device_array


def _compiled(function, python):
    return jit(function, device=True)


# api.random's names, its device functions (init_xoroshiro128p_state, rotl, xoroshiro128p_next
# and the rest) compiled for kernels.
api.random.device_functions(globals(), _compiled)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of states for ``n`` random number generators (``(n,)`` records of
    ``xoroshiro128p_dtype``, as Numba's), initialised as ``init_xoroshiro128p_states`` does."""
    return api.random.create_states(device_array, n, seed, subsequence_start, stream)


__all__ = list(api.random.NAMES)
