"""``with objmode(...)`` blocks: the block's statements run in the interpreter with the
function's live variables, its declared outputs come back with their declared types, exceptions
raised in the block reach the compiled code's handlers or the caller, and what the block cannot
do is refused at compile time at the user's line. Results are compared with the Python
function's, and the runtime's allocation counters must balance."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy_checks import no_allocation_leak, outcome

import taipan
from taipan import njit, objmode, prange, types
from taipan.errors import TypingError, UnsupportedError


def same(got, expected):
    if got[0] != expected[0]:
        return False
    if got[0] == "raised":
        return got == expected
    return _equal(got[1], expected[1])


def _kind(value):
    """bool, int, float or complex for numbers (NumPy scalars by their Python kind), else the
    type: compiled code returns Python scalars where the interpreter may hold NumPy's."""
    if isinstance(value, np.generic):
        value = value.item()
    return type(value)


def _equal(a, b):
    if isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(b, tuple):
        return isinstance(a, tuple) and len(a) == len(b) and all(map(_equal, a, b))
    if _kind(a) is not _kind(b):
        return False
    if isinstance(b, (float, np.floating)) and math.isnan(b):
        return math.isnan(a)
    if isinstance(b, (float, np.floating)) and b == 0.0:
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def check(compiled, *args):
    """The compiled function gives what its Python function gives, several times, leaking no
    block."""
    expected = outcome(compiled.py_func, *args)
    got = outcome(compiled, *args)  # compiles outside the counted calls
    assert same(got, expected), (got, expected)
    with no_allocation_leak():
        for _ in range(3):
            got = outcome(compiled, *args)
            assert same(got, expected), (got, expected)
    return expected


def python_sum_of_list(values):
    return float(sum(values.tolist()))


@njit
def basic(x):
    y = x + 1
    with objmode(z="float64[:]", s="unicode_type"):
        z = np.asarray(sorted(y.tolist(), reverse=True), dtype=np.float64)
        s = type(z).__name__ + str(len(z))
    return z.sum() + z[0], s


def test_basic_array_and_string_outputs():
    check(basic, np.arange(5.0))
    check(basic, np.array([-0.0, 2.5, np.nan]))
    check(basic, np.array([1e300, -1e300]))


@njit
def scalar_outputs(a, n):
    total = 0.0
    with objmode(total="float64", count="int64", flag="boolean", c="complex128"):
        total = python_sum_of_list(a)
        count = len(a) * n
        flag = count > 3
        c = complex(total, -count)
    return total, count, flag, c


def test_scalar_outputs():
    check(scalar_outputs, np.arange(4.0), 2)
    check(scalar_outputs, np.empty(0), 0)
    check(scalar_outputs, np.array([-1.5, 2.25]), -7)


OUTPUT_TYPE = types.float64[:]


@njit
def types_as_objects(x):
    with objmode(y=OUTPUT_TYPE, k=types.int32):
        y = x * 2.0
        k = 7
    return y, k


def test_types_given_as_taipan_types():
    check(types_as_objects, np.linspace(0.0, 1.0, 5))


LOG = []


@njit
def no_outputs(x):
    with objmode():
        LOG.append(float(x.sum()))  # globals are the interpreter's, read at run time
    return x.size


def test_block_without_outputs_sees_live_values():
    LOG.clear()
    assert no_outputs(np.arange(3.0)) == 3
    assert LOG == [3.0]
    with no_allocation_leak():
        no_outputs(np.ones(4))
    assert LOG == [3.0, 4.0]


@njit
def mutate_in_place(a):
    b = a * 2
    with objmode():
        b[0] = -1.0  # the block's ndarray views the compiled array
        a[-1] = 99.0
    return b


def test_block_changes_arrays_in_place():
    a = np.arange(4.0)
    expected_a = a.copy()
    expected = mutate_in_place.py_func(expected_a)
    with no_allocation_leak():
        got = mutate_in_place(a)
        assert np.array_equal(got, expected) and np.array_equal(a, expected_a)
        del got


@njit
def several_blocks_in_a_loop(n):
    total = 0
    for i in range(n):
        with objmode(j="int64"):
            j = i * i
        total += j
        with objmode(total="int64"):
            total = total + 1
    return total


def test_several_blocks_and_blocks_in_loops():
    check(several_blocks_in_a_loop, 0)
    check(several_blocks_in_a_loop, 5)


@njit
def callee_with_block(x):
    with objmode(r="float64"):
        r = math.fsum([x, 1e100, 1.0, -1e100])
    return r


@njit
def caller_of_block(x):
    return callee_with_block(x) * 2


def test_block_in_a_function_called_from_compiled_code():
    check(caller_of_block, 0.5)
    check(caller_of_block, -3.0)


@njit
def raises_in_block(x):
    with objmode(y="float64"):
        if x < 0:
            raise ValueError("negative", x)
        y = math.sqrt(x)
    return y


def test_exception_in_block_propagates_with_its_arguments():
    check(raises_in_block, 4.0)
    with no_allocation_leak(), pytest.raises(ValueError) as caught:
        raises_in_block(-2.0)
    assert caught.value.args == ("negative", -2.0)


@njit
def caught_in_compiled_code(x):
    a = np.ones(3)
    try:
        with objmode(y="float64"):
            y = {"a": 1.0}[x]
        return y + a.sum()
    except KeyError:
        return -1.0


def test_exception_in_block_caught_by_compiled_handler():
    check(caught_in_compiled_code, "a")
    check(caught_in_compiled_code, "b")


@njit
def caught_message(x):
    try:
        with objmode(y="int64"):
            y = int(x)
    except ValueError as error:
        return str(error)
    return str(y)


def test_str_of_exception_from_block():
    check(caught_message, "12")
    check(caught_message, "1x")


@njit
def key_error_message(key):
    try:
        with objmode():
            {}[key]
    except KeyError as error:
        return str(error)
    return ""


def test_key_error_from_block():
    check(key_error_message, "missing")


@njit
def wrong_output_type(x):
    with objmode(y="float64[:]"):
        y = x.tolist()
    return y


@njit
def wrong_scalar_type(x):
    with objmode(n="int64"):
        n = x / 2
    return n


def test_wrong_output_type_is_a_clear_type_error():
    with no_allocation_leak():
        with pytest.raises(TypeError, match=r"output 'y'.*declared array\(float64, 1d, A\)"):
            wrong_output_type(np.arange(3.0))
        with pytest.raises(TypeError, match=r"output 'n'.*line \d+.*declared int64.*float64"):
            wrong_scalar_type(3)


@njit
def int_into_float_output(x):
    with objmode(y="float64", a="int64[:]"):
        y = x  # an int converts without loss
        a = np.arange(x)
    return y, a


def test_lossless_conversions():
    for n in (4, 0):
        with no_allocation_leak():
            y, a = int_into_float_output(n)
        assert type(y) is float and y == n  # the declared type: an int converts
        assert a.dtype == np.int64 and np.array_equal(a, np.arange(n))


def test_undeclared_variable_used_after_the_block_is_a_compile_error():
    @njit
    def leaks(x):
        with objmode(y="int64"):
            y = x + 1
            k = y * 2
        return y + k

    with pytest.raises(
        TypingError, match=r"Missing type annotation on outgoing variable\(s\): \['k'\]"
    ):
        leaks(1)


def test_undeclared_variable_read_again_in_a_loop_is_a_compile_error():
    @njit
    def leaks_in_loop(n):
        k = 0
        total = 0
        for i in range(n):
            total += k
            with objmode():
                k = i
        return total

    with pytest.raises(TypingError, match=r"outgoing variable.*'k'"):
        leaks_in_loop(3)


@njit
def undeclared_scratch(x):
    with objmode(y="int64"):
        k = x * 3  # not read after the block: stays inside it
        y = k + 1
    return y


def test_undeclared_scratch_variable_is_fine():
    check(undeclared_scratch, 5)


def test_bad_declarations():
    @njit
    def positional(x):
        with objmode("int64"):
            pass
        return x

    @njit
    def unknown_type(x):
        with objmode(y="float99"):
            y = 1.0
        return y

    @njit
    def never_assigned(x):
        with objmode(y="int64"):
            pass
        return y  # noqa: F821 - never assigned: the error under test

    with pytest.raises(TypingError, match="keyword arguments only"):
        positional(1)
    with pytest.raises(TypingError, match="'float99'"):
        unknown_type(1)
    with pytest.raises(TypingError, match="non-outgoing variables"):
        never_assigned(1)


def test_return_inside_the_block_is_refused():
    @njit
    def returns(x):
        with objmode(y="int64"):
            y = 1
            return y
        return x

    with pytest.raises(UnsupportedError, match="return inside the block"):
        returns(1)


def test_reflected_list_input_is_refused():
    @njit
    def uses_list(values):
        with objmode(n="int64"):
            n = len(values)
        return n

    with pytest.raises(TypingError, match="reflected list"):
        uses_list([1, 2, 3])


def test_parallel_function_is_refused():
    @njit(parallel=True)
    def parallel(a):
        s = 0.0
        for i in prange(a.size):
            s += a[i]
        with objmode(t="float64"):
            t = s
        return t

    with pytest.raises(UnsupportedError, match="parallel=True"):
        parallel(np.ones(3))


@njit(nogil=True)
def released_gil(x):
    with objmode(y="float64"):
        y = float(np.median(x))
    return y


def test_block_takes_the_gil_back():
    check(released_gil, np.array([3.0, 1.0, 2.0]))


def closure_factory(offset):
    @njit
    def with_closure(x):
        with objmode(y="int64"):
            y = x + offset
        return y

    return with_closure


def test_block_reads_closure_variables():
    check(closure_factory(10), 5)


@njit
def string_and_tuple_inputs(s, t):
    label = s + "!"
    with objmode(out="unicode_type"):
        out = f"{label}{t[0]}:{t[1]:.1f}"
    return out


def test_string_and_tuple_inputs():
    check(string_and_tuple_inputs, "abc", (3, 2.5))
    check(string_and_tuple_inputs, "", (-1, -0.0))
    check(string_and_tuple_inputs, "é", (0, float("nan")))


@njit
def python_only_code(n):
    with objmode(r="int64"):

        class Counter:
            def __init__(self):
                self.count = 0

        counter = Counter()
        for _ in range(n):
            counter.count += 1
        r = counter.count
    return r


def test_any_python_runs_in_the_block():
    check(python_only_code, 4)


def test_module_attribute_spelling():
    @njit
    def spelled(x):
        with taipan.objmode(y="int64"):
            y = x * 2
        return y

    check(spelled, 21)


def test_objmode_is_a_no_op_in_python():
    with objmode(x="int64"):
        x = 3
    assert x == 3


def test_reflected_output_type_is_refused():
    @njit
    def reflected_output():
        with objmode(out="reflected list(int64)" if False else taipan.typeof([1])):
            out = [1, 2]
        return out

    @njit
    def reflected_global():
        with objmode(out=REFLECTED_LIST):
            out = [1, 2]
        return out

    with pytest.raises(TypingError, match="value must be a compile-time constant"):
        reflected_output()
    with pytest.raises(TypingError, match="Reflected types are not supported"):
        reflected_global()


REFLECTED_LIST = taipan.typeof([1, 2])


@njit
def bare_context(x):
    with objmode:
        x.fill(3.0)
    return x.sum()


def test_bare_objmode_without_call():
    check(bare_context, np.zeros(4))


@njit
def doubled_in_block(i):
    with objmode(r="int64"):
        r = i * 2
    return r


@njit(parallel=True)
def calls_block_in_prange(n):
    out = np.zeros(n)
    for i in prange(n):
        out[i] = doubled_in_block(i)
    return out


def test_block_reached_from_a_prange_body_raises_instead_of_waiting():
    if taipan.get_num_threads() < 2:
        pytest.skip("the prange body runs on the caller's thread with one thread")
    with pytest.raises(RuntimeError, match="parallel region"):
        calls_block_in_prange(10_000)


def test_block_in_a_cuda_device_function_is_refused():
    from taipan import cuda

    def device(x):
        with objmode(r="int64"):
            r = x * 2
        return r

    with pytest.raises(UnsupportedError, match="CUDA kernels and device functions"):
        cuda.compile_ptx(device, (types.int64,), device=True)


def test_block_in_an_overload_implementation():
    from taipan.extending import overload

    def plus_three(s):
        return s + 3

    @overload(plus_three)
    def plus_three_overload(s):
        def implementation(s):
            with objmode(out="intp"):
                out = s + 3
            return out

        return implementation

    @njit
    def calls_overload(n):
        return plus_three(n)

    check(calls_overload, 4)


@njit
def callee_raises(x):
    with objmode(y="float64"):
        y = 1.0 / x
    return y


@njit
def caller_catches(x):
    total = np.zeros(2)
    try:
        total[0] = callee_raises(x)
    except ZeroDivisionError as error:
        total[1] = len(str(error))
    finally:
        total += 1.0
    return total


def test_exception_from_a_callee_block_caught_by_the_caller():
    check(caller_catches, 2.0)
    check(caller_catches, 0.0)


@njit(nogil=True)
def raises_without_gil(x):
    with objmode():
        raise KeyError(x)
    return x


def test_exception_from_a_nogil_function_keeps_its_object():
    with no_allocation_leak(), pytest.raises(KeyError) as caught:
        raises_without_gil(7)
    assert caught.value.args == (7,)
    assert any("raise KeyError(x)" in str(entry.statement) for entry in caught.traceback)


@njit
def optional_live_in(flag, n):
    x = None if flag else n
    with objmode(r="int64"):
        r = -1 if x is None else x * 2
    return r


def test_optional_live_in_is_none_or_its_value():
    check(optional_live_in, True, 3)
    check(optional_live_in, False, 3)


@njit
def block_in_generator(n):
    for i in range(n):
        with objmode(v="float64"):
            v = math.sqrt(i)
        yield v


def test_block_in_a_generator():
    with no_allocation_leak():
        assert list(block_in_generator(5)) == list(block_in_generator.py_func(5))


@njit
def block_decides_loop_exit(n):
    total = 0
    i = 0
    while True:
        with objmode(stop="boolean"):
            stop = i >= n
        if stop:
            break
        total += i
        i += 1
    return total


def test_block_output_decides_a_loop():
    check(block_decides_loop_exit, 0)
    check(block_decides_loop_exit, 6)


@njit
def star_arguments(*args):
    with objmode(s="int64"):
        s = sum(args)
    return s


def test_star_arguments_are_a_live_tuple():
    check(star_arguments, 1, 2, 3)
    check(star_arguments)


@njit
def narrow_output(v):
    with objmode(small="int8"):
        small = v
    return small


def test_integer_outputs_are_range_checked():
    check(narrow_output, -128)
    check(narrow_output, 127)
    with no_allocation_leak(), pytest.raises(TypeError, match=r"output 'small'.*declared int8"):
        narrow_output(300)
