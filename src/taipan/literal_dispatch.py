"""``literally`` (Numba's ``numba.literally``) and the dispatcher's specialisations for literal
argument values.

In compiled code ``literally(x)`` is ``x``, once typing knows ``x`` as a literal: a constant string
or integer. Where ``x`` is a parameter, the caller is asked for its value (typing/CallInference:
LiteralParametersNeeded); a caller passing a constant types the callee again with it, and from
the function called from Python the bindings raise ``ForceLiteralArg`` naming the parameters.
The dispatcher then compiles, per value of those arguments, a wrapper that calls the function
with the values written as constants (so they type as literals: a ``StringLiteral``, a known
integer), and calls that wrapper: those calls go through Python, since the argument types alone
cannot select the specialisation (as in Numba, which compiles again per literal value)."""

from taipan.errors import TypingError


def literally(value):
    """Numba's ``literally``: ``value`` itself, known to typing as a literal in compiled code.
    Given a parameter, the function called from Python is compiled per value of that argument
    (a ``str`` or an ``int``), so overloads' typing functions see a ``types.StringLiteral`` or a
    known integer; other values are a TypingError."""
    return value


literally.__module__ = "taipan"  # the library entry taipan.literally


_LITERAL_KINDS = (str, int)


class LiteralSpecialisations:
    """A dispatcher's literal specialisations: which parameters each argument-type key needs as
    literals, and a compiled wrapper per key and values."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self.parameters = {}  # argument types -> the indices of the parameters made literal
        self.wrappers = {}  # (argument types, values) -> the wrapper's dispatcher
        self._target = None  # a dispatcher of the same function the wrappers call

    def needs(self, key):
        return key in self.parameters

    def request(self, key, requested):
        """Records that ``key``'s calls need the parameters ``requested`` as literals."""
        self.parameters[key] = tuple(sorted(set(requested)))

    def call(self, key, args):
        """The result of calling the specialisation for ``args``' literal values."""
        indices = self.parameters[key]
        values = tuple(args[i] for i in indices)
        for index, value in zip(indices, values):
            if type(value) not in _LITERAL_KINDS:
                name = self.dispatcher.py_func.__code__.co_varnames[index]
                raise TypingError(
                    f"literally() needs the argument '{name}' of {self.dispatcher.__qualname__} "
                    f"as a literal, which a value of type {type(value).__name__} cannot be (a str "
                    "or an int can)"
                )
        wrapper = self.wrappers.get((key, values))
        if wrapper is None:
            wrapper = self.wrappers[(key, values)] = self._wrapper(indices, values)
        return wrapper(*args)

    def _wrapper(self, indices, values):
        dispatcher = self.dispatcher
        if self._target is None:
            self._target = type(dispatcher)(dispatcher.py_func, dispatcher.targetoptions)
        code = dispatcher.py_func.__code__
        if code.co_kwonlyargcount or code.co_flags & 0x0C:  # CO_VARARGS, CO_VARKEYWORDS
            raise TypingError(
                f"literally() in {dispatcher.__qualname__}, which has *args, **kwargs or "
                "keyword-only parameters, is not supported"
            )
        names = list(code.co_varnames[: code.co_argcount])
        given = dict(zip(indices, values))
        arguments = [repr(given[i]) if i in given else name for i, name in enumerate(names)]
        text = (
            f"def {dispatcher.py_func.__name__}({', '.join(names)}):\n"
            f"    return literal_target({', '.join(arguments)})\n"
        )
        namespace = {"literal_target": self._target}
        exec(text, namespace)  # noqa: S102 - taipan reads the text exec compiled
        options = {k: v for k, v in dispatcher.targetoptions.items() if k != "cache"}
        return type(dispatcher)(namespace[dispatcher.py_func.__name__], options)
