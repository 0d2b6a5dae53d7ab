"""CPython's constant folding, done by CPython: the reader (bindings/AstExpressions.cpp) asks
``fold`` for the value of an operator, or a subscript, whose operands are constants, and gets
the constant CPython's compiler puts in the function's code object (``10 ** -6`` is 1e-06,
``2 ** 64 - 1`` is 18446744073709551615), or None where CPython leaves the expression to run
(``1 / 0`` raises at run time, ``2 ** 1000`` is too large to fold)."""

import ast
import sys
import warnings


def _located(node):
    node.lineno = node.end_lineno = 1
    node.col_offset = node.end_col_offset = 0
    return node


def _single_constant(code):
    """The value of ``code`` when its whole work is to return one constant, else None (as a
    1-tuple, since the constant may be None)."""
    if sys.version_info < (3, 14):
        # 3.10-3.13 return a folded constant with a LOAD_CONST (or RETURN_CONST) of co_consts[0],
        # the same instructions as an expression that is a constant to begin with.
        if code.co_code == _REFERENCE.co_code and code.co_consts:
            return (code.co_consts[0],)
        return None
    import dis

    steps = [i for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP", "CACHE")]
    loads = ("LOAD_CONST", "LOAD_SMALL_INT")
    if len(steps) == 2 and steps[0].opname in loads and steps[1].opname == "RETURN_VALUE":
        return (steps[0].argval,)
    return None


def _compiled(expression):
    with warnings.catch_warnings():  # (e.g. ~True's DeprecationWarning: Python gave it once)
        warnings.simplefilter("ignore")
        return compile(
            ast.Expression(_located(expression)), "<constant>", "eval", dont_inherit=True
        )


_REFERENCE = _compiled(ast.Constant(0.5))


def fold(node, operands):
    """``(value,)``: what CPython's compiler folds ``node`` (an ast BinOp, UnaryOp or Subscript)
    into when its operands are the constants ``operands`` (in the node's order: left and right,
    the operand, or the container and the index); None when CPython does not fold it."""
    constants = [_located(ast.Constant(value)) for value in operands]
    kind = type(node)
    if kind is ast.BinOp:
        expression = ast.BinOp(left=constants[0], op=node.op, right=constants[1])
    elif kind is ast.UnaryOp:
        expression = ast.UnaryOp(op=node.op, operand=constants[0])
    elif kind is ast.Subscript and type(node.ctx) is ast.Load:
        expression = ast.Subscript(value=constants[0], slice=constants[1], ctx=ast.Load())
    else:
        return None
    try:
        code = _compiled(expression)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    return _single_constant(code)
