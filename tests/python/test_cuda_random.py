"""taipan.cuda.random: the xoroshiro128+ generator of numba.cuda.random, bit for bit.

Without a GPU: the states made on the CPU equal Numba's CPU initialisation, the device
functions' Python code draws Numba's numbers from the same states (both run in the
interpreter), and kernels using every function compile to PTX that ptxas accepts. With a GPU:
kernels draw exactly numba-cuda's numbers, and the Monte Carlo estimate of pi from Numba's
documentation."""

import math
import types
import warnings

import numpy as np
import pytest
from child_processes import run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float32, float64, from_dtype, int32, int64, uint32, uint64
from taipan.cuda import random as trandom
from taipan.cuda.random import (
    create_xoroshiro128p_states,
    init_xoroshiro128p_state,
    init_xoroshiro128p_states,
    init_xoroshiro128p_states_cpu,
    xoroshiro128p_jump,
    xoroshiro128p_next,
    xoroshiro128p_normal_float32,
    xoroshiro128p_normal_float64,
    xoroshiro128p_uniform_float32,
    xoroshiro128p_uniform_float64,
)

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

DRAWS = [
    "xoroshiro128p_next",
    "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64",
]


@pytest.fixture(autouse=True, scope="module")
def numpy_without_row_stack_afterwards():
    """numba_random() gives NumPy 2.5 back np.row_stack for numba-cuda; take it away again after
    this module, so that tests run later in the same worker see NumPy as installed (the
    library manifest's test scans NumPy's namespace)."""
    had_row_stack = hasattr(np, "row_stack")
    yield
    if not had_row_stack and hasattr(np, "row_stack"):
        del np.row_stack


def numba_random():
    if not hasattr(np, "row_stack"):  # numba-cuda 0.30 still calls it; NumPy 2.5 removed it
        np.row_stack = np.vstack
    return pytest.importorskip("numba.cuda.random")


def numba_cuda_on_gpu():
    """numba-cuda's cuda module and random module, or skip."""
    nr = numba_random()
    numba_cuda = pytest.importorskip("numba.cuda")
    if not numba_cuda.is_available():
        pytest.skip("numba-cuda sees no GPU")
    return numba_cuda, nr


def interpreted(module):
    """The module's functions as plain Python: each compiled function (taipan's device
    functions, Numba's @jit functions) replaced by its Python code, calling the others'."""
    namespace = dict(vars(module))
    for name, value in vars(module).items():
        py_func = getattr(value, "py_func", None)
        if py_func is not None and py_func.__module__ == module.__name__:
            namespace[name] = types.FunctionType(py_func.__code__, namespace, name)
    return types.SimpleNamespace(**namespace)


def as_pairs(records):
    """Numba's (n,) record states as taipan's (n, 2) uint64 layout (the same memory)."""
    return np.ascontiguousarray(records).view(np.uint64).reshape(len(records), 2)


def numba_states(n, seed, subsequence_start=0):
    nr = numba_random()
    states = np.empty(n, nr.xoroshiro128p_dtype)
    nr.init_xoroshiro128p_states_cpu(states, seed, subsequence_start)
    return states


def taipan_states(n, seed, subsequence_start=0):
    states = np.empty((n, 2), np.uint64)
    init_xoroshiro128p_states_cpu(states, seed, subsequence_start)
    return states


# --- the CPU initialisation -----------------------------------------------------------------


@pytest.mark.parametrize(
    "n, seed, subsequence_start",
    [
        (1, 0, 0),
        (2, 1, 0),
        (64, 1, 0),
        (100, 12345, 3),
        (7, -1, 0),  # wraps to 2**64 - 1, as Numba's uint64(seed)
        (5, 2**63 - 1, 2),
        (3, np.uint64(2**64 - 1), 0),
        (4, np.int32(-5), np.uint8(2)),
        (1000, 987654321, 0),
    ],
)
def test_cpu_initialisation_matches_numba(n, seed, subsequence_start):
    expected = as_pairs(numba_states(n, seed, subsequence_start))
    assert np.array_equal(taipan_states(n, seed, subsequence_start), expected)


def test_cpu_initialisation_of_numba_s_records_matches_numba():
    """Numba's layout, (n,) xoroshiro128p_dtype records, initialised in place."""
    for n, seed, subsequence_start in [(1, 0, 0), (64, 1, 0), (100, 12345, 3)]:
        records = np.empty(n, trandom.xoroshiro128p_dtype)
        init_xoroshiro128p_states_cpu(records, seed, subsequence_start)
        assert np.array_equal(records, numba_states(n, seed, subsequence_start))
        assert np.array_equal(as_pairs(records), taipan_states(n, seed, subsequence_start))


def test_cpu_initialisation_of_no_states():
    states = np.empty((0, 2), np.uint64)
    init_xoroshiro128p_states_cpu(states, 1, 0)  # nothing to do, as in Numba


def test_consecutive_states_are_jumps_apart():
    """State i+1 is state i advanced by 2**64 steps: the device jump's Python code agrees."""
    python = interpreted(trandom)
    states = taipan_states(4, 2024)
    jumped = states.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's uint64 wrap-around
        python.xoroshiro128p_jump(jumped, 1)
    assert np.array_equal(jumped[1], states[2])


def test_subsequence_start_shifts_the_states():
    assert np.array_equal(taipan_states(5, 7, subsequence_start=2)[0], taipan_states(3, 7)[2])


# --- the device functions' Python code against Numba's ------------------------------------


@pytest.mark.parametrize("draw", DRAWS)
def test_draws_match_numba_in_python(draw):
    nr = numba_random()
    ours, theirs = interpreted(trandom), interpreted(nr)
    mine, reference = taipan_states(6, 42), numba_states(6, 42)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for index in range(6):
            for _ in range(40):
                got = getattr(ours, draw)(mine, index)
                expected = getattr(theirs, draw)(reference, index)
                assert type(got) is type(expected)
                assert got == expected or (math.isnan(got) and math.isnan(expected))
    assert np.array_equal(mine, as_pairs(reference))


def test_jump_and_seeding_match_numba_in_python():
    nr = numba_random()
    ours, theirs = interpreted(trandom), interpreted(nr)
    mine, reference = taipan_states(5, 3), numba_states(5, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for index in range(5):
            ours.xoroshiro128p_jump(mine, index)
            theirs.xoroshiro128p_jump(reference, index)
        assert np.array_equal(mine, as_pairs(reference))
        for index, seed in enumerate([0, 1, 2**40, np.uint64(2**64 - 1), np.int64(-3)]):
            ours.init_xoroshiro128p_state(mine, index, seed)
            theirs.init_xoroshiro128p_state(reference, index, seed)
    assert np.array_equal(mine, as_pairs(reference))


def test_unit_float_conversions_match_numba_in_python():
    nr = numba_random()
    ours, theirs = interpreted(trandom), interpreted(nr)
    for value in [0, 1, 2**11 - 1, 2**11, 2**53, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15]:
        x = np.uint64(value)
        assert ours.uint64_to_unit_float64(x) == theirs.uint64_to_unit_float64(x)
        assert ours.uint64_to_unit_float32(x) == theirs.uint64_to_unit_float32(x)
        assert ours.uint64_to_unit_float64(x) < 1.0
    # 2**64 - 1 rounds up to 1.0 in float32, as it does in Numba.
    assert ours.uint64_to_unit_float32(np.uint64(2**64 - 1)) == np.float32(1.0)


def test_public_names_match_numba():
    nr = numba_random()
    public = {
        name
        for name, value in vars(nr).items()
        if not name.startswith("_")
        and callable(value)
        and getattr(value, "__module__", nr.__name__) == nr.__name__
    }
    public -= {"math", "np", "config", "cuda", "jit"}
    public -= {"xoroshiro128p_type"}  # a Numba type of the record: taipan has no record type
    missing = sorted(name for name in public if not hasattr(trandom, name))
    assert not missing


# --- argument checks ------------------------------------------------------------------------


def test_states_of_the_wrong_layout_are_refused():
    other_records = np.dtype([("s0", np.uint64), ("s1", np.int64)])
    with pytest.raises(TypeError, match=r"xoroshiro128p_dtype records, or uint64 of shape"):
        init_xoroshiro128p_states_cpu(np.empty(4, other_records), 1, 0)
    with pytest.raises(TypeError, match=r"xoroshiro128p_dtype records"):
        init_xoroshiro128p_states_cpu(np.empty((2, 2), trandom.xoroshiro128p_dtype), 1, 0)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        init_xoroshiro128p_states_cpu(np.empty((4, 3), np.uint64), 1, 0)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        init_xoroshiro128p_states_cpu(np.empty(8, np.uint64), 1, 0)
    with pytest.raises(ValueError, match="C-contiguous"):
        init_xoroshiro128p_states_cpu(np.empty((2, 4), np.uint64)[:, ::2], 1, 0)
    with pytest.raises(TypeError, match="seed must be an integer"):
        init_xoroshiro128p_states_cpu(np.empty((2, 2), np.uint64), 1.5, 0)
    with pytest.raises(TypeError, match="number of states"):
        create_xoroshiro128p_states(2.0, 1)
    with pytest.raises(ValueError, match="must not be negative"):
        create_xoroshiro128p_states(-1, 1)


def test_device_functions_are_not_called_from_python():
    with pytest.raises(TypeError, match="device function"):
        xoroshiro128p_uniform_float32(np.zeros((1, 2), np.uint64), 0)


# --- compiled kernels -----------------------------------------------------------------------


@cuda.jit
def draw_everything(states, raw, u32, u64, n32, n64):
    i = cuda.grid(1)
    if i < states.shape[0]:
        for j in range(raw.shape[1]):
            raw[i, j] = xoroshiro128p_next(states, i)
            u32[i, j] = xoroshiro128p_uniform_float32(states, i)
            u64[i, j] = xoroshiro128p_uniform_float64(states, i)
            n32[i, j] = xoroshiro128p_normal_float32(states, i)
            n64[i, j] = xoroshiro128p_normal_float64(states, i)
        xoroshiro128p_jump(states, i)


@cuda.jit
def reseed(states, seeds):
    i = cuda.grid(1)
    if i < states.shape[0]:
        init_xoroshiro128p_state(states, i, seeds[i])


@cuda.jit
def compute_pi(rng_states, iterations, out):
    """Numba's documented example: the fraction of random points inside the unit circle."""
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x**2 + y**2 <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations


@cuda.jit
def compute_pi_products(rng_states, iterations, out):
    """compute_pi with x * x for x**2: taipan's kernels compute x**2 with libdevice's powf,
    which can differ from Numba's x * x in the last place (see test_monte_carlo_pi...)."""
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x * x + y * y <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations


@cuda.jit
def random_3d(arr, rng_states):
    """Numba's documented 3-D example: one generator per thread of a 3-D grid."""
    startx, starty, startz = cuda.grid(3)
    stridex, stridey, stridez = cuda.gridsize(3)
    tid = startz * stridey * stridex + starty * stridex + startx
    for i in range(startz, arr.shape[0], stridez):
        for j in range(starty, arr.shape[1], stridey):
            for k in range(startx, arr.shape[2], stridex):
                arr[i, j, k] = xoroshiro128p_uniform_float32(rng_states, tid)


STATES = uint64[:, ::1]
RECORDS = from_dtype(trandom.xoroshiro128p_dtype)[::1]  # Numba's layout
KERNELS = [
    (
        draw_everything,
        (
            RECORDS,
            uint64[:, ::1],
            float32[:, ::1],
            float64[:, ::1],
            float32[:, ::1],
            float64[:, ::1],
        ),
    ),
    (reseed, (RECORDS, int64[::1])),
    (compute_pi, (RECORDS, int64, float32[::1])),
    (
        draw_everything,
        (
            STATES,
            uint64[:, ::1],
            float32[:, ::1],
            float64[:, ::1],
            float32[:, ::1],
            float64[:, ::1],
        ),
    ),
    (reseed, (STATES, int64[::1])),
    (reseed, (uint64[:, :], uint64[::1])),
    (compute_pi, (STATES, int64, float32[::1])),
    (compute_pi_products, (STATES, int64, float32[::1])),
    (random_3d, (float32[:, :, ::1], STATES)),
]


@pytest.mark.parametrize("kernel, signature", KERNELS, ids=lambda v: getattr(v, "__name__", ""))
@needs_ptxas
def test_kernels_compile_to_ptx_that_ptxas_accepts(kernel, signature, tmp_path):
    ptx = kernel.compile(signature).ptx
    ptxas(ptx, tmp_path)


@pytest.mark.parametrize("index_type", [int32, int64, uint32, uint64])
def test_return_types_follow_numba(index_type):
    """float32 draws stay float32 (the Box-Muller product included), whatever the index type."""
    expected = {
        xoroshiro128p_next: "uint64",
        xoroshiro128p_uniform_float32: "float32",
        xoroshiro128p_uniform_float64: "float64",
        xoroshiro128p_normal_float32: "float32",
        xoroshiro128p_normal_float64: "float64",
    }
    for function, name in expected.items():
        assert str(function.compile((STATES, index_type)).return_type) == name


def test_normal_float32_uses_single_precision_math():
    """Numba computes the float32 Box-Muller transform with logf, sqrtf and cosf: no double
    precision cosine (libdevice's cos has a double table and reduction)."""
    signature = (STATES, float32[:, ::1])

    @cuda.jit
    def normals(states, out):
        i = cuda.grid(1)
        out[i, 0] = xoroshiro128p_normal_float32(states, i)

    ptx = normals.compile(signature).ptx
    assert "__cudart_sin_cos_coeffs" not in ptx  # the double sin/cos table
    assert "sqrt.rn.f32" in ptx


def test_numba_s_record_states_in_the_simulator(tmp_path):
    """create_xoroshiro128p_states gives Numba's (n,) records (numba-cuda's test_create counts
    n unique states); kernels draw from them the numbers they draw from the same states as
    uint64 pairs."""
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda
        from taipan.cuda.random import (
            create_xoroshiro128p_states,
            xoroshiro128p_dtype,
            xoroshiro128p_jump,
            xoroshiro128p_normal_float64,
            xoroshiro128p_uniform_float64,
        )

        @cuda.jit
        def draw(states, out):
            i = cuda.grid(1)
            if i < len(states):
                out[i, 0] = xoroshiro128p_uniform_float64(states, i)
                out[i, 1] = xoroshiro128p_normal_float64(states, i)
                xoroshiro128p_jump(states, i)

        records = create_xoroshiro128p_states(10, seed=1)
        host = records.copy_to_host()
        assert host.dtype == xoroshiro128p_dtype and host.shape == (10,)
        assert len(np.unique(host)) == 10
        pairs = cuda.to_device(host.view(np.uint64).reshape(10, 2).copy())
        from_records = np.zeros((10, 2))
        from_pairs = np.zeros((10, 2))
        draw[1, 16](records, from_records)
        draw[1, 16](pairs, from_pairs)
        assert np.array_equal(from_records, from_pairs)
        after = records.copy_to_host()
        assert np.array_equal(after.view(np.uint64).reshape(10, 2), pairs.copy_to_host())
        assert not np.array_equal(after, host)
        print("ok")
        """,
    )


# --- on the GPU -----------------------------------------------------------------------------


def numba_kernels(numba_cuda, nr):
    """numba-cuda's versions of the kernels above, calling numba.cuda.random's functions."""
    next_, jump = nr.xoroshiro128p_next, nr.xoroshiro128p_jump
    uniform32, uniform64 = nr.xoroshiro128p_uniform_float32, nr.xoroshiro128p_uniform_float64
    normal32, normal64 = nr.xoroshiro128p_normal_float32, nr.xoroshiro128p_normal_float64

    @numba_cuda.jit
    def numba_draw_everything(states, raw, u32, u64, n32, n64):
        i = numba_cuda.grid(1)
        if i < states.shape[0]:
            for j in range(raw.shape[1]):
                raw[i, j] = next_(states, i)
                u32[i, j] = uniform32(states, i)
                u64[i, j] = uniform64(states, i)
                n32[i, j] = normal32(states, i)
                n64[i, j] = normal64(states, i)
            jump(states, i)

    @numba_cuda.jit
    def numba_compute_pi(rng_states, iterations, out):
        thread_id = numba_cuda.grid(1)
        inside = 0
        for i in range(iterations):
            x = uniform32(rng_states, thread_id)
            y = uniform32(rng_states, thread_id)
            if x**2 + y**2 <= 1.0:
                inside += 1
        out[thread_id] = 4.0 * inside / iterations

    @numba_cuda.jit
    def numba_compute_pi_products(rng_states, iterations, out):
        thread_id = numba_cuda.grid(1)
        inside = 0
        for i in range(iterations):
            x = uniform32(rng_states, thread_id)
            y = uniform32(rng_states, thread_id)
            if x * x + y * y <= 1.0:
                inside += 1
        out[thread_id] = 4.0 * inside / iterations

    return {
        "draw_everything": numba_draw_everything,
        "compute_pi": numba_compute_pi,
        "compute_pi_products": numba_compute_pi_products,
    }


@needs_gpu
def test_device_states_match_numba_cuda():
    _, nr = numba_cuda_on_gpu()
    for n, seed, start in [(1, 0, 0), (1000, 1, 0), (257, 99, 5)]:
        ours = create_xoroshiro128p_states(n, seed, subsequence_start=start)
        theirs = nr.create_xoroshiro128p_states(n, seed, subsequence_start=start)
        assert ours.shape == (n,) and len(ours) == n
        assert ours.dtype == theirs.dtype == trandom.xoroshiro128p_dtype
        assert np.array_equal(ours.copy_to_host(), theirs.copy_to_host())


@needs_gpu
def test_kernel_draws_match_numba_cuda_bit_for_bit():
    numba_cuda, nr = numba_cuda_on_gpu()

    numba_draw_everything = numba_kernels(numba_cuda, nr)["draw_everything"]

    n, draws = 1000, 64
    shapes = [
        (np.uint64, "raw"),
        (np.float32, "u32"),
        (np.float64, "u64"),
        (np.float32, "n32"),
        (np.float64, "n64"),
    ]
    ours = create_xoroshiro128p_states(n, 1234)
    theirs = nr.create_xoroshiro128p_states(n, 1234)
    our_out = [cuda.device_array((n, draws), dtype) for dtype, _ in shapes]
    their_out = [numba_cuda.device_array((n, draws), dtype) for dtype, _ in shapes]
    draw_everything[(n + 127) // 128, 128](ours, *our_out)
    numba_draw_everything[(n + 127) // 128, 128](theirs, *their_out)
    numba_cuda.synchronize()
    for (dtype, name), mine, reference in zip(shapes, our_out, their_out):
        a, b = mine.copy_to_host(), reference.copy_to_host()
        bits = np.uint32 if dtype == np.float32 else np.uint64
        assert np.array_equal(a.view(bits), b.view(bits)), name
    assert np.array_equal(ours.copy_to_host(), theirs.copy_to_host())


@needs_gpu
def test_kernel_draws_match_the_python_code():
    """Uniforms and raw draws on the GPU equal the device functions' Python code; normals agree
    to the float32 logarithm's rounding (Python's math.log works in double precision, the
    kernels, as Numba's, take logf of the float32 uniform)."""
    python = interpreted(trandom)
    n, draws = 16, 8
    states = create_xoroshiro128p_states(n, 5)
    host = states.copy_to_host()
    outs = [
        cuda.device_array((n, draws), t)
        for t in (np.uint64, np.float32, np.float64, np.float32, np.float64)
    ]
    draw_everything[1, 32](states, *outs)
    raw, u32, u64, n32, n64 = (o.copy_to_host() for o in outs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for i in range(n):
            for j in range(draws):
                assert raw[i, j] == python.xoroshiro128p_next(host, i)
                assert u32[i, j] == python.xoroshiro128p_uniform_float32(host, i)
                assert u64[i, j] == python.xoroshiro128p_uniform_float64(host, i)
                assert n32[i, j] == pytest.approx(
                    python.xoroshiro128p_normal_float32(host, i), rel=1e-5, abs=1e-6
                )
                assert n64[i, j] == pytest.approx(
                    python.xoroshiro128p_normal_float64(host, i), rel=1e-6, abs=1e-7
                )
            python.xoroshiro128p_jump(host, i)
    assert np.array_equal(states.copy_to_host(), host)


@needs_gpu
def test_reseeding_on_the_device():
    states = cuda.device_array((8, 2), np.uint64)
    seeds = np.arange(8, dtype=np.int64) * 1000
    reseed[1, 8](states, seeds)
    expected = np.empty((8, 2), np.uint64)
    python = interpreted(trandom)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for i, seed in enumerate(seeds):
            python.init_xoroshiro128p_state(expected, i, seed)
    assert np.array_equal(states.copy_to_host(), expected)


@needs_gpu
def test_monte_carlo_pi_from_numbas_documentation():
    threads_per_block = 64
    blocks = 24
    rng_states = create_xoroshiro128p_states(threads_per_block * blocks, seed=1)
    out = np.zeros(threads_per_block * blocks, dtype=np.float32)
    compute_pi[blocks, threads_per_block](rng_states, 10000, out)
    assert abs(out.mean() - math.pi) < 0.01

    numba_cuda, nr = numba_cuda_on_gpu()
    kernels = numba_kernels(numba_cuda, nr)
    theirs = np.zeros_like(out)
    kernels["compute_pi"][blocks, threads_per_block](
        nr.create_xoroshiro128p_states(out.size, seed=1), 10000, theirs
    )
    # The same random numbers; x**2 is powf in taipan's kernels and x * x in Numba's, which
    # may move a point lying on the circle (within a rounding) in or out: a count apart at most.
    assert np.abs(out - theirs).max() <= 4.0 / 10000 + 1e-6
    assert np.count_nonzero(out != theirs) <= 3
    # With the products written out, the results are Numba's exactly.
    ours, theirs = np.zeros_like(out), np.zeros_like(out)
    compute_pi_products[blocks, threads_per_block](
        create_xoroshiro128p_states(out.size, seed=1), 10000, ours
    )
    kernels["compute_pi_products"][blocks, threads_per_block](
        nr.create_xoroshiro128p_states(out.size, seed=1), 10000, theirs
    )
    assert np.array_equal(ours, theirs)


@needs_gpu
def test_random_3d_from_numbas_documentation():
    blocks, threads = (2, 2, 2), (4, 4, 4)
    states = create_xoroshiro128p_states(8 * 64, seed=1)
    arr = cuda.device_array((16, 16, 16), np.float32)
    random_3d[blocks, threads](arr, states)
    values = arr.copy_to_host()
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.02


@needs_gpu
def test_states_on_a_stream():
    stream = cuda.stream()
    states = create_xoroshiro128p_states(300, 17, stream=stream)
    stream.synchronize()
    assert np.array_equal(as_pairs(states.copy_to_host()), taipan_states(300, 17))
    again = cuda.device_array((300, 2), np.uint64)
    init_xoroshiro128p_states(again, 17, stream=stream)
    stream.synchronize()
    assert np.array_equal(again.copy_to_host(), taipan_states(300, 17))
