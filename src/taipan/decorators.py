"""``jit`` and ``njit`` with Numba's options."""

from taipan import config
from taipan.errors import UnsupportedError

_KNOWN_OPTIONS = {
    "nopython",
    "nogil",
    "cache",
    "fastmath",
    "boundscheck",
    "error_model",
    "inline",
    "parallel",
    "debug",
    "forceobj",
    "looplift",
    "locals",
    "no_cpython_wrapper",
    "no_cfunc_wrapper",
    "no_rewrites",
    "_nrt",
    "target",
    "pipeline_class",
}


def _check_options(options):
    unknown = set(options) - _KNOWN_OPTIONS
    if unknown:
        raise KeyError(f"Unrecognized options: {sorted(unknown)}")
    if options.get("forceobj"):
        raise UnsupportedError(
            "object mode (forceobj=True) is not supported: taipan compiles in nopython mode only"
        )
    error_model = options.get("error_model", "python")
    if error_model not in ("python", "numpy"):
        raise ValueError(f"error_model must be 'python' or 'numpy', not {error_model!r}")
    inline = options.get("inline", "never")
    if inline not in ("never", "always"):
        raise UnsupportedError("inline= takes 'never' or 'always' (cost models are not supported)")
    return options


def cpu_compile_options(options):
    """A CPU function's options as the compiler gets them: TAIPAN_BOUNDSCHECK, when set,
    overrides boundscheck= (as NUMBA_BOUNDSCHECK does), and opt is TAIPAN_OPT unless given."""
    options = dict(options)
    if config.BOUNDSCHECK is not None:
        options["boundscheck"] = config.BOUNDSCHECK
    if options.get("opt") is None:
        options["opt"] = config.OPT
    return options


def _signature_list(signature_or_function):
    from taipan.types import Signature, Type

    if signature_or_function is None:
        return None
    if isinstance(signature_or_function, Type):
        raise TypeError(
            f"{signature_or_function} is a type, not a signature: write "
            f"{signature_or_function}(argument types...)"
        )
    if isinstance(signature_or_function, tuple) and all(
        isinstance(item, Type) for item in signature_or_function
    ):
        return [signature_or_function]  # a tuple of argument types is one signature
    if isinstance(signature_or_function, (list, tuple)) and not isinstance(
        signature_or_function, Signature
    ):
        return list(signature_or_function)
    return [signature_or_function]


def jit(signature_or_function=None, **options):
    """Compiles a function to machine code on first call (or now, given signatures)."""
    from taipan.dispatcher import Dispatcher
    from taipan.types import Signature, Type

    options = _check_options(dict(options))
    if callable(signature_or_function) and not isinstance(signature_or_function, (Type, Signature)):
        if config.DISABLE_JIT:
            return signature_or_function
        return Dispatcher(signature_or_function, options)
    signatures = _signature_list(signature_or_function)

    def decorate(function):
        if config.DISABLE_JIT:
            return function
        return Dispatcher(function, options, signatures)

    return decorate


def njit(signature_or_function=None, **options):
    """``jit`` in nopython mode, which is the only mode taipan has."""
    options["nopython"] = True
    return jit(signature_or_function, **options)
