"""taipan.typed.List and taipan.typed.Dict: the Python objects behave as Python's list and dict
(for items of one type), are passed to compiled code without a copy (changes are seen on both
sides), and come back from compiled code as typed containers. Every allocation is checked."""

import heapq
import math

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

import taipan
from taipan import njit, typed, types
from taipan.typed import Dict, List

# --- typed.List from Python -------------------------------------------------------------------


def test_list_builds_like_a_list():
    with no_allocation_leak():
        for items in ([1, 2, 3], [1.5, -0.0, math.inf], [True, False], ["a", "bé", ""], []):
            tl = List(items)
            assert list(tl) == items
            assert len(tl) == len(items)
            assert tl == items
            assert tl == List(items)
        assert list(List(range(5))) == [0, 1, 2, 3, 4]
        assert list(List(x * x for x in range(4))) == [0, 1, 4, 9]
        assert list(List((1, 2))) == [1, 2]
        del tl


def test_list_type_is_fixed_by_the_first_item():
    with no_allocation_leak():
        tl = List()
        assert not tl._typed
        assert repr(tl) == "ListType[Undefined]([])"
        tl.append(1)
        assert tl._list_type == types.ListType(types.int64)
        assert isinstance(tl._list_type, types.ListType)
        assert repr(tl) == "ListType[int64]([1])"
        tl.append(True)  # converts without loss
        assert list(tl) == [1, 1]
        with pytest.raises(TypeError, match=r"float64 .*ListType\[int64\]"):
            tl.append(2.5)
        with pytest.raises(TypeError):
            tl.append("a")
        assert list(tl) == [1, 1]
        floats = List([1.5])
        floats.append(2)  # an int into a list of floats: converted
        assert list(floats) == [1.5, 2.0] and type(floats[1]) is float
        with pytest.raises(TypeError, match="cannot hold"):
            List([None])
        with pytest.raises(TypeError, match="Python list"):
            List([[1, 2]])
        del tl, floats


def test_list_empty_list_and_repr():
    with no_allocation_leak():
        tl = List.empty_list(types.float64)
        assert tl._typed and len(tl) == 0
        assert repr(tl) == "ListType[float64]([])"
        tl.extend([1, 2.5])
        assert repr(tl) == "ListType[float64]([1.0, 2.5])"
        assert str(List(["x", "y"])) == "[x, y]"  # Numba's str: the items' str()
        assert repr(List(["x"])) == "ListType[unicode_type]([x])"
        assert list(List.empty_list(int)) == []
        with pytest.raises(TypeError, match="taipan type"):
            List.empty_list("int64")
        del tl


def reference_operations(lst):
    """The same operations on a list and on a typed List must give the same results."""
    out = []
    lst.append(5)
    lst.extend([7, -3, 5])
    lst.insert(0, 9)
    lst.insert(-1, 4)
    lst.insert(100, 8)
    out.append(lst.pop())
    out.append(lst.pop(0))
    out.append(lst.pop(-2))
    out.append(lst.index(5))
    out.append(lst.index(5, 1))
    out.append(lst.count(5))
    lst.remove(5)
    out.append(5 in lst)
    out.append(100 in lst)
    lst.reverse()
    out.append(list(lst))
    lst.sort()
    out.append(list(lst))
    lst.sort(reverse=True)
    out.append(list(lst))
    lst.sort(key=lambda v: (v % 3, v))
    out.append(list(lst))
    out.append(lst[0])
    out.append(lst[-1])
    out.append(list(lst[1:]))
    out.append(list(lst[::-2]))
    lst[0] = 11
    lst[-1] = 12
    del lst[1]
    out.append(list(lst))
    lst[1:2] = [20, 21, 22]
    del lst[::2]
    out.append(list(lst))
    copy = lst.copy()
    copy.append(1)
    out.append((len(lst), len(copy)))
    lst.clear()
    out.append(len(lst))
    return out


def test_list_methods_match_python():
    with no_allocation_leak():
        assert reference_operations(List([1, 2, 3])) == reference_operations([1, 2, 3])


def test_list_errors_match_python():
    with no_allocation_leak():
        tl = List([1, 2])
        for action, error in (
            (lambda lst: lst[2], IndexError),
            (lambda lst: lst[-3], IndexError),
            (lambda lst: lst.pop(5), IndexError),
            (lambda lst: lst.remove(7), ValueError),
            (lambda lst: lst.index(7), ValueError),
            (lambda lst: lst.__setitem__(2, 1), IndexError),
        ):
            with pytest.raises(error):
                action([1, 2])
            with pytest.raises(error):
                action(tl)
        with pytest.raises(IndexError, match="pop from empty list"):
            List.empty_list(types.int64).pop()
        with pytest.raises(TypeError, match="unhashable"):
            hash(tl)
        del tl


def test_list_sorts_floats_as_python():
    values = [2.5, -0.0, 0.0, -1.0, math.inf, 1e-300, -math.inf]
    with no_allocation_leak():
        for reverse in (False, True):
            tl = List(values)
            tl.sort(reverse=reverse)
            expected = sorted(values, reverse=reverse)
            assert [math.copysign(1, v) * abs(v) for v in tl] == expected
            assert [math.copysign(1, v) for v in tl] == [math.copysign(1, v) for v in expected]
        with_nan = List([3.0, math.nan, 1.0])
        with_nan.sort()
        python = [3.0, math.nan, 1.0]
        python.sort()
        assert str(list(with_nan)) == str(python)
        del tl, with_nan


def test_list_of_arrays_keeps_them_alive():
    with no_allocation_leak():
        tl = List()
        a = np.arange(3.0)
        tl.append(a)
        tl.append(np.ones(3))
        assert tl[0] is a
        del a
        assert np.array_equal(tl[0], [0.0, 1.0, 2.0])
        with pytest.raises(TypeError):
            tl.append(np.arange(3))  # int64 items into a list of float64 arrays
        del tl


def test_nested_typed_lists_share_their_items():
    with no_allocation_leak():
        inner = List([1, 2])
        outer = List([inner])
        assert outer._list_type == types.ListType(types.ListType(types.int64))
        outer[0].append(3)
        assert list(inner) == [1, 2, 3]  # the same block, as a list of lists in Python
        del inner, outer


# --- typed.Dict from Python -------------------------------------------------------------------


def reference_dict_operations(d):
    out = []
    d["a"] = 1.5
    d["b"] = 2.0
    d["c"] = -0.5
    d["a"] = 4.0
    out.append(d["a"])
    out.append(d.get("z"))
    out.append(d.get("z", 9.0))
    out.append(d.setdefault("b", 7.0))
    out.append(d.setdefault("d", 7.0))
    out.append(d.pop("c"))
    out.append(d.pop("c", 1.0))
    del d["b"]
    d["b"] = 3.0  # goes to the end again
    out.append(list(d.keys()))
    out.append(list(d.values()))
    out.append(list(d.items()))
    out.append(list(d))
    out.append(("a" in d, "zz" in d, len(d)))
    d.update({"e": 1.0, "a": 0.0})
    d.update([("f", 2.0)])
    out.append(list(d.items()))
    out.append(d.popitem())
    copy = d.copy()
    copy["x"] = 1.0
    out.append((len(d), len(copy)))
    d.clear()
    out.append(len(d))
    return out


def test_dict_methods_match_python():
    with no_allocation_leak():
        assert reference_dict_operations(Dict()) == reference_dict_operations({})
        assert reference_dict_operations(
            Dict.empty(types.unicode_type, types.float64)
        ) == reference_dict_operations({})


def test_dict_types_and_errors():
    with no_allocation_leak():
        d = Dict()
        assert not d._typed
        d[1] = 2.5
        assert d._dict_type == types.DictType(types.int64, types.float64)
        assert isinstance(d._dict_type, types.DictType)
        assert repr(d) == "DictType[int64,float64]<iv=None>({1: 2.5})"
        d[2] = 3  # an int value into float values: converted
        assert d[2] == 3.0 and type(d[2]) is float
        with pytest.raises(KeyError):
            d[7]
        with pytest.raises(KeyError):
            del d[7]
        with pytest.raises(KeyError, match="empty"):
            Dict().popitem()
        with pytest.raises(TypeError, match="does not match"):
            d["a"]  # a key of another type is refused, not silently missing
        with pytest.raises(TypeError):
            d[3] = "text"
        assert d == {1: 2.5, 2: 3.0} and d != {1: 2.5}
        assert dict(d) == {1: 2.5, 2: 3.0}
        with pytest.raises(TypeError, match="unhashable"):
            hash(d)
        with pytest.raises(TypeError, match="keys"):
            Dict.empty(types.float64[:], types.int64)
        nan_keys = Dict()
        nan_keys[math.nan] = 1
        nan_keys[math.nan] = 2
        assert len(nan_keys) == 2  # NaN never equals itself
        zero = Dict()
        zero[0.0] = 1
        zero[-0.0] = 2
        assert list(zero.items()) == [(0.0, 2)]
        del d, nan_keys, zero


def test_dict_of_tuples_and_arrays():
    with no_allocation_leak():
        d = Dict.empty(types.UniTuple(types.int64, 2), types.float64[:])
        a = np.arange(4.0)
        d[(1, 2)] = a
        d[(3, 4)] = np.zeros(2)
        assert d[(1, 2)] is a
        del a
        assert np.array_equal(d[(1, 2)], np.arange(4.0))
        assert list(d) == [(1, 2), (3, 4)]
        del d


# --- typed containers in compiled code --------------------------------------------------------


@njit
def total(lst):
    s = 0.0
    for v in lst:
        s += v
    return s


@njit
def grow(lst, n):
    for i in range(n):
        lst.append(i * 2)
    lst[0] = -1
    return len(lst)


def test_typed_list_is_passed_without_a_copy():
    with no_allocation_leak():
        tl = List([1.5, 2.5])
        assert total(tl) == total.py_func(tl) == 4.0
        ints = List([1, 2, 3])
        python = [1, 2, 3]
        assert grow(ints, 3) == grow.py_func(python, 3) == 6
        assert list(ints) == python
        assert taipan.typeof(ints) == types.ListType(types.int64)
        del tl, ints


@njit
def make_lists(n):
    a = List()
    for i in range(n):
        a.append(i + 0.5)
    b = List([1, 2, 3])
    c = List.empty_list(types.int64)
    c.append(n)
    return a, b, c


def test_lists_made_in_compiled_code_come_back_typed():
    with no_allocation_leak():
        a, b, c = make_lists(3)
        assert isinstance(a, List) and isinstance(b, List) and isinstance(c, List)
        assert [list(x) for x in (a, b, c)] == [list(x) for x in make_lists.py_func(3)]
        assert a._list_type == types.ListType(types.float64)
        a.append(7)
        assert total(a) == 0.5 + 1.5 + 2.5 + 7
        del a, b, c


@njit
def methods_in_compiled_code(lst):
    lst.insert(0, 10)
    lst.extend([4, 5])
    x = lst.pop()
    lst.reverse()
    lst.sort()
    y = lst.index(4)
    return x + y + lst.count(10) + (1 if 4 in lst else 0) + lst[-1] + len(lst[1:])


def test_list_methods_in_compiled_code_match_python():
    with no_allocation_leak():
        tl = List([3, 1, 2])
        python = [3, 1, 2]
        assert methods_in_compiled_code(tl) == methods_in_compiled_code.py_func(python)
        assert list(tl) == python
        del tl


@njit
def refuse_float(lst):
    lst.append(2.5)


def test_compiled_code_refuses_lossy_stores_into_typed_lists():
    tl = List([1, 2])
    with pytest.raises(taipan.errors.TypingError, match="append"):
        refuse_float(tl)
    assert list(tl) == [1, 2]


@njit
def sum_lengths(arrays):
    s = 0.0
    for a in arrays:
        s += a.sum()
    return s


@njit
def keep_arrays(store, a):
    store.append(a)
    store.append(a[1:])


def test_typed_list_of_arrays_in_compiled_code():
    with no_allocation_leak():
        arrays = List([np.arange(3.0), np.ones(4)])
        assert sum_lengths(arrays) == 7.0
        store = List.empty_list(types.float64[:])
        a = np.arange(5.0)
        keep_arrays(store, a)
        del a  # the list keeps the argument's memory alive
        assert [list(x) for x in store] == [[0, 1, 2, 3, 4], [1, 2, 3, 4]]
        del arrays, store


float_array = types.float64[:]


@njit
def make_dicts(n):
    d = Dict.empty(types.unicode_type, float_array)
    d["x"] = np.zeros(n)
    counts = Dict()
    for i in range(n):
        counts[i % 2] = counts.get(i % 2, 0) + 1
    return d, counts


def test_dicts_made_in_compiled_code_come_back_typed():
    with no_allocation_leak():
        d, counts = make_dicts(3)
        assert isinstance(d, Dict) and isinstance(counts, Dict)
        assert d._dict_type == types.DictType(types.unicode_type, types.float64[:])
        assert np.array_equal(d["x"], np.zeros(3))
        assert counts == make_dicts.py_func(3)[1]
        del d, counts


@njit
def update_dict(d, k):
    d[k] = d.get(k, 0.0) + 1.0
    return len(d)


def test_typed_dict_is_passed_without_a_copy():
    with no_allocation_leak():
        d = Dict.empty(types.unicode_type, types.float64)
        python = {}
        for word in ("a", "b", "a"):
            assert update_dict(d, word) == update_dict.py_func(python, word)
        assert d == python
        assert list(d.items()) == list(python.items())
        assert taipan.typeof(d) == types.DictType(types.unicode_type, types.float64)
        del d


def test_untyped_containers_cannot_be_passed():
    with pytest.raises(taipan.errors.TypingError, match="empty typed.List"):
        total(List())
    with pytest.raises(taipan.errors.TypingError, match="empty typed.Dict"):
        update_dict(Dict(), "a")


def test_signatures_name_typed_containers():
    signature = types.float64(types.ListType(types.float64))
    compiled = njit(signature)(total.py_func)
    with no_allocation_leak():
        assert compiled(List([1.0, 2.0])) == 3.0
    assert types.ListType(types.int64).item_type == types.int64
    assert types.DictType(types.int64, types.float64).value_type == types.float64
    assert typed.List is List and taipan.typed.Dict is Dict


@njit
def heap_operations(h):
    heapq.heapify(h)
    heapq.heappush(h, 0)
    first = heapq.heappop(h)
    return first, heapq.nsmallest(2, h), heapq.nlargest(3, h)


def test_heapq_takes_typed_lists():
    with no_allocation_leak():
        tl = List([5, 3, 8, 1, 9])
        python = [5, 3, 8, 1, 9]
        assert heap_operations(tl) == heap_operations.py_func(python)
        assert list(tl) == python  # the same heap layout, in the caller's typed list
        del tl


@njit
def append_ints(lst, n):
    for i in range(n):
        lst.append(i)
    return lst[-1] + 1.0


def test_numbers_convert_into_narrower_items():
    with no_allocation_leak():
        small = List.empty_list(types.int32)
        small.append(7)
        small.append(np.int64(-8))
        with pytest.raises(OverflowError, match="int32"):
            small.append(2**31)
        with pytest.raises(TypeError):
            small.append(1.0)  # a float never becomes an integer
        assert list(small) == [7, -8]
        assert append_ints(small, 3) == append_ints.py_func([7, -8], 3)
        assert list(small) == [7, -8, 0, 1, 2]
        singles = List.empty_list(types.float32)
        singles.append(0.1)
        assert singles[0] == float(np.float32(0.1))
        unsigned = List.empty_list(types.uint8)
        with pytest.raises(OverflowError):
            unsigned.append(-1)
        assert types.int32(5) == 5 and type(types.int32(5)) is np.int32
        with pytest.raises(RuntimeError, match="untyped list"):
            _ = List()._dtype
        del small, singles, unsigned


@njit
def add_to_array_value(d):
    d[1] += 100
    return d[1]


def test_dict_of_arrays_updates_in_place():
    with no_allocation_leak():
        d = Dict.empty(types.int32, types.int64[:])
        assert d._dict_type == types.DictType(types.int64, types.int64[:])  # int keys are int64
        d[1] = np.arange(3, dtype=np.int64)
        assert list(add_to_array_value(d)) == [100, 101, 102]
        assert list(d[1]) == [100, 101, 102]
        del d


def test_typed_lists_order_as_lists():
    with no_allocation_leak():
        a, b = List([1, 2]), List([1, 3])
        for x, y in ((a, b), (b, a), (a, a), (a, [1, 2, 0]), (a, [1])):
            python = (list(x), list(y))
            assert (x < y) == (python[0] < python[1])
            assert (x <= y) == (python[0] <= python[1])
            assert (x > y) == (python[0] > python[1])
            assert (x >= y) == (python[0] >= python[1])
        with pytest.raises(TypeError):
            _ = a < 1
        del a, b, x, y


@njit
def not_iterable(n):
    return List(n)


def test_typed_list_of_a_number_is_refused():
    with pytest.raises(taipan.errors.TypingError, match="must be iterable"):
        not_iterable(3)


@njit
def store_float(d):
    d["b"] = 2.5
    return len(d)


@njit
def store_float_item(lst):
    lst[0] = 2.5


@njit
def store_int(d):
    d["b"] = 2
    d.setdefault("c", 3)
    return len(d)


def test_containers_passed_in_keep_their_types():
    """A store that would widen a typed.Dict (or typed.List) passed in is refused: widening
    would copy it, and the caller's container would silently miss the change."""
    with no_allocation_leak():
        d = Dict()
        d["a"] = 1
        with pytest.raises(taipan.errors.TypingError, match="keeps its types"):
            store_float(d)
        assert dict(d) == {"a": 1}
        tl = List([1])
        with pytest.raises(taipan.errors.TypingError):
            store_float_item(tl)
        assert list(tl) == [1]
        floats = Dict.empty(types.unicode_type, types.float64)
        python = {}
        assert store_int(floats) == store_int.py_func(python)
        assert dict(floats) == python  # ints stored into float values, converted
        del d, tl, floats


@njit
def list_of_dicts():
    lst = List.empty_list(Dict.empty(types.int64, types.float64))
    d = Dict.empty(types.int64, types.float64)
    d[1] = 2.0
    lst.append(d)
    return lst


def test_a_container_value_names_the_item_type():
    with no_allocation_leak():
        lst = list_of_dicts()
        assert lst._list_type == types.ListType(types.DictType(types.int64, types.float64))
        assert dict(lst[0]) == {1: 2.0}
        del lst


@njit
def untyped_containers():
    return List(), Dict()


def test_untyped_containers_come_back_untyped():
    with no_allocation_leak():
        lst, d = untyped_containers()
        assert not lst._typed and not d._typed
        lst.append("a")
        d[1] = "b"
        assert list(lst) == ["a"] and dict(d) == {1: "b"}
        del lst, d


def test_copy_module_and_in_place_add():
    import copy

    with no_allocation_leak():
        tl = List([1, 2])
        python = [1, 2]
        tl += [3]
        python += [3]
        assert list(tl) == python
        duplicate = copy.copy(tl)
        duplicate.append(4)
        assert list(tl) == python and list(duplicate) == [*python, 4]
        d = Dict({"a": 1})
        other = copy.copy(d)
        other["b"] = 2
        assert dict(d) == {"a": 1} and dict(other) == {"a": 1, "b": 2}
        del tl, duplicate, d, other
