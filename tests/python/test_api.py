"""The public API: jit/njit and their options, explicit signatures, the dispatcher's
attributes and inspection methods, pickling, typeof and types, and thread safety."""

from __future__ import annotations

import io
import math
import pickle
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import taipan
import taipan.objectmode
from taipan import float32, float64, int32, int64, jit, njit, types


@njit
def module_level(x, y):
    """Adds two numbers."""
    return x + y


@jit
def module_level_jit(x):
    return x * 2


# ---------------------------------------------------------------------------------------------
# decorators and options


def test_jit_bare_and_called():
    @jit
    def f(x):
        return x + 1

    @jit()
    def g(x):
        return x + 2

    @jit(nopython=True)
    def h(x):
        return x + 3

    @njit()
    def k(x):
        return x + 4

    assert (f(1), g(1), h(1), k(1)) == (2, 3, 4, 5)
    assert module_level_jit(2.5) == 5.0


@pytest.mark.parametrize(
    "options",
    [
        {"fastmath": True},
        {"fastmath": False},
        {"boundscheck": True},
        {"boundscheck": False},
        {"nogil": True},
        {"cache": True},
        {"inline": "always"},
        {"inline": "never"},
        {"error_model": "python"},
        {"error_model": "numpy"},
        {"parallel": True},
        {"debug": False},
    ],
)
def test_options_accepted(options):
    @njit(**options)
    def f(x, y):
        s = 0.0
        for i in range(10):
            s += x * i + y
        return s

    assert f(1.5, 2.0) == f.py_func(1.5, 2.0)
    assert f.targetoptions.get("nopython", True)


def test_fastmath_flag_set():
    @njit(fastmath={"nnan", "ninf"})
    def f(x):
        return x * 2.0 + 1.0

    assert f(1.5) == 4.0


def test_unknown_option_rejected():
    with pytest.raises(KeyError):
        njit(not_an_option=True)(lambda x: x)


def test_forceobj_runs_in_object_mode_with_cpythons_semantics():
    # Object mode: Python objects throughout, so what nopython mode refuses (strings, dicts,
    # arbitrary objects) works, with exactly py_func's results.
    def describe(x, scale=2, **extra):
        counts = {}
        for word in str(x).split():
            counts[word] = counts.get(word, 0) + scale
        return sorted(counts.items()), extra

    for decorated in (jit(forceobj=True)(describe), jit("f8(f8)", forceobj=True)(describe)):
        assert isinstance(decorated, taipan.objectmode.ObjectModeFunction)
        assert decorated.py_func is describe and decorated.__name__ == "describe"
        assert decorated("a b a", scale=3, tag=1) == describe("a b a", scale=3, tag=1)
        assert decorated.signatures == []

    class Holder:
        @jit(forceobj=True)
        def twice(self, x):
            return [x, x]

    assert Holder().twice("y") == ["y", "y"]

    @jit(forceobj=True)
    def raises(x):
        raise KeyError(x)

    with pytest.raises(KeyError):
        raises("k")


def test_bad_error_model_and_inline():
    with pytest.raises(ValueError):
        njit(error_model="c")(lambda x: x)
    with pytest.raises(taipan.errors.UnsupportedError):
        njit(inline="sometimes")(lambda x: x)


def test_error_model_numpy_float_division():
    @njit(error_model="numpy")
    def div(a, b):
        return a / b

    @njit(error_model="numpy")
    def fdiv(a, b):
        return a // b

    @njit(error_model="numpy")
    def fmod(a, b):
        return a % b

    assert div(1.0, 0.0) == math.inf
    assert div(-1.0, 0.0) == -math.inf
    assert math.isnan(div(0.0, 0.0))
    assert div(1, 0) == math.inf
    assert fdiv(1.0, 0.0) == math.inf
    assert math.isnan(fmod(1.0, 0.0))


def test_error_model_numpy_int_division():
    @njit(error_model="numpy")
    def f(a, b):
        return a // b, a % b

    assert f(1, 0) == (0, 0)
    assert f(-7, 0) == (0, 0)


def test_error_model_python_raises():
    @njit(error_model="python")
    def div(a, b):
        return a / b

    with pytest.raises(ZeroDivisionError):
        div(1.0, 0.0)


def test_fastmath_result_close():
    @njit(fastmath=True)
    def dot(n):
        s = 0.0
        for i in range(n):
            s += 0.1 * i
        return s

    assert math.isclose(dot(1000), dot.py_func(1000), rel_tol=1e-12)


def test_disable_jit_environment_is_read_at_import():
    assert taipan.config.DISABLE_JIT in (True, False)


# ---------------------------------------------------------------------------------------------
# explicit signatures


def test_eager_string_signature():
    @njit("float64(float64, float64)")
    def f(a, b):
        return a * b

    assert f.signatures == [(float64, float64)]
    result = f(2, 3)  # ints are converted to float64
    assert result == 6.0 and type(result) is float
    assert str(f.nopython_signatures[0]) == "(float64, float64) -> float64"


def test_eager_type_object_signature():
    @njit(float64(float64, int32))
    def f(x, n):
        return x * n

    assert f.signatures == [(float64, int32)]
    assert f(1.5, 4) == 6.0
    assert str(float64(float64, int32)) == "(float64, int32) -> float64"


def test_signature_return_type_converts():
    @njit("float64(int64)")
    def f(n):
        return n * 2

    result = f(21)
    assert result == 42.0 and type(result) is float

    @njit("int32(float64)")
    def g(x):
        return x

    assert g(3.75) == 3


def test_list_of_signatures():
    @njit(["int64(int64)", "float64(float64)", "complex128(complex128)"])
    def f(x):
        return x + x

    assert len(f.signatures) == 3
    assert f(2) == 4 and type(f(2)) is int
    assert f(2.5) == 5.0
    assert f(1j) == 2j


def test_no_matching_definition():
    @njit("float64(float64)")
    def f(x):
        return x

    with pytest.raises(TypeError, match="No matching definition"):
        f(1j)
    with pytest.raises(TypeError):
        f((1.0, 2.0))
    assert len(f.signatures) == 1  # no new compilation


def test_signature_without_return_type():
    @njit((int64, float64))
    def f(a, x):
        return a + x

    assert f(1, 2.5) == 3.5
    assert f.signatures == [(int64, float64)]


def test_invalid_signature():
    with pytest.raises(TypeError):
        njit("not a signature(")(lambda x: x)


def test_type_is_not_a_signature():
    with pytest.raises(TypeError):
        njit(float64)(lambda x: x)


def test_compile_method():
    @njit
    def f(x, y):
        return x - y

    f.compile("float64(float64, float64)")
    assert f.signatures == [(float64, float64)]
    f.compile((int64, int64))
    assert (int64, int64) in f.signatures
    assert f(5, 3) == 2
    assert f(5.5, 3.0) == 2.5
    assert len(f.signatures) == 2


def test_tuple_signature_string():
    @njit("float64(UniTuple(float64, 2), Tuple((int64, float64)))")
    def f(t, u):
        return t[0] + t[1] + u[0] * u[1]

    assert f((1.0, 2.0), (3, 0.5)) == 4.5


# ---------------------------------------------------------------------------------------------
# dispatcher attributes


def test_lazy_signatures_and_overloads():
    @njit
    def f(x):
        return x

    assert f.signatures == [] and f.overloads == {}
    f(1)
    f(1.0)
    f(1)  # cached: no new signature
    f(True)
    f((1, 2))
    assert f.signatures == [(int64,), (float64,), (types.boolean,), (types.UniTuple(int64, 2),)]
    assert set(f.overloads) == set(f.signatures)
    returns = [str(s.return_type) for s in f.nopython_signatures]
    assert returns == ["int64", "float64", "bool", "UniTuple(int64 x 2)"]


def test_numpy_scalars_get_their_own_signatures():
    @njit
    def f(x):
        return x

    f(np.float32(1.0))
    f(np.int16(1))
    f(np.uint64(1))
    f(np.complex64(1))
    f(np.bool_(True))
    f(np.float64(1.0))
    assert f.signatures == [
        (float32,),
        (types.int16,),
        (types.uint64,),
        (types.complex64,),
        (types.boolean,),
        (float64,),
    ]


def test_name_doc_wrapped():
    assert module_level.__name__ == "module_level"
    assert module_level.__qualname__ == "module_level"
    assert module_level.__doc__ == "Adds two numbers."
    assert module_level.__module__ == __name__
    assert module_level.__wrapped__ is module_level.py_func
    assert module_level.py_func(1, 2) == 3
    assert "module_level" in repr(module_level)


def test_inspect_types():
    @njit
    def f(a, b):
        total = a * 2
        ratio = total / b
        flag = ratio > 1.0
        return flag, total

    f(3, 2.0)
    out = io.StringIO()
    f.inspect_types(file=out)
    text = out.getvalue()
    assert "int64" in text and "float64" in text and "bool" in text
    for line in ("total = a * 2", "ratio = total / b", "flag = ratio > 1.0"):
        assert line in text
    for name, type_name in [
        ("a", "int64"),
        ("b", "float64"),
        ("total", "int64"),
        ("ratio", "float64"),
        ("flag", "bool"),
    ]:
        assert any(
            name in line and type_name in line and "::" in line for line in text.splitlines()
        ), (name, type_name, text)


def test_inspect_types_stdout(capsys):
    @njit
    def f(x):
        y = x + 1
        return y

    f(1)
    f.inspect_types()
    assert "int64" in capsys.readouterr().out


def test_inspect_llvm_and_asm():
    @njit
    def f(x, y):
        return x * y + 1.0

    f(1.0, 2.0)
    f(1, 2.0)
    llvm = f.inspect_llvm()
    asm = f.inspect_asm()
    assert set(llvm) == set(f.signatures) == set(asm)
    for key in f.signatures:
        assert "define" in llvm[key]
        assert isinstance(asm[key], str) and len(asm[key]) > 0
    one = f.inspect_llvm(signature=(float64, float64))
    assert isinstance(one, str)
    assert "fmul" in one or "fma" in one
    one_asm = f.inspect_asm((float64, float64))
    assert any(op in one_asm for op in ("mulsd", "vmulsd", "vfmadd", "fmul"))
    by_string = f.inspect_llvm("float64(float64, float64)")
    assert isinstance(by_string, str) and "define" in by_string


def test_pickle_by_reference():
    assert pickle.loads(pickle.dumps(module_level)) is module_level
    assert pickle.loads(pickle.dumps(module_level_jit)) is module_level_jit
    assert pickle.loads(pickle.dumps(module_level, protocol=0)) is module_level


def test_dispatcher_as_argument_is_rejected_cleanly():
    @njit
    def f(x):
        return x

    with pytest.raises(taipan.errors.TypingError):
        f({"a": 1})


def test_call_with_keywords_and_defaults():
    @njit
    def f(a, b=2.0, c=3):
        return a * b + c

    assert f(1.0) == 5.0
    assert f(1.0, c=10) == 12.0
    assert f(c=1, b=1.0, a=1.0) == 2.0


# ---------------------------------------------------------------------------------------------
# typeof and types


@pytest.mark.parametrize(
    "value, expected",
    [
        (1, "int64"),
        (-(2**63), "int64"),
        (2**63, "uint64"),
        (1.5, "float64"),
        (True, "bool"),
        (1j, "complex128"),
        (np.float32(1), "float32"),
        (np.float64(1), "float64"),
        (np.int8(1), "int8"),
        (np.int16(1), "int16"),
        (np.int32(1), "int32"),
        (np.int64(1), "int64"),
        (np.uint8(1), "uint8"),
        (np.uint16(1), "uint16"),
        (np.uint32(1), "uint32"),
        (np.uint64(1), "uint64"),
        (np.complex64(1), "complex64"),
        (np.complex128(1), "complex128"),
        (np.bool_(True), "bool"),
        ((1, 2), "UniTuple(int64 x 2)"),
        ((1, 2.0), "Tuple(int64, float64)"),
        ((1.0, (2, 3)), "Tuple(float64, UniTuple(int64 x 2))"),
    ],
)
def test_typeof(value, expected):
    assert str(taipan.typeof(value)) == expected


def test_typeof_objects():
    assert taipan.typeof(1) == int64
    assert taipan.typeof(1.0) == float64
    assert taipan.typeof(np.float32(2)) == float32
    assert taipan.typeof(True) == types.boolean
    assert taipan.typeof(1j) == types.complex128
    assert taipan.typeof((1, 2)) == types.UniTuple(int64, 2)
    assert taipan.typeof((1, 2.0)) == types.Tuple([int64, float64])
    assert taipan.typeof((1, 2)) != types.UniTuple(int64, 3)


def test_typeof_unsupported():
    with pytest.raises(ValueError):
        taipan.typeof({"a": 1})
    with pytest.raises(ValueError):
        taipan.typeof(object())


def test_type_names_and_aliases():
    assert str(types.int8) == "int8" and str(types.uint64) == "uint64"
    assert types.float64 is taipan.float64 or types.float64 == taipan.float64
    assert types.f8 == types.float64 and types.f4 == types.float32
    assert types.i4 == types.int32 and types.i8 == types.int64
    assert types.u1 == types.uint8 and types.b1 == types.boolean
    assert types.c16 == types.complex128 and types.c8 == types.complex64
    assert taipan.double == taipan.float64
    assert types.intp == types.int64


def test_signature_from_types():
    sig = float64(float64, int32)
    assert str(sig) == "(float64, int32) -> float64"
    assert sig.return_type == float64
    assert tuple(sig.args) == (float64, int32)


def test_one_argument_signature_str():
    assert str(types.void(int64)) == "(int64,) -> none"


@pytest.mark.parametrize(
    "spelling, ndim, layout",
    [
        ("float64[:]", 1, "A"),
        ("float64[::1]", 1, "C"),
        ("float32[:, ::1]", 2, "C"),
        ("float32[::1, :]", 2, "F"),
        ("int64[:, :, :]", 3, "A"),
        ("complex128[:, :]", 2, "A"),
    ],
)
def test_array_type_spellings(spelling, ndim, layout):
    array_type = eval(spelling, {name: getattr(types, name) for name in dir(types)})
    assert array_type.ndim == ndim
    assert array_type.layout == layout
    assert str(array_type.dtype) == spelling.split("[")[0]


def test_array_type_in_signature_string_parses():
    sig = taipan.types.parse_signature("float64(float64[:], float32[:, ::1])")
    assert sig.args[0].ndim == 1 and sig.args[0].layout == "A"
    assert sig.args[1].ndim == 2 and sig.args[1].layout == "C"


# ---------------------------------------------------------------------------------------------
# threads


def test_threads_compile_and_call_concurrently():
    @njit
    def work(n, x):
        s = 0.0
        for i in range(n):
            s += x * i
        return s

    threads = 16
    barrier = threading.Barrier(threads)

    def run(k):
        barrier.wait()  # every thread calls before the first compilation has finished
        return work(1000 + k, 0.5)

    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(run, range(threads)))
    assert results == [work.py_func(1000 + k, 0.5) for k in range(threads)]
    assert work.signatures == [(int64, float64)]


def test_threads_different_types_concurrently():
    @njit
    def f(x):
        return x * 2

    values = [1, 1.5, 2j, True, -7, np.float32(1.5), np.int8(3), np.uint16(9)] * 4
    barrier = threading.Barrier(len(values))

    def run(v):
        barrier.wait()
        return f(v)

    with ThreadPoolExecutor(len(values)) as pool:
        results = list(pool.map(run, values))
    for v, r in zip(values, results):
        assert r == f.py_func(v)
    assert len(f.signatures) == 7


def test_nogil_threads():
    @njit(nogil=True)
    def spin(n):
        acc = 0
        for i in range(n):
            acc = (acc * 31 + i) % 1000003
        return acc

    expected = spin.py_func(100000)
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(spin, [100000] * 8)) == [expected] * 8


def test_debug_option_keeps_line_information():
    from taipan import njit

    @njit(debug=True)
    def add_one(x):
        y = x + 1
        return y

    assert add_one(2) == 3
    assert "!DILocation" in add_one.inspect_llvm(add_one.signatures[0])


def test_taipan_scalar_types_are_casts_in_compiled_code():
    from taipan import int8, uint16

    @taipan.njit
    def cast(x):
        return float32(x) * 3, int8(x), uint16(x), float64(x), int64(x)

    for x in (2.7, 0.5, 100.25):  # in range of every type: out-of-range casts are undefined
        got = cast(x)
        expected = (np.float32(x) * 3, int(x), int(x), x, int(x))
        assert got == pytest.approx(expected)
        assert isinstance(got[0], float) and isinstance(got[1], int)


# Numba's type classes: isinstance of a taipan type against one matches only its own types.


def test_datetime_type_classes_match_only_their_types():
    for cls in (types.NPDatetime, types.NPTimedelta):
        assert not isinstance(types.int64, cls)
        assert not isinstance(types.Array(types.float64, 1, "C"), cls)
    assert isinstance(types.NPDatetime("ns"), types.NPDatetime)
    assert not isinstance(types.NPDatetime("ns"), types.NPTimedelta)
    assert repr(types.unicode_type) == "unicode_type"
