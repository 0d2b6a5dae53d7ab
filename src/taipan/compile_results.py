"""A dispatcher's overloads as Numba's compile results (``types.CompileResultWAP`` wraps one).

``dispatcher.overloads[argument_types]`` is a ``CompileResult``: taipan's compiled overload
(its attributes ``hash``, ``parallel_loops``... read through) with the parts of Numba's
``CompileResult`` that user code reaches for: ``signature``, ``entry_point``, ``py_func``.
``CompileResultWAP(cres)`` turns one into a first-class function value (Numba's wrapper of a
compile result as a ``WrapperAddressProtocol``): compiled code calls it through a C entry of the
overload's signature, compiled from the same Python function with the dispatcher's options.
"""

from __future__ import annotations

from taipan import _core


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

    def c_entry(self):
        """The C entry Numba's compile result carries (its cfunc wrapper), compiled here from
        the same function with the dispatcher's numeric options: an exception inside is
        unraisable and gives zero, as through Numba's (``types.CompileResultWAP`` calls it)."""
        from taipan.cfunc import cfunc

        options = {
            key: value
            for key, value in self._dispatcher.targetoptions.items()
            if key in ("fastmath", "error_model", "boundscheck")
        }
        return cfunc(self.signature, **options)(self._dispatcher.py_func)

    def __repr__(self):
        return f"<CompileResult {self._dispatcher.__name__}{self.signature}>"
