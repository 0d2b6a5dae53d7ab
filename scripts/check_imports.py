#!/usr/bin/env python3
"""Checks that the import graph of the Python package src/taipan has no cycle.

Every import counts, at module level or inside a function: a function-local import is still a
dependency, only a later one. `from taipan.a import b` depends on taipan.a.b when that is a
module, else on taipan.a; a package does not depend on its submodules by being their parent.
Prints each cycle (a strongly connected component of more than one module) and exits with 1.
Usage: check_imports.py [repository root]
"""

import ast
import pathlib
import sys


def module_names(package_root):
    """Module name -> path, for every .py file below src/taipan."""
    modules = {}
    for path in sorted(package_root.rglob("*.py")):
        parts = list(path.relative_to(package_root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    # The compiled extension: a leaf that imports nothing of the package.
    modules["taipan._core"] = None
    return modules


def imported(module, path, modules):
    """The modules of the package that `module` imports anywhere in its text."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names = [f"{source}.{alias.name}" for alias in node.names]
            names = [name if name in modules else source for name in names]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).parents[1])
    modules = module_names(root / "src" / "taipan")
    graph = {
        name: imported(name, path, modules) if path else set() for name, path in modules.items()
    }
    found = cycles(graph)
    for component in found:
        members = set(component)
        print(f"import cycle of {len(component)} modules:")
        for name in component:
            print(f"  {name} -> {', '.join(sorted(graph[name] & members))}")
    if not found:
        print("imports: the package's import graph has no cycle")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
