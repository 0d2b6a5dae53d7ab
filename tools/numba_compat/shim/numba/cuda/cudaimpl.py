"""``numba.cuda.cudaimpl``: numba-cuda's lowering registry for the CUDA target as extensions
use it (``lower``, ``lower_attr``, ``lower_getattr_generic``, ``lower_setattr``): taipan's
registrations (``taipan.extending``), which serve kernels and host code alike, deferred as in
``numba.cuda.extending``; the rest placeholders."""

from numba._missing import fill_missing
from numba.cuda.extending import __getattr__ as _extension

lower = _extension("lower_builtin")
lower_attr = lower_getattr = _extension("lower_getattr")
lower_getattr_generic = _extension("lower_getattr_generic")
lower_setattr = _extension("lower_setattr")
lower_setattr_generic = _extension("lower_setattr_generic")


class _Registry:
    """numba-cuda's ``cudaimpl.registry`` (an ``imputils.Registry``)."""

    lower = staticmethod(lower)
    lower_getattr = staticmethod(lower_getattr)
    lower_getattr_generic = staticmethod(lower_getattr_generic)
    lower_setattr = staticmethod(lower_setattr)
    lower_setattr_generic = staticmethod(lower_setattr_generic)


registry = _Registry()
__getattr__ = fill_missing(globals(), __name__)
