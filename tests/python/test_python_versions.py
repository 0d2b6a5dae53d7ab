"""The front end on each supported Python (3.10 to 3.13): statements a release added and taipan
does not compile (match, try/except*, type) are refused naming the user's line, syntax a release
added that compiles as before (generic functions, PEP 701 f-strings) gives CPython's result, and
the behaviours that differ between releases (comprehension scopes, unbound-read messages,
docstrings) follow the running Python. Sources the oldest Python cannot parse are written to
files and imported only where the running Python can."""

import linecache
import os
import subprocess
import sys
import textwrap
import warnings

import pytest
from child_processes import child_python_path
from conftest import assert_same
from module_files import load_module

from taipan import njit
from taipan.errors import DebugInfoWarning, UnsupportedError
from taipan.runtime import live_blocks

needs_311 = pytest.mark.skipif(sys.version_info < (3, 11), reason="syntax of Python 3.11")
needs_312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="syntax of Python 3.12")


def module_of(tmp_path, source, name):
    """The module whose source is ``source``: a real file, so its functions' text is found the
    way a user's is."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return load_module(path, name)


def assert_refused_at(function, message, line_text):
    """Compiling ``function`` raises UnsupportedError with ``message``, pointing at the line of
    the user's source whose text is ``line_text``."""
    with pytest.raises(UnsupportedError) as caught:
        njit(function)(1)
    text = str(caught.value)
    assert text.startswith(message), text
    assert f"in {function.__name__}:\n    {line_text}\n" in text, text


MATCH_SOURCE = """
def classify(x):
    y = x * 2
    match y:
        case 2:
            return 10
        case _:
            return 20
"""


def test_match_statement_is_refused_at_its_line(tmp_path):
    module = module_of(tmp_path, MATCH_SOURCE, "match_statement")
    assert module.classify(1) == 10
    assert_refused_at(
        module.classify, "match statements are not supported in compiled code", "match y:"
    )


TRY_STAR_SOURCE = """
def guarded(x):
    y = 0
    try:
        y = 1 // x
    except* ZeroDivisionError:
        y = -1
    return y
"""


@needs_311
def test_try_except_star_is_refused_at_its_line(tmp_path):
    module = module_of(tmp_path, TRY_STAR_SOURCE, "try_star")
    assert module.guarded(0) == -1
    assert_refused_at(module.guarded, "try/except* are not supported in compiled code", "try:")


TYPE_STATEMENT_SOURCE = """
def aliased(x):
    type Pair = tuple[int, int]
    return x + 1
"""


@needs_312
def test_type_statement_is_refused_at_its_line(tmp_path):
    module = module_of(tmp_path, TYPE_STATEMENT_SOURCE, "type_statement")
    assert module.aliased(1) == 2
    assert_refused_at(
        module.aliased,
        "type statements are not supported in compiled code",
        "type Pair = tuple[int, int]",
    )


GENERIC_SOURCE = """
def first[T](items: tuple[T, ...], fallback: T) -> T:
    for item in items:
        return item
    return fallback


def scaled[N: (int, float)](x: N, factor: N = 2) -> N:
    return x * factor
"""


@needs_312
@pytest.mark.parametrize("items, fallback", [((3, 4), 0), ((), 7), ((1.5,), 0.0)])
def test_generic_functions_compile_as_plain_ones(tmp_path, items, fallback):
    # The type parameters are annotations only: Python runs the body as a plain function's.
    module = module_of(tmp_path, GENERIC_SOURCE, "generic_functions")
    before = live_blocks()
    assert_same(njit(module.first), items, fallback)
    assert live_blocks() == before
    assert_same(njit(module.scaled), 3)
    assert_same(njit(module.scaled), 1.25, 4.0)


FSTRING_SOURCE = """
def quoted(name, x):
    return f"{name + "!"}={x:8.3f}|{f"{x!r}"}|{'a' if x > 0 else "b"}|{f"{f"{name}"}"}"


def multiline(x):
    return f"{
        x  # a comment inside a replacement field
        + 1
    }"
"""


@needs_312
@pytest.mark.parametrize("x", [1.0, -2.5, 1e-9])
def test_pep701_fstrings_give_cpythons_text(tmp_path, x):
    module = module_of(tmp_path, FSTRING_SOURCE, "pep701_fstrings")
    assert_same(njit(module.quoted), "k", x)
    assert_same(njit(module.multiline), x)


def comprehension_reads_later_local(n):
    if n > 5:
        later = 1
    return [later + i for i in range(n)]


def generator_reads_later_local(n):
    if n > 5:
        later = 1
    return sum(later + i for i in range(n))


@pytest.mark.parametrize("function", [comprehension_reads_later_local, generator_reads_later_local])
def test_unassigned_read_in_a_comprehension_raises_as_this_python(function):
    # A list comprehension is its own scope before 3.12 (NameError naming a free variable) and
    # inlined from 3.12 on (UnboundLocalError); a generator expression is a scope in each.
    compiled = njit(function)
    for n in (0, 3, 7):
        assert_same(compiled, n)


DOCSTRING_SOURCE = '''
def documented(x):
    """A docstring whose lines are indented.

        Python 3.13 strips this indentation from the code's constant.
    """

    def inner(y):
        """Inner docstring.
            Indented too."""
        return y + 1

    return inner(x) * 2
'''


def test_functions_with_indented_docstrings_compile(tmp_path):
    module = module_of(tmp_path, DOCSTRING_SOURCE, "docstrings")
    assert_same(njit(module.documented), 4)


def debug_info_warnings(function):
    """The DebugInfoWarnings compiling ``function`` with debug=True gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert njit(debug=True)(function)() == 1
    return [w for w in caught if issubclass(w.category, DebugInfoWarning)]


def test_debug_warning_when_linecache_holds_another_string_text():
    # Python 3.13 keeps the text of `python -c` in linecache as "<string>", the name exec gives
    # every text it runs (so every pytest-xdist worker has it): that text is not the function's.
    namespace = {}
    exec("def made():\n    return 1\n", {}, namespace)  # noqa: S102
    saved = linecache.cache.get("<string>")
    text = "import sys;exec(eval(sys.stdin.readline()))\n"
    linecache.cache["<string>"] = (len(text), None, [text], "<string>")
    try:
        assert len(debug_info_warnings(namespace["made"])) == 1
    finally:
        if saved is None:
            linecache.cache.pop("<string>", None)
        else:
            linecache.cache["<string>"] = saved


COMMAND_LINE_PROGRAM = """
import warnings
from taipan import njit
from taipan.errors import DebugInfoWarning
warnings.simplefilter("always")
def direct():
    return 1
namespace = {}
exec("def made():\\n    return 1\\n", {}, namespace)
for function in (direct, namespace["made"]):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert njit(debug=True)(function)() == 1
    print(function.__name__, sum(issubclass(w.category, DebugInfoWarning) for w in caught))
"""


def test_debug_warning_in_a_command_line_program(tmp_path):
    # A function the -c text defines is shown by debuggers only where linecache holds that text
    # (Python 3.13 on); one built by exec inside it never is.
    environment = dict(os.environ, PYTHONPATH=child_python_path())
    result = subprocess.run(
        [sys.executable, "-c", COMMAND_LINE_PROGRAM],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    direct_warnings = 0 if sys.version_info >= (3, 13) else 1
    assert result.stdout.split() == ["direct", str(direct_warnings), "made", "1"], result.stdout
