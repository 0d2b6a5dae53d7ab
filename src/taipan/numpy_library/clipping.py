"""np.clip and a.clip: NumPy's ``minimum(maximum(a, a_min), a_max)`` (NaN-propagating, NumPy's
result dtype), with either bound None, array bounds broadcast against ``a``, and ``out``; Numba's
checks and messages for the arguments."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, overload_method, register_jitable
from taipan.numpy_library.support import is_array_like, is_none, numpy_dtype, scalar_class


def _ndim(t):
    return t.ndim if isinstance(t, types.Array) else 0


def _is_complex(t):
    dtype = t.dtype if isinstance(t, types.Array) else t
    return isinstance(dtype, types.Complex)


def _raised(value, bound):
    """maximum(value, bound), or value itself for a bound of None (compiled code only)."""


@overload(_raised)
def _raised_typer(value, bound):
    if is_none(bound):
        return lambda value, bound: value
    return lambda value, bound: np.maximum(value, bound)


def _lowered(value, bound):
    """minimum(value, bound), or value itself for a bound of None (compiled code only)."""


@overload(_lowered)
def _lowered_typer(value, bound):
    if is_none(bound):
        return lambda value, bound: value
    return lambda value, bound: np.minimum(value, bound)


def _weak_sample(t):
    """A Python value standing for a number bound in NumPy's promotion: NumPy 2 treats Python
    numbers as weak (an int8 array clipped by ints stays int8), and an int64, float64 or bool
    argument of compiled code is most often a Python number (other number types can only be
    NumPy scalars, which NumPy promotes as arrays)."""
    if isinstance(t, types.Boolean):
        return False
    if isinstance(t, types.Integer):
        return 0
    return 0.0


def _result_dtype(a, bounds):
    """NumPy's dtype of np.clip(a, *bounds): arrays (and a itself) strong, number bounds weak."""
    strong = [numpy_dtype(a)]
    weak = []
    for bound in bounds:
        if is_none(bound):
            continue
        if isinstance(bound, types.Array) or bound.name not in ("int64", "float64", "bool"):
            strong.append(numpy_dtype(bound))  # an array, or a NumPy scalar (np.float32(2))
        else:
            weak.append(_weak_sample(bound))
    return np.result_type(*strong, *weak)


def _as_bound(bound, sample):
    """A number bound converted to the result's dtype (the type of ``sample``), an integer
    clamped into its range first as NumPy does (np.clip(int8s, 1, 300) clips at 127); arrays
    and None as they are (compiled code only)."""


@overload(_as_bound)
def _as_bound_typer(bound, sample):
    if is_none(bound) or isinstance(bound, types.Array):
        return lambda bound, sample: bound
    target = scalar_class(numpy_dtype(sample))
    info = np.iinfo(target) if np.dtype(target).kind in "iu" else None
    if info is not None and isinstance(bound, (types.Integer, types.Boolean)):
        low, high = int(info.min), int(info.max)
        if np.dtype(target) == np.uint64:
            return lambda bound, sample: target(bound) if bound >= 0 else target(0)
        if isinstance(bound, types.Integer) and bound.name == "uint64":
            return lambda bound, sample: target(min(bound, np.uint64(high)))
        return lambda bound, sample: target(min(max(np.int64(bound), low), high))
    return lambda bound, sample: target(bound)


def _shape_of(bound):
    """np.shape of a bound, () for None (compiled code only)."""


@overload(_shape_of)
def _shape_of_typer(bound):
    if is_none(bound):
        return lambda bound: ()
    return lambda bound: np.shape(bound)


def _clip_into(a, a_min, a_max, out):
    """Writes the clipped a into out, whose shape must be the result's (compiled code only)."""


@overload(_clip_into)
def _clip_into_typer(a, a_min, a_max, out):
    if is_none(a_min):

        def upper_only(a, a_min, a_max, out):
            np.minimum(a, a_max, out)

        return upper_only
    if is_none(a_max):

        def lower_only(a, a_min, a_max, out):
            np.maximum(a, a_min, out)

        return lower_only

    def both(a, a_min, a_max, out):
        np.maximum(a, a_min, out)
        np.minimum(out, a_max, out)

    return both


@register_jitable
def _clip_with_out(a, a_min, a_max, out):
    # NumPy never broadcasts out: the result's shape must be out's. The shapes are checked
    # before anything is written (a too small out stays untouched).
    shape = np.broadcast_shapes(np.shape(a), _shape_of(a_min), _shape_of(a_max))
    if out.shape != shape:
        raise ValueError(
            "clip: the shape of the 'out' array does not match the shape of the result"
        )
    _clip_into(a, a_min, a_max, out)
    return out


@register_jitable
def _clip_new(a, a_min, a_max):
    np.broadcast_shapes(np.shape(a), _shape_of(a_min), _shape_of(a_max))  # Numba's message
    return _lowered(_raised(a, a_min), a_max)


@register_jitable
def _copy_of(a):
    return np.copy(np.asarray(a))


def _clip_typer(a, a_min, a_max, out):
    if not is_array_like(a):
        raise TypingError('The argument "a" must be array-like')
    if not is_none(a_min) and not is_array_like(a_min):
        raise TypingError('The argument "a_min" must be a number or an array-like')
    if not is_none(a_max) and not is_array_like(a_max):
        raise TypingError('The argument "a_max" must be a number or an array-like')
    if not (is_none(out) or isinstance(out, types.Array)):
        raise TypingError('The argument "out" must be an array if it is provided')
    operands = [t for t in (a, a_min, a_max) if not is_none(t)]
    if any(_is_complex(t) for t in operands):
        # NumPy orders complex numbers lexicographically here; taipan's maximum does not.
        raise TypingError("no implementation of numpy.clip for complex operands")
    if isinstance(out, types.Array):
        if out.ndim != max(_ndim(t) for t in operands):
            raise TypingError(
                'The argument "out" must have the same number of dimensions as the result'
            )
        if out.readonly:
            raise TypingError('The argument "out" of clip is a read-only array')
    if is_none(a_min) and is_none(a_max):
        # NumPy 2 returns the values unclipped (Numba raises ValueError).
        if is_none(out):
            return lambda a, a_min, a_max, out=None: _copy_of(a)

        def unclipped_into(a, a_min, a_max, out=None):
            shape = np.shape(a)
            if out.shape != shape:
                raise ValueError(
                    "clip: the shape of the 'out' array does not match the shape of the result"
                )
            out[...] = a
            return out

        return unclipped_into
    # Number bounds go in as the result's dtype, so that the ufuncs promote as np.clip does.
    result = scalar_class(_result_dtype(a, (a_min, a_max)))
    if is_none(out):

        def clip_new(a, a_min, a_max, out=None):
            sample = result(0)
            return _clip_new(a, _as_bound(a_min, sample), _as_bound(a_max, sample))

        return clip_new

    def clip_with_out(a, a_min, a_max, out=None):
        sample = result(0)
        return _clip_with_out(a, _as_bound(a_min, sample), _as_bound(a_max, sample), out)

    return clip_with_out


@overload(np.clip)
def _clip(a, a_min, a_max, out=None):
    return _clip_typer(a, a_min, a_max, out)


@overload_method(types.Array, "clip")
def _clip_method(a, a_min=None, a_max=None, out=None):
    _clip_typer(a, a_min, a_max, out)  # the checks, at the method's call

    def clip_method(a, a_min=None, a_max=None, out=None):
        return np.clip(a, a_min, a_max, out)

    return clip_method
