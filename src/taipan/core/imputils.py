"""Numba's ``numba.core.imputils``: the helpers codegen functions call on their result. As in
Numba, an implementation returns a new reference: one that hands on a value it borrowed (an
argument, a member of one) increfs it with ``impl_ret_borrowed``."""

__all__ = ["impl_ret_borrowed", "impl_ret_new_ref", "impl_ret_untracked"]


def impl_ret_new_ref(ctx, builder, retty, ret):
    """A result that is a new reference already."""
    return ret


def impl_ret_borrowed(ctx, builder, retty, ret):
    """A result borrowed from an argument: increfs the blocks it holds, making it new."""
    if ctx.enable_nrt:
        ctx.nrt.incref(builder, retty, ret)
    return ret


def impl_ret_untracked(ctx, builder, retty, ret):
    """A result that holds no reference."""
    return ret
