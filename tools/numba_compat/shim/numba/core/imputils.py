"""``numba.core.imputils``: the result helpers of taipan's (``taipan.core.imputils``); Numba's
lowering registrations (``lower_builtin``, ``lower_constant``...) register nothing, as in
``numba.core.extending``."""

from numba._missing import fill_missing
from numba.core.extending import (  # noqa: F401
    lower_builtin,
    lower_cast,
    lower_constant,
    lower_getattr,
    lower_getattr_generic,
    lower_setattr,
)
from taipan.core.imputils import (  # noqa: F401
    impl_ret_borrowed,
    impl_ret_new_ref,
    impl_ret_untracked,
)

__getattr__ = fill_missing(globals(), __name__)
