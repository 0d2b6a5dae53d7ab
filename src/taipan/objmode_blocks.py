"""``with objmode(...)`` blocks in compiled code (Numba's object-mode context).

``objmode`` is a no-op context manager in Python. In a function taipan compiles, the front end
(``rewrite_objmode_blocks``, called by ``taipan.frontend.read_function`` on the verified
definition node) replaces each ``with objmode(name=type, ...):`` statement by a call that runs the
block's own statements in the interpreter: they become a Python function, compiled by CPython
with the function's globals (and closure cells), whose parameters are the block's live-in
variables and which returns the declared outputs. Compiled code calls it through
``$taipan.objmode_call(block id, live-ins...)`` (a library entry), which boxes the live-ins,
calls under the GIL, and unboxes the outputs with their declared types. docs/architecture.md,
"Object-mode blocks", says why it is built this way.
"""

import ast
import copy
import types as _pytypes

from taipan import _core, source_texts, types
from taipan.errors import TypingError, UnsupportedError
from taipan.objmode_context import objmode
from taipan.source_texts import FUTURE_FLAGS

OBJMODE_CALLEE = "$taipan.objmode_call"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _with_opcodes():
    import dis

    # From 3.12 SETUP_WITH is a pseudo-instruction (numbered from 256) that never reaches
    # co_code: only real opcodes are looked for.
    return {
        dis.opmap[name]
        for name in ("BEFORE_WITH", "SETUP_WITH")
        if name in dis.opmap and dis.opmap[name] < 256
    }


_WITH_OPCODES = None


def _may_hold_with(code):
    """Whether ``code`` may contain a with statement (its bytecode has a with opcode; on a
    Python whose opcodes are not known here, True)."""
    global _WITH_OPCODES
    if _WITH_OPCODES is None:
        _WITH_OPCODES = _with_opcodes()
    if not _WITH_OPCODES:
        return True
    operations = code.co_code[::2]
    return any(bytes([opcode]) in operations for opcode in _WITH_OPCODES)


class _Context:
    """What a rewrite needs to know about the function: the Python function, the lines of its
    text (for errors), its options."""

    def __init__(self, py_func, lines, options):
        self.py_func = py_func
        self.code = py_func.__code__
        self.lines = lines
        self.options = options

    def error(self, kind, message, node):
        line = getattr(node, "lineno", 0)
        text = self.lines[line - 1].rstrip("\r\n") if 0 < line <= len(self.lines) else ""
        column = getattr(node, "col_offset", 0)
        return kind(
            f'{message}\n\nFile "{self.code.co_filename}", line {line}, in '
            f"{self.py_func.__name__}:\n{text}\n{' ' * column}^\n"
        )

    def resolve(self, expr):
        """(True, value) for a name or attribute chain that the function's closure, globals or
        builtins define; (False, None) otherwise (locals are not known before run time)."""
        if isinstance(expr, ast.Name):
            name = expr.id
            if name in self.code.co_freevars:
                cell = self.py_func.__closure__[self.code.co_freevars.index(name)]
                try:
                    return True, cell.cell_contents
                except ValueError:
                    return False, None
            if name in self.code.co_varnames or name in self.code.co_cellvars:
                return False, None
            scope = self.py_func.__globals__
            if name in scope:
                return True, scope[name]
            builtins = scope.get("__builtins__", __builtins__)
            builtins = builtins if isinstance(builtins, dict) else vars(builtins)
            if name in builtins:
                return True, builtins[name]
            return False, None
        if isinstance(expr, ast.Attribute):
            known, base = self.resolve(expr.value)
            if known:
                try:
                    return True, getattr(base, expr.attr)
                except AttributeError:
                    pass
        return False, None

    def is_objmode(self, with_node):
        expr = with_node.items[0].context_expr
        target = expr.func if isinstance(expr, ast.Call) else expr
        known, value = self.resolve(target)
        return known and value is objmode


def _own_statement_lists(statements, loops, found):
    """Every with statement of the function's own scope: (the list holding it, its index, the
    loops around it)."""
    for index, statement in enumerate(statements):
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            found.append((statements, index, loops))
            continue
        if isinstance(statement, _SCOPES):
            continue
        inner = loops + (statement,) if isinstance(statement, _LOOPS) else loops
        for field in ("body", "orelse", "finalbody"):
            block = getattr(statement, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                _own_statement_lists(block, inner, found)
        for handler in getattr(statement, "handlers", ()):
            _own_statement_lists(handler.body, inner, found)
        for case in getattr(statement, "cases", ()):
            _own_statement_lists(case.body, inner, found)


class _BlockNames(ast.NodeVisitor):
    """The names a block reads (also inside the functions and comprehensions it defines) and
    the names it binds in the function's scope; refuses statements that would leave the block
    other than by its end."""

    def __init__(self, context):
        self.context = context
        self.loaded = set()
        self.stored = set()
        self.depth = 0  # nested scopes
        self.loops = 0  # loops inside the block, in its own scope

    def bind(self, name):
        if self.depth == 0:
            self.stored.add(name)

    def refuse(self, node, what):
        raise self.context.error(
            UnsupportedError,
            f"with objmode(...): {what} inside the block is not supported (the block must "
            "end by running its last statement or by raising)",
            node,
        )

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.loaded.add(node.id)
        else:
            self.bind(node.id)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self.loaded.add(node.target.id)
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self.stored.add(node.target.id)  # binds in the enclosing function even from a comprehension
        self.visit(node.value)

    def _scope(self, node, name=None):
        if name is not None:
            self.bind(name)
        for decorator in getattr(node, "decorator_list", ()):
            self.visit(decorator)
        arguments = getattr(node, "args", None)
        if isinstance(arguments, ast.arguments):
            for default in arguments.defaults + [d for d in arguments.kw_defaults if d]:
                self.visit(default)
        self.depth += 1
        loops, self.loops = self.loops, 0
        body = node.body if isinstance(node.body, list) else [node.body]
        for statement in body:
            self.visit(statement)
        self.loops = loops
        self.depth -= 1

    def visit_FunctionDef(self, node):
        self._scope(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for base in node.bases:
            self.visit(base)
        self._scope(node, node.name)

    def visit_Lambda(self, node):
        self._scope(node)

    def _comprehension(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name == "*":
                self.refuse(node, "from ... import *")
            self.bind(alias.asname or alias.name.split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        if node.name:
            self.bind(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node):
        if node.name:
            self.bind(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node):
        if node.name:
            self.bind(node.name)

    def _leaves(self, node, what):
        if self.depth == 0:
            self.refuse(node, what)
        self.generic_visit(node)

    def visit_Return(self, node):
        self._leaves(node, "return")

    def visit_Yield(self, node):
        self._leaves(node, "yield")

    visit_YieldFrom = visit_Yield

    def visit_Await(self, node):
        self._leaves(node, "await")

    def visit_Global(self, node):
        if self.depth == 0:
            self.refuse(node, "a global or nonlocal statement")

    visit_Nonlocal = visit_Global

    def _loop(self, node):
        if self.depth == 0:
            self.loops += 1
            self.generic_visit(node)
            self.loops -= 1
        else:
            self.generic_visit(node)

    visit_For = visit_While = visit_AsyncFor = _loop

    def visit_Break(self, node):
        if self.depth == 0 and self.loops == 0:
            self.refuse(node, "break out of the block")

    def visit_Continue(self, node):
        if self.depth == 0 and self.loops == 0:
            self.refuse(node, "continue out of the block")


class _FunctionNames(ast.NodeVisitor):
    """Outside the objmode blocks: the names the function binds, and where it reads each name
    (the reads of later blocks included)."""

    def __init__(self, skipped):
        self.skipped = skipped  # the with nodes of objmode blocks
        self.stored = set()
        self.reads = []  # (name, node)

    def visit_With(self, node):
        if id(node) in self.skipped:
            for statement in node.body:
                _collect_reads(statement, self.reads)
            return
        self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            self.stored.add(node.id)
        else:
            self.reads.append((node.id, node))

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self.reads.append((node.target.id, node.target))
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self.stored.add(node.target.id)
        self.visit(node.value)


def _collect_reads(node, reads):
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Store):
            reads.append((child.id, child))
        elif isinstance(child, ast.AugAssign) and isinstance(child.target, ast.Name):
            reads.append((child.target.id, child.target))


def _parameters(definition):
    arguments = definition.args
    names = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            names.append(extra.arg)
    return names


def _declared_type(context, name, value):
    """The taipan type an objmode keyword declares (Numba's rules and messages: a string, or a
    global, closure variable or attribute chain holding a type)."""
    prefix = f"Error handling objmode argument {name!r}."
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        namespace = {k: v for k, v in vars(types).items() if not k.startswith("_")}
        try:
            declared = eval(value.value, {"__builtins__": {}}, namespace)
        except (NameError, SyntaxError, TypeError, AttributeError, ValueError, IndexError) as error:
            raise context.error(
                TypingError,
                f"{prefix} The type {value.value!r} is not a taipan type "
                f"({type(error).__name__}: {error})",
                value,
            ) from None
    elif isinstance(value, (ast.Name, ast.Attribute)):
        known, declared = context.resolve(value)
        if not known:
            if isinstance(value, ast.Attribute):
                reason = "Getattr cannot be resolved at compile-time."
            elif value.id in context.code.co_freevars:
                reason = f"Freevar {value.id!r} is not defined."
            else:
                reason = f"Global {value.id!r} is not defined."
            raise context.error(TypingError, f"{prefix} {reason}", value)
    else:
        raise context.error(
            TypingError,
            f"{prefix} The value must be a compile-time constant either as a non-local variable "
            "or a getattr expression that refers to a Numba type.",
            value,
        )
    if not isinstance(declared, types.Type):
        raise context.error(
            TypingError, f"{prefix} It must be a taipan type, not {declared!r}.", value
        )
    if getattr(declared, "reflected", False) or str(declared).startswith("reflected"):
        raise context.error(
            TypingError,
            f"Objmode context failed. Argument {name!r} is declared as an unsupported type: "
            f"{declared}. Reflected types are not supported (a reflected list or set would be "
            "a copy; declare a typed List or an array).",
            value,
        )
    return declared


def _block_function(context, with_node, parameters, outputs, free):
    """The block's statements as a Python function of its live-ins returning its outputs,
    compiled by CPython at the statements' own lines, with the function's globals and the
    closure cells it reads."""
    definition = source_texts.parse("def __objmode_block():\n    pass\n").body[0]
    definition.args.args = [ast.arg(arg=name) for name in parameters]
    if outputs:
        returned = ast.Tuple([ast.Name(id=name, ctx=ast.Load()) for name in outputs], ast.Load())
    else:
        returned = ast.Constant(None)
    definition.body = copy.deepcopy(with_node.body) + [ast.Return(returned)]
    for node in (definition, definition.args, returned, definition.body[-1]):
        ast.copy_location(node, with_node)
    for argument in definition.args.args:
        ast.copy_location(argument, with_node)
    if free:
        # A factory whose locals the block's free names are, so that they compile as closure
        # variables; the function is then rebuilt around the function's own cells.
        factory = source_texts.parse("def __objmode_factory():\n    pass\n").body[0]
        factory.body = [
            ast.Assign(
                targets=[ast.Name(id=name, ctx=ast.Store()) for name in sorted(free)],
                value=ast.Constant(None),
            ),
            definition,
        ]
        ast.copy_location(factory, with_node)
        for statement in factory.body[:1]:
            ast.copy_location(statement, with_node)
        top = factory
    else:
        top = definition
    module = ast.Module(body=[top], type_ignores=[])
    ast.fix_missing_locations(module)
    code = source_texts.compile_tree(
        module, context.code.co_filename, context.code.co_flags & FUTURE_FLAGS
    )
    block_code = next(c for c in code.co_consts if isinstance(c, _pytypes.CodeType))
    closure = None
    if free:
        block_code = next(c for c in block_code.co_consts if isinstance(c, _pytypes.CodeType))
        cells = dict(zip(context.code.co_freevars, context.py_func.__closure__))
        closure = tuple(cells[name] for name in block_code.co_freevars)
    function = _pytypes.FunctionType(
        block_code, context.py_func.__globals__, "__objmode_block", None, closure
    )
    function.__qualname__ = (
        f"{context.py_func.__qualname__}.<objmode block, line {with_node.lineno}>"
    )
    return function


def _rewrite_block(
    context, with_node, all_blocks, own_outputs, function_names, parameters_of_function, loops
):
    if len(with_node.items) != 1 or isinstance(with_node, ast.AsyncWith):
        raise context.error(
            UnsupportedError,
            "with objmode(...) must be the only context manager of its with statement",
            with_node,
        )
    item = with_node.items[0]
    if item.optional_vars is not None:
        raise context.error(
            UnsupportedError, "with objmode(...) as name: the block binds no name", with_node
        )
    if context.options.get("parallel"):
        raise context.error(
            UnsupportedError,
            "with objmode(...) is not supported in a parallel=True function (its blocks take "
            "the GIL, which the threads of a parallel loop must not wait for)",
            with_node,
        )
    call = item.context_expr
    declared = {}
    if isinstance(call, ast.Call):
        if call.args:
            raise context.error(
                TypingError,
                "with objmode(...) takes keyword arguments only: name='type' for each variable "
                "the block assigns that the code after it reads",
                call,
            )
        for keyword in call.keywords:
            if keyword.arg is None:
                raise context.error(
                    TypingError, "with objmode(**types): name each output", keyword.value
                )
            declared[keyword.arg] = _declared_type(context, keyword.arg, keyword.value)
    names = _BlockNames(context)
    for statement in with_node.body:
        names.visit(statement)
    function_locals = set(context.code.co_varnames) | set(context.code.co_cellvars)
    defined_outside = (
        function_names.stored
        | set(parameters_of_function)
        | {name for block in all_blocks if block is not own_outputs for name in block}
    )
    live_ins = sorted(names.loaded & function_locals & defined_outside)
    outputs = list(declared)
    never_assigned = [n for n in outputs if n not in names.stored and n not in live_ins]
    if never_assigned:
        raise context.error(
            TypingError,
            f"Invalid type annotation on non-outgoing variables: {set(never_assigned)}: the "
            "with objmode(...) block never assigns them. Suggestion: remove annotation of the "
            "listed variables",
            with_node,
        )
    end = (with_node.end_lineno, with_node.end_col_offset)
    inside = [(loop.lineno, loop.end_lineno) for loop in loops]
    leaked = {}  # name -> its first read after the block
    for name, use in function_names.reads:
        if name not in names.stored or name in declared:
            continue
        position = (use.lineno, use.col_offset)
        if (with_node.lineno, with_node.col_offset) <= position <= end:
            continue  # inside the block itself
        after = position > end or any(first <= use.lineno <= last for first, last in inside)
        earlier = name not in leaked or position < (leaked[name].lineno, leaked[name].col_offset)
        if after and earlier:
            leaked[name] = use
    if leaked:
        names_read = sorted(leaked)
        first_use = min(leaked.values(), key=lambda use: (use.lineno, use.col_offset))
        raise context.error(
            TypingError,
            f"Missing type annotation on outgoing variable(s): {names_read}\n\n"
            f"Example code: with objmode({names_read[0]}='<add_type_as_string_here>')\n\n"
            f"{', '.join(repr(n) for n in names_read)} assigned in the with objmode(...) block "
            f"at line {with_node.lineno} and read after it: variables the block assigns are "
            "visible after it only when declared as its outputs",
            first_use,
        )
    free = names.loaded & set(context.code.co_freevars)
    free -= set(live_ins)
    function = _block_function(context, with_node, live_ins, outputs, free)
    where = f'"{context.code.co_filename}", line {with_node.lineno}'
    # What the block is, alike in every process reading this text: with the block's id (in the
    # rewritten source, so in the job hash) it names the block's call sites in cached code.
    key = repr(
        (
            context.py_func.__module__,
            context.py_func.__qualname__,
            where,
            ast.dump(with_node),
            live_ins,
            [(name, str(declared[name])) for name in outputs],
            sorted(free),
        )
    )
    block_id = _core.register_objmode_block(
        function,
        outputs,
        [declared[name] for name in outputs],
        live_ins,
        where,
        _core.sha256_hex(key.encode())[:32],
    )
    callee = ast.Call(
        func=ast.Name(id=OBJMODE_CALLEE, ctx=ast.Load()),
        args=[ast.Constant(block_id)] + [ast.Name(id=name, ctx=ast.Load()) for name in live_ins],
        keywords=[],
    )
    if outputs:
        target = ast.Tuple([ast.Name(id=name, ctx=ast.Store()) for name in outputs], ast.Store())
        replacement = ast.Assign(targets=[target], value=callee)
    else:
        replacement = ast.Expr(callee)
    header_end = item.context_expr
    for node in ast.walk(replacement):
        if "lineno" in node._attributes:
            node.lineno = with_node.lineno
            node.col_offset = with_node.col_offset
            node.end_lineno = header_end.end_lineno
            node.end_col_offset = header_end.end_col_offset
    return replacement


def rewrite_objmode_blocks(py_func, node, lines, options):
    """``node`` with each ``with objmode(...)`` statement of the function's own scope replaced
    by the call of its block (a new tree; ``node`` itself is left unchanged), or ``node`` when
    there is none."""
    if not _may_hold_with(py_func.__code__):
        return node
    context = _Context(py_func, lines, options)
    found = []
    _own_statement_lists(node.body, (), found)
    if not any(context.is_objmode(statements[index]) for statements, index, _ in found):
        return node
    node = copy.deepcopy(node)
    found = []
    _own_statement_lists(node.body, (), found)
    blocks = [(s, i, loops) for s, i, loops in found if context.is_objmode(s[i])]
    skipped = {id(statements[index]) for statements, index, _ in blocks}
    function_names = _FunctionNames(skipped)
    for statement in node.body:
        function_names.visit(statement)
    declared_outputs = []
    for statements, index, _ in blocks:
        call = statements[index].items[0].context_expr
        keywords = call.keywords if isinstance(call, ast.Call) else []
        declared_outputs.append({k.arg for k in keywords if k.arg})
    parameters = _parameters(node)
    for (statements, index, loops), own_outputs in zip(blocks, declared_outputs):
        statements[index] = _rewrite_block(
            context,
            statements[index],
            declared_outputs,
            own_outputs,
            function_names,
            parameters,
            loops,
        )
    return node
