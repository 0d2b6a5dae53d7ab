"""Fixed-width strings (NumPy's ``<U n`` and ``S n``, Numba's UnicodeCharSeq and CharSeq) as array
dtypes and record fields: reading an item gives a str (bytes for ``S``), storing truncates or pads
with NULs as NumPy does, on the CPU and in CUDA kernels (PTX checked with ptxas)."""

import numpy as np
import pytest
from conftest import assert_same
from ptx_assembly import needs_ptxas, ptxas

from taipan import cuda, njit, typeof, types
from taipan.errors import TypingError, UnsupportedError
from taipan.runtime import live_blocks

# Items of every kind: empty, exact fit, one short, ASCII, Latin-1, BMP and astral code points.
TEXTS = ["", "a", "abcd", "abc", "é", "☃x", "𝄞𝄞", "aé☃𝄞"]
WIDTHS = [1, 3, 4, 6]


def text_array(width, texts=TEXTS):
    return np.array(texts, dtype=f"<U{width}")


def same_array(actual, expected):
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape
    assert actual.tolist() == expected.tolist(), (actual, expected)


def check_store(function, array, *arguments):
    """Runs `function(array copy, *arguments)` in CPython and compiled, compares the arrays."""
    expected, actual = array.copy(), array.copy()
    function.py_func(expected, *arguments)
    before = live_blocks()
    function(actual, *arguments)
    assert live_blocks() == before
    same_array(actual, expected)


@njit
def item(a, i):
    return a[i]


@njit
def store(a, i, value):
    a[i] = value


@njit
def copy_items(a, b):
    for i in range(min(len(a), len(b))):
        a[i] = b[i]


@njit
def summary(a, text):
    count = 0
    total = 0
    joined = ""
    for x in a:
        if x == text:
            count += 1
        total += len(x)
        joined += str(x) + "|"
    return count, total, joined, a[0] < text, a[len(a) - 1] >= text


@pytest.mark.parametrize("width", WIDTHS)
def test_items_read_as_str(width):
    a = text_array(width)
    before = live_blocks()
    for i in range(len(a)):
        assert_same(item, a, i, strict_type=False)
        assert type(item(a, i)) is str
    assert_same(item, a, -1, strict_type=False)
    assert live_blocks() == before


@pytest.mark.parametrize("width", WIDTHS)
def test_comparisons_len_str_iteration(width):
    a = text_array(width)
    before = live_blocks()
    for text in ["", "a", "abc", "é", "zz"]:
        assert_same(summary, a, text)
    assert live_blocks() == before


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("text", TEXTS + ["toolongtext", "\0", "a\0b"])
def test_store_truncates_and_pads(width, text):
    check_store(store, text_array(width), 0, text)
    check_store(store, text_array(width), 3, text)


@njit
def store_literals(a):
    a[0] = "XYZ"
    a[1] = "much too long for it"
    a[2] = ""
    a[3] = "é☃𝄞"


@pytest.mark.parametrize("width", WIDTHS)
def test_store_literals(width):
    check_store(store_literals, text_array(width))


@pytest.mark.parametrize("to_width", WIDTHS)
@pytest.mark.parametrize("from_width", WIDTHS)
def test_items_copied_between_widths(from_width, to_width):
    check_store(copy_items, text_array(to_width), text_array(from_width, TEXTS[::-1]))


def test_store_zero_dimensional_arrays():
    # Numba's test_fancy_indexing.test_setitem_0d: a 0-d array stores its item.
    cases = [
        (np.zeros(5, dtype="<U3"), np.array("abc")),
        (np.zeros(3, dtype="<U3"), np.array("a")),
        (np.array(["abc", "def", "ghi"], dtype="<U3"), np.array("WXYZ", dtype="<U4")),
        (np.array(["abc", "def"], dtype="<U5"), np.array("é", dtype="<U1")),
    ]
    for array, value in cases:
        check_store(store, array, 0, value)


@njit
def fill_all(a, text):
    a[:] = text


@njit
def fill_slice(a, b):
    a[1:3] = b[:2]


def test_views_slices_and_fancy_indexing():
    a = text_array(4)
    check_store(fill_all, a, "wxyz!")
    check_store(fill_all, a, "")
    check_store(fill_slice, a, text_array(2, ["pq", "é"]))
    for f in (
        njit(lambda a: a[::-1]),
        njit(lambda a: a[np.array([2, 0, 2])]),
        njit(lambda a: a[a != a[0]] if False else a[1:3].copy()),
        njit(lambda a: a.reshape((2, 4))[1]),
    ):
        before = live_blocks()
        same_array(f(a), f.py_func(a))
        assert live_blocks() == before


@njit
def two_d(a):
    out = []
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out.append(a[i, j] + "!")
    return out


def test_two_dimensional_and_fortran_arrays():
    a = text_array(4).reshape((2, 4))
    assert_same(two_d, a, strict_type=False)
    assert_same(two_d, np.asfortranarray(a), strict_type=False)


GLOBAL_TEXTS = np.array(["glob", "", "é☃"], dtype="<U3")


@njit
def read_global(i):
    return GLOBAL_TEXTS[i] + "."


def test_global_arrays():
    for i in range(3):
        assert_same(read_global, i)


@njit
def sorted_copy(a):
    return np.sort(a)


@njit
def sorted_in_place(a):
    b = a.copy()
    b.sort()
    return b


@njit
def unique(a):
    return np.unique(a)


@njit
def order(a):
    return np.argsort(a)


def test_sort_unique_argsort():
    a = text_array(3, ["b", "a", "", "é", "a", "ab", "𝄞", "b"])
    before = live_blocks()
    for f in (sorted_copy, sorted_in_place, unique):
        same_array(f(a), f.py_func(a))
    assert order(a).tolist() == np.argsort(a, kind="stable").tolist()
    matrix = a.reshape((2, 4))
    same_array(sorted_copy(matrix), np.sort(matrix))
    assert live_blocks() == before


@njit
def trim(a):
    return np.trim_zeros(a)


@njit
def trim_front(a):
    return np.trim_zeros(a, "f")


def test_trim_zeros():
    for a in (np.array(["0", "Hello", "world"]), np.array(["", "x", "\0"]), np.array(["", ""])):
        same_array(trim(a), trim.py_func(a))
        same_array(trim_front(a), trim_front.py_func(a))


def test_asarray_of_literal_strings():
    for f in (
        njit(lambda: np.asarray("hello world")),
        njit(lambda: np.asarray("大处 着眼，小处着手。")),
        njit(lambda: np.asarray("")),
    ):
        before = live_blocks()
        same_array(f(), f.py_func())
        assert live_blocks() == before


def test_arrays_made_with_text_dtypes():
    for f in (
        njit(lambda: np.zeros(3, dtype="<U4")),
        njit(lambda: np.empty(0, dtype="U2")),
        njit(lambda: np.zeros(2, dtype="S3")),
        njit(lambda a: np.zeros_like(a)),
        njit(lambda a: np.zeros(4, a.dtype)),
        njit(lambda a: a.astype("<U2")),
        njit(lambda a: a.copy()),
    ):
        a = text_array(4)
        args = () if f.py_func.__code__.co_argcount == 0 else (a,)
        same_array(f(*args), f.py_func(*args))


def test_arrays_returned_and_types():
    a = text_array(6)
    assert typeof(a) == types.Array(types.UnicodeCharSeq(6), 1, "C")
    assert isinstance(typeof(a).dtype, types.UnicodeCharSeq)
    assert not isinstance(typeof(a).dtype, types.CharSeq)
    assert isinstance(typeof(np.zeros(2, "S5")).dtype, types.CharSeq)
    assert str(typeof(a).dtype) == "[unichr x 6]"
    same = njit(lambda a: a)
    assert same(a) is a


RECORD = np.dtype([("x", np.int32), ("name", "<U5"), ("tag", "S4"), ("y", np.float64)])


@njit
def write_fields(r, text):
    r[0]["x"] = 7
    r[0]["name"] = text
    r[1]["name"] = "much too long"
    r[1]["tag"] = b"xy"
    r[2]["tag"] = b"toolong"
    r[2]["name"] = r[0]["name"]


@njit
def write_attributes(r, text):
    r[0].name = text
    r[1].tag = b"xy"
    r[2].name = r[0].name


@njit
def read_fields(r, i):
    return r[i].name + "!", len(r[i]["name"]), r[i].tag, r[i].name == "abc"


def test_record_fields():
    records = np.zeros(3, RECORD)
    for text in ["", "abc", "abcde", "é☃𝄞", "toolong"]:
        check_store(write_fields, records, text)
    filled = records.copy()
    write_fields(filled, "abc")
    before = live_blocks()
    for i in range(3):
        assert read_fields(filled, i) == (
            str(filled[i]["name"]) + "!",
            len(filled[i]["name"]),
            bytes(filled[i]["tag"]),
            filled[i]["name"] == "abc",
        )
    assert live_blocks() == before
    view = njit(lambda r: r["name"])
    same_array(view(filled), filled["name"])
    for text in ["", "abc", "toolong", "é☃𝄞"]:
        expected = np.zeros(3, RECORD)
        expected[0]["name"] = expected[2]["name"] = text
        expected[1]["tag"] = b"xy"
        actual = np.zeros(3, RECORD)
        write_attributes(actual, text)
        same_array(actual, expected)


@njit
def bytes_items(s, i):
    s[0] = b"XYZ"
    s[1] = b"much too long"
    s[2] = b""
    s[3] = s[i]
    return s[i]


def test_byte_strings():
    s = np.array([b"ab", b"", b"abcd", b"a\0b"], dtype="S4")
    expected, actual = s.copy(), s.copy()
    assert bytes_items(actual, 1) == bytes_items.py_func(expected, 1)
    same_array(actual, expected)
    assert type(bytes_items(s.copy(), 0)) is bytes


def test_errors_name_the_line():
    @njit
    def store_number(a):
        a[0] = 1

    with pytest.raises(TypingError, match=r"cannot store a value of type int64") as raised:
        store_number(text_array(3))
    assert "a[0] = 1" in str(raised.value)

    @njit
    def store_text_into_bytes(s):
        s[0] = "é"

    with pytest.raises(TypingError, match=r"cannot store") as raised:
        store_text_into_bytes(np.zeros(2, "S3"))
    assert 's[0] = "é"' in str(raised.value)

    @njit
    def ones():
        return np.ones(3, "<U3")

    with pytest.raises(UnsupportedError, match="numpy.ones with the dtype") as raised:
        ones()
    assert "np.ones" in str(raised.value)

    @njit
    def total(a):
        return a.sum()

    with pytest.raises(TypingError):
        total(text_array(3))


# CUDA: numba-cuda's test_const_string kernels (stores of constants, item copies).
def assign_text(arr):
    i = cuda.grid(1)
    if i < len(arr):
        arr[i] = "XYZ"


def assign_bytes(arr):
    i = cuda.grid(1)
    if i < len(arr):
        arr[i] = b"XYZ"


def assign_text_field(a):
    a[0]["x"] = 1
    a[0]["y"] = "ABC"
    a[1]["x"] = 2
    a[1]["y"] = "XYZ"


def assign_bytes_field(a):
    a[0]["x"] = 1
    a[0]["y"] = b"ABC"


def copy_between_widths(a, b):
    i = cuda.grid(1)
    if i < len(a):
        a[i] = b[i]


KERNELS = {
    "text": (assign_text, (np.zeros(9, "<U12"),)),
    "bytes": (assign_bytes, (np.zeros(9, "S12"),)),
    "text_field": (
        assign_text_field,
        (np.zeros(2, np.dtype([("x", np.int32), ("y", np.dtype("<U12"))])),),
    ),
    "bytes_field": (
        assign_bytes_field,
        (np.zeros(2, np.dtype([("x", np.float32), ("y", np.dtype("S12"))])),),
    ),
    "copy": (copy_between_widths, (np.zeros(4, "<U12"), np.zeros(4, "<U5"))),
}


@needs_ptxas
@pytest.mark.parametrize("name", list(KERNELS))
def test_kernels_compile_to_ptx_without_runtime_calls(name, tmp_path):
    function, arguments = KERNELS[name]
    ptx, _ = cuda.compile_ptx(function, tuple(typeof(a) for a in arguments))
    for runtime in ("taipan_str", "taipan_charseq", "taipan_nrt"):  # no strings, no allocation
        assert runtime not in ptx
    ptxas(ptx, tmp_path)


def test_kernel_reading_items_as_str_is_refused():
    def compare(a, out):
        out[0] = a[0] == "abc"

    with pytest.raises(UnsupportedError, match="not supported on the GPU"):
        cuda.compile_ptx(compare, (typeof(np.zeros(2, "<U3")), typeof(np.zeros(1, np.bool_))))


def test_explicit_signatures_take_str_arguments():
    def set_item(a, i, text):
        a[i] = text

    def set_field(r, i, text):
        r[i]["tag"] = text

    text_store = njit(
        (types.Array(types.UnicodeCharSeq(3), 1, "C"), types.int64, types.UnicodeCharSeq(3))
    )(set_item)
    field_store = njit((typeof(np.zeros(3, RECORD)), types.int64, types.CharSeq(4)))(set_field)
    for text in ["", "ab", "abc", "é☃𝄞x", "a\0"]:
        expected, actual = text_array(3), text_array(3)
        set_item(expected, 1, text)
        text_store(actual, 1, text)
        same_array(actual, expected)
    for text in ["", "xy", "abcd", "toolong", b"by", b"bytes!"]:
        expected, actual = np.zeros(3, RECORD), np.zeros(3, RECORD)
        set_field(expected, 2, text)
        field_store(actual, 2, text)
        same_array(actual, expected)
    with pytest.raises(UnicodeEncodeError):
        field_store(np.zeros(3, RECORD), 0, "é")
    with pytest.raises(TypeError, match="No matching definition"):
        text_store(text_array(3), 0, 5)


@njit
def compare_bytes(s, i, j):
    return (
        s[i] == s[j],
        s[i] != s[j],
        s[i] < s[j],
        s[i] <= s[j],
        s[i] > s[j],
        s[i] >= s[j],
        len(s[i]),
        s[i] == b"abc",
        b"ab" < s[i],
    )


def test_byte_strings_compare_and_have_lengths():
    # NUL padding does not count; an embedded NUL does (b"a\0b" is longer than b"a")
    s = np.array([b"abc", b"", b"ab", b"a\0b", b"abd", b"\xff", b"a"], dtype="S4")
    for i in range(len(s)):
        for j in range(len(s)):
            assert_same(compare_bytes, s, i, j)


def count_matches(a, out):
    i = cuda.grid(1)
    if i < len(a):
        out[i] = len(a[i]) + (a[i] == b"XYZ")


@needs_ptxas
def test_byte_string_comparisons_in_kernels(tmp_path):
    ptx, _ = cuda.compile_ptx(
        count_matches, (typeof(np.zeros(4, "S12")), typeof(np.zeros(4, np.int64)))
    )
    for runtime in ("taipan_str", "taipan_charseq", "taipan_nrt"):
        assert runtime not in ptx
    ptxas(ptx, tmp_path)


def test_searchsorted_and_broadcast_to():
    a = np.array(["1", "2", "3", "é"])
    keys = np.array(["2", "4", "", "é", "ü"])
    for side in ("left", "right"):
        f = njit(lambda a, v, side=side: np.searchsorted(a, v, side=side))
        assert f(a, keys).tolist() == f.py_func(a, keys).tolist()
    broadcast = njit(lambda: np.broadcast_to("ab", (2, 3)))
    expected = broadcast.py_func()
    actual = broadcast()
    same_array(actual, expected)
    assert actual.strides == expected.strides and not actual.flags.writeable
