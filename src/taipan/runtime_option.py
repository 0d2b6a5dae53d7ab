"""Numba's ``_nrt=False`` jit option: a function compiled without Numba's runtime cannot hand
a new array to its caller, so one whose result is an array may only return one of its own array
arguments (Numba's ``legalize_return_type``). taipan's runtime is always on, so the option
changes no code; it refuses the functions Numba refuses, with Numba's message, where they are
compiled: a jitted function's specialisation (taipan.dispatcher) and an overload's or
``register_jitable`` function's implementation (taipan.extending)."""

import ast

from taipan.errors import TypingError

MESSAGE = "Only accept returning of array passed into the function as argument"


def runtime_disabled(options):
    """Whether jit options ``options`` turn Numba's runtime off (``_nrt=False``)."""
    return options.get("_nrt", True) is False


def check_return(py_func, return_type):
    """Refuses ``py_func`` compiled to return ``return_type`` without the runtime: an array
    result must be an argument returned as it came (a parameter the body never assigns)."""
    if getattr(return_type, "kind_name", None) != "Array":
        return
    definition = _definition(py_func)
    if definition is None:
        return  # no source text to read: nothing to prove (the compile itself had one)
    if not all(_returns_argument(value, definition) for value in _returned_values(definition)):
        raise TypingError(MESSAGE)


def _definition(py_func):
    import inspect
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(py_func)))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in ast.walk(tree):  # (a lambda's source is the line that holds it)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return node
    return None


def _own_nodes(definition):
    """The nodes of the function's body, not those of functions or lambdas defined in it."""
    body = definition.body
    pending = [body] if isinstance(definition, ast.Lambda) else list(body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))


def _returned_values(definition):
    if isinstance(definition, ast.Lambda):
        return [definition.body]
    return [node.value for node in _own_nodes(definition) if isinstance(node, ast.Return)]


def _returns_argument(value, definition):
    if not isinstance(value, ast.Name):
        return False
    arguments = definition.args
    parameters = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
    if value.id not in parameters:
        return False
    assigned = {
        node.id
        for node in _own_nodes(definition)
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del))
    }
    return value.id not in assigned
