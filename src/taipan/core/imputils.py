"""Numba's ``numba.core.imputils``: the helpers codegen functions call on their result. As in
Numba, an implementation returns a new reference: one that hands on a value it borrowed (an
argument, a member of one) increfs it with ``impl_ret_borrowed``."""

__all__ = ["Registry", "impl_ret_borrowed", "impl_ret_new_ref", "impl_ret_untracked"]


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


class Registry:
    """Numba's ``imputils.Registry``: a named group of lowering registrations
    (``registry.lower(func, *argtys)``, ``lower_getattr``, ``lower_cast``...), as numba-cuda's
    ``cudaimpl.registry`` and extension libraries declare them. taipan has one set of lowerings
    serving every target, so each registration takes effect at once (``taipan.extending``'s
    ``lower_builtin`` and the others); the lists record what the registry holds, as Numba's."""

    def __init__(self, name="unspecified"):
        self.name = name
        self.functions = []  # (implementation, function, argument types)
        self.getattrs = []  # (implementation, type, attribute or None)
        self.setattrs = []
        self.casts = []  # (implementation, from type, to type)
        self.constants = []  # (implementation, type)

    def _recording(self, entries, key, registering):
        """The decorator recording ``(implementation, *key)`` in ``entries`` and registering it
        with ``registering()``'s decorator (taipan.user_types: loaded at first use)."""

        def decorate(implementation):
            registering()(implementation)
            entries.append((implementation, *key))
            return implementation

        return decorate

    def lower(self, func, *argtys):
        return self._recording(
            self.functions, (func, argtys), lambda: _api().lower_builtin(func, *argtys)
        )

    def lower_getattr(self, ty, attr):
        return self._recording(self.getattrs, (ty, attr), lambda: _api().lower_getattr(ty, attr))

    def lower_getattr_generic(self, ty):
        return self._recording(self.getattrs, (ty, None), lambda: _api().lower_getattr_generic(ty))

    def lower_setattr(self, ty, attr):
        return self._recording(self.setattrs, (ty, attr), lambda: _api().lower_setattr(ty, attr))

    def lower_setattr_generic(self, ty):
        return self._recording(self.setattrs, (ty, None), lambda: _api().lower_setattr_generic(ty))

    def lower_cast(self, fromty, toty):
        return self._recording(self.casts, (fromty, toty), lambda: _api().lower_cast(fromty, toty))

    def lower_constant(self, ty):
        return self._recording(self.constants, (ty,), lambda: _api().lower_constant(ty))


def _api():
    import taipan.user_types

    return taipan.user_types
