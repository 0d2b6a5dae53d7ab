"""NumPy's functions that join, repeat and rearrange arrays: concatenate, stack, vstack, hstack,
column_stack, tile, repeat, flip, roll and meshgrid.

Sequences of arrays are tuples (taipan compiles no lists of arrays). Tuples of arrays of
different types cannot be iterated in compiled code, and an axis known only at run time cannot
choose where a slice goes in an index, so most implementations are Python source generated per
number of arrays and dimensions, with one branch per axis (see ``_generate``)."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload
from taipan.numpy_library._axis import axis_normalizer
from taipan.numpy_library._generate import index_at, jitted, python_function, raiser, shape_with
from taipan.numpy_library.support import (
    array_tuple,
    integer_tuple,
    is_boolean,
    is_integer,
    is_none,
    numpy_dtype,
    scalar_class,
    string_value,
)


def _plain_join(out, dtype, casting):
    """True when a joining function's out=, dtype= and casting= have their defaults (the ones
    taipan implements)."""
    return is_none(out) and is_none(dtype) and string_value(casting) == "same_kind"


def _result_dtype(arrays):
    return scalar_class(np.result_type(*[numpy_dtype(a) for a in arrays]))


# ---------------------------------------------------------------------------------------------
# concatenate and stack


def _checked_arrays_lines(name, count, ndim, except_axis, message):
    """The first lines of ``name(arrays, axis=0)`` joining ``count`` arrays of ``ndim``
    dimensions: the arrays as a0, a1..., the axis normalised as ax, and a ValueError with
    ``message(i, d)`` when dimension d of array i differs from array 0's (``except_axis``: on
    the other dimensions than ax only)."""
    lines = [f"def {name}(arrays, axis=0):"]
    lines += [f"    a{i} = arrays[{i}]" for i in range(count)]
    lines.append("    ax = normalize_axis(axis)")
    for i in range(1, count):
        for d in range(ndim):
            condition = f"a{i}.shape[{d}] != a0.shape[{d}]"
            lines.append(
                f"    if ax != {d} and {condition}:" if except_axis else f"    if {condition}:"
            )
            lines.append(f"        raise ValueError({message(i, d)!r})")
    return lines


def _concatenate_source(elements):
    """concatenate(arrays, axis) for a tuple of arrays of ``elements`` types, all of one ndim
    (at least 1): checks the other dimensions agree, then copies each array into its slice."""
    ndim = elements[0].ndim
    count = len(elements)
    lines = _checked_arrays_lines(
        "concatenate",
        count,
        ndim,
        True,
        lambda i, d: (
            "all the input array dimensions except for the concatenation axis must "
            f"match exactly, but along dimension {d}, the array at index 0 and the array at index "
            f"{i} have different sizes"
        ),
    )
    total = " + ".join(f"a{i}.shape[ax]" for i in range(count))
    lines.append(f"    out = np.empty({shape_with(ndim, 'a0.shape', 'ax', total)}, dtype)")
    lines.append("    start = 0")
    for d in range(ndim):
        lines.append(f"    {'if' if d == 0 else 'elif'} ax == {d}:")
        for i in range(count):
            target = index_at(ndim, d, f"start:start + a{i}.shape[{d}]")
            lines.append(f"        out[{target}] = a{i}")
            lines.append(f"        start += a{i}.shape[{d}]")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


def _concatenate_flat_source(count):
    """concatenate(arrays, axis=None): the arrays flattened, one after the other."""
    lines = ["def concatenate(arrays, axis=None):"]
    total = " + ".join(f"arrays[{i}].size" for i in range(count))
    lines.append(f"    out = np.empty({total}, dtype)")
    lines.append("    start = 0")
    for i in range(count):
        lines.append(f"    out[start:start + arrays[{i}].size] = arrays[{i}].ravel()")
        lines.append(f"    start += arrays[{i}].size")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


@overload(np.concatenate)
def _concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    elements = array_tuple(arrays)
    if elements is None or not _plain_join(out, dtype, casting):
        return None
    if not (is_none(axis) or is_integer(axis)):
        return None
    if not elements:
        return raiser(
            "concatenate", "arrays, axis=0", "ValueError", "need at least one array to concatenate"
        )
    namespace = {"dtype": _result_dtype(elements)}
    if is_none(axis):
        return python_function("concatenate", _concatenate_flat_source(len(elements)), namespace)
    ndims = [a.ndim for a in elements]
    if ndims[0] == 0:
        return raiser(
            "concatenate",
            "arrays, axis=0",
            "ValueError",
            "zero-dimensional arrays cannot be concatenated",
        )
    for index, ndim in enumerate(ndims):
        if ndim != ndims[0]:
            return raiser(
                "concatenate",
                "arrays, axis=0",
                "ValueError",
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {ndims[0]} dimension(s) and the array at index {index} has "
                f"{ndim} dimension(s)",
            )
    namespace["normalize_axis"] = axis_normalizer(ndims[0])
    return python_function("concatenate", _concatenate_source(elements), namespace)


def _inserted_shape(ndim, shape, axis, value):
    """The text of ``shape`` (a tuple of ``ndim``) with ``value`` inserted at ``axis``."""
    items = []
    for d in range(ndim + 1):
        before = f"{shape}[{d}]" if d < ndim else None
        after = f"{shape}[{d - 1}]" if d > 0 else None
        other = (
            before
            if after is None
            else after
            if before is None
            else (f"({before} if {d} < {axis} else {after})")
        )
        items.append(value if other is None else f"({value} if {axis} == {d} else {other})")
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _stack_source(count, ndim):
    lines = _checked_arrays_lines(
        "stack", count, ndim, False, lambda i, d: "all input arrays must have the same shape"
    )
    lines.append(
        f"    out = np.empty({_inserted_shape(ndim, 'a0.shape', 'ax', str(count))}, dtype)"
    )
    for d in range(ndim + 1):
        lines.append(f"    {'if' if d == 0 else 'elif'} ax == {d}:")
        for i in range(count):
            value = f"a{i}[()]" if ndim == 0 else f"a{i}"  # a 0-d array's element
            lines.append(f"        out[{index_at(ndim + 1, d, str(i))}] = {value}")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


@overload(np.stack)
def _stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    elements = array_tuple(arrays)
    if elements is None or not _plain_join(out, dtype, casting) or not is_integer(axis):
        return None
    if not elements:
        return raiser("stack", "arrays, axis=0", "ValueError", "need at least one array to stack")
    ndim = elements[0].ndim
    if any(a.ndim != ndim for a in elements):
        return raiser(
            "stack", "arrays, axis=0", "ValueError", "all input arrays must have the same shape"
        )
    namespace = {"dtype": _result_dtype(elements), "normalize_axis": axis_normalizer(ndim + 1)}
    return python_function("stack", _stack_source(len(elements), ndim), namespace)


def _joined(name, parameter, views, axis):
    """An implementation of ``name(parameter)`` concatenating, along ``axis``, the texts of
    ``views`` of the tuple's arrays (views with dimensions added)."""
    items = ", ".join(views) + ("," if len(views) == 1 else "")
    source = f"def {name}({parameter}):\n    return np.concatenate(({items}), {axis})\n"
    return python_function(name, source)


def _at_least(ndim, name, wanted):
    """The text of a view of ``name`` (an array of ``ndim`` dimensions) with at least
    ``wanted`` (1 or 2) dimensions, new ones in front as in np.atleast_1d/np.atleast_2d."""
    if ndim >= wanted:
        return name
    return f"{name}[{', '.join(['None'] * (wanted - ndim) + [':'] * ndim)}]"


@overload(np.vstack)
def _vstack(tup, dtype=None, casting="same_kind"):
    elements = array_tuple(tup)
    if elements is None or not _plain_join(None, dtype, casting):
        return None
    views = [_at_least(a.ndim, f"tup[{i}]", 2) for i, a in enumerate(elements)]
    return _joined("vstack", "tup", views, 0)


@overload(np.hstack)
def _hstack(tup, dtype=None, casting="same_kind"):
    elements = array_tuple(tup)
    if elements is None or not _plain_join(None, dtype, casting):
        return None
    views = [_at_least(a.ndim, f"tup[{i}]", 1) for i, a in enumerate(elements)]
    axis = 0 if elements and elements[0].ndim <= 1 else 1
    return _joined("hstack", "tup", views, axis)


@overload(np.column_stack)
def _column_stack(tup):
    elements = array_tuple(tup)
    if elements is None:
        return None
    views = []
    for i, a in enumerate(elements):
        name = f"tup[{i}]"
        views.append({0: f"{name}[None, None]", 1: f"{name}[:, None]"}.get(a.ndim, name))
    return _joined("column_stack", "tup", views, 1)


# ---------------------------------------------------------------------------------------------
# tile and repeat


def _tile_source(ndim, reps):
    """tile(A, reps) as a broadcast copy into the result seen with shape (r0, s0, r1, s1...);
    ``reps`` are the texts of the repetition counts."""
    total = max(ndim, len(reps))
    if total == 0:
        return "def tile(A, reps):\n    return A.copy()\n"
    reps = ["1"] * (total - len(reps)) + reps
    sizes = ["1"] * (total - ndim) + [f"A.shape[{i}]" for i in range(ndim)]
    lines = ["def tile(A, reps):"]
    for r in reps:
        if r != "1":
            lines.append(f"    if {r} < 0:")
            lines.append("        raise ValueError('negative dimensions are not allowed')")
    shape = ", ".join(f"{r} * {s}" for r, s in zip(reps, sizes))
    lines.append(f"    out = np.empty(({shape},), dtype)")
    interleaved = ", ".join(f"{r}, {s}" for r, s in zip(reps, sizes))
    source_shape = ", ".join(f"1, {s}" for s in sizes)
    lines.append(f"    blocks = out.reshape(({interleaved}))")
    lines.append(f"    blocks[...] = A.reshape(({source_shape}))")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


@overload(np.tile)
def _tile(A, reps):
    if not isinstance(A, types.Array):
        return None
    if is_integer(reps):
        names = ["reps"]
    elif integer_tuple(reps):
        names = [f"reps[{i}]" for i in range(len(reps.types))]
    else:
        return None
    source = _tile_source(A.ndim, names)
    return python_function("tile", source, {"dtype": scalar_class(numpy_dtype(A))})


_REPEAT_COUNTS = """
def repeat_counts(repeats, n):
    # The repetition count of each of n items, from an array of counts (one, or one per item).
    counts = repeats.ravel()
    if counts.size != 1 and counts.size != n:
        raise ValueError('operands could not be broadcast together: repeats must be a single '
                         'count or one count per item')
    out = np.empty(n, np.int64)
    for i in range(n):
        c = counts[0] if counts.size == 1 else counts[i]
        if c < 0:
            raise ValueError('repeats may not contain negative values.')
        out[i] = c
    return out
"""


def _repeat_source(ndim, scalar_repeats, flat):
    lines = ["def repeat(a, repeats, axis=None):"]
    if flat:
        lines.append("    src = a.ravel()")
        ndim = 1
        lines.append("    ax = 0")
    else:
        lines.append("    src = a")
        lines.append("    ax = normalize_axis(axis)")
    lines.append("    n = src.shape[ax]")
    if scalar_repeats:
        lines.append("    if repeats < 0:")
        lines.append("        raise ValueError('negative dimensions are not allowed')")
        lines.append("    counts = np.full(n, repeats, np.int64)")
        lines.append("    total = n * repeats")
    else:
        lines.append("    counts = repeat_counts(repeats, n)")
        lines.append("    total = counts.sum()")
    lines.append(f"    out = np.empty({shape_with(ndim, 'src.shape', 'ax', 'total')}, dtype)")
    lines.append("    j = 0")
    for d in range(ndim):
        lines.append(f"    {'if' if d == 0 else 'elif'} ax == {d}:")
        lines.append("        for i in range(n):")
        lines.append("            for _ in range(counts[i]):")
        lines.append(
            f"                out[{index_at(ndim, d, 'j')}] = src[{index_at(ndim, d, 'i')}]"
        )
        lines.append("                j += 1")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


@overload(np.repeat)
def _repeat(a, repeats, axis=None):
    if not isinstance(a, types.Array):
        return None
    if is_integer(repeats) or isinstance(repeats, types.Boolean):
        scalar_repeats = True
    elif isinstance(repeats, types.Array) and isinstance(
        repeats.dtype, (types.Integer, types.Boolean)
    ):
        scalar_repeats = False
    else:
        return None
    if not (is_none(axis) or is_integer(axis)):
        return None
    flat = is_none(axis)
    namespace = {
        "dtype": scalar_class(numpy_dtype(a)),
        "repeat_counts": jitted("repeat_counts", _REPEAT_COUNTS),
    }
    if not flat:
        namespace["normalize_axis"] = axis_normalizer(a.ndim)
    return python_function("repeat", _repeat_source(a.ndim, scalar_repeats, flat), namespace)


# ---------------------------------------------------------------------------------------------
# flip and roll


def _flip_one(ndim):
    """A compiled ``(m, axis) -> view of m reversed along axis`` (axis already normalised)."""
    lines = ["def flip_one(m, axis):"]
    for d in range(ndim):
        lines.append(f"    if axis == {d}:\n        return m[{index_at(ndim, d, '::-1')}]")
    lines.append("    return m[...]")
    return jitted("flip_one", "\n".join(lines) + "\n")


def _repeated_axis_checks(count, indent="    "):
    lines = []
    for i in range(count):
        for j in range(i):
            lines.append(f"{indent}if ax{i} == ax{j}:")
            lines.append(f"{indent}    raise ValueError('repeated axis')")
    return lines


@overload(np.flip)
def _flip(m, axis=None):
    if not isinstance(m, types.Array):
        return None
    ndim = m.ndim
    if is_none(axis):
        if ndim == 0:
            return python_function("flip", "def flip(m, axis=None):\n    return m[()]\n")
        index = ", ".join(["::-1"] * ndim)
        return python_function("flip", f"def flip(m, axis=None):\n    return m[{index}]\n")
    namespace = {"normalize_axis": axis_normalizer(ndim), "flip_one": _flip_one(ndim)}
    if is_integer(axis):
        source = "def flip(m, axis=None):\n    return flip_one(m, normalize_axis(axis))\n"
        return python_function("flip", source, namespace)
    if not integer_tuple(axis):
        return None
    count = len(axis.types)
    lines = ["def flip(m, axis=None):"]
    lines += [f"    ax{i} = normalize_axis(axis[{i}])" for i in range(count)]
    lines += _repeated_axis_checks(count)
    lines.append("    v = flip_one(m, -1)")
    lines += [f"    v = flip_one(v, ax{i})" for i in range(count)]
    lines.append("    return v")
    return python_function("flip", "\n".join(lines) + "\n", namespace)


def _roll_axis_source(ndim):
    lines = ["def roll_axis(a, shift, axis):"]
    if ndim == 0:
        return lines[0] + "\n    normalize_axis(axis)\n    return a.copy()\n"
    lines.append("    out = np.empty(a.shape, a.dtype)")
    lines.append("    ax = normalize_axis(axis)")
    lines.append("    n = a.shape[ax]")
    lines.append("    if n == 0:\n        return out")
    lines.append("    s = shift % n")
    for d in range(ndim):
        lines.append(f"    {'if' if d == 0 else 'elif'} ax == {d}:")
        lines.append(f"        out[{index_at(ndim, d, 's:')}] = a[{index_at(ndim, d, ':n - s')}]")
        lines.append(f"        out[{index_at(ndim, d, ':s')}] = a[{index_at(ndim, d, 'n - s:')}]")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


_ROLL_FLAT = """
def roll(a, shift, axis=None):
    flat = a.ravel()
    n = flat.size
    out = np.empty(n, flat.dtype)
    if n > 0:
        s = shift % n
        out[s:] = flat[:n - s]
        out[:s] = flat[n - s:]
    return out.reshape(a.shape)
"""


@overload(np.roll)
def _roll(a, shift, axis=None):
    if not isinstance(a, types.Array):
        return None
    ndim = a.ndim
    if is_none(axis):
        if not is_integer(shift):
            return None
        if ndim == 0:
            return python_function("roll", "def roll(a, shift, axis=None):\n    return a.copy()\n")
        return python_function("roll", _ROLL_FLAT)
    roll_axis = jitted(
        "roll_axis", _roll_axis_source(ndim), {"normalize_axis": axis_normalizer(ndim)}
    )
    if is_integer(axis) and is_integer(shift):
        source = "def roll(a, shift, axis=None):\n    return roll_axis(a, shift, axis)\n"
        return python_function("roll", source, {"roll_axis": roll_axis})
    # Tuples: shift and axis broadcast against each other; each pair rolls once.
    axes = [f"axis[{i}]" for i in range(len(axis.types))] if integer_tuple(axis) else ["axis"]
    shifts = [f"shift[{i}]" for i in range(len(shift.types))] if integer_tuple(shift) else None
    if (not integer_tuple(axis) and not is_integer(axis)) or (
        shifts is None and not is_integer(shift)
    ):
        return None
    shifts = shifts if shifts is not None else ["shift"]
    if len(axes) != len(shifts) and 1 not in (len(axes), len(shifts)):
        return raiser(
            "roll",
            "a, shift, axis=None",
            "ValueError",
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
            f"arg 0 with shape ({len(shifts)},) and arg 1 with shape ({len(axes)},).",
        )
    count = max(len(axes), len(shifts))
    axes = axes * count if len(axes) == 1 else axes
    shifts = shifts * count if len(shifts) == 1 else shifts
    lines = ["def roll(a, shift, axis=None):", "    out = roll_axis(a, 0, 0)"]
    if ndim == 0 or count == 0:
        lines = ["def roll(a, shift, axis=None):", "    out = a.copy()"]
    for s, ax in zip(shifts, axes):
        lines.append(f"    out = roll_axis(out, {s}, {ax})")
    lines.append("    return out")
    return python_function("roll", "\n".join(lines) + "\n", {"roll_axis": roll_axis})


# ---------------------------------------------------------------------------------------------
# meshgrid


def _meshgrid_source(count, dtypes, indexing):
    parameters = ", ".join([f"x{i}" for i in range(count)] + ["copy=True", "sparse=False"])
    lines = [f"def meshgrid({parameters}, indexing=None):"]
    lines.append("    if not copy:")
    lines.append(
        "        raise NotImplementedError('numpy.meshgrid(copy=False) returns views with "
        "broadcast strides, which taipan cannot make: pass copy=True')"
    )
    # Output axis of each input: with 'xy' the first two are swapped.
    placed = list(range(count))
    if indexing == "xy" and count >= 2:
        placed[0], placed[1] = 1, 0
    lengths = [f"f{i}.size" for i in range(count)]
    for i in range(count):
        lines.append(f"    f{i} = x{i}.ravel()")
    shape_items = [lengths[placed.index(d)] for d in range(count)]
    shape = "(" + ", ".join(shape_items) + ("," if count == 1 else "") + ")"
    results = []
    for i in range(count):
        view = ", ".join(":" if d == placed[i] else "None" for d in range(count))
        lines.append("    if sparse:")
        lines.append(f"        o{i} = f{i}[{view}].copy()")
        lines.append("    else:")
        lines.append(f"        o{i} = np.empty({shape}, dtype{i})")
        lines.append(f"        o{i}[...] = f{i}[{view}]")
        results.append(f"o{i}")
    lines.append("    return (" + ", ".join(results) + ("," if count == 1 else "") + ")")
    namespace = {f"dtype{i}": scalar_class(d) for i, d in enumerate(dtypes)}
    return "\n".join(lines) + "\n", namespace


@overload(np.meshgrid)
def _meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if not all(isinstance(x, types.Array) for x in xi):
        return None
    for flag in (copy, sparse):
        if not is_boolean(flag):
            return None
    value = string_value(indexing)
    if value is None:
        raise TypingError("numpy.meshgrid's indexing= must be a string constant, 'xy' or 'ij'")
    count = len(xi)
    parameters = ", ".join([f"x{i}" for i in range(count)] + ["copy=True", "sparse=False"])
    if value not in ("xy", "ij"):
        return raiser(
            "meshgrid",
            parameters + ", indexing=None",
            "ValueError",
            "Valid values for `indexing` are 'xy' and 'ij'.",
        )
    if count == 0:
        return python_function(
            "meshgrid", "def meshgrid(copy=True, sparse=False, indexing=None):\n    return ()\n"
        )
    source, namespace = _meshgrid_source(count, [numpy_dtype(x) for x in xi], value)
    return python_function("meshgrid", source, namespace)


# ---------------------------------------------------------------------------------------------
# shape and size (Numba's: of an array, or of a number taken as a 0-d array)


def _shape_or_size_operand(name, a):
    if isinstance(a, types.Array):
        return True
    if isinstance(a, (types.Number, types.Boolean)):
        return False
    raise TypingError(f"np.{name}() takes an array or a number, not {a}")


@overload(np.shape)
def _shape(a):
    if _shape_or_size_operand("shape", a):
        return lambda a: a.shape
    return lambda a: ()


@overload(np.size)
def _size(a):
    if _shape_or_size_operand("size", a):
        return lambda a: a.size
    return lambda a: 1
