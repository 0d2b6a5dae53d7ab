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
    warn_debug_with_lineinfo(options.get("debug"), options.get("lineinfo"))
    if options.get("shared_memory_carveout") is not None:
        check_carveout(options["shared_memory_carveout"])
    if isinstance(options.get("inline"), bool):  # numba-cuda's older spelling
        options = dict(options, inline="always" if options["inline"] else "never")
    if options.get("debug") is None and _debug_by_default():
        options = dict(options, debug=True)  # NUMBA_CUDA_DEBUGINFO, as numba-cuda reads it
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


def _debug_by_default():
    from taipan import config

    return bool(config.CUDA_DEBUGINFO_DEFAULT)


def warn_debug_with_lineinfo(debug, lineinfo, stacklevel=3):
    """numba-cuda's warning when both debug information and line information are asked for
    (``debug`` None: taipan.config's CUDA_DEBUGINFO_DEFAULT decides)."""
    from taipan import config

    debug = bool(config.CUDA_DEBUGINFO_DEFAULT) if debug is None else debug
    if debug and lineinfo:
        import warnings

        from taipan.errors import InvalidConfigWarning

        warnings.warn(
            InvalidConfigWarning(
                "debug and lineinfo are mutually exclusive. Use debug to get full debug info "
                "(this disables some optimizations), or lineinfo for line info only with code "
                "generation unaffected."
            ),
            stacklevel=stacklevel + 1,
        )


_CARVEOUT_NAMES = ["default", "maxl1", "maxshared"]


def check_carveout(carveout):
    """numba-cuda's checks of ``shared_memory_carveout``: 'MaxL1', 'MaxShared' or 'default'
    (any case), or a percentage from -1 (the driver's default) to 100."""
    if isinstance(carveout, str):
        if carveout.lower() not in _CARVEOUT_NAMES:
            raise ValueError(
                f"Invalid carveout value: {carveout}. Must be -1 to 100 or one of {_CARVEOUT_NAMES}"
            )
    elif isinstance(carveout, int) and not isinstance(carveout, bool):
        if not -1 <= carveout <= 100:
            raise ValueError("Carveout must be between -1 and 100")
    else:
        raise TypeError(f"shared_memory_carveout must be str or int, got {type(carveout).__name__}")


def split_signature(signature):
    """(argument types, declared return type or None) of a signature string or object."""
    if isinstance(signature, (tuple, list)) and not isinstance(signature, Signature):
        return tuple(signature), None
    parsed = parse_signature(signature)
    return tuple(parsed.args), parsed.return_type
