"""Exceptions taipan raises for code it cannot compile (Numba's names)."""


class TaipanError(Exception):
    """Base of taipan's compile-time errors."""


class TypingError(TaipanError):
    """Type inference failed: an unsupported operation, or types that do not fit together."""


class UnsupportedError(TypingError):
    """The code uses a Python feature taipan does not compile (yet)."""


class InternalError(TaipanError):
    """A bug in taipan itself; please report it with the code that triggered it."""


NumbaError = TaipanError  # the spelling Numba users catch
