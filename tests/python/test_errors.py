"""Code taipan cannot compile raises TypingError or UnsupportedError (a subclass) on the first
call, with a message that names this file, the line, shows the source line and a caret; an
argument of an unsupported type is named in the message; nothing crashes.  Each offending line
below ends with the marker comment ``# <- error``."""

from __future__ import annotations

import inspect
import math
import os

import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import njit
from taipan.errors import TypingError, UnsupportedError

THIS_FILE = os.path.basename(__file__)
MARKER = "# <- error"


def undefined_helper_target(x):
    return x


@njit
def uses_dict(x):
    d = {**x}  # <- error
    return d[0]


@njit
def uses_generator_expression(n):
    values = (i * i for i in range(n))  # <- error
    return values


@njit
def uses_del(x):
    y = x + 1
    del y  # <- error
    return x


@njit
def uses_caught_exception(x):
    try:
        y = 1 / x
    except ZeroDivisionError as e:
        y = len(e.args)  # <- error
    return y


@njit
def calls_unknown_function(x):
    y = x + 1
    return no_such_function(y)  # <- error  # noqa: F821


@njit
def calls_unknown_math_function(x):
    return math.no_such_function(x)  # <- error


@njit
def uses_set(x):
    s = {complex(x), 1j}  # <- error
    return len(s)


@njit
def uses_with(x):
    with open("f"):  # <- error
        pass
    return x


@njit
def uses_generator_send(x):
    y = 1 + (yield x)  # <- error
    yield y


@njit
def adds_int_and_tuple(x):
    t = (1, 2)
    return x + t  # <- error


@njit
def calls_python_function(x):
    return undefined_helper_target(x)  # <- error


@njit
def bad_attribute(x):
    return x.no_such_attribute  # <- error


@njit
def too_many_arguments_to_builtin(x):
    return abs(x, x)  # <- error


@njit
def calls_jitted_with_wrong_arity(x):
    return one_argument(x, x)  # <- error


@njit
def imports_inside(x):
    import os  # <- error  # noqa: F401

    return x


@njit
def deletes_variable(x):
    y = x
    del y  # <- error
    return x


@njit
def assigns_global(x):
    global ASSIGNED_GLOBAL
    ASSIGNED_GLOBAL = x  # <- error
    return x


ASSIGNED_GLOBAL = 0


@njit
def uses_star_args(*args):
    return args[0]


@njit
def one_argument(x):
    return x


@njit
def returns_incompatible_types(x):
    if x > 0:
        return 1
    return (1, 2)  # <- error


UNSUPPORTED = [
    uses_dict,
    uses_generator_expression,
    uses_del,
    uses_caught_exception,
    calls_unknown_function,
    calls_unknown_math_function,
    uses_set,
    uses_with,
    uses_generator_send,
    adds_int_and_tuple,
    calls_python_function,
    bad_attribute,
    too_many_arguments_to_builtin,
    calls_jitted_with_wrong_arity,
    imports_inside,
    deletes_variable,
    assigns_global,
    returns_incompatible_types,
]

# the constructs the brief singles out: their messages must carry the location
CORE = [
    uses_dict,
    uses_generator_expression,
    uses_del,
    uses_caught_exception,
    calls_unknown_function,
]


def _name(fn):
    return fn.__name__


def marked_line(fn):
    """The file line number and stripped text of the line marked ``# <- error`` in ``fn``."""
    lines, first = inspect.getsourcelines(fn.py_func)
    for offset, line in enumerate(lines):
        if MARKER in line:
            return first + offset, line.split(MARKER)[0].strip()
    raise AssertionError(f"no marker in {fn.__name__}")


def first_error(fn, *args):
    with pytest.raises(TypingError) as info:
        fn(*args)
    return info.value


@pytest.mark.parametrize("fn", UNSUPPORTED, ids=_name)
def test_unsupported_code_raises_typing_error(fn):
    error = first_error(fn, 1)
    assert isinstance(error, (TypingError, UnsupportedError))
    assert str(error)
    # no compilation was recorded, and a second call fails the same way (no crash)
    assert fn.signatures == []
    second = first_error(fn, 1)
    assert type(second) is type(error)


@pytest.mark.parametrize("fn", UNSUPPORTED, ids=_name)
def test_error_message_has_location(fn):
    message = str(first_error(fn, 2))
    line_number, source = marked_line(fn)
    assert THIS_FILE in message, message
    assert f"line {line_number}" in message, (line_number, message)
    assert source in message, (source, message)
    assert "^" in message, message


@pytest.mark.parametrize("fn", CORE, ids=_name)
def test_caret_under_the_source_line(fn):
    message = str(first_error(fn, 3))
    _, source = marked_line(fn)
    lines = message.splitlines()
    index = next(i for i, line in enumerate(lines) if source in line)
    caret_line = lines[index + 1]
    assert caret_line.strip() == "^", message
    column = caret_line.index("^")
    source_line = lines[index]
    # the caret points inside the source line, not at its indentation
    assert len(source_line) - len(source_line.lstrip()) <= column < len(source_line), message


def test_function_name_in_message():
    message = str(first_error(uses_dict, 1))
    assert "uses_dict" in message


def test_unknown_function_named_in_message():
    message = str(first_error(calls_unknown_function, 1))
    assert "no_such_function" in message


def test_unknown_math_function_named_in_message():
    message = str(first_error(calls_unknown_math_function, 1.0))
    assert "no_such_function" in message


def test_star_args():
    assert uses_star_args(5, 6) == uses_star_args.py_func(5, 6) == 5


def test_unsupported_is_typing_error_subclass():
    assert issubclass(UnsupportedError, TypingError)
    assert issubclass(TypingError, taipan.errors.TaipanError)
    assert taipan.errors.NumbaError is taipan.errors.TaipanError


def test_errors_raised_at_call_not_at_decoration():
    def f(x):
        return {complex(x), 1j}

    dispatcher = njit(f)  # no error yet
    with pytest.raises(TypingError):
        dispatcher(1)


def test_error_in_callee_is_reported():
    @njit
    def caller(x):
        return uses_dict(x) + 1

    with pytest.raises(TypingError) as info:
        caller(1)
    assert THIS_FILE in str(info.value)


# ---------------------------------------------------------------------------------------------
# arguments of unsupported types


@njit
def identity(value):
    return value


@njit
def second_argument(first, value):
    return first


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1},
        [1, 2],
        {1, 2},
        object(),
        print,
        2**64,
        -(2**63) - 1,
        b"bytes",
        (1, {}),
        Ellipsis,
    ],
)
def test_unsupported_argument_type(value):
    try:
        supported = taipan.typeof(value)
    except (ValueError, TypeError, OverflowError):
        supported = None
    if supported is not None:
        pytest.skip(f"{type(value).__name__} is supported ({supported})")
    with pytest.raises(TypingError) as info:
        identity(value)
    message = str(info.value)
    assert "value" in message  # the argument's name
    assert type(value).__name__ in message


def test_none_argument():
    assert str(taipan.typeof(None)) == "none"
    assert identity(None) is None


def test_unsupported_argument_named_by_position_and_name():
    with pytest.raises(TypingError) as info:
        second_argument(1, {"a": 1})
    message = str(info.value)
    assert "argument 1" in message and "(value)" in message and "dict" in message


def test_unsupported_keyword_argument():
    with pytest.raises(TypingError) as info:
        second_argument(1, value={"a": 1})
    assert "value" in str(info.value) and "dict" in str(info.value)


def test_unsupported_argument_does_not_poison_dispatcher():
    @njit
    def f(x):
        return x + 1

    with pytest.raises(TypingError):
        f({})
    assert f(1) == 2
    with pytest.raises(TypingError):
        f([1])
    assert f(2.5) == 3.5


def test_typing_error_inside_branch_never_taken():
    # type inference covers every branch: this fails even when the branch would not run
    @njit
    def f(x):
        if x > 100:
            return x + (1, 2)
        return x

    with pytest.raises(TypingError):
        f(1)


def test_source_not_available():
    import ast
    import marshal

    namespace = {}
    tree = ast.parse("def generated(x):\n    return x + 1\n")
    # Code compiled from a tree keeps the tree and compiles (test_functions_without_source); a
    # copy made by marshal keeps neither text nor tree.
    code = marshal.loads(marshal.dumps(compile(tree, "<string>", "exec")))
    exec(code, namespace)  # noqa: S102 - code without text
    f = njit(namespace["generated"])
    with pytest.raises(TypingError):
        f(1)


def test_missing_argument_is_type_error():
    with pytest.raises(TypeError):
        identity()
    with pytest.raises(TypeError):
        identity(1, 2)


# ---------------------------------------------------------------------------------------------
# never a crash: large or pathological functions, run in a subprocess so that a crash of the
# compiler cannot take the test session down


def _run_generated(tmp_path, source, call, timeout=120):
    (tmp_path / "generated_module.py").write_text(source)
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "import generated_module as m\n"
        "from taipan import njit\n"
        "from taipan.errors import TaipanError\n"
        "f = m.f = njit(m.f)  # recursive calls find the dispatcher\n"
        "try:\n"
        f"    print('RESULT', repr(f{call}), repr(f.py_func{call}))\n"
        "except TaipanError as error:\n"
        "    print('TAIPAN-ERROR', type(error).__name__)\n"
        "except RecursionError:\n"
        "    print('RECURSION-ERROR')\n"
    )
    return run_python(["-c", script], env=child_environment(), timeout=timeout).stdout


def _same_result(stdout):
    line = next(line for line in stdout.splitlines() if line.startswith("RESULT"))
    _, compiled, python = line.split(" ", 2)
    return compiled == python


@pytest.mark.parametrize("n", [10, 500, 1000])
def test_long_expression(tmp_path, n):
    source = "def f(x):\n    return " + " + ".join(f"x * {i}" for i in range(n)) + "\n"
    assert _same_result(_run_generated(tmp_path, source, "(3)"))


def test_deeply_nested_parentheses(tmp_path):
    source = "def f(x):\n    return " + "(" * 150 + "x + 1" + ")" * 150 + "\n"
    assert _same_result(_run_generated(tmp_path, source, "(3)"))


def test_deeply_nested_ifs(tmp_path):
    depth = 60
    body = "".join("    " * (i + 1) + f"if x > {i}:\n" for i in range(depth))
    body += "    " * (depth + 1) + "return x\n    return -1\n"
    stdout = _run_generated(tmp_path, "def f(x):\n" + body, "(100)")
    assert _same_result(stdout)


def test_many_statements(tmp_path):
    lines = ["def f(x):", "    y = 0"]
    # compile time grows quadratically with the length (as in Numba): keep it moderate
    lines += [f"    y = (y * 31 + x + {i}) % 1000003" for i in range(400)]
    lines += ["    return y", ""]
    assert _same_result(_run_generated(tmp_path, "\n".join(lines), "(7)"))


def test_many_variables(tmp_path):
    lines = ["def f(x):"]
    lines += [f"    v{i} = x + {i}" for i in range(500)]
    lines += ["    return " + " + ".join(f"v{i}" for i in range(500)), ""]
    assert _same_result(_run_generated(tmp_path, "\n".join(lines), "(1)"))


def test_runaway_recursion_is_a_typing_error(tmp_path):
    source = "def f(x):\n    return f(x)\n"
    assert "TAIPAN-ERROR" in _run_generated(tmp_path, source, "(1)")


def test_recursion_changing_type(tmp_path):
    source = "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 0.5\n"
    assert _same_result(_run_generated(tmp_path, source, "(5)"))


def test_deep_runtime_recursion(tmp_path):
    source = "def f(n):\n    if n == 0:\n        return 0\n    return 1 + f(n - 1)\n"
    stdout = _run_generated(tmp_path, source, "(20000)")
    assert "RESULT 20000" in stdout


def test_recursion_with_growing_types_terminates(tmp_path):
    source = "def f(x, n):\n    if n == 0:\n        return 0\n    return f((x, x), n - 1)\n"
    stdout = _run_generated(tmp_path, source, "(1, 3)", timeout=15)
    assert "TAIPAN-ERROR" in stdout or "RECURSION-ERROR" in stdout
