"""The documentation's links and the code's references to doc sections resolve
(scripts/check_doc_links.py), and the check finds what it must: a missing file, an anchor that
names no heading, a comment naming a section a page no longer has."""

import pathlib

from module_files import load_module, write_files

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


def _checker():
    return load_module(REPOSITORY / "scripts" / "check_doc_links.py", "check_doc_links")


# Spelled apart, so that the check of this repository does not read the fixtures as references.
PAGE_NAME = "architecture" + ".md"
PAGE = "# Map\n\n## Locks and the GIL\n\n- **Object-mode blocks**: text\n\n---\n\n## History\n"


def test_the_repository_links_resolve(capsys):
    assert _checker().main(["check_doc_links.py", str(REPOSITORY)]) == 0, capsys.readouterr().out


def test_links_and_anchors_that_resolve_pass(tmp_path, capsys):
    write_files(
        tmp_path,
        {
            "README.md": "[map](docs/architecture.md#locks-and-the-gil) [web](https://x.org)\n"
            "`[not](a link)`\n```\n[in](a fence)\n```\n",
            "docs/architecture.md": PAGE,
            "src/taipan/a.py": f'# docs/{PAGE_NAME}, "Locks"\n'
            f"# see docs/{PAGE_NAME},\n# 'Object-mode blocks'\n"
            f"# the map (`{PAGE_NAME}` (Locks and the GIL))\n",
        },
    )
    assert _checker().main(["check_doc_links.py", str(tmp_path)]) == 0, capsys.readouterr().out


def test_broken_links_and_section_references_are_reported(tmp_path, capsys):
    write_files(
        tmp_path,
        {
            "README.md": "[gone](docs/gone.md) [anchor](docs/architecture.md#nowhere)\n",
            "docs/architecture.md": PAGE,
            "src/core/a.cpp": f'// docs/{PAGE_NAME}, "Generators"\n',
        },
    )
    assert _checker().main(["check_doc_links.py", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "README.md:1: docs/gone.md does not exist" in out
    assert "docs/architecture.md#nowhere names no heading" in out
    assert "src/core/a.cpp: architecture.md has no section 'generators'" in out


def test_a_page_history_may_name_sections_that_are_gone(tmp_path, capsys):
    write_files(
        tmp_path,
        {
            "docs/architecture.md": PAGE,
            "docs/performance.md": f"# P\n\n## History\n\n{PAGE_NAME}, *Gone section*\n",
        },
    )
    assert _checker().main(["check_doc_links.py", str(tmp_path)]) == 0, capsys.readouterr().out
