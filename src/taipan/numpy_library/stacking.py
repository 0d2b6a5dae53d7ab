"""np.dstack (arrays seen as at least 3-D, joined along the third axis) and np.row_stack
(np.vstack's old name, where the installed NumPy still has it), for tuples of arrays as
np.vstack takes them."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.shapes import _slabs_of
from taipan.numpy_library.support import array_tuple


@overload(np.dstack)
def _dstack(tup):
    if array_tuple(tup) is None or not tup.types:
        raise TypingError("np.dstack takes a tuple of arrays")

    def dstack(tup):
        return np.concatenate(_slabs_of(tup), axis=2)

    return dstack


def _row_stack(tup):
    if not isinstance(tup, types.BaseTuple):
        return None
    return lambda tup: np.vstack(tup)


# Removed in NumPy 2.5, where a caller may alias it to np.vstack (numba-cuda's test support
# does): vstack is then shapes.py's entry already.
if getattr(np, "row_stack", np.vstack) is not np.vstack:
    overload(np.row_stack)(_row_stack)
