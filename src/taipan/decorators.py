"""``jit`` and ``njit`` with Numba's options."""

from taipan import config
from taipan.compile_options import check_known
from taipan.errors import UnsupportedError


def _check_options(options):
    check_known(options, "jit")
    error_model = options.get("error_model", "python")
    if error_model not in ("python", "numpy"):
        raise ValueError(f"error_model must be 'python' or 'numpy', not {error_model!r}")
    inline = options.get("inline", "never")
    if inline not in ("never", "always"):
        raise UnsupportedError("inline= takes 'never' or 'always' (cost models are not supported)")
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
    """Compiles a function to machine code on first call (or now, given signatures); with
    ``forceobj=True``, in object mode (taipan.objectmode)."""
    from taipan.types import Signature, Type

    options = _check_options(dict(options))

    def make(function, signatures=None):
        if config.DISABLE_JIT:
            return function
        if options.get("forceobj"):  # object mode compiles nothing per signature
            from taipan.objectmode import ObjectModeFunction

            return ObjectModeFunction(function, options)
        from taipan.dispatcher import Dispatcher

        if options.get("nopython") is False and not signatures:
            # Numba: nopython first, then object mode with loop lifting when typing fails.
            from taipan.objectmode import FallbackFunction

            return FallbackFunction(Dispatcher(function, dict(options, nopython=True)), options)
        return Dispatcher(function, options, signatures)

    if callable(signature_or_function) and not isinstance(signature_or_function, (Type, Signature)):
        return make(signature_or_function)
    signatures = _signature_list(signature_or_function)
    return lambda function: make(function, signatures)


def njit(signature_or_function=None, **options):
    """``jit`` in nopython mode, which is the only mode taipan has."""
    options["nopython"] = True
    return jit(signature_or_function, **options)
