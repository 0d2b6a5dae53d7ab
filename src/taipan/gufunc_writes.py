"""Which operands of an in-place gufunc (a layout without ``->``) its function may write: the
parallel loop driver keeps a call's elements in order when one it may write is broadcast along
the loop, and runs them on the pool otherwise. numbagg's group functions broadcast their labels
over the rows of the values and only read them; proving that keeps such calls parallel.

The proof is syntactic, over the function's verified syntax tree, with the variables' types of
its compiled loops: an array parameter is read-only when the function never rebinds it, never
stores into it, and uses it only in ways that cannot write it nor let a view of it escape (its
shape and size, ``len``, element reads whose result is no array, copying methods and one-argument
NumPy and math functions). Anything else, or no syntax tree, counts as a write."""

import ast

# Attributes of an array that are values, not views.
_VALUE_ATTRIBUTES = frozenset(("shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides"))
# Methods that read an array and return a new value (none returns a view or writes; astype is
# not one: astype(copy=False) may return the array itself).
_READING_METHODS = frozenset(
    ("sum", "mean", "min", "max", "any", "all", "argmin", "argmax", "std", "var", "prod", "copy",
     "item", "cumsum", "cumprod", "nonzero", "tolist")
)  # fmt: skip
# NumPy and math functions that, given one positional argument and no keywords, only read it.
_READING_FUNCTIONS = frozenset(
    ("isnan", "isfinite", "isinf", "sqrt", "abs", "fabs", "absolute", "exp", "log", "floor",
     "ceil", "sum", "nansum", "mean", "nanmean", "min", "max", "amin", "amax", "nanmin", "nanmax",
     "any", "all", "argmin", "argmax", "nanargmin", "nanargmax", "std", "nanstd", "var", "nanvar",
     "prod", "nanprod", "copy", "array", "count_nonzero", "median", "nanmedian", "isclose")
)  # fmt: skip
_MODULES = frozenset(("np", "numpy", "math"))
_BUILTINS = frozenset(("len", "abs", "min", "max", "int", "float", "bool", "complex", "sum"))


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _reading_call(call, argument):
    """Whether ``call`` only reads ``argument`` (one of its positional arguments)."""
    if call.keywords or len(call.args) != 1 or call.args[0] is not argument:
        return False
    function = call.func
    if isinstance(function, ast.Name):
        return function.id in _BUILTINS
    return (
        isinstance(function, ast.Attribute)
        and isinstance(function.value, ast.Name)
        and function.value.id in _MODULES
        and function.attr in _READING_FUNCTIONS
    )


def _reads_element(node, parent, arrays):
    """Whether the subscript ``node`` (``p[...]`` read) is used in a way that keeps no view of
    ``p``: as a number in arithmetic, a comparison, a condition, an index, a value stored, or
    assigned to a variable no loop types as an array."""
    if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
        return True
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and node is parent.test:
        return True
    if isinstance(parent, ast.Subscript) and node is not parent.value:
        return True  # an index into another array: a number, or a copying fancy index
    if isinstance(parent, ast.AugAssign) and node is parent.value:
        return True
    if isinstance(parent, ast.Assign) and node is parent.value:
        targets = parent.targets
        if all(isinstance(t, ast.Subscript) for t in targets):
            return True  # `out[j] = p[i]`: copied into another array
        return all(isinstance(t, ast.Name) and t.id not in arrays for t in targets)
    if isinstance(parent, ast.Call):
        return _reading_call(parent, node)
    return False


def read_only_parameters(function_node, parameters, arrays):
    """The parameters (names) of ``function_node`` (an ast.FunctionDef) proven read-only:
    never rebound, never stored into, and read only in the ways _reads_element and the value
    attributes, reading methods and reading calls allow. ``arrays``: the local variables whose
    type may hold an array (CompiledFunction.array_variables)."""
    parents = _parents(function_node)
    proven = set(parameters)
    for node in ast.walk(function_node):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            proven -= set(node.names)
        if isinstance(node, ast.arg) and parents.get(node) is not function_node.args:
            proven.discard(node.arg)  # shadowed by an inner function's or lambda's parameter
        if not (isinstance(node, ast.Name) and node.id in proven):
            continue
        if not isinstance(node.ctx, ast.Load):
            proven.discard(node.id)
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute):
            above = parents.get(parent)
            if parent.attr in _VALUE_ATTRIBUTES and isinstance(parent.ctx, ast.Load):
                continue
            if (
                parent.attr in _READING_METHODS
                and isinstance(above, ast.Call)
                and above.func is parent
            ):
                continue
        elif isinstance(parent, ast.Subscript) and node is parent.value:
            if isinstance(parent.ctx, ast.Load) and _reads_element(
                parent, parents.get(parent), arrays
            ):
                continue
        elif isinstance(parent, ast.Call) and _reading_call(parent, node):
            continue
        elif isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            continue  # a new value (`p * 2`); `p or q` (BoolOp) would be `p` itself
        elif isinstance(parent, ast.Subscript) and node is not parent.value:
            continue  # an index into another array
        elif isinstance(parent, ast.For) and node is parent.iter:
            target = parent.target
            if isinstance(target, ast.Name) and target.id not in arrays:
                continue
        proven.discard(node.id)
    return proven


def _function_node(py_func):
    """The verified ast.FunctionDef of ``py_func``, or None."""
    try:
        from taipan.frontend import _verified_source

        _, node = _verified_source(py_func)
    except Exception:  # noqa: BLE001 (no tree: no proof)
        return None
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def untyped_written_parameters(py_func):
    """The parameter indices ``py_func`` may write, proven without its variables' types (every
    local variable may hold an array): the CUDA gufuncs copy only these back to host arrays."""
    code = py_func.__code__
    parameters = code.co_varnames[: code.co_argcount]
    node = _function_node(py_func)
    if node is None:
        return list(range(len(parameters)))
    every_name = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    read_only = read_only_parameters(node, parameters, every_name)
    return [k for k, name in enumerate(parameters) if name not in read_only]


def written_operands(py_func, loop_types, loop_array_variables):
    """The operand indices an in-place gufunc's loops may write: every operand some loop types
    as an array, less the parameters proven read-only (all of them when the syntax tree cannot
    be had). ``loop_types``: each loop's operand types; ``loop_array_variables``: each loop's
    locals whose type may hold an array or a view of one (CompiledFunction.array_variables,
    read from the typed function; None for a loop whose types this process does not know)."""
    operands = len(loop_types[0]) if loop_types else 0
    arrays_at = [k for k in range(operands) if any(t[k].kind_name == "Array" for t in loop_types)]
    code = py_func.__code__
    parameters = code.co_varnames[: code.co_argcount]
    if any(names is None for names in loop_array_variables):  # types unknown: no proof
        return arrays_at
    node = _function_node(py_func)
    if node is None:
        return arrays_at
    arrays = set().union(*loop_array_variables)
    read_only = read_only_parameters(node, parameters, arrays)
    return [k for k in arrays_at if parameters[k] not in read_only]
