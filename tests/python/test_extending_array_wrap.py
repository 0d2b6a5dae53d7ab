"""Numba's array-compatible user types in NumPy operations (taipan.array_compatible): a ufunc of
a value whose type is ``types.ArrayCompatible`` with an ``"__array__"`` lowering computes on its
array and gives the result in the user's type through ``__array_wrap__``; a ``types.Buffer``
type indexed with slices or arrays gives a view in its own ``copy(ndim=, layout=)``. Modelled on
Numba's pdlike_usecase (a pandas-like Index and Series); results are compared with NumPy on
the arrays, and every test checks the runtime's counters."""

import numpy as np
import pytest
from struct_user_types import no_leaks  # noqa: F401 - the autouse fixture

from taipan import njit, types
from taipan.core import cgutils
from taipan.core.imputils import impl_ret_borrowed
from taipan.errors import TypingError
from taipan.extending import (
    NativeValue,
    box,
    lower_builtin,
    make_attribute_wrapper,
    models,
    register_model,
    type_callable,
    typeof_impl,
    unbox,
)


class Index:
    def __init__(self, data):
        self._data = data


class Series:
    def __init__(self, values, index):
        self._values = values
        self._index = index


class Plain:
    """Array-compatible with the priority of an array and no __array_wrap__: ufuncs give
    arrays."""

    def __init__(self, data):
        self._data = data


class IndexType(types.Buffer):
    array_priority = 1000

    def __init__(self, dtype, layout):
        super().__init__(dtype, 1, layout)

    @property
    def key(self):
        return "index", self.dtype, self.layout

    @property
    def as_array(self):
        return types.Array(self.dtype, 1, self.layout)

    def copy(self, dtype=None, ndim=1, layout=None):
        assert ndim == 1
        return IndexType(self.dtype if dtype is None else dtype, layout or self.layout)


class SeriesType(types.ArrayCompatible):
    array_priority = 1000

    def __init__(self, dtype, index):
        self.dtype = dtype
        self.index = index
        self.values = types.Array(dtype, 1, "C")
        super().__init__(f"series({dtype}, {index})")

    @property
    def key(self):
        return self.dtype, self.index

    @property
    def as_array(self):
        return self.values

    def copy(self, dtype=None, ndim=1, layout="C"):
        return SeriesType(self.dtype if dtype is None else dtype, self.index)


class PlainType(types.ArrayCompatible):
    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__(f"plain({dtype})")

    @property
    def as_array(self):
        return types.Array(self.dtype, 1, "C")


@typeof_impl.register(Index)
def _typeof_index(value, c):
    array = typeof_impl(value._data, c)
    return IndexType(array.dtype, array.layout)


@typeof_impl.register(Series)
def _typeof_series(value, c):
    return SeriesType(typeof_impl(value._values, c).dtype, typeof_impl(value._index, c))


@typeof_impl.register(Plain)
def _typeof_plain(value, c):
    return PlainType(typeof_impl(value._data, c).dtype)


@type_callable("__array_wrap__")
def _type_array_wrap(context):
    def typer(input_type, result):
        if isinstance(input_type, (IndexType, SeriesType)):
            return input_type.copy(dtype=result.dtype, ndim=result.ndim, layout=result.layout)

    return typer


@register_model(IndexType)
class _IndexModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("data", fe_type.as_array)])


@register_model(SeriesType)
class _SeriesModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("index", fe_type.index), ("values", fe_type.as_array)]
        models.StructModel.__init__(self, dmm, fe_type, members)


@register_model(PlainType)
class _PlainModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("data", fe_type.as_array)])


make_attribute_wrapper(IndexType, "data", "_data")
make_attribute_wrapper(SeriesType, "index", "_index")
make_attribute_wrapper(SeriesType, "values", "_values")


def _member_address(member):
    def as_array(context, builder, sig, args):
        value = cgutils.create_struct_proxy(sig.args[0])(context, builder, ref=args[0])
        return value._get_ptr_by_name(member)

    return as_array


lower_builtin("__array__", IndexType)(_member_address("data"))
lower_builtin("__array__", SeriesType)(_member_address("values"))
lower_builtin("__array__", PlainType)(_member_address("data"))


@lower_builtin("__array_wrap__", IndexType, types.Array)
def _index_wrap(context, builder, sig, args):
    index = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    index.data = args[1]
    return impl_ret_borrowed(context, builder, sig.return_type, index._getvalue())


@lower_builtin("__array_wrap__", SeriesType, types.Array)
def _series_wrap(context, builder, sig, args):
    source = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0])
    series = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    series.values = args[1]
    series.index = source.index
    return impl_ret_borrowed(context, builder, sig.return_type, series._getvalue())


def _unboxer(members):
    def unbox_value(typ, obj, c):
        value = cgutils.create_struct_proxy(typ)(c.context, c.builder)
        for member, attribute, member_type in members(typ):
            item = c.pyapi.object_getattr_string(obj, attribute)
            setattr(value, member, c.unbox(member_type, item).value)
            c.pyapi.decref(item)
        return NativeValue(value._getvalue())

    return unbox_value


unbox(IndexType)(_unboxer(lambda t: [("data", "_data", t.as_array)]))
unbox(PlainType)(_unboxer(lambda t: [("data", "_data", t.as_array)]))
unbox(SeriesType)(
    _unboxer(lambda t: [("index", "_index", t.index), ("values", "_values", t.as_array)])
)


@box(IndexType)
def _box_index(typ, val, c):
    index = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    cls = c.pyapi.unserialize(c.pyapi.serialize_object(Index))
    array = c.box(typ.as_array, index.data)
    result = c.pyapi.call_function_objargs(cls, (array,))
    c.pyapi.decref(array)
    return result


@box(SeriesType)
def _box_series(typ, val, c):
    series = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    cls = c.pyapi.unserialize(c.pyapi.serialize_object(Series))
    index = c.box(typ.index, series.index)
    values = c.box(typ.as_array, series.values)
    result = c.pyapi.call_function_objargs(cls, (values, index))
    c.pyapi.decref(index)
    c.pyapi.decref(values)
    return result


def test_unary_ufuncs_of_an_index_give_an_index():
    @njit
    def f(x):
        return np.cos(np.sin(x)), np.negative(x), np.absolute(x)

    data = np.int32([42, 8, -5])
    results = f(Index(data))
    expected = (np.cos(np.sin(data)), np.negative(data), np.absolute(data))
    for got, want in zip(results, expected):
        assert isinstance(got, Index)
        np.testing.assert_array_equal(got._data, want)
        assert got._data.dtype == want.dtype


def test_binary_ufuncs_with_arrays_and_numbers():
    @njit
    def f(x, a, n):
        return np.add(x, a), np.multiply(n, x), np.maximum(a, x), np.add(x, x)

    data = np.arange(4.0)
    other = np.array([3.0, -1.0, 2.5, 7.0])
    for got, want in zip(
        f(Index(data), other, 3),
        (data + other, 3 * data, np.maximum(other, data), data + data),
    ):
        assert isinstance(got, Index)
        np.testing.assert_array_equal(got._data, want)


def test_ufuncs_of_a_series_keep_its_index():
    @njit
    def f(s):
        return np.cos(np.sin(s))

    index = Index(np.int32([1, 2, 3]))
    values = np.int64([1, 2, 3])
    got = f(Series(values, index))
    assert isinstance(got, Series) and isinstance(got._index, Index)
    assert got._index._data is index._data
    np.testing.assert_array_equal(got._values, np.cos(np.sin(values)))


def test_ufuncs_of_a_series_and_an_index_wrap_in_the_first_of_equal_priority():
    @njit
    def f(s, x):
        return np.add(s, x), np.add(x, s)

    index = Index(np.arange(3.0))
    series = Series(np.arange(3.0) * 10, index)
    first, second = f(series, index)
    assert isinstance(first, Series) and isinstance(second, Index)
    np.testing.assert_array_equal(first._values, np.arange(3.0) * 11)
    np.testing.assert_array_equal(second._data, np.arange(3.0) * 11)


def test_a_type_of_array_priority_without_wrap_gives_arrays():
    @njit
    def f(p):
        return np.sin(p), np.add(p, 1)

    data = np.arange(3.0)
    sines, sums = f(Plain(data))
    np.testing.assert_array_equal(sines, np.sin(data))
    np.testing.assert_array_equal(sums, data + 1)


def test_a_buffer_index_gives_items_and_views_of_its_own_type():
    @njit
    def f(x, i, chosen):
        return x[i], x[1:], x[::-2], x[chosen]

    data = np.int32([42, 8, -5, 3])
    item, tail, reverse, picked = f(Index(data), 1, np.array([2, 0]))
    assert item == 8
    for got, want in zip((tail, reverse, picked), (data[1:], data[::-2], data[[2, 0]])):
        assert isinstance(got, Index)
        np.testing.assert_array_equal(got._data, want)
    assert np.shares_memory(tail._data, data)  # a view, as NumPy's


def test_views_of_a_buffer_take_ufuncs():
    @njit
    def f(x):
        return np.sin(x[1:])

    data = np.arange(4.0)
    got = f(Index(data))
    assert isinstance(got, Index)
    np.testing.assert_array_equal(got._data, np.sin(data[1:]))


def test_slices_of_an_array_compatible_type_that_is_no_buffer_are_refused():
    @njit
    def f(s):
        return s[1:]

    with pytest.raises(TypingError, match="with slices or arrays") as raised:
        f(Series(np.arange(3.0), Index(np.arange(3.0))))
    assert "return s[1:]" in str(raised.value)


class Loud:
    def __init__(self, data):
        self._data = data


class LoudType(types.ArrayCompatible):
    array_priority = 5.0

    def __init__(self):
        super().__init__("loud")

    @property
    def as_array(self):
        return types.float64[::1]


loud_type = LoudType()
typeof_impl.register(Loud)(lambda value, c: loud_type)
register_model(LoudType)(_PlainModel)
lower_builtin("__array__", LoudType)(_member_address("data"))
unbox(LoudType)(_unboxer(lambda t: [("data", "_data", t.as_array)]))


def test_a_priority_above_arrays_without_a_wrap_is_a_typing_error():
    @njit
    def f(x):
        return np.sin(x)

    with pytest.raises(TypingError, match="__array_wrap__ failed") as raised:
        f(Loud(np.arange(2.0)))
    assert "return np.sin(x)" in str(raised.value)


def test_a_slice_written_in_an_index_reaches_getitem_as_a_slice_value():
    from taipan.experimental import jitclass

    @jitclass([("data", types.float64[::1])])
    class Vector:
        def __init__(self, data):
            self.data = data

        def __getitem__(self, index):
            return self.data[index]

    @njit
    def f(a, n):
        v = Vector(a)
        return v[1:3], v[::2], v[n:], v[:-1:1], v[1]

    data = np.arange(5.0)
    for got, want in zip(f(data, 3), f.py_func(data, 3)):
        np.testing.assert_array_equal(got, want)

    @njit
    def bad(a):
        return Vector(a)[1.5:]

    with pytest.raises(TypingError, match="slice bounds must be integers"):
        bad(data)


def test_array_operators_of_an_index_are_its_ufuncs():
    @njit
    def f(x, a):
        return x + 1, 2.0 * x, x - a, -x, x < a, x != a, x**2

    data = np.arange(4.0)
    other = np.array([3.0, -1.0, 2.5, 7.0])
    expected = (data + 1, 2.0 * data, data - other, -data, data < other, data != other, data**2)
    for got, want in zip(f(Index(data), other), expected):
        assert isinstance(got, Index)
        np.testing.assert_array_equal(got._data, want)
        assert got._data.dtype == want.dtype


def test_array_operators_of_a_series_keep_its_index():
    @njit
    def f(s):
        return s * 3 + s

    index = Index(np.int32([1, 2, 3]))
    got = f(Series(np.int64([1, 2, 3]), index))
    assert isinstance(got, Series) and got._index._data is index._data
    np.testing.assert_array_equal(got._values, np.int64([4, 8, 12]))
