"""Dicts in compiled code (Numba's typed dicts, written as Python dicts): literals, `{}` typed by
later stores, lookups, deletion, methods, iteration order and dicts returned to Python. Every
result is compared with the Python function's; constructs that stay unsupported (dict
comprehensions, dict arguments, dicts in CUDA kernels) are refused with a clear error."""

import math

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import cuda, float64, njit, typed, void
from taipan.errors import TypingError, UnsupportedError


def plain(value):
    """A typed.Dict or typed.List result as the dict or list Python builds, recursively."""
    if isinstance(value, typed.Dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, typed.List):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    return value


def check(function, *args):
    """The compiled result equals the Python one, with no memory block left behind."""
    compiled = njit(function)
    with no_allocation_leak():
        got = plain(compiled(*args))  # a dict comes back as a typed.Dict, as in Numba
    expected = function(*args)
    both_nan = isinstance(got, float) and math.isnan(got) and math.isnan(expected)
    assert got == expected or both_nan, (got, expected)
    if isinstance(expected, (dict, list, tuple, str, float, int)):
        assert type(got) is type(expected)
    if isinstance(expected, dict):
        assert list(got.items()) == list(expected.items())  # insertion order
    return got


# --- building and reading ---------------------------------------------------------------------


def empty_then_store():
    d = {}
    d[1] = 2.0
    d[3] = 4
    return len(d), d[1], d[3]


def literal_lookup():
    d = {1: 2.0, 3: 4.0}
    return d[3] + d[1]


def dict_call():
    d = dict()  # noqa: C408 - the call is what is tested
    d["a"] = 1
    return d


def string_keys(n):
    d = {}
    for i in range(n):
        d["k" + str(i % 7)] = i
    return d


def tuple_keys(n):
    d = {}
    for i in range(n):
        d[(i % 3, float(i % 2))] = i
    return d


def float_keys():
    d = {}
    d[0.0] = 1
    d[-0.0] = 2  # -0.0 == 0.0: the same key, as in CPython
    d[1.5] = 3
    d[1] = 4  # an int into float keys
    return d


def nan_keys():
    # Two NaN objects: CPython finds a NaN key only by identity, which compiled floats lack, so
    # distinct NaNs are distinct keys in both (Numba's behaviour too).
    d = {}
    d[float("nan")] = 1
    d[float("nan")] = 2
    d[1.0] = 3
    return len(d), float("nan") in d, 1.0 in d, math.inf in d  # noqa: PLW0177


def bool_keys():
    d = {True: 1, False: 2}
    d[True] = 3
    return d


def int_widths(x):
    d = {}
    d[np.int32(5)] = 1
    d[x] = 2
    return d


def contains(k):
    d = {1: "a", 2: "b"}
    return k in d, k not in d


def deletion_order():
    d = {}
    for i in range(10):
        d[i] = i * i
    del d[3]
    del d[0]
    d[3] = -1
    d[0] = -2
    d[20] = 5
    return d


def many_keys(n):
    d = {}
    for i in range(n):
        d[i * 7919 % 100003] = i
    total = 0
    for i in range(0, n, 3):
        del d[i * 7919 % 100003]
    for k in d:  # noqa: PLC0206 - d[k] of every key is what is tested
        total += k * d[k]
    return len(d), total, d[7919], d.get(200000, -1)


def string_values():
    d = {1: "one"}
    d[2] = "two"
    d[1] = d[2] + "!"
    return d


def array_values(n):
    d = {}
    for i in range(3):
        d[i] = np.arange(n) * i
    d[1] = d[2]
    return d[1].sum() + d[0].sum()


def list_values():
    d = {}
    d["a"] = [1, 2]
    d["a"].append(3)
    d["b"] = [4]
    return d


def tuple_values():
    d = {1: (1, 2.5)}
    d[2] = (3, 4.5)
    return d


def augmented():
    d = {}
    for i in range(20):
        w = "w" + str(i * i % 7)
        if w in d:
            d[w] += 1
        else:
            d[w] = 1
    return d


def get_default():
    d = {"a": 1}
    return d.get("a", 0), d.get("z", -1)


def get_on_empty_types_the_dict(n):
    d = {}
    for i in range(n):
        w = str(i % 5)
        d[w] = d.get(w, 0) + 1
    return d


def get_optional(k):
    d = {1: 2.5}
    v = d.get(k)
    if v is None:
        return -1.0
    return v


def setdefault_grows():
    d = {}
    for i in [3, 1, 3, 2, 1]:
        d.setdefault(i, 10 * i)
    return d


def pop_value():
    d = {1: 10, 2: 20}
    a = d.pop(1)
    b = d.pop(5, -1)
    return a, b, d


def pop_strings():
    d = {"x": "one", "y": "two"}
    a = d.pop("x")
    b = d.pop("z", "none")
    return a, b, len(d)


def popitem_order():
    d = {1: 1.0, 2: 2.0, 3: 3.0}
    a = d.popitem()
    d[4] = 4.0
    b = d.popitem()
    return a, b, d


def views():
    d = {"a": 1, "b": 2, "c": 3}
    del d["b"]
    d["b"] = 4
    keys = ""
    for k in d.keys():  # noqa: SIM118 - keys() is what is tested
        keys += k
    total = 0
    for v in d.values():
        total += v
    pairs = []
    for k, v in d.items():
        pairs.append((k, v))
    return keys, total, pairs


def iterate_keys():
    d = {5: 1, 2: 2, 9: 3}
    out = []
    for k in d:
        out.append(k)  # noqa: PERF402 - iterating the dict is what is tested
    return out


def update_clear_copy():
    d = {1: 1.0}
    e = {2: 2.0, 1: 3.0}
    d.update(e)
    c = d.copy()
    d.clear()
    d[7] = 7.0
    return d, c


def equality():
    a = {1: 2.0, 3: 4.0}
    b = {3: 4.0, 1: 2.0}
    c = {1: 2.0}
    return a == b, a != b, a == c, a != c


def truth():
    d = {}
    empty = not d
    d[1] = 1
    return empty, True if d else False  # noqa: SIM210 - the truth of a dict is tested


def returned_dict():
    return {"x": (1, 2), "y": (3, 4)}


def value_widening():
    d = {}
    d[1] = 1
    d[2] = 2.5
    return d


@pytest.mark.parametrize(
    "function, args",
    [
        (empty_then_store, ()),
        (literal_lookup, ()),
        (dict_call, ()),
        (string_keys, (50,)),
        (tuple_keys, (20,)),
        (float_keys, ()),
        (nan_keys, ()),
        (bool_keys, ()),
        (int_widths, (7,)),
        (contains, (1,)),
        (contains, (5,)),
        (deletion_order, ()),
        (many_keys, (100000,)),
        (string_values, ()),
        (array_values, (5,)),
        (list_values, ()),
        (tuple_values, ()),
        (augmented, ()),
        (get_default, ()),
        (get_on_empty_types_the_dict, (23,)),
        (get_optional, (1,)),
        (get_optional, (2,)),
        (setdefault_grows, ()),
        (pop_value, ()),
        (pop_strings, ()),
        (popitem_order, ()),
        (views, ()),
        (iterate_keys, ()),
        (update_clear_copy, ()),
        (equality, ()),
        (truth, ()),
        (returned_dict, ()),
        (value_widening, ()),
    ],
)
def test_dicts_match_python(function, args):
    check(function, *args)


def test_large_dict_returned_in_order():
    def build(n):
        d = {}
        for i in range(n):
            d[(i * 31) % n] = float(i)
        for i in range(0, n, 2):
            del d[i]
        return d

    check(build, 100000)


def test_negative_and_large_integer_keys_hash_like_python():
    def build():
        d = {}
        for k in [-1, -2, 2**61 - 1, 2**62, -(2**63), 2**63 - 1, 0]:
            d[k] = k
        return d

    check(build)


# --- errors -------------------------------------------------------------------------------------


def missing_int():
    d = {1: 2}
    return d[5]


def missing_string():
    d = {"a": 2}
    return d["b"]


def missing_tuple():
    d = {(1, "a"): 2}
    return d[(2, "b")]


def delete_missing():
    d = {1.5: 2}
    del d[2.5]
    return len(d)


def popitem_empty():
    d = {1: 2}
    d.popitem()
    return d.popitem()


@pytest.mark.parametrize(
    "function", [missing_int, missing_string, missing_tuple, delete_missing, popitem_empty]
)
def test_missing_keys_raise_key_error_as_python(function):
    with pytest.raises(KeyError) as expected:
        function()
    with no_allocation_leak(), pytest.raises(KeyError) as got:
        njit(function)()
    assert got.value.args == expected.value.args
    assert str(got.value) == str(expected.value)


def test_key_error_is_caught_in_compiled_code():
    def lookup(k):
        d = {"a": 1}
        try:
            return d[k]
        except KeyError:
            return -1

    with no_allocation_leak():
        assert njit(lookup)("a") == 1
        assert njit(lookup)("b") == -1


def test_float_key_in_integer_dict_is_a_typing_error():
    def lookup():
        d = {1: 2}
        return d[1.5]

    with pytest.raises(TypingError, match="does not match"):
        njit(lookup)()


def widened_alias():
    d = {1: 1}
    e = d
    e[2] = 2.5  # Python: d sees it; a converted copy would not
    return d


def typed_alias():
    d = {}
    e = d
    e[1] = 1  # the store types e only: d would stay an empty copy
    return d


@pytest.mark.parametrize("function", [widened_alias, typed_alias])
def test_widening_a_second_name_is_a_typing_error(function):
    with pytest.raises(TypingError, match="would copy|Cannot infer the type of variable .d."):
        njit(function)()


def test_empty_dict_never_typed_is_a_typing_error():
    def size():
        d = {}
        return d[1]

    with pytest.raises(
        TypingError, match="cannot determine the type|Cannot infer the type of variable .d."
    ):
        njit(size)()


def comprehension(n):
    d = {i: 2 * i for i in range(n)}
    return len(d)


def dict_of_pairs():
    d = dict(((1, 2.0),))  # noqa: C406 - the call is what is tested
    return len(d)


def test_dict_comprehension_and_dict_of_pairs_compile():
    # (test_dict_comprehensions.py covers them in depth)
    with no_allocation_leak():
        assert njit(comprehension)(3) == comprehension(3)
        assert njit(dict_of_pairs)() == dict_of_pairs()


@pytest.mark.parametrize("value", [{}, {1: 2.0}, {(1, 2): True}])
def test_dict_arguments_are_unsupported(value):
    def size(d):
        return len(d)

    # Numba asks for a typed.Dict here; taipan has none yet, and refuses plain dicts.
    with pytest.raises(TypingError, match=r"argument 0 \(d\) is a dict"):
        njit(size)(value)
    assert size(value) == len(value)  # the Python function is untouched


def test_dicts_in_cuda_kernels_are_unsupported():
    def kernel(x):
        d = {1: 2.0}
        x[0] = len(d)

    with pytest.raises(UnsupportedError, match="is not supported on the GPU"):
        cuda.compile_ptx(kernel, void(float64[:]))
