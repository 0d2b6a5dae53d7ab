"""Exceptions taipan raises for code it cannot compile (Numba's names)."""


class TaipanError(Exception):
    """Base of taipan's compile-time errors."""

    @property
    def msg(self):
        """The message, as Numba's errors carry it."""
        return str(self.args[0]) if self.args else ""


class TypingError(TaipanError):
    """Type inference failed: an unsupported operation, or types that do not fit together."""


class UnsupportedError(TypingError):
    """The code uses a Python feature taipan does not compile (yet)."""


class InternalError(TaipanError):
    """A bug in taipan itself; please report it with the code that triggered it."""


class ConversionError(TypingError, TypeError):
    """The function returns a value that has no Python form (a module): Numba compiles it and
    raises TypeError at the call, so this is a TypeError as well as a TypingError."""


class ArgumentValueError(TypingError, ValueError):
    """An argument of the right type whose constant value the function refuses (an alignment
    that is not a power of two): Numba raises ValueError while compiling, so this is a
    ValueError as well as a TypingError."""


class ForceLiteralArg(TypingError):
    """Numba's ForceLiteralArg: ``literally(x)`` of parameters of the function called from
    Python (``requested_args``, their indices), which the dispatcher then compiles for as literal
    values (taipan.literal_dispatch). Seen by users only where no dispatcher does that (an
    explicit signature, a cfunc, a CUDA kernel)."""

    requested_args = ()


class LoweringError(TypingError):
    """Code generation refused what typing accepted: an intrinsic's codegen that returns
    nothing for a signature with a result (Numba's LoweringError). taipan runs codegen
    functions while typing, so it is a TypingError too."""


class ImpreciseTypeError(TypingError):
    """A value compiled code cannot hold (Numba's imprecise types: a dtype or an array of
    Python objects), named ``imprecise_type`` in Numba's spelling. Raised by a typing function
    (an overload of ``np.dtype("O")``); the assignment that would keep the value in a variable
    reports it as Numba does: "Cannot infer the type of variable 'x', have imprecise type: T"."""

    def __init__(self, imprecise_type, message=None):
        self.imprecise_type = imprecise_type
        super().__init__(
            message or f"Cannot infer the type of a value, have imprecise type: {imprecise_type}."
        )


class TaipanWarning(Warning):
    """Base of taipan's compile-time warnings."""


class ParallelSafetyWarning(TaipanWarning):
    """A prange loop of a parallel=True function runs serially, because running its iterations
    on several threads could change the result (the warning says which variable)."""


class PerformanceWarning(TaipanWarning):
    """Code that runs correctly but slowly: a CUDA grid too small to occupy the GPU."""


class InvalidConfigWarning(TaipanWarning):
    """Options that do not work together (CUDA: debug information with optimisation on)."""


class DebugInfoWarning(TaipanWarning):
    """Debug information that debuggers cannot use fully: the function's source file, which
    they read its lines from, does not exist (a function built by exec)."""


NumbaError = TaipanError  # the spellings Numba users catch
NumbaWarning = TaipanWarning
NumbaParallelSafetyWarning = ParallelSafetyWarning
NumbaPerformanceWarning = PerformanceWarning
NumbaInvalidConfigWarning = InvalidConfigWarning
NumbaDebugInfoWarning = DebugInfoWarning
