"""Calls of ``@guvectorize`` gufuncs from compiled code: an ``overload`` per gufunc whose
implementation, generated for the call's types, does what NumPy's gufunc machinery does for a
call from Python. The loop dimensions of the operands broadcast (an extent of 1 stretches);
each core dimension must agree between the operands that have it; outputs not passed are
allocated (their core dimensions taken from the inputs); the scalar function runs once per
index of the loop dimensions on views of the operands (an input without core dimensions as a
scalar, an output without as a one-element array), and the outputs are returned."""

from taipan.errors import TypingError


def _numpy():
    import numpy

    return numpy


class _Call:
    """The generated implementation for one call's operand types."""

    def __init__(self, compiler, argument_types, loop_types):
        self.compiler = compiler
        self.name = compiler.py_func.__name__
        self.dims = compiler.core_dimensions  # per operand: indices of its core dimensions
        self.inputs = compiler.inputs
        self.operands = len(self.dims)
        self.given = len(argument_types)  # inputs, or inputs and outputs
        self.types = argument_types
        self.loop_types = loop_types
        self.lines = []
        self.loop_ndims = [self._loop_ndim(k) for k in range(self.given)]
        self.ndim = max(self.loop_ndims, default=0)

    def _is_array(self, k):
        return k < self.given and self.types[k].kind_name == "Array"

    def _loop_ndim(self, k):
        core = len(self.dims[k])
        if not self._is_array(k):
            if core:
                raise TypingError(
                    f"operand {k + 1} of {self.name} has {core} core dimensions in the layout "
                    f"{self.compiler.layout!r} but is {self.types[k]}"
                )
            return 0
        ndim = self.types[k].ndim
        if ndim < core:
            raise TypingError(
                f"operand {k + 1} of {self.name} has {ndim} dimensions, fewer than the {core} "
                f"core dimensions of the layout {self.compiler.layout!r}"
            )
        return ndim - core

    def emit(self, text, depth=1):
        self.lines.append("    " * depth + text)

    def _extent(self, k, axis):
        """The loop axis `axis` (of the broadcast loop shape) in operand k, or None."""
        offset = self.ndim - self.loop_ndims[k]
        return None if axis < offset else axis - offset

    def _dtype(self, k):
        loop = self.loop_types[k]
        return (loop.dtype if loop.kind_name == "Array" else loop).name

    def source(self):
        np_ = "np"
        params = [f"p{k}" for k in range(self.given)]
        self.lines.append(f"def {self.name}_gufunc_call({', '.join(params)}):")
        # Inputs converted to the loop's dtypes (NumPy casts them the same way).
        for k in range(self.given):
            wanted = self._dtype(k)
            actual = self.types[k].dtype.name if self._is_array(k) else self.types[k].name
            if k >= self.inputs or actual == wanted:
                self.emit(f"x{k} = p{k}")
            elif self._is_array(k):
                self.emit(f"x{k} = p{k}.astype({np_}.{wanted})")
            else:
                self.emit(f"x{k} = {np_}.{wanted}(p{k})")
        # The loop shape: each axis the extent other than 1 its operands agree on.
        for axis in range(self.ndim):
            self.emit(f"s{axis} = 1")
            for k in range(min(self.given, self.inputs)):
                at = self._extent(k, axis)
                if at is None or not self._is_array(k):
                    continue
                self.emit(f"if x{k}.shape[{at}] != 1:")
                self.emit(f"if s{axis} != 1 and s{axis} != x{k}.shape[{at}]:", 2)
                self.emit(
                    f"raise ValueError('{self.name}: operands could not be broadcast together "
                    "in their loop dimensions')",
                    3,
                )
                self.emit(f"s{axis} = x{k}.shape[{at}]", 2)
        # Core sizes: from the first operand with each name; the others must agree.
        known = {}
        for k in range(self.given):
            for position, name in enumerate(self.dims[k]):
                at = self.loop_ndims[k] + position
                if name in known:
                    self.emit(f"if x{k}.shape[{at}] != c{name}:")
                    self.emit(
                        f"raise ValueError('{self.name}: core dimension {position} of operand "
                        f"{k + 1} does not match the layout {self.compiler.layout}')",
                        2,
                    )
                else:
                    known[name] = True
                    self.emit(f"c{name} = x{k}.shape[{at}]")
        loop_shape = [f"s{axis}" for axis in range(self.ndim)]
        outputs = []
        for k in range(self.inputs, self.operands):
            if k < self.given:
                if self.loop_ndims[k] != self.ndim:
                    raise TypingError(
                        f"output {k - self.inputs + 1} of {self.name} needs {self.ndim} loop "
                        f"dimensions, it has {self.loop_ndims[k]}"
                    )
                for axis in range(self.ndim):
                    self.emit(f"if x{k}.shape[{axis}] != s{axis}:")
                    self.emit(
                        f"raise ValueError('{self.name}: output {k - self.inputs + 1} has the "
                        "wrong shape')",
                        2,
                    )
                outputs.append(f"x{k}")
                continue
            missing = [name for name in self.dims[k] if name not in known]
            if missing:
                raise TypingError(
                    f"{self.name}: the layout {self.compiler.layout!r} gives output "
                    f"{k - self.inputs + 1} core dimensions no input has; pass the outputs"
                )
            shape = loop_shape + [f"c{name}" for name in self.dims[k]]
            if not shape:
                shape = ["1"]  # a scalar result, made in a one-element array
            self.emit(f"x{k} = {np_}.empty(({', '.join(shape)},), {np_}.{self._dtype(k)})")
            outputs.append(f"x{k}[0]" if not self.ndim and not self.dims[k] else f"x{k}")
        for axis in range(self.ndim):
            self.emit(f"for i{axis} in range(s{axis}):", axis + 1)
        depth = self.ndim + 1
        arguments = [self._view(k) for k in range(self.operands)]
        self.emit(f"kernel({', '.join(arguments)})", depth)
        result = outputs[0] if len(outputs) == 1 else f"({', '.join(outputs)},)"
        self.emit(f"return {result}")
        return "\n".join(self.lines) + "\n"

    def _view(self, k):
        loop_ndim = self.loop_ndims[k] if k < self.given else self.ndim
        offset = self.ndim - loop_ndim
        index = []
        for at in range(loop_ndim):
            axis = at + offset
            if k < self.inputs:
                index.append(f"(i{axis} if x{k}.shape[{at}] != 1 else 0)")
            else:
                index.append(f"i{axis}")
        if k >= self.inputs and not self.dims[k]:
            if not index:
                return f"x{k}"  # the one-element array itself
            last = index.pop()
            index.append(f"{last}:{last} + 1")
        if not index:
            return f"x{k}"
        return f"x{k}[{', '.join(index)}]"


def register_gufunc_calls(target, compiler, dynamic):
    """Lets compiled code call the gufunc ``target`` (made by ``compiler``); a dynamic GUFunc
    needs its outputs passed, as from Python, since their types choose the loop."""
    from taipan.decorators import njit
    from taipan.extending import overload
    from taipan.numpy_library._generate import python_function

    np = _numpy()
    kernel = njit(compiler.py_func, **compiler.compile_options)
    operands = len(compiler.core_dimensions)

    def choose_loop(args):
        if dynamic:
            if len(args) != operands:
                raise TypingError(
                    f"{compiler.py_func.__name__}() compiles for the types of all {operands} "
                    "operands: pass the outputs too (or give @guvectorize its signatures)"
                )
            return args
        for loop, _, _ in compiler.loops:
            fits = True
            for k, (argument, wanted) in enumerate(zip(args, loop)):
                have = argument.dtype if argument.kind_name == "Array" else argument
                want = wanted.dtype if wanted.kind_name == "Array" else wanted
                rule = "safe" if k < compiler.inputs else "no"
                fits &= bool(np.can_cast(have.name, want.name, rule))
            if fits:
                return loop
        raise TypingError(
            f"the gufunc {compiler.py_func.__name__} has no loop for "
            f"({', '.join(str(a) for a in args)})"
        )

    @overload(target)
    def typer(*args):
        if len(args) not in (compiler.inputs, operands):
            raise TypingError(
                f"{compiler.py_func.__name__}() takes its {compiler.inputs} inputs, or all "
                f"{operands} operands, not {len(args)} arguments"
            )
        call = _Call(compiler, args, choose_loop(args))
        source = call.source()
        return python_function(f"{call.name}_gufunc_call", source, {"kernel": kernel, "np": np})
