"""taipan.cuda.fft (cuFFT) and taipan.cuda.blas (cuBLAS): libraries opened at run time.

Without a GPU: where the libraries are looked for (toolkit folders, NVIDIA's wheels, the
dynamic loader) and the error naming every place when none is found, argument checks, and the
helper kernels compiling to PTX that ptxas accepts. With a GPU: results against NumPy, on
host and device arrays, streams, CuPy's arrays, and the seeds' programs (the NumbaPro slides'
FFT convolution, the blog's FFT-then-kernel) with taipan.cuda.fft and with CuPy's FFT on
taipan device arrays."""

import os

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import complex64, complex128, cuda, float32, float64, int64, uint8
from taipan.cuda import blas, libraries, library_kernels
from taipan.cuda import fft as cufft
from taipan.cuda.driver import CudaSupportError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
no_gpu = pytest.mark.skipif(cuda.is_available(), reason="a GPU is present")


def installed(key):
    """Whether library ``key`` can be found here (searched afresh)."""
    libraries.forget_libraries()
    try:
        libraries.find_library(key)
    except CudaSupportError:
        return False
    return True


@pytest.fixture
def fresh_search(monkeypatch):
    """A library search that forgets what was found before, and again afterwards."""
    libraries.forget_libraries()
    monkeypatch.setattr(cufft, "_api", None)
    monkeypatch.setattr(blas, "_api", None)
    yield monkeypatch
    libraries.forget_libraries()


def isolated(monkeypatch, folders):
    """Searches ``folders`` only."""
    monkeypatch.setattr(libraries, "search_folders", lambda: [str(f) for f in folders])
    monkeypatch.setattr(libraries, "use_dynamic_loader", False)


# --- finding the libraries ------------------------------------------------------------------


@pytest.mark.parametrize("key, function", [("cufft", cufft.fft), ("cublas", blas.dot)])
def test_missing_library_names_every_place_looked(fresh_search, tmp_path, key, function):
    isolated(fresh_search, [tmp_path])
    with pytest.raises(CudaSupportError) as raised:
        libraries.find_library(key)
    message = str(raised.value)
    assert str(tmp_path) in message
    title = libraries.LIBRARIES[key]["title"]
    assert f"{title} was not found" in message
    for soname, _ in libraries.LIBRARIES[key]["sonames"]:
        assert soname in message
    assert "pip install" in message and "CUDA_HOME" in message
    # The functions report the same when called.
    with pytest.raises(CudaSupportError, match="was not found"):
        if key == "cufft":
            cufft.get_version()
        else:
            blas.get_version()
    del function


def test_a_broken_library_is_reported_and_passed_over(fresh_search, tmp_path):
    (tmp_path / "libcufft.so.12").write_bytes(b"not a shared library")
    isolated(fresh_search, [tmp_path])
    with pytest.raises(CudaSupportError) as raised:
        libraries.find_library("cufft")
    assert "failed to load" in str(raised.value)
    assert str(tmp_path / "libcufft.so.12") in str(raised.value)


def test_libraries_too_new_for_the_driver_are_passed_over(fresh_search, tmp_path):
    isolated(fresh_search, [tmp_path])
    fresh_search.setattr(libraries, "_driver_cuda_major", lambda: 12)
    with pytest.raises(CudaSupportError) as raised:
        libraries.find_library("cublas")
    message = str(raised.value)
    assert "passed over libcublas.so.13" in message
    assert "looked for libcublas.so.12" in message


def _real_library(monkeypatch, key):
    """The file of library ``key`` on this machine (found in a folder), or skip."""
    with monkeypatch.context() as patch:
        patch.setattr(libraries, "use_dynamic_loader", False)
        if not installed(key):
            pytest.skip(f"{key} is not in a folder taipan searches here")
        path = libraries.library_path(key)
    libraries.forget_libraries()
    return os.path.realpath(path)


@pytest.mark.parametrize("key", ["cufft", "cublas"])
def test_libraries_in_nvidias_wheels_are_found(fresh_search, tmp_path, key):
    real = _real_library(fresh_search, key)
    site_packages = tmp_path / "site-packages"
    folder = site_packages / "nvidia" / key / "lib"
    folder.mkdir(parents=True)
    soname = next(
        name
        for name, _ in libraries.LIBRARIES[key]["sonames"]
        if os.path.basename(real).startswith(name)
    )
    os.symlink(real, folder / soname)
    if key == "cublas":  # cuBLAS needs cuBLASLt beside it
        lt = os.path.join(os.path.dirname(real), soname.replace("cublas", "cublasLt"))
        os.symlink(lt, folder / os.path.basename(lt))
    fresh_search.setattr("site.getsitepackages", lambda: [str(site_packages)])
    fresh_search.setattr("site.getusersitepackages", lambda: str(tmp_path / "user"))
    fresh_search.delenv("CUDA_HOME", raising=False)
    fresh_search.delenv("CUDA_PATH", raising=False)
    fresh_search.setattr("taipan.cuda.toolkit.toolkit_roots", list)
    fresh_search.setattr(libraries, "use_dynamic_loader", False)
    assert str(folder) in libraries.search_folders()
    assert libraries.library_path(key) == str(folder / soname)


def test_cuda_home_is_searched_first(fresh_search, tmp_path):
    real = _real_library(fresh_search, "cufft")
    lib64 = tmp_path / "toolkit" / "lib64"
    lib64.mkdir(parents=True)
    soname = os.path.basename(real).split(".so")[0] + ".so." + real.split(".so.")[1].split(".")[0]
    os.symlink(real, lib64 / soname)
    fresh_search.setenv("CUDA_HOME", str(tmp_path / "toolkit"))
    fresh_search.setattr(libraries, "use_dynamic_loader", False)
    assert libraries.search_folders()[0] == str(lib64)
    assert libraries.library_path("cufft") == str(lib64 / soname)


def test_versions_without_a_gpu():
    if not installed("cufft") or not installed("cublas"):
        pytest.skip("cuFFT or cuBLAS is not installed here")
    assert cufft.get_version() >= 10000
    major, minor, patch = blas.get_version()
    assert major >= 11 and minor >= 0 and patch >= 0


# --- argument checks (before any GPU work) ------------------------------------------------------


def test_fft_argument_checks():
    a = np.ones((4, 8), np.complex64)
    with pytest.raises(ValueError, match="Invalid norm"):
        cufft.fft(a, norm="sideways")
    with pytest.raises(ValueError, match="out of bounds"):
        cufft.fft(a, axis=2)
    with pytest.raises(ValueError, match="repeated axis"):
        cufft.fftn(a, axes=(0, 0))
    with pytest.raises(TypeError, match="rfft takes real input"):
        cufft.rfft(a)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cufft.fft(a, n=0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cufft.irfft(np.ones(1, np.complex64))
    with pytest.raises(TypeError, match="second argument is out"):
        cufft.fft(a, 8)
    with pytest.raises(ValueError, match="out has shape"):
        cufft.fft(a, np.empty((4, 4), np.complex64))
    with pytest.raises(TypeError, match="out has dtype"):
        cufft.fft(a, np.empty((4, 8), np.complex128))
    with pytest.raises(TypeError, match="out has dtype"):
        cufft.rfft(np.ones(8, np.float32), np.empty(5, np.complex128))
    with pytest.raises(ValueError, match="Shape and axes"):
        cufft.fftn(a, s=(4,), axes=(0, 1))
    with pytest.raises(TypeError, match="complex64 or complex128"):
        cufft.fft_inplace(np.ones(4, np.float32))
    with pytest.raises(TypeError, match="numeric"):
        cufft.fft(np.array(["a", "b"], dtype=object))
    with pytest.raises(ValueError, match="0-dimensional"):
        cufft.fft(np.complex64(1))


def test_blas_argument_checks():
    a, b = np.ones((3, 4), np.float32), np.ones((4, 5), np.float32)
    with pytest.raises(ValueError, match="transa must be"):
        blas.gemm("X", "N", 1.0, a, b)
    with pytest.raises(ValueError, match="inner dimensions differ"):
        blas.gemm("N", "T", 1.0, a, b)
    with pytest.raises(ValueError, match="C has shape"):
        blas.gemm("N", "N", 1.0, a, b, 0.0, np.empty((3, 4), np.float32))
    with pytest.raises(TypeError, match="cuBLAS works on"):
        blas.gemm("N", "N", 1.0, a.astype(np.int32), b)
    with pytest.raises(TypeError, match="alpha is complex"):
        blas.gemm("N", "N", 1j, a, b)
    with pytest.raises(TypeError, match="alpha must be a number"):
        blas.gemm("N", "N", "1", a, b)
    with pytest.raises(ValueError, match="must be a matrix"):
        blas.gemm("N", "N", 1.0, np.ones(3, np.float32), b)
    with pytest.raises(ValueError, match="x has 3 elements"):
        blas.gemv("N", 1.0, a, np.ones(3, np.float32))
    with pytest.raises(ValueError, match="y has shape"):
        blas.gemv("T", 1.0, a, np.ones(3, np.float32), 0.0, np.ones(3, np.float32))
    with pytest.raises(ValueError, match="x has 3 elements and y 4"):
        blas.dot(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="x has 3 elements and y 4"):
        blas.axpy(1.0, np.ones(3), np.ones(4))
    with pytest.raises(TypeError, match="y has dtype"):
        blas.axpy(1.0, np.ones(3), np.ones(3, np.float32))
    with pytest.raises(TypeError, match="y must be a NumPy or device array"):
        blas.axpy(1.0, np.ones(3), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="must be a vector"):
        blas.nrm2(np.ones((2, 2)))


@no_gpu
def test_without_a_gpu_the_libraries_report_it():
    with pytest.raises(CudaSupportError):
        cufft.fft(np.ones(8, np.complex64))
    with pytest.raises(CudaSupportError):
        blas.dot(np.ones(8), np.ones(8))


# --- the helper kernels ---------------------------------------------------------------------

A4 = [t[:, :, :, :] for t in (complex64, complex128, float32, float64, int64, uint8)]
HELPERS = [
    (library_kernels._copy4, (A4[0], A4[2])),
    (library_kernels._copy4, (A4[0], A4[0])),
    (library_kernels._copy4, (A4[1], A4[4])),
    (library_kernels._copy4, (A4[3], A4[5])),
    (library_kernels._copy4, (A4[1], A4[1])),
    (library_kernels._scale, (float32[::1], float32)),
    (library_kernels._scale, (float64[::1], float64)),
    (library_kernels._negate_odd, (float32[::1],)),
    (library_kernels._negate_odd, (float64[::1],)),
]


@needs_ptxas
@pytest.mark.parametrize("kernel, signature", HELPERS)
def test_helper_kernels_compile_to_ptx_that_ptxas_accepts(kernel, signature, tmp_path):
    ptxas(kernel.compile(signature).ptx, tmp_path)


# --- cuFFT on the GPU -----------------------------------------------------------------------

RNG = np.random.default_rng(20240611)


def random(shape, dtype):
    dtype = np.dtype(dtype)
    values = RNG.standard_normal(shape)
    if dtype.kind == "c":
        values = values + 1j * RNG.standard_normal(shape)
    return values.astype(dtype)


def close(actual, expected):
    """FFT results agree to the rounding of their precision, relative to their size."""
    actual = actual.copy_to_host() if hasattr(actual, "copy_to_host") else np.asarray(actual)
    assert actual.shape == expected.shape
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    single = expected.dtype in (np.float32, np.complex64)
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    np.testing.assert_allclose(actual, expected, rtol=0, atol=(2e-5 if single else 1e-12) * scale)


FFT_DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


@needs_gpu
@pytest.mark.parametrize("dtype", FFT_DTYPES)
@pytest.mark.parametrize("shape", [(64,), (7, 30), (3, 4, 16), (5, 1)])
@pytest.mark.parametrize("name", ["fft", "ifft"])
def test_fft_one_axis_matches_numpy(name, shape, dtype):
    a = random(shape, dtype)
    expected = getattr(np.fft, name)(a)
    close(getattr(cufft, name)(a), expected)  # host in, host out
    result = getattr(cufft, name)(cuda.to_device(a))
    assert isinstance(result, cuda.DeviceNDArray)
    close(result, expected)
    for axis in range(len(shape)):
        close(
            getattr(cufft, name)(cuda.to_device(a), axis=axis), getattr(np.fft, name)(a, axis=axis)
        )


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, axis", [((64,), -1), ((63,), -1), ((6, 17), 0), ((3, 10, 5), 1)])
def test_rfft_and_irfft_match_numpy(shape, axis, dtype):
    a = random(shape, dtype)
    spectrum = np.fft.rfft(a, axis=axis)
    close(cufft.rfft(a, axis=axis), spectrum)
    device_spectrum = cufft.rfft(cuda.to_device(a), axis=axis)
    close(device_spectrum, spectrum)
    n = shape[axis]
    before = device_spectrum.copy_to_host()
    close(cufft.irfft(device_spectrum, n=n, axis=axis), np.fft.irfft(spectrum, n=n, axis=axis))
    assert np.array_equal(device_spectrum.copy_to_host(), before)  # C2R's input is kept
    close(cufft.irfft(spectrum, axis=axis), np.fft.irfft(spectrum, axis=axis))


@needs_gpu
@pytest.mark.parametrize("dtype", FFT_DTYPES)
@pytest.mark.parametrize("axes", [(-2, -1), (0, 1), (0, 2), (1, 0), (2, 0)])
def test_two_dimensional_transforms_match_numpy(axes, dtype):
    a = random((6, 10, 8), dtype)
    for name in ("fft2", "ifft2"):
        close(getattr(cufft, name)(a, axes=axes), getattr(np.fft, name)(a, axes=axes))
    if np.dtype(dtype).kind == "f":
        spectrum = np.fft.rfft2(a, axes=axes)
        close(cufft.rfft2(cuda.to_device(a), axes=axes), spectrum)
        s = [a.shape[axis] for axis in axes]
        close(cufft.irfft2(spectrum, s=s, axes=axes), np.fft.irfft2(spectrum, s=s, axes=axes))


@needs_gpu
@pytest.mark.parametrize("shape", [(4, 6, 8), (2, 3, 4, 5), (3, 2, 2, 2, 4)])
def test_n_dimensional_transforms_match_numpy(shape):
    a = random(shape, np.complex128)
    close(cufft.fftn(a), np.fft.fftn(a))
    close(cufft.ifftn(cuda.to_device(a)), np.fft.ifftn(a))
    real = a.real.copy()
    close(cufft.rfftn(real), np.fft.rfftn(real))
    spectrum = np.fft.rfftn(real)
    axes = list(range(len(shape)))
    close(cufft.irfftn(spectrum, s=shape), np.fft.irfftn(spectrum, s=shape, axes=axes))


@needs_gpu
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_normalisation_follows_numpy(norm):
    a = random((5, 12), np.complex64)
    for name in ("fft", "ifft", "fft2", "ifft2"):
        close(getattr(cufft, name)(a, norm=norm), getattr(np.fft, name)(a, norm=norm))
    real = random((5, 12), np.float64)
    close(cufft.rfft(real, norm=norm), np.fft.rfft(real, norm=norm))
    spectrum = np.fft.rfft(real)
    close(cufft.irfft(spectrum, norm=norm), np.fft.irfft(spectrum, norm=norm))


@needs_gpu
@pytest.mark.parametrize("n", [5, 16, 40])
def test_padding_and_cutting_follow_numpy(n):
    a = random((3, 16), np.complex64)
    close(cufft.fft(a, n=n), np.fft.fft(a, n=n))
    close(cufft.fft(cuda.to_device(a), n=n), np.fft.fft(a, n=n))
    close(cufft.ifft(cuda.to_device(a), n=n, axis=0), np.fft.ifft(a, n=n, axis=0))
    real = random((3, 16), np.float32)
    close(cufft.rfft(cuda.to_device(real), n=n), np.fft.rfft(real, n=n))
    spectrum = np.fft.rfft(real)
    close(
        cufft.irfft(cuda.to_device(spectrum.astype(np.complex64)), n=n),
        np.fft.irfft(spectrum.astype(np.complex64), n=n),
    )
    close(cufft.fft2(a, s=(4, n)), np.fft.fft2(a, s=(4, n)))


@needs_gpu
def test_out_arguments():
    a = random((4, 32), np.complex64)
    expected = np.fft.fft(a)
    device_out = cuda.device_array((4, 32), np.complex64)
    assert cufft.fft(a, device_out) is device_out  # Pyculib's order: fft(a, out)
    close(device_out, expected)
    host_out = np.empty((4, 32), np.complex64)
    assert cufft.fft(cuda.to_device(a), host_out) is host_out
    close(host_out, expected)
    strided_out = cuda.device_array((4, 64), np.complex64)[:, ::2]
    cufft.fft(a, out=strided_out)
    close(strided_out.copy_to_host(), expected)
    d_a = cuda.to_device(a)
    cufft.fft(d_a, d_a)  # in place
    close(d_a, expected)


@needs_gpu
def test_inputs_of_any_layout_and_dtype():
    a = random((8, 12), np.complex128)
    d_a = cuda.to_device(a)
    close(cufft.fft(d_a[:, 2:10]), np.fft.fft(a[:, 2:10]))  # a strided view
    close(cufft.fft(d_a[::2]), np.fft.fft(a[::2]))
    f_order = np.asfortranarray(random((6, 10), np.float64))
    close(cufft.fft2(f_order), np.fft.fft2(f_order))
    ints = np.arange(24, dtype=np.int64).reshape(4, 6)
    close(cufft.fft(cuda.to_device(ints)), np.fft.fft(ints))  # cast on the device
    close(cufft.rfft(cuda.to_device(ints)), np.fft.rfft(ints))
    floats = random((16,), np.float32)
    close(cufft.fft(cuda.to_device(floats)), np.fft.fft(floats))
    empty = np.zeros((0, 8), np.complex64)
    assert cufft.fft(empty).shape == (0, 8)


@needs_gpu
def test_inplace_transforms_round_trip():
    image = random((16, 24), np.complex64)
    d_image = cuda.to_device(image)
    assert cufft.fft_inplace(d_image) is d_image
    close(d_image, np.fft.fftn(image))
    cufft.ifft_inplace(d_image)
    close(d_image, image)
    host = image.copy()
    cufft.fft_inplace(host)
    close(host, np.fft.fftn(image))


@needs_gpu
def test_transforms_on_a_stream():
    stream = cuda.stream()
    a = random((64, 128), np.complex64)
    d_a = cuda.to_device(a, stream=stream)
    d_out = cufft.fft(d_a, stream=stream)
    back = cufft.ifft(d_out, stream=stream)
    host = back.copy_to_host(stream=stream)
    stream.synchronize()
    close(host, np.fft.ifft(np.fft.fft(a)))
    close(cufft.rfft(a.real.copy(), stream=stream), np.fft.rfft(a.real))


@needs_gpu
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_repeated_calls_take_the_recorded_recipe_and_stay_right(norm):
    # The second call of the same layout skips the argument checks (fft._Recipe): its results,
    # new arrays or out=, scaled or not, batched or not, must be the first call's.
    a = random((3, 64), np.complex64)
    d_a = cuda.to_device(a)
    out = cuda.device_array_like(d_a)
    expected = np.fft.fft(a, norm=norm)
    for _ in range(3):
        close(cufft.fft(d_a, norm=norm).copy_to_host(), expected)
        result = cufft.fft(d_a, out, norm=norm)
        assert result is out
        close(out.copy_to_host(), expected)
        close(cufft.ifft(d_a, n=32, norm=norm).copy_to_host(), np.fft.ifft(a, n=32, norm=norm))
    other = random((3, 64), np.complex64)
    close(cufft.fft(cuda.to_device(other), norm=norm).copy_to_host(), np.fft.fft(other, norm=norm))
    cufft.clear_plan_cache()
    assert not cufft._recipes
    close(cufft.fft(d_a, norm=norm).copy_to_host(), expected)


@needs_gpu
def test_large_single_precision_transform():
    a = random((1 << 20,), np.complex64)
    close(cufft.fft(a), np.fft.fft(a))


@needs_gpu
def test_plans_are_cached_and_cleared():
    a = cuda.to_device(random((4, 16), np.complex64))
    cufft.clear_plan_cache()
    cufft.fft(a)
    assert len(cufft._plans) == 1
    cufft.fft(a)
    assert len(cufft._plans) == 1
    cufft.clear_plan_cache()
    assert not cufft._plans


# --- cuBLAS on the GPU ----------------------------------------------------------------------

BLAS_DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def blas_close(actual, expected):
    actual = actual.copy_to_host() if hasattr(actual, "copy_to_host") else np.asarray(actual)
    single = np.dtype(expected.dtype) in (np.float32, np.complex64)
    np.testing.assert_allclose(actual, expected, rtol=2e-4 if single else 1e-11, atol=1e-5)


def op(trans, x):
    return {"N": x, "T": x.T, "C": x.conj().T}[trans]


@needs_gpu
@pytest.mark.parametrize("dtype", BLAS_DTYPES)
@pytest.mark.parametrize("transa", ["N", "T", "C"])
@pytest.mark.parametrize("transb", ["N", "t", "C"])
@pytest.mark.parametrize("orders", ["CCC", "FFF", "CFC", "FCF", "CCF"])
def test_gemm_matches_numpy(dtype, transa, transb, orders):
    m, n, k = 7, 5, 9
    a = random((m, k) if transa == "N" else (k, m), dtype)
    b = random((k, n) if transb == "N" else (n, k), dtype)
    c = random((m, n), dtype)
    a, b, c = (np.asarray(x, order=o) for x, o in zip((a, b, c), orders))
    alpha, beta = (1.5 - 0.5j, 0.25 + 1j) if np.dtype(dtype).kind == "c" else (1.5, 0.25)
    expected = alpha * op(transa, a) @ op(transb.upper(), b) + beta * c
    blas_close(blas.gemm(transa, transb, alpha, a, b, beta, c.copy(order="K")), expected)
    d_c = cuda.to_device(c) if orders[2] == "C" else None
    result = blas.gemm(
        transa,
        transb,
        alpha,
        cuda.to_device(a) if orders[0] == "C" else a,
        b,
        beta,
        d_c if d_c is not None else c.copy(order="K"),
    )
    blas_close(result, expected)
    # Without C: a new array, on the device when an operand is.
    product = blas.gemm(transa, transb, alpha, cuda.to_device(np.ascontiguousarray(a)), b)
    assert isinstance(product, cuda.DeviceNDArray)
    blas_close(product, alpha * op(transa, a) @ op(transb.upper(), b))


@needs_gpu
def test_gemm_on_views_and_mixed_dtypes():
    big = random((12, 20), np.float64)
    d_big = cuda.to_device(big)
    a, b = d_big[2:7, 3:11], d_big[4:12, 10:14]  # leading dimension 20, inner stride 1
    blas_close(blas.gemm("N", "N", 1.0, a, b), big[2:7, 3:11] @ big[4:12, 10:14])
    every_other = d_big[::2, ::2]  # no unit stride: copied
    blas_close(
        blas.gemm("T", "N", 2.0, every_other, every_other), 2.0 * big[::2, ::2].T @ big[::2, ::2]
    )
    host32 = random((4, 4), np.float32)
    mixed = blas.gemm("N", "N", 1.0, host32, cuda.to_device(big[:4, :4]))
    assert mixed.dtype == np.float64
    blas_close(mixed, host32.astype(np.float64) @ big[:4, :4])


@needs_gpu
@pytest.mark.parametrize("dtype", BLAS_DTYPES)
@pytest.mark.parametrize("trans", ["N", "T", "C"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_gemv_matches_numpy(dtype, trans, order):
    a = np.asarray(random((6, 4), dtype), order=order)
    rows, cols = a.shape
    x = random(cols if trans == "N" else rows, dtype)
    y = random(rows if trans == "N" else cols, dtype)
    alpha, beta = (2.0 + 1j, -1.0) if np.dtype(dtype).kind == "c" else (2.0, -1.0)
    expected = alpha * op(trans, a) @ x + beta * y
    blas_close(blas.gemv(trans, alpha, a, x, beta, y.copy()), expected)
    d_y = cuda.to_device(y)
    assert blas.gemv(trans, alpha, cuda.to_device(a), x, beta, d_y) is d_y
    blas_close(d_y, expected)
    blas_close(blas.gemv(trans, alpha, a, cuda.to_device(x)), alpha * op(trans, a) @ x)
    # Strided vectors go through cuBLAS's increments.
    long_x = np.zeros(2 * len(x), dtype)
    long_x[::2] = x
    blas_close(blas.gemv(trans, alpha, a, cuda.to_device(long_x)[::2]), alpha * op(trans, a) @ x)


@needs_gpu
@pytest.mark.parametrize("dtype", BLAS_DTYPES)
def test_level_one_functions_match_numpy(dtype):
    x, y = random(1000, dtype), random(1000, dtype)
    alpha = 0.5 - 2j if np.dtype(dtype).kind == "c" else 0.5
    host_y = y.copy()
    assert blas.axpy(alpha, x, host_y) is host_y
    blas_close(host_y, alpha * x + y)
    d_y = cuda.to_device(y)
    assert blas.axpy(alpha, cuda.to_device(x), d_y) is d_y
    blas_close(d_y, alpha * x + y)
    single = np.dtype(dtype) in (np.float32, np.complex64)
    tolerance = 1e-3 if single else 1e-10
    assert blas.dot(x, y) == pytest.approx(np.dot(x, y), rel=tolerance)
    assert blas.dot(cuda.to_device(x), cuda.to_device(y)) == pytest.approx(
        np.dot(x, y), rel=tolerance
    )
    assert blas.dotc(x, y) == pytest.approx(np.vdot(x, y), rel=tolerance)
    norm = blas.nrm2(cuda.to_device(x))
    assert norm == pytest.approx(np.linalg.norm(x), rel=tolerance)
    assert np.dtype(type(norm)) == np.dtype(np.float32 if single else np.float64)
    d_x = cuda.to_device(np.repeat(x, 3))
    assert blas.nrm2(d_x[::3]) == pytest.approx(np.linalg.norm(x), rel=tolerance)
    assert blas.dot(np.zeros(0, dtype), np.zeros(0, dtype)) == 0


@needs_gpu
def test_blas_on_a_stream_after_a_kernel():
    """Work on a stream is ordered after taipan's kernels on it: the libraries use taipan's
    context and stream."""

    @cuda.jit
    def fill(values, value):
        i = cuda.grid(1)
        if i < values.shape[0]:
            values[i] = value

    stream = cuda.stream()
    x = cuda.device_array(4096, np.float32, stream=stream)
    y = cuda.device_array(4096, np.float32, stream=stream)
    fill[16, 256, stream](x, np.float32(2.0))
    fill[16, 256, stream](y, np.float32(3.0))
    blas.axpy(0.5, x, y, stream=stream)
    assert blas.dot(x, y, stream=stream) == pytest.approx(4096 * 2.0 * 4.0)
    product = blas.gemm("N", "N", 1.0, x.reshape(64, 64), y.reshape(64, 64), stream=stream)
    host = product.copy_to_host(stream=stream)
    stream.synchronize()
    assert np.all(host == 64 * 2.0 * 4.0)


# --- CuPy's arrays and CuPy's FFT -----------------------------------------------------------


@needs_gpu
def test_cupy_arrays_in_taipans_libraries():
    cupy = pytest.importorskip("cupy")
    a = random((8, 64), np.complex64)
    c_a = cupy.asarray(a)
    result = cufft.fft(c_a)
    assert isinstance(result, cuda.DeviceNDArray)
    close(result, cupy.fft.fft(c_a).get())
    m = random((32, 16), np.float32)
    c_m = cupy.asarray(m)
    c_out = cupy.zeros((32, 32), np.float32)
    blas.gemm("N", "T", 1.0, c_m, c_m, 0.0, c_out)
    blas_close(c_out.get(), m @ m.T)


@needs_gpu
def test_cupy_fft_on_taipan_device_arrays():
    cupy = pytest.importorskip("cupy")
    a = random((16, 128), np.complex128)
    d_a = cuda.to_device(a)
    view = cupy.asarray(d_a)  # no copy: the CUDA Array Interface
    assert view.data.ptr == d_a.device_ctypes_pointer
    close(cupy.fft.fft(view).get(), np.fft.fft(a))
    close(cufft.fft(d_a), cupy.fft.fft(view).get())


# --- the seeds' programs ----------------------------------------------------------------------


@cuda.jit
def vmult(a, b, out):
    """The slides' elementwise complex64 product (there a @vectorize(target='gpu') ufunc)."""
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] * b[i, j]


@cuda.jit
def apply_mask(frame, mask):
    """The blog's kernel: the transformed frame times a mask, in place."""
    i, j = cuda.grid(2)
    if i < frame.shape[0] and j < frame.shape[1]:
        frame[i, j] *= mask[i, j]


def _grid(shape, block=(16, 16)):
    return tuple((n + b - 1) // b for n, b in zip(shape, block)), block


def _convolution_data():
    image = RNG.random((64, 96)).astype(np.complex64)
    response = np.zeros((64, 96), np.complex64)
    response[:3, :3] = 1.0 / 9.0  # a box blur
    expected = np.fft.ifft2(np.fft.fft2(image) * np.fft.fft2(response)).astype(np.complex64)
    return image, response, expected


@needs_gpu
def test_numbapro_fft_convolution_with_taipan():
    """The NumbaPro slides' task1: FFT both, multiply, inverse FFT, all in place on the GPU
    (their ifft was unnormalised; taipan's divides by n as NumPy's does)."""
    image, response, expected = _convolution_data()
    d_image_complex = cuda.to_device(image)
    d_response_complex = cuda.to_device(response)

    def task1(cufft, d_image_complex, d_response_complex):
        cufft.fft_inplace(d_image_complex)
        cufft.fft_inplace(d_response_complex)
        grid, block = _grid(d_image_complex.shape)
        vmult[grid, block](d_image_complex, d_response_complex, d_image_complex)
        cufft.ifft_inplace(d_image_complex)

    task1(cufft, d_image_complex, d_response_complex)
    close(d_image_complex, expected)
    # The out-of-place forms of the slides: cufft.fft(in_array, out_array).
    spectrum = cuda.device_array_like(image)
    cufft.fft2(image, spectrum)
    np.testing.assert_allclose(spectrum.copy_to_host(), np.fft.fft2(image), rtol=1e-4, atol=1e-3)


@needs_gpu
def test_numbapro_fft_convolution_with_cupys_fft():
    cupy = pytest.importorskip("cupy")
    image, response, expected = _convolution_data()
    d_image = cuda.to_device(image)
    d_response = cuda.to_device(response)
    c_image, c_response = cupy.asarray(d_image), cupy.asarray(d_response)  # views, no copies
    c_image[...] = cupy.fft.fft2(c_image)
    c_response[...] = cupy.fft.fft2(c_response)
    cupy.cuda.get_current_stream().synchronize()
    grid, block = _grid(image.shape)
    vmult[grid, block](d_image, d_response, d_image)  # taipan's kernel on the same memory
    cuda.synchronize()
    c_image[...] = cupy.fft.ifft2(c_image)
    cupy.cuda.get_current_stream().synchronize()
    close(d_image, expected)


def _blog_data():
    frame = RNG.random((720, 1280)).astype(np.float32)
    mask = np.zeros((720, 1280), np.float32)
    mask[:100, :200] = 1.0  # keep low frequencies
    expected = np.fft.ifft2(np.fft.fft2(frame.astype(np.complex64)) * mask).astype(np.complex64)
    return frame, mask, expected


@needs_gpu
def test_blog_fft_then_kernel_with_taipan():
    """The blog's fragment: FFT (host in, device out), a mask kernel on the device, inverse
    FFT (device in, host out). Pyculib's fft of a 2-D array transformed both axes: fft2 here."""
    frame, mask, expected = _blog_data()
    out = np.empty_like(mask, dtype=np.complex64)
    gpu_temp = cuda.to_device(out)
    gpu_mask = cuda.to_device(mask)
    cufft.fft2(frame.astype(np.complex64), gpu_temp)  # implied host->device copy
    grid, block = _grid(frame.shape)
    apply_mask[grid, block](gpu_temp, gpu_mask)  # all on device
    cufft.ifft2(gpu_temp, out)  # implied device->host
    close(out, expected)


@needs_gpu
def test_blog_fft_then_kernel_with_cupys_fft():
    cupy = pytest.importorskip("cupy")
    frame, mask, expected = _blog_data()
    gpu_temp = cuda.to_device(frame.astype(np.complex64))
    gpu_mask = cuda.to_device(mask)
    view = cupy.asarray(gpu_temp)
    view[...] = cupy.fft.fft2(view)
    cupy.cuda.get_current_stream().synchronize()
    grid, block = _grid(frame.shape)
    apply_mask[grid, block](gpu_temp, gpu_mask)
    cuda.synchronize()
    out = cupy.fft.ifft2(view).get()
    close(out, expected)
