"""The compiled code is always the function's own code: among several lambdas on a line, the
same name defined twice, or text edited on disk after import, taipan compiles the definition
whose compiled code is the function's, or raises an error saying why. Functions from
``python -c`` and from ``exec`` of text registered in linecache compile too."""

from __future__ import annotations

import importlib
import linecache
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from child_processes import child_environment, run_python

import taipan
from taipan import njit
from taipan.errors import UnsupportedError

INPUTS = [0, 1, 2, -7, 2**20, 2.5, -0.75]
SRC = str(Path(taipan.__file__).resolve().parent.parent)


def assert_same_as_python(dispatcher, inputs=INPUTS):
    for value in inputs:
        expected = dispatcher.py_func(value)
        actual = dispatcher(value)
        assert actual == expected and type(actual) is type(expected), (value, actual, expected)


# ---------------------------------------------------------------------------------------------
# several lambdas on one line

TWO_A, TWO_B = njit(lambda x: x + 1), njit(lambda x: x * 100)
THREE_A, THREE_B, THREE_C = njit(lambda x: x - 3), njit(lambda x: x * x), njit(lambda x: -x)
NAMED_A, NAMED_B = njit(lambda a: a * 2), njit(lambda b: b + 0.5)
SPREAD = (
    njit(lambda x: x + 2),
    njit(lambda x: x * 3),  # a lambda on a line the statement did not start on
)
NESTED = lambda x: lambda x: x * 7 + 1
# fmt: off
CALL_SPREAD = pow(
    1, 1), njit(lambda x: x * 11)  # its statement starts a line above: found in the whole file
# fmt: on


@pytest.mark.parametrize(
    "dispatcher",
    [TWO_A, TWO_B, THREE_A, THREE_B, THREE_C, NAMED_A, NAMED_B, *SPREAD, CALL_SPREAD[1]],
    ids=["2a", "2b", "3a", "3b", "3c", "named-a", "named-b", "spread-a", "spread-b", "call"],
)
def test_each_lambda_on_a_line_compiles_its_own_body(dispatcher):
    assert_same_as_python(dispatcher)


def test_two_lambdas_on_one_line_in_either_call_order():
    first, second = njit(lambda x: x + 1), njit(lambda x: x * 100)
    assert second(2) == 200  # compiled first: the second lambda's body
    assert first(2) == 3


def test_inner_of_nested_lambdas_with_the_same_parameter():
    inner = njit(NESTED(0))
    assert_same_as_python(inner)


def test_lambdas_on_one_line_closing_over_variables():
    k, m = 5, 0.25
    add, scale = njit(lambda x: x + k), njit(lambda x: x * m + k)
    assert_same_as_python(add)
    assert_same_as_python(scale)


def test_error_in_second_lambda_points_at_its_column():
    line = "    fine, broken = njit(lambda x: x + 1), njit(lambda x: {**x})"
    fine, broken = njit(lambda x: x + 1), njit(lambda x: {**x})
    assert fine(1) == 2
    with pytest.raises(UnsupportedError) as error:
        broken(1)
    message = str(error.value)
    this_line = test_error_in_second_lambda_points_at_its_column.__code__.co_firstlineno + 2
    assert f'File "{__file__}", line {this_line}, in <lambda>' in message
    shown, caret = message.rstrip("\n").splitlines()[-2:]
    assert shown == line
    assert caret.index("^") == line.index("{**x}")


# ---------------------------------------------------------------------------------------------
# decorators, redefinitions, methods and nested functions


def passthrough(function):
    return function


def with_options(**options):
    return passthrough


@njit
@passthrough
@with_options(
    unused=1,
    also_unused=2,
)
def decorated_below(x):
    return x * 3 - 1


@passthrough
@njit(cache=False)
def decorated_above(x: float) -> float:
    return x / 4


def twice(x):
    return x + 1


FIRST_TWICE = njit(twice)


def twice(x):
    return x * 10


SECOND_TWICE = njit(twice)


class First:
    @staticmethod
    def method(x):
        __scaled = x * 2  # a private name: the class mangles it in the code object
        return __scaled + 1


class Second:
    @staticmethod
    def method(x):
        return x - 100


def make_adder(k):
    def inner(x):
        return x + k

    return inner


def make_multiplier(k):
    def inner(x):
        return x * k

    return inner


MATH_ALIAS = math  # a module bound without an import: Python 3.11+ compiles its calls differently


def uses_module_alias(x):
    return MATH_ALIAS.sqrt(x * x) + math.floor(x)


def positional_kinds(a, /, b):
    return a * 10 + b


@pytest.mark.parametrize(
    "dispatcher",
    [
        decorated_below,
        decorated_above,
        FIRST_TWICE,
        SECOND_TWICE,
        njit(First.method),
        njit(Second.method),
        njit(make_adder(3)),
        njit(make_multiplier(3)),
        njit(uses_module_alias),
    ],
    ids=[
        "below",
        "above",
        "first",
        "second",
        "method-1",
        "method-2",
        "inner-1",
        "inner-2",
        "alias",
    ],
)
def test_definition_chosen_by_its_code(dispatcher):
    assert_same_as_python(dispatcher)


def test_positional_only_parameters():
    compiled = njit(positional_kinds)
    assert compiled(3, 4) == positional_kinds(3, 4)
    assert compiled(-1.5, 2) == positional_kinds(-1.5, 2)


def test_function_already_specialised_by_the_interpreter():
    def hot(x):
        return x * 3 + 1

    for i in range(5000):  # Python 3.11+ rewrites hot bytecode in place (quickening)
        hot(i)
    assert_same_as_python(njit(hot))


async def asynchronous(x):
    return x


def test_async_function_is_refused_at_its_line():
    compiled = njit(asynchronous)
    with pytest.raises(UnsupportedError, match="async functions are not supported") as error:
        compiled(1)
    line = asynchronous.__code__.co_firstlineno
    assert f'File "{__file__}", line {line}, in asynchronous' in str(error.value)


# ---------------------------------------------------------------------------------------------
# text edited on disk after import

ORIGINAL = """\
def f(x):
    return x + 1


def g(x):
    return x * 2
"""


@pytest.fixture
def module_on_disk(tmp_path, monkeypatch):
    """Writes ORIGINAL as a fresh module, imports it, and returns (module, path)."""
    name = f"fidelity_{os.getpid()}_{len(os.listdir(tmp_path))}_{id(tmp_path)}"
    path = tmp_path / f"{name}.py"
    path.write_text(ORIGINAL)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    module = importlib.import_module(name)
    yield module, path
    sys.modules.pop(name, None)
    linecache.checkcache(str(path))


def rewrite(path, text):
    path.write_text(text)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


def test_edited_file_raises_instead_of_compiling_new_text(module_on_disk):
    module, path = module_on_disk
    rewrite(path, ORIGINAL.replace("x + 1", "x * 1000"))
    compiled = njit(module.f)
    with pytest.raises(UnsupportedError) as error:
        compiled(2)
    message = str(error.value)
    assert "cannot compile f" in message
    assert "changed after it was imported" in message
    assert "importlib.reload" in message
    assert f'File "{path}", line 1, in f' in message


def test_edited_file_moving_the_function_raises(module_on_disk):
    module, path = module_on_disk
    rewrite(path, "# a new first line\n" + ORIGINAL)
    with pytest.raises(UnsupportedError, match="changed after it was imported"):
        njit(module.g)(2)


def test_edit_elsewhere_in_the_file_still_compiles(module_on_disk):
    module, path = module_on_disk
    rewrite(path, ORIGINAL.replace("x * 2", "x * 3"))
    compiled = njit(module.f)  # f's own text did not change
    assert_same_as_python(compiled)
    with pytest.raises(UnsupportedError, match="changed after it was imported"):
        njit(module.g)(2)


def test_edited_file_with_original_text_in_linecache_compiles_the_original(module_on_disk):
    module, path = module_on_disk
    linecache.getlines(str(path))  # e.g. a traceback showed the file before the edit
    rewrite(path, ORIGINAL.replace("x + 1", "x * 1000").replace("x * 2", "x * 3"))
    assert njit(module.f)(2) == module.f(2) == 3
    assert njit(module.g)(2) == module.g(2) == 4  # the first compile kept linecache's text


def test_reloaded_module_compiles_the_new_text(module_on_disk):
    module, path = module_on_disk
    rewrite(path, ORIGINAL.replace("x + 1", "x * 1000"))
    importlib.invalidate_caches()
    reloaded = importlib.reload(module)
    compiled = njit(reloaded.f)
    assert compiled(2) == reloaded.f(2) == 2000


# ---------------------------------------------------------------------------------------------
# text that is not in a file: python -c, exec


def run_command(program, through_stdin=False, script=None):
    if script is not None:
        arguments = [script]
    else:
        arguments = [] if through_stdin else ["-c", program]
    stdin = program if through_stdin else None
    return run_python(arguments, env=child_environment(), input=stdin, timeout=120).stdout


def test_python_dash_c_compiles_functions_and_lambdas():
    program = textwrap.dedent(
        """\
        from taipan import njit

        @njit
        def f(x):
            return x * 3 + 1

        g, h = njit(lambda x: x + 1), njit(lambda x: x * 100)
        for fn in (f, g, h):
            print(fn(2), fn.py_func(2), fn(2.5), fn.py_func(2.5))
        """
    )
    lines = run_command(program).splitlines()
    assert len(lines) == 3
    for line in lines:
        compiled, python, compiled_float, python_float = line.split()
        assert (compiled, compiled_float) == (python, python_float)
    assert lines[2].split()[0] == "200"


def test_python_dash_c_errors_name_the_string_and_line():
    program = textwrap.dedent(
        """\
        from taipan import njit
        from taipan.errors import UnsupportedError

        @njit
        def f(x):
            return {**x}

        try:
            f(1)
        except UnsupportedError as error:
            print(error)
        """
    )
    output = run_command(program)
    assert 'File "<string>", line 6, in f' in output
    assert "    return {**x}" in output


def test_program_read_from_stdin_says_where_it_looked():
    program = textwrap.dedent(
        """\
        from taipan import njit
        from taipan.errors import UnsupportedError

        @njit
        def f(x):
            return x + 1

        try:
            f(1)
        except UnsupportedError as error:
            print(error)
        """
    )
    output = run_command(program, through_stdin=True)
    assert "cannot compile f: its source text is not available" in output
    assert "looked in linecache for '<stdin>'" in output
    assert 'File "<stdin>", line 4, in f' in output


EXEC_TEXT = """\
def from_text(x):
    return x * 5 - 2

a, b = lambda x: x - 1, lambda x: x * 9
"""


def test_code_without_text_says_where_it_looked(monkeypatch):
    import ast
    import linecache
    import marshal

    # Python 3.13 puts a `python -c` program's text in linecache as '<string>' (pytest-xdist's
    # workers run that way); the front end would then report that text as not matching.
    monkeypatch.delitem(linecache.cache, "<string>", raising=False)
    namespace = {}
    # Code compiled from a syntax tree keeps the tree and compiles (test_functions_without_source);
    # a copy made by marshal keeps neither text nor tree.
    code = marshal.loads(marshal.dumps(compile(ast.parse(EXEC_TEXT), "<string>", "exec")))
    exec(code, namespace)  # noqa: S102
    with pytest.raises(UnsupportedError) as error:
        njit(namespace["from_text"])(1)
    message = str(error.value)
    assert "source text is not available" in message
    assert "'<string>'" in message and "linecache.cache" in message
    assert 'File "<string>", line 1, in from_text' in message


def test_exec_of_text_registered_in_linecache():
    filename = f"<taipan-test-{id(EXEC_TEXT)}>"
    linecache.cache[filename] = (len(EXEC_TEXT), None, EXEC_TEXT.splitlines(True), filename)
    try:
        namespace = {}
        exec(compile(EXEC_TEXT, filename, "exec"), namespace)  # noqa: S102
        for name in ("from_text", "a", "b"):
            assert_same_as_python(njit(namespace[name]))
    finally:
        del linecache.cache[filename]


def test_exec_text_wins_over_wrong_linecache_text():
    # The text compile() compiled is the code's own; a wrong linecache entry is never used.
    filename = f"<taipan-test-wrong-{id(EXEC_TEXT)}>"
    wrong = EXEC_TEXT.replace("x * 5 - 2", "x * 6 - 2")
    linecache.cache[filename] = (len(wrong), None, wrong.splitlines(True), filename)
    try:
        namespace = {}
        exec(compile(EXEC_TEXT, filename, "exec"), namespace)  # noqa: S102
        assert_same_as_python(njit(namespace["from_text"]))
    finally:
        del linecache.cache[filename]


def test_import_taipan_does_not_import_ast_or_inspect():
    # What import taipan adds: a site's start-up (sitecustomize) may import them itself.
    output = run_command(
        "import sys; before = set(sys.modules); import taipan; "
        "print(sorted({'ast', 'inspect', 'linecache'} & (set(sys.modules) - before)))"
    )
    assert "'ast'" not in output and "'inspect'" not in output


def test_asserts_rewritten_by_pytest_still_verify(tmp_path):
    """pytest rewrites the asserts of test modules, so their code differs from their text; the
    front end compares after the same rewriting and compiles the user's own assert."""
    test_file = tmp_path / "test_rewritten.py"
    test_file.write_text(
        textwrap.dedent(
            """
            import pytest
            from taipan import njit

            @njit
            def checked(x):
                for i in range(3):
                    assert x > i, "too small"
                return x * 2

            def test_checked():
                assert checked(5) == 10
                with pytest.raises(AssertionError, match="too small"):
                    checked(1)
            """
        )
    )
    environment = dict(os.environ, PYTHONPATH=SRC)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------------------------------------
# functions made by exec, eval and compile of text (taipan.source_texts)


def test_exec_of_text_compiles_its_functions_and_lambdas():
    namespace = {}
    exec(EXEC_TEXT, namespace)  # noqa: S102
    for name in ("from_text", "a", "b"):
        assert_same_as_python(njit(namespace[name]))


def test_exec_into_separate_locals_of_a_class_method():
    text = textwrap.dedent(
        """\
        class Holder:
            @staticmethod
            def outer(x):
                total = 0
                for i in range(3):
                    total += i * x
                return total - 1
        """
    )
    scope = {}
    exec(text, {}, scope)  # noqa: S102
    assert_same_as_python(njit(scope["Holder"].outer))


def test_eval_of_a_lambda_with_leading_blanks():
    f = eval("  \t lambda x: x * 2 - 7")
    assert_same_as_python(njit(f))


def test_compile_of_bytes_with_a_coding_line():
    text = b"# -*- coding: latin-1 -*-\ndef f(x):\n    s = '\xe9'\n    return x + 1\n"
    namespace = {}
    exec(compile(text, "<bytes>", "exec"), namespace)  # noqa: S102
    assert_same_as_python(njit(namespace["f"]))


def test_same_text_compiled_twice_and_the_first_code_freed():
    import gc

    first = {}
    exec(EXEC_TEXT, first)  # noqa: S102
    second = {}
    exec(EXEC_TEXT, second)  # noqa: S102
    del first
    gc.collect()
    assert_same_as_python(njit(second["from_text"]))


def test_exec_inherits_the_callers_future_flags():
    # This module imports annotations from __future__: exec'd text inherits it, as before.
    namespace = {}
    exec("def f(x: not_defined_anywhere) -> int:\n    return x + 1\n", namespace)  # noqa: S102
    assert namespace["f"].__annotations__ == {"x": "not_defined_anywhere", "return": "int"}
    assert_same_as_python(njit(namespace["f"]))
    code = compile("def g(x: int):\n    return x\n", "<t>", "exec", dont_inherit=True)
    exec(code, namespace)  # noqa: S102
    assert namespace["g"].__annotations__ == {"x": int}
    assert_same_as_python(njit(namespace["g"]))


def test_exec_and_eval_default_to_the_callers_namespaces():
    def scope():
        z = 5
        exec("w = z + 1")  # noqa: S102
        return eval("z * 2"), locals().get("w")

    # Python 3.13 (PEP 667): exec in a function writes to a snapshot of its locals.
    assert scope() == (10, 6 if sys.version_info < (3, 13) else None)
    with pytest.raises(TypeError, match="globals must be a dict"):
        exec("1", [])  # noqa: S102
    # exec's closure= came in Python 3.11; 3.10's exec takes no keywords, wrapped or not.
    closure_error = "closure can only be used" if sys.version_info >= (3, 11) else "no keyword"
    with pytest.raises(TypeError, match=closure_error):
        exec("1", {}, closure=())  # noqa: S102
    assert eval(compile("3 + 4", "<t>", "eval")) == 7


def test_wrappers_look_like_the_builtins():
    import builtins
    import inspect

    for name in ("compile", "exec", "eval"):
        function = getattr(builtins, name)
        assert function.__name__ == name and function.__module__ == "builtins"
        assert str(inspect.signature(function)).startswith("(source")
        assert function.__doc__


EXEC_PROGRAM = """\
import inspect, sys, traceback
{import_taipan}
def run(text):
    try:
        exec(text, {{}})
    except ZeroDivisionError:
        traceback.print_exc(file=sys.stdout)
run("def bad(x):\\n    return x / 0\\nbad(1)\\n")
namespace = {{}}
exec("def f(x):\\n    return x\\n", namespace)
try:
    inspect.getsource(namespace["f"])
except OSError as error:
    print("OSError", error)
import linecache
print(linecache.getlines("<string>"))
"""


def test_tracebacks_and_inspect_behave_as_without_taipan(tmp_path):
    # Run from files: Python 3.13 keeps a `python -c` program's text in linecache as '<string>',
    # the name exec'd text has too, so the two programs' own lines would show in the tracebacks.
    def run_file(import_taipan):
        folder = tmp_path / ("with" if import_taipan else "without")
        folder.mkdir()
        script = folder / "exec_program.py"
        script.write_text(EXEC_PROGRAM.format(import_taipan=import_taipan))
        return run_command(None, script=script).replace(str(folder), "")

    without = run_file("")
    with_taipan = run_file("import taipan")
    assert "ZeroDivisionError" in without and "OSError" in without
    assert with_taipan == without
