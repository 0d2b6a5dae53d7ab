"""The source text of code compiled from a string by ``compile``, ``exec`` or ``eval``.

Functions made by ``exec`` of a string have no file to read their text from. When taipan is
imported, ``_core.install_source_recorder`` wraps the three builtins (in C, so that they add no
frame: flag inheritance, default namespaces and tracebacks stay the originals'); each code object
compiled from text, and every code object nested in it, is remembered (in C, by identity, with a
weak reference) with that text for as long as the code object lives. The front end (``frontend._source_texts``) asks for the text by a
function's ``__code__`` and verifies it, as it verifies every text, by compiling the definition
and comparing the code. Nothing else is compiled, and linecache is left alone. Code compiled by
``compile`` from a syntax tree keeps the tree (``tree_of``) the same way.

taipan's own parses and tree compiles go through ``parse`` and ``compile_tree``, which never run
while another thread may be inside CPython's AST constructor (see ``parse``).
"""

import __future__

from taipan import _core

# The compiler flags of every __future__ feature: compiling a function's text again (to verify
# it, or an objmode block's body) keeps exactly the features its code object was compiled with.
FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


# ast.PyCF_ONLY_AST, without importing ast here.
_ONLY_AST = 0x400


def parse(text, filename="<unknown>"):
    """``ast.parse(text, filename)``, never while another thread may be inside CPython's AST
    constructor (``_core.compile_exclusively``): on Python 3.11 two threads converting trees at
    once make one of them fail with "AST constructor recursion depth mismatch"."""
    return _core.compile_exclusively(text, filename, "exec", _ONLY_AST)


def compile_tree(tree, filename, flags):
    """``compile(tree, filename, "exec", flags, dont_inherit=True)``, as ``parse`` runs."""
    return _core.compile_exclusively(tree, filename, "exec", flags)


def tree_of(code):
    """The syntax tree (an ``ast.mod``) ``code`` was compiled from by ``compile``, or None: the
    only source of a function built from a tree (numbagg's transform does so)."""
    source = _core.source_text(code)
    return None if source is None or isinstance(source, (str, bytes)) else source


def lines_of(code):
    """The lines (with their ends) of the text ``code`` was compiled from by compile, exec or
    eval, or None."""
    text = _core.source_text(code)
    if text is None or not isinstance(text, (str, bytes)):
        return None
    import io

    if isinstance(text, bytes):
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(text).readline)
            text = text.decode(encoding)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            return None
        text = text.removeprefix("\ufeff")
    # Python's line ends only (str.splitlines would also split at form feeds).
    return io.StringIO(text, newline=None).readlines()
