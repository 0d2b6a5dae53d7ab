"""Memory a kernel declares and tuple arguments.

* ``cuda.shared.array``/``cuda.local.array`` of a record dtype hold ``itemsize`` bytes per
  record. A record's in-register form is the address of its bytes (``storageSize`` 8), and the
  storage, item size and strides were taken from that: 8 bytes per record, so copying records
  into a shared array wrote past its end (numba-cuda's ``test_sm::test_shared_recarray``:
  CUDA_ERROR_ILLEGAL_ADDRESS on the H200).
* A kernel parameter that holds no data (an empty tuple, a tuple of empty tuples) is one byte:
  NVPTX cannot declare an empty parameter and aborted the process ("Empty parameter types are
  not supported"; numba-cuda's ``test_array_args::test_empty_tuple`` killed its worker).
* Tuples holding NumPy arrays, device arrays or records are laid out item by item (NumPy arrays
  copied to the device and back, as numba-cuda does), launched through Python.
* A global class whose metaclass answers every attribute (numba's shim placeholders) is a
  TypingError, not an ``InternalError: std::bad_cast``.

Without a GPU: PTX checks (ptxas), the simulator; launches are marked ``cuda``."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from child_processes import run_in_simulator
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, from_dtype, njit, typeof, void
from taipan.errors import TypingError

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")

RECORDS = {
    "2d_array_field": np.dtype([("i", np.int32), ("j", np.float32, (3, 2))]),
    "aligned": np.dtype([("a", np.float64), ("b", np.int8), ("c", np.complex64)], align=True),
    "packed": np.dtype([("flag", np.bool_), ("x", np.float64), ("k", np.int8, (2, 2))]),
}


def shared_copy_kernel(dt, nthreads):
    def copy_through_shared(x, y):
        sm = cuda.shared.array(nthreads, dtype=dt)
        tx = cuda.threadIdx.x
        i = cuda.blockIdx.x * cuda.blockDim.x + tx
        if i < len(x):
            sm[tx] = x[i]
        cuda.syncthreads()
        if tx == 0:
            for j in range(nthreads):
                y[cuda.blockDim.x * cuda.blockIdx.x + j] = sm[j]

    return copy_through_shared


@needs_ptxas
@pytest.mark.parametrize("name", list(RECORDS))
@pytest.mark.parametrize("nthreads", [1, 16, 17])
def test_a_shared_array_of_records_holds_itemsize_bytes_each(name, nthreads, tmp_path):
    dtype = RECORDS[name]
    array = typeof(np.zeros(4, dtype))
    ptx, _ = cuda.compile_ptx(shared_copy_kernel(from_dtype(dtype), nthreads), (array, array))
    sizes = [int(n) for n in re.findall(r"\.shared .*\[(\d+)\];", ptx)]
    assert sizes == [nthreads * dtype.itemsize]
    # The records are stepped through at their item size.
    assert f", {dtype.itemsize};" in ptx
    ptxas(ptx, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("name", list(RECORDS))
def test_a_local_array_of_records_holds_itemsize_bytes_each(name, tmp_path):
    dtype = RECORDS[name]
    dt = from_dtype(dtype)

    def through_local(x, y, n):
        local = cuda.local.array(5, dtype=dt)
        for k in range(5):
            local[k] = x[k]
        for k in range(5):
            y[k] = local[(k + n) % 5]

    array = typeof(np.zeros(5, dtype))
    ptx, _ = cuda.compile_ptx(through_local, (array, array, typeof(1)))
    depots = [int(n) for n in re.findall(r"__local_depot\d*\[(\d+)\]", ptx)]
    assert depots and max(depots) >= 5 * dtype.itemsize
    ptxas(ptx, tmp_path)


def test_shared_and_local_arrays_of_records_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda, from_dtype

        for dtype in (
            np.dtype([("i", np.int32), ("j", np.float32, (3, 2))]),
            np.dtype([("a", np.float64), ("b", np.int8)], align=True),
        ):
            dt = from_dtype(dtype)

            @cuda.jit
            def copy_through_shared(x, y):
                sm = cuda.shared.array(16, dtype=dt)
                tx = cuda.threadIdx.x
                i = cuda.blockIdx.x * cuda.blockDim.x + tx
                if i < len(x):
                    sm[tx] = x[i]
                cuda.syncthreads()
                if tx == 0:
                    for j in range(16):
                        y[cuda.blockDim.x * cuda.blockIdx.x + j] = sm[j]

            @cuda.jit
            def reverse_through_local(x, y):
                local = cuda.local.array(4, dtype=dt)
                for k in range(4):
                    local[k] = x[k]
                for k in range(4):
                    y[k] = local[3 - k]

            x = np.zeros(64, dtype)
            for name in dtype.names:
                x[name] = np.arange(64).reshape((64,) + (1,) * (x[name].ndim - 1)) + 0.5
            y = np.zeros_like(x)
            copy_through_shared[4, 16](x, y)
            assert (y == x).all()
            z = np.zeros(4, dtype)
            reverse_through_local[1, 1](x[:4], z)
            assert (z == x[:4][::-1]).all()
        print("ok")
        """,
    )


# --- tuple arguments --------------------------------------------------------------------------


def length_of(r, x):
    r[0] = len(x)


def lengths_of_empty_tuples(r, x):
    r[0] = len(x)
    r[1] = len(x[0])


def add_tuple_items(x):
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i]


def array_scalar_tuple(r, x):
    r[0] = x[0][0]
    r[1] = x[0][1]
    r[2] = x[1]
    r[3] = x[2][0]
    r[4] = x[2][1]


R = np.zeros(9, np.int64)
Z = np.zeros(10)
TUPLE_CASES = {
    "empty_tuple": (length_of, (R, ())),
    "tuple_of_empty_tuples": (lengths_of_empty_tuples, (R, ((), (), ()))),
    "empty_tuple_beside_values": (length_of, (R, ((), 5, ()))),
    "tuple_of_arrays": (add_tuple_items, ((Z, Z, Z),)),
    "nested_array_scalar_tuple": (array_scalar_tuple, (R, (R[:2], 10, (4, 3)))),
}


@needs_ptxas
@pytest.mark.parametrize("name", list(TUPLE_CASES))
def test_tuple_arguments_compile_and_ptxas_accepts_them(name, tmp_path):
    # In a child: NVPTX's refusal of an empty parameter was an LLVM abort of the process.
    script = tmp_path / "compile.py"
    script.write_text(
        "import sys, pathlib\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from test_cuda_kernel_memory_and_tuples import TUPLE_CASES, signature\n"
        "from taipan import cuda\n"
        f"function, arguments = TUPLE_CASES[{name!r}]\n"
        "ptx, _ = cuda.compile_ptx(function, signature(arguments))\n"
        "pathlib.Path(sys.argv[2]).write_text(ptx)\n"
    )
    out = tmp_path / "kernel.ptx"
    tests = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run(
        [sys.executable, str(script), tests, str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    ptxas(out.read_text(), tmp_path)


def signature(arguments):
    return void(*[typeof(value) for value in arguments])


def test_an_empty_tuple_parameter_is_one_byte():
    ptx, _ = cuda.compile_ptx(length_of, signature((R, ())))
    assert ".param .b8" in ptx or ".param .u8" in ptx


def test_tuple_arguments_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda
        from test_cuda_kernel_memory_and_tuples import (
            add_tuple_items, array_scalar_tuple, length_of, lengths_of_empty_tuples,
        )

        r = np.ones(2, np.int64)
        cuda.jit(length_of)[1, 1](r, ())
        assert r[0] == 0
        cuda.jit(lengths_of_empty_tuples)[1, 1](r, ((), (), ()))
        assert list(r) == [3, 0]
        x = (np.zeros(10), np.ones(10), np.full(10, 3.0))
        cuda.jit(add_tuple_items)[1, 10](x)
        assert (x[0] == 4.0).all()
        r = np.zeros(5, np.int64)
        cuda.jit(array_scalar_tuple)[1, 1](r, (2 * np.arange(2), 10, (4, 3)))
        assert list(r) == [0, 2, 10, 4, 3]
        print("ok")
        """,
    )


@pytest.mark.cuda
@needs_gpu
def test_a_tuple_of_host_arrays_is_copied_in_and_back():
    x = (np.zeros(10), np.ones(10), np.full(10, 3.0))
    cuda.jit(add_tuple_items)[1, 10](x)
    np.testing.assert_equal(x[0], x[1] + x[2])


@pytest.mark.cuda
@needs_gpu
def test_a_tuple_of_device_arrays_and_scalars():
    x = (cuda.to_device(np.zeros(10)), cuda.to_device(np.ones(10)), np.full(10, 3.0))
    cuda.jit(add_tuple_items)[1, 10](x)
    np.testing.assert_equal(x[0].copy_to_host(), np.full(10, 4.0))
    r = np.zeros(5, np.int64)
    cuda.jit(array_scalar_tuple)[1, 1](r, (cuda.to_device(2 * np.arange(2)), 10, (4, 3)))
    assert list(r) == [0, 2, 10, 4, 3]


@pytest.mark.cuda
@needs_gpu
def test_empty_tuples_launch():
    r = np.ones(2, np.int64)
    cuda.jit(length_of)[1, 1](r, ())
    assert r[0] == 0
    cuda.jit(lengths_of_empty_tuples)[1, 1](r, ((), (), ()))
    assert list(r) == [3, 0]


@pytest.mark.cuda
@needs_gpu
def test_shared_recarray_on_the_gpu():
    dtype = RECORDS["2d_array_field"]
    x = np.recarray(128, dtype=dtype)
    for k in range(len(x)):
        x[k].i = k
        x[k].j = np.arange(6, dtype=np.float32).reshape(3, 2) * k
    y = np.zeros_like(x)
    cuda.jit(shared_copy_kernel(from_dtype(dtype), 16))[8, 16](x, y)
    assert (np.asarray(y) == np.asarray(x)).all()


# --- globals no compiled code can use -----------------------------------------------------------


class _AnswersEverything(type):
    """A metaclass answering every attribute with another such class (numba's shim makes its
    placeholders so)."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _AnswersEverything(name, (), {})


class placeholder(metaclass=_AnswersEverything):
    pass


def uses_placeholder(ary, a):
    ary[0] = placeholder.hadd(a[0], a[0])


def test_a_class_answering_every_attribute_is_a_typing_error():
    a = np.zeros(1, np.float32)
    with pytest.raises(TypingError, match="placeholder"):
        njit(uses_placeholder)(a, a)
    with pytest.raises(TypingError, match="placeholder"):
        cuda.compile_ptx(uses_placeholder, signature((a, a)))
