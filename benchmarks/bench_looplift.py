"""A lifted numeric loop over a 10**6-element array in object mode: taipan's lifted loop against
the interpreter and Numba's lifted loop (when Numba is installed).

    PYTHONPATH=src python3 benchmarks/bench_looplift.py
"""

import time
import warnings

import numpy as np


def body(a):
    label = object()  # object mode: the function itself does not type in nopython mode
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i] + 1.0
    return s, type(label).__name__


def best_of(function, a, repeat=5):
    function(a)  # compile
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(a)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    import taipan

    a = np.random.default_rng(0).random(10**6)
    results = {"interpreter": best_of(body, a, repeat=2)}
    results["taipan forceobj (lifted)"] = best_of(taipan.jit(forceobj=True)(body), a)
    try:
        import numba

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results["numba forceobj (lifted)"] = best_of(numba.jit(forceobj=True)(body), a)
    except ImportError:
        pass
    for name, seconds in results.items():
        print(f"{name:28s} {seconds * 1e3:9.2f} ms")


if __name__ == "__main__":
    main()
