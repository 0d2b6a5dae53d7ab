#!/usr/bin/env python3
"""Checks that the documentation's links and the code's references to doc sections resolve.

1. Every Markdown link `[text](target)` in README.md, CHANGELOG.md and the .md files below docs/,
   benchmarks/ and tools/ that is not a web address names a file that exists (relative to the
   file holding the link), and its `#anchor`, if any, names a heading of that file (GitHub's
   anchors: lower case, punctuation dropped, spaces as hyphens).
2. Every reference of the form `architecture.md, "Section"` (or 'Section', *Section*,
   (Section)) in those files and in src/, scripts/, benchmarks/ and tests/ names a heading or an
   emphasised label (`**Label**`, `*Label*`) of that page, so moving a section cannot leave a
   comment pointing nowhere.
Prints each broken link and exits with 1 (tests/python/test_doc_links.py runs it).
Usage: check_doc_links.py [repository root]
"""

import pathlib
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
LABEL = re.compile(r"\*\*([^*\n]+?)\*\*|(?<![*\w])\*([^*\n]+?)\*(?![*\w])")
SECTION_REFERENCE = re.compile(
    r"(architecture|performance|configuration|compatibility|distributed)\.md`?"
    r"(?:[,:]\s*(?:section\s+|under\s+)?|\s+(?:section|under)\s+|\s*(?=\())"
    r"(?:\"([^\"\n]+)\"|'([^'\n]+)'|\*([^*\n]+)\*|\(([^)\n]+)\))"
)
MARKDOWN_ROOTS = ("docs", "benchmarks", "tools")
CODE_ROOTS = ("src", "scripts", "benchmarks", "tests", "tools")
CODE_SUFFIXES = {".py", ".cpp", ".h", ".sh", ".md", ".txt", ".toml"}


def markdown_files(root):
    files = [root / name for name in ("README.md", "CHANGELOG.md") if (root / name).exists()]
    for folder in MARKDOWN_ROOTS:
        files += sorted((root / folder).rglob("*.md"))
    return [path for path in files if "_build" not in path.parts]


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    inside = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line


def plain(text):
    return re.sub(r"[`*_]", "", text).strip()


def anchor(heading):
    """GitHub's anchor for a heading's text."""
    text = plain(heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(path):
    return [plain(m.group(1)) for _, line in prose_lines(path) if (m := HEADING.match(line))]


def anchors(path):
    found, seen = set(), {}
    for heading in headings(path):
        base = anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def section_names(path):
    """Headings and emphasised labels of a page, lower case, without trailing punctuation."""
    names = {heading.lower() for heading in headings(path)}
    for _, line in prose_lines(path):
        for match in LABEL.finditer(line):
            names.add(plain(match.group(1) or match.group(2)).rstrip(":.").lower())
    return names


def broken_links(root, path):
    found = []
    for number, line in prose_lines(path):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z]+:", target):
                continue  # a web address or mailto:
            file_part, _, fragment = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(root)}:{number}"
            if not linked.exists():
                found.append(f"{where}: {target} does not exist")
            elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
                found.append(f"{where}: {target} names no heading of {linked.name}")
    return found


def broken_section_references(root, path, pages):
    found = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return found
    if path.name == "CHANGELOG.md" or path == pathlib.Path(__file__).resolve():
        return found  # history names sections as they were then; this file's doc is an example
    text = text.split("\n## History\n")[0]  # the same for the history part of a page
    flat = re.sub(r"\s*\n\s*(#|//+|\*)?\s*", " ", text)  # references wrapped over comment lines
    for match in SECTION_REFERENCE.finditer(flat):
        page = pages.get(match.group(1))
        name = plain(next(group for group in match.groups()[1:] if group)).rstrip(":.").lower()
        if page is None or len(name) > 60 or name.startswith(("see ", "issue ")):
            continue
        if not any(name == known or known.startswith(name) for known in page):
            found.append(f"{path.relative_to(root)}: {match.group(1)}.md has no section {name!r}")
    return found


def main(argv=None):
    argv = sys.argv if argv is None else argv
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).parents[1])
    root = root.resolve()
    found = []
    for path in markdown_files(root):
        found += broken_links(root, path)
    pages = {page.stem: section_names(page) for page in sorted((root / "docs").glob("*.md"))}
    sources = markdown_files(root)
    for folder in CODE_ROOTS:
        sources += [
            path
            for path in sorted((root / folder).rglob("*"))
            if path.suffix in CODE_SUFFIXES and path.is_file() and "_build" not in path.parts
        ]
    for path in sorted(set(sources)):
        found += broken_section_references(root, path, pages)
    for line in found:
        print(line)
    if not found:
        print("doc links: every link and section reference resolves")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
