"""The job hash: a stable digest of everything that decides a compiled function's code. The
same function gives the same hash and symbol names in any process; a different option, global
constant, callee, argument type or target gives another."""

import re
import textwrap

import pytest
from child_processes import child_environment, run_python
from module_files import load_module

import taipan
from taipan import cuda, float32, float64, int64, void

MODULE = textwrap.dedent(
    """
    import math
    import taipan
    from taipan import cuda

    SCALE = 2.5


    @taipan.njit
    def helper(x):
        return x * SCALE


    @taipan.njit
    def other_helper(x):
        return x - SCALE


    @taipan.njit
    def compute(x, y):
        return helper(x) + math.sqrt(y)


    @taipan.njit
    def even(n):
        if n == 0:
            return True
        return odd(n - 1)


    @taipan.njit
    def odd(n):
        if n == 0:
            return False
        return even(n - 1)


    def kernel(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * SCALE
    """
)

REPORT = textwrap.dedent(
    """
    import importlib.util, re, sys
    from taipan import _core, cuda, float32, float64, void
    spec = importlib.util.spec_from_file_location("hashed_module", sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    key = (float64, float64)
    module.compute.compile(key)
    ir = _core.inspect(module.compute._function_source(), list(key), "llvm-unoptimized")
    symbols = sorted(set(re.findall(r"@(taipan_\\w+)", ir)))
    kernel = cuda.jit(void(float32[:]))(module.kernel)
    print(module.compute.overloads[key].hash)
    print(kernel.overloads[(float32[:],)].hash)
    print(" ".join(symbols))
    again = importlib.util.module_from_spec(spec)  # a fresh module object of the same file
    spec.loader.exec_module(again)
    again.compute.compile(key)
    print(again.compute.overloads[key].hash)
    print(cuda.jit(void(float32[:]))(again.kernel).overloads[(float32[:],)].hash)
    """
)


@pytest.fixture(scope="module")
def module_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("hashed") / "hashed_module.py"
    path.write_text(MODULE)
    return path


def load(path):
    return load_module(path, "hashed_module")


def cpu_hash(dispatcher, key=(float64, float64)):
    dispatcher.compile(key)
    return dispatcher.overloads[key].hash


def test_hash_is_the_same_in_another_process(module_path):
    env = child_environment()
    runs = [run_python(["-c", REPORT, module_path], env=env).stdout.split("\n") for _ in range(2)]
    assert runs[0] == runs[1]
    cpu, gpu, symbols = runs[0][:3]
    assert re.fullmatch(r"[0-9a-f]{32}", cpu) and re.fullmatch(r"[0-9a-f]{32}", gpu)
    assert cpu != gpu
    # Symbols derive from the digests, not from a process-wide counter.
    assert re.search(r"taipan_compute_[0-9a-f]{16}_entry", symbols)
    assert re.search(r"taipan_helper_[0-9a-f]{16}", symbols)
    # A fresh module object of the same file hashes the same. (Checked in those processes: this
    # one may have imported modules registering overloads of math.sqrt, cuda.bf16's, which
    # enter the hash of code calling it.)
    assert runs[0][3:5] == [cpu, gpu]


def test_hash_is_deterministic_in_one_process(module_path):
    module = load(module_path)
    first = cpu_hash(module.compute)
    again = cpu_hash(taipan.njit(module.compute.py_func))
    assert first == again
    # Compiling the same code twice in one process still gives two working entry points.
    assert taipan.njit(module.compute.py_func)(2.0, 16.0) == module.compute.py_func(2.0, 16.0)


def test_hash_changes_with_an_option(module_path):
    module = load(module_path)
    plain = cpu_hash(module.compute)
    assert cpu_hash(taipan.njit(fastmath=True)(module.compute.py_func)) != plain
    assert cpu_hash(taipan.njit(fastmath={"nnan"})(module.compute.py_func)) != plain
    assert cpu_hash(taipan.njit(boundscheck=True)(module.compute.py_func)) != plain
    assert cpu_hash(taipan.njit(error_model="numpy")(module.compute.py_func)) != plain


def test_hash_changes_with_a_global_constant(module_path):
    module = load(module_path)
    before = cpu_hash(module.compute)
    module.SCALE = 3.5
    # New dispatchers read the globals again (existing ones froze them, as in Numba).
    module.helper = taipan.njit(module.helper.py_func)
    changed = taipan.njit(module.compute.py_func)
    assert cpu_hash(changed) != before
    assert changed(2.0, 16.0) == 2.0 * 3.5 + 4.0


def test_hash_changes_with_a_callee(module_path):
    module = load(module_path)
    before = cpu_hash(module.compute)
    module.helper = module.other_helper
    changed = taipan.njit(module.compute.py_func)
    assert cpu_hash(changed) != before
    assert changed(2.0, 16.0) == 2.0 - 2.5 + 4.0


def test_hash_changes_with_argument_types(module_path):
    module = load(module_path)
    assert cpu_hash(module.compute) != cpu_hash(module.compute, (int64, float64))


def test_kernel_hash_changes_with_options_and_target(module_path):
    from taipan.cuda import compiler

    module = load(module_path)
    plain = cuda.jit(void(float32[:]))(module.kernel)
    fast = cuda.jit(void(float32[:]), fastmath=True)(module.kernel)
    limited = cuda.jit(void(float32[:]), max_registers=32)(module.kernel)
    hashes = {k.overloads[(float32[:],)].hash for k in (plain, fast, limited)}
    assert len(hashes) == 3
    source = plain._function_source()
    sm80 = compiler.compile_source(source, (float32[:],), 80)[4]
    sm90 = compiler.compile_source(source, (float32[:],), 90)[4]
    assert sm80 != sm90
    device = compiler.compile_source(source, (float32[:],), 90, device=True)[4]
    assert device != sm90


def test_hash_covers_mutual_recursion(module_path):
    module = load(module_path)
    even, odd = module.even, module.odd
    assert even(10) and not even(7)
    assert not odd(10) and odd(7)
    assert re.fullmatch(r"[0-9a-f]{32}", even.overloads[(int64,)].hash)
    assert even.overloads[(int64,)].hash != odd.overloads[(int64,)].hash
    again = load(module_path).even
    assert again(4)
    assert again.overloads[(int64,)].hash == even.overloads[(int64,)].hash
