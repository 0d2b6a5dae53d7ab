"""Pickling jitted functions. A dispatcher that its module's name finds again pickles by
reference, as functions do; one defined in ``__main__`` (a script, a notebook, ``python -c``)
or not reachable by name pickles by value: the Python function (which ``cloudpickle`` carries
with its globals, as Dask does for every task), the dispatcher's options and the text of the
function's source file, which the receiving process registers with ``linecache`` so that the
front end reads the very text the function was compiled from. The receiver compiles again on
its first call."""

import linecache
import sys


def _reachable_by_name(obj):
    """Whether ``module.qualname`` finds ``obj`` itself in a module other than ``__main__``."""
    module_name = getattr(obj, "__module__", None)
    if not module_name or module_name == "__main__" or "<locals>" in obj.__qualname__:
        return False
    target = sys.modules.get(module_name)
    for part in obj.__qualname__.split("."):
        target = getattr(target, part, None)
        if target is None:
            return False
    return target is obj


def reduce_dispatcher(dispatcher):
    """``__reduce__`` of a CPU dispatcher: by reference, or by value (see the module)."""
    if _reachable_by_name(dispatcher):
        return dispatcher.__qualname__
    from taipan.frontend import source_lines

    code = dispatcher.py_func.__code__
    state = {
        "py_func": dispatcher.py_func,
        "options": dict(dispatcher.targetoptions),
        "filename": code.co_filename,
        "source_lines": source_lines(dispatcher.py_func),
    }
    # The shell is made first and memoised, so a function that calls itself through its
    # global name (a recursive jitted function) pickles without an endless cycle.
    return (_dispatcher_shell, (type(dispatcher),), state)


def _dispatcher_shell(cls):
    return cls.__new__(cls)


def restore_dispatcher(dispatcher, state):
    """``__setstate__``: the source text registered, then the dispatcher set up as new."""
    if state["source_lines"]:
        lines = state["source_lines"]
        linecache.cache[state["filename"]] = (sum(map(len, lines)), None, lines, state["filename"])
    type(dispatcher).__init__(dispatcher, state["py_func"], state["options"])
