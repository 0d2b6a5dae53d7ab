"""NumPy's functions that join, repeat and rearrange arrays: concatenate, stack, vstack, hstack,
column_stack, tile, repeat, flip, roll and meshgrid.

Sequences of arrays are tuples (taipan compiles no lists of arrays), iterated with
literal_unroll or mapped by overloads that recurse on the tuple's type. Along an axis known only
at run time, arrays are seen as lanes (outer, length, inner) and copied lane by lane
(``_axis.copy_lanes``); result shapes come from taipan.unsafe's tuple_setitem/tuple_insert.
np.flip returns a view: an index tuple of slice values whose step is set to -1 at run-time
axes with tuple_setitem, as Numba builds it."""

import numpy as np

from taipan import types
from taipan.decorators import njit
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library._axis import (
    axis_normalizer,
    copy_lane_elements,
    copy_lanes,
    lane_geometry,
    lanes_of,
    normalize_axis_of,
)
from taipan.numpy_library.support import (
    array_tuple,
    as_array_unless_scalar,
    integer_tuple,
    is_boolean,
    is_integer,
    is_none,
    is_sequence,
    numpy_dtype,
    scalar_class,
    string_value,
)
from taipan.unrolling import literal_unroll
from taipan.unsafe import interleave, multiply_items, tuple_insert, tuple_setitem


def _plain_join(out, dtype, casting):
    """True when a joining function's out=, dtype= and casting= have their defaults (the ones
    taipan implements)."""
    return is_none(out) and is_none(dtype) and string_value(casting) == "same_kind"


def _result_dtype(arrays):
    return scalar_class(np.result_type(*[numpy_dtype(a) for a in arrays]))


# ---------------------------------------------------------------------------------------------
# concatenate and stack


@register_jitable
def _joined_lanes(out, axis, length):
    """``out`` seen as lanes (outer, ``length``, inner) along ``axis``: the view the arrays
    joined along ``axis`` are copied into, each a slice of the middle axis."""
    outer, _, inner = lane_geometry(out.shape, axis)
    return out.reshape((outer, length, inner))


def _refusal(message):
    """An implementation of ``name(arrays, axis=0)`` raising ValueError(message)."""

    def refuse_to_join(arrays, axis=0):
        raise ValueError(message)

    return refuse_to_join


def _concatenate_along(ndim, dtype):
    """concatenate(arrays, axis) for a tuple of arrays of ``ndim`` dimensions (at least 1):
    checks the other dimensions agree, then copies each array into its slice."""

    def concatenate(arrays, axis=0):
        ax = normalize_axis_of(axis, ndim)
        first = arrays[0]
        total = 0
        index = 0
        for a in literal_unroll(arrays):
            for d in range(ndim):
                if d != ax and a.shape[d] != first.shape[d]:
                    raise ValueError(
                        "all the input array dimensions except for the concatenation axis must "
                        f"match exactly, but along dimension {d}, the array at index 0 and the "
                        f"array at index {index} have different sizes"
                    )
            total += a.shape[ax]
            index += 1  # noqa: SIM113 - a literal_unroll loop is not enumerated
        out = np.empty(tuple_setitem(first.shape, ax, total), dtype)
        lanes = _joined_lanes(out, ax, total)
        start = 0
        for piece in literal_unroll(arrays):  # (one name per unrolled loop)
            count = piece.shape[ax]
            copy_lanes(lanes, start, lanes_of(piece, ax), 0, count)
            start += count
        return out

    return concatenate


def _concatenate_flat(dtype):
    """concatenate(arrays, axis=None): the arrays flattened, one after the other."""

    def concatenate(arrays, axis=None):
        total = 0
        for a in literal_unroll(arrays):
            total += a.size
        out = np.empty(total, dtype)
        start = 0
        for piece in literal_unroll(arrays):  # (one name per unrolled loop)
            flat = piece.ravel()
            for k in range(flat.size):
                out[start + k] = flat[k]
            start += piece.size
        return out

    return concatenate


@overload(np.concatenate)
def _concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    elements = array_tuple(arrays)
    if elements is None or not _plain_join(out, dtype, casting):
        return None
    if not (is_none(axis) or is_integer(axis)):
        return None
    if not elements:
        return _refusal("need at least one array to concatenate")
    dtype = _result_dtype(elements)
    if is_none(axis):
        return _concatenate_flat(dtype)
    ndims = [a.ndim for a in elements]
    if ndims[0] == 0:
        return _refusal("zero-dimensional arrays cannot be concatenated")
    for index, ndim in enumerate(ndims):
        if ndim != ndims[0]:
            return _refusal(
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {ndims[0]} dimension(s) and the array at index {index} has "
                f"{ndim} dimension(s)"
            )
    return _concatenate_along(ndims[0], dtype)


def _stack_along(ndim, count, dtype):
    """stack(arrays, axis) of ``count`` arrays of one number of dimensions: checks their shapes
    agree, then copies each array into its place along the new axis."""

    def stack(arrays, axis=0):
        ax = normalize_axis_of(axis, ndim + 1)
        first = arrays[0]
        for a in literal_unroll(arrays):
            if a.shape != first.shape:
                raise ValueError("all input arrays must have the same shape")
        out = np.empty(tuple_insert(first.shape, ax, count), dtype)
        lanes = _joined_lanes(out, ax, count)
        index = 0
        for piece in literal_unroll(arrays):  # (one name per unrolled loop)
            copy_lanes(lanes, index, piece.reshape((lanes.shape[0], 1, lanes.shape[2])), 0, 1)
            index += 1  # noqa: SIM113 - a literal_unroll loop is not enumerated
        return out

    return stack


@overload(np.stack)
def _stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    elements = array_tuple(arrays)
    if elements is None or not _plain_join(out, dtype, casting) or not is_integer(axis):
        return None
    if not elements:
        return _refusal("need at least one array to stack")
    ndim = elements[0].ndim
    if any(a.ndim != ndim for a in elements):
        return _refusal("all input arrays must have the same shape")
    return _stack_along(ndim, len(elements), _result_dtype(elements))


def views_mapped(view):
    """A function ``(tup) -> tuple of view(item) for each item`` of a tuple of arrays, compiled
    by recursion on the tuple's type (each item's view may differ in type)."""

    def map_views(tup):
        return tuple(view(a) for a in tup)

    def no_views(tup):
        return ()

    def views(tup):
        return (view(tup[0]),) + map_views(tup[1:])

    @overload(map_views)
    def _map_views(tup):
        return views if tup.types else no_views

    return map_views


def at_least_1d(a):
    """np.atleast_1d of one array: a 0-d array as a 1-D view."""
    return a[None] if a.ndim == 0 else a


def at_least_2d(a):
    """np.atleast_2d of one array: new axes in front."""
    return a[None, None] if a.ndim == 0 else a[None, :] if a.ndim == 1 else a


def as_column(a):
    """np.column_stack's view of one array: a 1-D array as a column."""
    return a[None, None] if a.ndim == 0 else a[:, None] if a.ndim == 1 else a


def _itself(a):
    return a


def _vector_of_0d(a):
    return a[None]


def _matrix_of_0d(a):
    return a[None, None]


def _row_of_vector(a):
    return a[None, :]


def _column_of_vector(a):
    return a[:, None]


@overload(at_least_1d)
def _at_least_1d(a):
    return _vector_of_0d if a.ndim == 0 else _itself


@overload(at_least_2d)
def _at_least_2d(a):
    return (_matrix_of_0d, _row_of_vector)[a.ndim] if a.ndim < 2 else _itself


@overload(as_column)
def _as_column(a):
    return (_matrix_of_0d, _column_of_vector)[a.ndim] if a.ndim < 2 else _itself


def at_least_3d(a):
    """np.atleast_3d of one array: (1, 1, 1), (1, N, 1) or (M, N, 1)."""
    return a[None, None, None] if a.ndim == 0 else a[None, :, None] if a.ndim == 1 else a


def _cube_of_0d(a):
    return a[None, None, None]


def _slab_of_vector(a):
    return a[None, :, None]


def _slab_of_matrix(a):
    return a[:, :, None]


@overload(at_least_3d)
def _at_least_3d(a):
    return (_cube_of_0d, _slab_of_vector, _slab_of_matrix)[a.ndim] if a.ndim < 3 else _itself


_rows_of = views_mapped(at_least_2d)
_pieces_of = views_mapped(at_least_1d)
_columns_of = views_mapped(as_column)
_slabs_of = views_mapped(at_least_3d)


def _at_least(name, view, mapped):
    """The overload of np.atleast_Nd: one array gives its view, several a tuple of views
    (Numba takes arrays only)."""

    def one_view(*arys):
        return view(arys[0])

    def tuple_of_views(*arys):
        return mapped(arys)

    def typer(*arys):
        if not arys or not all(isinstance(a, types.Array) for a in arys):
            raise TypingError(f"np.{name} takes arrays")
        return one_view if len(arys) == 1 else tuple_of_views

    return typer


overload(np.atleast_1d)(_at_least("atleast_1d", at_least_1d, _pieces_of))
overload(np.atleast_2d)(_at_least("atleast_2d", at_least_2d, _rows_of))
overload(np.atleast_3d)(_at_least("atleast_3d", at_least_3d, _slabs_of))


def _stacked_rows(tup):
    return np.concatenate(_rows_of(tup), 0)


def _joined_pieces(tup):
    return np.concatenate(_pieces_of(tup), 0)


def _joined_pieces_along_1(tup):
    return np.concatenate(_pieces_of(tup), 1)


def _stacked_columns(tup):
    return np.concatenate(_columns_of(tup), 1)


@overload(np.vstack)
def _vstack(tup, dtype=None, casting="same_kind"):
    elements = array_tuple(tup)
    if elements is None or not _plain_join(None, dtype, casting):
        return None
    return _stacked_rows


@overload(np.hstack)
def _hstack(tup, dtype=None, casting="same_kind"):
    elements = array_tuple(tup)
    if elements is None or not _plain_join(None, dtype, casting):
        return None
    if elements and elements[0].ndim > 1:
        return _joined_pieces_along_1
    return _joined_pieces


@overload(np.column_stack)
def _column_stack(tup):
    elements = array_tuple(tup)
    if elements is None:
        return None
    return _stacked_columns


# ---------------------------------------------------------------------------------------------
# tile and repeat


@overload(np.tile)
def _tile(A, reps):
    """tile(A, reps) as a broadcast copy into the result seen with shape (r0, s0, r1, s1...)."""
    if not isinstance(A, types.Array):
        return None
    one_count = is_integer(reps)
    if one_count:
        count = 1
    elif integer_tuple(reps):
        count = len(reps.types)
    else:
        return None
    total = max(A.ndim, count)
    if total == 0:
        return _copy_of_array
    reps_padding = (1,) * (total - count)
    sizes_padding = (1,) * (total - A.ndim)
    ones = (1,) * total
    dtype = scalar_class(numpy_dtype(A))

    def tile(A, reps):
        if one_count:  # (a constant: the branch not taken is not compiled)
            given = (reps,)
        else:
            given = reps
        for r in literal_unroll(given):
            if r < 0:
                raise ValueError("negative dimensions are not allowed")
        repetitions = reps_padding + given
        sizes = sizes_padding + A.shape
        out = np.empty(multiply_items(repetitions, sizes), dtype)
        blocks = out.reshape(interleave(repetitions, sizes))
        blocks[...] = A.reshape(interleave(ones, sizes))
        return out

    return tile


def _copy_of_array(A, reps):
    return A.copy()


@register_jitable
def _repeat_counts(repeats, n):
    """The repetition count of each of n items, from an array of counts (one, or one per
    item)."""
    counts = repeats.ravel()
    if counts.size != 1 and counts.size != n:
        raise ValueError(
            "operands could not be broadcast together: repeats must be a single "
            "count or one count per item"
        )
    out = np.empty(n, np.int64)
    for i in range(n):
        c = counts[0] if counts.size == 1 else counts[i]
        if c < 0:
            raise ValueError("repeats may not contain negative values.")
        out[i] = c
    return out, out.sum()


@register_jitable
def _scalar_repeat_counts(repeats, n):
    """The repetition count of each of n items, one for all (see ``_count_at``), and the
    total."""
    if repeats < 0:
        raise ValueError("negative dimensions are not allowed")
    return repeats, n * repeats


def _count_at(counts, i):
    """Item ``i``'s repetition count: ``counts[i]``, or ``counts`` itself when it is one
    number for all."""
    return counts if isinstance(counts, int) else counts[i]


def _same_count(counts, i):
    return counts


def _count_of_item(counts, i):
    return counts[i]


@overload(_count_at)
def _count_at_typer(counts, i):
    return _count_of_item if isinstance(counts, types.Array) else _same_count


@register_jitable
def _repeat_into(out, src, axis, counts):
    """Fills ``out`` with each item of ``src`` along ``axis`` repeated ``counts`` times."""
    outer, n, inner = lane_geometry(src.shape, axis)
    source = src.reshape((outer, n, inner))
    target = out.reshape((outer, out.shape[axis], inner))
    j = 0
    for i in range(n):
        for _ in range(_count_at(counts, i)):
            copy_lane_elements(target, j, source, i, 1)
            j += 1
    return out


@overload(np.repeat)
def _repeat(a, repeats, axis=None):
    if is_sequence(a) or isinstance(a, (types.Number, types.Boolean)) or is_sequence(repeats):

        def repeat_of_sequences(a, repeats, axis=None):
            return np.repeat(np.asarray(a), as_array_unless_scalar(repeats), axis)

        return repeat_of_sequences
    if not isinstance(a, types.Array):
        return None
    if is_integer(repeats) or isinstance(repeats, types.Boolean):
        counts_of = _scalar_repeat_counts
    elif isinstance(repeats, types.Array) and isinstance(
        repeats.dtype, (types.Integer, types.Boolean)
    ):
        counts_of = _repeat_counts
    else:
        raise TypingError(
            "The repeats argument must be an integer or an array-like of integer dtype"
        )
    if not (is_none(axis) or is_integer(axis)):
        return None
    dtype = scalar_class(numpy_dtype(a))
    if is_none(axis):

        def repeat_flat(a, repeats, axis=None):
            src = a.ravel()
            counts, total = counts_of(repeats, src.shape[0])
            return _repeat_into(np.empty(total, dtype), src, 0, counts)

        return repeat_flat
    ndim = a.ndim

    def repeat(a, repeats, axis=None):
        ax = normalize_axis_of(axis, ndim)
        counts, total = counts_of(repeats, a.shape[ax])
        out = np.empty(tuple_setitem(a.shape, ax, total), dtype)
        return _repeat_into(out, a, ax, counts)

    return repeat


@overload_method(types.Array, "repeat")
def _repeat_method(a, repeats, axis=None):
    def repeat_method(a, repeats, axis=None):
        return np.repeat(a, repeats, axis)

    return repeat_method


# ---------------------------------------------------------------------------------------------
# flip and roll


def _flip_0d(m, axis=None):
    return m[()]


def _flip_all(m, axis=None):
    return m[(slice(None, None, -1),) * m.ndim]


@register_jitable
def _unit_steps(m):
    """The index of every element of ``m``, as slices whose step is known only at run time (so
    that the ones later set to -1 keep the tuple's type)."""
    return (slice(None, None, 1),) * m.ndim


@overload(np.flip)
def _flip(m, axis=None):
    if isinstance(m, types.BaseTuple):
        raise TypingError(f"Cannot np.flip on {str(m).split('(')[0]} type")
    if not isinstance(m, types.Array):
        return None
    ndim = m.ndim
    if is_none(axis):
        return _flip_0d if ndim == 0 else _flip_all
    normalize_axis = axis_normalizer(ndim)
    if is_integer(axis):
        if ndim == 0:

            def flip_0d_axis(m, axis=None):
                normalize_axis(axis)  # raises: a 0-d array has no axis
                return m[...]

            return flip_0d_axis

        def flip_axis(m, axis=None):
            index = tuple_setitem(_unit_steps(m), normalize_axis(axis), slice(None, None, -1))
            return m[index]

        return flip_axis
    if not integer_tuple(axis):
        return None

    def flip_axes(m, axis=None):
        # NumPy's normalize_axis_tuple: every axis checked, then repeats refused.
        for ax in literal_unroll(axis):
            normalize_axis(ax)
        index = _unit_steps(m)
        for ax in literal_unroll(axis):
            at = normalize_axis(ax)
            if index[at].step == -1:
                raise ValueError("repeated axis")
            index = tuple_setitem(index, at, slice(None, None, -1))
        return m[index]

    return flip_axes


def _copy_rolled_by_nothing(a, shift, axis=None):
    return a.copy()


@register_jitable
def _rolled(a, shift, axis):
    """A copy of ``a`` (1+ dimensions) rolled by ``shift`` along the normalised ``axis``."""
    out = np.empty(a.shape, a.dtype)
    outer, n, inner = lane_geometry(a.shape, axis)
    if n == 0:
        return out
    s = shift % n
    source = a.reshape((outer, n, inner))
    target = out.reshape((outer, n, inner))
    copy_lanes(target, s, source, 0, n - s)
    copy_lanes(target, 0, source, n - s, s)
    return out


@register_jitable
def _roll_flat(a, shift, axis=None):
    flat = a.ravel()
    n = flat.size
    out = np.empty(n, flat.dtype)
    if n > 0:
        s = shift % n
        out[s:] = flat[: n - s]
        out[:s] = flat[n - s :]
    return out.reshape(a.shape)


_roll_axes = {}  # ndim -> its compiled roll_axis


def _roll_axis(ndim):
    """A compiled ``roll_axis(a, shift, axis)`` for arrays of ``ndim`` dimensions."""
    roll_axis = _roll_axes.get(ndim)
    if roll_axis is not None:
        return roll_axis
    if ndim == 0:

        def roll_axis(a, shift, axis):
            normalize_axis_of(axis, 0)
            return a.copy()

    else:

        def roll_axis(a, shift, axis):
            return _rolled(a, shift, normalize_axis_of(axis, ndim))

    roll_axis = _roll_axes[ndim] = njit(roll_axis)
    return roll_axis


@register_jitable
def _the_value(values, i):
    return values


@register_jitable
def _item(values, i):
    return values[i]


@register_jitable
def _first_item(values, i):
    return values[0]


def _broadcast_item(values):
    """How the i-th of broadcast shifts or axes is read from ``values`` (an integer or a tuple
    of them), and how many there are."""
    if is_integer(values):
        return _the_value, 1
    count = len(values.types)
    return (_first_item if count == 1 else _item), count


@overload(np.roll)
def _roll(a, shift, axis=None):
    if is_sequence(a) or isinstance(a, (types.Number, types.Boolean)):
        return lambda a, shift, axis=None: np.roll(np.asarray(a), shift, axis)
    if isinstance(shift, types.Boolean):  # a boolean shift is an integer, as in NumPy
        return lambda a, shift, axis=None: np.roll(a, np.int64(shift), axis)
    if not (is_integer(shift) or (isinstance(shift, types.BaseTuple) and not is_none(axis))):
        raise TypingError("shift must be an integer")
    if not isinstance(a, types.Array):
        return None
    ndim = a.ndim
    if is_none(axis):
        if not is_integer(shift):
            return None
        if ndim == 0:
            return _copy_rolled_by_nothing
        return _roll_flat
    roll_axis = _roll_axis(ndim)
    if is_integer(axis) and is_integer(shift):
        return roll_axis
    # Tuples: shift and axis broadcast against each other; each pair rolls once.
    if not (integer_tuple(axis) or is_integer(axis)) or not (
        integer_tuple(shift) or is_integer(shift)
    ):
        return None
    axis_at, axes = _broadcast_item(axis)
    shift_at, shifts = _broadcast_item(shift)
    if axes != shifts and 1 not in (axes, shifts):
        message = (
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
            f"arg 0 with shape ({shifts},) and arg 1 with shape ({axes},)."
        )

        def roll_of_mismatched(a, shift, axis=None):
            raise ValueError(message)

        return roll_of_mismatched
    count = max(axes, shifts)
    if count == 0:
        return _copy_rolled_by_nothing
    if ndim == 0:

        def roll_copy(a, shift, axis=None):
            out = a.copy()
            for i in range(count):
                out = roll_axis(out, shift_at(shift, i), axis_at(axis, i))
            return out

        return roll_copy

    def roll(a, shift, axis=None):
        out = roll_axis(a, 0, 0)
        for i in range(count):
            out = roll_axis(out, shift_at(shift, i), axis_at(axis, i))
        return out

    return roll


# ---------------------------------------------------------------------------------------------
# meshgrid


def sizes_of(arrays):
    """The sizes of a tuple of arrays, as a tuple."""
    return tuple(a.size for a in arrays)


@overload(sizes_of)
def _sizes_of(arrays):
    return _sizes if arrays.types else _no_sizes


def _no_sizes(arrays):
    return ()


def _sizes(arrays):
    return (arrays[0].size,) + sizes_of(arrays[1:])


def grids_of(vectors, shape, index, sparse, swapped):
    """np.meshgrid's outputs for ``vectors`` (the inputs from number ``index`` on)."""
    return tuple(_grid(x, shape, index + k, sparse, swapped) for k, x in enumerate(vectors))


@overload(grids_of)
def _grids_of(vectors, shape, index, sparse, swapped):
    if not vectors.types:
        return _no_grids

    def grids(vectors, shape, index, sparse, swapped):
        first = _grid(vectors[0], shape, index, sparse, swapped)
        return (first,) + grids_of(vectors[1:], shape, index + 1, sparse, swapped)

    return grids


def _no_grids(vectors, shape, index, sparse, swapped):
    return ()


@register_jitable
def _grid(x, shape, index, sparse, swapped):
    """Input number ``index`` of np.meshgrid spread along its output axis (the first two
    ``swapped`` for indexing='xy'): an array of ``shape``, or with ``sparse`` of ones but
    along that axis."""
    axis = 1 - index if swapped and index < 2 else index
    flat = x.ravel()
    if sparse:
        ones = shape
        for d in range(len(shape)):
            ones = tuple_setitem(ones, d, 1)
        return flat.reshape(tuple_setitem(ones, axis, flat.size)).copy()
    out = np.empty(shape, flat.dtype)
    outer, length, inner = lane_geometry(shape, axis)
    written = out.ravel()
    for o in range(outer):
        for j in range(length):
            at = (o * length + j) * inner
            for i in range(inner):
                written[at + i] = flat[j]
    return out


def _no_meshgrid(copy=True, sparse=False, indexing=None):
    return ()


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
    if value not in ("xy", "ij"):

        def meshgrid_of_bad_indexing(*xi, copy=True, sparse=False, indexing=None):
            raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")

        return meshgrid_of_bad_indexing
    if not xi:
        return _no_meshgrid
    # Output axis of each input: with 'xy' the first two are swapped.
    swapped = value == "xy" and len(xi) >= 2

    def meshgrid(*xi, copy=True, sparse=False, indexing=None):
        if not copy:
            raise NotImplementedError(
                "numpy.meshgrid(copy=False) returns views with broadcast strides, which taipan "
                "cannot make: pass copy=True"
            )
        shape = sizes_of(xi)
        if swapped:
            shape = tuple_setitem(tuple_setitem(shape, 0, shape[1]), 1, shape[0])
        return grids_of(xi, shape, 0, sparse, swapped)

    return meshgrid


# ---------------------------------------------------------------------------------------------
# shape and size (Numba's: of an array, or of a number taken as a 0-d array)


def _shape_or_size_operand(name, a):
    if isinstance(a, types.Array):
        return True
    if isinstance(a, (types.Number, types.Boolean)):
        return False
    raise TypingError(
        f"The argument to np.{name} must be array-like: np.{name}() takes an array or a number, "
        f"not {a}"
    )


@overload(np.shape)
def _shape(a):
    if _shape_or_size_operand("shape", a):
        return _shape_of_array
    return _shape_of_number


@overload(np.size)
def _size(a):
    if _shape_or_size_operand("size", a):
        return _size_of_array
    return _size_of_number


def _shape_of_array(a):
    return a.shape


def _shape_of_number(a):
    return ()


def _size_of_array(a):
    return a.size


def _size_of_number(a):
    return 1
