"""np.nditer as a value (``it = np.nditer(a)``, ``enumerate(np.nditer(a))``, passed, advanced
by next()): a generator over what ``for x in np.nditer(a)`` gives, as Numba's nditer object is an
iterator. The loop itself is the compiler's (lower/LowerLoops.cpp): NumPy's memory order
(order='K'), each item a 0-d view of the element, so ``x[...] = v`` writes into the array."""

import numpy as np

from taipan import types
from taipan.extending import overload


def _items(op):
    for item in np.nditer(op):  # noqa: UP028 - the compiler's own nditer loop, item by item
        yield item


@overload(np.nditer)
def _nditer(op):
    if isinstance(op, types.Array):
        return _items
    return None
