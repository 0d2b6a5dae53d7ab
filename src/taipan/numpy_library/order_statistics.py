"""Order statistics for compiled code: np.median, np.percentile and np.quantile (NumPy's default
'linear' method), over the whole array or along one axis.

Each lane is copied and sorted (NaN last, so a lane holding NaN ends in NaN and its statistic is
NaN, as in NumPy). The arithmetic repeats NumPy's: the mean of the two middle values for the
median, and ``_lerp`` for quantiles, in float32 for float32 data with a scalar q (NumPy 2's weak
scalars) and in float64 otherwise.
"""

import numpy as np

from taipan import types
from taipan.extending import overload, register_jitable
from taipan.numpy_library._axis import check_axis, check_no_axis, lane_geometry, normalize_axis
from taipan.numpy_library.support import is_integer_scalar, is_none, string_value


@register_jitable
def sorted_lanes_flat(a, axis):
    """All of ``a`` as one sorted lane: a (1, size) array."""
    lanes = a.ravel().copy().reshape(1, a.size)
    lanes.sort()
    return lanes


@register_jitable
def sorted_lanes_along(a, axis):
    """The lanes of ``a`` along ``axis``, sorted, as the rows of a (count, length) array in the C
    order of the positions they reduce to."""
    along = normalize_axis(axis, a.ndim)
    outer, length, inner = lane_geometry(a.shape, along)
    flat = a.ravel()
    lanes = np.empty((outer * inner, length), a.dtype)
    for o in range(outer):
        for i in range(inner):
            start = o * length * inner + i
            for j in range(length):
                lanes[o * inner + i, j] = flat[start + j * inner]
    lanes.sort()
    return lanes


@register_jitable
def reduced_shape(a, axis):
    """The shape of ``a`` without ``axis``."""
    return np.zeros(a.shape, np.int8).sum(axis=axis).shape


@register_jitable
def scalar_result(values, a, q, axis):
    return values[0]


@register_jitable
def result_shaped_like_q(values, a, q, axis):
    return values.reshape(q.shape)


@register_jitable
def result_along_axis(values, a, q, axis):
    return values.reshape(reduced_shape(a, axis))


@register_jitable
def result_along_axis_per_q(values, a, q, axis):
    return values.reshape(q.shape + reduced_shape(a, axis))


def lanes_and_shape(a, axis, q_is_array):
    """(how to check the axis, gather sorted lanes and shape the flat results) for these
    argument types."""
    check = check_no_axis if is_none(axis) else check_axis
    if is_none(axis) or a.ndim <= 1:
        lanes = sorted_lanes_flat
        shape = result_shaped_like_q if q_is_array else scalar_result
    else:
        lanes = sorted_lanes_along
        shape = result_along_axis_per_q if q_is_array else result_along_axis
    return check, lanes, shape


def supported_options(axis, out, overwrite_input, keepdims, a):
    axis_ok = is_none(axis) or (is_integer_scalar(axis) and a.ndim >= 1)
    flag_ok = overwrite_input is False or isinstance(overwrite_input, types.Boolean)
    return axis_ok and is_none(out) and flag_ok and keepdims is False


# ---------------------------------------------------------------------------------------------
# median


@register_jitable
def median_float32(lane):
    n = lane.shape[0]
    if n == 0 or np.isnan(lane[n - 1]):
        return np.float32(np.nan)
    half = n // 2
    if n % 2 == 1:
        return lane[half]
    return np.float32(np.float32(lane[half - 1] + lane[half]) / np.float32(2))


@register_jitable
def median_float64(lane):
    n = lane.shape[0]
    if n == 0 or np.isnan(lane[n - 1]):
        return np.nan
    half = n // 2
    if n % 2 == 1:
        return np.float64(lane[half])
    return (np.float64(lane[half - 1]) + np.float64(lane[half])) / 2.0


@overload(np.median)
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    if not isinstance(a, types.Array) or isinstance(a.dtype, types.Complex):
        return None
    if not supported_options(axis, out, overwrite_input, keepdims, a):
        return None
    float32_data = isinstance(a.dtype, types.Float) and a.dtype.bitwidth == 32
    result_type = np.float32 if float32_data else np.float64
    of_lane = median_float32 if float32_data else median_float64
    check_vector_axis, lanes_of, shape_result = lanes_and_shape(a, axis, False)

    def median_impl(a, axis=None, out=None, overwrite_input=False, keepdims=False):
        check_vector_axis(a, axis)
        lanes = lanes_of(a, axis)
        values = np.empty(lanes.shape[0], result_type)
        for r in range(lanes.shape[0]):
            values[r] = of_lane(lanes[r])
        return shape_result(values, a, None, axis)

    return median_impl


# ---------------------------------------------------------------------------------------------
# percentile and quantile


@register_jitable
def checked_fractions(fractions, percent):
    for k in range(fractions.shape[0]):
        if not (0.0 <= fractions[k] <= 1.0):
            if percent:
                raise ValueError("Percentiles must be in the range [0, 100]")
            raise ValueError("Quantiles must be in the range [0, 1]")
    return fractions


@register_jitable
def fractions_of_scalar(q, percent):
    fractions = np.empty(1, np.float64)
    fractions[0] = q / 100.0 if percent else np.float64(q)
    return checked_fractions(fractions, percent)


@register_jitable
def fractions_of_array(q, percent):
    values = q.ravel()
    fractions = np.empty(values.shape[0], np.float64)
    for k in range(values.shape[0]):
        fractions[k] = values[k] / 100.0 if percent else np.float64(values[k])
    return checked_fractions(fractions, percent)


@register_jitable
def lerp_positions(n, fraction):
    """(previous, next, gamma) of NumPy's linear method for ``fraction`` of ``n`` values; past
    the last value NumPy takes index -1 for both and its gamma from that -1."""
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    virtual = (n - 1) * fraction
    if virtual >= n - 1:
        return n - 1, n - 1, virtual + 1.0
    previous = int(np.floor(virtual))
    return previous, previous + 1, virtual - previous


@register_jitable
def quantile_float32(lane, fraction):
    """NumPy's _lerp in float32: a weak Python-float gamma takes the data's type."""
    n = lane.shape[0]
    previous, following, gamma = lerp_positions(n, fraction)
    if np.isnan(lane[n - 1]):
        return np.float32(np.nan)
    low = lane[previous]
    high = lane[following]
    difference = np.float32(high - low)
    if gamma >= 0.5:
        return np.float32(high - np.float32(difference * np.float32(1.0 - gamma)))
    return np.float32(low + np.float32(difference * np.float32(gamma)))


@register_jitable
def quantile_float64(lane, fraction):
    """NumPy's _lerp in float64; integer data subtract as integers first, as NumPy does."""
    n = lane.shape[0]
    previous, following, gamma = lerp_positions(n, fraction)
    if np.isnan(lane[n - 1]):
        return np.nan
    low = lane[previous]
    high = lane[following]
    difference = np.float64(high - low)
    if gamma >= 0.5:
        return np.float64(high) - difference * (1.0 - gamma)
    return np.float64(low) + difference * gamma


def quantile_implementation(a, q, axis, out, overwrite_input, method, keepdims, percent):
    """The implementation of np.percentile (``percent``) or np.quantile for these types."""
    # NumPy refuses boolean data (it subtracts them), and complex data have no order.
    if not isinstance(a, types.Array) or not isinstance(a.dtype, (types.Integer, types.Float)):
        return None
    if not supported_options(axis, out, overwrite_input, keepdims, a):
        return None
    if string_value(method) != "linear":
        return None
    q_is_array = isinstance(q, types.Array) and q.ndim >= 1
    if q_is_array:
        if not isinstance(q.dtype, (types.Integer, types.Float)):
            return None
        fractions_of = fractions_of_array
    elif isinstance(q, types.Float) or (percent and isinstance(q, types.Integer)):
        # An integer q of np.quantile takes NumPy's other path, which keeps the data's dtype.
        fractions_of = fractions_of_scalar
    else:
        return None
    float32_math = isinstance(a.dtype, types.Float) and a.dtype.bitwidth == 32 and not q_is_array
    result_type = np.float32 if float32_math else np.float64
    of_lane = quantile_float32 if float32_math else quantile_float64
    check_vector_axis, lanes_of, shape_result = lanes_and_shape(a, axis, q_is_array)

    def quantile_impl(
        a,
        q,
        axis=None,
        out=None,
        overwrite_input=False,
        method="linear",
        keepdims=False,
    ):
        fractions = fractions_of(q, percent)
        check_vector_axis(a, axis)
        lanes = lanes_of(a, axis)
        count = lanes.shape[0]
        values = np.empty(fractions.shape[0] * count, result_type)
        for j in range(fractions.shape[0]):
            for r in range(count):
                values[j * count + r] = of_lane(lanes[r], fractions[j])
        return shape_result(values, a, q, axis)

    return quantile_impl


@overload(np.percentile)
def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    return quantile_implementation(a, q, axis, out, overwrite_input, method, keepdims, True)


@overload(np.quantile)
def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    return quantile_implementation(a, q, axis, out, overwrite_input, method, keepdims, False)
