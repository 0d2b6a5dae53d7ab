"""``frozen_copy``: a function over a copy of the namespace it sees now, for code that is
typed when decorated but generated later (eager ``@guvectorize`` loops, eager ``@jit``
signatures) and must read the names as Numba's compile at decoration read them."""

import types


def frozen_copy(py_func):
    """A copy of ``py_func`` whose globals are a copy of its module's as they are now and whose
    closure cells hold what they hold now (names bound later or rebound are not seen; the
    objects themselves are shared)."""
    closure = py_func.__closure__
    if closure is not None:
        cells = []
        for cell in closure:
            try:
                cells.append(types.CellType(cell.cell_contents))
            except ValueError:  # an empty cell (a name assigned after the function)
                cells.append(types.CellType())
        closure = tuple(cells)
    frozen = types.FunctionType(
        py_func.__code__,
        dict(py_func.__globals__),
        py_func.__name__,
        py_func.__defaults__,
        closure,
    )
    frozen.__kwdefaults__ = py_func.__kwdefaults__
    frozen.__qualname__ = py_func.__qualname__
    frozen.__module__ = py_func.__module__
    frozen.__doc__ = py_func.__doc__
    frozen.__annotations__ = py_func.__annotations__
    frozen.__dict__.update(py_func.__dict__)  # attributes set on the function (__wrapped__...)
    return frozen
