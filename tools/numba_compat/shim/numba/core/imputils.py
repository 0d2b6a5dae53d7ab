"""``numba.core.imputils``: the result helpers of taipan's (``taipan.core.imputils``); Numba's
lowering registries (``lower_builtin``...) are placeholders."""

from numba._missing import fill_missing
from taipan.core.imputils import (  # noqa: F401
    impl_ret_borrowed,
    impl_ret_new_ref,
    impl_ret_untracked,
)

__getattr__ = fill_missing(globals(), __name__)
