"""Environment variables, read once when taipan is imported (taipan.config): each TAIPAN_ name,
Numba's name as an alias, the TAIPAN_ name winning when both are set, and their effects:
boundscheck, the optimisation level, the cache directory, threads, the annotation dumps and the
CUDA simulator switch. Each case runs a fresh interpreter with the variables set."""

import html.parser
import json
import os
import re
import textwrap

import pytest
from child_processes import child_environment, run_python

from taipan import config


def run(code, tmp_path, **variables):
    """Runs ``code`` as a script in tmp_path with only these TAIPAN_/NUMBA_ variables set;
    returns the process."""
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(code))
    env = child_environment(settings="none", **variables)
    return run_python([script], cwd=tmp_path, env=env)


READ_CONFIG = """
import json
from taipan import config
print(json.dumps({option.attribute: getattr(config, option.attribute)
                  for option in config.OPTIONS}))
print(json.dumps(config.SOURCES))
"""


def read_config(tmp_path, **variables):
    """(the values of every option, config.SOURCES) in a process with these variables."""
    lines = run(READ_CONFIG, tmp_path, **variables).stdout.splitlines()
    return json.loads(lines[-2]), json.loads(lines[-1])


def test_the_table_names_every_attribute_once():
    attributes = [option.attribute for option in config.OPTIONS]
    assert len(attributes) == len(set(attributes))
    names = [name for option in config.OPTIONS for name in (option.variable, *option.aliases)]
    assert len(names) == len(set(names))
    for option in config.OPTIONS:
        assert option.variable.startswith("TAIPAN_")
        assert hasattr(config, option.attribute)
        assert option.description


def test_defaults(tmp_path):
    values, sources = read_config(tmp_path)
    expected = {option.attribute: option.default for option in config.OPTIONS}
    expected["NUM_THREADS"] = values["NUM_THREADS"]  # the pool's count: every hardware thread
    assert values == expected
    assert values["NUM_THREADS"] >= 1
    assert sources == {}


# (attribute, variable, text, value): every TAIPAN_ name and every alias.
CASES = [
    ("DISABLE_JIT", "TAIPAN_DISABLE_JIT", "1", True),
    ("DISABLE_JIT", "NUMBA_DISABLE_JIT", "1", True),
    ("BOUNDSCHECK", "TAIPAN_BOUNDSCHECK", "1", True),
    ("BOUNDSCHECK", "NUMBA_BOUNDSCHECK", "0", False),
    ("OPT", "TAIPAN_OPT", "1", 1),
    ("OPT", "NUMBA_OPT", "0", 0),
    ("OPT", "NUMBA_OPT", "max", 3),
    ("NUM_THREADS", "TAIPAN_NUM_THREADS", "3", 3),
    ("NUM_THREADS", "NUMBA_NUM_THREADS", "2", 2),
    ("TIMING", "TAIPAN_TIMING", "yes", True),
    ("DUMP_ANNOTATION", "TAIPAN_DUMP_ANNOTATION", "1", True),
    ("DUMP_ANNOTATION", "TAIPAN_DEBUG_TYPEINFER", "1", True),
    ("DUMP_ANNOTATION", "NUMBA_DUMP_ANNOTATION", "1", True),
    ("DUMP_ANNOTATION", "NUMBA_DEBUG_TYPEINFER", "1", True),
    ("PARALLEL_DIAGNOSTICS", "TAIPAN_PARALLEL_DIAGNOSTICS", "3", 3),
    ("PARALLEL_DIAGNOSTICS", "NUMBA_PARALLEL_DIAGNOSTICS", "4", 4),
    ("ENABLE_CUDASIM", "TAIPAN_ENABLE_CUDASIM", "1", True),
    ("ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM", "1", True),
]


@pytest.mark.parametrize(("attribute", "variable", "text", "value"), CASES)
def test_each_variable_and_alias(tmp_path, attribute, variable, text, value):
    values, sources = read_config(tmp_path, **{variable: text})
    assert values[attribute] == value
    assert sources == {attribute: variable}


@pytest.mark.parametrize(
    ("attribute", "variable", "alias"),
    [("CACHE_DIR", "TAIPAN_CACHE_DIR", "NUMBA_CACHE_DIR"),
     ("ANNOTATE_HTML", "TAIPAN_ANNOTATE_HTML", "NUMBA_DUMP_HTML")],
)  # fmt: skip
def test_paths_are_made_absolute(tmp_path, attribute, variable, alias):
    for name in (variable, alias):
        values, sources = read_config(tmp_path, **{name: "relative/place"})
        assert values[attribute] == os.path.join(str(tmp_path), "relative", "place")
        assert sources == {attribute: name}


def test_taipan_names_win_over_numba_aliases_even_when_zero(tmp_path):
    values, sources = read_config(
        tmp_path,
        TAIPAN_DISABLE_JIT="0",
        NUMBA_DISABLE_JIT="1",
        TAIPAN_OPT="2",
        NUMBA_OPT="0",
        TAIPAN_NUM_THREADS="2",
        NUMBA_NUM_THREADS="1",
    )
    assert (values["DISABLE_JIT"], values["OPT"], values["NUM_THREADS"]) == (False, 2, 2)
    assert sources == {
        "DISABLE_JIT": "TAIPAN_DISABLE_JIT",
        "OPT": "TAIPAN_OPT",
        "NUM_THREADS": "TAIPAN_NUM_THREADS",
    }


def test_an_empty_variable_is_unset(tmp_path):
    values, sources = read_config(
        tmp_path, TAIPAN_BOUNDSCHECK="", TAIPAN_NUM_THREADS="", NUMBA_NUM_THREADS="1"
    )
    assert values["BOUNDSCHECK"] is None
    assert values["NUM_THREADS"] == 1  # the thread pool also went on to NUMBA_NUM_THREADS
    assert sources == {"NUM_THREADS": "NUMBA_NUM_THREADS"}


def test_a_value_not_understood_warns_and_keeps_the_default(tmp_path):
    result = run(
        READ_CONFIG, tmp_path, TAIPAN_OPT="fast", NUMBA_PARALLEL_DIAGNOSTICS="9", TAIPAN_TIMING="1"
    )
    values = json.loads(result.stdout.splitlines()[-2])
    assert values["OPT"] == 3 and values["PARALLEL_DIAGNOSTICS"] == 0 and values["TIMING"]
    assert "RuntimeWarning: taipan: TAIPAN_OPT='fast' is not understood" in result.stderr
    assert "NUMBA_PARALLEL_DIAGNOSTICS='9'" in result.stderr


def test_variables_are_read_once_at_import(tmp_path):
    result = run(
        """
        import os
        from taipan import config
        os.environ["TAIPAN_OPT"] = "0"
        os.environ["TAIPAN_BOUNDSCHECK"] = "1"
        import taipan
        print(config.OPT, config.BOUNDSCHECK)
        """,
        tmp_path,
    )
    assert result.stdout.split() == ["3", "None"]


BOUNDSCHECK_SCRIPT = """
import numpy as np
from taipan import njit

def get(a, i):
    return a[i]

checked = njit(boundscheck=True)(get)
unchecked = njit(boundscheck=False)(get)
default = njit(get)
a = np.arange(10.0)[:3]  # a[3] is past the view's end, but inside its base: safe to read
for f in (checked, unchecked, default):
    try:
        f(a, 3)
        print("no-error")
    except IndexError:
        print("IndexError")
hashes = [f.overloads[f.signatures[0]].hash for f in (checked, unchecked, default)]
print(hashes[0] == hashes[2], hashes[1] == hashes[2])
"""


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({}, ["IndexError", "no-error", "no-error", "False", "True"]),  # boundscheck= decides
        ({"TAIPAN_BOUNDSCHECK": "1"}, ["IndexError"] * 3 + ["True", "True"]),
        ({"NUMBA_BOUNDSCHECK": "1"}, ["IndexError"] * 3 + ["True", "True"]),
        ({"TAIPAN_BOUNDSCHECK": "0"}, ["no-error"] * 3 + ["True", "True"]),
        (
            {"TAIPAN_BOUNDSCHECK": "0", "NUMBA_BOUNDSCHECK": "1"},
            ["no-error"] * 3 + ["True", "True"],
        ),
    ],
)
def test_boundscheck_variable_overrides_the_option(tmp_path, variables, expected):
    """As NUMBA_BOUNDSCHECK: unset, each function's boundscheck= (default off) decides; 0 or 1
    turns checks off or on for every function."""
    assert run(BOUNDSCHECK_SCRIPT, tmp_path, **variables).stdout.split() == expected


OPT_SCRIPT = """
import numpy as np
from taipan import njit, vectorize

@njit
def double(a, b):
    for i in range(a.shape[0]):
        b[i] = a[i] * 2.0

a = np.arange(100.0)
b = np.empty(100)
double(a, b)
assert (b == a * 2).all()
key = double.signatures[0]
print("vector.body:" in double.inspect_llvm(key), double.overloads[key].hash)
"""


@pytest.mark.parametrize(
    ("variables", "vectorized"),
    [
        ({}, True),
        ({"TAIPAN_OPT": "3"}, True),
        ({"TAIPAN_OPT": "2"}, True),
        ({"TAIPAN_OPT": "1"}, False),
        ({"NUMBA_OPT": "0"}, False),
        ({"TAIPAN_OPT": "0", "NUMBA_OPT": "3"}, False),
    ],
)
def test_opt_variable_sets_the_optimisation_level(tmp_path, variables, vectorized):
    result = run(OPT_SCRIPT, tmp_path, **variables)
    assert result.stdout.split()[0] == str(vectorized)


def test_each_optimisation_level_has_its_own_job_hash(tmp_path):
    # The disk cache is keyed by the job hash: code of one level is never loaded for another.
    hashes = {
        level: run(OPT_SCRIPT, tmp_path, TAIPAN_OPT=level).stdout.split()[1] for level in "0123"
    }
    assert len(set(hashes.values())) == 4
    assert run(OPT_SCRIPT, tmp_path).stdout.split()[1] == hashes["3"]


LEVELS_SCRIPT = """
import math
import numpy as np
from taipan import njit

@njit
def arithmetic(a, b, x, y):
    return (a // 7, a % 7, a // b, a % b, a * b, x / y, x // y, x % y, math.copysign(1.0, x * y),
            min(x, y), max(x, y), abs(x), x ** 2, int(a > b))

@njit
def scaled(values, factor):
    out = np.empty_like(values)
    total = 0.0
    for i in range(values.shape[0]):
        out[i] = values[i] * factor
        total += out[i]
    return out, total

@njit
def divide(a, b):
    return a // b

ints = [0, 1, -1, 7, -7, 13, -13, 2**62, -(2**63), 2**63 - 1]
floats = [0.0, -0.0, 1.5, -2.25, math.inf, -math.inf, math.nan, 1e308, 5e-324]
for a in ints:
    for b in ints:
        if b == 0:
            continue
        for x, y in zip(floats, floats[::-1]):
            if y == 0.0:
                continue
            got = arithmetic(a, b, x, y)
            want = arithmetic.py_func(a, b, x, y)
            want = tuple(w if not isinstance(w, int) or -(2**63) <= w < 2**63
                         else (w + 2**63) % 2**64 - 2**63 for w in want)
            assert all(g == w or (g != g and w != w) for g, w in zip(got, want)), (a, b, x, y)
values = np.linspace(-3.0, 3.0, 1001)[::3]
out, total = scaled(values, -0.5)
assert (out == values * -0.5).all() and total == sum(values * -0.5)
try:
    divide(1, 0)
except ZeroDivisionError as error:
    print("raised", type(error).__name__)
asm = list(divide.inspect_asm().values())[0] + list(arithmetic.inspect_asm().values())[0]
print("idiv-by-constant", asm.count("idiv"))
"""


@pytest.mark.parametrize("level", ["0", "1", "2", "3"])
def test_each_level_generates_code_that_computes_what_python_does(tmp_path, level):
    # Code generation follows the level too, as NUMBA_OPT sets llvmlite's target machine: at 0
    # instruction selection is FastISel (fast to compile; it divides by constants with idiv).
    words = run(LEVELS_SCRIPT, tmp_path, TAIPAN_OPT=level).stdout.split()
    assert words[:2] == ["raised", "ZeroDivisionError"]
    idivs = int(words[-1])
    # a // b and a % b (runtime divisors) always divide; only level 0 also divides by the
    # constant 7 rather than multiplying by its inverse.
    if level == "0":
        assert idivs > 2
    else:
        assert idivs <= 2


def test_numba_cache_dir_alias(tmp_path):
    cache = tmp_path / "cache"
    run(
        """
        from taipan import njit

        @njit(cache=True)
        def add(a, b):
            return a + b

        assert add(1, 2) == 3
        """,
        tmp_path,
        NUMBA_CACHE_DIR=str(cache),
    )
    assert [name for name in os.listdir(cache) if name.endswith(".taipan")]


THREADS_SCRIPT = """
import taipan
print(taipan.config.NUM_THREADS, taipan.config.NUMBA_NUM_THREADS, taipan.get_num_threads())
"""


@pytest.mark.parametrize("variable", ["TAIPAN_NUM_THREADS", "NUMBA_NUM_THREADS"])
def test_num_threads(tmp_path, variable):
    assert run(THREADS_SCRIPT, tmp_path, **{variable: "3"}).stdout.split() == ["3", "3", "3"]


COMPILE_SCRIPT = """
import numpy as np
from taipan import njit, prange, vectorize

@njit(parallel=True)
def total(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s

@vectorize(["float64(float64)"])
def square(x):
    return x * x

print(total(np.arange(10.0)), square(3.0))
"""


@pytest.mark.parametrize(
    "variable",
    ["TAIPAN_DUMP_ANNOTATION", "TAIPAN_DEBUG_TYPEINFER", "NUMBA_DUMP_ANNOTATION"],
)
def test_dump_annotation_prints_types_as_functions_compile(tmp_path, variable):
    result = run(COMPILE_SCRIPT, tmp_path, **{variable: "1"})
    assert result.stdout.split() == ["45.0", "9.0"]
    assert "total (array(float64, 1d, C)) -> float64" in result.stderr
    assert "#   s  :: float64" in result.stderr
    assert "square (float64) -> float64" in result.stderr
    assert "x = arg(0, name=x)  :: float64" in result.stderr


@pytest.mark.parametrize("variable", ["TAIPAN_DUMP_LLVM", "NUMBA_DUMP_LLVM"])
def test_dump_llvm_prints_the_ir_as_functions_compile(tmp_path, variable):
    result = run(COMPILE_SCRIPT, tmp_path, **{variable: "1"})
    assert result.stdout.split()[-2:] == ["45.0", "9.0"]
    assert re.search(r"--LLVM DUMP total\(array\(float64, 1d, C\)\)--+\n", result.stdout)
    assert "define " in result.stdout and "\n" + "=" * 80 + "\n" in result.stdout
    assert result.stderr == ""


def test_no_dumps_by_default(tmp_path):
    result = run(COMPILE_SCRIPT, tmp_path)
    assert result.stderr == ""
    assert not list(tmp_path.glob("*.html"))


def test_parallel_diagnostics_variable(tmp_path):
    result = run(COMPILE_SCRIPT, tmp_path, NUMBA_PARALLEL_DIAGNOSTICS="2")
    assert "Parallel loops of total(array(float64, 1d, C))" in result.stderr
    assert "reductions: s (+=)" in result.stderr
    assert "shared: a" in result.stderr  # level 2


class TableReader(html.parser.HTMLParser):
    """The rows of an annotation page: [(section title, line, source, types, loops)]."""

    def __init__(self):
        super().__init__()
        self.rows, self.titles = [], []
        self._cell = None
        self._row = None

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        if tag == "h2":
            self._cell = "title"
            self.titles.append("")
        elif tag == "tr" and "data-line" in attributes:
            self._row = {"title": self.titles[-1], "class": attributes.get("class", "")}
        elif tag == "td" and self._row is not None:
            self._cell = attributes["class"]
            self._row[self._cell] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "h2"):
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell == "title":
            self.titles[-1] += data
        elif self._cell and self._row is not None:
            self._row[self._cell] += data


def read_page(path):
    reader = TableReader()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader


@pytest.mark.parametrize("variable", ["TAIPAN_ANNOTATE_HTML", "NUMBA_DUMP_HTML"])
def test_annotate_html_variable_writes_every_function_compiled(tmp_path, variable):
    run(COMPILE_SCRIPT, tmp_path, **{variable: "out/annotation.html"})
    page = read_page(tmp_path / "out" / "annotation.html")
    assert page.titles == [  # in the order they compiled: square's signature compiles it at once
        "square(float64) -> float64",
        "total(array(float64, 1d, C)) -> float64",
    ]
    rows = {(row["title"].split("(")[0], row["source"].strip()): row for row in page.rows}
    loop = rows[("total", "for i in prange(a.shape[0]):")]
    assert loop["types"] == "i: int64"
    assert "parallel" in loop["class"] and "prange loop parallel" in loop["loops"]
    assert rows[("total", "s += a[i]")]["types"] == "s: float64"
    assert rows[("total", "def total(a):")]["types"] == "a: array(float64, 1d, C)"
    assert rows[("square", "def square(x):")]["types"] == "x: float64"
    assert int(rows[("square", "return x * x")]["number"]) == 14  # the line in the file


def test_enable_cudasim_runs_kernels_in_the_simulator(tmp_path):
    script = """
    import numpy as np
    from taipan import config, cuda

    @cuda.jit
    def kernel(a):
        a[cuda.grid(1)] = cuda.threadIdx.x

    print(type(kernel).__module__)
    if config.ENABLE_CUDASIM:
        a = np.zeros(4)
        kernel[1, 4](a)
        print("ran:", a.tolist())
    print(config.ENABLE_CUDASIM)
    """
    result = run(script, tmp_path, NUMBA_ENABLE_CUDASIM="1")
    assert result.stdout.split("\n")[0] == "taipan.cuda.simulator.launch"
    assert "ran: [0.0, 1.0, 2.0, 3.0]" in result.stdout
    assert result.stdout.split()[-1] == "True"
    # TAIPAN_ENABLE_CUDASIM=0 wins over Numba's variable: kernels are compiled for the GPU.
    result = run(script, tmp_path, NUMBA_ENABLE_CUDASIM="1", TAIPAN_ENABLE_CUDASIM="0")
    assert result.stdout.split() == ["taipan.cuda.dispatcher", "False"]
