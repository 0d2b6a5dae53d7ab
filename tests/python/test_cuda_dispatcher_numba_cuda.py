"""numba-cuda's dispatcher API on ``cuda.jit`` kernels: ``specialize`` (a dispatcher per
compute capability and argument types, kept in ``specializations``; a specialised one refuses
to be specialised again, as does one made for a single signature), the ``get_*`` kernel
properties (read from the driver: GPU only), and the warnings numba-cuda gives (debug
information with optimisation on; a grid too small for the GPU)."""

import warnings

import numpy as np
import pytest

from taipan import complex128, config, cuda, float32, float64, int32, int64, void
from taipan.errors import InvalidConfigWarning, PerformanceWarning

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def empty(x):
    pass


def scale(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] = 3 * x[i]


def test_specialize_keeps_one_dispatcher_per_types():
    kernel = cuda.jit(empty)
    assert kernel.specializations == {} and not kernel.specialized
    f32 = kernel.specialize(float32[::1])
    assert f32.specialized and len(kernel.specializations) == 1
    assert kernel.specialize(float32[::1]) is f32
    i32 = kernel.specialize(int32[::1])
    assert i32 is not f32 and len(kernel.specializations) == 2
    assert list(f32.overloads) == [(float32[::1],)]
    assert kernel.specialize(np.zeros(3, np.float32)) is f32  # a value's type


def test_specialize_orders_and_layouts_apart():
    kernel = cuda.jit(lambda x, y: None)
    any_layout = kernel.specialize(float32[:], float32[:])
    contiguous = kernel.specialize(float32[::1], float32[::1])
    assert any_layout is not contiguous and len(kernel.specializations) == 2


@pytest.mark.parametrize(
    "make",
    [
        lambda: cuda.jit("void(float32[::1])")(empty),
        lambda: cuda.jit(void(int32[::1]))(empty),
        lambda: cuda.jit(empty).specialize(int32[::1]),
    ],
)
def test_a_specialised_dispatcher_is_not_specialised_again(make):
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        make().specialize(float32[::1])


def test_a_list_of_signatures_is_not_a_specialisation():
    kernel = cuda.jit(["void(float32[::1])", "void(int32[::1])"])(empty)
    assert not kernel.specialized
    assert kernel.specialize(float32[::1]).specialized


def test_debug_with_optimisation_warns_as_numba_cuda():
    with pytest.warns(InvalidConfigWarning, match="not supported by CUDA"):
        cuda.jit(debug=True, opt=True)
    with pytest.warns(InvalidConfigWarning, match="not supported by CUDA"):
        cuda.jit(debug=True)  # opt follows config.OPT, 3 by default
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.jit(debug=True, opt=False)
        cuda.jit()


@needs_gpu
@pytest.mark.cuda
def test_kernel_properties_come_from_the_driver():
    kernel = cuda.jit(scale)
    x = np.ones(10, np.float32)
    kernel[1, 10](x, 10)
    kernel[1, 10](np.ones(10), 10)
    signature = void(float32[::1], int64)
    registers = kernel.get_regs_per_thread()
    assert len(registers) == 2 and all(isinstance(v, int) and v > 0 for v in registers.values())
    assert kernel.get_regs_per_thread(signature) == registers[tuple(signature.args)]
    for name in ("get_const_mem_size", "get_shared_mem_per_block", "get_local_mem_per_thread"):
        assert all(v >= 0 for v in getattr(kernel, name)().values())
    assert all(v >= 32 for v in kernel.get_max_threads_per_block().values())
    specialised = cuda.jit("void(float32[::1], int64)")(scale)
    assert isinstance(specialised.get_regs_per_thread(), int)


@needs_gpu
@pytest.mark.cuda
def test_a_grid_too_small_warns(monkeypatch):
    kernel = cuda.jit(lambda: None)
    monkeypatch.setattr(config, "CUDA_LOW_OCCUPANCY_WARNINGS", True)
    with pytest.warns(PerformanceWarning, match="Grid size 1 .+ low occupancy"):
        kernel[1, 1]()
    monkeypatch.setattr(config, "CUDA_LOW_OCCUPANCY_WARNINGS", False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel[2, 1]()


def add_kernel(r, x, y):
    r[0] = x + y


def test_explicit_signatures_refuse_types_none_takes_or_two_tie():
    """A kernel given signatures launches only for types one of them takes, by Numba's rule
    (the launcher asks specialize_for for new types): none → "No matching definition", two
    equally good → "Ambiguous overloading"; exact types reuse the signature's kernel."""
    kernel = cuda.jit(["(int64[::1], int64, int64)", "(float64[::1], float64, float64)"])(
        add_kernel
    )
    compiled = dict(kernel.overloads)
    with pytest.raises(TypeError, match="No matching definition for argument type"):
        kernel.specialize_for((complex128[::1], complex128, complex128))
    assert kernel.specialize_for((int64[::1], int64, int64)) is compiled[(int64[::1], int64, int64)]
    tied = cuda.jit(
        [
            "(float64[::1], float32, float64)",
            "(float64[::1], float64, float32)",
            "(float64[::1], int64, int64)",
        ]
    )(add_kernel)
    with pytest.raises(TypeError, match="Ambiguous overloading") as raised:
        tied.specialize_for((float64[::1], float64, float64))
    assert "int64" not in str(raised.value)
    assert len(tied.overloads) == 3
    # Without signatures every launch's types compile.
    assert cuda.jit(add_kernel).specialize_for((complex128[::1], complex128, complex128))


def test_types_a_signature_takes_through_conversions_are_converted_to_it():
    """Numba's rule picks (float64, float64) for (int64, float64) arguments (a safe conversion
    beats an unsafe one) and (int64, int64) for floats (unsafe: truncation); the launch's
    kernel converts the scalars and computes what the signature's kernel computes. The
    signatures' own kernels are the dispatcher's overloads; converting kernels are not."""
    kernel = cuda.jit(["(float64[::1], float32, float32)", "(float64[::1], float64, float64)"])(
        add_kernel
    )
    converting = kernel.specialize_for((float64[::1], int64, float64))
    assert "cvt.rn.f64.s64" in converting.ptx and "add.f64" in converting.ptx
    assert "f32" not in converting.ptx.split(".entry", 1)[1]
    assert len(kernel.overloads) == 2
    assert kernel.specialize_for((float64[::1], int64, float64)) is converting
    truncating = cuda.jit(["(int64[::1], int64, int64)"])(add_kernel)
    ptx = truncating.specialize_for((int64[::1], float64, float64)).ptx
    assert ptx.count("cvt.rzi.s64.f64") == 2 and "add.s64" in ptx


@needs_gpu
@pytest.mark.cuda
def test_converted_launches_compute_as_the_signature():
    kernel = cuda.jit(["(int64[::1], int64, int64)"])(add_kernel)
    r = np.zeros(1, dtype=np.int64)
    kernel[1, 1](r, 1.5, 2.5)
    assert r[0] == 3 and len(kernel.overloads) == 1
    narrow = cuda.jit(["(float64[::1], float32, float32)"])(add_kernel)
    r = np.zeros(1, dtype=np.float64)
    narrow[1, 1](r, 1.0, 2.0**-25)
    assert r[0] == 1.0  # 2**-25 is lost adding in float32, as numba-cuda computes it
    with pytest.raises(TypeError, match="No matching definition"):
        kernel[1, 1](np.zeros(1, dtype=np.complex128), 1j, 1j)
