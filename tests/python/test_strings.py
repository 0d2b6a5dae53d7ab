"""Strings in compiled code (Numba's unicode_type): each function compiled by taipan gives what
its Python function gives, for empty, ASCII and non-ASCII text of all three kinds (1, 2 and 4
bytes per code point), and frees every block it allocated."""

import math

import pytest
from numpy_checks import no_allocation_leak, outcome

import taipan
from taipan import njit, types

# One string of each kind, empty and ASCII-only ones, and some with characters that matter.
TEXTS = [
    "",
    "a",
    "hello world",
    "  Hello, World!  ",
    "café au lait",  # kind 1 (Latin-1)
    "Ωmega ΣΑΣ straße",  # kind 2
    "emoji 😀 text 𝔘",  # kind 4
    "12345",
    "a,b,,c",
]


def check(f, *args):
    """The compiled function gives what its Python function gives, and leaks nothing."""
    compiled = njit(f)
    expected = outcome(f, *args)
    with no_allocation_leak():
        got = outcome(compiled, *args)
    nan = expected[0] == "value" and isinstance(expected[1], float) and expected[1] != expected[1]
    if nan:
        assert got[0] == "value" and got[1] != got[1], (args, got, expected)
    else:
        assert got == expected, (args, got, expected)
    if expected[0] == "value":
        assert type(got[1]) is type(expected[1])


def identity(s):
    return s


def length(s):
    return len(s)


def concat(a, b):
    return a + b


def repeat(s, n):
    return s * n


def repeat_left(s, n):
    return n * s


def item(s, i):
    return s[i]


def sliced(s, a, b, c):
    return s[a:b:c]


def head(s):
    return s[:3]


def tail(s):
    return s[-2:]


def reverse(s):
    return s[::-1]


def iterate(s):
    out = ""
    for c in s:
        out = c + out
    return out


def count_vowels(s):
    n = 0
    for c in s:
        if c in "aeiou":
            n += 1
    return n


def compare(a, b):
    return (a == b, a != b, a < b, a <= b, a > b, a >= b)


def contains(a, b):
    return (a in b, a not in b)


def truth(s):
    if s:
        return 1
    return 0


def hashed(s):
    return hash(s)


@pytest.mark.parametrize("s", TEXTS)
def test_basic_operations(s):
    check(identity, s)
    check(length, s)
    check(head, s)
    check(tail, s)
    check(reverse, s)
    check(iterate, s)
    check(count_vowels, s)
    check(truth, s)
    check(hashed, s)
    for n in (-1, 0, 1, 3):
        check(repeat, s, n)
        check(repeat_left, s, n)
    for i in (0, 1, -1, -len(s), len(s), -len(s) - 1):
        check(item, s, i)
    for a, b, c in [(0, 3, 1), (-3, -1, 1), (5, 1, -1), (1, 100, 2), (-100, 100, 3), (3, 3, 1)]:
        check(sliced, s, a, b, c)
    check(sliced, s, 0, 1, 0)  # ValueError: slice step cannot be zero


@pytest.mark.parametrize("a", TEXTS[:7])
@pytest.mark.parametrize("b", ["", "a", "café", "Ω", "😀", "hello world"])
def test_binary_operations(a, b):
    check(concat, a, b)
    check(compare, a, b)
    check(contains, b, a)


def test_hash_matches_cpython():
    for s in TEXTS + ["x" * 100, "Ω" * 9, "😀" * 17]:
        assert njit(hashed)(s) == hash(s)


def literals():
    s = "abc"
    t = s + "Ω"
    t += "😀"
    return t, len(t), "x" * 3, "b" in s


def test_literals():
    check(literals)


def returns_literal():
    return "constant"


def test_returned_literal():
    check(returns_literal)


def conversions(n, x):
    return str(n), str(x), str(True), "", "s"


def test_str_of_numbers():
    for n, x in [(0, 0.0), (-17, 1.5), (2**63 - 1, 1e16), (-(2**63), 1e-5), (5, float("nan"))]:
        check(conversions, n, x)
    check(conversions, 3, float("-inf"))
    check(conversions, 3, 0.1 + 0.2)


def parse_int(s):
    return int(s)


def parse_float(s):
    return float(s)


@pytest.mark.parametrize(
    "s", ["0", "-12", " 42 ", "+7", "1_000", "abc", "", "1.5", "١٢٣", "-9223372036854775808"]
)
def test_int_of_str(s):
    check(parse_int, s)


def test_int_of_str_beyond_int64_raises_overflow_error():
    # Python's int is unbounded; compiled code's is int64, so it refuses rather than wraps.
    with no_allocation_leak(), pytest.raises(OverflowError, match="int64"):
        njit(parse_int)("99999999999999999999")


@pytest.mark.parametrize(
    "s", ["0", "-1.5", " 2e10 ", "inf", "-Infinity", "nan", "1_0.5", "x", "", ".5", "1e", "٣.٥"]
)
def test_float_of_str(s):
    check(parse_float, s)


def ord_chr(s, n):
    return ord(s), chr(n)


def test_ord_and_chr():
    check(ord_chr, "a", 97)
    check(ord_chr, "Ω", 0x1F600)
    check(ord_chr, "😀", 0x10FFFF)
    check(ord_chr, "ab", 97)  # TypeError
    check(ord_chr, "a", 0x110000)  # ValueError
    check(ord_chr, "a", -1)


def case_methods(s):
    return s.upper(), s.lower(), s.swapcase(), s.title(), s.capitalize(), s.casefold()


def predicates(s):
    return (
        s.isdigit(),
        s.isalpha(),
        s.isspace(),
        s.isupper(),
        s.islower(),
        s.isalnum(),
        s.isdecimal(),
        s.isnumeric(),
        s.istitle(),
        s.isascii(),
        s.isidentifier(),
        s.isprintable(),
    )


def strips(s):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip(" H!d"), s.lstrip("ca"), s.rstrip("t😀")


@pytest.mark.parametrize(
    "s",
    TEXTS
    + ["ABC", "Hello World", "hello World", " \t\n", "½", "٣", "Σίσυφος", "ǅungla", "ß", "x\u2003"],
)
def test_case_predicates_and_strip(s):
    check(case_methods, s)
    check(predicates, s)
    check(strips, s)


def searches(s, sub):
    return (
        s.find(sub),
        s.rfind(sub),
        s.count(sub),
        s.startswith(sub),
        s.endswith(sub),
        s.find(sub, 1),
        s.find(sub, 1, -1),
        s.rfind(sub, -5),
        s.count(sub, 2, 8),
        s.startswith(sub, 1),
        s.endswith(sub, 0, -1),
    )


def index_of(s, sub):
    return s.index(sub)


def rindex_of(s, sub):
    return s.rindex(sub)


@pytest.mark.parametrize("s", TEXTS)
@pytest.mark.parametrize("sub", ["", "l", "o w", "Ω", "😀", ",", "zz"])
def test_searches(s, sub):
    check(searches, s, sub)
    check(index_of, s, sub)
    check(rindex_of, s, sub)


def replaced(s, old, new):
    return s.replace(old, new), s.replace(old, new, 1), s.replace(old, new, 0)


@pytest.mark.parametrize("s", TEXTS)
def test_replace(s):
    for old, new in [("l", "L"), ("", "-"), ("o", ""), ("Ω", "😀"), ("a", "Ω")]:
        check(replaced, s, old, new)


def padding(s, width):
    return (
        s.zfill(width),
        s.center(width),
        s.ljust(width),
        s.rjust(width, "*"),
        s.center(width, "Ω"),
    )


def bad_fill(s):
    return s.center(10, "ab")


@pytest.mark.parametrize("s", TEXTS + ["-42", "+7"])
def test_padding(s):
    for width in (-1, 0, 5, 10, 21):
        check(padding, s, width)
    check(bad_fill, s)


def join_tuple(sep, a, b):
    return sep.join((a, b, "c")), sep.join(a)


def test_join():
    for sep in ["", ", ", "Ω"]:
        for a, b in [("", ""), ("x", "😀"), ("hello", "wörld")]:
            check(join_tuple, sep, a, b)


def fstrings(n, x, s):
    return (
        f"{n}",
        f"n={n:5d}|{n:<5}|{n:^7}|{n:+d}|{n:x}|{n:#o}|{n:08b}|{n:,}",
        f"{x}|{x:.3f}|{x:10.2e}|{x:g}|{x:.0%}|{x:+.1f}|{x:>12}",
        f"{s}|{s!r}|{s:>8}|{s:*^9}|{s:.2}",
        f"{{literal}} {n} and {s}",
    )


@pytest.mark.parametrize(
    "n, x, s", [(0, 0.0, ""), (42, 3.14159, "abc"), (-1234567, -2.5e-7, "Ωmega"), (7, 1e22, "😀'")]
)
def test_fstrings(n, x, s):
    check(fstrings, n, x, s)


def formatted(a, b):
    return f"{a} + {b} = {a + b}", f"{b}{a}", f"{b:>6.2f}"


def test_str_format():
    check(formatted, 1, 2.5)
    check(formatted, -3, 0.125)


def printer(s):
    print(s, "Ω", len(s))


def test_print(capsys):
    for s in TEXTS:
        with no_allocation_leak():
            njit(printer)(s)
        printer(s)
        out = capsys.readouterr().out.splitlines()
        assert out[0] == out[1]


def raises_with(s):
    raise ValueError(s)


def test_exception_message_from_a_string():
    with pytest.raises(ValueError, match="^bad Ω$"):
        njit(raises_with)("bad Ω")


def variable_kinds(flag):
    s = "a"
    if flag:
        s = "😀"
    return s + "Ω"


def test_variables_holding_strings():
    check(variable_kinds, True)
    check(variable_kinds, False)


def caller(s):
    return helper(s) + helper("literal")


@njit
def helper(s):
    return s.upper() + "!"


def test_strings_between_jitted_functions():
    check(caller, "abc")
    check(caller, "")


def in_tuple(t):
    out = ""
    for s in t:
        out += s + "|"
    return out, t


def test_tuples_of_strings():
    check(in_tuple, ("a", "Ω", "😀"))
    check(in_tuple, ("",))


def test_signature_with_unicode_type():
    f = njit(types.int64(types.unicode_type))(length)
    assert f("Ω😀") == 2
    assert isinstance(types.unicode_type, types.UnicodeType)


def bad_index(s):
    return s["a"]


def bad_add(s):
    return s + 1


def test_typing_errors_name_the_line():
    with pytest.raises(taipan.errors.TypingError, match="string indices"):
        njit(bad_index)("abc")
    with pytest.raises(taipan.errors.TypingError, match="unsupported operand"):
        njit(bad_add)("abc")


def splits(s, sep, maxsplit):
    return s.split(sep, maxsplit), s.rsplit(sep, maxsplit), s.split(sep), s.rsplit(sep)


def splits_on_whitespace(s, maxsplit):
    return s.split(), s.rsplit(), s.split(None, maxsplit), s.rsplit(maxsplit=maxsplit)


def split_lines(s):
    return s.splitlines(), s.splitlines(True), s.splitlines(keepends=False)


def join_list(sep, s):
    return sep.join(s.split()), sep.join([s, s]), sep.join(s.split(",")[:0])


SPLIT_TEXTS = TEXTS + ["", "   ", " a  b\tc\n", "a\r\nb\rc\n\nd\x0be\x1cf\u2028g\x85", "\n"]


@pytest.mark.parametrize("s", SPLIT_TEXTS)
@pytest.mark.parametrize("sep", ["", ",", " ", "l", "o w", "Ω", "😀", "zz"])
@pytest.mark.parametrize("maxsplit", [-1, 0, 1, 2])
def test_split_and_rsplit(s, sep, maxsplit):
    check(splits, s, sep, maxsplit)  # an empty separator raises ValueError


@pytest.mark.parametrize("s", SPLIT_TEXTS)
@pytest.mark.parametrize("maxsplit", [-1, 0, 1, 3])
def test_split_on_whitespace(s, maxsplit):
    check(splits_on_whitespace, s, maxsplit)


@pytest.mark.parametrize("s", SPLIT_TEXTS)
def test_splitlines(s):
    check(split_lines, s)


@pytest.mark.parametrize("s", SPLIT_TEXTS)
@pytest.mark.parametrize("sep", ["", "-", "Ω😀"])
def test_join_of_lists(s, sep):
    check(join_list, sep, s)


def affix_tuples(s, a, b):
    return (
        s.startswith((a, b)),
        s.endswith((a, b)),
        s.startswith((a,), 1),
        s.endswith((b, "z"), 0, 3),
        s.startswith(()),
    )


@pytest.mark.parametrize("s", TEXTS + [""])
@pytest.mark.parametrize("a, b", [("he", "x"), ("", "zz"), ("d", "ld"), ("Ω", "😀")])
def test_startswith_endswith_tuple(s, a, b):
    check(affix_tuples, s, a, b)


def mixed_equality(s, n, x):
    return s == n, s != n, n == s, n != s, s == x, x != s


def tuples_of_strings(s, t):
    return (s,) < (t,), (s, 1) <= (t, 2), (s, t) > (t, s), (s, "a") >= (s,), (s,) == (t,)


@pytest.mark.parametrize("s", ["", "1", "abc", "Ω"])
def test_string_never_equals_a_number(s):
    check(mixed_equality, s, 1, 1.0)


@pytest.mark.parametrize("s", TEXTS[:4] + [""])
@pytest.mark.parametrize("t", ["", "hello", "Ωmega", "a"])
def test_tuples_of_strings_compare(s, t):
    check(tuples_of_strings, s, t)


def repr_of(x):
    return repr(x)


@pytest.mark.parametrize(
    "x", ["abc", "", "é'\"\n", "😀", False, True, 0, -123, 2**63 - 1, -0.0, 1.5e300, 0.1, math.inf]
)
def test_repr(x):
    check(repr_of, x)


def keyword_forms(s):
    return str(object=s), s.expandtabs(tabsize=4), s.expandtabs(2), s.expandtabs()


@pytest.mark.parametrize("s", ["a\tb", "\t\tx\ty", ""])
def test_keyword_forms(s):
    check(keyword_forms, s)


def partitions(s, sep):
    return s.partition(sep), s.rpartition(sep)


@pytest.mark.parametrize("s", TEXTS)
@pytest.mark.parametrize("sep", ["", ",", "l", "o w", "Ω", "😀", "zz", "hello world"])
def test_partition(s, sep):
    check(partitions, s, sep)  # an empty separator raises ValueError


def expand(s):
    return s.expandtabs(), s.expandtabs(4), s.expandtabs(0), s.expandtabs(-3), s.expandtabs(1)


@pytest.mark.parametrize("s", TEXTS + ["\t", "a\tbc\td", "Ω\t😀\n\tx\r\ty", "café\t\t|"])
def test_expandtabs(s):
    check(expand, s)


def _join_and_concatenate(sep, a, b, c):
    return sep.join([a, b, c]), a + b + c, sep.join([a]), sep.join([a, a][:0]), a + sep


@pytest.mark.parametrize(
    "args",
    [
        ("-", "ab", "c", "d"),
        ("é", "ab", "c", "𝄞x"),
        ("", "ÿ", "ā", "z"),
        ("\u1234", "", "", ""),
        ("x", "𝄞", "é", "a"),
    ],
)
def test_join_and_concatenation_mix_kinds_as_cpython(args):
    """join and + copy bytes into the widest kind of their parts: results equal (and hash as)
    CPython's, whichever part is widest."""
    compiled = njit(_join_and_concatenate)
    with no_allocation_leak():
        got = compiled(*args)
    assert got == _join_and_concatenate(*args)
    assert [hash(x) for x in got] == [hash(x) for x in _join_and_concatenate(*args)]
