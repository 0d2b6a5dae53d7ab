"""Philox4x32-10 in NumPy, numbered as cuRAND's device API numbers it: an independent account of
the numbers ``curand_init(seed, subsequence, offset, &state)`` followed by ``curand(&state)``
calls give (curand_philox4x32_x.h), with which check_on_gpu.py compares the binding's.

The generator is counter-based: the 32-bit number at ``position`` of ``subsequence`` is word
``position % 4`` of the block Philox4x32-10 makes of the 128-bit counter whose low 64 bits are
``position // 4`` and whose high 64 bits are ``subsequence``, under the key ``seed`` (low 32 bits,
high 32 bits)."""

import numpy as np

_MULTIPLIERS = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_KEY_STEP = np.array([0x9E3779B9, 0xBB67AE85], dtype=np.uint32)
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)


def philox4x32_10(counters, seed):
    """The blocks of four 32-bit words for an (n, 4) uint32 array of counters (x, y, z, w)."""
    c = [np.asarray(counters[:, i], dtype=np.uint32) for i in range(4)]
    key = np.array([seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF], dtype=np.uint32)
    for round_number in range(10):
        product0 = c[0].astype(np.uint64) * _MULTIPLIERS[0]
        product1 = c[2].astype(np.uint64) * _MULTIPLIERS[1]
        high0 = (product0 >> _SHIFT32).astype(np.uint32)
        low0 = (product0 & _LOW32).astype(np.uint32)
        high1 = (product1 >> _SHIFT32).astype(np.uint32)
        low1 = (product1 & _LOW32).astype(np.uint32)
        c = [high1 ^ c[1] ^ key[0], low1, high0 ^ c[3] ^ key[1], low0]
        if round_number < 9:
            key = key + _KEY_STEP  # an array's uint32 sums wrap, as C's do
    return np.stack(c, axis=1)


def device_numbers(seed, subsequences, positions):
    """The numbers ``curand`` gives at ``positions`` (absolute: the offset of curand_init plus
    the calls before) of ``subsequences`` for ``seed``; the arrays broadcast together."""
    subsequences, positions = np.broadcast_arrays(
        np.asarray(subsequences, dtype=np.uint64), np.asarray(positions, dtype=np.uint64)
    )
    shape = positions.shape
    subsequences, positions = subsequences.ravel(), positions.ravel()
    blocks = positions // np.uint64(4)
    counters = np.stack(
        [
            (blocks & _LOW32).astype(np.uint32),
            (blocks >> _SHIFT32).astype(np.uint32),
            (subsequences & _LOW32).astype(np.uint32),
            (subsequences >> _SHIFT32).astype(np.uint32),
        ],
        axis=1,
    )
    words = philox4x32_10(counters, seed)
    chosen = words[np.arange(len(positions)), (positions % np.uint64(4)).astype(np.intp)]
    return chosen.reshape(shape)


# cuRAND's host API (curandGenerate with CURAND_RNG_PSEUDO_PHILOX4_32_10, in the orderings
# BEST, DEFAULT and LEGACY) interleaves 65536 subsequences by blocks of four: its output at
# position m (the generator's offset plus the index in the buffer) is the device API's number
# at HOST_API_PLACE(m). Found with libcurand's host generator and checked by
# tests/python/test_examples_curand_binding.py (seeds, offsets, and past m = 262144, where the
# subsequences wrap).
HOST_API_SUBSEQUENCES = 65536


def host_api_place(m):
    """(subsequence, position) of the device API's number that is the host API's output m."""
    m = np.asarray(m, dtype=np.uint64)
    subsequence = (m // np.uint64(4)) % np.uint64(HOST_API_SUBSEQUENCES)
    position = np.uint64(4) * (m // np.uint64(4 * HOST_API_SUBSEQUENCES)) + m % np.uint64(4)
    return subsequence, position


def host_api_numbers(seed, offset, n):
    """The ``n`` numbers cuRAND's host API generates for ``seed`` after ``offset``."""
    return device_numbers(seed, *host_api_place(offset + np.arange(n, dtype=np.uint64)))
