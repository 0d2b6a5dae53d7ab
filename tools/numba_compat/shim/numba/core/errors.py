"""``numba.core.errors``: taipan's exceptions under Numba's names (``NumbaError`` is
``taipan.errors.TaipanError``; ``TypingError``, ``UnsupportedError``, ``InternalError``,
``LoweringError`` and ``ForceLiteralArg`` are taipan's); Numba's other exceptions and warnings
are subclasses of them, in Numba's hierarchy, so ``except errors.TypingError`` catches what
taipan raises."""

from numba._missing import fill_missing
from taipan import errors as _taipan_errors
from taipan.errors import (
    ForceLiteralArg,  # noqa: F401 - Numba's name (literally's request to the dispatcher)
    InternalError,
    LoweringError,
    NumbaError,
    NumbaWarning,
    TypingError,
    UnsupportedError,
)


class ByteCodeSupportError(NumbaError):
    pass


class CompilerError(NumbaError):
    pass


class ConstantInferenceError(NumbaError):
    pass


class DeprecationError(NumbaError):
    pass


class ForbiddenConstruct(LoweringError):
    pass


class IRError(NumbaError):
    pass


class NotDefinedError(IRError):
    pass


class RedefinedError(IRError):
    pass


class VerificationError(IRError):
    pass


class InternalTargetMismatchError(InternalError):
    pass


class NonexistentTargetError(InternalError):
    pass


class LiteralTypingError(TypingError):
    pass


class NumbaAssertionError(TypingError):
    pass


class NumbaAttributeError(TypingError):
    pass


class NumbaIndexError(TypingError):
    pass


class NumbaKeyError(TypingError):
    pass


class NumbaNotImplementedError(TypingError):
    pass


class NumbaTypeError(TypingError):
    pass


class NumbaValueError(TypingError):
    pass


class RequireLiteralValue(TypingError):
    pass


class UntypedAttributeError(TypingError):
    pass


class NumbaRuntimeError(NumbaError):
    pass


class UnsupportedBytecodeError(Exception):
    pass


class UnsupportedParforsError(NumbaError):
    pass


class UnsupportedRewriteError(UnsupportedError):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass


class NumbaPendingDeprecationWarning(NumbaWarning, PendingDeprecationWarning):
    pass


class NumbaExperimentalFeatureWarning(NumbaWarning):
    pass


NumbaInvalidConfigWarning = _taipan_errors.InvalidConfigWarning  # taipan warns with it
NumbaDebugInfoWarning = _taipan_errors.DebugInfoWarning  # taipan warns with it


class NumbaPedanticWarning(NumbaWarning):
    pass


class NumbaIRAssumptionWarning(NumbaPedanticWarning):
    pass


NumbaPerformanceWarning = _taipan_errors.PerformanceWarning  # taipan warns with it


class NumbaSystemWarning(NumbaWarning):
    pass


class NumbaTypeSafetyWarning(NumbaWarning):
    pass


__getattr__ = fill_missing(globals(), __name__)
