"""docs/extending.md, the guide to the low-level extension API: every ```` ```python ```` block
is a complete program that runs in a fresh process and prints exactly the ```` ```text ````
block that follows it, and leaves no memory block of compiled code alive."""

import os
import pathlib
import re
import subprocess
import sys

import pytest
from child_processes import child_python_path

pytest.importorskip("llvmlite")

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "extending.md"
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)

# Appended to each program: drop its names, collect, report the blocks still alive.
LIVE_BLOCKS_CHECK = """
import gc as _gc
import sys as _sys

from taipan.runtime import live_blocks as _live_blocks

for _name in [name for name in globals() if not name.startswith("_")]:
    del globals()[_name]
_gc.collect()
print("live blocks:", _live_blocks(), file=_sys.stderr)
"""


def guide_examples():
    """(number, source, expected output) of every runnable block, in the guide's order."""
    text = GUIDE.read_text()
    fences = list(FENCE.finditer(text))
    examples = []
    for position, fence in enumerate(fences):
        if fence.group("info").strip() != "python":
            continue
        following = fences[position + 1] if position + 1 < len(fences) else None
        assert following is not None and following.group("info").strip() == "text", (
            f"the example at offset {fence.start()} has no ```text block of its output after it"
        )
        assert not text[fence.end() : following.start()].strip()
        examples.append((len(examples) + 1, fence.group("body"), following.group("body")))
    return examples


EXAMPLES = guide_examples()


def test_the_guide_has_examples():
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("number, source, expected", EXAMPLES, ids=[str(e[0]) for e in EXAMPLES])
def test_guide_example(tmp_path, number, source, expected):
    script = tmp_path / f"extending_example_{number}.py"
    script.write_text(source + LIVE_BLOCKS_CHECK)
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("TAIPAN_", "NUMBA_"))
    }
    environment["PYTHONPATH"] = child_python_path()
    completed = subprocess.run(
        [sys.executable, script.name],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert completed.returncode == 0, f"example {number} failed:\n{completed.stderr}"
    assert completed.stdout == expected, f"example {number} printed:\n{completed.stdout}"
    assert completed.stderr.splitlines()[-1] == "live blocks: 0", completed.stderr
