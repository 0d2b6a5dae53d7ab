"""First-class functions (Numba's FunctionType, WrapperAddressProtocol and
get_cython_function_address): SciPy's Cython functions called through their addresses, protocol
objects, cfuncs, ctypes and cffi functions and jitted functions passed as arguments, kept in
tuples, chosen, returned and called through their addresses, and the errors at the user's
line."""

import ctypes
import ctypes.util
import math
import sys

import numpy as np
import pytest

from taipan import cfunc, literal_unroll, njit, prange, typeof, types
from taipan.errors import TypingError, UnsupportedError
from taipan.experimental import function_type
from taipan.extending import get_cython_function_address
from taipan.runtime import live_blocks
from taipan.types import WrapperAddressProtocol, float32, float64, int64

special = pytest.importorskip("scipy.special")
CYTHON_SPECIAL = "scipy.special.cython_special"

# The C functions as Cython declares them: a cpdef function takes a last int (skip_dispatch).
erf_c = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_int)(
    get_cython_function_address(CYTHON_SPECIAL, "__pyx_fuse_1erf")
)
gammaln_c = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_int)(
    get_cython_function_address(CYTHON_SPECIAL, "gammaln")
)

EDGES = np.array(
    [0.0, -0.0, 0.5, -0.5, 1.0, 2.5, -3.25, 1e-300, 1e300, -1e300, np.inf, -np.inf, np.nan]
)


def special_function(name, signature):
    """numba-stats' numba_stats/_special.py `get`, as it is written there."""
    if name == "betainc":
        fuse_name = f"__pyx_fuse_0{name}"
    else:
        fuse_name = f"__pyx_fuse_1{name}"
    from scipy.special import cython_special

    if fuse_name not in cython_special.__pyx_capi__:
        fuse_name = name
    addr = get_cython_function_address(CYTHON_SPECIAL, fuse_name)
    cls = type(
        name,
        (WrapperAddressProtocol,),
        {"__wrapper_address__": lambda self: addr, "signature": lambda self: signature},
    )
    return cls()


ndtri = special_function("ndtri", float64(float64))
gammainc = special_function("gammainc", float64(float64, float64))
voigt_profile = special_function("voigt_profile", float64(float64, float64, float64))
betainc = special_function("betainc", float64(float64, float64, float64))


class CfuncWAP(WrapperAddressProtocol):
    """Numba's test WAP: a protocol object over a cfunc, callable from Python too."""

    def __init__(self, py_func, signature):
        self.pyfunc = py_func
        self.cfunc = cfunc(signature)(py_func)
        self.sig = signature

    def __wrapper_address__(self):
        return self.cfunc._wrapper_address

    def signature(self):
        return self.sig

    def __call__(self, *args):
        return self.pyfunc(*args)


def add_one(x):
    return x + 1


def add_two(x):
    return x + 2


def scaled(x):
    return x * 0.5


def check_no_leak(call, *args):
    """The array ``call(*args)`` returns, copied; every block the call made is freed once the
    returned array is."""
    before = live_blocks()
    result = call(*args)
    copy = np.array(result, copy=True)
    del result
    assert live_blocks() == before
    return copy


def test_get_cython_function_address_gives_the_capsule_pointer():
    assert isinstance(erf_c, ctypes._CFuncPtr)
    address = get_cython_function_address(CYTHON_SPECIAL, "gammaln")
    assert isinstance(address, int) and address > 0
    with pytest.raises(
        ValueError, match=f"^No function 'no_such' found in __pyx_capi__ of '{CYTHON_SPECIAL}'$"
    ):
        get_cython_function_address(CYTHON_SPECIAL, "no_such")
    with pytest.raises(ValueError, match="no C functions"):
        get_cython_function_address("math", "sin")


def test_cython_erf_and_gammaln_through_ctypes_globals():
    @njit
    def apply(x):
        out = np.empty((2, x.size))
        for i in range(x.size):
            out[0, i] = erf_c(x[i], 0)
            out[1, i] = gammaln_c(x[i], 0)
        return out

    got = check_no_leak(apply, EDGES)
    np.testing.assert_array_equal(got[0], special.erf(EDGES))
    np.testing.assert_array_equal(got[1], special.gammaln(EDGES))


def test_numba_stats_pattern_global_protocol_objects():
    @njit
    def pdf(x, a, b):
        r = np.empty_like(x)
        for i in range(len(x)):
            r[i] = ndtri(x[i]) + gammainc(a, x[i]) + voigt_profile(x[i], a, b) + betainc(a, b, x[i])
        return r

    x = np.concatenate([np.linspace(0.0, 1.0, 11), EDGES])
    got = check_no_leak(pdf, x, 2.0, 0.5)
    expected = (
        special.ndtri(x)
        + special.gammainc(2.0, x)
        + special.voigt_profile(x, 2.0, 0.5)
        + special.betainc(2.0, 0.5, x)
    )
    np.testing.assert_array_equal(got, expected)


def test_numba_stats_pattern_in_parallel_loop():
    @njit(parallel=True)
    def ppf(p, loc, scale):
        r = np.empty_like(p)
        for i in prange(len(p)):
            r[i] = loc + scale * ndtri(p[i])
        return r

    p = np.linspace(0.0, 1.0, 1001)
    np.testing.assert_array_equal(check_no_leak(ppf, p, 1.0, 2.0), 1.0 + 2.0 * special.ndtri(p))


def test_protocol_object_argument_is_a_function_type():
    assert typeof(ndtri) == types.FunctionType(float64(float64))
    assert isinstance(typeof(ndtri), types.FunctionType)
    assert not isinstance(float64, types.FunctionType)
    assert (
        str(types.FunctionType(float64(float64, int64))) == "FunctionType[float64(float64, int64)]"
    )
    assert float64(float64).as_type() == types.FunctionType(float64(float64))

    @njit
    def call(f, x):
        return f(x)

    for x in EDGES:
        expected = special.ndtri(x)
        got = call(ndtri, x)
        assert got == expected or (math.isnan(got) and math.isnan(expected))


@pytest.mark.parametrize("kind", ["cfunc", "wap", "ctypes", "cffi", "jit_signature", "jit"])
def test_function_of_each_kind_passed_and_called(kind):
    signature = float64(float64)
    made = cfunc(signature)(scaled)
    if kind == "cfunc":
        function = made
    elif kind == "wap":
        function = CfuncWAP(scaled, signature)
    elif kind == "ctypes":
        function = made.ctypes
    elif kind == "cffi":
        pytest.importorskip("cffi")
        function = made.cffi
    elif kind == "jit_signature":
        function = njit(signature)(scaled)
    else:
        function = njit(scaled)

    @njit
    def apply_twice(f, x):
        return f(f(x))

    for x in (1.0, -3.5, np.inf, -np.inf):
        assert apply_twice(function, x) == scaled(scaled(x))
    assert math.isnan(apply_twice(function, np.nan))


@pytest.mark.parametrize("kind", ["cfunc", "wap", "jit_signature"])
def test_tuple_of_functions_iterated_and_indexed(kind):
    signature = int64(int64)
    if kind == "cfunc":
        a, b = cfunc(signature)(add_one), cfunc(signature)(add_two)
    elif kind == "wap":
        a, b = CfuncWAP(add_one, signature), CfuncWAP(add_two, signature)
    else:
        a, b = njit(signature)(add_one), njit(signature)(add_two)

    @njit
    def chain(funcs, x):
        r = x
        for f in funcs:
            r = r + f(r)
        return r

    @njit
    def pick(funcs, i, x):
        f = funcs[i]
        return f(x)

    @njit
    def literal(f, g):
        r = 0
        for h in (f, g):
            r = r + h(r)
        return r

    assert typeof((a, b)) == types.UniTuple(types.FunctionType(signature), 2)
    assert chain((a, b, a), 3) == chain.py_func((add_one, add_two, add_one), 3)
    assert pick((a, b), 0, 10) == 11 and pick((a, b), 1, 10) == 12
    assert literal(a, b) == literal.py_func(add_one, add_two)


def test_mixed_kinds_of_one_signature_in_a_tuple():
    signature = float64(float64)
    functions = (
        cfunc(signature)(scaled),
        CfuncWAP(add_one, signature),
        ndtri,
        cfunc(signature)(add_two).ctypes,
    )

    @njit
    def total(funcs, x):
        r = 0.0
        for f in funcs:
            r += f(x)
        return r

    assert total(functions, 0.25) == scaled(0.25) + add_one(0.25) + special.ndtri(0.25) + 2.25


C_PAIR = (cfunc(float64(float64))(scaled), cfunc(float64(float64))(add_one))


def test_global_tuple_of_c_functions():
    @njit
    def total(x):
        r = 0.0
        for f in C_PAIR:
            r += f(x)
        return r

    @njit
    def pick(i, x):
        return C_PAIR[i](x)

    assert total(3.0) == scaled(3.0) + add_one(3.0)
    assert pick(0, 3.0) == 1.5 and pick(1, 3.0) == 4.0


def test_function_returned_and_chosen():
    signature = int64(int64)
    a, b = CfuncWAP(add_one, signature), CfuncWAP(add_two, signature)

    @njit
    def choose(f, g, left):
        if left:
            h = f
        else:
            h = g
        return h(1)

    @njit
    def pass_through(f, g, left):
        f(123)
        return f if left else g

    assert choose(a, b, True) == 2 and choose(a, b, False) == 3
    assert pass_through(a, b, True) is a and pass_through(a, b, False) is b

    made = cfunc(signature)(add_one)

    @njit
    def global_value():
        return made

    returned = global_value()
    assert returned.signature() == signature and returned(41) == 42


def test_jitted_functions_meet_a_function_type():
    fnty = types.FunctionType(int64(int64, int64))

    @njit
    def add(x, y):
        return x + y

    @njit(int64(fnty, int64, int64))
    def call_often(fn, x, y):
        c = 0
        for _ in range(100):
            c += fn(x, y)
        return c

    @njit
    def through_global(x, y):
        return call_often(add, x, y)

    assert call_often(add, 123, 321) == 100 * 444
    assert through_global(1, 2) == 300

    @njit(int64(int64))
    def more(x):
        return x + 1

    @njit(int64(int64))
    def less(x):
        return x - 1

    @njit
    def select(sel, x):
        fn = more if sel else less
        return fn(x)

    assert select(True, 10) == 11 and select(False, 10) == 9

    @njit
    def run_all(funcs, x):
        r = x
        for i in range(len(funcs)):
            r = funcs[i](r)
        return r

    tuple_type = types.UniTuple(types.FunctionType(int64(int64)), 2)
    explicit = njit(int64(tuple_type, int64))(run_all.py_func)
    assert explicit((njit(add_one), njit(add_two)), 1) == 4


def test_jitted_functions_without_signatures_chosen_at_run_time():
    @njit
    def more(x):
        return x + 1

    @njit
    def less(x):
        return x - 1

    @njit
    def two():
        return 2

    @njit
    def three():
        return 3

    @njit
    def select(sel, x):
        fn = more if sel else less
        return fn(x)

    @njit
    def branch(arg):
        if arg:
            f = two
        else:
            f = three
        return f()

    assert select(True, 10) == 11 and select(False, 10) == 9
    assert select(True, 2.5) == 3.5  # another signature: another choice
    assert branch(True) == 2 and branch(False) == 3

    @njit
    def returned(sel):
        return two if sel else three

    with pytest.raises(TypingError, match="cannot return one of several jitted functions"):
        returned(True)


class AddError(Exception):
    pass


def test_exceptions_of_jitted_functions_propagate_through_values():
    @njit
    def add(x, y):
        res = x + y
        if res > 100:
            raise AddError(res)
        return res

    fnty = types.FunctionType(int64(int64, int64))

    @njit(int64(fnty))
    def accumulate(fn):
        c = 0
        for i in range(100):
            c = fn(c, i)
        return c

    @njit
    def through_global():
        return accumulate(add)

    for call in (lambda: accumulate(add), through_global):
        with pytest.raises(AddError) as error:
            call()
        assert error.value.args == (105,)
    assert check_no_leak(lambda: np.array(accumulate(njit(lambda x, y: x - y)))) == -4950


def test_exceptions_of_cfuncs_are_reported_as_unraisable():
    @cfunc(int64(int64, int64))
    def c_div(x, y):
        return x // y

    @njit(int64(types.FunctionType(int64(int64, int64)), int64, int64))
    def call(fn, x, y):
        return fn(x, y)

    reported = []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = reported.append
    try:
        assert call(c_div, 7, 2) == 3
        assert call(c_div, 7, 0) == 0  # a cfunc's caller is C code: Numba's behaviour
    finally:
        sys.unraisablehook = previous_hook
    assert [type(report.exc_value) for report in reported] == [ZeroDivisionError]


def test_a_cfunc_inside_a_jitted_value_keeps_its_own_behaviour():
    @cfunc(int64(int64, int64))
    def c_div(x, y):
        return x // y

    @njit
    def divide_or_zero(x, y):
        return c_div(x, y) + 1  # the cfunc's exception is reported, as a direct call's is

    @njit(int64(types.FunctionType(int64(int64, int64)), int64, int64))
    def call(fn, x, y):
        return fn(x, y)

    reported = []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = reported.append
    try:
        assert call(divide_or_zero, 7, 2) == 4
        assert call(divide_or_zero, 7, 0) == 1
    finally:
        sys.unraisablehook = previous_hook
    assert [type(report.exc_value) for report in reported] == [ZeroDivisionError]


def test_pairs_of_jitted_functions_unpacked():
    @njit
    def inc(x):
        return x + 1

    @njit
    def dbl(x):
        return x * 2

    @njit
    def apply_pairs(pairs, a):
        x = 0
        i, j = pairs[0]
        x += i(j(a))
        for pair in literal_unroll(pairs):
            i, j = pair
            x += i(j(a))
        return x

    def python(pairs, a):
        x = pairs[0][0](pairs[0][1](a))
        return x + sum(i(j(a)) for i, j in pairs)

    pairs = ((inc, dbl), (dbl, inc))
    assert apply_pairs(pairs, 10) == python(
        ((inc.py_func, dbl.py_func), (dbl.py_func, inc.py_func)), 10
    )


def test_float32_and_libm_through_the_protocol():
    libm = ctypes.CDLL(ctypes.util.find_library("m"))

    class LibM(WrapperAddressProtocol):
        def __init__(self, name, signature):
            self.address = ctypes.cast(getattr(libm, name), ctypes.c_void_p).value
            self.sig = signature

        def __wrapper_address__(self):
            return self.address

        def signature(self):
            return self.sig

    cos, sinf = LibM("cos", float64(float64)), LibM("sinf", float32(float32))

    @njit
    def evaluate(f, x):
        return f(x)

    assert evaluate(cos, 0.0) == 1.0
    assert evaluate(sinf, np.float32(0.5)) == np.float32(math.sin(np.float32(0.5)))


def test_wrong_argument_types_name_the_line():
    @njit
    def call_with_array(f, x):
        return f(x)

    with pytest.raises(TypingError, match="mismatch of argument types") as error:
        call_with_array(ndtri, 1j)
    assert "return f(x)" in str(error.value)

    @njit
    def call_with_keyword(f, x):
        return f(x=x)

    with pytest.raises(UnsupportedError, match="cannot use keyword arguments"):
        call_with_keyword(ndtri, 0.5)

    @njit
    def call_with_two(f, x):
        return f(x, x)

    with pytest.raises(TypingError, match="mismatch of arguments number"):
        call_with_two(ndtri, 0.5)


def test_signature_mismatch_in_explicit_signature_is_refused():
    @njit(float64(types.FunctionType(float64(float64)), float64))
    def call(f, x):
        return f(x)

    with pytest.raises(TypeError, match="No matching definition"):
        call(CfuncWAP(add_one, int64(int64)), 1.0)


def test_non_addresses_are_refused():
    class Zero(WrapperAddressProtocol):
        def __wrapper_address__(self):
            return 0

        def signature(self):
            return float64(float64)

    class NotAnInt(Zero):
        def __wrapper_address__(self):
            return "here"

    @njit
    def call(f, x):
        return f(x)

    with pytest.raises(ValueError, match="must be a positive integer"):
        call(Zero(), 1.0)
    with pytest.raises(TypeError, match="wrapper address must be integer"):
        call(NotAnInt(), 1.0)

    bad = Zero()

    @njit
    def call_global(x):
        return bad(x)

    with pytest.raises(TypingError, match="not the address of a function") as error:
        call_global(1.0)
    assert "return bad(x)" in str(error.value)


def test_unusable_signature_of_an_argument_is_explained():
    class BadSignature(WrapperAddressProtocol):
        def __wrapper_address__(self):
            return 1

        def signature(self):
            return "float64(nonsense)"

    no_argtypes = ctypes.CDLL(ctypes.util.find_library("m")).cos

    @njit
    def call(f, x):
        return f(x)

    with pytest.raises(TypingError, match="BadSignature, a function object whose signature"):
        call(BadSignature(), 1.0)
    with pytest.raises(TypingError, match="without argtypes has no signature"):
        call(no_argtypes, 1.0)


def test_pointer_parameters_receive_array_data():
    from taipan import carray
    from taipan.types import CPointer

    @cfunc(float64(CPointer(float64), int64))
    def total(p, n):
        a = carray(p, n)
        s = 0.0
        for i in range(n):
            s += a[i]
        return s

    fnty = types.FunctionType(float64(CPointer(float64), int64))
    assert str(fnty) == "FunctionType[float64(float64*, int64)]"

    @njit(float64(fnty, float64[::1]))
    def call(f, a):
        return f(a, a.size)

    x = np.array([0.5, -1.0, np.inf, 2.0])
    assert check_no_leak(lambda: np.array(call(total, x))) == x.sum()
    assert math.isnan(call(total, np.array([np.inf, -np.inf])))


def test_function_type_needs_c_values():
    with pytest.raises(TypeError, match="numbers, pointers, arrays and None"):
        types.FunctionType(float64(types.unicode_type))
    assert function_type.FunctionType("float64(float64)") == types.FunctionType(float64(float64))
