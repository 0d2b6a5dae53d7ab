"""Checks the cuRAND binding on a GPU: the numbers taipan kernels draw through cuRAND's device
API (curand_binding.py, shim.cu) against cuRAND's host API and an independent NumPy Philox.

    python examples/curand_binding/check_on_gpu.py [--seed 1234] [--threads 4096] [--draws 16]

1. The state structs' sizes (``sizeof`` in shim.cu) equal the NumPy dtypes' item sizes.
2. Philox4_32_10, device API through taipan: thread i runs ``curand_init(seed, i, 0, ...)`` and
   draws ``--draws`` numbers; they must equal philox_reference's numbers of subsequence i.
3. The brief's form: thread i runs ``curand_init(seed, 0, i, ...)`` (offset i) and draws one
   number, which must equal the reference's number at position i of subsequence 0.
4. cuRAND's host API, both CuPy's ``cupy.cuda.curand`` (the GPU generator) and libcurand's
   host generator through ctypes, where each is there: Philox numbers for the seed at offsets
   0, 4 and 1001 in the orderings BEST, DEFAULT and LEGACY. They must equal the reference's
   numbers at philox_reference.host_api_place (subsequence m/4 mod 65536, position
   4 * (m / 262144) + m mod 4 for output m after the offset), and a kernel whose thread n runs
   ``curand_init(seed, subsequence, position of output n, ...)`` and draws once must give
   exactly the host's output n, for every n (524,288 + 1000 of them, past the wrap).
5. XORWOW (the talk's ``curandState``): the talk's count_low_bits kernels run as cuRAND's
   device-API documentation example runs its own; the share of odd numbers must be the one both
   print, 0.4999931156635; compile and run times are printed.

Exits with status 1 when any comparison differs; prints one line per check.
"""

import argparse
import ctypes
import ctypes.util
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import curand_binding as cb
import philox_reference
from philox_reference import device_numbers

from taipan import cuda

# The checks launch small grids on purpose (the documentation example's 64 x 64 threads).
warnings.filterwarnings("ignore", message="Grid size .* low occupancy")

# cuRAND's enums (curand.h).
RNG_PHILOX = 161
ORDERINGS = {"BEST": 100, "DEFAULT": 101, "LEGACY": 103}

failures = []


def check(name, ok, detail=""):
    print(f"{'PASS' if ok else 'FAIL'}  {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        failures.append(name)


# Kernels (the talk's form: link= the shim, extensions= the state handler).


@cuda.jit(link=[cb.SHIM], extensions=[cb.curand_state_arg_handler])
def state_sizes(out):
    out[0] = cb.state_size()
    out[1] = cb.philox_state_size()


@cuda.jit(link=[cb.SHIM], extensions=[cb.curand_state_arg_handler])
def philox_setup(states, seed, subsequences, offsets):
    i = cuda.grid(1)
    if i < subsequences.size:
        cb.philox_init(seed, subsequences[i], offsets[i], states, i)


@cuda.jit(link=[cb.SHIM], extensions=[cb.curand_state_arg_handler])
def philox_draw(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for j in range(out.shape[1]):
            out[i, j] = cb.philox(states, i)


@cuda.jit(link=[cb.SHIM], extensions=[cb.curand_state_arg_handler])
def setup(states, seed):
    i = cuda.grid(1)
    cb.curand_init(seed, i, 0, states, i)


@cuda.jit(link=[cb.SHIM], extensions=[cb.curand_state_arg_handler])
def count_low_bits_native(states, sample_count, results):
    i = cuda.grid(1)
    count = 0
    for sample in range(sample_count):
        x = cb.curand(states, i)
        if x & 1:
            count += 1
    results[i] += count


def philox_device(seed, subsequences, offsets, draws):
    """(draws on the device, seconds of the two launches with synchronisation)."""
    n = len(subsequences)
    states = cb.CurandPhiloxStates(n)
    out = cuda.device_array((n, draws), dtype=np.uint32)
    d_subsequences = cuda.to_device(np.asarray(subsequences, dtype=np.uint64))
    d_offsets = cuda.to_device(np.asarray(offsets, dtype=np.uint64))
    blocks = (n + 63) // 64
    start = time.perf_counter()
    philox_setup[blocks, 64](states, np.uint64(seed), d_subsequences, d_offsets)
    philox_draw[blocks, 64](states, out)
    cuda.synchronize()
    return out.copy_to_host(), time.perf_counter() - start


# cuRAND's host API.


def _host_api_cupy(rng, seed, offset, ordering, n):
    import cupy
    from cupy.cuda import curand

    generator = curand.createGenerator(rng)
    try:
        curand.setPseudoRandomGeneratorSeed(generator, seed)
        curand.setGeneratorOffset(generator, offset)
        curand.setGeneratorOrdering(generator, ordering)
        buffer = cupy.empty(n, dtype=cupy.uint32)
        curand.generate(generator, buffer.data.ptr, n)
        return cupy.asnumpy(buffer)
    finally:
        curand.destroyGenerator(generator)


def _libcurand():
    from taipan.cuda.toolkit import toolkit_roots, wheel_paths

    candidates = [ctypes.util.find_library("curand")]
    candidates += wheel_paths("lib", "libcurand.so*")
    for root in toolkit_roots():
        candidates += [os.path.join(root, sub, "libcurand.so") for sub in ("lib64", "lib")]
    for candidate in candidates:
        if candidate:
            try:
                return ctypes.CDLL(candidate)
            except OSError:
                continue
    raise OSError("libcurand was not found")


def _host_api_ctypes(rng, seed, offset, ordering, n):
    """cuRAND's host generator (curandCreateGeneratorHost): the same numbers, on the CPU."""
    library = _libcurand()
    generator = ctypes.c_void_p()

    def call(status, what):
        if status != 0:
            raise RuntimeError(f"{what} failed with curandStatus {status}")

    call(library.curandCreateGeneratorHost(ctypes.byref(generator), rng), "create")
    try:
        call(
            library.curandSetPseudoRandomGeneratorSeed(generator, ctypes.c_ulonglong(seed)),
            "seed",
        )
        call(library.curandSetGeneratorOffset(generator, ctypes.c_ulonglong(offset)), "offset")
        call(library.curandSetGeneratorOrdering(generator, ordering), "ordering")
        buffer = np.empty(n, dtype=np.uint32)
        call(
            library.curandGenerate(
                generator, buffer.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(n)
            ),
            "generate",
        )
        return buffer
    finally:
        library.curandDestroyGenerator(generator)


def device_name():
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else name


def check_state_sizes_match(seed, n, draws):
    """The state structs' sizes (sizeof in shim.cu) are the NumPy dtypes' item sizes."""
    sizes = cuda.device_array(2, dtype=np.uint64)
    start = time.perf_counter()
    state_sizes[1, 1](sizes)
    cuda.synchronize()
    first = time.perf_counter() - start
    sizes = sizes.copy_to_host()
    expected = (cb.xorwow_state_dtype.itemsize, cb.philox_state_dtype.itemsize)
    check("state sizes", tuple(sizes) == expected, f"sizeof {tuple(sizes)}, dtypes {expected}")
    print(f"      first launch (NVRTC compile of shim.cu, kernel compile, link): {first:.3f} s")


def check_subsequence_per_thread(seed, n, draws):
    """Thread i: curand_init(seed, i, 0) then ``draws`` numbers, as the reference's."""
    subsequences = np.arange(n)
    drawn, seconds = philox_device(seed, subsequences, np.zeros(n), draws)
    reference = device_numbers(seed, subsequences[:, None], np.arange(draws)[None, :])
    check(
        "Philox device API = reference (subsequence i, offset 0)",
        np.array_equal(drawn, reference),
        f"{n * draws} numbers, {np.count_nonzero(drawn != reference)} differ; {seconds:.3f} s",
    )


def check_offset_per_thread(seed, n, draws):
    """Thread i: curand_init(seed, 0, i) then one number, as the reference's."""
    drawn, _ = philox_device(seed, np.zeros(n), np.arange(n), 1)
    reference = device_numbers(seed, 0, np.arange(n))
    check(
        "Philox device API = reference (subsequence 0, offset i)",
        np.array_equal(drawn[:, 0], reference),
        f"{np.count_nonzero(drawn[:, 0] != reference)} of {n} differ",
    )


def check_host_api(seed, n, draws):
    """cuRAND's host API, in its orderings and at three offsets: the reference's numbers at
    host_api_place, and the device API's through taipan at the same places."""
    count = 2 * 4 * philox_reference.HOST_API_SUBSEQUENCES + 1000  # past the wrap
    compared = 0
    for ordering_name, ordering in ORDERINGS.items():
        for offset in (0, 4, 1001):
            expected = philox_reference.host_api_numbers(seed, offset, count)
            subsequences, positions = philox_reference.host_api_place(offset + np.arange(count))
            drawn, seconds = philox_device(seed, subsequences, positions, 1)
            for api in (_host_api_cupy, _host_api_ctypes):
                name = f"host API ({api.__name__[10:]}) {ordering_name}, offset {offset}"
                try:
                    host = api(RNG_PHILOX, seed, offset, ordering, count)
                except Exception as error:  # noqa: BLE001 (reported, the other API is tried)
                    print(f"SKIP  {name}: {type(error).__name__}: {error}")
                    continue
                check(
                    f"{name} = reference",
                    np.array_equal(host, expected),
                    f"{np.count_nonzero(host != expected)} of {count} differ",
                )
                check(
                    f"{name} = device API through taipan: thread n's curand_init(seed, "
                    "subsequence, offset of output n) then curand",
                    np.array_equal(drawn[:, 0], host),
                    f"{np.count_nonzero(drawn[:, 0] != host)} of {count} differ; {seconds:.3f} s",
                )
                compared += 1
    if compared == 0:
        print("SKIP  no host API (CuPy or libcurand) on this machine: nothing compared with it")


def check_xorwow_count_low_bits(seed, n, draws):
    """The talk's XORWOW kernels, run as cuRAND's device-API documentation example runs its own
    (64 x 64 threads, curand_init(1234, i, 0), 50 launches of 10000 draws): the share of odd
    numbers is the one cuRAND's documentation and the numba_curand example print."""
    threads, blocks, sample_count, repetitions = 64, 64, 10000, 50
    states = cb.CurandStates(threads * blocks)
    results = cuda.to_device(np.zeros(threads * blocks, dtype=np.int32))
    start = time.perf_counter()
    setup[blocks, threads](states, np.uint64(1234))
    count_low_bits_native[blocks, threads](states, sample_count, results)
    cuda.synchronize()
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repetitions - 1):
        count_low_bits_native[blocks, threads](states, sample_count, results)
    cuda.synchronize()
    warm = (time.perf_counter() - start) / (repetitions - 1)
    total = int(results.copy_to_host().sum())
    # as the example prints it: in float32, to 13 decimals
    share = np.float32(total) / np.float32(threads * blocks * sample_count * repetitions)
    check(
        "XORWOW count_low_bits (the talk's kernel): share of odd numbers = cuRAND's example's",
        f"{share:.13f}" == "0.4999931156635",
        f"{share:.13f} (documented: 0.4999931156635; {total} odd); first launches {first:.3f} s, "
        f"then {warm * 1e3:.2f} ms a launch of {threads * blocks * sample_count} numbers",
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--threads", type=int, default=4096)
    parser.add_argument("--draws", type=int, default=16)
    args = parser.parse_args()
    seed, n, draws = args.seed, args.threads, args.draws
    print(f"device: {device_name()}; seed {seed}; {n} threads x {draws} draws")

    checks = (
        check_state_sizes_match,
        check_subsequence_per_thread,
        check_offset_per_thread,
        check_host_api,
        check_xorwow_count_low_bits,
    )
    for run in checks:
        try:
            run(seed, n, draws)
        except Exception as error:  # noqa: BLE001 (reported; the other checks still run)
            check(run.__name__, False, f"{type(error).__name__}: {error}")

    print(f"{len(failures)} failed: {failures}" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
