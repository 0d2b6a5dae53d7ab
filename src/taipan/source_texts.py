"""The source text of code compiled from a string by ``compile``, ``exec`` or ``eval``.

Functions made by ``exec`` of a string have no file to read their text from. When taipan is
imported, ``_core.install_source_recorder`` wraps the three builtins (in C, so that they add no
frame: flag inheritance, default namespaces and tracebacks stay the originals'); each code object
compiled from text, and every code object nested in it, is remembered here with that text for as
long as the code object lives. The front end (``frontend._source_texts``) asks for the text by a
function's ``__code__`` and verifies it, as it verifies every text, by compiling the definition
and comparing the code. Nothing else is compiled, and linecache is left alone.
"""

import weakref

_CodeType = type(compile("", "", "exec"))
# id(code object) -> (weak reference to it, its text: str or bytes)
_texts = {}


def _forget(key):
    def forget(reference):
        entry = _texts.get(key)
        if entry is not None and entry[0] is reference:
            del _texts[key]

    return forget


def remember(code, text):
    """Remembers ``text`` as the source of ``code`` and of the code objects nested in it."""
    if isinstance(text, bytearray):
        text = bytes(text)  # the caller may change it afterwards
    pending = [code]
    while pending:
        current = pending.pop()
        key = id(current)
        _texts[key] = (weakref.ref(current, _forget(key)), text)
        pending.extend(c for c in current.co_consts if type(c) is _CodeType)


def lines_of(code):
    """The lines (with their ends) of the text ``code`` was compiled from by compile, exec or
    eval, or None."""
    entry = _texts.get(id(code))
    if entry is None or entry[0]() is not code:
        return None
    text = entry[1]
    import io

    if isinstance(text, bytes):
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(text).readline)
            text = text.decode(encoding)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            return None
        if text.startswith("\ufeff"):
            text = text[1:]
    # Python's line ends only (str.splitlines would also split at form feeds).
    return io.StringIO(text, newline=None).readlines()
