"""Numba's ``numba.core.imputils``: the helpers intrinsics' codegen functions call on their
result. An intrinsic's result holds no reference that taipan counts (numbers, pointers, tuples of
them), so each returns the value unchanged."""

__all__ = ["impl_ret_borrowed", "impl_ret_new_ref", "impl_ret_untracked"]


def impl_ret_new_ref(ctx, builder, retty, ret):
    """A result that is a new reference."""
    return ret


def impl_ret_borrowed(ctx, builder, retty, ret):
    """A result borrowed from an argument."""
    return ret


def impl_ret_untracked(ctx, builder, retty, ret):
    """A result that holds no reference."""
    return ret
