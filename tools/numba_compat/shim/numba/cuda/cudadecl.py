"""``numba.cuda.cudadecl``: numba-cuda's typing registry for the CUDA target, as extensions use
it (``registry.register_attr`` an ``AttributeTemplate``, ``registry.register_global`` and
``registry.register`` function templates): taipan's registrations, which serve kernels and host
code alike. numba-cuda's own declarations are placeholders."""

from numba._missing import fill_missing
from numba.core.typing import templates as _templates


class _Registry:
    """numba-cuda's ``Registry`` of typing templates (``numba.core.typing.templates.Registry``)."""

    def register_attr(self, template_class):
        return _templates.infer_getattr(template_class)

    def register(self, template_class):
        return _templates.infer(template_class)

    def register_global(self, value=None, typ=None):
        if value is None:  # @register_global on a template whose key names the function
            return self.register
        return _templates.infer_global(value, typ)


registry = _Registry()
register_attr = registry.register_attr
register = registry.register
register_global = registry.register_global

__getattr__ = fill_missing(globals(), __name__)
