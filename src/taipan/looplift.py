"""Loop lifting for object mode: each outermost loop of an object-mode function whose body types
in nopython mode runs as a native function; ``@jit(nopython=False)``'s fallback uses it too.

The function's source is parsed; each loop that is a statement of the function's own body (not
nested in ``if``/``with``/``try``) and holds no ``return``, ``yield``, ``await``, ``global`` or
``nonlocal``, and uses no name the function declares global/nonlocal, becomes a jitted function
made from the loop's own source lines (verbatim, at their original line numbers, so errors and
tracebacks name the user's lines). Its parameters are the loop's live-ins (locals it reads) and
its live-outs (locals it assigns that the function uses elsewhere), and it returns the live-outs.
The function is rebuilt with each such loop replaced by a call to a ``LiftedLoop``, which runs the
native loop when every live value is bound and of a type whose changes the native code makes
visible (numbers, booleans, NumPy arrays and scalars: a list or dict is copied into nopython mode
and its changes would be lost), and the loop compiles for those types; otherwise the original loop
runs in the interpreter (as Numba, silently)."""

import ast
import inspect
import textwrap

import numpy as np

from taipan import source_texts

# Values a lifted loop can take and give back without changing what the interpreter computes.
_SAFE_TYPES = (bool, int, float, complex, np.ndarray, np.generic)


class LiftedLoop:
    """One lifted loop: its native functions (one per set of bound live values, each compiled
    per set of live-in types and cached here) and the type sets for which it did not compile."""

    def __init__(self, make_function, params, stored, outs, lineno):
        self.make_function = make_function  # parameter names -> the loop as a Python function
        self.params = params  # the live values: names the loop reads, then its live-outs
        self.stored = stored  # names the loop assigns (need not be bound before it)
        self.outs = outs  # names of the live-outs, in result order
        self.lineno = lineno  # the loop's first line in the user's file
        self.dispatchers = {}  # parameter names -> Dispatcher
        self.failed = {}  # (parameter names, argument types) -> why the loop stayed interpreted

    @property
    def dispatcher(self):
        """The native function of the first set of bound live values (most loops have one)."""
        return next(iter(self.dispatchers.values()), None)

    def run(self, frame_locals):
        """Runs the loop natively with the frame's values: (True, live-outs), or (False, None)
        when the interpreter must run it."""
        names = []
        for name in self.params:
            if name in frame_locals:
                names.append(name)
            elif name in self.outs or name not in self.stored:
                return False, None  # unbound: the interpreter reports it (or assigns it)
        args = [frame_locals[name] for name in names]
        if not all(isinstance(a, _SAFE_TYPES) and not isinstance(a, np.str_) for a in args):
            return False, None
        if any(isinstance(a, np.ndarray) and a.dtype.hasobject for a in args):
            return False, None
        from taipan.errors import TaipanError

        names = tuple(names)
        dispatcher = self.dispatchers.get(names)
        if dispatcher is None:
            from taipan.dispatcher import Dispatcher

            dispatcher = Dispatcher(self.make_function(names), {"nopython": True})
            self.dispatchers[names] = dispatcher
        try:
            key = dispatcher._argument_types(args)
        except TaipanError:
            return False, None
        if (names, key) in self.failed:
            return False, None
        if key not in dispatcher._overloads:
            try:
                dispatcher._compile_types(key, None)
            except TaipanError as error:  # the body does not type: interpreted, as in Numba
                self.failed[names, key] = error
                return False, None
            if not self._keeps_types(dispatcher, names, key):
                self.failed[names, key] = "a live-out changes type in the loop"
                return False, None
        return True, dispatcher(*args)

    def _keeps_types(self, dispatcher, names, key):
        """Whether each live-out bound on entry leaves with the type it came in with. Numba
        widens such a value (``s = 0`` then ``s += 0.5``: float64 even after no iteration);
        the interpreter would keep the int, so such a loop stays interpreted."""
        result = dispatcher._overloads[key].return_type
        try:
            out_types = list(result.types)
        except (TypeError, AttributeError):
            return False
        if len(out_types) != len(self.outs):
            return len(self.outs) == 0
        for name, out_type in zip(self.outs, out_types):
            if name in names and str(out_type) != str(key[names.index(name)]):
                return False
        return True

    @property
    def signatures(self):
        """The live-in type sets for which the loop runs natively."""
        return [
            key
            for names, d in self.dispatchers.items()
            for key in d._overloads
            if (names, key) not in self.failed
        ]


def _names(nodes, ctx):
    found = []
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ctx) and sub.id not in found:
                found.append(sub.id)
    return found


def _liftable(loop, declared):
    for sub in ast.walk(loop):
        if isinstance(
            sub,
            (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal),
        ):
            return False
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False  # a nested scope: its names are not the loop's
        if isinstance(sub, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return False
        if isinstance(sub, (ast.Try, ast.With, ast.AsyncFor, ast.AsyncWith, ast.Delete)):
            return False
        if isinstance(sub, ast.NamedExpr):
            return False
        if isinstance(sub, ast.Name) and sub.id in declared:
            return False
    return True


class LiftedFunction:
    """The rebuilt function (``code``) and its lifted loops, or why nothing was lifted."""

    def __init__(self, function, loops, reason=None):
        self.function = function
        self.loops = loops
        self.reason = reason


def lift_loops(py_func):
    """Rebuilds ``py_func`` with its liftable loops replaced by LiftedLoop calls."""
    if py_func.__code__.co_flags & (
        inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
    ):
        return LiftedFunction(py_func, [], "a generator or coroutine: no loop lifted")
    freevars = py_func.__code__.co_freevars
    try:
        lines, first = inspect.getsourcelines(py_func)
    except (OSError, TypeError):
        return LiftedFunction(py_func, [], "no source text: no loop lifted")
    source = "".join(lines)
    try:
        tree = source_texts.parse(textwrap.dedent(source))
    except SyntaxError:
        return LiftedFunction(py_func, [], "source text does not parse: no loop lifted")
    ast.increment_lineno(tree, first - 1)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if len(defs) != 1 or defs[0].name != py_func.__name__:
        return LiftedFunction(py_func, [], "definition not found: no loop lifted")
    fdef = defs[0]
    fdef.decorator_list = []
    all_lines = lines  # the definition's lines, first at line `first`
    declared = set()
    for sub in ast.walk(fdef):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            declared.update(sub.names)
    arguments = fdef.args
    params = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
    params += [a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None]
    local_names = set(params) | set(_names(fdef.body, ast.Store)) | set(freevars)
    loops = []
    new_body = []
    for stmt in fdef.body:
        if not isinstance(stmt, (ast.For, ast.While)) or not _liftable(stmt, declared):
            new_body.append(stmt)
            continue
        others = [s for s in fdef.body if s is not stmt]
        used_elsewhere = set(_names(others, ast.Load)) | set(_names(others, ast.Store))
        # A loop inside an enclosing loop would also need its own earlier values, but only
        # the function's own statements are lifted, so "elsewhere" is the rest of the body.
        stored = [n for n in _names([stmt], ast.Store) if n in local_names]
        loaded = [n for n in _names([stmt], ast.Load) if n in local_names]
        outs = [n for n in stored if n in used_elsewhere]
        live = loaded + [n for n in outs if n not in loaded]
        targets = _names([stmt.target], ast.Store) if isinstance(stmt, ast.For) else []
        if isinstance(stmt, ast.For) and not stmt.orelse:
            loaded = [n for n in loaded if n not in targets or n in outs]
        live = loaded + [n for n in outs if n not in loaded]
        index = len(loops)
        # The loop's own text, unchanged, at its own line numbers: blank lines before it.
        body = all_lines[stmt.lineno - first : stmt.end_lineno - first + 1]
        raw = body[0]
        indent = raw[: len(raw) - len(raw.lstrip())]
        if not indent:
            new_body.append(stmt)
            continue
        make = _function_maker(py_func, stmt, body, indent, outs, index)
        lifted = LiftedLoop(make, live, stored, outs, stmt.lineno)
        loops.append(lifted)
        new_body.extend(_replacement(stmt, index, outs, id(loops)))
    if not loops:
        return LiftedFunction(py_func, [], "no loop could be lifted")
    fdef.body = new_body
    if freevars:
        # Nested in a function whose locals are the free variables, so that they stay free
        # (cells); the rebuilt code then takes the original function's closure.
        outer = source_texts.parse(
            f"def __taipan_outer():\n    {'; '.join(f'{v} = None' for v in freevars)}"
        )
        outer.body[0].body.append(fdef)
        outer.body[0].body.append(ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load())))
        module = outer
    else:
        module = ast.Module(body=[fdef], type_ignores=[])
    ast.fix_missing_locations(module)
    code = source_texts.compile_tree(module, py_func.__code__.co_filename, 0)
    namespace = {}
    scope = dict(py_func.__globals__)
    exec(code, scope, namespace)  # noqa: S102 (the function's own source, rebuilt)
    if freevars:
        rebuilt_code = namespace["__taipan_outer"]().__code__
        if rebuilt_code.co_freevars != freevars:
            return LiftedFunction(py_func, [], "closure variables differ: no loop lifted")
    else:
        rebuilt_code = namespace[fdef.name].__code__
    # The rebuilt function must see the module's globals as they change: rebind to them.
    import types

    rebuilt = types.FunctionType(
        rebuilt_code,
        py_func.__globals__,
        py_func.__name__,
        py_func.__defaults__,
        py_func.__closure__,
    )
    rebuilt.__kwdefaults__ = py_func.__kwdefaults__
    rebuilt.__taipan_lifted__ = loops
    _REGISTRY[id(loops)] = loops
    return LiftedFunction(rebuilt, loops)


_REGISTRY = {}  # id of a function's loop list -> the list (kept alive for the function's life)


def run_lifted(key, index, frame_locals):
    """Called by a rebuilt function in place of its loop number ``index``."""
    return _REGISTRY[key][index].run(frame_locals)


def _function_maker(py_func, stmt, body, indent, outs, index):
    def make(params):
        name = f"__taipan_lifted_loop_{index}"
        text = "\n" * (stmt.lineno - 2) + f"def {name}({', '.join(params)}):\n" + "".join(body)
        if not text.endswith("\n"):
            text += "\n"
        result = ", ".join(outs) + ("," if outs else "")
        text += f"{indent}return ({result})\n"
        namespace = {}
        code = compile(text, py_func.__code__.co_filename, "exec", dont_inherit=True)
        exec(code, py_func.__globals__, namespace)  # noqa: S102 (the loop's own source)
        loop_func = namespace[name]
        loop_func.__qualname__ = f"{py_func.__qualname__}.<loop@{stmt.lineno}>"
        return loop_func

    return make


def _replacement(loop, index, outs, key):
    """``__ok, __vals = __taipan_lifted__[index].run(locals())``, then either unpacks the
    live-outs or runs the original loop in the interpreter."""
    ok, vals = f"__taipan_ok_{index}", f"__taipan_vals_{index}"
    text = (
        f"{ok}, {vals} = __import__('taipan.looplift', fromlist=['_'])"
        f".run_lifted({key}, {index}, locals())\n"
        f"if {ok}:\n"
        f"    ({', '.join(outs)}{',' if outs else ''}) = {vals}\n"
        f"else:\n"
        f"    pass\n"
    )
    stmts = source_texts.parse(text).body
    for stmt in stmts:
        ast.increment_lineno(stmt, loop.lineno - 1)
        for sub in ast.walk(stmt):
            if hasattr(sub, "col_offset"):
                sub.col_offset = loop.col_offset
                sub.end_col_offset = loop.col_offset
    if not outs:
        stmts[1].body = [ast.Pass(lineno=loop.lineno, col_offset=loop.col_offset)]
    stmts[1].orelse = [loop]
    return stmts
