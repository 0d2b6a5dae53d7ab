"""An intrinsic's codegen returning nothing, in a CUDA kernel as on the CPU: for a void
signature the call works (the kernel assembles), for a signature with a result it is Numba's
LoweringError ("non-void function returns None") naming the user's line; and numba-cuda's
``numba.cuda.errors`` in the shim of tools/numba_compat is taipan's classes (its test imports
``LoweringError`` from there)."""

import json
import os
import pathlib
import textwrap

import pytest
from child_processes import run_python
from ptx_assembly import needs_ptxas, ptxas

import taipan
from taipan import cuda, types
from taipan.errors import LoweringError, TypingError
from taipan.extending import intrinsic

SHIM = pathlib.Path(__file__).resolve().parents[2] / "tools" / "numba_compat" / "shim"


@intrinsic
def does_nothing(typingctx, a):
    def codegen(context, builder, signature, args):
        pass  # a void signature: nothing to return

    return types.void(a), codegen


@intrinsic
def forgets_its_result(typingctx, a):
    def codegen(context, builder, signature, args):
        pass  # the signature has a result, which the codegen does not return

    return a(a), codegen


@needs_ptxas
@pytest.mark.parametrize("argument", ["int32", "float64", "int64[:]"])
def test_a_void_intrinsic_in_a_kernel_may_return_nothing(argument, tmp_path):
    def kernel(x):
        does_nothing(x)

    compiled = cuda.jit(kernel).compile(f"void({argument})")
    ptxas(compiled.ptx, tmp_path)


@pytest.mark.parametrize("argument", ["int32", "float32"])
@pytest.mark.parametrize("used", [True, False])
def test_a_non_void_intrinsic_in_a_kernel_returning_nothing_is_a_lowering_error(argument, used):
    def uses_the_result(out, x):
        out[0] = forgets_its_result(x)

    def drops_the_result(out, x):
        forgets_its_result(x)

    kernel = uses_the_result if used else drops_the_result
    with pytest.raises(LoweringError) as raised:
        cuda.jit(f"void({argument}[:], {argument})")(kernel)
    message = raised.value.msg
    assert message.startswith("non-void function returns None from implementation")
    assert f"return type is {argument}" in message
    line = "out[0] = forgets_its_result(x)" if used else "    forgets_its_result(x)"
    assert line in message and "forgets_its_result" in message.splitlines()[0]
    assert isinstance(raised.value, TypingError)  # codegen runs while taipan types the call


def test_a_device_function_calling_it_is_a_lowering_error_at_the_kernel():
    @cuda.jit(device=True)
    def helper(x):
        return forgets_its_result(x)

    def kernel(out, x):
        out[0] = helper(x)

    with pytest.raises(LoweringError, match="non-void function returns None") as raised:
        cuda.jit("void(int64[:], int64)")(kernel)
    assert "return forgets_its_result(x)" in raised.value.msg


def run_with_shim(code):
    # Not child_environment: the shim's numba must come before taipan's folder, which may be a
    # site-packages holding the real numba, and none of this process's paths may follow.
    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    taipan_parent = pathlib.Path(taipan.__file__).resolve().parents[1]
    environment["PYTHONPATH"] = os.pathsep.join([str(SHIM), str(taipan_parent)])
    environment["NUMBA_SHIM_MODE"] = "taipan"
    completed = run_python(["-c", textwrap.dedent(code)], env=environment, timeout=300)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_the_shims_numba_cuda_errors_are_taipans_classes():
    result = run_with_shim(
        """
        import json
        import taipan.errors
        from numba.core import errors as core_errors
        from numba.cuda import errors
        from numba.cuda.errors import LoweringError

        def refusal(*dimensions):
            try:
                errors.normalize_kernel_dimensions(*dimensions)
            except (TypeError, ValueError) as error:
                return [type(error).__name__, str(error)]

        runtime_error = errors.KernelRuntimeError("boom", tid=[1, 0, 0], ctaid=[2, 0, 0])
        print(json.dumps({
            "lowering": LoweringError is taipan.errors.LoweringError,
            "core": core_errors.LoweringError is LoweringError,
            "cuda_lowering": issubclass(errors.CudaLoweringError, LoweringError),
            "typing": issubclass(LoweringError, core_errors.TypingError),
            "bytecode": errors.UnsupportedBytecodeError is core_errors.UnsupportedBytecodeError,
            "dimensions": errors.normalize_kernel_dimensions(4, (8, 2)),
            "missing": refusal(None, 32),
            "too_many": refusal((1, 2, 3, 4), 1),
            "not_integers": refusal(1.5, 1),
            "runtime": [str(runtime_error), runtime_error.msg, runtime_error.tid],
        }))
        """
    )
    assert result["lowering"] and result["core"] and result["cuda_lowering"] and result["typing"]
    assert result["bytecode"]
    assert result["dimensions"] == [[4, 1, 1], [8, 2, 1]]
    assert result["missing"][0] == "ValueError"
    assert "Kernel launch configuration was not specified" in result["missing"][1]
    assert result["too_many"] == [
        "ValueError",
        "griddim must be a sequence of 1, 2 or 3 integers, got [1, 2, 3, 4]",
    ]
    assert result["not_integers"] == [
        "TypeError",
        "griddim must be a sequence of integers, got [1.5]",
    ]
    assert result["runtime"] == [
        "An exception was raised in thread=[1, 0, 0] block=[2, 0, 0]\n\tboom",
        "boom",
        [1, 0, 0],
    ]


def test_numba_cudas_void_return_test_form_through_the_shim():
    """numba-cuda's TestIntrinsic::test_void_return compiled through the shim (its launch needs
    a GPU, so the kernels are compiled for their signature here)."""
    result = run_with_shim(
        """
        import json
        from numba.cuda import jit, types
        from numba.cuda.errors import LoweringError
        from numba.cuda.extending import intrinsic

        @intrinsic
        def void_func(typingctx, a):
            def codegen(context, builder, signature, args):
                pass
            return types.void(types.int32), codegen

        @intrinsic
        def non_void_func(typingctx, a):
            def codegen(context, builder, signature, args):
                pass
            return types.int32(types.int32), codegen

        def call_void_func():
            void_func(1)

        def call_non_void_func():
            non_void_func(1)

        jit("void()")(call_void_func)
        try:
            jit("void()")(call_non_void_func)
            caught = None
        except LoweringError as error:
            caught = error.msg
        print(json.dumps({"caught": caught}))
        """
    )
    assert "non-void function returns None" in result["caught"]
