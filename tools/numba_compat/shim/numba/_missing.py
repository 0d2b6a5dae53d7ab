"""Placeholders for the parts of Numba the shim does not map onto taipan.

Numba's tests import many internals (``numba.core.ir``, ``numba.core.typed_passes``, the
data-model and lowering APIs...). So that such an import does not stop a whole test module, every
``numba.*`` module that the shim has no file for is made up on import: its attributes are
placeholders. A placeholder is a class (tests subclass some of them); calling it gives an object
whose every use raises ``ShimUnsupported`` naming the placeholder. A placeholder is false in a
boolean test, so ``skipUnless(cffi_utils.SUPPORTED, ...)`` skips.
"""

import importlib.abc
import importlib.machinery
import sys
import types as _pytypes


class ShimUnsupported(NotImplementedError):
    """A test used a Numba internal that has no taipan counterpart."""


class _MissingMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return missing(f"{cls._shim_name}.{name}")

    def __call__(cls, *args, **kwargs):
        # Not an error yet: test modules call some placeholders while they are imported
        # (``class T(test_factory()):``, ``fe_type = types.Generator(...)``); the result
        # raises when a test uses it.
        return _Poison(f"{cls._shim_name}(...)")

    def __bool__(cls):
        return False

    def __iter__(cls):
        return iter(())

    def __len__(cls):
        return 0

    def __repr__(cls):
        return f"<numba shim placeholder {cls._shim_name}>"


def _refusal(what):
    return ShimUnsupported(f"{what} (a Numba internal) is not mapped onto taipan")


class _Poison:
    """The result of calling a placeholder: any use of it raises ``ShimUnsupported``."""

    __slots__ = ("_shim_name",)

    def __init__(self, name):
        object.__setattr__(self, "_shim_name", name)

    def __repr__(self):
        return f"<numba shim placeholder {self._shim_name}>"

    def __mro_entries__(self, bases):
        return (object,)  # ``class T(placeholder()):`` defines a class without the base

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        raise _refusal(self._shim_name)

    def __setattr__(self, name, value):
        raise _refusal(self._shim_name)

    def __call__(self, *args, **kwargs):
        raise _refusal(self._shim_name)

    def __eq__(self, other):
        raise _refusal(self._shim_name)

    def __hash__(self):
        raise _refusal(self._shim_name)

    def __bool__(self):
        raise _refusal(self._shim_name)

    def __iter__(self):
        raise _refusal(self._shim_name)

    def __len__(self):
        raise _refusal(self._shim_name)

    def __getitem__(self, key):
        raise _refusal(self._shim_name)

    def __enter__(self):
        raise _refusal(self._shim_name)

    def __exit__(self, *exc):
        raise _refusal(self._shim_name)


def missing(qualified_name):
    """A placeholder for the Numba object ``qualified_name``."""
    short = qualified_name.rsplit(".", 1)[-1]
    return _MissingMeta(short, (), {"_shim_name": qualified_name})


_TEST_HOOKS = {
    "setUpModule",
    "tearDownModule",
    "setup_module",
    "teardown_module",
    "setup_package",
    "teardown_package",
    "setup",
    "teardown",
    "load_tests",
}


def _not_a_placeholder(name):
    """Names asked of every module that must stay absent: Python's, and the hooks pytest and
    unittest look for in the modules and packages they collect (``pytest_plugins``,
    ``setUpModule``...)."""
    dunder = name.startswith("__") and name.endswith("__")
    return dunder or name.startswith("pytest_") or name in _TEST_HOOKS


class MissingModule(_pytypes.ModuleType):
    """A ``numba.*`` module the shim does not provide: every attribute is a placeholder."""

    def __getattr__(self, name):
        if _not_a_placeholder(name):
            raise AttributeError(name)
        value = missing(f"{self.__name__}.{name}")
        setattr(self, name, value)
        return value


def fill_missing(module_globals, module_name):
    """A module-level ``__getattr__`` for a shim module that maps part of a Numba module: the
    names it does not define become placeholders instead of AttributeErrors."""

    def __getattr__(name):
        if _not_a_placeholder(name):
            raise AttributeError(name)
        value = missing(f"{module_name}.{name}")
        module_globals[name] = value
        return value

    return __getattr__


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        module = MissingModule(spec.name)
        module.__path__ = []  # a package, so that its submodules import too
        return module

    def exec_module(self, module):
        pass


class MissingFinder(importlib.abc.MetaPathFinder):
    """Placed last on ``sys.meta_path``: any ``numba.*`` module that no file provides."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("numba."):
            return None
        if fullname.startswith("numba.tests."):
            return None  # Numba's own test modules are real files or really absent
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)


def install():
    if not any(isinstance(finder, MissingFinder) for finder in sys.meta_path):
        sys.meta_path.append(MissingFinder())
