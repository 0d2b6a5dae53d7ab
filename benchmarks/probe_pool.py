import time, math, numpy as np, taipan


def best(f, *a, n=30):
    f(*a)
    r = 1e9
    for _ in range(n):
        s = time.perf_counter()
        f(*a)
        r = min(r, time.perf_counter() - s)
    return r * 1e3


@taipan.vectorize(["float32(float32, float32, float32)"], target="parallel")
def g(x, m, s):
    return math.exp(-0.5 * ((x - m) / s) ** 2) / (s * 2.5066282746310002)


@taipan.njit(parallel=True)
def t(a):
    s = 0.0
    for i in taipan.prange(a.shape[0]):
        s += a[i]
    return s


@taipan.njit(parallel=True)
def e(a, b, c):
    return a * b + np.sin(c)


x = np.random.rand(10**6).astype(np.float32)
print("gaussian parallel 1e6", best(g, x, np.float32(0), np.float32(1)))
for n in (10**5, 10**6, 10**8):
    a = np.random.rand(n)
    print("prange sum", n, best(t, a, n=10))
a, b, c = (np.random.rand(10**7) for _ in range(3))
print("expr 1e7", best(e, a, b, c, n=10))
