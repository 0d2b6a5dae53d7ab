"""``numba.core.compiler``: ``Flags`` and ``compile_extra`` (with Numba's ``compile_isolated``
spelling), compiling with taipan or, in plain-Python mode, returning the function; Numba's
compiler pipeline classes are placeholders."""

from types import SimpleNamespace

import taipan
from numba import PLAIN_PYTHON
from numba._missing import fill_missing

_FLAG_DEFAULTS = {
    "enable_pyobject": False,
    "force_pyobject": False,
    "enable_looplift": False,
    "enable_pyobject_looplift": False,
    "nrt": False,
    "release_gil": False,
    "boundscheck": None,
    "fastmath": False,
    "error_model": "python",
    "no_cpython_wrapper": False,
    "no_cfunc_wrapper": False,
    "debuginfo": False,
    "inline": "never",
}


class Flags:
    """Numba's compiler flags: attributes, all off by default."""

    def __init__(self, **values):
        for name, value in values.items():
            setattr(self, name, value)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _FLAG_DEFAULTS.get(name, False)

    def copy(self):
        return Flags(**vars(self))

    def __repr__(self):
        return f"Flags({vars(self)})"


DEFAULT_FLAGS = Flags(nrt=True)


def _options(flags):
    options = {}
    if flags.force_pyobject:
        options["forceobj"] = True
    if flags.enable_looplift:
        options["looplift"] = True
    if flags.boundscheck is not None:
        options["boundscheck"] = flags.boundscheck
    if flags.fastmath:
        options["fastmath"] = flags.fastmath
    if flags.error_model != "python":
        options["error_model"] = flags.error_model
    if flags.release_gil:
        options["nogil"] = True
    return options


def compile_extra(
    typingctx,
    targetctx,
    func,
    args,
    return_type=None,
    flags=None,
    locals=None,
    library=None,
    pipeline_class=None,
):
    """Compiles ``func`` for ``args`` with taipan (in plain-Python mode, the function itself) and
    returns a compile result with Numba's common attributes."""
    flags = flags or DEFAULT_FLAGS
    args = tuple(args)
    if PLAIN_PYTHON:
        entry = func
    else:
        signature = return_type(*args) if return_type is not None else args
        entry = taipan.jit(signature, **_options(flags))(func)
    return SimpleNamespace(
        entry_point=entry,
        lifted=(),
        objectmode=bool(flags.force_pyobject),
        signature=SimpleNamespace(args=args, return_type=return_type),
        typing_error=None,
        fndesc=None,
        library=None,
    )


def compile_isolated(func, args, return_type=None, flags=None, locals=None):
    return compile_extra(None, None, func, args, return_type, flags, locals or {})


__getattr__ = fill_missing(globals(), __name__)
