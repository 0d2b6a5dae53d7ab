"""A dispatcher's overloads as Numba's compile results, and ``types.CompileResultWAP``.

``dispatcher.overloads[argument_types]`` is a ``CompileResult``: taipan's compiled overload
(its attributes ``hash``, ``parallel_loops``... read through) with the parts of Numba's
``CompileResult`` that user code reaches for: ``signature``, ``entry_point``, ``py_func``.
``CompileResultWAP(cres)`` turns one into a first-class function value (Numba's wrapper of a
compile result as a ``WrapperAddressProtocol``): compiled code calls it through a C entry of the
overload's signature, compiled from the same Python function with the dispatcher's options.
"""

from __future__ import annotations

from taipan import _core
from taipan.types import WrapperAddressProtocol


class CompileResult:
    """One overload of a jitted function (Numba's ``CompileResult``)."""

    __slots__ = ("_argument_types", "_compiled", "_dispatcher")

    def __init__(self, dispatcher, argument_types, compiled):
        self._dispatcher = dispatcher
        self._argument_types = tuple(argument_types)
        self._compiled = compiled

    def __getattr__(self, name):
        return getattr(self._compiled, name)

    @property
    def signature(self):
        """``return_type(argument types...)`` of this overload."""
        return _core.signature(self._compiled.return_type, list(self._argument_types))

    @property
    def py_func(self):
        return self._dispatcher.py_func

    @property
    def dispatcher(self):
        return self._dispatcher

    @property
    def entry_point(self):
        """Calls the overload from Python (through its dispatcher)."""
        return self._dispatcher

    def __repr__(self):
        return f"<CompileResult {self._dispatcher.__name__}{self.signature}>"


class CompileResultWAP(WrapperAddressProtocol):
    """Numba's ``types.CompileResultWAP(cres)``: a compile result as a first-class function of
    its signature, callable from compiled code (through its C entry) and from Python."""

    def __init__(self, cres):
        if not isinstance(cres, CompileResult):
            raise TypeError(
                f"CompileResultWAP takes a compile result (a value of dispatcher.overloads), "
                f"not {type(cres).__name__}"
            )
        from taipan.cfunc import cfunc

        self.cres = cres
        options = {
            key: value
            for key, value in cres.dispatcher.targetoptions.items()
            if key in ("fastmath", "error_model", "boundscheck")
        }
        # The C entry Numba's compile result carries (its cfunc wrapper), compiled here from the
        # same function: an exception inside is unraisable and gives zero, as through Numba's.
        self._entry = cfunc(cres.signature, **options)(cres.py_func)
        self.address = self._entry.address

    def __wrapper_address__(self):
        return self.address

    def signature(self):
        return self.cres.signature

    def __call__(self, *args, **kwargs):
        return self.cres.entry_point(*args, **kwargs)

    def dump(self, tab=""):
        print(f"{tab}DUMP {type(self).__name__} [{self.cres.py_func.__name__}, {self.address}]")
