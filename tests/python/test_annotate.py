"""inspect_types(pretty=True), the HTML annotation (taipan.annotate), ``python -m taipan annotate``
and ``python -m taipan``: the source with each line's types, prange loops and vectorized loops."""

import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from child_processes import child_environment
from test_config import read_page

import taipan
from taipan import annotate, config, prange
from taipan.errors import ParallelSafetyWarning
from taipan.frontend import source_lines


@taipan.njit(parallel=True)
def scaled_total(a, factor):
    s = 0.0
    for i in prange(a.shape[0]):
        x = a[i] * factor  # a comment
        s += x
    # a comment line

    return s


@taipan.njit(parallel=True)
def serial_prange(a):
    s = 0.0
    for i in prange(a.shape[0]):
        a[i] = s
        s = a[i] + 1.0
    return s


@taipan.njit
def double_into(a, b):
    for i in range(a.shape[0]):
        b[i] = a[i] * 2.0


@taipan.njit(parallel=True)
def parallel_double(a, b):
    for i in prange(a.shape[0]):
        b[i] = a[i] * 2.0


@pytest.fixture(scope="module")
def compiled():
    scaled_total(np.arange(10.0), 2.0)
    scaled_total(np.arange(10, dtype=np.float32), 2.0)
    with pytest.warns(ParallelSafetyWarning):
        serial_prange(np.zeros(4))
    double_into(np.arange(64.0), np.empty(64))
    parallel_double(np.arange(64.0), np.empty(64))


def lines_of(annotation):
    return {line.text.strip(): line for line in annotation.lines}


def test_pretty_returns_an_annotation_with_one_part_per_signature(compiled):
    annotation = scaled_total.inspect_types(pretty=True)
    assert isinstance(annotation, annotate.Annotation)
    assert [part.title for part in annotation.annotations] == [
        "scaled_total(array(float64, 1d, C), float64) -> float64",
        "scaled_total(array(float32, 1d, C), float64) -> float64",
    ]
    one = scaled_total.inspect_types(pretty=True, signature=scaled_total.signatures[1])
    assert [part.title for part in one.annotations] == [annotation.annotations[1].title]


def test_pretty_text_lists_each_source_line_with_its_types(compiled):
    text = str(scaled_total.inspect_types(pretty=True, signature=scaled_total.signatures[0]))
    assert (
        repr(scaled_total.inspect_types(pretty=True, signature=scaled_total.signatures[0])) == text
    )
    lines = text.splitlines()
    assert lines[0] == "scaled_total(array(float64, 1d, C), float64) -> float64"
    assert lines[1] == f"File: {__file__}"
    first = scaled_total.py_func.__code__.co_firstlineno  # the decorator's line
    source = source_lines(scaled_total.py_func)[first - 1 : first + 8]  # decorator to return
    # "number | source  # types; loops": every line, the blank and the comment line too.
    assert len(lines) == 3 + len(source)
    for number, (line, text) in enumerate(zip(lines[3:], source), first):
        assert line.startswith(f"{number} | {text.rstrip()}".rstrip())
    listed = dict(zip((text.strip() for text in source), lines[3:]))
    assert listed["def scaled_total(a, factor):"].endswith(
        "# a: array(float64, 1d, C), factor: float64"
    )
    assert listed["s = 0.0"].endswith("# s: float64")
    assert listed["x = a[i] * factor  # a comment"].endswith("# a comment  # x: float64")
    loop = listed["for i in prange(a.shape[0]):"]
    assert "# i: int64; prange loop parallel on the thread pool" in loop
    assert "reductions: s (+=)" in loop
    assert listed["return s"].endswith("| " + source[-1].rstrip())  # no types: no comment


def _annotations(dispatcher, index=0):
    return dispatcher.overloads[dispatcher.signatures[index]].type_annotations


def test_pretty_writes_to_a_file_when_given_one(compiled):
    out = io.StringIO()
    annotation = double_into.inspect_types(pretty=True, file=out)
    assert out.getvalue() == str(annotation) + "\n"


def test_plain_inspect_types_is_unchanged(compiled):
    out = io.StringIO()
    assert double_into.inspect_types(file=out) is None
    assert out.getvalue() == _annotations(double_into) + "\n"


def test_serial_prange_loops_say_why(compiled):
    line = lines_of(serial_prange.inspect_types(pretty=True).annotations[0])[
        "for i in prange(a.shape[0]):"
    ]
    assert [kind for kind, _ in line.notes] == ["serial"]
    assert "runs serially: variable 's'" in line.notes[0][1]


def test_vectorized_loops_are_found_at_their_loop_line(compiled):
    if config.OPT < 2:
        pytest.skip("loops vectorize from TAIPAN_OPT=2")
    lines = lines_of(double_into.inspect_types(pretty=True).annotations[0])
    notes = lines["for i in range(a.shape[0]):"].notes
    assert [kind for kind, _ in notes] == ["vectorized"]
    assert notes[0][1].startswith("loop vectorized by LLVM (<")
    assert "x double>" in notes[0][1]
    assert lines["b[i] = a[i] * 2.0"].notes == ()
    # A prange loop's body is compiled as a function of its own, and vectorized there.
    lines = lines_of(parallel_double.inspect_types(pretty=True).annotations[0])
    notes = lines["for i in prange(a.shape[0]):"].notes
    assert [kind for kind, _ in notes] == ["parallel", "vectorized"]


def test_vectorized_loops_in_ir_reads_loop_metadata():
    ir = textwrap.dedent(
        """\
        define void @taipan_f_0123_entry() !dbg !4 {
        vector.body:
          %1 = load <4 x double>, ptr %0, !dbg !8
          %2 = fadd <4 x double> %1, %1, !dbg !8
          br i1 %c, label %middle.block, label %vector.body, !dbg !8, !llvm.loop !10
        for.body:
          br i1 %d, label %exit, label %for.body, !dbg !8, !llvm.loop !12
        }
        !4 = distinct !DISubprogram(name: "taipan_f_0123_entry", linkageName: "taipan_f_0123_entry", line: 3)
        !5 = distinct !DISubprogram(name: "f", linkageName: "taipan_f_0123", line: 3)
        !6 = !DILocation(line: 3, scope: !4)
        !7 = !DILocation(line: 9, column: 2, scope: !5, inlinedAt: !6)
        !8 = !DILocation(line: 17, scope: !9, inlinedAt: !7)
        !9 = distinct !DISubprogram(name: "g", linkageName: "taipan_g_4567", line: 15)
        !10 = distinct !{!10, !11}
        !11 = !{!"llvm.loop.isvectorized", i32 1}
        !12 = distinct !{!12, !11}
        """
    )
    # The loop of g, inlined into f at line 9: found at the call, in f; the scalar remainder
    # loop (also marked vectorized, so LLVM leaves it alone) is not a vector loop.
    assert annotate.vectorized_loops_in_ir(ir) == [
        {"line": 9, "function": "f", "width": "<4 x double>", "remainder": False}
    ]


def test_html_of_an_annotation(compiled, tmp_path):
    path = tmp_path / "page.html"
    parts = scaled_total.inspect_types(pretty=True).annotations
    annotate.write_html(str(path), parts)
    page = read_page(path)
    assert page.titles == [part.title for part in parts]
    rows = [row for row in page.rows if row["title"] == parts[0].title]
    source = [line.rstrip() for line in source_lines(scaled_total.py_func)]
    first = int(rows[0]["number"])
    assert [row["source"] for row in rows] == source[first - 1 : first - 1 + len(rows)]
    by_source = {row["source"].strip(): row for row in rows}
    assert by_source["s += x"]["types"] == "s: float64"
    assert "parallel" in by_source["for i in prange(a.shape[0]):"]["class"]
    assert path.read_text().startswith("<!DOCTYPE html>")
    assert scaled_total.inspect_types(pretty=True)._repr_html_().startswith("<section")


def run_taipan(arguments, cwd, **variables):
    return subprocess.run(
        [sys.executable, "-m", "taipan", *arguments],
        cwd=cwd,
        env=child_environment(settings="none", **variables),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


SCRIPT = """
import sys
import numpy as np
from taipan import njit, prange

@njit(parallel=True)
def total(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * 2.0
    return s

@njit
def scale(a, b):
    for i in range(a.shape[0]):
        b[i] = a[i] * 3.0

print(total(np.arange(4.0)), sys.argv[1:])
scale(np.arange(4.0), np.empty(4))
sys.exit(int(sys.argv[-1]) if sys.argv[-1].isdigit() else 0)
"""


def test_python_m_taipan_annotate(tmp_path):
    (tmp_path / "program.py").write_text(SCRIPT)
    result = run_taipan(
        ["annotate", "program.py", "-o", "out/page.html", "x", "--", "-o"], tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["12.0 ['x', '-o']"]
    assert "wrote 2 compiled function(s) to out/page.html" in result.stderr
    page = read_page(tmp_path / "out" / "page.html")
    assert page.titles == [
        "total(array(float64, 1d, C)) -> float64",
        "scale(array(float64, 1d, C), array(float64, 1d, C)) -> none",
    ]
    rows = {(row["title"][:5], row["source"].strip()): row for row in page.rows}
    assert rows[("total", "s += a[i] * 2.0")]["types"] == "s: float64"
    assert rows[("total", "s += a[i] * 2.0")]["number"] == "10"
    assert "prange loop parallel" in rows[("total", "for i in prange(a.shape[0]):")]["loops"]
    assert rows[("scale", "def scale(a, b):")]["types"] == (
        "a: array(float64, 1d, C)b: array(float64, 1d, C)"
    )
    assert "vectorized by LLVM" in rows[("scale", "for i in range(a.shape[0]):")]["loops"]


def test_python_m_taipan_annotate_default_output_and_exit_status(tmp_path):
    (tmp_path / "program.py").write_text(SCRIPT)
    result = run_taipan(["annotate", "program.py", "3"], tmp_path)
    assert result.returncode == 3  # the script's sys.exit status
    assert len(read_page(tmp_path / "program.html").titles) == 2


def test_python_m_taipan_prints_system_information(tmp_path):
    result = run_taipan([], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for label in ("taipan version", "LLVM", "Host CPU", "CUDA", "Cache directory"):
        assert f"\n{label}" in out
    assert "__pycache__ beside each function's source file" in out
    threads = taipan.config.NUM_THREADS
    assert f"Threading layer   : taipan's own thread pool, {threads} threads" in out
    for option in config.OPTIONS:
        assert f"  {option.attribute:<21}: " in out
    assert "OPT                  : 3 (default; set with TAIPAN_OPT)" in out


def test_python_m_taipan_shows_the_environment(tmp_path):
    cache = os.path.join(str(tmp_path), "cache")
    result = run_taipan([], tmp_path, NUMBA_CACHE_DIR=cache, TAIPAN_NUM_THREADS="2")
    assert f"Cache directory   : {cache} (NUMBA_CACHE_DIR)" in result.stdout
    assert "taipan's own thread pool, 2 threads (TAIPAN_NUM_THREADS)" in result.stdout
    assert f"CACHE_DIR            : {cache!r} (from NUMBA_CACHE_DIR)" in result.stdout


def test_python_m_taipan_rejects_unknown_commands_and_missing_scripts(tmp_path):
    result = run_taipan(["frobnicate"], tmp_path)
    assert result.returncode == 2 and "usage: python -m taipan" in result.stderr
    result = run_taipan(["annotate", "missing.py"], tmp_path)
    assert result.returncode == 2 and "no such file: missing.py" in result.stderr
    assert not list(tmp_path.iterdir())


def test_pretty_inspect_types_of_a_cuda_kernel():
    from taipan import cuda, float32, void

    @cuda.jit(void(float32[:]))  # compiles to PTX at once: no GPU needed
    def fill(a):
        i = cuda.grid(1)
        a[i] = i * 2.0

    annotation = fill.inspect_types(pretty=True)
    assert [part.title for part in annotation.annotations] == [
        "test_pretty_inspect_types_of_a_cuda_kernel.<locals>.fill(array(float32, 1d, A)) -> none"
    ]
    listed = lines_of(annotation.annotations[0])
    assert listed["i = cuda.grid(1)"].variables == (annotate.Variable("i", "int64"),)
    assert listed["def fill(a):"].variables == (annotate.Variable("a", "array(float32, 1d, A)"),)


def test_ufunc_loops_report_their_vectorized_loops():
    previous = annotate._recording
    annotate.start_recording()
    try:

        @taipan.vectorize(["float64(float64, float64)"])
        def scaled(x, y):
            return x * 2.0 + y

        notes = [str(note) for part in annotate.recorded() for note in _all_notes(part)]
    finally:
        annotate._recording = previous
    assert any("vectorized by LLVM" in note and "x double>" in note for note in notes), notes


def _all_notes(part):
    return [note for line in part.lines for note in line.notes] + list(part.other_notes)
