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
# bottom, then syntax and types, typing, the target interface, lowering, the targets (which never
# include each other), and the compiler driver on top.
CORE_RULES = {
    "support": set(),
    "runtime": set(),
    "syntax": {"support", "runtime"},  # runtime/PythonDialect: what the Python in use does
    "types": {"support"},
    "typing": {"support", "runtime", "syntax", "types"},
    "target": {"support"},
    # The library's families write each function's type rule next to its lowering, so they sit
    # above lowering; typing and lowering reach the registry through its interface header only.
    "library": {"support", "runtime", "syntax", "types", "typing", "target", "lower"},
    "lower": {"support", "runtime", "syntax", "types", "typing", "target"},
    "cpu": {"support", "runtime", "syntax", "types", "typing", "target", "lower"},
    "cuda": {"support", "runtime", "syntax", "types", "typing", "target", "lower"},
    "compiler": {
        "support",
        "runtime",
        "syntax",
        "types",
        "typing",
        "target",
        "lower",
        "library",
        "cpu",
        "cuda",
    },
}

# Single headers a folder may include from a folder above it: the library registry's interface
# (it includes only syntax/ and types/).
CORE_HEADERS = {
    "typing": {"library/Library.h"},
    "lower": {"library/Library.h"},
    "cpu": {"library/Library.h"},
    "cuda": {"library/Library.h"},
}

# What the bindings may use of libtaipan: whole folders, and single public headers of others.
BINDINGS_FOLDERS = {"compiler", "support", "runtime", "syntax", "types", "cuda"}
BINDINGS_HEADERS = {
    "cpu/HostInfo.h",
    "typing/GlobalResolver.h",
    "typing/BuiltinNames.h",
    "typing/OptionalTyping.h",  # types.Optional(T) shares the rule of which T may be optional
    "typing/DictTyping.h",  # typed.Dict shares the key rules and the runtime layout of dicts
    "typing/SetTyping.h",  # unboxing a set argument builds the table lowering would describe
    "typing/ObjectModeBlocks.h",  # objmode blocks: the front end registers, the hook reads
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def included(path):
    return INCLUDE.findall(path.read_text(encoding="utf-8"))


def violations(root):
    found = []
    core = root / "src" / "core"
    for folder, allowed in CORE_RULES.items():
        for path in sorted((core / folder).glob("*.[ch]*")):
            for header in included(path):
                target = header.split("/")[0] if "/" in header else folder
                if header in CORE_HEADERS.get(folder, ()):
                    continue
                if target != folder and target not in allowed:
                    found.append(f"{path.relative_to(root)}: {folder}/ may not include {header}")
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
