"""Numba's ``numba.core.typing.templates``, as far as taipan has it: ``signature``,
``AttributeTemplate`` and ``infer_getattr`` (attributes of user-defined types)."""

from taipan.user_types import AttributeTemplate, infer_getattr

__all__ = ["AttributeTemplate", "infer_getattr", "signature"]


def signature(return_type, *args, recvr=None):
    """The signature ``return_type(*args)`` (Numba's ``signature``; ``recvr`` is accepted and
    has no use in taipan)."""
    from taipan.types import Signature

    if args and isinstance(args[0], Signature):
        raise TypeError("signature() takes the return type and the argument types")
    return return_type(*args)
