"""``numba.cuda.typing.templates``: ``signature`` and the templates extensions subclass
(``AttributeTemplate``, ``AbstractTemplate``, ``ConcreteTemplate``, ``CallableTemplate``),
taipan's; numba-cuda's other internals are placeholders."""

from numba._missing import fill_missing
from numba.core.typing.templates import (  # noqa: F401
    AbstractTemplate,
    AttributeTemplate,
    CallableTemplate,
    ConcreteTemplate,
    infer,
    infer_getattr,
    infer_global,
)


def signature(return_type, *argument_types):
    """A signature of taipan types, as ``return_type(*argument_types)`` builds it."""
    return return_type(*argument_types)


__getattr__ = fill_missing(globals(), __name__)
