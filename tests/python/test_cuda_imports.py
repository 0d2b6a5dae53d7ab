"""taipan.cuda's modules form no import circle: each imports alone, in a fresh interpreter and
without the package's __init__ choosing the order, and in any order with the others."""

import ast
import pathlib
import random

import pytest
from child_processes import child_environment, run_python

import taipan

CUDA = pathlib.Path(taipan.__file__).parent / "cuda"
MODULES = sorted(path.stem for path in CUDA.glob("*.py") if path.stem != "__init__")

# The package without its __init__: a bare module with the folder as its path, so importing a
# submodule runs only that module and what it imports itself.
IMPORT_BARE = """
import importlib, sys, types
import taipan
package = types.ModuleType("taipan.cuda")
package.__path__ = [{folder!r}]
sys.modules["taipan.cuda"] = taipan.cuda = package
for name in {names!r}:
    importlib.import_module("taipan.cuda." + name)
"""


def import_in_fresh_interpreter(names):
    code = IMPORT_BARE.format(folder=str(CUDA), names=list(names))
    # The child finds this taipan however the parent did (PYTHONPATH=src or installed).
    run_python(["-c", code], env=child_environment(), timeout=120)


def cuda_imports(path):
    """The taipan.cuda modules a file imports, at its top level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "taipan.cuda":
                found.update(alias.name for alias in node.names if alias.name in MODULES)
            elif node.module.startswith("taipan.cuda."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("taipan.cuda."):
                    found.add(alias.name.split(".")[2])
    return found


def test_the_submodules_are_found():
    assert {"devicearray", "dispatcher", "driver", "launcher", "streams"} <= set(MODULES)


def test_import_graph_has_no_cycle():
    graph = {name: cuda_imports(CUDA / f"{name}.py") - {name} for name in MODULES}
    state = {}

    def visit(name, path):
        if state.get(name) == "done":
            return
        assert state.get(name) != "open", "import circle: " + " -> ".join(path + [name])
        state[name] = "open"
        for imported in sorted(graph[name]):
            visit(imported, path + [name])
        state[name] = "done"

    for name in MODULES:
        visit(name, [])
    # The launch logic lives in the launcher, above device arrays and the driver.
    assert "launcher" in graph["dispatcher"]
    assert not graph["driver"]
    assert "dispatcher" not in graph["devicearray"] and "interop" not in graph["devicearray"]


@pytest.mark.parametrize("name", MODULES)
def test_each_module_imports_alone(name):
    import_in_fresh_interpreter([name])


@pytest.mark.parametrize("seed", range(3))
def test_all_modules_import_in_any_order(seed):
    order = list(MODULES)
    random.Random(seed).shuffle(order)
    import_in_fresh_interpreter(order)
