"""np.where's forms that taipan's native np.where (a three-operand elementwise kernel over
arrays and numbers) does not take: one argument (NumPy's ``np.asarray(condition).nonzero()``)
and lists or tuples among the three operands (converted with np.asarray first, as NumPy does; numbers stay numbers).
Arrays and numbers alone are declined here, so the native kernel handles them."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library.support import as_array_unless_scalar, is_none, is_sequence


def _array_like(t):
    return isinstance(t, (types.Array, types.Number, types.Boolean)) or is_sequence(t)


@overload(np.where)
def _where(condition, x=None, y=None):
    if not _array_like(condition):
        raise TypingError(f'The argument "condition" must be array-like, not {condition}')
    if is_none(x) and is_none(y):

        def where_nonzero(condition, x=None, y=None):
            return np.nonzero(np.asarray(condition))

        return where_nonzero
    if is_none(x) or is_none(y):
        raise TypingError("np.where takes either both or neither of x and y")
    if not any(is_sequence(t) for t in (condition, x, y)):
        return None  # arrays and numbers: the native kernel

    def where_of_sequences(condition, x=None, y=None):
        # numbers stay numbers: NumPy 2 lets a Python number take the arrays' dtype
        return np.where(
            as_array_unless_scalar(condition), as_array_unless_scalar(x), as_array_unless_scalar(y)
        )

    return where_of_sequences
