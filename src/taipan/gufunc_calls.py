"""Calls of ``@guvectorize`` gufuncs from compiled code: an ``overload`` per gufunc whose
implementation, put together for the call's types, does what NumPy's gufunc machinery does for a
call from Python. The loop dimensions of the operands broadcast (an extent of 1 stretches);
each core dimension must agree between the operands that have it; outputs not passed are
allocated (their core dimensions taken from the inputs); the scalar function runs once per
index of the loop dimensions on views of the operands (an input without core dimensions as a
scalar, an output without as a one-element array), and the outputs are returned.

The implementation is ordinary Python compiled by taipan: what the operand types fix (the loop's
rank, each operand's loop and core dimensions, its dtype) is decided here while typing and
captured as closure constants, which compiled code uses as tuple indices and slice bounds
(Numba's static_getitem). Operands differ in type, so each step that visits them all (casting,
broadcasting, checking, viewing) is a chain of one small function per operand, each calling the
next on the rest of the tuple."""

from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.unsafe import tuple_setitem


def _numpy():
    import numpy

    return numpy


# Chains over a tuple whose items differ in type: ``steps[k]`` handles item k.


@register_jitable
def _nothing_mapped(tup, extra):
    return ()


@register_jitable
def _nothing_folded(tup, value):
    return value


@register_jitable
def _unchanged(tup, extra):
    return tup


def _mapped(steps):
    """``(tup, extra) -> (steps[0](tup[0], extra), steps[1](tup[1], extra), ...)``: up to four
    items in one function (each call between compiled functions costs reference counting of
    the arrays it passes, in the loop over the gufunc's loop dimensions, and each function its
    compile time), then by recursion; the tuple itself when every step keeps its item."""
    if not steps:
        return _nothing_mapped
    if all(step is _itself for step in steps):
        return _unchanged
    if len(steps) == 1:
        (first,) = steps

        def mapped(tup, extra):
            return (first(tup[0], extra),)

    elif len(steps) == 2:
        first, second = steps

        def mapped(tup, extra):
            return (first(tup[0], extra), second(tup[1], extra))

    elif len(steps) == 3:
        first, second, third = steps

        def mapped(tup, extra):
            return (first(tup[0], extra), second(tup[1], extra), third(tup[2], extra))

    else:
        first, second, third, fourth = steps[:4]
        rest = _mapped(steps[4:])

        def mapped(tup, extra):
            return (
                first(tup[0], extra),
                second(tup[1], extra),
                third(tup[2], extra),
                fourth(tup[3], extra),
            ) + rest(tup[4:], extra)

    return register_jitable(mapped)


def _folded(steps):
    """``(tup, value) -> steps[-1](tup[-1], ... steps[0](tup[0], value))``, the steps that keep
    the value left out (one compiled function fewer each)."""
    return _folded_at([(k, step) for k, step in enumerate(steps) if step is not _nothing_folded])


def _folded_at(steps):
    if not steps:
        return _nothing_folded
    (position, first), rest = steps[0], _folded_at(steps[1:])
    if rest is _nothing_folded:

        def folded_last(tup, value):
            return first(tup[position], value)

        return register_jitable(folded_last)

    def folded(tup, value):
        return rest(tup, first(tup[position], value))

    return register_jitable(folded)


@register_jitable
def _nothing_built(extra):
    return ()


def _built(steps):
    """``extra -> (steps[0](extra), steps[1](extra), ...)``."""
    if not steps:
        return _nothing_built
    first, rest = steps[0], _built(steps[1:])

    def built(extra):
        return (first(extra),) + rest(extra)

    return register_jitable(built)


def _loop_nest(ndim, views, kernel):
    """``(shape, index, operands) -> None`` calling ``kernel(*views(operands, index))`` for every
    index of ``shape`` (``ndim`` items) in C order: one loop per axis, as written by hand, the
    kernel called in the innermost loop itself (np.ndindex, or one more function between, costs
    several times more per index: the operands' reference counts)."""

    def apply(arguments):
        kernel(*arguments)

    apply = register_jitable(apply)
    if not ndim:

        def once(shape, index, operands):
            apply(views(operands, index))

        return register_jitable(once)
    last = ndim - 1

    def innermost(shape, index, operands):
        for i in range(shape[last]):
            # No variable holds the views: they are the statement's temporaries, released at
            # its end, so each row's increments and decrements pair up inside the loop body
            # (in a variable they would live until the next row's assignment).
            apply(views(operands, tuple_setitem(index, last, i)))

    nest = register_jitable(innermost)
    for axis in reversed(range(last)):
        nest = _loop_level(axis, nest)
    return nest


def _loop_level(axis, inner):
    def loop(shape, index, operands):
        for i in range(shape[axis]):
            inner(shape, tuple_setitem(index, axis, i), operands)

    return register_jitable(loop)


@register_jitable
def _itself(x, extra):
    return x


class _Call:
    """What one call's operand types fix, checked while typing, and its implementation."""

    def __init__(self, compiler, argument_types, loop_types):
        self.compiler = compiler
        self.name = compiler.py_func.__name__
        self.dims = compiler.core_dimensions  # per operand: names of its core dimensions
        self.inputs = compiler.inputs
        self.operands = len(self.dims)
        self.given = len(argument_types)  # inputs, or inputs and outputs
        self.types = argument_types
        self.loop_types = loop_types
        self.loop_ndims = [self._loop_ndim(k) for k in range(self.given)]
        self.ndim = max(self.loop_ndims, default=0)
        # Each core dimension's name -> its slot in the tuple of core sizes, in the order the
        # operands first name them.
        self.slots = {}
        for k in range(self.given):
            for name in self.dims[k]:
                self.slots.setdefault(name, len(self.slots))
        for k in range(self.given, self.operands):
            if any(name not in self.slots for name in self.dims[k]):
                raise TypingError(
                    f"{self.name}: the layout {self.compiler.layout!r} gives output "
                    f"{k - self.inputs + 1} core dimensions no input has; pass the outputs"
                )
        for k in range(self.inputs, self.given):
            if self.loop_ndims[k] != self.ndim:
                raise TypingError(
                    f"output {k - self.inputs + 1} of {self.name} needs {self.ndim} loop "
                    f"dimensions, it has {self.loop_ndims[k]}"
                )

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

    def _dtype(self, k):
        """The NumPy scalar type of operand k in the chosen loop."""
        loop = self.loop_types[k]
        return getattr(_numpy(), (loop.dtype if loop.kind_name == "Array" else loop).name)

    def implementation(self, kernel):
        cast = _mapped([self._cast(k) for k in range(self.given)])
        broadcast = _folded([self._broadcast(k) for k in range(self.given)])
        match_cores = _folded([self._match_cores(k) for k in range(self.given)])
        check_outputs = _folded([self._check_output(k) for k in range(self.given)])
        allocate = _built([self._allocate(k) for k in range(self.given, self.operands)])
        views = _mapped([self._view(k) for k in range(self.operands)])
        results = self._results()
        ones = (1,) * self.ndim
        origin = (0,) * self.ndim
        no_cores = (0,) * len(self.slots)

        loops = _loop_nest(self.ndim, views, kernel)

        def gufunc_call(*args):
            given = cast(args, None)
            shape = broadcast(given, ones)
            cores = match_cores(given, no_cores)
            check_outputs(given, shape)
            operands = given + allocate((shape, cores))
            loops(shape, origin, operands)
            return results(operands)

        return gufunc_call

    def _cast(self, k):
        """Input k converted to the loop's dtype (NumPy casts it the same way)."""
        dtype = self._dtype(k)
        actual = self.types[k].dtype if self._is_array(k) else self.types[k]
        if k >= self.inputs or actual.name == dtype.__name__:
            return _itself
        if self._is_array(k):

            def cast_array(x, extra):
                return x.astype(dtype)

            return register_jitable(cast_array)

        def cast_scalar(x, extra):
            return dtype(x)

        return register_jitable(cast_scalar)

    def _broadcast(self, k):
        """Folds input k's loop extents into the loop shape: each axis takes the extent other
        than 1 its operands agree on."""
        loop_ndim = self.loop_ndims[k]
        if k >= self.inputs or not self._is_array(k) or not loop_ndim:
            return _nothing_folded
        offset = self.ndim - loop_ndim  # its loop axes are the loop shape's last ones
        message = f"{self.name}: operands could not be broadcast together in their loop dimensions"

        def broadcast(x, shape):
            for at in range(loop_ndim):
                extent = x.shape[at]
                if extent != 1:
                    axis = at + offset
                    if shape[axis] != 1 and shape[axis] != extent:
                        raise ValueError(message)
                    shape = tuple_setitem(shape, axis, extent)
            return shape

        return register_jitable(broadcast)

    def _match_cores(self, k):
        """Folds operand k's core sizes into the tuple of them: the first operand naming a core
        dimension sets its size, the others must agree."""
        if not self.dims[k]:
            return _nothing_folded
        named_before = {name for j in range(k) for name in self.dims[j]}
        sets = []
        for name in self.dims[k]:
            sets.append(name not in named_before)
            named_before.add(name)
        sets = tuple(sets)
        positions = tuple(self.loop_ndims[k] + p for p in range(len(self.dims[k])))
        slots = tuple(self.slots[name] for name in self.dims[k])
        messages = tuple(
            f"{self.name}: core dimension {p} of operand {k + 1} does not match the layout "
            f"{self.compiler.layout}"
            for p in range(len(self.dims[k]))
        )
        count = len(positions)

        def match_cores(x, cores):
            for j in range(count):
                extent = x.shape[positions[j]]
                if sets[j]:
                    cores = tuple_setitem(cores, slots[j], extent)
                elif extent != cores[slots[j]]:
                    raise ValueError(messages[j])
            return cores

        return register_jitable(match_cores)

    def _check_output(self, k):
        """Checks that a passed output k has the loop shape."""
        if k < self.inputs or not self.ndim:
            return _nothing_folded
        ndim = self.ndim
        message = f"{self.name}: output {k - self.inputs + 1} has the wrong shape"

        def check_output(x, shape):
            for axis in range(ndim):
                if x.shape[axis] != shape[axis]:
                    raise ValueError(message)
            return shape

        return register_jitable(check_output)

    def _allocate(self, k):
        """A new output k: the loop shape, then its core dimensions' sizes."""
        np = _numpy()
        dtype = self._dtype(k)
        slots = tuple(self.slots[name] for name in self.dims[k])
        count = len(slots)
        if not self.ndim and not count:

            def allocate_scalar(sizes):
                return np.empty(1, dtype)  # a scalar result, made in a one-element array

            return register_jitable(allocate_scalar)
        if not count:

            def allocate_loop_shaped(sizes):
                return np.empty(sizes[0], dtype)

            return register_jitable(allocate_loop_shaped)
        no_cores = (0,) * count

        def allocate(sizes):
            shape, cores = sizes
            core_shape = no_cores
            for j in range(count):
                core_shape = tuple_setitem(core_shape, j, cores[slots[j]])
            return np.empty(shape + core_shape, dtype)

        return register_jitable(allocate)

    def _view(self, k):
        """What the kernel gets of operand k at one loop index: a view of its core dimensions
        (an input's axis of extent 1 stays at 0), an input without core dimensions as a scalar,
        an output without them as a one-element view."""
        if k < self.inputs:
            loop_ndim = self.loop_ndims[k]
            if not loop_ndim:
                return _itself
            offset = self.ndim - loop_ndim
            origin = (0,) * loop_ndim

            def input_view(x, index):
                at = origin
                for j in range(loop_ndim):
                    if x.shape[j] != 1:
                        at = tuple_setitem(at, j, index[j + offset])
                return x[at]

            if not self.dims[k] and self.loop_types[k].kind_name == "Array":
                # An in-place operand without core dimensions: a one-element view (GUFUNC)
                def input_view(x, index):
                    at = origin
                    for j in range(loop_ndim):
                        if x.shape[j] != 1:
                            at = tuple_setitem(at, j, index[j + offset])
                    return x[at[:-1]][at[-1] : at[-1] + 1]

            return register_jitable(input_view)
        if not self.ndim:
            return _itself  # the whole output (a one-element array when it has no core dims)
        if self.dims[k]:

            def output_view(x, index):
                return x[index]

            return register_jitable(output_view)
        if self.ndim == 1:

            def element_view(x, index):
                return x[index[0] : index[0] + 1]

            return register_jitable(element_view)

        def element_view_nd(x, index):
            return x[index[:-1]][index[-1] : index[-1] + 1]

        return register_jitable(element_view_nd)

    def _results(self):
        """The outputs, one or a tuple of them; a scalar output of a call without loop
        dimensions as its one element."""
        first, count = self.inputs, self.operands - self.inputs
        if not count:  # a layout without '->' (GUFUNC): None, as Numba types the call

            def no_result(operands):
                return None

            return register_jitable(no_result)
        scalar = not self.ndim and not self.dims[first] and self.given < self.operands
        if count == 1 and scalar:

            def scalar_result(operands):
                return operands[first][0]

            return register_jitable(scalar_result)
        if count == 1:

            def one_result(operands):
                return operands[first]

            return register_jitable(one_result)
        if not self.ndim and self.given < self.operands:
            items = _mapped([self._result_item(k) for k in range(first, self.operands)])

            def scalar_results(operands):
                return items(operands[first:], None)

            return register_jitable(scalar_results)

        def results(operands):
            return operands[first:]

        return register_jitable(results)

    def _result_item(self, k):
        if self.dims[k]:
            return _itself

        def element(x, extra):
            return x[0]

        return register_jitable(element)


def register_gufunc_calls(target, compiler, dynamic):
    """Lets compiled code call the gufunc ``target`` (made by ``compiler``); a dynamic GUFunc
    needs its outputs passed, as from Python, since their types choose the loop."""
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
        return _Call(compiler, args, choose_loop(args)).implementation(kernel)
