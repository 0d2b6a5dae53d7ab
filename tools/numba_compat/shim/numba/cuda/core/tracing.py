"""``numba.cuda.core.tracing``: numba-cuda's (and Numba's) call tracing for debugging its own
Python code, which has nothing to do with compilation and so no counterpart in taipan:
``dotrace(function)`` logs each call (``>> name(arguments)``) and return (``<< name`` and
`` -> result`` when there is one) to the ``trace`` logger at INFO level; ``trace`` is
``notrace`` (the function itself) unless set to ``dotrace``, as numba-cuda's tests do.
Methods, class and static methods and properties are traced through their functions."""

import functools
import inspect
import logging

logger = logging.getLogger("trace")


def _arguments(signature, args, kwargs):
    """The call's arguments as ``name=repr`` text, defaults included, ``**kwargs`` spread."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:  # the call itself will raise
        return ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
    bound.apply_defaults()
    parts = []
    for name, value in bound.arguments.items():
        kind = signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            parts += [repr(item) for item in value]
        elif kind is inspect.Parameter.VAR_KEYWORD:
            parts += [f"{key}={item!r}" for key, item in value.items()]
        else:
            parts.append(f"{name}={value!r}")
    return ", ".join(parts)


def _traced(function, name):
    signature = inspect.signature(function)

    @functools.wraps(function)
    def traced(*args, **kwargs):
        logger.info(">> %s(%s)", name, _arguments(signature, args, kwargs))
        result = function(*args, **kwargs)
        if result is None:
            logger.info("<< %s", name)
        else:
            logger.info("<< %s -> %r", name, result)
        return result

    return traced


def dotrace(target, recursive=False):
    """`target` (a function, method, class or static method, or property) logging its calls."""
    if isinstance(target, staticmethod):
        return staticmethod(_traced(target.__func__, target.__func__.__name__))
    if isinstance(target, classmethod):
        return classmethod(_traced(target.__func__, target.__func__.__qualname__))
    if isinstance(target, property):
        return property(
            *(dotrace(part) if part is not None else None for part in (target.fget, target.fset)),
            target.fdel,
            target.__doc__,
        )
    if recursive:
        raise NotImplementedError("recursive tracing of a class is not implemented")
    return _traced(target, target.__qualname__)


def notrace(target, recursive=False):
    """`target` as it is: tracing off."""
    return target


trace = notrace
