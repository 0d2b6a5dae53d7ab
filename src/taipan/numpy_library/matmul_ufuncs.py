"""np.matmul and np.vecdot called as NumPy's generalized ufuncs ((n?,k),(k,m?)->(n?,m?) and
(n),(n)->()): every number dtype and bool (NumPy's promoted loop type: integers wrap, booleans
give any pair both true), 1-D operands promoted and removed as NumPy does, an output argument
(positional or ``out=``) checked with NumPy's same_kind rule and filled by broadcasting, as
NumPy's gufunc does when the output has more loop dimensions. Stacks (the dimensions before the
core ones) broadcast against each other; items are read through C-order copies, and each pair of
matrices is multiplied by `@` (np.dot's kernels) when both are floats or complex numbers of the
loop's type, else in plain loops in the loop type."""

import numpy as np

from taipan import types
from taipan.errors import TypingError
from taipan.extending import overload, register_jitable
from taipan.numpy_library.support import is_none, numpy_dtype, scalar_class


def _loop_dtype(name, a, b):
    """NumPy's loop type of two array operands, or a TypingError naming what is refused."""
    for operand in (a, b):
        if not isinstance(operand, types.Array) or numpy_dtype(operand) is None:
            raise TypingError(f"np.{name}() takes arrays of numbers or booleans, not {operand}")
        if operand.ndim == 0:
            raise TypingError(f"np.{name}(): an operand has no dimension (NumPy: ValueError)")
    return np.result_type(numpy_dtype(a), numpy_dtype(b))


def _check_output(name, out, dtype, result_ndim):
    if is_none(out):
        return
    if not isinstance(out, types.Array) or numpy_dtype(out) is None:
        raise TypingError(f"ufunc '{name}': the output must be an array of numbers, not {out}")
    if out.readonly:
        raise TypingError(f"ufunc '{name}' called with an explicit output that is read-only")
    if not np.can_cast(dtype, numpy_dtype(out), "same_kind"):
        raise TypingError(
            f"Cannot cast ufunc '{name}' output from dtype('{dtype}') to "
            f"dtype('{numpy_dtype(out)}') with casting rule 'same_kind'"
        )
    if out.ndim < result_ndim:
        raise TypingError(
            f"ufunc '{name}': an output of {out.ndim} dimensions cannot hold a result of "
            f"{result_ndim}"
        )


def _dot_kernel(dtype, conjugate_first):
    """sum(x[i] * y[i]) over a run of items, in the loop type `dtype`."""
    if np.dtype(dtype).kind == "b":

        @register_jitable
        def dot_of_booleans(x, x0, xs, y, y0, ys, n):
            for i in range(n):
                if x[x0 + i * xs] and y[y0 + i * ys]:
                    return True
            return False

        return dot_of_booleans
    conjugate = conjugate_first and np.dtype(dtype).kind == "c"
    scalar = scalar_class(dtype)

    @register_jitable
    def dot(x, x0, xs, y, y0, ys, n):
        total = scalar(0)
        for i in range(n):
            left = scalar(x[x0 + i * xs])
            if conjugate:
                left = left.conjugate()
            total += left * scalar(y[y0 + i * ys])
        return scalar(total)

    return dot


@register_jitable
def _count(shape):
    count = 1
    for extent in shape:
        count *= extent
    return count


@overload(np.matmul)
def _matmul(a, b, out=None):
    dtype = _loop_dtype("matmul", a, b)
    scalar = scalar_class(dtype)
    dot = _dot_kernel(dtype, False)
    a_vector, b_vector = a.ndim == 1, b.ndim == 1
    result_ndim = max(a.ndim, b.ndim, 2) - a_vector - b_vector
    _check_output("matmul", out, dtype, result_ndim)
    # Floats and complex numbers of the loop's own type multiply each matrix pair with `@`
    # (np.dot's kernels: NumPy's bits for floats, and far faster than the loops below).
    by_dot = np.dtype(dtype).kind in "fc" and numpy_dtype(a) == dtype == numpy_dtype(b)

    @register_jitable
    def stacked_products(a, b):
        """The products of the broadcast stacks as (count, n, m), and the stacks' shape."""
        x = a.reshape(1, a.size) if a_vector else a
        y = b.reshape(b.size, 1) if b_vector else b
        rows, inner = x.shape[-2], x.shape[-1]
        columns = y.shape[-1]
        if y.shape[-2] != inner:
            raise ValueError(
                "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                "signature (n?,k),(k,m?)->(n?,m?)"
            )
        stacks = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
        count = _count(stacks)
        # Items read through flat C-order copies: one indexing rule for any layout.
        xc = np.ascontiguousarray(np.broadcast_to(x, stacks + (rows, inner))).ravel()
        yc = np.ascontiguousarray(np.broadcast_to(y, stacks + (inner, columns))).ravel()
        result = np.empty((count, rows, columns), scalar)
        if by_dot:
            xs = xc.reshape(count, rows, inner)
            ys = yc.reshape(count, inner, columns)
            for s in range(count):
                result[s] = xs[s] @ ys[s]
            return result, stacks
        for s in range(count):
            for i in range(rows):
                for j in range(columns):
                    result[s, i, j] = dot(
                        xc, (s * rows + i) * inner, 1, yc, s * inner * columns + j, columns, inner
                    )
        return result, stacks

    @register_jitable
    def result_of(a, b):
        result, stacks = stacked_products(a, b)
        if a_vector and b_vector:
            return result[0, 0, 0]
        if a_vector:
            return result.reshape(stacks + (result.shape[2],))
        if b_vector:
            return result.reshape(stacks + (result.shape[1],))
        return result.reshape(stacks + (result.shape[1], result.shape[2]))

    if is_none(out):
        return lambda a, b, out=None: result_of(a, b)

    def matmul_into(a, b, out=None):
        out[...] = result_of(a, b)
        return out

    return matmul_into


@overload(np.vecdot)
def _vecdot(a, b, out=None):
    dtype = _loop_dtype("vecdot", a, b)
    scalar = scalar_class(dtype)
    dot = _dot_kernel(dtype, True)
    result_ndim = max(a.ndim, b.ndim) - 1
    _check_output("vecdot", out, dtype, result_ndim)

    @register_jitable
    def stacked_products(a, b):
        """The products of the broadcast stacks, flat, and the stacks' shape."""
        n = a.shape[-1]
        if b.shape[-1] != n:
            raise ValueError(
                "vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                "signature (n),(n)->()"
            )
        stacks = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
        count = _count(stacks)
        xc = np.ascontiguousarray(np.broadcast_to(a, stacks + (n,))).ravel()
        yc = np.ascontiguousarray(np.broadcast_to(b, stacks + (n,))).ravel()
        result = np.empty(count, scalar)
        for s in range(count):
            result[s] = dot(xc, s * n, 1, yc, s * n, 1, n)
        return result, stacks

    @register_jitable
    def result_of(a, b):
        result, stacks = stacked_products(a, b)
        if result_ndim == 0:
            return result[0]
        return result.reshape(stacks)

    if is_none(out):
        return lambda a, b, out=None: result_of(a, b)

    def vecdot_into(a, b, out=None):
        out[...] = result_of(a, b)
        return out

    return vecdot_into
