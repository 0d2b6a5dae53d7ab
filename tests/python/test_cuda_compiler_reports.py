"""What the CUDA compiler reports, as numba-cuda reports it: architecture-specific targets
(``cc=(9, 0, 'a')`` gives ``.target sm_90a``), a kernel called without a launch configuration,
Numba's "No implementation of function ... found for signature" head of a shared or local
array whose shape is not constant, and calls of device functions given explicit signatures
(their arguments converted to the signature they fit, others refused)."""

import re

import numpy as np
import pytest
from ptx_assembly import needs_ptxas, ptxas

from taipan import complex128, cuda, float32, float64, int32, int64, void
from taipan.errors import TypingError, UnsupportedError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


def copies(a, b):
    a[0] = b[0] * 2


@needs_ptxas
@pytest.mark.parametrize(
    "cc, target, version",
    [
        ((9, 0, "a"), "sm_90a", "8.0"),
        ((10, 0, "a"), "sm_100a", "8.6"),
        ((10, 0, "f"), "sm_100f", "8.8"),
        ((12, 0, "a"), "sm_120a", "8.7"),
    ],
)
@pytest.mark.parametrize("debug", [False, True])
def test_architecture_specific_targets(cc, target, version, debug, tmp_path):
    ptx, _ = cuda.compile_ptx(
        copies, void(float32[::1], float32[::1]), cc=cc, debug=debug, opt=False
    )
    assert re.search(rf"^\.target {target}\b", ptx, re.MULTILINE), ptx[:300]
    assert re.search(rf"^\.version {re.escape(version)}$", ptx, re.MULTILINE), ptx[:300]
    ptxas(ptx, tmp_path, arch=target)


def test_plain_targets_are_unchanged_and_unknown_suffixes_refused():
    ptx, _ = cuda.compile_ptx(copies, void(float32[::1], float32[::1]), cc=(9, 0))
    assert re.search(r"^\.target sm_90$", ptx, re.MULTILINE)
    with pytest.raises(UnsupportedError, match=r"cc=\(9, 0, 'q'\): sm_90q is not a known target"):
        cuda.compile_ptx(copies, void(float32[::1], float32[::1]), cc=(9, 0, "q"))
    with pytest.raises(ValueError, match="give \\(major, minor\\)"):
        cuda.compile_ptx(copies, void(float32[::1], float32[::1]), cc=(9,))


def noop(x):
    pass


@pytest.mark.parametrize("signature", [None, "void(int32)"])
def test_a_kernel_called_without_configuration_says_so(signature):
    kernel = cuda.jit(noop) if signature is None else cuda.jit(signature)(noop)
    # numba-cuda's ValueError, and the TypeError taipan raised before: both catch it.
    for kind in (ValueError, TypeError):
        with pytest.raises(kind) as raised:
            kernel(0)
        message = str(raised.value)
        assert "launch configuration was not specified" in message
        assert "launch it as noop[griddim, blockdim](...)" in message
    device = cuda.jit(device=True)(noop)
    with pytest.raises(TypeError, match="is a CUDA device function: call it from a kernel"):
        device(0)


GLOBAL_EXTENT = 5
GLOBAL_EXTENT_2 = 6


def shape_from_a_list(a):
    s = cuda.shared.array(shape=[GLOBAL_EXTENT, GLOBAL_EXTENT_2], dtype=float32)
    a[0, 0] = s[0, 0]


def shape_from_an_element(a):
    s = cuda.shared.array(shape=a[0], dtype=float32)
    a[0] = s[0]


def shape_from_a_tuple(a):
    s = cuda.shared.array(shape=(1, a[0]), dtype=np.float32)
    a[0] = s[0, 0]


def shape_positional(a):
    s = cuda.local.array(a[0], float64)
    a[0] = s[0]


def shape_from_two_elements(a):
    s = cuda.shared.array((a[0], a[1]), int32)
    a[0] = s[0, 0]


@pytest.mark.parametrize(
    "kernel, argument, function, signature",
    [
        (
            shape_from_a_list,
            float32[:, :],
            "shared.array",
            "array(shape=list(int64)<iv=[5, 6]>, dtype=class(float32))",
        ),
        (
            shape_from_an_element,
            float32[:],
            "shared.array",
            "array(shape=float32, dtype=class(float32))",
        ),
        (
            shape_from_an_element,
            int32[:],
            "shared.array",
            "array(shape=int32, dtype=class(float32))",
        ),
        (
            shape_from_a_tuple,
            int32[:],
            "shared.array",
            "array(shape=Tuple(Literal[int](1), int32), dtype=class(float32))",
        ),
        (
            shape_from_a_tuple,
            float32[:, :],
            "shared.array",
            "array(shape=Tuple(Literal[int](1), array(float32, 1d, A)), dtype=class(float32))",
        ),
        (shape_positional, int64[:], "local.array", "array(int64, class(float64))"),
        (
            shape_from_two_elements,
            int32[:],
            "shared.array",
            "array(UniTuple(int32 x 2), class(int32))",
        ),
    ],
)
def test_a_shape_not_constant_names_the_signature_as_numba_does(
    kernel, argument, function, signature
):
    with pytest.raises(TypingError) as raised:
        cuda.jit((argument,))(kernel)
    message = str(raised.value)
    assert message.startswith(
        f"No implementation of function Function(<function {function}>) found for signature:\n"
        f" \n >>> {signature}\n"
    ), message
    # taipan's reason and the user's line follow.
    assert f"cuda.{function}(shape, dtype) needs a constant shape" in message
    assert "test_cuda_compiler_reports.py" in message


def add(x, y):
    return x + y


def kernel_llvm(device_function, *argument_types):
    def calls(r, x, y):
        r[0] = device_function(x, y)

    kernel = cuda.jit(void(*argument_types))(calls)
    return next(iter(kernel.inspect_llvm().values()))


def test_device_function_signatures_convert_the_arguments():
    # (int64, int64) given: 1.5 and 2.5 become 1 and 2 before the addition (3, not int(4.0)).
    as_integers = cuda.jit(["(int64, int64)"], device=True)(add)
    llvm = kernel_llvm(as_integers, int64[::1], float64, float64)
    assert llvm.count("fptosi double") == 2, llvm
    assert "fadd" not in llvm, llvm
    # Both given: floats take the float signature (no conversion), ints the int one.
    both = cuda.jit(["(int64, int64)", "(float64, float64)"], device=True)(add)
    llvm = kernel_llvm(both, float64[::1], float64, float64)
    assert "fadd double" in llvm and "fptosi" not in llvm, llvm
    # int32 and float64 convert safely to (float64, float64) only.
    llvm = kernel_llvm(both, float64[::1], int32, float64)
    assert "sitofp i32" in llvm and "fadd double" in llvm, llvm


def test_device_function_signatures_refuse_other_arguments():
    both = cuda.jit(["(int64, int64)", "(float64, float64)"], device=True)(add)
    with pytest.raises(TypingError) as raised:
        kernel_llvm(both, complex128[::1], complex128, complex128)
    message = str(raised.value)
    assert "Invalid use of type(CUDADispatcher(<function add at " in message
    assert "with parameters (complex128, complex128)" in message
    assert "No matching definition for argument type(s) complex128, complex128" in message


def test_tied_device_function_signatures_take_the_first_given():
    # numba-cuda resolves a tie between a device function's best signatures (numba#8307):
    # the first given, here (float32, float64), so x is rounded to float32.
    tied = cuda.jit(["(float32, float64)", "(float64, float32)", "(int64, int64)"], device=True)(
        add
    )
    llvm = kernel_llvm(tied, float64[::1], float64, float64)
    assert re.findall(r"fptrunc double %\d+", llvm) == ["fptrunc double %1"], llvm  # x
    swapped = cuda.jit(["(float64, float32)", "(float32, float64)"], device=True)(add)
    llvm = kernel_llvm(swapped, float64[::1], float64, float64)
    assert re.findall(r"fptrunc double %\d+", llvm) == ["fptrunc double %2"], llvm  # y


@needs_gpu
def test_device_function_signatures_on_the_gpu():
    def calls(r, x, y):
        r[0] = as_integers(x, y)

    as_integers = cuda.jit(["(int64, int64)"], device=True)(add)
    kernel = cuda.jit(calls)
    r = np.zeros(1, dtype=np.int64)
    kernel[1, 1](r, 1.5, 2.5)
    assert r[0] == 3


def returns_a_sum(x, y):
    return x[0] + y[0]


def test_a_kernel_returning_a_value_is_a_type_error_as_in_numba_cuda():
    signature = (int32[::1], int32[::1])
    attempts = [
        lambda: cuda.compile_ptx(returns_a_sum, signature),
        lambda: cuda.compile_all(returns_a_sum, signature, device=False, abi="numba", output="ptx"),
        lambda: cuda.jit(signature)(returns_a_sum),
    ]
    for attempt in attempts:
        for kind in (TypeError, TypingError):
            with pytest.raises(kind) as raised:
                attempt()
            message = str(raised.value)
            assert "CUDA kernel must have void return type (it returns int64)" in message
    # A device function returns it.
    _, return_type = cuda.compile_ptx(returns_a_sum, signature, device=True)
    assert str(return_type) == "int64"


def add_kernel(r, x, y):
    r[0] = x + y


def test_ambiguous_kernel_signatures_are_named_as_numba_cuda_names_them():
    kernel = cuda.jit(
        [
            "(float64[::1], float32, float64)",
            "(float64[::1], float64, float32)",
            "(float64[::1], int64, int64)",
        ]
    )(add_kernel)
    with pytest.raises(TypeError) as raised:
        kernel.specialize_for((float64[::1], float64, float64))
    array = "Array(float64, 1, 'C', False, aligned=True)"
    assert re.fullmatch(
        rf"Ambiguous overloading for <function add_kernel at 0x[0-9a-f]+> "
        rf"\({re.escape(array)}, float64, float64\):\n"
        rf"\({re.escape(array)}, float32, float64\) -> none\n"
        rf"\({re.escape(array)}, float64, float32\) -> none",
        str(raised.value),
    ), str(raised.value)
    # The CPU dispatcher keeps taipan's words.
    from taipan import njit

    add = njit(["float64(float32, float64)", "float64(float64, float32)"])(lambda x, y: x + y)
    with pytest.raises(
        TypeError, match=r"Ambiguous overloading for \S*<lambda> \(float64, float64\)"
    ):
        add(1.0, 2.0)


def test_a_callee_failing_to_type_is_named_as_numba_names_it():
    from taipan import njit

    def uses_an_undefined_name(x):
        return floor(x)  # noqa: F821

    device = cuda.jit(device=True)(uses_an_undefined_name)

    def kernel_body():
        device(1.5)

    with pytest.raises(TypingError) as raised:
        cuda.jit(kernel_body).compile(())
    message = str(raised.value)
    assert message.startswith("NameError: name 'floor' is not defined\n"), message
    assert (
        "During: resolving callee type: type(CUDADispatcher(<function "
        "test_a_callee_failing_to_type_is_named_as_numba_names_it.<locals>."
        "uses_an_undefined_name at 0x"
    ) in message
    assert "in uses_an_undefined_name:" in message  # the failing line is the callee's
    # On the CPU too, one line per level of calls.
    inner = njit(uses_an_undefined_name)
    middle = njit(lambda x: inner(x))
    outer = njit(lambda: middle(2.0))
    with pytest.raises(TypingError) as raised:
        outer()
    lines = [line for line in str(raised.value).splitlines() if line.startswith("During:")]
    assert len(lines) == 2 and "uses_an_undefined_name" in lines[0] and "lambda" in lines[1]


def test_a_cpu_function_given_signatures_is_refused_in_kernels():
    from taipan import njit

    closed = njit("(i4, i4)")(add)
    open_ = njit(add)

    def calls_closed(a):
        a[0] = closed(a[0], 1)

    def calls_open(a):
        a[0] = open_(a[0], 1)

    # numba-cuda compiles a CPU function for the GPU unless its signatures closed it.
    with pytest.raises(TypingError) as raised:
        cuda.compile_ptx(calls_closed, void(int64[::1]))
    message = str(raised.value)
    assert "Untyped global name 'add': using cpu function on device" in message
    assert "but its compilation is disabled" in message
    cuda.compile_ptx(calls_open, void(int64[::1]))
    # On the CPU the signature converts the call, as before.
    assert njit(lambda x: closed(x, 2))(2.9) == 4
