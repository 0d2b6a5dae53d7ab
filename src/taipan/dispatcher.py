"""The Python side of a jitted function: compilation on a miss, explicit signatures, and the
inspection methods. Calls themselves run in the C++ base class."""

import sys
import time

from taipan import _core, config
from taipan.deferred_signatures import defer_signatures, defers, generated_items, return_type_of
from taipan.errors import ForceLiteralArg, TaipanError, TypingError, UnsupportedError
from taipan.literal_dispatch import LiteralSpecialisations
from taipan.types import Signature, parse_signature
from taipan.wrappers import adapt_to_numpy_once, wrap_python_function

# The one lock of every compilation (C++'s CompilerLock): re-entrant, and a thread waits for it
# with the GIL released, so its holder can always run Python (docs/architecture.md, "Locks").
_compile_lock = _core.compiler_lock


def _describe_key(key):
    return "(" + ", ".join(str(t) for t in key) + ")"


_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


# Dispatchers compiling their explicit signatures inside their decorator, by Python function:
# the function's own name is bound only when the decorator returns, so a recursive call
# (`@jit("i8(i8)") def fib(n): ... fib(n - 1)`) finds its dispatcher here (the resolver asks
# for a name it cannot find, bindings/GlobalResolution.cpp), as Numba's typeinfer asks its
# _temporary_dispatcher_map.
_being_defined = {}


def dispatcher_being_defined(py_func):
    """The dispatcher compiling ``py_func``'s explicit signatures now, else None."""
    return _being_defined.get(py_func)


def explicit_signature_for(dispatcher, argument_types):
    """For a call from compiled code: the explicit signature of ``dispatcher`` the arguments
    convert to, as ``[*argument_types, return_type]``, by the rule a call from Python follows
    (``_best_signature``, which raises TypeError when none or several fit); None when the
    dispatcher compiles for any argument types, or is still compiling its signatures (a
    recursive call inside them: its other signatures are not known yet)."""
    if not getattr(dispatcher, "_explicit", False) or dispatcher.py_func in _being_defined:
        return None
    from taipan.compile_platform import compiling_platform

    if compiling_platform() == "cuda" and not dispatcher._device_code:
        # numba-cuda compiles a CPU function called from a kernel for the GPU, unless its
        # signatures closed its compilation: then its words, as a TypingError.
        raise TypeError(
            f"Untyped global name '{dispatcher.__name__}': using cpu function on device but its "
            f"compilation is disabled ({dispatcher.__name__} was given explicit signatures, so "
            "it compiles for no others, the GPU's included)"
        )
    signature = dispatcher._best_signature(tuple(argument_types))
    # (a signature that declares its return type needs no code for it: deferred_signatures)
    return [*signature, return_type_of(dispatcher._overloads, signature)]


class CompiledFunction(_core.DispatcherBase):
    """What CPU and CUDA dispatchers share: the Python function, its options and its source."""

    # Whether its functions are device code (a CUDA dispatcher's), not CPU code a kernel may
    # call only while it compiles for any argument types.
    _device_code = False

    def __init__(self, py_func, options):
        wrap_python_function(self, py_func)
        self.targetoptions = dict(options)
        self._source = None
        self._front_end_seconds = 0.0  # charged to the first compilation, which paid it
        self._timers = {}  # {"stage": seconds} by argument types

    @property
    def _cache(self):
        """The disk cache of this function or kernel (taipan.caching), made on first use."""
        cache = self.__dict__.get("_disk_cache")
        if cache is None:
            from taipan.caching import FunctionCache

            cache = self.__dict__["_disk_cache"] = FunctionCache(self)
        return cache

    @property
    def stats(self):
        """Disk-cache hits and misses of this function (or kernel) in this process
        (cache=True)."""
        return self._cache.stats

    def cache_clear(self):
        """Removes this function's (or kernel's) disk-cache files."""
        self._cache.clear()

    def _function_source(self):
        if self._source is None:
            from taipan.frontend import read_function

            start = time.perf_counter()
            self._source = read_function(self.py_func, self._compile_options())
            self._front_end_seconds = time.perf_counter() - start
        return self._source

    def _compile_options(self):
        """The options the compiler reads the function with."""
        return self.targetoptions

    def _compile_signatures(self, signatures):
        """Compiles the decorator's explicit signatures, the function's own name meaning this
        dispatcher meanwhile (dispatcher_being_defined)."""
        previous = _being_defined.get(self.py_func)
        _being_defined[self.py_func] = self
        try:
            for signature in signatures:
                self.compile(signature)
        finally:
            if previous is None:
                del _being_defined[self.py_func]
            else:
                _being_defined[self.py_func] = previous

    def _best_signature(self, key, signatures=None, allow_ambiguous=False):
        """The explicit signature (of ``signatures``, the compiled overloads when None)
        arguments of types ``key`` convert to best, by Numba's rule
        (its typeconv's selectOverload): each signature is rated by how many arguments need an
        unsafe, a safe and a promoting conversion, compared in that order; one that no argument
        converts to is out. A tie between the best raises TypeError, as Numba's does, unless
        ``allow_ambiguous`` (Numba's resolve_overload for some callers): the first of them in
        the signatures' order."""
        rated = []
        for signature in self._overloads if signatures is None else signatures:
            if len(signature) != len(key):
                continue
            kinds = [_core.conversion_kind(a, b) for a, b in zip(key, signature)]
            if None not in kinds:  # exact 1, promote 2, safe 3, unsafe 4
                rated.append(((kinds.count(4), kinds.count(3), kinds.count(2)), signature))
        wanted = ", ".join(str(t) for t in key)
        if not rated:
            raise TypeError(f"No matching definition for argument type(s) {wanted}")
        best = min(rating for rating, _ in rated)
        tied = [signature for rating, signature in rated if rating == best]
        if len(tied) > 1 and not allow_ambiguous:
            raise TypeError(self._ambiguity(key, tied))
        return tied[0]

    def _ambiguity(self, key, tied):
        """The message of argument types ``key`` fitting the signatures ``tied`` equally."""
        wanted = ", ".join(str(t) for t in key)
        choices = "\n".join(_describe_key(signature) for signature in tied)
        return f"Ambiguous overloading for {self.__qualname__} ({wanted}):\n{choices}"

    def _record_times(self, key, stages):
        """Keeps one compilation's stage times ([(stage, seconds)] from the compiler, after the
        front end's) for get_metadata, prints them when TAIPAN_TIMING is set, and returns the
        dict kept (later stages, such as a kernel's loading, add to it)."""
        timers = {"front end": self._front_end_seconds, **dict(stages)}
        self._front_end_seconds = 0.0
        self._timers[key] = timers
        if config.TIMING:
            lines = [f"taipan: compiled {self.__qualname__}{_describe_key(key)}"]
            lines += [f"  {stage:<38} {seconds * 1e3:9.3f} ms" for stage, seconds in timers.items()]
            lines.append(f"  {'total':<38} {sum(timers.values()) * 1e3:9.3f} ms")
            print("\n".join(lines), file=sys.stderr)
        return timers

    def _report_compilation(self, key):
        """What the environment asks for after a compilation: TAIPAN_DUMP_ANNOTATION,
        TAIPAN_DUMP_LLVM, TAIPAN_PARALLEL_DIAGNOSTICS, TAIPAN_ANNOTATE_HTML (and ``python -m
        taipan annotate``)."""
        if config.DUMP_ANNOTATION:
            self.inspect_types(file=sys.stderr, signature=key)
        if config.DUMP_LLVM:  # Numba's dump: to stdout, between rulers
            print(f"LLVM DUMP {self.__qualname__}{_describe_key(key)}".center(80, "-"))
            print(self.inspect_llvm(key))
            print("=" * 80)
        if config.PARALLEL_DIAGNOSTICS and self.targetoptions.get("parallel"):
            print(_describe_parallel_loops(self, key, config.PARALLEL_DIAGNOSTICS), file=sys.stderr)
        if config.annotating():
            from taipan import annotate

            annotate.compiled(lambda: self._annotation(key, vectorization=True))

    def _annotation(self, key, vectorization=False):
        """The annotate.FunctionAnnotation of one compiled specialisation."""
        raise NotImplementedError

    def get_metadata(self, signature=None):
        """Numba's compile metadata: ``{"timers": {stage: seconds}}`` for a signature (argument
        types), or a dict of them keyed by argument types."""
        if signature is None:
            return {key: {"timers": dict(timers)} for key, timers in self._timers.items()}
        if isinstance(signature, (tuple, list)):
            key = tuple(signature)
        else:
            key = tuple(parse_signature(signature).args)
        self._overloads.get(key)  # an explicit signature's code may wait for its first use
        return {"timers": dict(self._timers[key])}

    def __reduce__(self):
        # Pickled by reference: unpickling finds the module-level name again.
        return self.__qualname__


def _counter():
    import collections

    return collections.Counter()


def _reduce_by_reference_or_value(self):
    from taipan.serialize import reduce_dispatcher

    return reduce_dispatcher(self)


def _set_state(self, state):
    from taipan.serialize import restore_dispatcher

    restore_dispatcher(self, state)


class Dispatcher(CompiledFunction):
    """A jitted function: call it like the Python function it wraps."""

    # A global naming one is covered in a caller's code key by its options and its function's
    # code (taipan.caching).
    covered_by_code_key = True

    def __init__(self, py_func, options, signatures=None):
        super().__init__(py_func, options)
        self._overloads = {}
        # The return type a signature declared for a first tier's argument types (None when it
        # was inferred): its level-3 code is compiled to return the same type.
        self._first_tier_returns = {}
        self._explicit = bool(signatures)
        self._compile_disabled = False
        code = py_func.__code__
        # Python's order: positional parameters, *args (bound to a tuple), keyword-only ones.
        star = bool(code.co_flags & _CO_VARARGS)
        count = code.co_argcount + code.co_kwonlyargcount + int(star)
        names = list(code.co_varnames[:count])
        if star:  # co_varnames puts *args after the keyword-only parameters
            names = (
                names[: code.co_argcount]
                + [code.co_varnames[count - 1]]
                + names[code.co_argcount : count - 1]
            )
        # **kwargs is reported when the first call compiles.
        generic = bool(code.co_flags & _CO_VARKEYWORDS)
        # A parallel region releases the GIL, as nogil=True does for the whole call.
        release_gil = bool(options.get("nogil") or options.get("parallel"))
        _core.configure_dispatcher(
            self,
            names,
            py_func.__defaults__,
            release_gil,
            generic,
            code.co_argcount if star else -1,
            code.co_kwonlyargcount,
            py_func.__kwdefaults__,
        )
        self._compile_signatures(signatures or ())

    def _compile_options(self):
        return config.cpu_compile_options(self.targetoptions)

    def _compile_signatures(self, signatures):
        """Types the decorator's explicit signatures now and generates each one's code at its
        first use (taipan.deferred_signatures), or compiles them now where that would show."""
        parsed = [_signature_parts(signature) for signature in signatures]
        if not parsed or not defers(self, parsed):
            super()._compile_signatures(signatures)
            return
        defer_signatures(self, parsed, _being_defined)

    def _argument_types(self, args):
        types = []
        code = self.py_func.__code__
        for index, value in enumerate(args):
            value_type = _core.typeof_or_none(value)
            if value_type is None:
                name = code.co_varnames[index] if index < code.co_argcount else "?"
                what = _core.describe_unsupported(value) or type(value).__name__
                where = (
                    f'\n\nFile "{code.co_filename}", line '
                    f"{code.co_firstlineno}, in {self.__qualname__}"
                )
                if isinstance(value, (frozenset, dict)):
                    # Dicts and frozensets cannot be passed in (issue 13): say so rather than
                    # "no type".
                    raise UnsupportedError(
                        f"argument {index} ({name}) is a {type(value).__name__}: dicts and "
                        f"frozensets are not supported as arguments of compiled code{where}"
                    )
                if isinstance(value, set):
                    what = (
                        "an empty set has no item type"
                        if not value
                        else "a set of items that do not hash in compiled code"
                    )
                    raise TypingError(
                        f"cannot determine the type of argument {index} ({name}): {what} (sets "
                        f"of integers, floats, booleans, strings and tuples of them are "
                        f"supported){where}"
                    )
                raise TypingError(
                    f"cannot determine the type of argument {index} ({name}): {what}{where}"
                )
            types.append(value_type)
        return tuple(types)

    def _compile_for_args(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{self.__name__}() got unexpected keyword arguments {sorted(kwargs)}")
        if not self.targetoptions.get("cache"):  # a cached function may need no source
            self._function_source()  # reports unsupported syntax before argument types
        key = self._argument_types(args)
        literals = self.__dict__.get("_literal_specialisations")
        if literals is None or not literals.needs(key):
            with _compile_lock:
                if key in self._overloads:
                    return  # another thread compiled it while this one waited for the lock
                if self._explicit or self._compile_disabled:
                    signature = self._best_signature(key)
                    _core.add_overload(self, self._overloads[signature], key)
                    return
                try:
                    self._compile_types(key, None)
                    return
                except ForceLiteralArg as request:  # literally(): compiled per value
                    literals = self.__dict__.setdefault(
                        "_literal_specialisations", LiteralSpecialisations(self)
                    )
                    literals.request(key, request.requested_args)
        # The call made here: a 1-tuple of its result (src/bindings/Dispatcher.cpp).
        return (literals.call(key, args),)

    def disable_compile(self, val=True):
        """Numba's: compile nothing more. A call with argument types not compiled for runs the
        compiled signature they convert to best (a record with more fields where one of its
        leading fields was compiled for: record subtyping), else raises TypeError."""
        self._compile_disabled = bool(val)

    def _compile_types(self, argument_types, return_type):
        adapt_to_numpy_once()
        with _compile_lock:
            compiled = self._overloads.get(argument_types)
            if compiled is None and self._compile_disabled:
                raise RuntimeError("compilation disabled")  # Numba's message
            if compiled is None:
                compiled = self._compile_or_load(argument_types, return_type)
                if self.targetoptions.get("_nrt", True) is False:
                    from taipan.runtime_option import check_return

                    check_return(self.py_func, compiled.return_type)
                self._record_times(argument_types, compiled.stage_times)
                _warn_serial_loops(compiled.parallel_loops)
                self._overloads[argument_types] = compiled
                if compiled.first_tier:
                    self._first_tier_returns[argument_types] = return_type
                _core.add_overload(
                    self, compiled, argument_types, tier_up_after=config.TIER_UP_CALLS
                )
                self._report_compilation(argument_types)
            return compiled

    def _tier_up(self, address):
        """Called by the dispatcher once a first tier (level-0 code of a function without loops,
        compiler/TieredCompilation) has run TIER_UP_CALLS calls: compiles the same job at its
        level and makes every key that ran the first tier run that code. A failure leaves the
        first tier in place: it computes the same results."""
        with _compile_lock:
            for argument_types, compiled in generated_items(self._overloads):
                if compiled.address == address and compiled.first_tier:
                    break
            else:
                return
            try:
                final = _core.compile(
                    self._function_source(),
                    list(argument_types),
                    self._first_tier_returns.pop(argument_types, None),
                    keep_object=True,
                )
            except TaipanError:
                return
            self._record_times(argument_types, final.stage_times)
            self._overloads[argument_types] = final
            _core.replace_overloads(self, compiled, final)

    def _annotation(self, key, vectorization=False):
        from taipan import annotate

        compiled = self._overloads[key]
        loops = annotate.vectorized_loops(self, key) if vectorization else None
        return annotate.FunctionAnnotation(
            self.__qualname__, compiled.type_annotations, compiled.parallel_loops, loops
        )

    def _compile_or_load(self, argument_types, return_type):
        """Compiles a specialisation, or loads the object code a pickle carried, or with
        cache=True loads it from the disk cache (and writes it there after compiling it)."""
        caching = bool(self.targetoptions.get("cache")) and return_type is None
        code_key = None
        if caching:  # first by the code key: no source text, typing or LLVM (taipan.caching)
            compiled, code_key = self._cache.load_fast(argument_types)
            if compiled is not None:
                self._cache_hits[argument_types] += 1
                return compiled
        source = self._function_source()
        carried = self._carried_code(source, argument_types) if return_type is None else None
        if carried is not None:
            return carried
        if not caching:  # (code a cache keeps is always final: no first tier)
            return _core.compile(
                source,
                list(argument_types),
                return_type,
                keep_object=True,
                first_tier=config.TIER_UP_CALLS > 0,
            )
        compiled, job_hash = self._cache.load(source, argument_types)
        if compiled is None:
            self._cache_misses[argument_types] += 1
            compiled = _core.compile(source, list(argument_types), None, keep_object=True)
            self._cache.save(compiled, job_hash)
        else:
            self._cache_hits[argument_types] += 1
        self._cache.save_fast(compiled, code_key)
        return compiled

    @property
    def _cache_hits(self):
        """Numba's disk-cache loads per specialisation: ``Counter`` of argument types."""
        return self.__dict__.setdefault("_cache_hit_counts", _counter())

    @property
    def _cache_misses(self):
        """Numba's disk-cache misses (compiled, then saved) per specialisation."""
        return self.__dict__.setdefault("_cache_miss_counts", _counter())

    def _carried_code(self, source, argument_types):
        """The specialisation a pickle carried for these types, loaded (or None)."""
        carried = self.__dict__.get("_carried")
        if not carried:
            return None
        from taipan.serialize import carried_key, load_carried

        return load_carried(carried.pop(carried_key(argument_types), None), source, argument_types)

    def compile(self, signature):
        """Compiles one specialisation now, from a signature string, Signature or type tuple."""
        return self._compile_types(*_signature_parts(signature))

    @property
    def signatures(self):
        return list(self._overloads)

    @property
    def nopython_signatures(self):
        return [
            _core.signature(return_type_of(self._overloads, key), key) for key in self._overloads
        ]

    @property
    def overloads(self):
        """``{argument types: CompileResult}``, as Numba's (taipan.compile_results)."""
        from taipan.compile_results import CompileResult

        return {
            key: CompileResult(self, key, compiled) for key, compiled in self._overloads.items()
        }

    def _selected(self, signature):
        if signature is None:
            return list(self._overloads)
        if isinstance(signature, (tuple, list)):
            return [tuple(signature)]
        return [tuple(parse_signature(signature).args)]

    def inspect_types(self, file=None, signature=None, pretty=False):
        """Prints the source annotated with the type of every variable, per signature. With
        ``pretty=True`` it returns an Annotation instead (as Numba does): each line of the source
        with the types of the variables it assigns and notes on its prange loops and the loops
        LLVM vectorized (found by compiling again with line information), as text (its repr, or
        ``str()``) or HTML in a notebook; given a ``file``, it is also written there."""
        if pretty:
            from taipan.annotate import Annotation

            annotation = Annotation(
                self._annotation(key, vectorization=True) for key in self._selected(signature)
            )
            if file is not None:
                print(annotation, file=file)
            return annotation
        out = file or sys.stdout
        for key in self._selected(signature):
            print(self._overloads[key].type_annotations, file=out)

    def _inspect(self, kind, signature):
        texts = {
            key: _core.inspect(self._function_source(), list(key), kind)
            for key in self._selected(signature)
        }
        if signature is not None:
            return next(iter(texts.values()))
        return texts

    def inspect_llvm(self, signature=None):
        """The optimised LLVM IR: one text, or a dict keyed by argument types."""
        return self._inspect("llvm", signature)

    def inspect_asm(self, signature=None):
        """The host assembly: one text, or a dict keyed by argument types."""
        return self._inspect("asm", signature)

    def parallel_diagnostics(self, signature=None, level=1, file=None):
        """Prints, for each compiled signature, how each prange loop of this parallel=True
        function runs: on the thread pool (with its reduction, private and, from level 2, shared
        variables) or serially, and why (Numba's parallel_diagnostics)."""
        out = file or sys.stdout
        for key in self._selected(signature):
            print(_describe_parallel_loops(self, key, level), file=out)

    def __repr__(self):
        return f"CPUDispatcher({self.py_func!r})"

    # By reference when the module's name finds it, else by value (taipan.serialize).
    __reduce__ = _reduce_by_reference_or_value
    __setstate__ = _set_state


def _signature_parts(signature):
    """(argument types, return type or None) of a signature string, Signature or type tuple."""
    if isinstance(signature, (tuple, list)) and not isinstance(signature, Signature):
        return tuple(signature), None
    parsed = parse_signature(signature)
    return tuple(parsed.args), parsed.return_type


def _warn_serial_loops(loops):
    """A ParallelSafetyWarning at the line of each prange loop that must run serially."""
    import warnings

    from taipan.errors import ParallelSafetyWarning

    for loop in loops:
        if not loop["parallel"]:
            warnings.warn_explicit(
                f"prange loop in {loop['function']} runs serially: {loop['reason']}",
                ParallelSafetyWarning,
                loop["filename"],
                loop["line"],
            )


def _describe_parallel_loops(dispatcher, key, level):
    loops = dispatcher._overloads[key].parallel_loops
    title = f"Parallel loops of {dispatcher.__qualname__}{_describe_key(key)}"
    lines = [title, "=" * len(title)]
    if not dispatcher.targetoptions.get("parallel"):
        lines.append("compiled without parallel=True: prange loops run as range loops")
    elif not loops:
        lines.append("no prange loops")
    for loop in loops:
        where = f"{loop['filename']}, line {loop['line']}"
        if not loop["parallel"]:
            lines.append(f"- line {loop['line']}: serial ({where}): {loop['reason']}")
            continue
        lines.append(f"- line {loop['line']}: parallel on the thread pool ({where})")
        details = [("reductions", loop["reductions"]), ("private", loop["privates"])]
        if level >= 2:
            details.append(("shared", loop["shared"]))
        for label, names in details:
            if names:
                lines.append(f"    {label}: {', '.join(names)}")
        lines.extend(f"    note: {note}" for note in loop["notes"])
    return "\n".join(lines)


_core.enable_vectorcall(Dispatcher)
