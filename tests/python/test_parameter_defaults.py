# ruff: noqa: B008 - calls in parameter defaults are what this file tests
"""Parameter defaults of every kind a compiled function takes as an argument: tuples (empty,
nested, mixed, of strings, of arrays, of functions), arrays, named tuples, jitted functions and
None, frozen when the function is defined, as Python evaluates them. A call from Python passes
the default itself; a call from compiled code freezes it (arrays become read-only constants).
Passing the argument explicitly works the same. Results are compared with ``py_func``."""

from collections import namedtuple

import numpy as np
import pytest
from conftest import assert_same

from taipan import TypingError, njit
from taipan.runtime import live_blocks

Options = namedtuple("Options", ["tol", "maxiter"])


@njit
def doubled(x):
    return x * 2


@njit
def tripled(x):
    return x * 3


@njit
def empty_tuple(x, args=()):
    return x + len(args)


@njit
def mixed_tuple(x, args=(1, 2.5, True)):
    return x + args[0] + args[1] + args[2]


@njit
def nested_tuple(x, args=((1, 2), 3.0, ((4,), 5))):
    return x + args[0][1] + args[1] + args[2][0][0] + args[2][1]


@njit
def string_tuple(x, names=("ab", "cde")):
    return x + len(names[0]) + len(names[1])


@njit
def array_default(x, bounds=np.array([1.0, 2.0, 4.0])):
    return x + bounds.sum() + bounds.shape[0]


@njit
def empty_matrix_default(x, A_ub=np.empty((0, 0))):
    return x + A_ub.shape[0] + A_ub.shape[1] + A_ub.size


@njit
def int_matrix_default(x, m=np.arange(6, dtype=np.int32).reshape(2, 3)):
    return x + m[1, 2] + m.sum()


@njit
def named_default(x, options=Options(1e-3, 10)):
    return x + options.tol + options.maxiter + options[1]


@njit
def function_default(x, fn=doubled):
    return fn(x)


@njit
def functions_tuple_default(x, fns=(doubled, tripled), scale=(2, 0.5)):
    return fns[0](x) * scale[0] + fns[1](x) * scale[1]


@njit
def arrays_tuple_default(x, arrs=(np.ones(2), np.arange(3.0))):
    return x + arrs[0].sum() + arrs[1].sum() + arrs[1].size


@njit
def none_default(x, y=None):
    if y is None:
        return x
    return x + y


@njit
def keyword_only_defaults(x, *, shape=(2, 3), weights=np.array([0.5, 0.25])):
    return x + shape[0] * shape[1] + weights.sum()


DEFAULT_CASES = [
    (empty_tuple, (1.5,)),
    (mixed_tuple, (1.5,)),
    (nested_tuple, (1.0,)),
    (string_tuple, (1,)),
    (array_default, (1.0,)),
    (empty_matrix_default, (1.0,)),
    (int_matrix_default, (1,)),
    (named_default, (1.0,)),
    (function_default, (3.0,)),
    (arrays_tuple_default, (0.5,)),
    (functions_tuple_default, (2.0,)),
    (none_default, (2.0,)),
    (keyword_only_defaults, (1.0,)),
]


@pytest.mark.parametrize(
    "function, arguments", DEFAULT_CASES, ids=lambda c: getattr(c, "__name__", "")
)
def test_default_from_python(function, arguments):
    before = live_blocks()
    assert_same(function, *arguments)
    assert live_blocks() == before


# The same functions called from compiled code, the defaults omitted: they are frozen there.
@njit
def call_all_omitted(x):
    return (
        empty_tuple(x)
        + mixed_tuple(x)
        + nested_tuple(x)
        + string_tuple(x)
        + array_default(x)
        + empty_matrix_default(x)
        + int_matrix_default(x)
        + named_default(x)
        + function_default(x)
        + arrays_tuple_default(x)
        + functions_tuple_default(x)
        + none_default(x)
        + keyword_only_defaults(x)
    )


@pytest.mark.parametrize("x", [0.0, 1.5, -3.0])
def test_defaults_omitted_in_compiled_calls(x):
    before = live_blocks()
    assert_same(call_all_omitted, x)
    assert live_blocks() == before


@njit
def call_explicit(x, a):
    return (
        empty_tuple(x, (1, 2))
        + mixed_tuple(x, (2, 0.5, False))
        + nested_tuple(x, ((0, 1), 1.0, ((2,), 3)))
        + array_default(x, a)
        + empty_matrix_default(x, np.ones((2, 2)))
        + named_default(x, Options(0.5, 2))
        + function_default(x, tripled)
        + arrays_tuple_default(x, (a, a))
        + none_default(x, 4.0)
        + keyword_only_defaults(x, shape=(1, 1), weights=a)
    )


def test_defaults_given_explicitly_in_compiled_calls():
    before = live_blocks()
    assert_same(call_explicit, 1.0, np.arange(4.0))
    assert live_blocks() == before


@pytest.mark.parametrize(
    "function, arguments",
    [
        (empty_tuple, (1.0, (1, 2, 3))),
        (mixed_tuple, (1.0, (5, 6.0, False))),
        (nested_tuple, (1.0, ((7, 8), 9.0, ((10,), 11)))),
        (array_default, (1.0, np.arange(5.0))),
        (empty_matrix_default, (1.0, np.zeros((3, 0)))),
        (named_default, (1.0, Options(2.0, 3))),
        (function_default, (1.0, tripled)),
        (arrays_tuple_default, (1.0, (np.zeros(4), np.ones(1)))),
        (none_default, (1.0, 2.5)),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_default_passed_explicitly_from_python(function, arguments):
    before = live_blocks()
    assert_same(function, *arguments)
    assert live_blocks() == before


def test_keyword_arguments_replace_defaults():
    before = live_blocks()
    assert_same(keyword_only_defaults, 1.0, weights=np.ones(3))
    assert_same(keyword_only_defaults, 1.0, shape=(4, 4))
    assert_same(named_default, 1.0, options=Options(0.25, 1))
    assert live_blocks() == before


def test_defaults_are_frozen_at_definition():
    """Like Python, the value is the one evaluated when the function was defined: rebinding
    the name later changes nothing."""
    scale = np.array([2.0, 3.0])

    @njit
    def scaled(x, weights=scale):
        return x * weights.sum()

    @njit
    def caller(x):
        return scaled(x)

    scale = np.array([100.0])  # rebinding must not reach the default
    assert scaled(1.0) == 5.0 == scaled.py_func(1.0)
    assert caller(1.0) == 5.0


def test_mutable_array_default_keeps_python_semantics_from_python():
    """From Python the default array itself is passed, so writes persist as in Python."""

    @njit
    def bump(a=np.zeros(2)):
        a[0] += 1.0
        return a[0]

    assert bump() == 1.0
    assert bump() == 2.0
    assert bump.py_func() == 3.0


def test_writing_a_frozen_default_from_compiled_code_is_refused():
    @njit
    def bump(a=np.zeros(2)):
        a[0] += 1.0
        return a[0]

    @njit
    def caller():
        return bump()

    with pytest.raises(TypingError, match="read-only array"):
        caller()


class _Opaque:
    pass


def test_default_that_compiled_code_cannot_hold_names_the_parameter():
    @njit
    def takes(x, thing=_Opaque()):
        return x

    @njit
    def caller(x):
        return takes(x)

    with pytest.raises(TypingError, match=r"default value of parameter 'thing' of takes\(\)"):
        caller(1.0)
    with pytest.raises(TypingError, match="thing"):
        takes(1.0)
    assert takes(1.0, 2.0) == 1.0  # the argument passed explicitly works


def test_list_default_from_python_and_refused_when_frozen():
    @njit
    def count(x, items=[1, 2, 3]):  # noqa: B006 - Python's default, on purpose
        return x + len(items)

    @njit
    def caller(x):
        return count(x)

    assert_same(count, 1)
    with pytest.raises(TypingError, match="pass the argument explicitly"):
        caller(1)


# Globals of the same kinds are frozen the same way (one classification for both).
NESTED = ((1, 2), 3.0)
ARRAYS = (np.ones(2), np.arange(3.0))
OPTIONS = Options(0.125, 4)
FUNCTIONS = (doubled, 7)


@njit
def read_frozen_globals(x):
    return (
        (x + NESTED[0][1] + NESTED[1] + ARRAYS[1].sum() + OPTIONS.tol + OPTIONS.maxiter)
        + FUNCTIONS[0](x)
        + FUNCTIONS[1]
    )


def test_globals_of_tuples_named_tuples_and_arrays():
    before = live_blocks()
    assert_same(read_frozen_globals, 2.0)
    assert live_blocks() == before


def test_frozen_named_tuple_returned_boxes_as_its_class():
    @njit
    def give():
        return OPTIONS

    result = give()
    assert type(result) is Options and result == OPTIONS


def test_tuple_of_arrays_default_returned_is_a_copy_of_values():
    @njit
    def inner(arrs=(np.arange(3.0), np.ones(2))):
        return arrs[0] + 1.0

    @njit
    def outer():
        return inner()

    before = live_blocks()
    np.testing.assert_array_equal(outer(), np.arange(3.0) + 1.0)
    np.testing.assert_array_equal(inner(), np.arange(3.0) + 1.0)
    assert live_blocks() == before


CACHED_MODULE = """
from taipan import njit

@njit(cache=True)
def callee(x, *, k={k}, weights=({k}, 2.5)):
    return x + k + weights[0] * weights[1]

@njit(cache=True)
def caller(x):
    return callee(x)

print(caller(1))
"""


def test_cached_caller_sees_changed_keyword_only_defaults(tmp_path):
    """A caller compiled with cache=True freezes its callee's defaults: the disk cache's key
    must change with them, keyword-only ones included."""

    from child_processes import child_environment, run_python

    outputs = []
    for k in (1, 5, 1):
        (tmp_path / "cached_defaults.py").write_text(CACHED_MODULE.format(k=k))
        script = tmp_path / "cached_defaults.py"
        completed = run_python([script], env=child_environment(tmp_path), timeout=120)
        outputs.append(completed.stdout.strip())
    assert outputs == ["4.5", "18.5", "4.5"]
