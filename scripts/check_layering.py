#!/usr/bin/env python3
"""Checks the include rules between taipan's C++ folders (run by ctest as `layering`).

Each folder of src/core may include headers of the folders listed for it (and its own); the
bindings may include only libtaipan's public headers. Prints every violation and exits with 1.
Usage: check_layering.py [repository root]
"""

import pathlib
import re
import sys

# Folder -> the folders it may include. One direction of dependency: support and runtime at the
# bottom, then syntax and types, the library registry, typing, the target interface, lowering,
# the library's families, the targets (which never include each other), and the compiler driver
# on top. The folder graph has no cycle (checked below), and no folder may include a single
# header of a folder above it.
CORE_RULES = {
    "support": set(),
    "runtime": set(),
    "syntax": {"support", "runtime"},  # runtime/PythonDialect: what the Python in use does
    "types": {"support"},
    # The registry of library functions (what typing and lowering look up by name): the entry
    # types and their lookup, below typing and lowering; the families that fill it are above.
    "registry": {"support", "syntax", "types"},
    "typing": {"support", "runtime", "syntax", "types", "registry"},
    "target": {"support"},
    "lower": {"support", "runtime", "syntax", "types", "registry", "typing", "target"},
    # The library's families write each function's type rule next to its lowering, so they sit
    # above typing and lowering.
    "library": {
        "support",
        "runtime",
        "syntax",
        "types",
        "registry",
        "typing",
        "target",
        "lower",
    },
    "cpu": {"support", "runtime", "syntax", "types", "registry", "typing", "target", "lower"},
    "cuda": {"support", "runtime", "syntax", "types", "registry", "typing", "target", "lower"},
    "compiler": {
        "support",
        "runtime",
        "syntax",
        "types",
        "registry",
        "typing",
        "target",
        "lower",
        "library",
        "cpu",
        "cuda",
    },
}


# Headers a folder may not include although their folder is allowed: library entries see lowering
# through lower/LoweringApi.h and the room headers, never the core class itself.
FORBIDDEN_HEADERS = {
    "library": {"lower/FunctionLowering.h"},
}


def folder_cycle(rules):
    """A cycle among the folders' rules (a list of folders, first repeated last), or None."""
    state = {}

    def visit(folder, path):
        state[folder] = "open"
        for below in sorted(rules.get(folder, ())):
            if state.get(below) == "open":
                trail = path + [folder]
                return trail[trail.index(below) :] + [below]
            if below not in state:
                found = visit(below, path + [folder])
                if found:
                    return found
        state[folder] = "done"
        return None

    for folder in sorted(rules):
        if folder not in state:
            found = visit(folder, [])
            if found:
                return found
    return None


# What the bindings may use of libtaipan: whole folders, and single public headers of others.
BINDINGS_FOLDERS = {"compiler", "support", "runtime", "syntax", "types", "cuda"}
BINDINGS_HEADERS = {
    "cpu/HostInfo.h",
    "typing/GlobalResolver.h",
    "typing/CallLiterals.h",  # the resolver reads the call's literal arguments beside it
    "typing/ConstantArguments.h",  # literally()'s request becomes Python's ForceLiteralArg
    "typing/ImpreciseValues.h",  # a typing function's ImpreciseTypeError becomes its C++ error
    "typing/BuiltinNames.h",
    "typing/OptionalTyping.h",  # types.Optional(T) shares the rule of which T may be optional
    "typing/DictTyping.h",  # typed.Dict shares the key rules and the runtime layout of dicts
    "typing/SetTyping.h",  # unboxing a set argument builds the table lowering would describe
    "typing/ObjectModeBlocks.h",  # objmode blocks: the front end registers, the hook reads
    "library/InstalledNumpy.h",  # the extension records what the installed NumPy computes
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def included(path):
    return INCLUDE.findall(path.read_text(encoding="utf-8"))


def violations(root):
    found = []
    cycle = folder_cycle(CORE_RULES)
    if cycle:
        found.append("the folder rules have a cycle: " + " -> ".join(cycle))
    core = root / "src" / "core"
    for folder, allowed in CORE_RULES.items():
        for path in sorted((core / folder).glob("*.[ch]*")):
            for header in included(path):
                target = header.split("/")[0] if "/" in header else folder
                if target != folder and target not in allowed:
                    found.append(f"{path.relative_to(root)}: {folder}/ may not include {header}")
                elif header in FORBIDDEN_HEADERS.get(folder, ()):
                    found.append(
                        f"{path.relative_to(root)}: {folder}/ may not include {header} "
                        "(library entries use lower/LoweringApi.h and the room headers)"
                    )
    known = set(CORE_RULES)
    for path in sorted(core.iterdir()):
        if path.is_dir() and path.name not in known:
            found.append(f"src/core/{path.name}/ has no layering rule in {__file__}")
    for path in sorted((root / "src" / "bindings").glob("*.[ch]*")):
        for header in included(path):
            if "/" not in header:
                continue  # the bindings' own headers
            if header.split("/")[0] not in BINDINGS_FOLDERS and header not in BINDINGS_HEADERS:
                found.append(
                    f"{path.relative_to(root)}: the bindings may not include {header} "
                    "(not a public header of libtaipan)"
                )
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1])
    found = violations(root.resolve())
    for line in found:
        print(line)
    if not found:
        print("layering: every include follows the rules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
