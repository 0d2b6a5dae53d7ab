"""Finds a function's source text and its definition node in Python's ``ast``; the extension
reads that node into the compiler's syntax tree. Imports ast and inspect only when compiling."""

from taipan import _core
from taipan.errors import UnsupportedError


def _find_definition(tree, code, first_line):
    import ast

    wanted_line = code.co_firstlineno - first_line + 1
    if code.co_name != "<lambda>":
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.name == code.co_name
            ):
                return node
        return None
    arguments = list(code.co_varnames[: code.co_argcount])
    candidates = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Lambda)
        and [a.arg for a in node.args.posonlyargs + node.args.args] == arguments
    ]
    on_line = [node for node in candidates if node.lineno == wanted_line]
    return (on_line or candidates or [None])[0]


def _parse(text):
    import ast

    try:
        return ast.parse(text)
    except SyntaxError:
        # A lambda's source is the line it is on, which may be part of a larger expression.
        stripped = text.strip().rstrip(",;")
        start = stripped.find("lambda")
        while start >= 0:
            piece = stripped[start:]
            while piece:
                try:
                    return ast.parse("(" + piece + ")")
                except SyntaxError:
                    piece = piece[:-1]
            start = stripped.find("lambda", start + 1)
        raise


def read_function(py_func, options):
    """The compiler's FunctionSource for ``py_func``."""
    import inspect

    code = py_func.__code__
    try:
        lines, first_line = inspect.getsourcelines(py_func)
    except (OSError, TypeError) as error:
        raise UnsupportedError(
            f"cannot compile {py_func.__qualname__}: its source code is not available ({error})"
        ) from None
    first_line = max(first_line, 1)
    indent = len(lines[0]) - len(lines[0].lstrip())
    dedented = [
        line[indent:] if not indent or line[:indent].isspace() else line.lstrip() for line in lines
    ]
    tree = _parse("".join(dedented))
    node = _find_definition(tree, code, first_line)
    if node is None:
        raise UnsupportedError(
            f"cannot find the definition of {py_func.__qualname__} in its source"
        )
    return _core.read_function(
        py_func,
        node,
        [line.rstrip("\r\n") for line in lines],
        code.co_filename,
        first_line,
        indent,
        options,
    )
