"""CUDA ufuncs and gufuncs (``@vectorize(..., target='cuda')``, ``@guvectorize(..., target='cuda')``).

Without a GPU: the generated kernels' PTX passes ptxas for sm_90, the decorators' argument
checks, and the pure parts of a call (broadcasting, memory order, signature choice, the gufunc
schedule, kernel text). With a GPU (marker ``cuda``): results against NumPy for host, device and
foreign (CuPy, PyTorch) arrays, broadcasting, ``out=``, ``stream=``, the seeds' examples."""

import math
import textwrap

import numpy as np
import pytest
from child_processes import child_environment, run_python
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, float32, guvectorize, njit, vectorize
from taipan.cuda import ufuncs as cu
from taipan.errors import TypingError, UnsupportedError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
gpu = [pytest.mark.cuda, needs_gpu]


# --- the seeds' ufuncs ---------------------------------------------------------------------


@vectorize(["int64(int64, int64)", "float32(float32, float32)", "float64(float64, float64)"],
           target="cuda")  # fmt: skip
def add_ufunc(x, y):
    return x + y


@vectorize(["int32(int32, int32)", "int64(int64, int64)", "float32(float32, float32)",
            "float64(float64, float64)"], target="cuda")  # fmt: skip
def scaled_difference(x, y):
    return 3 * x - y


def scaled(x, y, dtype=None):
    """``3 * x - y`` as scaled_difference computes it: in Numba's typing the int64 literal 3
    times a float32 is a float64 (NumPy keeps float32), and the signature's result type rounds
    the difference back."""
    x, y = np.asarray(x), np.asarray(y)
    dtype = np.dtype(dtype or np.result_type(x, y))
    wide = np.float64 if dtype.kind == "f" else np.int64
    return (3 * x.astype(wide) - y.astype(wide)).astype(dtype)


def assert_matches(actual, expected):
    """Equal for integers; for floats within a few units in the last place, since GPU code
    may fuse a multiply and an add (as nvcc and numba-cuda do) where NumPy rounds twice."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    if expected.dtype.kind in "fc":
        eps = np.finfo(expected.dtype).eps
        np.testing.assert_allclose(actual, expected, rtol=4 * eps, atol=64 * eps)
    else:
        np.testing.assert_array_equal(actual, expected)


SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@vectorize(["float32(float32, float32, float32)"], target="cuda")
def gaussian_pdf(x, mean, sigma):
    """Compute the value of a Gaussian probability density function at x with given mean and
    sigma."""
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@cuda.jit(device=True)
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y


@vectorize(["float32(float32, float32, float32, float32)"], target="cuda")
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)  # device functions inside GPU ufuncs
    x2, y2 = polar_to_cartesian(rho2, theta2)
    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5


@njit
def polar_x(rho, theta):
    return rho * math.cos(theta)


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def x_of_polar(rho, theta):
    return polar_x(rho, theta)  # a CPU @njit function, compiled for the GPU too


@vectorize(["int16(int16, int16)"], target="cuda")
def zero_suppress(waveform_value, threshold):
    if waveform_value < threshold:
        result = 0
    else:
        result = waveform_value
    return result


@vectorize(["float32(float32, float32, float32)"], target="cuda")
def make_pulses(i, period, amplitude):
    return max(math.sin(i / period) - 0.3, 0.0) * amplitude


@vectorize(["float32(float32)"], target="cuda")
def normalize(grayscales):
    return grayscales / 255


@vectorize(["float32(float32, float32)"], target="cuda")
def weigh(values, weights):
    return values * weights


@vectorize(["float32(float32)"], target="cuda")
def activate(values):
    return (math.exp(values) - math.exp(-values)) / (math.exp(values) + math.exp(-values))


@vectorize(["complex64(complex64, complex64)"], target="gpu")  # NumbaPro's target name
def vmult(a, b):
    """Element complex64 multiplication"""
    return a * b


@vectorize([float32], target="gpu")  # NumbaPro: one type for every argument and the result
def vec_saxpy(a, x, y):
    return a * x + y


@vectorize(target="cuda")  # no signatures: compiled for each new set of input types
def dynamic_hypot(x, y):
    return math.sqrt(x * x + y * y)


@guvectorize(["(float32[:], float32[:])", "(float64[:], float64[:])"], "(i)->()", target="cuda")
def l2_norm(vec, out):
    acc = 0.0
    for value in vec:
        acc += value**2
    out[0] = math.sqrt(acc)


@guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"], "(m,n),(n,p)->(m,p)",
             target="cuda")  # fmt: skip
def matmul_core(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            total = 0.0
            for k in range(a.shape[1]):
                total += a[i, k] * b[k, j]
            c[i, j] = total


@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target="cuda")
def shift(values, amount, out):
    for i in range(values.shape[0]):
        out[i] = values[i] + amount


@guvectorize(["void(int64[:], int64[:], int64[:])"], "(n)->(),()", target="cuda")
def min_max(values, low, high):
    low[0] = values[0]
    high[0] = values[0]
    for v in values:
        low[0] = min(low[0], v)
        high[0] = max(high[0], v)


UFUNCS = [add_ufunc, scaled_difference, gaussian_pdf, polar_distance, x_of_polar, zero_suppress,
          make_pulses, normalize, weigh, activate, vmult, vec_saxpy]  # fmt: skip


# --- PTX without a GPU -----------------------------------------------------------------------


@needs_ptxas
@pytest.mark.parametrize("ufunc", UFUNCS, ids=[u.__name__ for u in UFUNCS])
def test_flat_kernels_pass_ptxas(ufunc, tmp_path):
    for index in range(ufunc.ntypes):
        ptx = ufunc.inspect_asm(index)
        assert ".entry" in ptx and ".target sm_90" in ptx
        ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("ndim", [1, 2, 3, 4])
def test_broadcasting_kernels_pass_ptxas(ndim, tmp_path):
    ptxas(add_ufunc.inspect_asm("float32(float32, float32)", ndim=ndim), tmp_path)
    ptxas(gaussian_pdf.inspect_asm(ndim=ndim, scalars=(1, 2)), tmp_path)
    ptxas(scaled_difference.inspect_asm(0, ndim=ndim, scalars=(0,)), tmp_path)


@needs_ptxas
def test_scalar_arguments_travel_as_values(tmp_path):
    ptx = gaussian_pdf.inspect_asm(scalars=(1, 2))
    assert ".param .f32" in ptx  # mean and sigma: float32 parameters, not arrays
    ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize(("gufunc", "loops"), [(l2_norm, 2), (matmul_core, 1), (shift, 1),
                                                (min_max, 1)])  # fmt: skip
def test_gufunc_kernels_pass_ptxas(gufunc, loops, tmp_path):
    for index in range(loops):
        for loop_ndim in (1, 2, 3):
            ptxas(gufunc.inspect_asm(index, loop_ndim), tmp_path)


def test_flat_kernel_source_is_python_the_front_end_reads():
    source = cu.vectorize_kernel_source("k", [(False, False), (True, False), (False, True)], 0)
    assert source == textwrap.dedent(
        """\
        def k(a0, a1, a2, out):
            start = cuda.grid(1)
            stride = cuda.gridsize(1)
            for i in range(start, out.shape[0], stride):
                out[i] = result(core(a0[i], a1, cast2(a2[i])))
        """
    )
    compile(source, "<test>", "exec")
    import linecache

    ptx_name = add_ufunc.inspect_asm(0)
    assert ".entry taipan_cuda_ufunc_add_ufunc" in ptx_name
    assert any("taipan.cuda ufunc cuda_ufunc_add_ufunc" in name for name in linecache.cache)


def test_broadcasting_kernel_source_unravels_the_index():
    source = cu.vectorize_kernel_source("k", [(False, False), (False, False)], 3)
    assert "i2 = r % e2" in source and "i0 = r" in source
    assert "out[i0, i1, i2] = result(core(a0[i0, i1, i2], a1[i0, i1, i2]))" in source
    compile(source, "<test>", "exec")


def test_gufunc_kernel_source():
    source = cu.gufunc_kernel_source("g", ["element", "value", ("view", 2), "slice"], 2, 2)
    assert "core(a0[i0, i1], a1, a2[i0, i1, :, :], a3[i0, i1:i1 + 1])" in source
    assert "n = a2.shape[0] * a2.shape[1]" in source
    compile(source, "<test>", "exec")


def test_a_cuda_ufunc_made_without_a_gpu_imports_and_compiles(tmp_path):
    # CUDA_VISIBLE_DEVICES="" hides every GPU, as on a machine without one.
    code = textwrap.dedent(
        """
        import math, numpy as np
        from taipan import cuda, vectorize, guvectorize

        @vectorize(['float32(float32, float32)'], target='cuda')
        def add(x, y):
            return x + y

        @guvectorize(['(float64[:], float64[:])'], '(n)->()', target='cuda')
        def total(v, out):
            out[0] = 0.0
            for x in v:
                out[0] += x

        @cuda.reduce
        def maximum(a, b):
            return max(a, b)

        assert not cuda.is_available()
        print(add.inspect_asm().count('.entry'), total.inspect_asm().count('.entry'),
              maximum.inspect_asm(np.float64).count('.entry'))
        try:
            add(np.ones(3, np.float32), np.ones(3, np.float32))
        except cuda.CudaSupportError as error:
            print('CudaSupportError', error)
        """
    )
    # The child finds this taipan however the parent did (PYTHONPATH=src or installed).
    env = child_environment(CUDA_VISIBLE_DEVICES="")
    result = run_python(["-c", code], env=env, timeout=300)
    lines = result.stdout.splitlines()
    assert lines[0] == "1 1 1"
    assert lines[1].startswith("CudaSupportError")


# --- pure parts of a call ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "shapes",
    [[(3,)], [(2, 3), (3,)], [(4, 1), (3,)], [(5, 1, 3), (4, 1)], [(), (2, 2)], [(0,), (1,)],
     [(2, 0), (1, 0)], [(1,), (1, 1, 1)], []],
)  # fmt: skip
def test_broadcast_shapes_match_numpy(shapes):
    assert cu.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)


@pytest.mark.parametrize("shapes", [[(2,), (3,)], [(2, 3), (2,)], [(4, 2), (1, 3), (4, 3)]])
def test_broadcast_failures_say_which_shapes(shapes):
    with pytest.raises(ValueError, match="could not be broadcast together with shapes"):
        cu.broadcast_shapes(*shapes)
    with pytest.raises(ValueError):
        np.broadcast_shapes(*shapes)


def test_broadcast_strides_are_numpys():
    for shape, target in [((3,), (2, 3)), ((2, 1), (2, 4)), ((1, 3), (5, 3)), ((), (4,))]:
        array = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
        expected = np.broadcast_to(array, target).strides
        got = cu.broadcast_strides(array.shape, array.strides, target)
        # NumPy keeps a stride for an axis of one element that stays one element; both read
        # the same memory.
        assert all(g == e or t == 1 for g, e, t in zip(got, expected, target))


def test_flat_order_picks_the_common_dense_order():
    c = ((4, 3), (24, 8), 8)
    f = ((4, 3), (8, 32), 8)
    assert cu.flat_order((4, 3), [c, c]) == "C"
    assert cu.flat_order((4, 3), [f, f]) == "F"
    assert cu.flat_order((4, 3), [c, f]) is None  # mixed orders: the n-dimensional kernel
    assert cu.flat_order((4, 3), [c, ((3,), (8,), 8)]) is None  # broadcast
    assert cu.flat_order((4, 3), [((4, 3), (48, 16), 8)]) is None  # strided
    assert cu.flat_order((4, 3), [c], out=f) is None
    assert cu.flat_order((4, 3), [f], out=f) == "F"
    assert cu.flat_order((4, 1), [((4, 1), (8, 999), 8)]) == "C"  # any stride on one element
    assert cu.flat_order((1,), []) == "C"  # only scalars


def test_signature_choice_follows_numba_cuda():
    f32, f64, i64, i32 = (np.dtype(t) for t in ("float32", "float64", "int64", "int32"))
    sigs = [(f32, f32), (f64, f64), (i64, i64)]
    array = lambda d: ("array", d)
    python = lambda v: ("python", np.asarray(v).dtype)
    assert cu.select_signature(sigs, [array(f32), array(f32)]) == 0
    assert cu.select_signature(sigs, [array(f64), array(f64)]) == 1
    assert cu.select_signature(sigs, [array(f32), python(2.0)]) == 0  # scalars adapt
    assert cu.select_signature(sigs, [python(1.0), python(2.0)]) == 1  # exact first
    assert cu.select_signature(sigs, [python(1), python(2)]) == 2
    assert cu.select_signature(sigs, [array(i64), python(2.5)]) == 2  # numba: any scalar
    assert cu.select_signature(sigs, [array(i32), array(i32)]) == 1  # int32 casts safely
    assert cu.select_signature(sigs, [array(f32), array(f64)]) == 1
    assert cu.select_signature(sigs[:1], [array(f64), array(f64)]) is None
    assert cu.select_signature(sigs, [("scalar", f32), ("scalar", f32)]) == 0


def test_gufunc_schedule_broadcasts_loop_dimensions():
    nin, names = cu.parse_layout("(m,n),(n,p)->(m,p)")
    assert nin == 2 and names == [("m", "n"), ("n", "p"), ("m", "p")]
    loop, outs = cu.gufunc_schedule("(m,n),(n,p)->(m,p)", names, 2, [(5, 2, 3), (3, 4), None])
    assert loop == (5,) and outs == [(5, 2, 4)]
    loop, outs = cu.gufunc_schedule("(m,n),(n,p)->(m,p)", names, 2, [(7, 1, 2, 3), (5, 3, 4), None])
    assert loop == (7, 5) and outs == [(7, 5, 2, 4)]
    _, names = cu.parse_layout("(i)->()")
    assert cu.gufunc_schedule("(i)->()", names, 1, [(3,), None]) == ((), [()])
    with pytest.raises(ValueError, match="core dimension 'n'"):
        cu.gufunc_schedule("(m,n),(n,p)->(m,p)", cu.parse_layout("(m,n),(n,p)->(m,p)")[1], 2,
                           [(2, 3), (4, 5), None])  # fmt: skip
    with pytest.raises(ValueError, match="could not be broadcast"):
        cu.gufunc_schedule("(i),(i)->()", [("i",), ("i",), ()], 2, [(2, 3), (4, 3), None])
    with pytest.raises(ValueError, match=r"output 0 has shape \(4,\), the call needs \(2,\)"):
        cu.gufunc_schedule("(i)->()", names, 1, [(2, 3), (4,)])
    _, names = cu.parse_layout("()->(n)")
    with pytest.raises(ValueError, match="pass the output array"):
        cu.gufunc_schedule("()->(n)", names, 1, [(3,), None])
    assert cu.gufunc_schedule("()->(n)", names, 1, [(3,), (3, 5)]) == ((3,), [(3, 5)])


# --- argument checks --------------------------------------------------------------------------


def add(x, y):
    return x + y


def test_decorator_errors_are_clear():
    with pytest.raises(TypeError, match="takes 2 arguments, the signature"):
        vectorize(["float32(float32)"], target="cuda")(add)
    with pytest.raises(TypingError, match="numbers or booleans"):
        vectorize(["float32(float32[:], float32)"], target="cuda")(add)
    with pytest.raises(KeyError, match="Unrecognized options"):
        vectorize(["float32(float32, float32)"], target="cuda", colour="red")(add)
    with pytest.raises(TypeError, match="caching is not supported"):
        vectorize(["float32(float32, float32)"], target="cuda", cache=True)(add)
    with pytest.raises(ValueError, match="target"):
        vectorize(["float32(float32, float32)"], target="tpu")(add)
    with pytest.raises(UnsupportedError, match="needs signatures"):
        guvectorize("(n)->()", target="cuda")(lambda v, out: None)
    with pytest.raises(TypeError, match="cannot return values"):
        guvectorize(["float32(float32[:], float32[:])"], "(n)->()", target="cuda")(
            lambda v, out: None
        )
    with pytest.raises(TypingError, match="has 2 operands"):
        guvectorize(["(float32[:], float32[:])"], "(n)->()", target="cuda")(lambda v: None)
    with pytest.raises(TypingError, match="core dimensions"):
        guvectorize(["(float32[:, :], float32[:])"], "(n)->()", target="cuda")(lambda v, out: None)
    with pytest.raises(ValueError, match="layout looks like"):
        guvectorize(["(float32[:], float32[:])"], "(n)->", target="cuda")(lambda v, out: None)
    with pytest.raises(TypeError, match="kernel"):
        cuda.reduce(cuda.jit(lambda a: None))


def test_call_errors_are_clear():
    with pytest.raises(TypeError, match="takes 2 input arguments, got 4"):
        add_ufunc(1, 2, 3, 4)
    with pytest.raises(TypeError, match="take out= and stream="):
        add_ufunc(1, 2, where=True)
    with pytest.raises(ValueError, match="binary"):
        normalize.reduce(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="positional argument"):
        l2_norm()
    with pytest.raises(TypeError, match="numbers"):
        add_ufunc(np.array(["a"]), np.array(["b"]))


def test_ufunc_attributes():
    assert add_ufunc.__name__ == "add_ufunc" and add_ufunc.nin == 2 and add_ufunc.nout == 1
    assert add_ufunc.types == ["ll->l", "ff->f", "dd->d"]
    assert gaussian_pdf.__doc__.startswith("Compute the value")
    assert vec_saxpy.types == ["fff->f"]
    assert l2_norm.signature == "(i)->()" and (l2_norm.nin, l2_norm.nout) == (1, 1)
    assert "CUDA ufunc" in repr(add_ufunc) and "(i)->()" in repr(l2_norm)


@pytest.mark.skipif(cuda.is_available(), reason="a GPU is present")
def test_calls_without_a_gpu_say_so():
    with pytest.raises(cuda.CudaSupportError):
        add_ufunc(np.ones(3), np.ones(3))
    with pytest.raises(cuda.CudaSupportError):
        l2_norm(np.ones((2, 3), np.float32))


# --- on the GPU -------------------------------------------------------------------------------

DTYPES = [np.float32, np.float64, np.int32, np.int64]


def values(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-10, 10, shape).astype(dtype)
    return rng.integers(-1000, 1000, shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 1000, 1_000_003])
@pytest.mark.cuda
@needs_gpu
def test_host_arrays_match_numpy(dtype, n):
    x, y = values(dtype, n, 1), values(dtype, n, 2)
    result = scaled_difference(x, y)
    assert isinstance(result, np.ndarray) and result.dtype == dtype
    assert_matches(result, scaled(x, y))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.cuda
@needs_gpu
def test_device_arrays_in_device_array_out(dtype):
    x, y = values(dtype, 10_000, 1), values(dtype, 10_000, 2)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    result = scaled_difference(dx, dy)
    assert isinstance(result, cuda.DeviceNDArray)
    assert_matches(result.copy_to_host(), scaled(x, y))
    # one device input is enough to keep the result on the device
    mixed = scaled_difference(dx, y)
    assert isinstance(mixed, cuda.DeviceNDArray)
    assert_matches(mixed.copy_to_host(), scaled(x, y))


@pytest.mark.parametrize(
    ("xshape", "yshape"),
    [((4, 5), (5,)), ((5,), (4, 5)), ((4, 1), (5,)), ((3, 1, 5), (4, 1)), ((2, 3, 4), ()),
     ((1,), (6,)), ((6, 1), (1, 6)), ((0,), (1,)), ((2, 0), (2, 1))],
)  # fmt: skip
@pytest.mark.parametrize("on_device", [False, True])
@pytest.mark.cuda
@needs_gpu
def test_broadcasting_matches_numpy(xshape, yshape, on_device):
    x, y = values(np.float64, xshape, 1), values(np.float64, yshape, 2)
    expected = 3 * x - y
    if on_device:
        result = scaled_difference(cuda.to_device(x), cuda.to_device(y)).copy_to_host()
    else:
        result = scaled_difference(x, y)
    assert result.shape == expected.shape
    assert_matches(result, expected)


@pytest.mark.cuda
@needs_gpu
def test_scalars_broadcast():
    x = values(np.float32, (3, 200), 1)
    assert_matches(scaled_difference(x, 2.0), scaled(x, 2.0, np.float32))
    assert_matches(scaled_difference(1.5, x), scaled(1.5, x, np.float32))
    assert_matches(scaled_difference(x, np.float32(0.25)), scaled(x, 0.25, np.float32))
    ints = values(np.int32, 100, 3)
    assert_matches(scaled_difference(ints, 7), scaled(ints, 7, np.int32))
    # numba-cuda: scalars alone give a one-element array (the seed's gaussian_pdf(x[0], 0., 1.))
    pdf = gaussian_pdf(np.float32(0.5), 0.0, 1.0)
    assert pdf.shape == (1,) and pdf.dtype == np.float32
    np.testing.assert_allclose(pdf[0], math.exp(-0.125) / math.sqrt(2 * math.pi), rtol=1e-6)


@pytest.mark.cuda
@needs_gpu
def test_strided_and_fortran_inputs():
    base = values(np.float64, (40, 30), 1)
    other = values(np.float64, (40, 30), 2)
    for x, y in [(base[::2, ::3], other[::2, ::3]), (base.T, other.T), (base.T, other.T.copy()),
                 (np.asfortranarray(base), np.asfortranarray(other))]:  # fmt: skip
        assert_matches(scaled_difference(x, y), 3 * x - y)
        device = scaled_difference(cuda.to_device(x), cuda.to_device(y)).copy_to_host()
        assert_matches(device, 3 * x - y)
    d = cuda.to_device(base)
    view = d[::2, 1::3]
    assert_matches(scaled_difference(view, view).copy_to_host(), 2 * base[::2, 1::3])


@pytest.mark.cuda
@needs_gpu
def test_out_host_and_device():
    x, y = values(np.float32, 5000, 1), values(np.float32, 5000, 2)
    out = np.zeros_like(x)
    assert scaled_difference(x, y, out=out) is out
    assert_matches(out, scaled(x, y))
    d_out = cuda.device_array_like(x)
    assert scaled_difference(cuda.to_device(x), cuda.to_device(y), out=d_out) is d_out
    assert_matches(d_out.copy_to_host(), scaled(x, y))
    assert scaled_difference(x, y, d_out) is d_out  # positional out, host inputs
    assert_matches(d_out.copy_to_host(), scaled(x, y))
    wide = np.zeros((3, 5000), np.float64)  # broadcast into out, cast float32 -> float64
    scaled_difference(x, y, out=wide)
    assert_matches(wide, np.broadcast_to(scaled(x, y), (3, 5000)).astype(np.float64))
    strided = cuda.device_array((5000, 2), np.float32)[:, 1]
    scaled_difference(cuda.to_device(x), y, out=strided)
    assert_matches(strided.copy_to_host(), scaled(x, y))
    with pytest.raises(ValueError, match="could not be broadcast"):  # NumPy's message
        scaled_difference(x, y, out=np.zeros(10, np.float32))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        scaled_difference(x[:4], y[:4, None], out=np.zeros((4, 1), np.float32))
    with pytest.raises(TypeError, match="same_kind"):
        scaled_difference(x, y, out=np.zeros(5000, np.int32))


@pytest.mark.cuda
@needs_gpu
def test_streams():
    stream = cuda.stream()
    x, y = values(np.float64, 100_000, 1), values(np.float64, 100_000, 2)
    dx, dy = cuda.to_device(x, stream=stream), cuda.to_device(y, stream=stream)
    result = scaled_difference(dx, dy, stream=stream)
    again = scaled_difference(result, dy, stream=stream)
    stream.synchronize()
    assert_matches(again.copy_to_host(), 3 * (3 * x - y) - y)
    host = scaled_difference(x, y, stream=stream)
    stream.synchronize()
    assert_matches(host, 3 * x - y)


@pytest.mark.cuda
@needs_gpu
def test_safe_casts_and_dynamic_signatures():
    ints = values(np.int16, 1000, 1)
    np.testing.assert_array_equal(scaled_difference(ints, ints), 2 * ints.astype(np.int32))
    floats = values(np.float32, 1000, 2)
    np.testing.assert_allclose(dynamic_hypot(floats, floats), np.hypot(floats, floats), rtol=1e-6)
    assert dynamic_hypot(floats, floats).dtype == np.float32
    doubles = floats.astype(np.float64)
    assert dynamic_hypot(doubles, 2.0).dtype == np.float64
    assert dynamic_hypot.ntypes == 2
    with pytest.raises(TypeError, match="no signature takes"):
        zero_suppress(np.ones(3, np.float64), 1)


@pytest.mark.cuda
@needs_gpu
def test_seed_add_ufunc_and_device_functions():
    a = np.array([1, 2, 3, 4])
    b = np.array([10, 20, 30, 40])
    np.testing.assert_array_equal(add_ufunc(a, b), [11, 22, 33, 44])
    c = np.arange(4 * 4).reshape((4, 4))
    np.testing.assert_array_equal(add_ufunc(b, c), b + c)
    n = 100_000
    rng = np.random.default_rng(0)
    rho1, rho2 = (rng.uniform(0.5, 1.5, n).astype(np.float32) for _ in range(2))
    theta1, theta2 = (rng.uniform(-np.pi, np.pi, n).astype(np.float32) for _ in range(2))
    x1, y1 = rho1 * np.cos(theta1), rho1 * np.sin(theta1)
    x2, y2 = rho2 * np.cos(theta2), rho2 * np.sin(theta2)
    expected = np.sqrt((x1 - x2) ** 2 + (y1 - y2) ** 2)
    np.testing.assert_allclose(polar_distance(rho1, theta1, rho2, theta2), expected, rtol=2e-5,
                               atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(x_of_polar(rho1, theta1), x1, rtol=1e-5, atol=1e-6)


@pytest.mark.cuda
@needs_gpu
def test_seed_gaussian_pdf():
    x = np.random.default_rng(0).uniform(-3, 3, size=1_000_000).astype(np.float32)
    mean, sigma = np.float32(0.0), np.float32(1.0)
    expected = np.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)
    np.testing.assert_allclose(gaussian_pdf(x, mean, sigma), expected, rtol=1e-5, atol=1e-7)


@pytest.mark.cuda
@needs_gpu
def test_seed_zero_suppress_and_make_pulses():
    n = 100_000
    rng = np.random.default_rng(0)
    noise = rng.normal(size=n) * 3
    pulses = np.maximum(np.sin(np.arange(n) / (n / 23)) - 0.3, 0.0)
    waveform = ((pulses * 300) + noise).astype(np.int16)
    np.testing.assert_array_equal(zero_suppress(waveform, 15), np.where(waveform < 15, 0, waveform))
    # the exercise: one copy in, device arrays between the calls, one copy out
    noise32 = (rng.normal(size=n) * 3).astype(np.float32)
    t = np.arange(n, dtype=np.float32)
    period = n / 23
    t_device = cuda.to_device(t)
    noise_device = cuda.to_device(noise32)
    out_device = cuda.device_array(shape=(n,), dtype=np.float32)
    make_pulses(t_device, period, 100.0, out=out_device)
    add_ufunc(out_device, noise_device, out=out_device)
    waveform = out_device.copy_to_host()
    expected = np.maximum(np.sin(t / np.float32(period)) - 0.3, 0.0).astype(np.float32) * 100
    np.testing.assert_allclose(waveform, expected + noise32, rtol=1e-4, atol=1e-3)


def create_hidden_layer(n, greyscales, weights, exp, normalize, weigh, activate):
    """The assessment, with the three CUDA ufuncs and device arrays between them."""
    greyscales_device = cuda.to_device(greyscales)
    weights_device = cuda.to_device(weights)
    normalized = normalize(greyscales_device)
    weighted = weigh(normalized, weights_device)
    activated = activate(weighted)
    return activated.copy_to_host()


@pytest.mark.cuda
@needs_gpu
def test_seed_hidden_layer_assessment():
    n = 1_000_000
    rng = np.random.default_rng(0)
    greyscales = np.floor(rng.uniform(0, 255, n).astype(np.float32))
    weights = rng.normal(0.5, 0.1, n).astype(np.float32)
    result = create_hidden_layer(n, greyscales, weights, math.exp, normalize, weigh, activate)
    assert isinstance(result, np.ndarray) and result.dtype == np.float32
    np.testing.assert_allclose(result, np.tanh(greyscales / 255 * weights), atol=1e-6)
    # host arrays straight in: each call copies in and out
    np.testing.assert_allclose(activate(weigh(normalize(greyscales), weights)), result, atol=1e-7)


@pytest.mark.cuda
@needs_gpu
def test_numbapro_vmult_in_place_and_saxpy():
    rng = np.random.default_rng(0)
    image = (rng.random(4096) + 1j * rng.random(4096)).astype(np.complex64)
    response = (rng.random(4096) + 1j * rng.random(4096)).astype(np.complex64)
    d_image, d_response = cuda.to_device(image), cuda.to_device(response)
    vmult(d_image, d_response, out=d_image)
    np.testing.assert_allclose(d_image.copy_to_host(), image * response, rtol=1e-6)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    np.testing.assert_array_equal(vec_saxpy(np.float32(2.0), x, y), 2 * x + y)


@pytest.mark.cuda
@needs_gpu
def test_cupy_inputs():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(10_000, dtype=cupy.float32)
    y = cupy.ones((3, 10_000), dtype=cupy.float32)
    result = scaled_difference(x, y)
    assert isinstance(result, cuda.DeviceNDArray) and result.shape == (3, 10_000)
    assert_matches(result.copy_to_host(), scaled(cupy.asnumpy(x), cupy.asnumpy(y)))
    out = cupy.empty((3, 10_000), dtype=cupy.float32)
    assert scaled_difference(x, y, out=out) is out
    assert_matches(cupy.asnumpy(out), scaled(cupy.asnumpy(x), cupy.asnumpy(y)))
    norms = l2_norm(cupy.ones((5, 4), dtype=cupy.float32))
    np.testing.assert_allclose(norms.copy_to_host(), np.full(5, 2.0))


@pytest.mark.cuda
@needs_gpu
def test_torch_inputs():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    x = torch.arange(4096, dtype=torch.float64, device="cuda")
    y = torch.full((4096,), 2.0, dtype=torch.float64, device="cuda")
    result = scaled_difference(x, y)
    assert_matches(result.copy_to_host(), (3 * x - y).cpu().numpy())
    out = torch.empty_like(x)
    scaled_difference(x.flip(0), y, out=out)
    torch.cuda.synchronize()
    assert_matches(out.cpu().numpy(), (3 * x.flip(0) - y).cpu().numpy())


@pytest.mark.cuda
@needs_gpu
def test_ufunc_reduce():
    x = values(np.int64, 1001, 1)
    assert add_ufunc.reduce(x) == x.sum()
    assert add_ufunc.reduce(cuda.to_device(x)) == x.sum()
    f = values(np.float64, 100_003, 2)
    np.testing.assert_allclose(add_ufunc.reduce(f), f.sum(), rtol=1e-12)
    assert add_ufunc.reduce(np.array([5.0])) == 5.0
    m = values(np.float32, (9, 40), 3)
    np.testing.assert_allclose(add_ufunc.reduce(m), m.sum(axis=0), rtol=1e-5)
    device_sum = add_ufunc.reduce(cuda.to_device(m))
    assert isinstance(device_sum, cuda.DeviceNDArray)
    np.testing.assert_allclose(device_sum.copy_to_host(), m.sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(add_ufunc.reduce(m, axis=None), m.sum(), rtol=1e-5)
    with pytest.raises(TypeError, match="empty"):
        add_ufunc.reduce(np.zeros(0))


@pytest.mark.cuda
@needs_gpu
def test_gufuncs():
    angles = np.random.default_rng(0).uniform(-np.pi, np.pi, 10)
    coords = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32)
    norms = l2_norm(coords)
    assert isinstance(norms, np.ndarray) and norms.shape == (10,)
    np.testing.assert_allclose(norms, 1.0, rtol=1e-6)
    d_norms = l2_norm(cuda.to_device(coords))
    assert isinstance(d_norms, cuda.DeviceNDArray)
    np.testing.assert_allclose(d_norms.copy_to_host(), 1.0, rtol=1e-6)
    out = np.zeros(10, np.float32)
    assert l2_norm(coords, out) is out
    np.testing.assert_allclose(out, 1.0, rtol=1e-6)
    batch = values(np.float64, (4, 3, 6, 5), 1)
    np.testing.assert_allclose(l2_norm(batch), np.linalg.norm(batch, axis=-1), rtol=1e-12)
    a, b = values(np.float64, (7, 2, 3), 2), values(np.float64, (3, 4), 3)
    np.testing.assert_allclose(matmul_core(a, b), a @ b, rtol=1e-12)
    a, b = values(np.float64, (6, 1, 2, 3), 4), values(np.float64, (5, 3, 4), 5)
    np.testing.assert_allclose(matmul_core(a, b), a @ b, rtol=1e-12)
    v = values(np.float64, (3, 8), 6)
    np.testing.assert_array_equal(shift(v, 2.5), v + 2.5)
    amounts = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(shift(v, amounts), v + amounts[:, None])
    ints = values(np.int64, (6, 9), 7)
    low, high = min_max(ints)
    np.testing.assert_array_equal(low, ints.min(axis=1))
    np.testing.assert_array_equal(high, ints.max(axis=1))
