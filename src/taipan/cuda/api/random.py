"""Random numbers in CUDA kernels (Numba's ``numba.cuda.random``), the part both backends share:
the xoroshiro128+ generator, one independent stream per thread, giving bit for bit the numbers
numba-cuda gives for the same seed. ``taipan.cuda.random`` (the GPU path) and the simulator's
module make the device functions below theirs with ``device_functions``.

The generator and its initialisation follow David Blackman's and Sebastiano Vigna's
xoroshiro128+ and splitmix64 (http://xoroshiro.di.unimi.it/), as Numba's module does.

State layout: as in Numba, the states of ``n`` generators are a ``(n,)`` array of
``xoroshiro128p_dtype`` records (fields ``s0`` and ``s1``, uint64), which
``create_xoroshiro128p_states`` makes. Every function here also takes the same memory as a
C-contiguous ``uint64`` array of shape ``(n, 2)`` (``states[i, 0]`` is ``s0``), taipan's layout
before it followed Numba's: ``records.view(np.uint64).reshape(n, 2)`` converts one way,
``pairs.view(xoroshiro128p_dtype)[:, 0]`` the other. The device functions read and write a
state through ``_state_words`` and ``_set_state_words``, whose branch on ``states.ndim`` is
decided while compiling.

The device functions (``xoroshiro128p_uniform_float32(states, index)`` and the rest) are plain
Python here; each backend's module has them as its device functions (``cuda.jit(device=True)``
on the GPU path): kernels call them. Their Python code, ``.py_func``, runs on NumPy arrays in
the interpreter with the same results (with NumPy's overflow warnings for the wrapping uint64
arithmetic). States are initialised on the CPU (a compiled ``@njit``
function, as Numba does it) and copied to the device.
"""

import math
import sys
import types

import numpy as np

from taipan.decorators import njit

# Numba's record dtype of one state: the states' dtype (see the module's documentation).
xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)

# The casts below (np.uint64, np.uint32, ...) are those of Numba's module: they keep the
# integer arithmetic in uint64 both in kernels and when the Python code runs on NumPy scalars.
# Arguments are cast into new names rather than rebound (Numba's ``index = int64(index)``):
# taipan gives a variable one type, and int64 joined with uint64 is float64.

TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)

# --- device functions ----------------------------------------------------------------------

DEVICE_FUNCTIONS = (
    "_state_words",
    "_set_state_words",
    "init_xoroshiro128p_state",
    "rotl",
    "xoroshiro128p_next",
    "xoroshiro128p_jump",
    "uint64_to_unit_float64",
    "uint64_to_unit_float32",
    "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64",
)


def _state_words(states, index):
    """Generator ``index``'s state, ``(s0, s1)``, from records or from (n, 2) uint64 pairs."""
    if states.ndim == 1:
        s0 = states[index]["s0"]
        s1 = states[index]["s1"]
    else:
        s0 = states[index, 0]
        s1 = states[index, 1]
    return s0, s1


def _set_state_words(states, index, s0, s1):
    """Sets generator ``index``'s state to ``(s0, s1)``, in records or in uint64 pairs."""
    if states.ndim == 1:
        states[index]["s0"] = s0
        states[index]["s1"] = s1
    else:
        states[index, 0] = s0
        states[index, 1] = s1


def init_xoroshiro128p_state(states, index, seed):
    """Sets ``states[index]`` from a 64-bit seed through SplitMix64, so that small seeds do not
    start a predictable sequence."""
    i = np.int64(index)
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint32(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint32(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint32(31))

    _set_state_words(states, i, z, z)


def rotl(x, k):
    """``x`` (uint64) rotated left by ``k`` bits."""
    value = np.uint64(x)
    bits = np.uint32(k)
    return (value << bits) | (value >> np.uint32(64 - bits))


def xoroshiro128p_next(states, index):
    """The next random uint64 of generator ``index``, which advances by one step."""
    i = np.int64(index)
    s0, s1 = _state_words(states, i)
    result = s0 + s1

    s1 ^= s0
    _set_state_words(
        states,
        i,
        np.uint64(rotl(s0, np.uint32(55))) ^ s1 ^ (s1 << np.uint32(14)),
        np.uint64(rotl(s1, np.uint32(36))),
    )

    return result


def xoroshiro128p_jump(states, index):
    """Advances generator ``index`` by 2**64 steps."""
    i = np.int64(index)

    jump = (np.uint64(0xBEAC0467EBA5FACB), np.uint64(0xD86B048B86AA9922))

    s0 = np.uint64(0)
    s1 = np.uint64(0)

    for word in range(2):
        for b in range(64):
            if jump[word] & (np.uint64(1) << np.uint32(b)):
                word0, word1 = _state_words(states, i)
                s0 ^= word0
                s1 ^= word1
            xoroshiro128p_next(states, i)

    _set_state_words(states, i, s0, s1)


def uint64_to_unit_float64(x):
    """A uint64 as a float64 in [0.0, 1.0): its top 53 bits times 2**-53."""
    value = np.uint64(x)
    return (value >> np.uint32(11)) * (np.float64(1) / (np.uint64(1) << np.uint32(53)))


def uint64_to_unit_float32(x):
    """A uint64 as a float32 in [0.0, 1.0) (the float64 of ``uint64_to_unit_float64``
    rounded, as Numba does it)."""
    return np.float32(uint64_to_unit_float64(np.uint64(x)))


def xoroshiro128p_uniform_float32(states, index):
    """A float32 in [0.0, 1.0) from generator ``index``, which advances by one step."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, np.int64(index)))


def xoroshiro128p_uniform_float64(states, index):
    """A float64 in [0.0, 1.0) from generator ``index``, which advances by one step."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, np.int64(index)))


def xoroshiro128p_normal_float32(states, index):
    """A float32 from the normal distribution (mean 0, sigma 1) by the Box-Muller transform of
    two uniform float32s; generator ``index`` advances by two steps."""
    i = np.int64(index)

    u1 = xoroshiro128p_uniform_float32(states, i)
    u2 = xoroshiro128p_uniform_float32(states, i)

    # np.float32(...) around the global keeps the product in float32 in kernels, as Numba
    # types it (taipan reads a global NumPy float32 as a float64 constant).
    z0 = math.sqrt(-np.float32(2.0) * math.log(u1)) * math.cos(np.float32(TWO_PI_FLOAT32) * u2)
    # The second normal value, sqrt(-2 log u1) * sin(2 pi u2), is discarded, as in Numba.
    return z0


def xoroshiro128p_normal_float64(states, index):
    """A float64 from the normal distribution (mean 0, sigma 1) by the Box-Muller transform;
    generator ``index`` advances by two steps. As in Numba, the two uniforms are float32s
    (and their logarithm a float32), so that the same seed gives Numba's numbers."""
    i = np.int64(index)

    u1 = xoroshiro128p_uniform_float32(states, i)
    u2 = xoroshiro128p_uniform_float32(states, i)

    z0 = math.sqrt(-np.float64(2.0) * math.log(u1)) * math.cos(np.float64(TWO_PI_FLOAT64) * u2)
    return z0


# --- initialisation on the CPU -------------------------------------------------------------
# The same steps as the device functions above, compiled for the CPU: states for a million
# generators take 128 million steps, far too many for the interpreter.


@njit
def _next_cpu(states, index):
    s0 = states[index, 0]
    s1 = states[index, 1]
    s1 ^= s0
    states[index, 0] = ((s0 << np.uint32(55)) | (s0 >> np.uint32(9))) ^ s1 ^ (s1 << np.uint32(14))
    states[index, 1] = (s1 << np.uint32(36)) | (s1 >> np.uint32(28))


@njit
def _jump_cpu(states, index):
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for i in range(2):
        word = np.uint64(0xBEAC0467EBA5FACB) if i == 0 else np.uint64(0xD86B048B86AA9922)
        for b in range(64):
            if word & (np.uint64(1) << np.uint32(b)):
                s0 ^= states[index, 0]
                s1 ^= states[index, 1]
            _next_cpu(states, index)
    states[index, 0] = s0
    states[index, 1] = s1


@njit
def _init_cpu(states, seed, subsequence_start):
    n = states.shape[0]
    if n >= 1:
        z = seed + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint32(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint32(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint32(31))
        states[0, 0] = z
        states[0, 1] = z
        for _ in range(subsequence_start):
            _jump_cpu(states, 0)
        for i in range(1, n):
            states[i, 0] = states[i - 1, 0]
            states[i, 1] = states[i - 1, 1]
            _jump_cpu(states, i)


def _as_uint64(value, what):
    """A seed or subsequence number as Numba's uint64(...) reads it: wrapped modulo 2**64."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    return np.uint64(int(value) % 2**64)


def _check_states(states, host=False):
    """Refuses states in neither layout (see the module's documentation)."""
    dtype = np.dtype(getattr(states, "dtype", None) or np.void)
    shape = tuple(getattr(states, "shape", ()))
    layouts = "an (n,) array of xoroshiro128p_dtype records, or uint64 of shape (n, 2)"
    if dtype.fields and (dtype != xoroshiro128p_dtype or len(shape) != 1):
        raise TypeError(f"xoroshiro128+ states are {layouts}, not {dtype} {shape}")
    if not dtype.fields and (dtype != np.uint64 or len(shape) != 2 or shape[1] != 2):
        raise ValueError(f"xoroshiro128+ states are {layouts}, not {dtype} {shape}")
    if host and not (isinstance(states, np.ndarray) and states.flags.c_contiguous):
        raise ValueError("the states must be a C-contiguous NumPy array")


def init_xoroshiro128p_states_cpu(states, seed, subsequence_start):
    """Initialises the NumPy array ``states`` (records, or uint64 pairs) in place: state 0 from
    ``seed`` by SplitMix64, jumped ``subsequence_start`` times by 2**64 steps; each further
    state is the one before it jumped once more."""
    _check_states(states, host=True)
    seed = _as_uint64(seed, "seed")
    subsequence_start = _as_uint64(subsequence_start, "subsequence_start")
    # Records hold the same memory as pairs: the compiled steps work on pairs.
    _init_cpu(states.view(np.uint64).reshape(len(states), 2), seed, subsequence_start)


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initialises device states (records, or uint64 pairs) for ``n`` parallel
    generators, each 2**64 steps after the one before in the main sequence, so that they are
    independent as long as no thread draws more than 2**64 numbers. ``subsequence_start``
    advances the first by that many times 2**64 steps. The states are computed on the CPU
    (faster than on the GPU, as in Numba) and copied on ``stream``."""
    _check_states(states)
    host = np.empty(states.shape, states.dtype)
    init_xoroshiro128p_states_cpu(host, seed, subsequence_start)
    # A copy from pageable memory has read it by the time it returns, even on a stream.
    states.copy_to_device(host, stream=stream)


def create_states(device_array, n, seed, subsequence_start=0, stream=0):
    """A new device array (made by the backend's `device_array`) of states for ``n`` random
    number generators (``(n,)`` records of ``xoroshiro128p_dtype``, as Numba's), initialised as
    ``init_xoroshiro128p_states`` does."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"the number of states must be an integer, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"the number of states must not be negative, not {n}")
    states = device_array((int(n),), dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


def device_functions(namespace, make):
    """Makes `namespace` (a backend's module's globals, or a dict standing for them) hold this
    module's names, with each device function a copy of the plain function here (whose
    globals are `namespace`) made a device function by ``make(copy, plain function)``: they
    call each other as the backend runs them. Names `namespace` has already stay."""
    for name, value in vars(sys.modules[__name__]).items():
        if not name.startswith("__"):
            namespace.setdefault(name, value)
    for name in DEVICE_FUNCTIONS:
        python = globals()[name]
        copy = types.FunctionType(python.__code__, namespace, name, python.__defaults__)
        copy.__doc__ = python.__doc__
        copy.__qualname__ = python.__qualname__
        namespace[name] = make(copy, python)
    return namespace


# What the backends' random modules export (Numba's names).
NAMES = [
    "TWO_PI_FLOAT32",
    "TWO_PI_FLOAT64",
    "create_xoroshiro128p_states",
    "init_xoroshiro128p_state",
    "init_xoroshiro128p_states",
    "init_xoroshiro128p_states_cpu",
    "rotl",
    "uint64_to_unit_float32",
    "uint64_to_unit_float64",
    "xoroshiro128p_dtype",
    "xoroshiro128p_jump",
    "xoroshiro128p_next",
    "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64",
    "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64",
]
