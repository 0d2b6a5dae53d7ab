# ruff: noqa: S102 - functions made by exec are what this file tests
"""Functions that have no source file: built from a syntax tree with ``compile(tree, "<ast>",
"exec")`` and ``exec`` (numbagg's transform does so), from ``exec`` of generated text, as
lambdas of such text, and rebuilt with ``types.FunctionType``. taipan keeps the tree or text
``compile``/``exec`` compiled them from and reads that; where nothing can be recovered the error
names the function and says why. Results are compared with ``py_func``."""

import ast
import inspect
import textwrap
import types

import numpy as np
import pytest
from child_processes import child_environment, run_python
from conftest import assert_same

from taipan import TypingError, UnsupportedError, njit
from taipan.runtime import live_blocks


def _template(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * 2.0 + 1.0
    return out.sum()


def _from_tree(tree, name, namespace=None):
    """exec of compile(tree, "<ast>", "exec"), as numbagg's transform.py does."""
    namespace = {"np": np} if namespace is None else namespace
    exec(compile(tree, "<ast>", "exec"), namespace)
    return namespace[name]


def _transformed(function, rename, operator):
    """The function's tree with its name changed and its `*` made `operator` (a rewrite such
    as numbagg's, which leaves no text behind)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    definition = tree.body[0]
    definition.name = rename

    class Swap(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if isinstance(node.op, ast.Mult):
                node.op = operator
            return node

    tree = ast.fix_missing_locations(Swap().visit(tree))
    return _from_tree(tree, rename)


@pytest.mark.parametrize("operator", [ast.Mult(), ast.Add(), ast.Sub(), ast.Div()])
def test_function_rewritten_through_its_tree(operator):
    function = njit(_transformed(_template, "rewritten", operator))
    before = live_blocks()
    a = np.arange(5.0)
    assert function(a, np.empty(5)) == function.py_func(a, np.empty(5))
    assert live_blocks() == before


def test_function_built_node_by_node():
    """A tree made from nodes alone (no text ever parsed), every position filled in by
    fix_missing_locations: all on line 1."""
    x, y = ast.arg(arg="x"), ast.arg(arg="y")
    body = [
        ast.Assign(
            targets=[ast.Name(id="total", ctx=ast.Store())],
            value=ast.BinOp(
                left=ast.Name(id="x", ctx=ast.Load()),
                op=ast.Pow(),
                right=ast.Constant(2),
            ),
        ),
        ast.Return(
            value=ast.BinOp(
                left=ast.Name(id="total", ctx=ast.Load()),
                op=ast.Add(),
                right=ast.Name(id="y", ctx=ast.Load()),
            )
        ),
    ]
    definition = ast.FunctionDef(
        name="built",
        args=ast.arguments(posonlyargs=[], args=[x, y], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=body,
        decorator_list=[],
        returns=None,
    )
    tree = ast.fix_missing_locations(ast.Module(body=[definition], type_ignores=[]))
    function = njit(_from_tree(tree, "built"))
    for arguments in [(3, 4), (2.5, -1.0), (-7, 0.5)]:
        assert_same(function, *arguments)


def test_tree_with_several_functions_and_a_loop():
    source = textwrap.dedent(
        """
        def helper(v):
            return v * v

        def moving_sum(a, window):
            out = np.empty(a.shape[0] - window + 1)
            for i in range(out.shape[0]):
                s = 0.0
                for j in range(window):
                    s += a[i + j]
                out[i] = s + helper(0.0)
            return out
        """
    )
    tree = ast.parse(source)
    namespace = {"np": np}
    exec(compile(tree, "<ast>", "exec"), namespace)
    namespace["helper"] = njit(namespace["helper"])
    moving_sum = njit(namespace["moving_sum"])
    a = np.arange(10.0)
    before = live_blocks()
    np.testing.assert_array_equal(moving_sum(a, 3), moving_sum.py_func(a, 3))
    assert live_blocks() == before


def test_tree_calling_another_jitted_tree_function():
    tree = ast.parse("def inner(v):\n    return v + 1\n")
    namespace = {}
    exec(compile(tree, "<ast>", "exec"), namespace)
    namespace["inner"] = njit(namespace["inner"])
    outer_tree = ast.parse("def outer(v):\n    return inner(v) * 3\n")
    exec(compile(outer_tree, "<ast-outer>", "exec"), namespace)
    outer = njit(namespace["outer"])
    assert_same(outer, 4)
    assert_same(outer, 2.5)


def test_lambda_from_a_tree():
    tree = ast.parse("square_plus = lambda v, w=1: v * v + w\n")
    function = njit(_from_tree(tree, "square_plus", {}))
    assert_same(function, 3)
    assert_same(function, 1.5, 2)


def test_function_rebuilt_from_a_tree_code_object():
    """types.FunctionType over the code object nested in the tree's module code."""
    code = compile(ast.parse("def rebuilt(v):\n    return v - 10\n"), "<ast>", "exec")
    inner = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    function = njit(types.FunctionType(inner, {}, "rebuilt"))
    assert_same(function, 15)


def test_function_from_exec_of_generated_text():
    lines = ["def generated(a):", "    s = 0"]
    lines += [f"    s += a[{i}] * {i}" for i in range(4)]
    lines += ["    return s"]
    namespace = {}
    exec("\n".join(lines) + "\n", namespace)
    function = njit(namespace["generated"])
    before = live_blocks()
    assert_same(function, np.arange(4))
    assert live_blocks() == before


def test_typing_error_in_a_tree_function_names_its_line():
    tree = ast.parse("def broken(v):\n    return v + 'text'\n")
    function = njit(_from_tree(tree, "broken", {}))
    with pytest.raises(TypingError) as raised:
        function(1)
    message = str(raised.value)
    assert "<ast>" in message and "line 2" in message and "broken" in message


def test_tree_changed_after_compiling_is_refused_naming_why():
    tree = ast.parse("def changed(v):\n    return v + 1\n")
    namespace = {}
    exec(compile(tree, "<ast>", "exec"), namespace)
    tree.body[0].body[0].value.op = ast.Sub()  # the tree no longer holds this code
    function = njit(namespace["changed"])
    with pytest.raises(UnsupportedError, match=r"cannot compile changed: the syntax tree"):
        function(1)


def test_code_compiled_before_taipan_was_imported_names_the_function():
    """Nothing at all can be recovered: the tree was compiled before taipan was imported."""
    script = textwrap.dedent(
        """
        import ast
        namespace = {}
        exec(compile(ast.parse("def early(v):\\n    return v\\n"), "<ast>", "exec"), namespace)
        import taipan
        try:
            taipan.njit(namespace["early"])(1)
        except taipan.UnsupportedError as error:
            print(str(error).splitlines()[0])
        """
    )
    completed = run_python(["-c", script], env=child_environment(), timeout=120)
    line = completed.stdout.strip()
    assert line.startswith("cannot compile early: its source text is not available")
    assert "after taipan was imported" in line
