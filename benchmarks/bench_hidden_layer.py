"""The seed's hidden-layer assessment on 10**8 float32: normalize, weigh, activate in three
kernels, end to end including transfers, checked against NumPy (GPU host only)."""

import math
import time

import numpy as np

from taipan import cuda


@cuda.jit
def normalize(grayscales, normalized):
    i = cuda.grid(1)
    if i < grayscales.shape[0]:
        normalized[i] = grayscales[i] / 255


@cuda.jit
def weigh(normalized, weights, weighted):
    i = cuda.grid(1)
    if i < normalized.shape[0]:
        weighted[i] = normalized[i] * weights[i]


@cuda.jit
def activate(weighted, activated):
    i = cuda.grid(1)
    if i < weighted.shape[0]:
        activated[i] = math.tanh(weighted[i])


def create_hidden_layer(n, greyscales, weights, exp, normalized, weighted, activated):
    threads = 256
    blocks = (n + threads - 1) // threads
    d_greyscales = cuda.to_device(greyscales)
    d_weights = cuda.to_device(weights)
    d_normalized = cuda.device_array_like(greyscales)
    d_weighted = cuda.device_array_like(greyscales)
    d_activated = cuda.device_array_like(greyscales)
    normalize[blocks, threads](d_greyscales, d_normalized)
    weigh[blocks, threads](d_normalized, d_weights, d_weighted)
    activate[blocks, threads](d_weighted, d_activated)
    return d_activated.copy_to_host()


def main():
    n = 10**8
    rng = np.random.default_rng(0)
    greyscales = np.floor(rng.uniform(0, 255, n)).astype(np.float32)
    weights = rng.normal(0.5, 0.1, n).astype(np.float32)
    create_hidden_layer(1024, greyscales[:1024], weights[:1024], None, None, None, None)
    start = time.perf_counter()
    result = create_hidden_layer(n, greyscales, weights, None, None, None, None)
    elapsed = time.perf_counter() - start
    expected = np.tanh(greyscales / 255 * weights)
    error = float(np.max(np.abs(result - expected)))
    print(f"hidden layer, 10**8 float32, end to end: {elapsed:.3f} s, max error {error:.2e}")
    assert error < 1e-6 and elapsed < 1.0


if __name__ == "__main__":
    main()
