"""Compiled code that outlives its process: CUDA kernels in the disk cache (cache=True: the PTX,
and on a GPU the cubin linked for its compute capability), and specialisations carried by
pickles (a CPU function's object code, a kernel's PTX) so the receiver does not compile again.
The PTX parts run here without a GPU; launches run where there is one."""

import textwrap

import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import cuda

GPU = cuda.is_available()

KERNEL_MODULE = """
from taipan import cuda

@cuda.jit(cache=True)
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * factor + {offset}
"""

KERNEL_CALLER = """
import hashlib, sys
import numpy as np
from taipan import cuda, float64, void
from kernels import scale

kernel = scale.compile(void(float64[::1], float64))
timers = scale.get_metadata((float64[::1], float64))["timers"]
result = "-"
if cuda.is_available():
    a = np.arange(8.0)
    scale[1, 32](a, 2.0)
    result = a.tolist()[:3]
print(scale.stats.cache_hits, scale.stats.cache_misses, "loading cached code" in timers,
      hashlib.sha256(kernel.ptx.encode()).hexdigest()[:16], result)
"""


def child_output(arguments, cwd, input=None, **environment):
    """What `python *arguments` prints in `cwd` (taipan and `cwd` importable, its cache beside
    it), given `input` (bytes) on its standard input."""
    env = child_environment(cwd, settings="no_cache", **environment)
    return run_python(arguments, cwd=cwd, env=env, input=input, text=False).stdout.decode()


def run_kernel_program(directory):
    hits, misses, loaded, ptx, *result = child_output(["caller.py"], directory).split(maxsplit=4)
    return int(hits), int(misses), loaded == "True", ptx, result[0].strip()


def cache_files(directory):
    folder = directory / "__pycache__"
    return sorted(p for p in folder.iterdir() if p.suffix == ".taipan") if folder.exists() else []


def test_a_kernel_is_compiled_once_and_loaded_from_the_cache_later(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNEL_MODULE.format(offset=1.0))
    (tmp_path / "caller.py").write_text(KERNEL_CALLER)
    hits, misses, loaded, ptx, result = run_kernel_program(tmp_path)
    assert (hits, misses, loaded) == (0, 1, False)
    assert len(cache_files(tmp_path)) == 1
    again = run_kernel_program(tmp_path)
    assert again[:4] == (1, 0, True, ptx)
    if GPU:
        assert result == again[4] == "[1.0, 3.0, 5.0]"
        # The first launch linked the PTX for this GPU and wrote the cubin beside it.
        major, minor = cuda.get_current_device().compute_capability
        assert f"cubin sm_{major}{minor}".encode() in cache_files(tmp_path)[0].read_bytes()


def test_editing_a_kernel_misses_and_a_corrupt_file_is_written_again(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNEL_MODULE.format(offset=1.0))
    (tmp_path / "caller.py").write_text(KERNEL_CALLER)
    first = run_kernel_program(tmp_path)
    (tmp_path / "kernels.py").write_text(KERNEL_MODULE.format(offset=5.0))
    edited = run_kernel_program(tmp_path)
    assert edited[:3] == (0, 1, False)
    assert edited[3] != first[3]
    if GPU:
        assert edited[4] == "[5.0, 7.0, 9.0]"
    for path in cache_files(tmp_path):
        path.write_bytes(path.read_bytes()[:-7])  # truncated
    assert run_kernel_program(tmp_path)[:3] == (0, 1, False)
    assert run_kernel_program(tmp_path)[:4] == (1, 0, True, edited[3])


def test_device_functions_and_uncached_kernels_write_nothing(tmp_path):
    (tmp_path / "kernels.py").write_text(
        KERNEL_MODULE.format(offset=1.0).replace("cache=True", "cache=False")
    )
    (tmp_path / "caller.py").write_text(KERNEL_CALLER)
    run_kernel_program(tmp_path)
    assert cache_files(tmp_path) == []


SENDER = """
import sys
import cloudpickle
import numpy as np
from taipan import cuda, float64, int64, njit, void

class Negative(Exception):
    pass

@njit
def poly(x):
    return 3.0 * x * x + 1.0

@njit
def checked(n):
    if n < 0:
        raise Negative("negative")
    return n * 2

@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]

poly(2.0)
checked(4)
axpy.compile(void(float64[::1], float64, float64[::1], float64[::1]))
sys.stdout.buffer.write(cloudpickle.dumps((poly, checked, axpy)))
"""

RECEIVER = """
import pickle, sys
import numpy as np
from taipan import cuda, float64, int64

poly, checked, axpy = pickle.loads(sys.stdin.buffer.read())
value = poly(2.0)
poly_timers = poly.get_metadata((float64,))["timers"]
doubled = checked(4)
checked_timers = checked.get_metadata((int64,))["timers"]
signature = (float64[::1], float64, float64[::1], float64[::1])
kernel = axpy.compile(signature)
result = "-"
if cuda.is_available():
    out = np.zeros(4)
    axpy[1, 32](out, 2.0, np.arange(4.0), np.ones(4))
    result = out.tolist()
print(value, "loading cached code" in poly_timers, "code generation" in poly_timers)
print(doubled, "code generation" in checked_timers)
print("loading pickled code" in axpy.get_metadata(signature)["timers"], len(kernel.ptx) > 0)
print(result)
"""


def test_pickles_carry_object_code_and_ptx_so_the_receiver_does_not_compile(tmp_path):
    pytest.importorskip("cloudpickle")
    (tmp_path / "sender.py").write_text(SENDER)
    (tmp_path / "receiver.py").write_text(RECEIVER)
    env = child_environment()
    payload = run_python(["sender.py"], cwd=tmp_path, env=env, text=False).stdout
    lines = child_output(["receiver.py"], tmp_path, input=payload).splitlines()
    # The CPU function loads the carried object code: typed again, no LLVM code generation.
    assert lines[0] == "13.0 True False"
    # Code raising a user exception holds per-process ids: not carried, compiled again.
    assert lines[1] == "8 True"
    assert lines[2] == "True True"
    if GPU:
        assert lines[3] == "[1.0, 3.0, 5.0, 7.0]"


def test_a_carried_specialisation_of_other_code_is_not_used():
    """Object code is loaded only when the receiver's job hash matches the sender's."""
    from taipan.caching import load_object_code

    @taipan.njit
    def f(x):
        return x + 1

    f(1)
    compiled = f.overloads[(taipan.int64,)]

    @taipan.njit
    def g(x):
        return x + 2

    with pytest.raises((RuntimeError, ValueError, taipan.errors.TaipanError)):
        load_object_code(
            g._function_source(),
            (taipan.int64,),
            compiled.object_code,
            compiled.entry_name,
            compiled.hash,
        )


def test_an_unpickled_kernel_uses_the_carried_ptx(tmp_path):
    pytest.importorskip("cloudpickle")
    sender = textwrap.dedent(
        """
        import sys, cloudpickle
        from taipan import cuda, float32, void

        @cuda.jit
        def fill(a, v):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = v

        kernel = fill.compile((float32[::1], float32))
        sys.stdout.buffer.write(cloudpickle.dumps((fill, kernel.ptx)))
        """
    )
    receiver = textwrap.dedent(
        """
        import pickle, sys
        from taipan import float32
        fill, ptx = pickle.loads(sys.stdin.buffer.read())
        signature = (float32[::1], float32)
        print(fill.compile(signature).ptx == ptx, list(fill.get_metadata(signature)["timers"]))
        """
    )
    payload = run_python(["-c", sender], env=child_environment(), text=False).stdout
    output = child_output(["-c", receiver], tmp_path, input=payload)
    same_ptx, stages = output.split(maxsplit=1)
    assert same_ptx == "True"
    assert "loading pickled code" in stages and "code generation (PTX)" not in stages


UFUNC_SENDER = """
import sys
import cloudpickle
import numpy as np
from taipan import guvectorize, vectorize

@vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def hyp(x, y):
    return (x * x + y * y) ** 0.5 if x > 0 else x - y

@vectorize
def twice(x):
    return 2 * x

@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
def dot(a, b, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    out[0] = s

@guvectorize("(n)->(n)")
def cumulative(a, out):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s

hyp(3.0, 4.0)
twice(np.arange(3))
dot(np.ones(3), np.ones(3))
cumulative(np.arange(4.0), np.empty(4))
sys.stdout.buffer.write(cloudpickle.dumps((hyp, twice, dot, cumulative)))
"""

UFUNC_RECEIVER = """
import pickle, sys
import numpy as np
from taipan.serialize import _built_ufuncs

hyp, twice, dot, cumulative = pickle.loads(sys.stdin.buffer.read())
print(type(hyp).__name__, hyp(np.array([3.0, -1.0]), 4.0).tolist(), hyp.types)
print(type(twice).__name__, twice(np.arange(3)).tolist(), twice.ntypes)
print(dot(np.arange(3.0), np.arange(3.0)), cumulative(np.arange(4.0), np.empty(4)).tolist())
loops = [*_built_ufuncs[id(hyp)][1].loops, *_built_ufuncs[id(dot)][1].loops,
         *twice._compiler.loops, *cumulative._compiler.loops]
print(all("loading cached code" in dict(compiled.stage_times) for _, _, compiled in loops))
"""


def test_pickled_ufuncs_and_gufuncs_from_main_carry_their_loops(tmp_path):
    pytest.importorskip("cloudpickle")
    (tmp_path / "sender.py").write_text(UFUNC_SENDER)
    (tmp_path / "receiver.py").write_text(UFUNC_RECEIVER)
    env = child_environment()
    payload = run_python(["sender.py"], cwd=tmp_path, env=env, text=False).stdout
    lines = child_output(["receiver.py"], tmp_path, input=payload).splitlines()
    assert lines[0] == "ufunc [5.0, -5.0] ['dd->d', 'll->l']"
    assert lines[1] == "DUFunc [0, 2, 4] 1"
    assert lines[2] == "5.0 [0.0, 1.0, 3.0, 6.0]"
    assert lines[3] == "True"


def test_module_level_ufuncs_pickle_by_reference():
    import pickle

    import numpy as np

    from taipan import vectorize

    assert pickle.loads(pickle.dumps(np.add)) is np.add
    assert pickle.loads(pickle.dumps(module_ufunc)) is module_ufunc
    assert pickle.loads(pickle.dumps(module_dufunc)) is module_dufunc
    local = vectorize(["float64(float64)"])(lambda x: x + 1.0)
    # A lambda travels by value with plain pickle too (was refused without cloudpickle).
    restored = pickle.loads(pickle.dumps(local))
    np.testing.assert_array_equal(restored(np.arange(3.0)), np.arange(3.0) + 1.0)


@taipan.vectorize(["float64(float64)"])
def module_ufunc(x):
    return x + 1.0


@taipan.vectorize
def module_dufunc(x):
    return x + 1
