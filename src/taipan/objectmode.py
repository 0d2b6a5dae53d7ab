"""``@jit(forceobj=True)``: object mode. Every value is a Python object and the semantics are
CPython's exactly, so the function runs in the interpreter, except that with ``looplift=True``
(the default) each outermost loop whose body types in nopython mode runs as a native function
(taipan.looplift), as in Numba."""

import types

from taipan.wrappers import wrap_python_function


class _BoundAsMethod:
    """A function object that a class attribute binds as a method, as the function it wraps."""

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return types.MethodType(self, instance)


class ObjectModeFunction(_BoundAsMethod):
    """A function compiled in object mode: called as the Python function it wraps."""

    def __init__(self, py_func, options):
        wrap_python_function(self, py_func)
        self.targetoptions = dict(options)
        self._lifted = None  # the LiftedFunction, made on first call
        self._seen = []  # the argument types it was called with (its signatures)

    def _runner(self):
        if self._lifted is None:
            from taipan.looplift import LiftedFunction, lift_loops

            if self.targetoptions.get("looplift", True):
                self._lifted = lift_loops(self.py_func)
            else:
                self._lifted = LiftedFunction(self.py_func, [], "looplift=False")
        return self._lifted.function

    def __call__(self, *args, **kwargs):
        runner = self._runner()
        if not kwargs and len(self._seen) < 64:
            # Numba lists an object-mode function's argument types as its signatures.
            from taipan import _core

            key = tuple(_core.typeof_or_none(a) for a in args)
            if all(t is not None for t in key) and key not in self._seen:
                self._seen.append(key)
        return runner(*args, **kwargs)

    @property
    def lifted(self):
        """The lifted loops (taipan.looplift.LiftedLoop), each with its ``dispatcher``."""
        self._runner()
        return tuple(self._lifted.loops)

    @property
    def signatures(self):
        return list(self._seen)

    @property
    def overloads(self):
        """Numba's ``overloads[sig].lifted``: per argument types it was called with (or the
        empty signature before a call), the lifted loops (shared: one rebuilt function)."""
        lifted = _ObjectModeOverload(self.lifted)
        return {key: lifted for key in self._seen or [()]}

    def compile(self, signature):
        """Nothing to compile: object mode runs the interpreter's code."""

    def inspect_types(self, file=None, signature=None, pretty=False):
        import sys

        self._runner()
        out = file or sys.stdout
        loops = self._lifted.loops
        if not loops:
            print(
                f"{self.__qualname__}: object mode: runs in the interpreter with Python "
                f"objects; no loops lifted ({self._lifted.reason})",
                file=out,
            )
            return
        print(
            f"{self.__qualname__}: object mode: runs in the interpreter with Python objects; "
            f"{len(loops)} loop(s) lifted. The function contains lifted loops",
            file=out,
        )
        for loop in loops:
            print(
                f"# Loop at line {loop.lineno}: lifted; live values {loop.params}, "
                f"live-outs {loop.outs}",
                file=out,
            )
            if loop.dispatcher._overloads:
                loop.dispatcher.inspect_types(file=out)
            else:
                print("#   (not compiled yet, or its body did not type)", file=out)

    def __reduce__(self):
        from taipan.serialize import (
            _dispatcher_shell,
            _reachable_by_name,
            function_state,
            pickle_id,
        )

        if _reachable_by_name(self):
            return self.__qualname__
        state = function_state(self.py_func, self.targetoptions)
        return (_dispatcher_shell, (type(self), pickle_id(self)), state)

    def __setstate__(self, state):
        from taipan.serialize import is_set_up, restore_function

        if not is_set_up(self):
            type(self).__init__(self, restore_function(state), state["options"])

    def __repr__(self):
        return f"ObjectModeFunction({self.py_func!r})"


class _ObjectModeOverload:
    """What ``overloads`` holds for an object-mode function: its lifted loops."""

    def __init__(self, lifted):
        self.lifted = lifted
        self.objectmode = True


class FallbackFunction(_BoundAsMethod):
    """``@jit(nopython=False)``: nopython mode first; for argument types that do not type, a
    warning and object mode with loop lifting (as Numba 0.59+)."""

    def __init__(self, dispatcher, options):
        self._dispatcher = dispatcher
        wrap_python_function(self, dispatcher.py_func)
        self.targetoptions = dict(options)
        self._object = ObjectModeFunction(dispatcher.py_func, options)
        self._fallen = {}  # argument types -> the typing error that sent them to object mode

    def __call__(self, *args, **kwargs):
        from taipan.errors import TaipanError, TaipanWarning

        if kwargs:
            return self._object(*args, **kwargs)
        try:
            key = self._dispatcher._argument_types(args)
        except TaipanError:
            key = None
        if key is not None and key in self._fallen:
            return self._object(*args)
        if key is not None and key not in self._dispatcher._overloads:
            try:
                self._dispatcher._compile_types(key, None)
            except TaipanError as error:
                self._fallen[key] = error
                import warnings

                warnings.warn(
                    f"Compilation is falling back to object mode WITH looplifting enabled "
                    f'because Function "{self.__qualname__}" failed type inference due to: '
                    f"{error}",
                    TaipanWarning,
                    stacklevel=2,
                )
                return self._object(*args)
        if key is None:
            return self._object(*args)
        return self._dispatcher(*args)

    @property
    def signatures(self):
        return self._dispatcher.signatures + list(self._fallen)

    @property
    def nopython_signatures(self):
        return self._dispatcher.nopython_signatures

    @property
    def overloads(self):
        found = dict(self._dispatcher.overloads)
        for key in self._fallen:
            found[key] = _ObjectModeOverload(self._object.lifted)
        return found

    def compile(self, signature):
        return self._dispatcher.compile(signature)

    def inspect_types(self, file=None, signature=None, pretty=False):
        if self._dispatcher._overloads:
            self._dispatcher.inspect_types(file=file, signature=signature, pretty=pretty)
        if self._fallen:
            self._object.inspect_types(file=file)

    def __repr__(self):
        return f"FallbackFunction({self.py_func!r})"


__all__ = ["FallbackFunction", "ObjectModeFunction"]
