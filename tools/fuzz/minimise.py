"""Shrinks a failing fuzz program while its failure persists: keeps one argument tuple, deletes
statements (helpers and return items too), replaces compound statements by their bodies and
expressions by one of their operands, greedily, each candidate run in a worker subprocess (so a
crash or hang of a candidate is caught like the original's)."""

from __future__ import annotations

import ast
import copy
import time

from tools.fuzz.run import Worker

MAX_TRIALS = 600
MAX_SECONDS = 180.0


def _statement_lists(tree):
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            seq = getattr(node, field, None)
            if isinstance(seq, list) and seq and isinstance(seq[0], ast.stmt):
                yield node, field


def _simplifiable(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            yield node, [node.left, node.right]
        elif isinstance(node, ast.BoolOp):
            yield node, list(node.values)
        elif isinstance(node, ast.IfExp):
            yield node, [node.body, node.orelse]
        elif isinstance(node, ast.UnaryOp):
            yield node, [node.operand]
        elif isinstance(node, ast.Call) and node.args:
            yield node, list(node.args)
        elif isinstance(node, ast.Tuple) and len(node.elts) > 1:
            yield node, "drop"


def _edits(tree):
    """Candidate edits, largest first: (kind, position, detail)."""
    lists = list(_statement_lists(tree))
    for position, (node, field) in enumerate(lists):
        for i, statement in enumerate(getattr(node, field)):
            if isinstance(statement, (ast.If, ast.For, ast.While, ast.Try)):
                yield ("inline", position, (field, i))
    for position, (node, field) in enumerate(lists):
        for i in reversed(range(len(getattr(node, field)))):
            yield ("delete", position, (field, i))
    for position, (node, children) in enumerate(_simplifiable(tree)):
        if children == "drop":
            for i in range(len(node.elts)):
                yield ("drop", position, i)
        else:
            for i in range(len(children)):
                yield ("operand", position, i)


class _Replace(ast.NodeTransformer):
    def __init__(self, target, replacement):
        self.target, self.replacement = target, replacement

    def generic_visit(self, node):
        if node is self.target:
            return self.replacement
        return super().generic_visit(node)


def _apply(tree, edit):
    tree = copy.deepcopy(tree)
    kind, position, detail = edit
    if kind in ("inline", "delete"):
        node, _ = list(_statement_lists(tree))[position]
        field, i = detail
        seq = getattr(node, field)
        if kind == "delete":
            del seq[i]
        else:
            statement = seq[i]
            seq[i : i + 1] = statement.body + getattr(statement, "orelse", [])
        if not seq and field == "body":
            seq.append(ast.Pass())
        return tree
    node, children = list(_simplifiable(tree))[position]
    if kind == "drop":
        del node.elts[detail]
        return tree
    return _Replace(node, children[detail]).visit(tree)


def minimise(
    program: dict, outcome: str, timeout: float, source: str | None = None, signature=None
) -> str:
    """The smallest source found that still gives ``outcome`` (and, for a mismatch, the same
    ``signature``: what differs, so that shrinking cannot wander off to another difference,
    such as an index left out of bounds once its ``% len(a)`` was simplified away)."""
    worker = Worker()
    started = time.monotonic()
    trials = 0

    def fails(candidate_source: str, args: str) -> bool:
        nonlocal trials
        trials += 1
        candidate = dict(program, source=candidate_source, args=args)
        result = worker.run(candidate, timeout)
        return result["outcome"] == outcome and result.get("signature") == signature

    source = source or program["source"]
    args = program["args"]
    try:
        for single in _split_args(args):
            if fails(source, single):
                args = single
                break
        tree = ast.parse(source)
        progress = True
        while progress and trials < MAX_TRIALS and time.monotonic() - started < MAX_SECONDS:
            progress = False
            for edit in _edits(tree):
                if trials >= MAX_TRIALS or time.monotonic() - started >= MAX_SECONDS:
                    break
                try:
                    candidate = _apply(tree, edit)
                    text = ast.unparse(ast.fix_missing_locations(candidate))
                    compile(text, "<candidate>", "exec")
                except (SyntaxError, ValueError, IndexError):
                    continue
                if fails(text, args):
                    tree, progress = candidate, True
                    break
        return f"# arguments: {args}\n{ast.unparse(tree)}\n"
    finally:
        worker.stop()


def _split_args(args: str) -> list[str]:
    """The argument list ``[(...), (...)]`` as single-tuple lists."""
    tree = ast.parse(args, mode="eval")
    return [f"[{ast.unparse(element)}]" for element in tree.body.elts]
