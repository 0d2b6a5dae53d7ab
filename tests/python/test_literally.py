"""``literally`` (Numba's ``numba.literally``): the value itself, known to typing as a literal. A
parameter's value is asked of the callers; from Python the dispatcher compiles a specialisation
per value of those arguments (a constant string types as a StringLiteral, an int as a known
integer), so typing functions that branch on literals see them."""

import operator

import pytest
from struct_user_types import no_leaks, struct_user_type  # noqa: F401 - the autouse fixture

from taipan import literally, njit, types
from taipan.errors import ForceLiteralArg, TypingError
from taipan.extending import overload


def choose(value):
    return "plain"


@overload(choose)
def _choose(value):
    if isinstance(value, types.StringLiteral):
        suffix = value.literal_value
        return lambda value: "literal " + suffix
    if isinstance(value, types.UnicodeType):
        return lambda value: choose(literally(value))
    return None


@pytest.mark.parametrize("text", ["abc", "", "xyz"])
def test_a_string_argument_is_specialised_per_value(text):
    @njit
    def f(s):
        return choose(s)

    assert f(text) == "literal " + text
    assert f("other") == "literal other"


def test_repeated_values_reuse_their_specialisation():
    @njit
    def f(x, s):
        return choose(s) + str(x)

    for _ in range(3):
        assert f(1, "a") == "literal a1"
        assert f(2, "b") == "literal b2"
    assert len(f._literal_specialisations.wrappers) == 2  # (int64, unicode) with "a", "b"


@pytest.mark.parametrize("n", [0, 3, -7])
def test_an_integer_argument_is_known_to_typing(n):
    @njit
    def f(n, x):
        return literally(n) * 2 + x

    assert f(n, 1) == f.py_func(n, 1)
    assert f(n, 2.5) == f.py_func(n, 2.5)


def test_a_caller_passing_a_constant_needs_no_dispatcher():
    @njit
    def g(s):
        return choose(s)

    @njit
    def f():
        return g("k"), literally(4), literally("w")

    assert f() == ("literal k", 4, "w")
    assert not hasattr(f, "_literal_specialisations")


def test_a_caller_passing_its_own_parameter_asks_its_dispatcher():
    @njit
    def g(s):
        return choose(s)

    @njit
    def f(s, k):
        return g(s) * k

    assert f("q", 2) == "literal qliteral q"
    assert f("r", 1) == "literal r"


def test_the_operator_of_a_user_type_sees_the_literal():
    # Numba's test_issue5565_literal_getitem
    box = struct_user_type("LiterallyBox", {"value": types.int64})

    @overload(operator.getitem)
    def _getitem(self, idx):
        if not isinstance(self, box.type_class):
            return None
        if isinstance(idx, types.StringLiteral):
            return lambda self, idx: 12321
        if isinstance(idx, types.UnicodeType):
            return lambda self, idx: literally(idx)
        return None

    @njit
    def f(b, key):
        return b[key]

    assert f(box.python_class(1), "abc") == 12321


def test_what_cannot_be_a_literal_is_refused():
    @njit
    def computed(x):
        return literally(x + 1)

    with pytest.raises(TypingError, match=r"literally\(\) takes a literal .*int64"):
        computed(1)

    @njit
    def parameter(x):
        return literally(x)

    with pytest.raises(TypingError, match=r"argument 'x' .* type float cannot"):
        parameter(1.5)


def test_without_a_dispatcher_the_request_is_a_typing_error():
    def declared(x):
        return literally(x)

    with pytest.raises(ForceLiteralArg, match="parameter 'x'") as raised:
        njit("int64(int64)")(declared)(3)  # a signature compiles for no values
    assert raised.value.requested_args == (0,)
    assert isinstance(raised.value, TypingError)
