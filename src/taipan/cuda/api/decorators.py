"""``cuda.jit``'s front, the same on the GPU path and in the simulator: the options it takes
and the forms it is called in (``@cuda.jit``, ``@cuda.jit(signature or [signatures],
**options)``); the backend makes the kernel or device function."""

from taipan import compile_options
from taipan.types import Signature, Type, parse_signature

# The keywords cuda.jit takes (the options table, taipan.compile_options).
KNOWN_OPTIONS = compile_options.accepted("cuda.jit")


def jit_front(make, func_or_sig, device, options, prepare=None):
    """What ``cuda.jit(func_or_sig, device=device, **options)`` returns: ``make(function,
    options, signatures)`` (signatures None when none were given) for a function, else the
    decorator that makes it. ``prepare`` may check and rewrite the options first."""
    compile_options.check_known(options, "cuda.jit")
    warn_debug_with_opt(options.get("debug"), options.get("opt"))
    if prepare is not None:
        options = prepare(options)
    options = dict(options, device=device)
    if callable(func_or_sig) and not isinstance(func_or_sig, (Type, Signature)):
        return make(func_or_sig, options, None)
    if func_or_sig is None:
        signatures = None
    elif isinstance(func_or_sig, list):
        signatures = func_or_sig
    else:
        signatures = [func_or_sig]

    def decorate(function):
        return make(function, options, signatures)

    return decorate


def warn_debug_with_opt(debug, opt, stacklevel=3):
    """numba-cuda's warning when debug information is asked for with optimisation on (``debug``
    and ``opt`` None: taipan.config's CUDA_DEBUGINFO_DEFAULT and OPT decide)."""
    from taipan import config

    debug = bool(config.CUDA_DEBUGINFO_DEFAULT) if debug is None else debug
    opt = config.OPT != 0 if opt is None else opt
    if debug and opt:
        import warnings

        from taipan.errors import InvalidConfigWarning

        warnings.warn(
            InvalidConfigWarning(
                "debug=True with opt=True is not supported by CUDA. This may result in a crash"
                " - set debug=False or opt=False."
            ),
            stacklevel=stacklevel + 1,
        )


def split_signature(signature):
    """(argument types, declared return type or None) of a signature string or object."""
    if isinstance(signature, (tuple, list)) and not isinstance(signature, Signature):
        return tuple(signature), None
    parsed = parse_signature(signature)
    return tuple(parsed.args), parsed.return_type
