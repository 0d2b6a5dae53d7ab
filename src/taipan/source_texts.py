"""The source text of code compiled from a string by ``compile``, ``exec`` or ``eval``.

Functions made by ``exec`` of a string have no file to read their text from. When taipan is
imported, ``_core.install_source_recorder`` wraps the three builtins (in C, so that they add no
frame: flag inheritance, default namespaces and tracebacks stay the originals'); each code object
compiled from text, and every code object nested in it, is remembered (in C, by identity, with a
weak reference) with that text for as long as the code object lives. The front end (``frontend._source_texts``) asks for the text by a
function's ``__code__`` and verifies it, as it verifies every text, by compiling the definition
and comparing the code. Nothing else is compiled, and linecache is left alone.
"""

import __future__

from taipan import _core

# The compiler flags of every __future__ feature: compiling a function's text again (to verify
# it, or an objmode block's body) keeps exactly the features its code object was compiled with.
FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


def lines_of(code):
    """The lines (with their ends) of the text ``code`` was compiled from by compile, exec or
    eval, or None."""
    text = _core.source_text(code)
    if text is None:
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
