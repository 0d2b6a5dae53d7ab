"""``@vectorize``: NumPy ufuncs whose inner loops taipan compiles from a scalar Python function.
With signatures it builds a real ``numpy.ufunc`` at once (NumPy's own type resolution,
broadcasting, ``out=``, ``where=``, ``reduce``...); without, a ``DUFunc`` compiles a loop for
each new input type on call. ``target='parallel'`` splits each call over taipan's threads."""

from taipan import _core, compile_options
from taipan.errors import TypingError, UnsupportedError
from taipan.frozen_namespace import frozen_copy
from taipan.wrappers import adapt_to_numpy_once, wrap_python_function

_TARGETS = ("cpu", "parallel")
# Options that reach the scalar function's compilation (the rest are the ufunc's own).
_COMPILE_OPTIONS = compile_options.compiled("vectorize")


def _numpy():
    import numpy

    return numpy


def _type_number(taipan_type):
    """NumPy's type number for a scalar taipan type (the ufunc loop's dtype)."""
    if taipan_type.kind_name not in ("Boolean", "Integer", "Float", "Complex"):
        raise TypingError(
            f"a ufunc's arguments and result are numbers or booleans, not {taipan_type}"
        )
    return _numpy().dtype(taipan_type.name).num


def _scalar_type(value):
    """The taipan type a loop needs for one argument of a call: an array's dtype, a NumPy
    scalar's, or int64/float64/complex128/boolean for Python numbers."""
    from taipan import types

    dtype = _numpy().asarray(value).dtype
    if dtype.kind not in "biufc":
        raise TypingError(f"a ufunc's arguments are numbers or booleans, not {dtype}")
    return getattr(types, "boolean" if dtype.kind == "b" else dtype.name)


# NumbaPro's name for the CUDA target, which its slides use.
_CUDA_TARGETS = ("cuda", "gpu")


def _cuda_ufuncs():
    """taipan.cuda.ufuncs, or the CUDA simulator's when TAIPAN_ENABLE_CUDASIM is set."""
    from taipan import config

    if config.ENABLE_CUDASIM:
        from taipan.cuda.simulator import ufuncs
    else:
        from taipan.cuda import ufuncs
    return ufuncs


def _is_cuda(options):
    return options.get("target", "cpu") in _CUDA_TARGETS


def _check_target(options):
    target = options.get("target", "cpu")
    if target not in _TARGETS:
        raise ValueError(f"vectorize target must be one of {_TARGETS + ('cuda',)}, not {target!r}")
    compile_options.check_known(options, "vectorize")
    if options.get("forceobj"):
        raise UnsupportedError("object mode (forceobj=True) is not supported by vectorize")
    return target


class _LoopCompiler:
    """Compiles a scalar function's ufunc loops, one per argument-type tuple, and builds the
    numpy.ufunc holding all of them (in the order they were added: NumPy takes the first loop
    its casting rules accept)."""

    def __init__(self, py_func, options):
        code = py_func.__code__
        if code.co_flags & 0x0C or code.co_kwonlyargcount:
            raise TypingError(f"a ufunc's function takes positional parameters only: {py_func}")
        self.py_func = py_func
        self.inputs = code.co_argcount
        if self.inputs < 1:
            raise TypingError(f"a ufunc needs at least one input: {py_func.__qualname__}")
        self.parallel = _check_target(options) == "parallel"
        self.identity = options.get("identity")
        self.compile_options = {k: v for k, v in options.items() if k in _COMPILE_OPTIONS}
        # As Numba compiles ufunc loops: float division by zero gives inf/nan as in NumPy
        # (a loop with no raising path also vectorises).
        self.compile_options["error_model"] = "numpy"
        self.options = dict(options)
        self.loops = []  # (argument types, return type, compiled loop)
        self.declared = {}  # the return type a signature gave, by argument types
        self.carried = {}  # object code a pickle brought, by argument types (taipan.serialize)
        self._source = None
        # The function whose globals and closure the loops read (see freeze_namespace).
        self._namespace_function = py_func

    @classmethod
    def restored(cls, py_func, state):
        """The compiler of a pickled ufunc (taipan.serialize.compiler_state), without loops."""
        return cls(py_func, state["options"])

    def register_built_calls(self, ufunc):
        """Lets compiled code call ``ufunc``, a numpy.ufunc built from these loops."""
        _register_compiled_calls(ufunc, self)

    def source(self):
        if self._source is None:
            from taipan.config import cpu_compile_options
            from taipan.frontend import read_function

            self._source = read_function(
                self._namespace_function, cpu_compile_options(self.compile_options)
            )
        adapt_to_numpy_once()  # before every loop compiled from the source
        return self._source

    def add(self, argument_types, return_type=None, compiled=None):
        """Compiles the loop for these argument types (the return type from a signature, or
        inferred); a tuple already compiled is not compiled again. ``compiled``: the loop
        add_all compiled for them."""
        argument_types = tuple(argument_types)
        self._check_arity(argument_types)
        for known, _, _ in self.loops:
            if known == argument_types:
                return
        self._check_types(argument_types)
        if compiled is None:
            job = self._job(return_type)
            compiled = self._compile_loop(argument_types, job.pop("return_type"), **job)
        self.loops.append((argument_types, self._result_type(compiled), compiled))
        self.declared[argument_types] = return_type
        self._report_compilation(argument_types, return_type, self.loops[-1][2])

    def _job(self, return_type):
        """How _core.compile and _core.inspect name this compiler's loop jobs."""
        return {"return_type": return_type, "ufunc_loop": True}

    def _report_compilation(self, argument_types, return_type, compiled):
        """TAIPAN_DUMP_ANNOTATION and TAIPAN_ANNOTATE_HTML (``python -m taipan annotate``) for a
        loop just compiled: its types, and the loops LLVM vectorized in it."""
        import sys

        from taipan import config

        if config.DUMP_ANNOTATION:
            print(compiled.type_annotations, file=sys.stderr)
        if config.annotating():
            from taipan import annotate

            def annotation():
                loops = annotate.vectorized_loops_of(
                    self.py_func, self.compile_options, argument_types, **self._job(return_type)
                )
                return annotate.FunctionAnnotation(
                    self.py_func.__qualname__, compiled.type_annotations, (), loops
                )

            annotate.compiled(annotation)

    def _check_arity(self, argument_types):
        if len(argument_types) != self.inputs:
            raise TypeError(
                f"{self.py_func.__name__} takes {self.inputs} arguments, the signature gives "
                f"{len(argument_types)}"
            )

    def _check_types(self, argument_types):
        for argument in argument_types:
            _type_number(argument)  # raises TypingError for anything but numbers and booleans

    def add_all(self, signatures):
        """add() for each (argument types, return type or None) in order, the loops not yet
        compiled nor carried by a pickle compiled together: their code is generated in
        parallel, one thread per core (_core.compile_all)."""
        signatures = [(tuple(arguments), result) for arguments, result in signatures]
        fresh = {}
        for arguments, result in signatures:
            self._check_arity(arguments)
            self._check_types(arguments)
            known = any(known == arguments for known, _, _ in self.loops)
            if not known and arguments not in fresh and arguments not in self.carried:
                fresh[arguments] = result
        compiled = {}
        if len(fresh) > 1:
            jobs = [self._job(result) for result in fresh.values()]
            pairs = [
                (list(arguments), job.pop("return_type")) for arguments, job in zip(fresh, jobs)
            ]
            loops = _core.compile_all(self.source(), pairs, keep_object=True, **jobs[0])
            compiled = dict(zip(fresh, loops))
        for arguments, result in signatures:
            self.add(arguments, result, compiled.get(arguments))

    def _result_type(self, compiled):
        """The type a loop returns: its function's."""
        return compiled.return_type

    def _compile_loop(self, argument_types, return_type, **target):
        """A loop compiled (keeping its object code for pickles), or loaded from the object code
        a pickle carried when its job hash matches here."""
        from taipan.serialize import load_carried

        loaded = load_carried(
            self.carried.pop(argument_types, None),
            self.source(),
            argument_types,
            return_type=return_type,
            **target,
        )
        if loaded is not None:
            return loaded
        return _core.compile(
            self.source(), list(argument_types), return_type, keep_object=True, **target
        )

    def freeze_namespace(self):
        """Makes the loops read the globals and closure values the function sees now, as an
        eager ufunc or gufunc compiled when decorated reads them, however long their code waits
        for its first call (add_deferred)."""
        if self._source is None:
            self._namespace_function = frozen_copy(self.py_func)

    def add_deferred(self, signatures):
        """Types (and lowers) each signature's loop now, raising what compiling would, and
        leaves its code to its first call (resolve_loop): most ufuncs and gufuncs a library
        defines are never called in a process, and optimising and generating code is most of a
        compile. ``signatures``: (argument types, return type) pairs; a ufunc's give their
        return type (the loop's output type, which NumPy needs before any code exists)."""
        for arguments, result in signatures:
            arguments = tuple(arguments)
            self._check_arity(arguments)
            if any(known == arguments for known, _, _ in self.loops):
                continue
            self._check_types(arguments)
            job = self._job(result)
            return_type = job.pop("return_type")
            _core.inspect(self.source(), list(arguments), "llvm-unoptimized", return_type, **job)
            self.loops.append((arguments, return_type, _DeferredLoop(self, arguments, result)))
            self.declared[arguments] = result

    def defers(self, signatures):
        """Whether the loops of these (argument types, return type or None) signatures may be
        typed now and generated at their first call: each names its return type (else only
        compiling tells the output type), and no report asks for each loop when compiled."""
        from taipan import config

        if config.DUMP_ANNOTATION or config.annotating():
            return False
        return all(result is not None for _, result in signatures)

    def resolve_loop(self, index):
        """The address of loop ``index``'s code (generated now if deferred) and the inputs it
        writes in place beyond those build() told NumPy: make_ufunc calls it at the loop's
        first call."""
        arguments, _, compiled = self.loops[index]
        if isinstance(compiled, _DeferredLoop):
            compiled = compiled.resolve()
        return compiled.address, self._written_in_place([(arguments, compiled)])

    def _written_in_place(self, loops=None):
        """Operands a loop writes besides its outputs: none for a ufunc."""
        return []

    def build(self):
        """A numpy.ufunc over every loop compiled so far."""
        loop_types = [
            [_type_number(t) for t in arguments] + [_type_number(result)]
            for arguments, result, _ in self.loops
        ]
        addresses = [_address_if_generated(compiled) for _, _, compiled in self.loops]
        return _core.make_ufunc(
            self.py_func.__name__,
            self.py_func.__doc__ or "",
            self.inputs,
            1,
            loop_types,
            addresses,
            self.identity,
            parallel=self.parallel,
            resolve_loop=self.resolve_loop if not all(addresses) else None,
        )


_library_names = set()


def _register_compiled_calls(target, compiler):
    """Lets compiled code call ``target`` (a ufunc or DUFunc) as Python calls it, on scalars and
    on arrays, the calls on arrays fused into the array expressions around them: a library
    function of the compiler whose element calls the scalar function. Loop selection is NumPy's
    (the first compiled loop the argument types cast to safely; else, for a DUFunc, the argument
    types themselves, the loop a call from Python would compile), the arguments are converted to
    the loop's types and the result to its output type."""
    np = _numpy()
    dynamic = isinstance(target, DUFunc)

    def select(element_types):
        for inputs, output, _ in compiler.loops:
            if all(np.can_cast(a.name, t.name, "safe") for a, t in zip(element_types, inputs)):
                return list(inputs), output
        if dynamic and not target._frozen:
            return list(element_types), None
        return None

    base = compiler.py_func.__qualname__
    name, copy = base, 1
    while name in _library_names:
        copy += 1
        name = f"{base}#{copy}"
    _library_names.add(name)
    _core.register_user_ufunc(target, name, compiler.inputs, compiler.source(), select)


def _split_signature(signature):
    from taipan.types import Signature, parse_signature

    if isinstance(signature, (tuple, list)) and not isinstance(signature, Signature):
        return tuple(signature), None
    parsed = parse_signature(signature)
    return tuple(parsed.args), parsed.return_type


class DUFunc:
    """A ufunc that compiles a new loop the first time it meets new input types (Numba's
    DUFunc). ``.ufunc`` is the numpy.ufunc of the loops so far; calls and the ufunc methods
    go to it, compiling first when NumPy finds no loop for the arguments."""

    _METHODS = ("reduce", "accumulate", "reduceat", "outer", "at")

    def __init__(self, py_func, options):
        self._take(_LoopCompiler(py_func, options))
        self._register_calls()

    def _register_calls(self):
        _register_compiled_calls(self, self._compiler)

    def _take(self, compiler):
        """Starts with no loops, compiling them with ``compiler``."""
        self._compiler = compiler
        self._lock = _core.compiler_lock  # what it guards ends in a compilation
        self._ufunc = None
        self._frozen = False
        wrap_python_function(self, compiler.py_func)

    @property
    def ufunc(self):
        """The numpy.ufunc holding every loop compiled so far."""
        with self._lock:
            if self._ufunc is None:
                self._ufunc = self._compiler.build()
            return self._ufunc

    def add(self, signature):
        """Compiles the loop for a signature now (``'float64(float64)'`` or argument types)."""
        with self._lock:
            if self._frozen:
                raise RuntimeError(f"{self.__name__} is frozen: it compiles no new loops")
            self._compiler.add(*_split_signature(signature))
            self._ufunc = None

    def disable_compile(self):
        """Freezes the loops: a call with new input types then raises as a numpy.ufunc does."""
        self._frozen = True

    @property
    def types(self):
        return self.ufunc.types

    @property
    def ntypes(self):
        return len(self._compiler.loops)

    nin = property(lambda self: self._compiler.inputs)
    nout = property(lambda self: 1)
    nargs = property(lambda self: self._compiler.inputs + 1)
    identity = property(lambda self: self.ufunc.identity)
    signature = property(lambda self: None)

    def _compile_for_args(self, arguments):
        inputs = arguments[: self._compiler.inputs]
        if len(inputs) < self._compiler.inputs:
            raise TypeError(
                f"{self.__name__}() takes {self._compiler.inputs} arguments, got {len(inputs)}"
            )
        self.add(tuple(_scalar_type(value) for value in inputs))

    def _dispatch(self, method, arguments, keywords, compile_arguments):
        """Runs the ufunc's `method`; when NumPy finds no loop, compiles one for the inputs
        and runs it again."""
        ufunc = self.ufunc
        target = ufunc if method is None else getattr(ufunc, method)
        try:
            return target(*arguments, **keywords)
        except TypeError:
            if self._frozen:
                raise
            if self._missing_loop(compile_arguments):
                self._compile_for_args(compile_arguments)
            elif self.ufunc is ufunc:
                raise  # the ufunc called had the loop: the TypeError is of another kind
            # else another thread added the loop after this one took the ufunc: run it again
        ufunc = self.ufunc
        target = ufunc if method is None else getattr(ufunc, method)
        return target(*arguments, **keywords)

    def _missing_loop(self, arguments):
        """Whether no compiled loop takes these inputs (as opposed to another TypeError)."""
        try:
            wanted = tuple(_scalar_type(value) for value in arguments[: self._compiler.inputs])
        except TypingError:
            return False
        return all(known != wanted for known, _, _ in self._compiler.loops)

    def __call__(self, *arguments, **keywords):
        return self._dispatch(None, arguments, keywords, arguments)

    def reduce(self, array, *arguments, **keywords):
        return self._dispatch("reduce", (array, *arguments), keywords, (array, array))

    def accumulate(self, array, *arguments, **keywords):
        return self._dispatch("accumulate", (array, *arguments), keywords, (array, array))

    def reduceat(self, array, indices, *arguments, **keywords):
        return self._dispatch("reduceat", (array, indices, *arguments), keywords, (array, array))

    def outer(self, a, b, **keywords):
        return self._dispatch("outer", (a, b), keywords, (a, b))

    def at(self, a, indices, b=None):
        arguments = (a, indices) if b is None else (a, indices, b)
        return self._dispatch("at", arguments, {}, (a, a if b is None else b))

    def __reduce__(self):
        # By reference when its module's name finds it, else by value with its loops.
        from taipan.serialize import reduce_dynamic_ufunc

        return reduce_dynamic_ufunc(self)

    def __setstate__(self, state):
        from taipan.serialize import is_set_up, restore_compiler

        if is_set_up(self):
            return
        self._take(restore_compiler(state))
        self._register_calls()
        self._frozen = state["frozen"]

    def __repr__(self):
        return f"<DUFunc '{self.__name__}'>"


def vectorize(ftylist_or_function=(), **options):
    """Numba's ``@vectorize``: with signatures, a numpy.ufunc with one compiled loop per
    signature; without, a DUFunc compiling loops on demand. Options: ``target`` ('cpu' or
    'parallel'), ``identity`` (for reduce), ``cache``, and the compile options of ``jit``.
    ``target='cuda'`` gives a ufunc running on the GPU (taipan.cuda.ufuncs)."""
    if callable(ftylist_or_function):
        return DUFunc(ftylist_or_function, options)
    signatures = ftylist_or_function
    if isinstance(signatures, str) or not isinstance(signatures, (list, tuple)):
        signatures = [signatures]
    if _is_cuda(options):
        cuda_ufuncs = _cuda_ufuncs()

        return cuda_ufuncs.vectorize(signatures, options)

    def decorate(py_func):
        if not signatures:
            return DUFunc(py_func, options)
        compiler = _LoopCompiler(py_func, options)
        parsed = [_split_signature(signature) for signature in signatures]
        if compiler.defers(parsed):  # typed now, each loop's code at its first call
            compiler.freeze_namespace()
            compiler.add_deferred(parsed)
        else:
            compiler.add_all(parsed)
        ufunc = compiler.build()
        _register_compiled_calls(ufunc, compiler)
        from taipan.serialize import remember_built_ufunc

        remember_built_ufunc(ufunc, compiler)
        return ufunc

    return decorate


def _parse_layout(layout):
    """``'(m,n),(n,p)->(m,p)'`` as (inputs, per-operand lists of core-dimension indices among
    the distinct names in order of appearance, the number of distinct names). A layout without
    ``->`` (``'(n),(n),(z)'``, Numba's in-place gufuncs) has inputs only: the function writes
    some of them in place."""
    text = layout.replace(" ", "")
    if text.count("->") > 1:
        raise ValueError(f"a gufunc layout looks like '(n),(n)->()', not {layout!r}")
    names = {}
    operands = []
    sides = text.split("->")
    for side in sides:
        if not (side.startswith("(") and side.endswith(")")):
            raise ValueError(f"a gufunc layout looks like '(n),(n)->()', not {layout!r}")
        for group in side[1:-1].split("),("):
            dims = [name for name in group.split(",") if name]
            if not all(name.isidentifier() or name.isdigit() for name in dims):
                raise ValueError(f"a gufunc layout looks like '(n),(n)->()', not {layout!r}")
            operands.append([names.setdefault(name, len(names)) for name in dims])
    inputs = len(sides[0][1:-1].split("),("))
    return inputs, operands, len(names)


def _writable_inputs(py_func, writable_args, inputs):
    """The input indices of ``writable_args`` (indices or parameter names), as Numba checks
    them."""
    parameters = py_func.__code__.co_varnames[: py_func.__code__.co_argcount]
    if isinstance(writable_args, (str, int)):
        writable_args = (writable_args,)
    if len(writable_args) > inputs:
        raise ValueError("Number of writable_args must be <= nin")
    indices = []
    for argument in writable_args:
        if isinstance(argument, str):
            if argument not in parameters:
                raise RuntimeError(
                    f"Specified writable arg {argument} not found in arg list "
                    f"{list(parameters)} for function {py_func.__qualname__}"
                )
            argument = parameters.index(argument)
        if isinstance(argument, bool) or not isinstance(argument, int):
            # Numba's message and type, for any value that is not an input's index
            raise ValueError(  # noqa: TRY004
                "All values in writable_args must be integers between 0 and nin - 1"
            )
        if not 0 <= argument < inputs:
            raise ValueError("All values in writable_args must be integers between 0 and nin - 1")
        indices.append(argument)
    return sorted(set(indices))


class _GufuncCompiler(_LoopCompiler):
    """Compiles a gufunc's loops: the function takes its inputs and then its outputs, arrays
    for operands with core dimensions (and outputs without: one-element arrays), scalars
    otherwise; it writes the outputs and returns nothing."""

    def __init__(self, py_func, layout, options):
        super().__init__(py_func, options)
        self.layout = layout
        self.gufunc_inputs, self.core_dimensions, self.distinct = _parse_layout(layout)
        operands = len(self.core_dimensions)
        if self.inputs != operands:
            raise TypingError(
                f"{py_func.__name__} takes {self.inputs} parameters but the layout {layout!r} "
                f"has {operands} operands (its inputs, then its outputs)"
            )
        self.inputs = self.gufunc_inputs
        # A layout without outputs writes its inputs in place; writable_args names inputs
        # written in place (NumPy then writes back the copies it casts).
        self.in_place = "->" not in layout
        self.writable = _writable_inputs(
            py_func, options.get("writable_args", ()), self.gufunc_inputs
        )

    @classmethod
    def restored(cls, py_func, state):
        return cls(py_func, state["layout"], state["options"])

    def register_built_calls(self, ufunc):
        from taipan.gufunc_calls import register_gufunc_calls

        register_gufunc_calls(ufunc, self, dynamic=False)

    def _check_arity(self, argument_types):
        if len(argument_types) != len(self.core_dimensions):
            raise TypeError(
                f"the layout {self.layout!r} has {len(self.core_dimensions)} operands, the "
                f"signature gives {len(argument_types)} types"
            )

    def _check_types(self, argument_types):
        for position, (argument, dims) in enumerate(zip(argument_types, self.core_dimensions)):
            is_array = argument.kind_name == "Array"
            if (is_array and argument.ndim not in (len(dims), 1 if not dims else -1)) or (
                not is_array and dims
            ):
                raise TypingError(
                    f"operand {position + 1} has {len(dims)} core dimensions in the layout "
                    f"{self.layout!r} but the signature gives {argument}"
                )
            _type_number(argument.dtype if is_array else argument)

    def _result_type(self, compiled):
        return None  # a gufunc returns nothing: its outputs are operands

    def _job(self, return_type):
        return {"return_type": None, "core_dimensions": self.core_dimensions}

    def compile_copy(self, index, sizes):
        """The address of loop ``index`` compiled for calls whose distinct core sizes are
        ``sizes`` (runtime/GufuncSpecialization calls it from inside the loop), or 0 when it
        cannot be compiled: the generic loop then keeps running those sizes."""
        try:
            arguments, _, _ = self.loops[index]
            job = self._job(None)
            compiled = _core.compile(
                self.source(),
                list(arguments),
                job.pop("return_type"),
                core_sizes=list(sizes),
                **job,
            )
        except Exception:  # noqa: BLE001 (a copy is an optimisation: the generic loop is right)
            return 0
        return compiled.address

    def build(self):
        from taipan import config

        loop_types = [
            [_type_number(t.dtype if t.kind_name == "Array" else t) for t in arguments]
            for arguments, _, _ in self.loops
        ]
        addresses = [_address_if_generated(compiled) for _, _, compiled in self.loops]
        generated = [
            (arguments, compiled)
            for (arguments, _, compiled), address in zip(self.loops, addresses)
            if address
        ]
        operands = len(self.core_dimensions)
        copy_after_ms = config.GUFUNC_SPECIALIZE_MS
        return _core.make_ufunc(
            self.py_func.__name__,
            self.py_func.__doc__ or "",
            self.gufunc_inputs,
            operands - self.gufunc_inputs,
            loop_types,
            addresses,
            None,
            parallel=self.parallel,
            signature=self.layout,
            core_dimensions=self.distinct,
            compile_copy=None if copy_after_ms is None or not self.distinct else self.compile_copy,
            copy_after_ms=copy_after_ms or 0.0,
            writable_inputs=self.writable,
            written_inputs=self._written_in_place(generated),
            operand_cores=self.core_dimensions,
            resolve_loop=self.resolve_loop if not all(addresses) else None,
        )

    def _written_in_place(self, loops=None):
        """The operands of a layout without outputs that ``loops`` ((argument types, compiled
        loop) pairs; every loop when None) may write, for the parallel driver
        (taipan.gufunc_writes); none for a serial gufunc, which needs no proof."""
        if loops is None:
            loops = [(arguments, compiled) for arguments, _, compiled in self.loops]
        if not self.in_place or not self.parallel or not loops:
            return []
        from taipan.gufunc_writes import written_operands

        return written_operands(
            self.py_func,
            [arguments for arguments, _ in loops],
            [compiled.array_variables for _, compiled in loops],
        )


class _DeferredLoop:
    """A ufunc or gufunc loop typed when its signature was given, whose code is generated at
    its first call (_LoopCompiler.resolve_loop) or when anything reads an attribute of the
    compiled loop (a pickle's object code): then it stands for that CompiledFunction."""

    def __init__(self, compiler, argument_types, return_type=None):
        self._compiler = compiler
        self._arguments = argument_types
        self._return_type = return_type  # a ufunc signature's (None: a gufunc's)
        self._compiled = None

    @property
    def generated(self):
        return self._compiled is not None

    def resolve(self):
        """The compiled loop (compiled now the first time). Two threads may both compile it:
        the first result stored is the one every caller gets."""
        if self._compiled is None:
            compiler = self._compiler
            job = compiler._job(self._return_type)
            compiled = compiler._compile_loop(self._arguments, job.pop("return_type"), **job)
            if self._compiled is None:
                self._compiled = compiled
                compiler._report_compilation(self._arguments, self._return_type, compiled)
        return self._compiled

    def __getattr__(self, name):
        if name.startswith("_"):  # not a CompiledFunction's (and not set up yet: a copy)
            raise AttributeError(name)
        return getattr(self.resolve(), name)


def _address_if_generated(compiled):
    """A loop's address for make_ufunc: 0 for one whose code waits for its first call."""
    if isinstance(compiled, _DeferredLoop) and not compiled.generated:
        return 0
    return compiled.address


class GUFunc(DUFunc):
    """A generalized ufunc that compiles a loop for each new combination of operand types
    (the dynamic ``@guvectorize(layout)``). Every operand, outputs included, must be passed:
    the outputs' types are part of the loop."""

    _METHODS = ()

    def __init__(self, py_func, layout, options):
        self._take(_GufuncCompiler(py_func, layout, options))
        self._register_calls()

    def _register_calls(self):
        from taipan.gufunc_calls import register_gufunc_calls

        register_gufunc_calls(self, self._compiler, dynamic=True)

    nout = property(lambda self: len(self._compiler.core_dimensions) - self._compiler.inputs)
    nargs = property(lambda self: len(self._compiler.core_dimensions))
    signature = property(lambda self: self._compiler.layout)

    def _operand_types(self, arguments):
        """The loop's types for a call's operands: arrays ('A' layout) for operands with core
        dimensions and for outputs, scalars for the other inputs."""
        from taipan.types import Array

        operands = len(self._compiler.core_dimensions)
        if len(arguments) < operands:
            raise TypeError(
                f"{self.__name__}() compiles for the types of all {operands} operands: pass the "
                "outputs too (or give @guvectorize its signatures)"
            )
        types = []
        for position, (value, dims) in enumerate(
            zip(arguments[:operands], self._compiler.core_dimensions)
        ):
            if dims or position >= self._compiler.inputs:
                types.append(Array(_scalar_type(value), max(len(dims), 1), "A"))
            else:
                types.append(_scalar_type(value))
        return tuple(types)

    def _compile_for_args(self, arguments):
        self.add(self._operand_types(arguments))

    def _missing_loop(self, arguments):
        try:
            wanted = self._operand_types(arguments)
        except (TypingError, TypeError):
            return False
        return all(known != wanted for known, _, _ in self._compiler.loops)

    def __call__(self, *arguments, **keywords):
        if not self._compiler.loops and len(arguments) < len(self._compiler.core_dimensions):
            self._operand_types(arguments)  # explains that the outputs are needed
        return self._dispatch(None, arguments, keywords, arguments)

    def __repr__(self):
        return f"<GUFunc '{self.__name__}' {self._compiler.layout}>"


def guvectorize(*args, **options):
    """Numba's ``@guvectorize(signatures, layout)``: a generalized numpy.ufunc with one compiled
    loop per signature (every operand typed, outputs last, ``void`` or no return type); or,
    given only the layout, a GUFunc compiling loops for the operand types of each call.
    Options: ``target`` ('cpu' or 'parallel'), ``writable_args``, ``cache``, and the compile
    options of ``jit``. ``target='cuda'`` gives a gufunc running on the GPU
    (taipan.cuda.ufuncs)."""
    if len(args) == 1 and isinstance(args[0], str):
        signatures, layout = (), args[0]
    elif len(args) == 2:
        signatures, layout = args
    else:
        raise TypeError("guvectorize takes (signatures, layout) or (layout)")
    if isinstance(signatures, str) or not isinstance(signatures, (list, tuple)):
        signatures = [signatures]
    if _is_cuda(options):
        cuda_ufuncs = _cuda_ufuncs()

        return cuda_ufuncs.guvectorize(signatures, layout, options)

    from taipan.gufunc_calls import register_gufunc_calls
    from taipan.serialize import remember_built_ufunc

    def decorate(py_func):
        if not signatures:
            return GUFunc(py_func, layout, options)
        compiler = _GufuncCompiler(py_func, layout, options)
        compiler.freeze_namespace()
        loops = []
        for signature in signatures:
            argument_types, return_type = _split_signature(signature)
            if return_type is not None and not return_type.kind_name == "NoneType":
                raise TypingError(
                    f"a gufunc signature returns void (its outputs are parameters): {signature}"
                )
            loops.append((argument_types, None))
        compiler.add_deferred(loops)
        gufunc = compiler.build()
        register_gufunc_calls(gufunc, compiler, dynamic=False)
        remember_built_ufunc(gufunc, compiler)
        return gufunc

    return decorate
