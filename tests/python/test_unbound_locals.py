"""A local read on a path where it was never assigned raises UnboundLocalError with CPython's
message (it used to read whatever the variable's slot held: a silent wrong result), on CPU, in
generators, try statements, prange loops and CUDA kernels; reads every path assigns first get
no check. A read no assignment reaches at all (numba-cuda's test_ssa::test_undefined_var)
compiles to the same raise, and with config.ALWAYS_WARN_UNINIT_VAR Numba's warning
"Detected uninitialized variable c" is given while compiling."""

import warnings

import numpy as np
import pytest
from child_processes import run_in_simulator
from conftest import assert_same
from ptx_assembly import needs_ptxas, ptxas

from taipan import config, cuda, float64, int64, njit, prange, void
from taipan.errors import TaipanWarning
from taipan.runtime import live_blocks


def if_without_else(c):
    if c:
        x = 1
    return x


def else_only(c):
    if c:
        pass
    else:
        x = 2.5
    return x


def for_zero_iterations(n):
    for i in range(n):
        z = i
    return z


def loop_target_after_zero_iterations(n):
    for i in range(n):
        pass
    return i


def while_zero_iterations(n):
    while n > 0:
        y = n
        n -= 1
    return y


def nested_loops(n, m):
    for i in range(n):
        for j in range(m):
            inner = i * j
    return inner


def break_before_assignment(n):
    for i in range(n):
        if i == 2:
            break
        last = i
    return last


def continue_skips_assignment(n):
    for i in range(n):
        if i % 2 == 0:
            continue
        odd = i
    return odd


def assigned_only_in_try(c):
    try:
        if c:
            raise ValueError("early")
        v = 3
    except ValueError:
        pass
    return v


def read_in_finally(c):
    total = 0
    try:
        if c:
            raise ValueError("early")
        w = 7
    except ValueError:
        total = 1
    finally:
        total += w
    return total


def read_in_expression_branch(c, d):
    if c:
        w = 4
    return d and w  # w is read only when d is true


def read_in_while_test(n):
    while n > 0:
        if n == 3:
            flag = True
        n -= 1
        if flag:
            break
    return n


def tuple_target(c):
    if c:
        a, b = 1, 2.5
    return a + b


def augmented_on_unassigned_path(c):
    if c:
        t = 10
    t += 1  # reads t first: raises where c was false
    return t


def loop_reads_previous_iteration(n):
    total = 0
    for i in range(n):
        if i > 0:
            total += prev  # noqa: F821 (ruff does not follow the loop back)
        prev = i  # noqa: F841
    return total


def array_maybe_unassigned(c, n):
    if c:
        a = np.arange(n)
    return a.sum()


def list_maybe_unassigned(c):
    if c:
        items = [1, 2, 3]
    return len(items)


def in_comprehension(c, n):
    if c:
        scale = 3
    return [i * scale for i in range(n)]


def in_generator_expression(c, n):
    if c:
        scale = 3
    return sum(i * scale for i in range(n))  # a nested scope: NameError, a free variable


def comprehension_first_iterable(c):
    if c:
        count = 3
    return [i for i in range(count)]  # the first iterable is read in the function's scope


def never_reached_update(c):
    # as numba-cuda's test_undefined_var: no assignment of `c2` reaches the `+=`
    if c:
        c2 = 0
        return c2
    c2 += 1
    return c2


def assigned_only_where_a_constant_prunes(c):
    if c:
        c += 1
        if 0.1 < -1.0:  # typing drops this branch: no typed assignment of v remains
            v = c
    return v + 1


def pruned_then_read_in_a_comprehension(c):
    total = 0
    if 0.1 < -1.0:
        w = c
    if c:
        total = sum([w for _ in range(2)])
    return total


CASES = [
    (if_without_else, [(0,), (1,)]),
    (else_only, [(1,), (0,)]),
    (for_zero_iterations, [(0,), (3,)]),
    (loop_target_after_zero_iterations, [(0,), (3,)]),
    (while_zero_iterations, [(0,), (3,)]),
    (nested_loops, [(0, 2), (2, 0), (2, 3)]),
    (break_before_assignment, [(0,), (1,), (5,)]),
    (continue_skips_assignment, [(0,), (1,), (4,)]),
    (assigned_only_in_try, [(1,), (0,)]),
    (read_in_finally, [(1,), (0,)]),
    (read_in_expression_branch, [(0, 0), (0, 1), (1, 1)]),
    (read_in_while_test, [(0,), (2,), (5,)]),
    (tuple_target, [(0,), (1,)]),
    (augmented_on_unassigned_path, [(0,), (1,)]),
    (loop_reads_previous_iteration, [(0,), (4,)]),
    (array_maybe_unassigned, [(0, 3), (1, 4)]),
    (list_maybe_unassigned, [(0,), (1,)]),
    (in_comprehension, [(0, 0), (0, 2), (1, 3)]),
    (in_generator_expression, [(0, 0), (0, 2), (1, 3)]),
    (comprehension_first_iterable, [(0,), (1,)]),
    (never_reached_update, [(0,), (1,)]),
    (assigned_only_where_a_constant_prunes, [(0,), (1,)]),
    (pruned_then_read_in_a_comprehension, [(0,), (1,)]),
]


@pytest.mark.parametrize("function, argument_lists", CASES, ids=[c[0].__name__ for c in CASES])
def test_cpu_matches_python(function, argument_lists):
    compiled = njit(function)
    for arguments in argument_lists:
        assert_same(compiled, *arguments)  # values, or UnboundLocalError with its message
    before = live_blocks()
    for arguments in argument_lists:
        assert_same(compiled, *arguments)
    assert live_blocks() == before


def test_message_is_cpythons():
    compiled = njit(if_without_else)
    with pytest.raises(UnboundLocalError) as expected:
        if_without_else(0)
    with pytest.raises(UnboundLocalError) as raised:
        compiled(0)
    assert str(raised.value) == str(expected.value)
    assert "'x'" in str(raised.value)


def test_generator_read_after_yield():
    def gen(c):
        if c:
            q = 1
        yield 0
        yield q

    compiled = njit(gen)
    assert list(compiled(1)) == list(gen(1)) == [0, 1]
    produced = compiled(0)
    assert next(produced) == 0
    with pytest.raises(UnboundLocalError, match="'q'"):
        next(produced)


def test_generator_assigned_between_yields():
    def gen(n):
        for i in range(n):
            yield i
            last = i
        yield last

    compiled = njit(gen)
    assert list(compiled(3)) == list(gen(3))
    with pytest.raises(UnboundLocalError, match="'last'"):
        list(compiled(0))


def test_caught_as_name_error():
    @njit
    def caught(c):
        try:
            if c:
                x = 1
            return x
        except NameError:
            return -1

    assert caught(0) == caught.py_func(0) == -1
    assert caught(1) == caught.py_func(1) == 1


def test_caught_as_unbound_local_error():
    @njit
    def caught(c):
        try:
            if c:
                x = 2.0
            y = x * 2
        except UnboundLocalError:
            y = -1.0
        return y

    assert caught(0) == caught.py_func(0)
    assert caught(1) == caught.py_func(1)


def test_definitely_assigned_reads_have_no_check():
    @njit
    def assigned_everywhere(a, c):
        if c:
            s = 1.0
        else:
            s = 2.0
        total = 0.0
        for i in range(a.shape[0]):
            total += a[i] * s
        return total

    assigned_everywhere(np.ones(4), 1)
    ir = next(iter(assigned_everywhere.inspect_llvm().values()))
    assert "$bound" not in ir
    assert "associated with a value" not in ir


def test_only_the_maybe_unassigned_read_is_checked():
    @njit
    def one_check(c):
        if c:
            x = 1
        y = x  # checked
        return y + x  # x is bound here on every path that got this far: no second check

    assert one_check(1) == 2
    with pytest.raises(UnboundLocalError):
        one_check(0)
    ir = next(iter(one_check.inspect_llvm().values()))
    assert ir.count("associated with a value") <= 1


def test_parallel_loop_reads_a_maybe_unassigned_variable():
    @njit(parallel=True)
    def scaled(c, n):
        if c:
            s = 2.0
        out = np.empty(n)
        for i in prange(n):
            out[i] = i * s
        return out

    np.testing.assert_array_equal(scaled(1, 1000), scaled.py_func(1, 1000))
    before = live_blocks()
    with pytest.raises(UnboundLocalError, match="'s'"):
        scaled(0, 1000)
    assert live_blocks() == before


def test_parallel_loop_body_reading_before_assignment_runs_serially():
    @njit(parallel=True)
    def carried(a):
        out = np.empty_like(a)
        for i in prange(a.shape[0]):
            if a[i] > 0:
                t = a[i]
            out[i] = t
        return out

    a = np.array([1.0, -1.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(carried(a), carried.py_func(a))
        with pytest.raises(UnboundLocalError, match="'t'"):
            carried(np.array([-1.0, 2.0]))


def test_literal_unroll_target_read_after_the_loop():
    from taipan import literal_unroll

    @njit
    def last(t, c):
        if c:
            for x in literal_unroll(t):
                pass
        return x

    assert last((1, 2.5), 1) == last.py_func((1, 2.5), 1)
    with pytest.raises(UnboundLocalError, match="'x'"):
        last((1, 2.5), 0)


def test_inner_function_reads_the_enclosing_variable():
    @njit
    def outer(c):
        if c:
            k = 5

        def inner(v):
            return v + k

        return inner(1)

    assert_same(outer, 1)
    assert_same(outer, 0)  # CPython: NameError, `k` being a free variable of `inner`


def numba_cuda_test_unhandled_undefined(arg1, arg2, arg3, arg4, arg5):
    # numba-cuda's test_ssa::test_unhandled_undefined, with its returns
    if arg1:
        var1 = arg2
        var2 = arg3
        var3 = var2
        var4 = arg1
        return
    else:
        if arg2:
            if arg4:
                var5 = arg4  # noqa: F841
                return
            else:
                var6 = var4
                return
            return var6
        else:
            if arg5:
                if var1:
                    if arg5:
                        var1 = var6
                        return
                    else:
                        var7 = arg2  # noqa: F841
                        return arg2
                    return
                else:
                    if var2:
                        arg5 = arg2
                        return arg1
                    else:
                        var6 = var3
                        return var4
                    return
                return
            else:
                var8 = var1
                return
            return var8
        var9 = var3  # noqa: F841
        var10 = arg5  # noqa: F841
        return var1


def test_numba_cudas_generated_function_compiles_and_raises_where_python_does():
    compiled = njit(numba_cuda_test_unhandled_undefined)
    for arguments in [(2, 3, 6, 0, 7), (0, 3, 6, 0, 7), (0, 3, 6, 1, 7), (0, 0, 6, 0, 7)]:
        assert_same(compiled, *arguments)


def undefined_var_kernel(result, n):  # numba-cuda's test_ssa::check_undefined_var
    if n:
        if n > 0:
            c = 0
        result[0] = c
    else:
        # variable c is not defined in this branch
        c += 1
        result[0] = c


def test_warning_when_config_asks(monkeypatch):
    monkeypatch.setattr(config, "ALWAYS_WARN_UNINIT_VAR", True)
    compiled = njit(undefined_var_kernel)
    result = np.zeros(1, np.int64)
    with pytest.warns(TaipanWarning, match="Detected uninitialized variable c") as caught:
        compiled(result, 1)
    assert result[0] == 0
    assert all(w.filename == __file__ for w in caught)
    with pytest.raises(UnboundLocalError):
        compiled(result, 0)


def test_no_warning_by_default(monkeypatch):
    monkeypatch.setattr(config, "ALWAYS_WARN_UNINIT_VAR", False)
    compiled = njit(undefined_var_kernel)
    result = np.zeros(1, np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled(result, 1)
    with pytest.raises(UnboundLocalError):
        compiled(result, 0)


def kernel_reading_maybe_unassigned(out, n):
    if n > 0:
        v = 2.5
    out[0] = v


def device_maybe_unassigned(n):
    if n > 0:
        w = n * 2
    return w


@needs_ptxas
@pytest.mark.parametrize("debug", [False, True])
def test_kernel_ptx_assembles(debug, tmp_path):
    ptx, _ = cuda.compile_ptx(
        kernel_reading_maybe_unassigned, void(float64[::1], int64), debug=debug, opt=not debug
    )
    ptxas(ptx, tmp_path)
    assert "bound" in ptx or not debug  # the flag is there (optimised code may fold it)


@needs_ptxas
def test_device_function_ptx_assembles(tmp_path):
    device = cuda.jit(device=True)(device_maybe_unassigned)

    def kernel(out, n):
        out[0] = device(n)

    ptx, _ = cuda.compile_ptx(kernel, void(int64[::1], int64), debug=True, opt=False)
    ptxas(ptx, tmp_path)


def test_kernel_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import numpy as np
        from taipan import cuda

        @cuda.jit(debug=True, opt=False)
        def kernel(out, n):
            if n > 0:
                v = 2.5
            out[0] = v

        out = np.zeros(1)
        kernel[1, 1](out, 1)
        assert out[0] == 2.5
        try:
            kernel[1, 1](out, 0)
        except UnboundLocalError:
            print("ok")
        """,
    )


needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")


@needs_gpu
@pytest.mark.cuda
def test_kernel_raises_on_the_gpu():
    kernel = cuda.jit(debug=True, opt=False)(kernel_reading_maybe_unassigned)
    out = cuda.to_device(np.zeros(1))
    kernel[1, 1](out, 1)
    assert out.copy_to_host()[0] == 2.5
    with pytest.raises(UnboundLocalError, match="'v'"):
        kernel[1, 1](out, 0)


@needs_gpu
@pytest.mark.cuda
def test_device_function_raises_on_the_gpu():
    device = cuda.jit(device=True)(device_maybe_unassigned)

    @cuda.jit(debug=True, opt=False)
    def kernel(out, n):
        out[0] = device(n)

    out = cuda.to_device(np.zeros(1, np.int64))
    kernel[1, 1](out, 3)
    assert out.copy_to_host()[0] == 6
    with pytest.raises(UnboundLocalError, match="'w'"):
        kernel[1, 1](out, 0)
