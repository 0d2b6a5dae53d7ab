"""``numba.cuda.extending``: the shim's ``numba.extending`` (taipan's extension API) under
numba-cuda's name. A registration taipan refuses (or a Numba internal the shim lacks) when a
test module is imported is deferred: the decorated object is returned unchanged and nothing is
registered, so the module's other tests still run and the tests that use the extension fail
when they compile, as the shim defers refusals elsewhere (README: "Refusals are deferred")."""

import functools

from numba import extending as _extending
from numba._missing import ShimUnsupported


class DeferredRegistration:
    """What a refused registration call gives: applied as a decorator, it returns the
    decorated object as it is."""

    def __init__(self, what, error):
        self.what, self.error = what, error

    def __call__(self, target=None, *args, **kwargs):
        return target

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return DeferredRegistration(f"{self.what}.{name}", self.error)


def _deferring(name, value, decorator_factory=True):
    """``value`` (a registration or a decorator factory such as ``lower_builtin``) deferring
    refusals; the decorator a factory gives defers too, but what a decorator gives back (the
    user's function, ``type_callable``'s typer, an intrinsic) is returned as it is: compiled
    code finds registrations by those objects."""
    if not callable(value) or isinstance(value, type):
        return value

    @functools.wraps(value)
    def call(*args, **kwargs):
        try:
            result = value(*args, **kwargs)
        except (ShimUnsupported, NotImplementedError, TypeError) as error:
            return DeferredRegistration(name, error)
        registered = any(result is arg for arg in args) or hasattr(result, "_taipan_intrinsic")
        if (
            decorator_factory
            and callable(result)
            and not isinstance(result, type)
            and not registered
        ):
            return _deferring(name, result, decorator_factory=False)
        return result

    return call


def __getattr__(name):
    if name.startswith(("__", "pytest_")):
        raise AttributeError(name)
    if name in ("core_models", "models"):  # numba-cuda's name for the data models module
        return _extending.models
    if name == "_Intrinsic":
        from taipan.extending import _Intrinsic

        return _Intrinsic
    value = getattr(_extending, name)
    if name in ("typeof_impl", "as_numba_type"):  # registries: their .register defers
        return _Registry(name, value)
    return _deferring(name, value)


class _Registry:
    def __init__(self, name, registry):
        self._name, self._registry = name, registry

    def __getattr__(self, attribute):
        return _deferring(f"{self._name}.{attribute}", getattr(self._registry, attribute))

    def __call__(self, *args, **kwargs):
        return self._registry(*args, **kwargs)
