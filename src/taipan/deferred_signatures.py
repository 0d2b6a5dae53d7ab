"""Eager ``@jit`` signatures typed when decorated, their code generated at their first use.

``@jit("intp(intp, intp)")`` compiled each signature inside the decorator, as Numba does. Most
signatures a library declares are never called in a given process (quantecon's ``comb_jit``
compiles when ``quantecon`` is imported), and optimising and generating code is most of a
compile. So each signature is typed and lowered when decorated (``_core.inspect``: every error
compiling would raise is raised there, in the same order), and its entry in the dispatcher's
``_overloads`` is a ``DeferredSignature`` until something reads it: a call with argument types
that pick it, ``compile()``, ``overloads``, ``inspect_types``, a pickle. Reading an entry
generates its code then, exactly as the decorator would have (``Dispatcher._compile_types``).
A compiled caller asks only for the return type, which a signature that declares it gives
without generating code.

Rule: the code reads the globals and closure values as they were **at decoration** (a copy of
the function over a copy of its module's globals, ``frozen_namespace.frozen_copy``, as the eager
``@guvectorize`` does): rebinding a name afterwards goes unseen, as with Numba, which compiled
then. The objects themselves are shared.

Signatures are compiled at decoration as before where deferring would move something the user
sees: ``parallel=True`` (its ParallelSafetyWarning), ``_nrt=False`` (its return check),
``cache=True`` without a return type (the disk cache's fast load needs no typing), the
reports TAIPAN_DUMP_ANNOTATION, TAIPAN_DUMP_LLVM, TAIPAN_PARALLEL_DIAGNOSTICS and annotation,
and a closure that calls itself through its cell.
"""

from taipan import _core, config
from taipan.frozen_namespace import frozen_copy


class DeferredSignature:
    """An explicit signature typed at decoration whose code waits for its first use."""

    __slots__ = ("declared_return",)

    def __init__(self, declared_return):
        self.declared_return = declared_return


class DeferringOverloads(dict):
    """A dispatcher's ``{argument types: compiled function}`` whose values may still be
    ``DeferredSignature``: reading one (``[]``, ``get``, ``in``, ``values``, ``items``)
    generates its code first, so readers see compiled functions only. Keys and their order
    (the signatures' order, which breaks ties between them) are those of the decorator."""

    def __init__(self, dispatcher, entries, being_defined):
        super().__init__(entries)
        self.dispatcher = dispatcher
        self.being_defined = being_defined  # the dispatcher module's table (_being_defined)

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if isinstance(value, DeferredSignature):
            value = generate(self.dispatcher, key)
        return value

    def get(self, key, default=None):
        return self[key] if dict.__contains__(self, key) else default

    def __contains__(self, key):
        # A caller testing for a key then uses its code (Dispatcher._compile_for_args relies
        # on the key being installed in the call table, which generating does).
        return self.get(key) is not None

    def values(self):
        return [self[key] for key in list(self)]

    def items(self):
        return [(key, self[key]) for key in list(self)]

    def generated_items(self):
        """The entries whose code exists, without generating the others."""
        return [
            (key, value)
            for key, value in dict.items(self)
            if not isinstance(value, DeferredSignature)
        ]

    def return_type(self, key):
        """The return type of signature ``key``: the declared one without generating code."""
        value = dict.__getitem__(self, key)
        if isinstance(value, DeferredSignature) and value.declared_return is not None:
            return value.declared_return
        return self[key].return_type


def return_type_of(overloads, key):
    """The return type of a dispatcher's signature ``key`` (``_overloads`` deferring or not)."""
    if isinstance(overloads, DeferringOverloads):
        return overloads.return_type(key)
    return overloads[key].return_type


def generated_items(overloads):
    """A dispatcher's (argument types, compiled function) pairs whose code exists."""
    if isinstance(overloads, DeferringOverloads):
        return overloads.generated_items()
    return list(overloads.items())


def defers(dispatcher, parsed):
    """Whether the signatures ``parsed`` ((argument types, return type or None) pairs) of a CPU
    dispatcher are typed now and generated later (see the module for the exceptions)."""
    options = dispatcher.targetoptions
    if options.get("parallel") or options.get("_nrt", True) is False:
        return False
    if config.DUMP_ANNOTATION or config.DUMP_LLVM or config.PARALLEL_DIAGNOSTICS:
        return False
    if config.annotating():
        return False
    if dispatcher.py_func.__name__ in dispatcher.py_func.__code__.co_freevars:
        return False  # a closure calling itself: its cell is filled after the decorator returns
    return not (options.get("cache") and any(returns is None for _, returns in parsed))


def defer_signatures(dispatcher, parsed, being_defined):
    """Types (and lowers) each signature now, in order, raising what compiling would, and
    leaves its code to its first use. ``being_defined``: the dispatcher module's table that lets
    a recursive call find the dispatcher while its name is not bound yet."""
    from taipan.frontend import read_function
    from taipan.wrappers import adapt_to_numpy_once

    frozen = frozen_copy(dispatcher.py_func)
    # The function's own name, bound once the decorator returns: a recursive call, and callers
    # compiling this source later, find the dispatcher (what the decorator's compile found).
    frozen.__globals__.setdefault(frozen.__name__, dispatcher)
    dispatcher._source = read_function(frozen, dispatcher._compile_options())
    dispatcher._frozen_function = frozen
    overloads = DeferringOverloads(dispatcher, dispatcher._overloads, being_defined)
    dispatcher._overloads = overloads
    adapt_to_numpy_once()
    with _being_defined(dispatcher, being_defined):
        for argument_types, return_type in parsed:
            if dict.__contains__(overloads, argument_types):
                continue  # the first signature of these argument types wins, as compiling
            _core.inspect(dispatcher._source, list(argument_types), "llvm-unoptimized", return_type)
            dict.__setitem__(overloads, argument_types, DeferredSignature(return_type))


def generate(dispatcher, key):
    """The compiled function of signature ``key``, its code generated now if deferred (what
    the decorator compiled, installed in the call table; the entry keeps its place)."""
    overloads = dispatcher._overloads
    with _core.compiler_lock:  # the dispatchers' compile lock (re-entrant)
        entry = dict.get(overloads, key)
        if not isinstance(entry, DeferredSignature):
            return entry
        order = list(dict.keys(overloads))
        dict.__delitem__(overloads, key)
        # compile_disabled() after decoration closes compilation to new types only: this
        # signature counts as compiled when decorated, as Numba compiled it.
        disabled = dispatcher.__dict__.get("_compile_disabled")
        if disabled:
            dispatcher.__dict__["_compile_disabled"] = False
        try:
            with _being_defined(dispatcher, overloads.being_defined):
                compiled = dispatcher._compile_types(key, entry.declared_return)
        except BaseException:
            dict.__setitem__(overloads, key, entry)
            raise
        finally:
            if disabled:
                dispatcher.__dict__["_compile_disabled"] = disabled
            entries = [(known, dict.__getitem__(overloads, known)) for known in order]
            dict.clear(overloads)
            dict.update(overloads, entries)
        return compiled


class _being_defined:
    """While typing or generating: the dispatcher's own name, not bound in its frozen
    namespace, means the dispatcher (both the function and its frozen copy map to it), so
    that a recursive call compiles as it did inside the decorator."""

    def __init__(self, dispatcher, table):
        self.functions = [dispatcher.py_func, dispatcher._frozen_function]
        self.dispatcher = dispatcher
        self.table = table
        self.previous = []

    def __enter__(self):
        self.previous = [self.table.get(function) for function in self.functions]
        for function in self.functions:
            self.table[function] = self.dispatcher

    def __exit__(self, *exc):
        for function, previous in zip(self.functions, self.previous):
            if previous is None:
                self.table.pop(function, None)
            else:
                self.table[function] = previous
