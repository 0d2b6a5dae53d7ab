"""jitclass: classes whose instances compiled code creates, passes (by reference) and changes.

Every class here is also run as the plain Python class it was made from
(``Cls.class_type.class_def``), and compiled results are compared with it. What a jitclass
cannot hold or do is refused with an error naming the class, the field or the line.
"""

import numpy as np
import pytest
from numpy_checks import no_allocation_leak

from taipan import float32, float64, int32, int64, jitclass, njit, typed, typeof, types
from taipan.errors import TypingError, UnsupportedError
from taipan.experimental import jitclass as experimental_jitclass


def outcome(function, *args):
    """What a call gives: its value, or its exception's class and message."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001 - compared, never swallowed
        return type(error), str(error)


# --- classes ------------------------------------------------------------------------------------


@jitclass([("x", float64), ("y", float64)])
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def scaled_norm2(self, factor):
        return self.norm2() * factor * factor

    def move(self, dx, dy=0.0):
        self.x += dx
        self.y += dy

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __add__(self, other):
        return Point(self.x + other.x, self.y + other.y)


# Numba's canonical example: a Bag with an array field, a property and a loop over it.
@jitclass([("value", int32), ("array", float32[:])])
class Bag:
    def __init__(self, value):
        self.value = value
        self.array = np.zeros(value, dtype=np.float32)

    @property
    def size(self):
        return self.array.size

    def increment(self, val):
        for i in range(self.size):
            self.array[i] += val
        return self.array

    @staticmethod
    def add(x, y):
        return x + y

    def add_twice(self, x):
        return self.add(x, x)


@jitclass
class Annotated:
    count: int64
    weights: types.float64[:]
    name: types.unicode_type

    def __init__(self, weights, name):
        self.count = 0
        self.weights = weights
        self.name = name

    def weighted(self, i):
        self.count += 1
        return self.weights[i] * 2.0

    def greeting(self):
        return "hello " + self.name


@jitclass({"lo": int64, "hi": int64})
class Interval:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi

    def __len__(self):
        return self.hi - self.lo

    def __getitem__(self, i):
        if i < 0 or i >= self.hi - self.lo:
            raise IndexError("interval index out of range")
        return self.lo + i

    def __setitem__(self, i, value):
        self.lo = value - i

    def __contains_value(self, v):
        return self.lo <= v < self.hi

    def contains(self, v):
        return self.__contains_value(v)


@jitclass([("_celsius", float64)])
class Temperature:
    def __init__(self, celsius):
        self._celsius = celsius

    @property
    def celsius(self):
        return self._celsius

    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._celsius = value

    @property
    def fahrenheit(self):
        return self._celsius * 9.0 / 5.0 + 32.0


@jitclass([("items", types.ListType(int64))])
class Stack:
    def __init__(self):
        self.items = typed.List.empty_list(int64)

    def push(self, value):
        self.items.append(value)

    def pop(self):
        return self.items.pop()

    @property
    def size(self):
        return len(self.items)

    def peek(self):
        return self.items[-1]


@jitclass([("start", Point.class_type.instance_type), ("end", Point.class_type.instance_type)])
class Segment:
    def __init__(self, start, end):
        self.start = start
        self.end = end

    def length2(self):
        dx = self.end.x - self.start.x
        dy = self.end.y - self.start.y
        return dx * dx + dy * dy

    def shift(self, d):
        self.start.move(d)
        self.end.move(d)


@jitclass([("pair", types.UniTuple(int64, 2)), ("flag", types.boolean), ("z", types.complex128)])
class Mixed:
    def __init__(self, a, b):
        self.pair = (a, b)
        self.flag = a < b
        self.z = complex(a, b)

    def swap(self):
        self.pair = (self.pair[1], self.pair[0])
        self.flag = not self.flag
        return self.pair


@experimental_jitclass([("counts", types.DictType(types.unicode_type, int64))])
class Counter:
    def __init__(self):
        self.counts = typed.Dict.empty(types.unicode_type, int64)

    def add(self, word):
        self.counts[word] = self.counts.get(word, 0) + 1
        return self.counts[word]


@jitclass([("v", int64)])
class Number:
    def __init__(self, v, *, scale=1):
        self.v = v * scale

    def __neg__(self):
        return Number(-self.v)

    def __invert__(self):
        return ~self.v

    def __contains__(self, x):
        return 0 <= x < self.v

    def __index__(self):
        return self.v

    def __len__(self):
        return self.v


# Numba's linked list: a node holding an optional node of its own class, through a deferred type.
node_type = types.deferred_type()


@jitclass([("data", int64), ("next", types.optional(node_type))])
class LinkedNode:
    def __init__(self, data, next):
        self.data = data
        self.next = next

    def append_to_tail(self, other):
        cur = self
        while cur.next is not None:
            cur = cur.next
        cur.next = other

    def total(self):
        cur = self
        total = 0
        while cur is not None:
            total += cur.data
            cur = cur.next
        return total


node_type.define(LinkedNode.class_type.instance_type)


# --- Python boxes -------------------------------------------------------------------------------


def test_both_import_paths_and_spec_forms():
    assert experimental_jitclass is not None
    struct = Point.class_type.instance_type.struct
    assert list(struct) == ["x", "y"] and struct["x"] == float64
    assert dict(Annotated.class_type.struct) == {
        "count": int64,
        "weights": types.float64[:],
        "name": types.unicode_type,
    }
    assert list(Interval.class_type.struct) == ["lo", "hi"]
    assert isinstance(Point.class_type.instance_type, types.ClassInstanceType)
    assert isinstance(Point.class_type, types.ClassType)
    assert Point.class_type.class_def.__name__ == "Point"
    assert Point.class_type.instance_type.class_type is Point.class_type


def test_box_fields_and_methods_match_python():
    plain = Point.class_type.class_def
    with no_allocation_leak():
        p = Point(1.5, -2)
        q = plain(1.5, -2)
        assert (p.x, p.y) == (q.x, q.y) == (1.5, -2.0)
        assert isinstance(p.y, float)  # stored as the field's float64
        assert p.norm2() == q.norm2()
        assert p.scaled_norm2(3) == q.scaled_norm2(3)
        p.move(0.25)
        q.move(0.25)
        assert (p.x, p.y) == (q.x, q.y)
        p.move(dx=1.0, dy=-0.0)
        q.move(dx=1.0, dy=-0.0)
        assert (p.x, p.y) == (q.x, q.y)
        p.x = float("nan")
        assert np.isnan(p.x)
        p.y = 7
        assert p.y == 7.0
        assert isinstance(p, Point) and not isinstance(q, Point)
        assert typeof(p) == Point.class_type.instance_type
        del p


def test_box_attribute_errors():
    with no_allocation_leak():
        p = Point(1.0, 2.0)
        with pytest.raises(AttributeError):
            p.z = 1.0
        with pytest.raises(AttributeError):
            _ = p.z
        with pytest.raises(TypeError, match="directly"):
            type(p)()
        with pytest.raises(TypingError):
            p.x = "text"
        del p


# --- compiled code ------------------------------------------------------------------------------


@njit
def shift_point(p, dx):
    p.x += dx
    p.move(0.0, dx)
    return p


@njit
def make_point_and_use(x, y):
    p = Point(x, y)
    q = Point(y, x)
    p.move(q.x)
    return p.norm2() + q.scaled_norm2(2.0), p


def test_reference_semantics():
    with no_allocation_leak():
        p = Point(1.0, 2.0)
        r = shift_point(p, 0.5)
        assert (p.x, p.y) == (1.5, 2.5)  # the caller's instance changed
        assert (r.x, r.y) == (1.5, 2.5)
        r.x = -1.0  # r and p are boxes of one instance
        assert p.x == -1.0
        assert r._meminfo_address == p._meminfo_address
        del p, r


def test_instances_made_in_compiled_code():
    plain = Point.class_type.class_def

    def reference(x, y):
        p = plain(x, y)
        q = plain(y, x)
        p.move(q.x)
        return p.norm2() + q.scaled_norm2(2.0)

    with no_allocation_leak():
        for x, y in [(1.0, 2.0), (-0.0, 3.5), (1e300, -1e-300), (-4.0, 0.0)]:
            value, p = make_point_and_use(x, y)
            assert value == reference(x, y)
            assert (p.x, p.y) == (x + y, y)
        del p


@njit
def equal_and_sum(a, b):
    c = a + b
    return a == b, a != b, c.x, c.y


def test_operator_methods():
    with no_allocation_leak():
        assert equal_and_sum(Point(1.0, 2.0), Point(1.0, 2.0)) == (True, False, 2.0, 4.0)
        assert equal_and_sum(Point(1.0, 2.0), Point(1.0, 3.0)) == (False, True, 2.0, 5.0)
        assert (Point(1.0, 2.0) == Point(1.0, 2.0)) is True
        assert (Point(1.0, 2.0) != Point(1.0, 2.5)) is True
        s = Point(1.0, 2.0) + Point(0.5, 0.5)
        assert (s.x, s.y) == (1.5, 2.5)
        del s


def test_bag_array_field_property_and_static_method():
    plain = Bag.class_type.class_def

    @njit
    def use_bag(n, val):
        bag = Bag(n)
        bag.increment(val)
        return bag.size, bag.increment(val).sum(), bag.add_twice(val), Bag.add(1, 2)

    with no_allocation_leak():
        for n in (0, 1, 5):
            bag = Bag(n)
            reference = plain(n)
            np.testing.assert_array_equal(bag.increment(1.5), reference.increment(1.5))
            assert bag.size == reference.size
            assert bag.value == reference.value
            assert bag.add(2, 3) == Bag.add(2, 3) == plain.add(2, 3)
            arr = bag.array
            arr[:] = 3.0  # the field's array is shared, not copied
            np.testing.assert_array_equal(bag.array, np.full(n, 3.0, np.float32))
            del bag, arr
            size, total, twice, three = use_bag(n, 2.0)
            assert (size, total, twice, three) == (n, 4.0 * n, 4.0, 3)


def test_array_argument_is_kept_by_the_instance():
    plain = Annotated.class_type.class_def
    with no_allocation_leak():
        weights = np.array([1.0, -2.5, 0.0])
        a = Annotated(weights, "taipan")
        assert a.weights is weights
        assert a.weighted(1) == plain(weights, "taipan").weighted(1)
        assert a.count == 1
        assert a.greeting() == "hello taipan"
        a.name = "snake"
        assert a.greeting() == "hello snake"
        del weights
        assert a.weighted(0) == 2.0
        a.weights = np.arange(4.0)
        assert a.weighted(3) == 6.0 and a.count == 3
        del a


def test_dunder_len_getitem_setitem():
    plain = Interval.class_type.class_def

    @njit
    def use(iv):
        total = 0
        for i in range(len(iv)):
            total += iv[i]
        iv[0] = 10
        return total, len(iv), iv.contains(12), iv.contains(100)

    with no_allocation_leak():
        iv = Interval(3, 8)
        ref = plain(3, 8)
        assert len(iv) == len(ref) == 5
        assert iv[2] == ref[2]
        with pytest.raises(IndexError, match="interval index out of range"):
            iv[7]
        for lo, hi in [(3, 8), (-2, 2), (5, 5)]:
            iv, ref = Interval(lo, hi), plain(lo, hi)
            assert outcome(use, iv) == outcome(use.py_func, ref)
            assert (iv.lo, iv.hi) == (ref.lo, ref.hi)
        iv[1] = 4
        assert iv.lo == 3
        del iv


def test_property_setter():
    plain = Temperature.class_type.class_def

    @njit
    def warm(t, by):
        t.celsius = t.celsius + by
        t.celsius += by
        return t.fahrenheit

    with no_allocation_leak():
        t = Temperature(20.0)
        ref = plain(20.0)
        assert t.fahrenheit == ref.fahrenheit
        t.celsius = 25.0
        ref.celsius = 25.0
        assert t.celsius == ref.celsius and t.fahrenheit == ref.fahrenheit
        with pytest.raises(ValueError, match="below absolute zero"):
            t.celsius = -300.0
        assert warm(t, 1.5) == 28.0 * 9.0 / 5.0 + 32.0
        with pytest.raises(ValueError, match="below absolute zero"):
            warm(t, -200.0)
        del t


def test_stack_over_typed_list():
    @njit
    def use_stack(values):
        s = Stack()
        for v in values:
            s.push(v)
        top = s.peek()
        popped = s.pop() + s.pop()
        return top, popped, s.size

    with no_allocation_leak():
        assert use_stack(np.arange(6)) == (5, 9, 4)
        s = Stack()
        s.push(3)
        s.push(-4)
        assert s.size == 2 and s.pop() == -4 and s.size == 1
        items = s.items
        assert list(items) == [3]
        del s, items


def test_instance_fields_and_nesting():
    plain_point = Point.class_type.class_def
    plain = Segment.class_type.class_def

    @njit
    def make_and_shift(d):
        seg = Segment(Point(0.0, 0.0), Point(3.0, 4.0))
        seg.shift(d)
        return seg.length2(), seg.start.x, seg

    with no_allocation_leak():
        a, b = Point(0.0, 0.0), Point(3.0, 4.0)
        seg = Segment(a, b)
        ref = plain(plain_point(0.0, 0.0), plain_point(3.0, 4.0))
        assert seg.length2() == ref.length2() == 25.0
        seg.shift(1.0)
        assert a.x == 1.0  # the segment holds the caller's points
        start = seg.start
        assert isinstance(start, Point) and start.x == 1.0
        length2, x, seg2 = make_and_shift(2.0)
        assert (length2, x, seg2.end.x) == (25.0, 2.0, 5.0)
        seg.end = Point(-1.0, 1.0)
        assert seg.length2() == 4.0 + 1.0
        del a, b, seg, start, seg2


def test_tuple_boolean_complex_and_dict_fields():
    plain = Mixed.class_type.class_def
    with no_allocation_leak():
        m, ref = Mixed(2, 5), plain(2, 5)
        assert (m.pair, m.flag, m.z) == (ref.pair, ref.flag, ref.z)
        assert m.swap() == ref.swap() and m.flag is ref.flag
        c = Counter()
        assert [c.add(w) for w in ["a", "b", "a"]] == [1, 1, 2]
        assert dict(c.counts) == {"a": 2, "b": 1}
        del m, c


def test_lists_of_instances():
    @njit
    def total_norm(points):
        total = 0.0
        for p in points:
            total += p.norm2()
        return total

    @njit
    def make_points(n):
        points = typed.List()
        for i in range(n):
            points.append(Point(float(i), 1.0))
        return points

    @njit
    def move_all(points):
        for p in points:
            p.move(1.0)

    with no_allocation_leak():
        points = [Point(1.0, 2.0), Point(3.0, 4.0)]
        assert total_norm(points) == 30.0
        move_all(points)
        assert [p.x for p in points] == [2.0, 4.0]
        made = make_points(4)
        assert total_norm(made) == sum(i * i + 1.0 for i in range(4))
        assert [p.x for p in made] == [0.0, 1.0, 2.0, 3.0]
        made.append(Point(10.0, 0.0))
        assert total_norm(made) == 14.0 + 4.0 + 100.0
        del points, made


def test_signature_names_the_instance_type():
    instance = Point.class_type.instance_type

    @njit(float64(instance))
    def norm2(p):
        return p.norm2()

    with no_allocation_leak():
        assert norm2(Point(3.0, 4.0)) == 25.0
        with pytest.raises(TypeError):
            norm2(Interval(1, 2))


def test_default_arguments_and_keywords():
    @jitclass([("a", int64), ("b", int64)])
    class WithDefaults:
        def __init__(self, a, b=7):
            self.a = a
            self.b = b

    @njit
    def make(a):
        return WithDefaults(a).b + WithDefaults(a, b=1).b

    with no_allocation_leak():
        w = WithDefaults(1)
        assert (w.a, w.b) == (1, 7)
        w = WithDefaults(b=2, a=3)
        assert (w.a, w.b) == (3, 2)
        assert make(5) == 8
        with pytest.raises(TypeError):
            WithDefaults()
        del w


# --- errors ------------------------------------------------------------------------------------


def test_unknown_field_names_the_line():
    @njit
    def read_z(p):
        return p.z

    with pytest.raises(TypingError, match="z") as error:
        read_z(Point(1.0, 2.0))
    assert "return p.z" in str(error.value)


def test_float_into_an_integer_field_is_refused():
    @njit
    def store(iv, value):
        iv.lo = value

    with no_allocation_leak():
        iv = Interval(1, 2)
        with pytest.raises(TypingError, match="field 'lo'") as error:
            store(iv, 2.5)
        assert "iv.lo = value" in str(error.value)
        del error  # its traceback holds the call's arguments
        store(iv, np.int32(4))  # an integer of another width converts
        assert iv.lo == 4
        del iv


def test_property_without_setter_is_refused():
    @njit
    def set_fahrenheit(t):
        t.fahrenheit = 1.0

    with pytest.raises(TypingError, match="without a setter"):
        set_fahrenheit(Temperature(1.0))


def test_unsupported_spec_types_and_members():
    with pytest.raises(UnsupportedError, match="reflected list"):

        @jitclass([("l", types.List(int64))])
        class WithList:
            pass

    with pytest.raises(UnsupportedError, match="field 'o'"):

        @jitclass([("o", types.voidptr)])
        class WithPointer:
            pass

    with pytest.raises(TypeError, match="spec values"):

        @jitclass([("x", "float64")])
        class WithText:
            pass

    with pytest.raises(TypeError, match="class members are not yet supported"):

        @jitclass([("x", float64)])
        class WithConstant:
            LIMIT = 3

    with pytest.raises(NameError, match="shadowing"):

        @jitclass([("x", float64)])
        class Shadowing:
            def x(self):
                return 1

    with pytest.raises(TypeError, match="cannot subclass from a jitclass"):

        class SubPoint(Point):
            pass


def test_plain_base_class_members_are_copied():
    class Base:
        def double(self):
            return self.v * 2

    @jitclass([("v", int64)])
    class Derived(Base):
        def __init__(self, v):
            self.v = v

    with no_allocation_leak():
        d = Derived(21)
        assert d.double() == 42
        del d


def test_unary_operators_contains_and_conversion_fallbacks():
    plain = Number.class_type.class_def

    @njit
    def use(n, x):
        return (-n).v, ~n, x in n, x not in n, bool(n), int(n), float(n), complex(n)

    with no_allocation_leak():
        for v, x in [(3, 1), (0, 0), (5, 7), (-2, -1)]:
            n, ref = Number(v), plain(v)
            assert outcome(use, n, x) == outcome(use.py_func, ref, x)
        n = Number(2, scale=3)
        assert n.v == 6 and Number(v=2).v == 2
        with pytest.raises(TypeError):
            Number(1, 2)  # scale is keyword-only, as in Python
        del n


def test_missing_operator_method_is_a_typing_error():
    @njit
    def negate(p):
        return -p

    with pytest.raises(TypingError, match="__neg__"):
        negate(Point(1.0, 2.0))


def test_identity_of_instances():
    @njit
    def same(p, q):
        r = p
        return p is q, p is not q, r is p

    with no_allocation_leak():
        p, q = Point(1.0, 2.0), Point(1.0, 2.0)
        assert same(p, q) == same.py_func(p, q) == (False, True, True)
        assert same(p, p) == same.py_func(p, p) == (True, False, True)
        del p, q


def test_truth_value_of_instances():
    @njit
    def truth(p):
        count = 1 if p else 0
        if p:
            count += 10
        while p:
            count += 100
            break
        return count

    with no_allocation_leak():
        for v in (0, 3):  # __len__ decides: Number has no __bool__
            assert truth(Number(v)) == truth.py_func(Number.class_type.class_def(v))
        assert truth(Point(0.0, 0.0)) == truth.py_func(Point.class_type.class_def(0.0, 0.0))
        with pytest.raises(ValueError, match="should return >= 0"):
            truth(Number(-1))


def test_unsupported_uses_are_errors():
    @njit
    def as_key(p):
        return len({p: 1})

    with no_allocation_leak():
        p = Point(1.0, 2.0)
        with pytest.raises(TypingError, match="dict key"):
            as_key(p)
        del p


PointType = Point.class_type.instance_type


@njit
def points_by_name(p):
    d = typed.Dict.empty(types.unicode_type, PointType)
    d["given"] = p
    d["made"] = Point(2.0, 0.0)
    return d


def test_typed_containers_of_instances():
    @njit
    def total_x(points):
        total = 0.0
        for p in points:
            total += p.x
        return total

    with no_allocation_leak():
        p = Point(3.0, 0.0)
        d = points_by_name(p)
        assert d["given"].x == 3.0 and d["made"].x == 2.0 and len(d) == 2
        d["given"].x = 9.0  # the dict holds the caller's instance
        assert p.x == 9.0
        items = typed.List.empty_list(PointType)
        items.append(Point(1.5, 0.0))
        items.append(p)
        assert total_x(items) == 10.5
        del p, d, items


@njit
def next_total(node):
    return node.next.total()


def test_linked_list_through_a_deferred_type():
    plain = LinkedNode.class_type.class_def

    @njit
    def build(n):
        head = LinkedNode(0, None)
        for i in range(1, n):
            head.append_to_tail(LinkedNode(i, None))
        return head.total(), head

    @njit
    def second_data(node):
        return node.next.data

    with no_allocation_leak():
        first = LinkedNode(123, None)
        assert first.data == 123 and first.next is None
        second = LinkedNode(321, first)
        assert second.next.data == 123 and second_data(second) == 123
        second.append_to_tail(LinkedNode(567, None))
        assert first.next.data == 567 and first.next.next is None
        ref = plain(321, plain(123, None))
        ref.append_to_tail(plain(567, None))
        assert second.total() == ref.total() == 321 + 123 + 567
        with pytest.raises(TypeError, match="got None"):
            second_data(first.next)
        for n in (1, 2, 10):
            total, head = build(n)
            assert total == n * (n - 1) // 2
            assert head.total() == total
        del first, second, head
        assert next_total(LinkedNode(1, LinkedNode(2, None))) == 2
        with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'total'"):
            next_total(LinkedNode(1, None))
        assert LinkedNode.class_type.struct["next"] == types.optional(
            LinkedNode.class_type.instance_type
        )
