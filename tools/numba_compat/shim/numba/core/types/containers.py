"""``numba.core.types.containers`` and its kin: Numba's tests spell some types through the
submodule that defines them (``types.containers.UniTuple``); each name is read from
``numba.core.types`` when used, so it is the same object in both modes."""


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    from numba.core import types

    return getattr(types, name)
