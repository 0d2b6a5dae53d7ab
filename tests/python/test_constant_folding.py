"""Constant expressions have the values CPython's compiler folds them into (``10 ** -6`` is
1e-06, not 0; ``2 ** 64 - 1`` does not wrap), typed as Numba types the folded literal: int64,
uint64 above int64's range, a TypingError beyond uint64. The expected values are the constants
of the code objects ``compile()`` makes, over a generated set of expressions; expressions that
CPython leaves to run (``1 / 0``) behave as CPython at run time."""

import dis
import itertools

import pytest
from conftest import assert_same, same

from taipan import njit
from taipan.errors import TypingError
from taipan.runtime import live_blocks

LEAVES = [
    "0",
    "1",
    "3",
    "-1",
    "-7",
    "10",
    "63",
    "64",
    "4611686018427387904",  # 2**62
    "9223372036854775807",
    "9223372036854775808",  # 2**63: uint64
    "18446744073709551615",
    "18446744073709551616",  # 2**64: beyond uint64
    "0.0",
    "0.5",
    "-2.5",
    "1e-3",
    "1e300",
    "True",
    "False",
    "2j",
]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"]
NESTED = [
    "10 ** -6",
    "2 ** -1",
    "2 ** 64 - 1",
    "1 << 63",
    "1 << 64",
    "(1 << 70) >> 10",
    "-(2 ** 63)",
    "-9223372036854775808",
    "10 ** 19",
    "~(2 ** 63)",
    "not 0",
    "-True",
    "+(3 * 0.5)",
    "(1, 2.5) * 2",
    "((1, 2) + (3,))[2]",
    "(2 ** 64, 7)[1]",
    "'ab' * 3",
    "'abc'[-1]",
    "'%d' % 5",
    "-(-0.0)",
    "0.0 * -1",
    "2 ** 0.5 * 10 ** -2",
    "(18446744073709551616 - 1) // 2",
]


def _expressions():
    binary = [f"({a}) {op} ({b})" for a, b in itertools.product(LEAVES, LEAVES) for op in OPERATORS]
    unary = [f"{op}({a})" for a in LEAVES for op in ("-", "+", "~", "not ")]
    return binary + unary + NESTED


def _folded(expression):
    """(True, value) when CPython's compiler folds ``expression`` into one constant."""
    code = compile(expression, "<expression>", "eval")
    steps = [i for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP", "CACHE")]
    loads = ("LOAD_CONST", "RETURN_CONST", "LOAD_SMALL_INT")
    if steps[0].opname in loads and steps[-1].opname.startswith("RETURN") and len(steps) <= 2:
        return True, steps[0].argval
    return False, None


def _fits(value):
    if isinstance(value, tuple):
        return all(_fits(v) for v in value)
    return not isinstance(value, int) or isinstance(value, bool) or -(2**63) <= value < 2**64


def _batches(expressions, size):
    for start in range(0, len(expressions), size):
        yield expressions[start : start + size]


def _function(expressions, parameters=""):
    lines = "".join(f"        {e},\n" for e in expressions)
    namespace = {}
    exec(f"def f({parameters}):\n    return (\n{lines}    )\n", namespace)  # noqa: S102
    return namespace["f"]


def _classified():
    representable, too_large, left_to_run = [], [], []
    for expression in _expressions():
        folded, value = _folded(expression)
        if not folded:
            left_to_run.append(expression)
        elif _fits(value):
            representable.append((expression, value))
        else:
            too_large.append(expression)
    return representable, too_large, left_to_run


REPRESENTABLE, TOO_LARGE, LEFT_TO_RUN = _classified()


def test_the_generated_set_covers_each_case():
    assert len(REPRESENTABLE) > 2000 and len(TOO_LARGE) > 50 and len(LEFT_TO_RUN) > 100


@pytest.mark.parametrize("batch", list(_batches(REPRESENTABLE, 150)), ids=lambda b: b[0][0])
def test_folded_values_are_cpythons(batch):
    expressions = [e for e, _ in batch]
    compiled = njit(_function(expressions))
    compiled()  # compiles first: the check below counts the call's blocks only
    before = live_blocks()
    results = compiled()
    del results
    assert live_blocks() == before
    results = compiled()
    assert len(results) == len(batch)
    for (expression, value), result in zip(batch, results):
        assert same(result, value), f"{expression}: CPython folds {value!r}, taipan {result!r}"


def test_ints_type_as_numba_types_literals():
    @njit
    def f():
        return 9223372036854775807, 2**63, 2**64 - 1, 10**19, 1 << 63, -(2**63)

    assert f() == f.py_func()
    (signature,) = f.nopython_signatures
    assert str(signature.return_type) == "Tuple(int64, uint64, uint64, uint64, uint64, int64)"


@pytest.mark.parametrize("expression", TOO_LARGE[:40] + ["2 ** 64", "1 << 64"])
def test_ints_beyond_uint64_raise_numbas_typing_error(expression):
    f = njit(_function([expression]))
    with pytest.raises(TypingError, match="Int value is too large") as raised:
        f()
    assert "line 3" in str(raised.value)


def test_expressions_cpython_leaves_to_run_raise_as_cpython():
    zeros = ("0", "False", "0.0")
    dividing = [
        f"({a}) {op} ({b})"
        for a, b in itertools.product(LEAVES, zeros)
        for op in ("/", "//", "%")
        if "j" not in a and a != "18446744073709551616"  # (too large: a TypingError)
    ]
    raising = [e for e in dividing + ["0 ** -1", "0.0 ** -1"] if e in LEFT_TO_RUN]
    assert len(raising) > 50
    for expression in raising:
        with pytest.raises(ZeroDivisionError):
            eval(expression)
        assert_same(njit(_function([expression])), check_message=False)  # Numba's messages


@pytest.mark.parametrize(
    "expression",
    [
        "x * 10 ** -3",
        "2 ** -1 * x",
        "x + (2 ** 64 - 1 - 2 ** 64)",
        "x * (1, 2.5)[1]",
        "-x + -(2**3)",
    ],
)
def test_folds_next_to_variables(expression):
    f = njit(_function([expression], "x"))
    for x in (3, 7.5):
        assert_same(f, x)


def test_tol_is_not_zero():
    @njit
    def converged(delta):
        tol = 10**-6
        return abs(delta) < tol

    assert converged(1e-7) and not converged(1e-5)


def test_a_too_large_int_names_its_line():
    @njit
    def f(x):
        y = x + 1
        return y * 2**64

    with pytest.raises(TypingError, match=r"Int value is too large: 18446744073709551616"):
        f(1)


BEYOND_UINT64 = 2**64


def test_a_global_int_beyond_uint64_says_so():
    @njit
    def f(x):
        return x + BEYOND_UINT64

    with pytest.raises(TypingError, match="Int value is too large: 18446744073709551616"):
        f(1)


def test_an_int_beyond_uint64_in_code_that_never_runs_compiles():
    """Numba types only the code CPython emits and its branch pruning keeps: CPython drops
    ``if False:`` blocks, and a branch that types decide is pruned before typing."""

    @njit
    def f(x):
        if False:
            return 2**64
        if x is None:
            return 10**30
        return x + 1

    assert f(1) == 2
