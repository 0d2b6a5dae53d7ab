"""Annotated source of compiled functions: each line of a function with the types of the
variables it assigns, and the loops that run in parallel (prange, from the compiler's report)
or that LLVM vectorized (read from the optimised IR of a compilation with line information).

``inspect_types(pretty=True)`` shows it as text (or HTML in a notebook), TAIPAN_ANNOTATE_HTML
rewrites an HTML file of every function compiled after each compilation, and
``python -m taipan annotate script.py`` writes the HTML of every function a script compiled.
"""

import html
import os
import re
import sys
import threading
import warnings
from typing import NamedTuple


class Variable(NamedTuple):
    name: str
    type: str


class Line(NamedTuple):
    number: int  # in the file
    text: str
    variables: tuple  # Variables assigned on the line (parameters on the def line)
    notes: tuple  # ("parallel" | "serial" | "vectorized", text), for the line's loops


class FunctionAnnotation:
    """One compiled specialisation: ``name``, ``signature`` (argument types), ``return_type``,
    ``filename``, ``lines`` (Line tuples) and ``other_notes`` (loops of inlined callees)."""

    def __init__(self, qualname, type_annotations, parallel_loops=(), vectorized_loops=None):
        self.qualname = qualname
        self.name, self.signature, self.return_type, self.filename, lines = _parse_annotations(
            type_annotations
        )
        notes, self.other_notes = _loop_notes(
            self.name, self.filename, parallel_loops, vectorized_loops or (), lines
        )
        self.lines = tuple(
            Line(number, text, variables, tuple(notes.get(number, ())))
            for number, text, variables in lines
        )

    @property
    def title(self):
        return f"{self.qualname}{self.signature} -> {self.return_type}"

    def text(self):
        """The source with each line's types in a comment to its right, and loop notes."""
        width = max((len(line.text.rstrip()) for line in self.lines), default=0)
        width = min(width, 72)
        digits = len(str(self.lines[-1].number)) if self.lines else 1
        out = [self.title, f"File: {self.filename}", "-" * 80]
        for line in self.lines:
            source = line.text.rstrip()
            comments = [", ".join(f"{v.name}: {v.type}" for v in line.variables)]
            comments += [text for _, text in line.notes]
            comment = "; ".join(c for c in comments if c)
            if comment:
                source = f"{source:<{width}}  # {comment}"
            out.append(f"{line.number:>{digits}} | {source}".rstrip())
        out += [f"  {text}" for _, text in self.other_notes]
        return "\n".join(out)

    def html(self):
        """An HTML fragment: a heading and a table of line number, source, types and loops."""
        rows = []
        for line in self.lines:
            kinds = " ".join(sorted({kind for kind, _ in line.notes}))
            types = "<br>".join(
                f"<span class='var'>{html.escape(v.name)}</span>: "
                f"<span class='type'>{html.escape(v.type)}</span>"
                for v in line.variables
            )
            notes = "<br>".join(
                f"<span class='{kind}'>{html.escape(text)}</span>" for kind, text in line.notes
            )
            rows.append(
                f"<tr class='{kinds}' data-line='{line.number}'>"
                f"<td class='number'>{line.number}</td>"
                f"<td class='source'><pre>{html.escape(line.text.rstrip())}</pre></td>"
                f"<td class='types'>{types}</td><td class='loops'>{notes}</td></tr>"
            )
        other = "".join(
            f"<li class='{kind}'>{html.escape(text)}</li>" for kind, text in self.other_notes
        )
        return (
            f"<section class='function'><h2>{html.escape(self.title)}</h2>"
            f"<p class='file'>{html.escape(self.filename)}</p>"
            "<table><thead><tr><th>line</th><th>source</th><th>types</th><th>loops</th></tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table>"
            + (f"<ul class='other'>{other}</ul>" if other else "")
            + "</section>"
        )


def _parse_annotations(text):
    """(name, "(argument types)", return type, filename, [(line, source, variables)]) from the
    compiler's type annotations (inspect_types' text): a header, then for each source line
    ``# --- LINE n ---``, its ``#   name  :: type`` lines, a blank line, the source line and
    another blank line."""
    lines = text.split("\n")
    header = re.match(r"(\S+) (\(.*\)) -> (.*)$", lines[0])
    name, signature, return_type = header.groups() if header else (lines[0], "()", "?")
    filename = ""
    result = []
    index = 1
    while index < len(lines):
        line = lines[index]
        if line.startswith("# File: ") and not filename:
            filename = line[len("# File: ") :]
        marker = re.match(r"# --- LINE (\d+) --- ?$", line)
        if not marker:
            index += 1
            continue
        index += 1
        variables = []
        while index < len(lines) and lines[index].startswith("#   "):
            entry = lines[index][4:]
            assigned, _, type_name = entry.rpartition("  :: ")
            variables.append(Variable(assigned.split(" = arg(")[0].strip(), type_name))
            index += 1
        index += 1  # the blank line before the source line
        source = lines[index] if index < len(lines) else ""
        result.append((int(marker.group(1)), source, tuple(variables)))
        index += 2  # the source line and the blank line after it
    return name, signature, return_type, filename, result


def _loop_notes(name, filename, parallel_loops, vectorized_loops, lines):
    """({line: [(kind, text)]}, [(kind, text)] for loops outside the function's lines)."""
    numbers = {number for number, _, _ in lines}
    loop_spans = _loop_spans(lines)
    notes, other = {}, []

    def add(kind, text, line, function):
        if line in numbers and function == name:
            notes.setdefault(line, []).append((kind, text))
        else:
            other.append((kind, f"{text} (in {function}, line {line})"))

    for loop in parallel_loops:
        if loop["parallel"]:
            details = [f"reductions: {', '.join(loop['reductions'])}"] if loop["reductions"] else []
            if loop["privates"]:
                details.append(f"private: {', '.join(loop['privates'])}")
            text = "prange loop parallel on the thread pool"
            add("parallel", text + (f" ({'; '.join(details)})" if details else ""), *_at(loop))
        else:
            add("serial", f"prange loop runs serially: {loop['reason']}", *_at(loop))
    widths = {}  # {(line, function): ([main loops' widths], [remainder loops' widths])}
    for loop in vectorized_loops:
        where = (_enclosing_loop(loop_spans, loop["line"]), loop["function"])
        widths.setdefault(where, ([], []))[loop["remainder"]].append(loop["width"])
    for (line, function), (main, remainder) in widths.items():
        if any(main):
            text = f"loop vectorized by LLVM ({', '.join(w for w in main if w)}"
            text += f"; remainder {', '.join(remainder)})" if any(remainder) else ")"
        else:
            text = "loop interleaved by LLVM (not widened)"
        add("vectorized", text, line, function)
    return notes, other


def _loop_spans(lines):
    """[(first line, last line)] of the for and while loops of the function's source."""
    import ast
    import textwrap

    from taipan import source_texts

    if not lines:
        return []
    first = lines[0][0]
    text = textwrap.dedent("\n".join(source for _, source, _ in lines))
    try:
        tree = source_texts.parse(text)
    except SyntaxError:
        return []
    return [
        (node.lineno + first - 1, node.end_lineno + first - 1)
        for node in ast.walk(tree)
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor))
    ]


def _enclosing_loop(spans, line):
    """The first line of the innermost loop holding ``line`` (``line`` itself when none does)."""
    holding = [start for start, end in spans if start <= line <= end]
    return max(holding) if holding else line


def _at(loop):
    return loop["line"], loop["function"]


# Vectorized loops in the optimised IR.

_METADATA = re.compile(r"^!(\d+) = (?:distinct )?(.*)$")
_VECTOR_TYPE = re.compile(r"<(\d+) x ([\w.]+)>")


def vectorized_loops_in_ir(ir):
    """The loops LLVM's loop vectorizer widened, from IR compiled with line information:
    [{"line", "function", "width", "remainder"}]. ``line`` is the last source line the vector
    loop's body holds code of, in the outermost function it was inlined into (the one compiled,
    or its prange body), ``width`` the widest vector type in the body, such as "<4 x double>"
    ("" when the loop was only interleaved), and ``remainder`` whether this is the narrower
    vector loop LLVM adds for the iterations the main one leaves."""
    lines = ir.splitlines()
    metadata = {}
    for line in lines:
        found = _METADATA.match(line)
        if found:
            metadata[found.group(1)] = found.group(2)
    flags = {key for key, value in metadata.items() if '!"llvm.loop.isvectorized"' in value}
    vectorized = {
        key
        for key, value in metadata.items()
        if value.startswith("!{") and _references(value) & {f"!{flag}" for flag in flags}
    }
    loops = []
    block, widest, places = None, None, []
    for line in lines:
        label = re.match(r"^([\w.]+):", line)
        if label:
            block, widest, places = label.group(1), None, []
            continue
        if not block or "vector.body" not in block:
            continue
        for lanes, element in _VECTOR_TYPE.findall(line):
            if widest is None or int(lanes) > widest[0]:
                widest = (int(lanes), element)
        location = re.search(r"!dbg !(\d+)", line)
        place = _outermost_location(metadata, location.group(1)) if location else None
        if place is not None:
            places.append(place)
        loop = re.search(r"!llvm\.loop !(\d+)", line)
        if loop and loop.group(1) in vectorized and "vector.body" in line and places:
            last_line, function = max(places)
            loops.append(
                {
                    "line": last_line,
                    "function": function,
                    "width": f"<{widest[0]} x {widest[1]}>" if widest else "",
                    "remainder": block.startswith("vec.epilog"),
                }
            )
    return loops


def _references(value):
    return set(re.findall(r"!\d+", value))


def _field(value, name):
    found = re.search(rf"\b{name}: (?:!(\d+)|\"([^\"]*)\"|(\d+))", value)
    if not found:
        return None
    return next(group for group in found.groups() if group is not None)


def _subprogram(metadata, scope):
    """The DISubprogram a scope belongs to: (its name, its linkage name)."""
    while scope is not None:
        value = metadata.get(scope, "")
        if value.startswith("!DISubprogram("):
            return _field(value, "name") or "", _field(value, "linkageName") or ""
        scope = _field(value, "scope")
    return "", ""


def _outermost_location(metadata, key):
    """(line, function name) of a location, followed out through the functions it was inlined
    into up to the compiled function itself (not its entry wrapper)."""
    chain = []
    while key is not None:
        value = metadata.get(key, "")
        if not value.startswith("!DILocation("):
            break
        chain.append(value)
        key = _field(value, "inlinedAt")
    for value in reversed(chain):
        name, linkage = _subprogram(metadata, _field(value, "scope"))
        if linkage.endswith(("_entry", "_wrapper")):
            continue
        return int(_field(value, "line") or 0), name
    return None


def vectorized_loops(dispatcher, key):
    """The vectorized loops of a CPU dispatcher's specialisation (None when they cannot be
    found): compiles it again with line information and reads the optimised IR."""
    return vectorized_loops_of(dispatcher.py_func, dispatcher._compile_options(), key)


def vectorized_loops_of(py_func, options, argument_types, **job):
    """The vectorized loops of one compile job of ``py_func`` (``job``: return_type and
    ufunc_loop or core_dimensions for a ufunc's loop), each place once; None when they cannot be
    found."""
    from taipan import _core
    from taipan.errors import TaipanError
    from taipan.frontend import read_function

    try:
        source = read_function(py_func, dict(options, lineinfo=True))
        loops = vectorized_loops_in_ir(_core.inspect(source, list(argument_types), "llvm", **job))
    except (TaipanError, RuntimeError, ValueError) as error:  # the types are still worth showing
        warnings.warn(
            f"taipan: the vectorized loops of {py_func.__qualname__} are not known: {error}",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    # A ufunc's loop has a copy per operand layout: one note per distinct loop.
    return [dict(loop) for loop in dict.fromkeys(tuple(sorted(loop.items())) for loop in loops)]


# Functions compiled in this process, for TAIPAN_ANNOTATE_HTML and ``python -m taipan annotate``.

_lock = threading.Lock()
_recorded = []  # [FunctionAnnotation or a function making it]
_recording = False


def start_recording():
    """Keeps an annotation of every function compiled from now on."""
    global _recording
    _recording = True


def recorded():
    """The annotations of the functions compiled while recording, in compilation order."""
    with _lock:
        entries = list(_recorded)
    result = []
    for index, entry in enumerate(entries):
        if callable(entry):  # made on first use (the vectorized loops cost a compilation)
            entry = entry()
            with _lock:
                _recorded[index] = entry
        result.append(entry)
    return result


def compiled(make_annotation):
    """Called after each compilation with a function making its FunctionAnnotation: records it
    while recording, and rewrites the TAIPAN_ANNOTATE_HTML file."""
    from taipan import config

    if not (_recording or config.ANNOTATE_HTML):
        return
    with _lock:
        _recorded.append(make_annotation)
    if config.ANNOTATE_HTML:
        try:
            write_html(config.ANNOTATE_HTML, recorded())
        except OSError as error:
            warnings.warn(f"taipan: TAIPAN_ANNOTATE_HTML: {error}", RuntimeWarning, stacklevel=2)


_STYLE = """
body { font-family: sans-serif; margin: 1em 2em; }
h2 { font-size: 1.05em; font-family: monospace; margin-bottom: 0.2em; }
p.file { color: #666; margin-top: 0; font-size: 0.9em; }
table { border-collapse: collapse; font-size: 0.9em; }
td, th { padding: 1px 8px; vertical-align: top; text-align: left; }
th { border-bottom: 1px solid #999; }
td.number { color: #888; text-align: right; }
td pre { margin: 0; }
td.types { font-family: monospace; color: #035; }
span.var { font-weight: bold; }
tr.parallel td { background: #dff5e1; }
tr.vectorized td { background: #e3ecfb; }
tr.serial td { background: #fde8d8; }
tr:hover td { background: #fff6c4; }
span.parallel { color: #17652a; }
span.vectorized { color: #1b4a9c; }
span.serial { color: #a33b00; }
"""


def render_html(annotations, title="taipan annotations"):
    """A self-contained HTML page of the annotations."""
    body = "".join(annotation.html() for annotation in annotations) or (
        "<p>No function was compiled.</p>"
    )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{body}</body></html>\n"
    )


def write_html(path, annotations, title="taipan annotations"):
    """Writes the page to ``path`` (through a temporary file, so a reader never sees half)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(render_html(annotations, title))
    os.replace(temporary, path)


class Annotation:
    """What ``inspect_types(pretty=True)`` returns: the annotated source of each signature, as
    text (``str()``, and the repr) or HTML (``_repr_html_``, shown by Jupyter)."""

    def __init__(self, annotations):
        self.annotations = list(annotations)

    def __str__(self):
        return "\n\n".join(annotation.text() for annotation in self.annotations)

    __repr__ = __str__

    def _repr_html_(self):
        return "".join(annotation.html() for annotation in self.annotations)


def main(argv):
    """``python -m taipan annotate script.py [-o out.html] [args...] [-- args...]``: runs the
    script as ``__main__`` with the arguments taipan does not take (and all after ``--``), then
    writes the HTML annotation of every function it compiled."""
    import argparse
    import runpy

    parser = argparse.ArgumentParser(
        prog="python -m taipan annotate",
        description="Runs a script, then writes the annotated source (types of each line, "
        "parallel and vectorized loops) of every function it compiled to an HTML file.",
    )
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("-o", "--output", help="the HTML file (default: SCRIPT_NAME.html)")
    # Arguments taipan does not know, and all those after "--", go to the script.
    split = argv.index("--") if "--" in argv else len(argv)
    options, script_arguments = parser.parse_known_args(argv[:split])
    script_arguments += argv[split + 1 :]
    if not os.path.isfile(options.script):
        parser.error(f"no such file: {options.script}")
    output = options.output or os.path.splitext(os.path.basename(options.script))[0] + ".html"
    start_recording()
    sys.argv = [options.script, *script_arguments]
    sys.path.insert(0, os.path.dirname(os.path.abspath(options.script)))
    status = 0
    try:
        runpy.run_path(options.script, run_name="__main__")
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    finally:
        annotations = recorded()
        write_html(output, annotations, f"taipan annotations: {options.script}")
        print(f"taipan: wrote {len(annotations)} compiled function(s) to {output}", file=sys.stderr)
    return status
