"""cuRAND's device API in taipan kernels: the binding of the talk "Accelerated Python with Numba"
(its numba_curand module), with ``numba`` changed to ``taipan``.

- ``CurandStates(n)`` / ``CurandPhiloxStates(n)`` hold ``n`` generator states in device memory
  (``curandState``, cuRAND's XORWOW, as in the talk; ``curandStatePhilox4_32_10_t``).
- Their compile-time types are user types (``types.Type`` subclasses) whose data model is a
  pointer (``models.PointerModel``): a kernel receives the address of the first state.
- ``curand_init`` / ``curand`` (and the ``philox_`` pair) are ``cuda.declare_device``
  declarations of the shims in ``shim.cu``, whose signatures name those user types.
- ``curand_state_arg_handler`` is the kernels' ``extensions=`` handler: at each launch it gives a
  state array's device address as a ``uint64``, the bytes of the pointer the kernel expects.

A kernel using it::

    @cuda.jit(link=[SHIM], extensions=[curand_state_arg_handler])
    def setup(states, seed):
        i = cuda.grid(1)
        curand_init(seed, i, 0, states, i)

The kernels link ``shim.cu`` (``SHIM``), which NVRTC compiles with the CUDA toolkit's headers.
"""

import os

import numpy as np

from taipan import cuda, types
from taipan.extending import models, register_model, typeof_impl

SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim.cu")

# The states as NumPy dtypes, mirroring curand_kernel.h's structs (aligned as C aligns them), so
# that device arrays of them have the structs' sizes and their fields can be inspected.
xorwow_state_dtype = np.dtype(
    [
        ("d", np.uint32),
        ("v", np.uint32, 5),
        ("boxmuller_flag", np.int32),
        ("boxmuller_flag_double", np.int32),
        ("boxmuller_extra", np.float32),
        ("boxmuller_extra_double", np.float64),
    ],
    align=True,
)
philox_state_dtype = np.dtype(
    [
        ("ctr", np.uint32, 4),
        ("output", np.uint32, 4),
        ("key", np.uint32, 2),
        ("STATE", np.uint32),
        ("boxmuller_flag", np.int32),
        ("boxmuller_flag_double", np.int32),
        ("boxmuller_extra", np.float32),
        ("boxmuller_extra_double", np.float64),
    ],
    align=True,
)


class _States:
    """``n`` generator states in device memory, somewhat as a ``curandState *`` in C."""

    dtype = None

    def __init__(self, n):
        self.array = cuda.device_array(n, dtype=self.dtype)

    @property
    def data(self):
        """The device address of the first state."""
        return self.array.__cuda_array_interface__["data"][0]

    def __len__(self):
        return len(self.array)


class CurandStates(_States):
    """cuRAND's default generator's states (XORWOW, ``curandState``)."""

    dtype = xorwow_state_dtype


class CurandPhiloxStates(_States):
    """Philox4_32_10 states (``curandStatePhilox4_32_10_t``): counter-based, so that the
    numbers of a (seed, subsequence, offset) are known without generating those before."""

    dtype = philox_state_dtype


# Typing: the type of one state and the type of a pointer to states, for each generator.


class CurandStateType(types.Type):
    def __init__(self, name):
        super().__init__(name=name)


class CurandStatePointer(types.Type):
    def __init__(self, state_type):
        self.dtype = state_type
        super().__init__(name=f"{state_type.name}*")


curand_state = CurandStateType("CurandState")
curand_state_pointer = CurandStatePointer(curand_state)
curand_philox_state = CurandStateType("CurandStatePhilox4_32_10")
curand_philox_state_pointer = CurandStatePointer(curand_philox_state)


@typeof_impl.register(CurandStates)
def typeof_curand_states(value, c):
    return curand_state_pointer


@typeof_impl.register(CurandPhiloxStates)
def typeof_curand_philox_states(value, c):
    return curand_philox_state_pointer


# Data model: a state pointer is a pointer, as Numba represents pointers.
register_model(CurandStatePointer)(models.PointerModel)

# The device functions: shims named _numba_<function> forward to cuRAND's (shim.cu). Numba's
# calling convention (the default): each returns 0 and writes its result through a pointer.
curand_init = cuda.declare_device(
    "_numba_curand_init",
    types.void(types.uint64, types.uint64, types.uint64, curand_state_pointer, types.uint64),
)
curand = cuda.declare_device("_numba_curand", types.uint32(curand_state_pointer, types.uint64))
philox_init = cuda.declare_device(
    "_numba_curand_philox_init",
    types.void(types.uint64, types.uint64, types.uint64, curand_philox_state_pointer, types.uint64),
)
philox = cuda.declare_device(
    "_numba_curand_philox", types.uint32(curand_philox_state_pointer, types.uint64)
)
state_size = cuda.declare_device("_numba_curand_state_size", types.uint64())
philox_state_size = cuda.declare_device("_numba_curand_philox_state_size", types.uint64())


class CurandStateArgHandler:
    """The kernels' argument handler (``extensions=``): a state array is passed as the address
    of its first state, a ``uint64`` with the bytes of the pointer the kernel was compiled to
    take; other arguments pass unchanged."""

    def prepare_args(self, ty, val, **kwargs):
        if isinstance(val, _States):
            assert ty in (curand_state_pointer, curand_philox_state_pointer)
            return types.uint64, val.data
        return ty, val


curand_state_arg_handler = CurandStateArgHandler()
