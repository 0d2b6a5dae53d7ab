"""``numba.core.imputils``: the result helpers and ``Registry`` of taipan's
(``taipan.core.imputils``); Numba's lowering registrations (``lower_builtin``,
``lower_constant``...) are ``numba.core.extending``'s."""

from numba import PLAIN_PYTHON
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
    Registry,
    impl_ret_borrowed,
    impl_ret_new_ref,
    impl_ret_untracked,
)

if PLAIN_PYTHON:  # nothing is compiled: a registry records and registers nothing

    class Registry(Registry):
        def _recording(self, entries, key, registering):
            def decorate(implementation):
                entries.append((implementation, *key))
                return implementation

            return decorate


__getattr__ = fill_missing(globals(), __name__)
