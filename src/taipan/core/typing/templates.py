"""Numba's ``numba.core.typing.templates``, as far as taipan has it: ``signature``, the
function templates (``AbstractTemplate``, ``ConcreteTemplate``, ``CallableTemplate``) with
``infer_global``/``infer``, and ``AttributeTemplate`` with ``infer_getattr`` (attributes of
user-defined types)."""

from taipan.user_types import (
    AbstractTemplate,
    AttributeTemplate,
    CallableTemplate,
    ConcreteTemplate,
    FunctionTemplate,
    infer,
    infer_getattr,
    infer_global,
)

__all__ = [
    "AbstractTemplate",
    "AttributeTemplate",
    "CallableTemplate",
    "ConcreteTemplate",
    "FunctionTemplate",
    "infer",
    "infer_getattr",
    "infer_global",
    "signature",
]


def signature(return_type, *args, recvr=None):
    """The signature ``return_type(*args)`` (Numba's ``signature``; ``recvr`` is accepted and
    has no use in taipan)."""
    from taipan.types import Signature

    if args and isinstance(args[0], Signature):
        raise TypeError("signature() takes the return type and the argument types")
    return return_type(*args)
