"""``@jit(forceobj=True)``: object mode. Every value is a Python object and the semantics are
CPython's exactly, so the function runs in the interpreter. Numba would also lift the loops
whose variables type in nopython mode into native functions (``looplift``); taipan does not
yet, so an object-mode function runs at the interpreter's speed."""

from taipan.dispatcher import wrap_python_function


class ObjectModeFunction:
    """A function compiled in object mode: called as the Python function it wraps."""

    def __init__(self, py_func, options):
        wrap_python_function(self, py_func)
        self.targetoptions = dict(options)

    def __call__(self, *args, **kwargs):
        return self.py_func(*args, **kwargs)

    def __get__(self, instance, owner=None):
        # A method: bound like the function it wraps.
        if instance is None:
            return self
        import types

        return types.MethodType(self, instance)

    @property
    def signatures(self):
        return []

    @property
    def overloads(self):
        return {}

    def compile(self, signature):
        """Nothing to compile: object mode runs the interpreter's code."""

    def inspect_types(self, file=None, signature=None, pretty=False):
        import sys

        print(
            f"{self.__qualname__}: object mode (forceobj=True): runs in the interpreter with "
            "Python objects; no loops lifted",
            file=file or sys.stdout,
        )

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


__all__ = ["ObjectModeFunction"]
