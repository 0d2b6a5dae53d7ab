"""Finds a function's source text and its definition node in Python's ``ast``, proves that the
text is the function's own code, and hands the node to the extension, which reads it into the
compiler's syntax tree. Imported only when the first function compiles (it needs ast)."""

import ast
import contextlib
import gc
import linecache
import sys
import warnings

from taipan import _core, config, source_texts
from taipan.errors import TaipanWarning, UnsupportedError  # TaipanWarning: Numba's NumbaWarning
from taipan.objmode_blocks import rewrite_objmode_blocks
from taipan.source_texts import FUTURE_FLAGS

_CO_NESTED = 0x10
_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_FILE_CACHE_SIZE = 8
_DEEP_TREE_RECURSION_LIMIT = 20_000
# filename -> (lines, {first line: [(node, enclosing class name)]}, names imports bind)
_file_definitions = {}


def _first_line(node):
    """The line a code object built from ``node`` reports: its first decorator's, if any."""
    decorators = getattr(node, "decorator_list", None)
    return decorators[0].lineno if decorators else node.lineno


def _index_definitions(tree):
    """Every function and lambda node of ``tree`` by first line, with its nearest enclosing
    class (whose name mangles ``__private`` names in the function's code)."""
    index = {}
    pending = [(tree, None)]  # a loop, not recursion: expressions may nest thousands deep
    while pending:
        node, class_name = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _DEFINITIONS):
                index.setdefault(_first_line(child), []).append((child, class_name))
            pending.append((child, child.name if isinstance(child, ast.ClassDef) else class_name))
    return index


def _parse_at(lines, first_line):
    """Parses ``lines`` as lines ``first_line``... of a file, keeping the file's line and column
    numbers: blank lines pad the top and an ``if 1:`` block admits the indentation."""
    indented = lines[0][:1].isspace()
    padding = "\n" * (first_line - 1 - indented) + ("if 1:\n" if indented else "")
    return source_texts.parse(padding + "".join(lines))


def _definitions_at(tree, first_line):
    """The function and lambda nodes of ``tree`` that start at ``first_line``, with their nearest
    enclosing class: only nodes whose lines span ``first_line`` are visited, so a long function
    costs a walk down to it, not over its whole body."""
    found = []
    pending = [(tree, None)]
    while pending:
        node, class_name = pending.pop()
        for child in ast.iter_child_nodes(node):
            start = getattr(child, "lineno", None)
            if start is not None:
                if isinstance(child, _DEFINITIONS) and _first_line(child) == first_line:
                    found.append((child, class_name))
                decorators = getattr(child, "decorator_list", None)
                begin = decorators[0].lineno if decorators else start
                if not begin <= first_line <= child.end_lineno:
                    continue
            pending.append((child, child.name if isinstance(child, ast.ClassDef) else class_name))
    return found


def _last_line(code):
    """The last line any instruction of ``code`` or its nested code objects comes from."""
    last = code.co_firstlineno
    pending = [code]
    while pending:
        current = pending.pop()
        if hasattr(current, "co_positions"):  # 3.11+: end lines too
            last = max([last] + [end for _, end, _, _ in current.co_positions() if end])
        else:
            last = max([last] + [line for _, _, line in current.co_lines() if line])
        pending.extend(c for c in current.co_consts if isinstance(c, type(code)))
    return last


def _candidates_near(lines, first_line, code):
    """Definitions in the statement that starts at ``first_line`` (the cheap search: most
    functions are a whole statement there), or an empty list when that text is not one. The
    statement's text runs to the last line the code object names; where that does not parse
    (a 3.10 statement continuing past its last instruction's line), tokenizing finds its end."""
    import inspect
    import tokenize

    try:
        try:
            tree = _parse_at(lines[first_line - 1 : _last_line(code)], first_line)
        except SyntaxError:
            tree = _parse_at(inspect.getblock(lines[first_line - 1 :]), first_line)
        return _definitions_at(tree, first_line)
    except (SyntaxError, ValueError, IndexError, tokenize.TokenError):
        return []


def _imported_modules_guess(py_func):
    """The global names the function uses that hold modules: what a module's imports bind (the
    exact set is known only from the whole text, see _module_imports)."""
    from types import ModuleType

    names = set()
    pending = [py_func.__code__]
    while pending:
        code = pending.pop()
        names.update(code.co_names)
        pending.extend(c for c in code.co_consts if isinstance(c, type(code)))
    module_globals = py_func.__globals__
    return {name for name in names if isinstance(module_globals.get(name), ModuleType)}


def _module_imports(tree):
    """The names that import statements bind in the module's own scope. Python 3.11+ compiles
    ``name.attribute(...)`` differently when ``name`` is one of them."""
    names = set()
    pending = list(tree.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in statement.names)
        elif not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                pending.extend(getattr(statement, field, ()))
    return names


def _candidates_in_file(filename, lines, first_line):
    """Definitions starting at ``first_line`` in the whole text (parsed once per text), and the
    names the text's imports bind."""
    cached = _file_definitions.get(filename)
    if cached is None or cached[0] != lines:
        try:
            tree = source_texts.parse("".join(lines))
            index, imports = _index_definitions(tree), _module_imports(tree)
        except (SyntaxError, ValueError):
            index, imports = {}, set()
        if len(_file_definitions) >= _FILE_CACHE_SIZE:
            _file_definitions.pop(next(iter(_file_definitions)))
        cached = _file_definitions[filename] = (lines, index, imports)
    return cached[1].get(first_line, []), cached[2]


def _parameters_match(node, code):
    """Whether the node's parameter names and kinds are the code object's."""
    if isinstance(node, ast.Lambda) != (code.co_name == "<lambda>"):
        return False
    if not isinstance(node, ast.Lambda) and node.name != code.co_name:
        return False
    arguments = node.args
    names = code.co_varnames
    positional_only = code.co_posonlyargcount
    positional = code.co_argcount
    keyword_only = positional + code.co_kwonlyargcount
    expected = [
        [a.arg for a in arguments.posonlyargs] == list(names[:positional_only]),
        [a.arg for a in arguments.args] == list(names[positional_only:positional]),
        [a.arg for a in arguments.kwonlyargs] == list(names[positional:keyword_only]),
    ]
    extra = keyword_only
    for flag, argument in ((_CO_VARARGS, arguments.vararg), (_CO_VARKEYWORDS, arguments.kwarg)):
        if bool(code.co_flags & flag) != (argument is not None):
            return False
        if argument is not None:
            expected.append(argument.arg == names[extra])
            extra += 1
    return all(expected)


def _positions_inside(node, code):
    """On Python 3.11+, whether every instruction's source range lies inside ``node``."""
    if not hasattr(code, "co_positions"):
        return True
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno, node.end_col_offset)
    for line, end_line, column, end_column in code.co_positions():
        if None in (line, end_line, column, end_column) or (line, column) == (end_line, end_column):
            continue  # no position, or the empty one of the implicit RESUME and return
        if (line, column) < start or (end_line, end_column) > end:
            return False
    return True


def _span(node):
    return (node.end_lineno - node.lineno, node.end_col_offset - node.col_offset)


def _rewritten_by_pytest(code):
    """Whether pytest rewrote the asserts of the module ``code`` comes from (its test modules):
    the rewritten code reads pytest's helpers under names no Python source can spell."""
    return any(name.startswith("@py") for name in code.co_varnames) or any(
        name.startswith("@py") for name in code.co_names
    )


def _rewrite_asserts_as_pytest(module, source, code):
    """Rewrites the asserts of ``module`` as pytest rewrote the original's, so that the compiled
    candidate can equal the loaded code; taipan then compiles the original assert."""
    from _pytest.assertion.rewrite import rewrite_asserts

    rewrite_asserts(module, source.encode(), code.co_filename, None)


def _compiled_alone(node, class_name, imports, code, source=None):
    """The code object Python makes for ``node`` with its original positions, in the context the
    original had: a function binding the code's free variables, a class that mangles private
    names, and module-level imports; None if the node does not compile so."""

    def located(wrapper):  # the wrappers take the node's position (compile requires one)
        wrapper.lineno, wrapper.col_offset = node.lineno, node.col_offset
        wrapper.end_lineno, wrapper.end_col_offset = node.end_lineno, node.end_col_offset
        return wrapper

    if source is not None:  # pytest's rewriting changes the tree: keep the user's intact
        import copy

        node = copy.deepcopy(node)
    wrapped = node if not isinstance(node, ast.Lambda) else located(ast.Expr(value=node))
    depth = 1
    if getattr(node, "type_params", None):  # def f[T](): Python 3.12's scope of the parameters
        depth += 1
    if class_name is not None:
        wrapped = located(
            ast.ClassDef(name=class_name, bases=[], keywords=[], body=[wrapped], decorator_list=[])
        )
        depth += 1
    free = [name for name in code.co_freevars if not (class_name and name == "__class__")]
    if free:
        bindings = [
            located(
                ast.Assign(
                    targets=[located(ast.Name(id=name, ctx=ast.Store()))],
                    value=located(ast.Constant(None)),
                )
            )
            for name in free
        ]
        no_parameters = ast.arguments(
            posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]
        )
        wrapped = located(
            ast.FunctionDef(
                name="_taipan_enclosing",
                args=no_parameters,
                body=bindings + [wrapped],
                decorator_list=[],
                returns=None,
            )
        )
        depth += 1
    imported = [
        located(ast.Import(names=[located(ast.alias(name=name))])) for name in sorted(imports)
    ]
    module = ast.Module(body=imported + [wrapped], type_ignores=[])
    if source is not None:
        _rewrite_asserts_as_pytest(module, source, code)
    compiled = _compile_tree(module, code)
    if compiled is None:
        return None
    for _ in range(depth):
        # Decorators, defaults and annotations compile first: the definition's own code object
        # is the last one among its enclosing code's constants.
        nested = [c for c in compiled.co_consts if isinstance(c, type(code))]
        if not nested:
            return None
        compiled = nested[-1]
    return compiled


def _compile_tree(module, code):
    """Compiles ``module`` as Python compiled the code's text (same future imports); None if it
    does not compile."""
    flags = code.co_flags & FUTURE_FLAGS
    try:
        return source_texts.compile_tree(module, code.co_filename, flags)
    except RecursionError:
        # Python 3.10 and 3.11 convert an ast tree with the interpreter's recursion limit, which
        # a long expression exceeds although its text compiled: its depth is what the parser
        # accepted, so the C stack holds it.
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, _DEEP_TREE_RECURSION_LIMIT))
        try:
            return source_texts.compile_tree(module, code.co_filename, flags)
        except (RecursionError, SyntaxError, ValueError):
            return None
        finally:
            sys.setrecursionlimit(limit)
    except (SyntaxError, ValueError):
        return None


def _same_code(candidate, code):
    """Whether two code objects are the same code: bytecode, constants, names, variables,
    first line and line table (CPython's code equality), whether or not they were nested."""
    if candidate is None or (candidate.co_flags ^ code.co_flags) & ~_CO_NESTED:
        return False
    if sys.version_info < (3, 11):
        candidate = _with_nested_qualnames_of(candidate, code)
    return candidate.replace(co_flags=code.co_flags) == code


def _nested_qualname_prefix(code):
    """Python 3.10 keeps a nested function's qualified name as the constant after its code
    object (``outer.<locals>.inner``): the ``outer.<locals>.`` part, or None without one."""
    constants = code.co_consts
    for index, constant in enumerate(constants[:-1]):
        name = constants[index + 1]
        if isinstance(constant, type(code)) and isinstance(name, str):
            suffix = ".<locals>." + constant.co_name
            if name.endswith(suffix):
                return name[: len(name) - len(constant.co_name)]
    return None


def _with_nested_qualnames_of(candidate, code):
    """``candidate`` with the qualified names of its nested functions (Python 3.10 constants)
    given ``code``'s prefix: the definition compiled alone names them ``f.<locals>.g`` where the
    module's code has ``test.<locals>.f.<locals>.g``. Only the constant after each nested code
    object changes, and only its prefix, so any other difference still fails the comparison."""
    old, new = _nested_qualname_prefix(candidate), _nested_qualname_prefix(code)
    if old is None or new is None or old == new:
        return candidate

    def renamed(current):
        constants = list(current.co_consts)
        for index, constant in enumerate(constants):
            if not isinstance(constant, type(current)):
                continue
            constants[index] = renamed(constant)
            following = constants[index + 1] if index + 1 < len(constants) else None
            if isinstance(following, str) and following.startswith(old):
                constants[index + 1] = new + following[len(old) :]
        return current.replace(co_consts=tuple(constants))

    return renamed(candidate)


def _verified_definition(code, candidates, imports, lines=None):
    """The one candidate node whose compiled code is ``code``, or None. In a test module whose
    asserts pytest rewrote, candidates are compared after the same rewriting."""
    source = None
    pytest_loaded = "_pytest.assertion.rewrite" in sys.modules
    if lines is not None and pytest_loaded and _rewritten_by_pytest(code):
        source = "".join(lines)
    plausible = [(n, c) for n, c in candidates if _parameters_match(n, code)]
    # Innermost first among the nodes that hold every instruction's position: a lambda holding
    # another lambda holds its positions too. (Walking the positions of a long function costs
    # milliseconds, so a single candidate is not sorted.)
    if len(plausible) > 1:
        plausible.sort(key=lambda pair: (not _positions_inside(pair[0], code), _span(pair[0])))
    for node, class_name in plausible:
        if _same_code(_compiled_alone(node, class_name, imports, code, source), code):
            return node
    return None


def _command_line_text():
    """The program text of ``python -c``, from ``sys.orig_argv`` (Python 3.10+), or None."""
    arguments = iter(getattr(sys, "orig_argv", [])[1:])
    for argument in arguments:
        if argument.startswith("--"):
            continue  # a long option (none of those before -c takes a separate value)
        if not argument.startswith("-") or argument == "-":
            return None  # a script or stdin: no -c
        for position, option in enumerate(argument[1:], start=2):
            if option in "cmWX":  # the options that take a value: the rest or the next argument
                value = argument[position:] or next(arguments, "")
                if option == "c":
                    return value
                if option == "m":
                    return None
                break
    return None


def _source_texts(code, module_globals):
    """The texts that may hold the function's definition, as (where, lines), most likely first:
    the text compile, exec or eval compiled the code from (``taipan.source_texts``), what
    linecache holds now (the text seen when the module ran, or registered by a notebook or the
    REPL), the file as it is now, and the ``python -c`` program. Lazily: the linecache text is
    kept (not checked against the file) while it proves right."""
    compiled_from = source_texts.lines_of(code)
    if compiled_from is not None:
        yield "the text compiled by exec, eval or compile", compiled_from
    filename = code.co_filename
    entry = linecache.cache.get(filename)
    if entry is not None and len(entry) == 4 and entry[2]:
        yield "linecache", entry[2]
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, module_globals)
    if lines and (entry is None or lines is not entry[2]):
        yield "the file", lines
    if filename == "<string>":
        text = _command_line_text()
        if text:
            import textwrap

            yield "the -c command line", text.splitlines(keepends=True)
            dedented = textwrap.dedent(text)  # Python 3.14 dedents the -c text
            if dedented != text:
                yield "the -c command line", dedented.splitlines(keepends=True)


def _unverified_error(py_func, code, looked_at):
    """The error for a function none of whose texts compiles to its code: they changed, or they
    are not where taipan looks."""
    import os

    name, filename = py_func.__qualname__, code.co_filename
    where = f'File "{filename}", line {code.co_firstlineno}, in {name}'
    if looked_at and os.path.exists(filename):
        reason = (
            f"the source text of {filename} no longer matches the function Python loaded (the "
            "file was changed after it was imported); reload the module (importlib.reload) or "
            "restart Python to compile the new code"
        )
    elif "the syntax tree" in looked_at:
        reason = (
            "the syntax tree compile() built it from was changed after compiling, so it no "
            "longer holds the function's code; compile the function from an unchanged tree"
        )
    elif "linecache" in looked_at:
        reason = (
            f"the text linecache holds for {filename!r} no longer matches the function Python "
            "loaded; register the text the function was compiled from"
        )
    else:
        command_line = ", and in the python -c command line" if filename == "<string>" else ""
        reason = (
            f"its source text is not available (looked in linecache for {filename!r}"
            f"{command_line}, and for a text or syntax tree compile(), exec or eval compiled "
            "it from, which taipan keeps only for code compiled after taipan was imported); "
            "define the function in a file, import taipan before building it, or register its "
            "text with linecache.cache[filename] = (len(text), None, text.splitlines(True), "
            "filename) and compile it under that filename"
        )
    return UnsupportedError(f"cannot compile {name}: {reason}\n\n{where}")


def _verified_source(py_func):
    """(the lines of the text holding ``py_func``'s definition, its verified node), or raises
    UnsupportedError saying where the text was looked for."""
    code = py_func.__code__
    first_line = code.co_firstlineno
    looked_at = []
    for where, lines in _source_texts(code, py_func.__globals__):
        looked_at.append(where)
        near = _candidates_near(lines, first_line, code)
        node = (
            _verified_definition(code, near, _imported_modules_guess(py_func), lines)
            if near
            else None
        )
        if node is None:
            node = _verified_definition(
                code, *_candidates_in_file(code.co_filename, lines, first_line), lines
            )
        if node is not None:
            return lines, node
    tree = source_texts.tree_of(code)
    if tree is not None:
        looked_at.append("the syntax tree")
        found = _verified_tree_definition(code, tree)
        if found is not None:
            return found
    raise _unverified_error(py_func, code, looked_at)


def _verified_tree_definition(code, tree):
    """(lines, node) for a function compiled by ``compile`` from the syntax tree ``tree`` (no
    text ever existed): its definition node, verified as text is, and lines that stand for its
    text in messages (the node unparsed, placed at its first line); None if the tree no longer
    compiles to the code (changed after compiling)."""
    first_line = code.co_firstlineno
    candidates = _index_definitions(tree).get(first_line, [])
    node = _verified_definition(code, candidates, _module_imports(tree))
    if node is None:
        return None
    text = ast.unparse(node).splitlines(keepends=True)
    lines = ["\n"] * (first_line - 1) + [
        line if line.endswith("\n") else line + "\n" for line in text
    ]
    lines += ["\n"] * max(0, node.end_lineno - len(lines))
    return lines, node


def source_lines(py_func):
    """The text (lines of its file, a notebook cell, a ``python -c`` program) that holds
    ``py_func``'s definition, as the front end found and verified it."""
    return _verified_source(py_func)[0]


@contextlib.contextmanager
def _garbage_collection_paused():
    """Python's cyclic collector paused (when it runs): reading a function allocates an ast
    node per token, which started collections of the whole heap that took up to a third of
    reading a 1,600-statement function. The nodes are freed by reference counting."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _warn_if_debuggers_lack_the_text(py_func, lines, first_line, last_line):
    """debug=True for a function whose text is neither in a file nor in linecache (built by
    exec): taipan compiled the text it kept (``lines``, where the definition spans
    ``first_line`` to ``last_line``), but debuggers read the lines from the file the debug
    information names; warned as numba-cuda warns when it cannot find a function's source. A
    notebook's cells are in linecache, as inspect finds them: no warning. What linecache holds
    under the name must be the definition's text: Python 3.13 keeps a ``python -c`` program
    there as "<string>", the name exec gives every text it runs."""
    import os

    from taipan.errors import DebugInfoWarning

    filename = py_func.__code__.co_filename
    if os.path.exists(filename):
        return

    def span(text_lines):  # a text's last line may lack its newline where linecache's has one
        return [line.rstrip("\r\n") for line in text_lines[first_line - 1 : last_line]]

    if span(linecache.getlines(filename, py_func.__globals__)) == span(lines):
        return
    warnings.warn(
        DebugInfoWarning(
            f"Could not find source for function: {py_func}. Debug line information may be "
            f"inaccurate: its file {filename!r} does not exist and linecache does not hold its "
            "text, so debuggers cannot show its lines (taipan compiled it from the text exec "
            "or compile was given)"
        ),
        stacklevel=2,
    )


def read_function(py_func, options):
    """The compiler's FunctionSource for ``py_func``, from source text proven to be its code."""
    code = py_func.__code__
    first_line = code.co_firstlineno
    with _garbage_collection_paused():
        lines, node = _verified_source(py_func)
        if options.get("debug"):
            _warn_if_debuggers_lack_the_text(py_func, lines, first_line, node.end_lineno)
        node = rewrite_objmode_blocks(py_func, node, lines, options)
        definition_lines = lines[first_line - 1 : node.end_lineno]
        source = _core.read_function(
            py_func,
            node,
            [line.rstrip("\r\n") for line in definition_lines],
            code.co_filename,
            first_line,
            0,
            options,
        )
    if config.ALWAYS_WARN_UNINIT_VAR:
        _warn_uninitialized_reads(source, code.co_filename)
    return source


def _warn_uninitialized_reads(source, filename):
    """Numba's warning for each read of a local that a path reaches unassigned (compiled code
    raises UnboundLocalError there, as CPython does), at the read's line."""
    for name, line in source.uninitialized_reads:
        warnings.warn_explicit(
            TaipanWarning(f"Detected uninitialized variable {name}"), TaipanWarning, filename, line
        )
