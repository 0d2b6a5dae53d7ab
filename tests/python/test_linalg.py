"""np.linalg in compiled code (LAPACK through ctypes) against NumPy: dtypes, sizes from 0x0 to
50x50, C, Fortran and strided layouts, singular and invalid inputs, and allocation balance."""

import numpy as np
import pytest
from numpy_checks import counting_allocations

from taipan import njit
from taipan.errors import TypingError

DTYPES = [np.float64, np.float32, np.complex128, np.complex64]
SIZES = [0, 1, 5, 50]
LAYOUTS = ["C", "F", "strided"]


def tolerance(dtype):
    single = np.dtype(dtype) in (np.dtype(np.float32), np.dtype(np.complex64))
    return {"rtol": 2e-4, "atol": 2e-4} if single else {"rtol": 1e-9, "atol": 1e-9}


def random_matrix(rows, columns, dtype, layout="C", seed=0):
    rng = np.random.default_rng(seed + 31 * rows + columns)
    values = rng.standard_normal((rows, columns))
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal((rows, columns))
    values = values.astype(dtype)
    if layout == "F":
        return np.asfortranarray(values)
    if layout == "strided":
        wide = np.zeros((rows, 2 * columns), dtype)
        wide[:, ::2] = values
        return wide[:, ::2]
    return values


def well_conditioned(n, dtype, layout="C"):
    a = random_matrix(n, n, dtype, "C") + n * np.eye(n, dtype=dtype)
    return random_layout(a, layout)


def random_layout(a, layout):
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided":
        wide = np.zeros((a.shape[0], 2 * a.shape[1]), a.dtype)
        wide[:, ::2] = a
        return wide[:, ::2]
    return np.ascontiguousarray(a)


def hermitian(n, dtype, layout="C"):
    a = random_matrix(n, n, dtype)
    return random_layout((a + a.conj().T).astype(dtype), layout)


def assert_matches(result, expected, dtype):
    if np.ndim(expected) == 0:  # compiled code returns Python numbers, as Numba does
        assert isinstance(result, complex) == np.iscomplexobj(expected)
    else:
        assert result.dtype == expected.dtype
    result = np.asarray(result)
    expected = np.asarray(expected)
    assert result.shape == expected.shape
    np.testing.assert_allclose(result, expected, **tolerance(dtype))


def allocation_balance(function, *args):
    with counting_allocations() as count:
        for _ in range(3):
            function(*args)
    return count.allocated, count.freed


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def det(a):
    return np.linalg.det(a)


@njit
def slogdet(a):
    return np.linalg.slogdet(a)


@njit
def eig(a):
    return np.linalg.eig(a)


@njit
def eigvals(a):
    return np.linalg.eigvals(a)


@njit
def eigh(a):
    return np.linalg.eigh(a)


@njit
def eigh_upper(a):
    return np.linalg.eigh(a, UPLO="U")


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def svd(a, full_matrices):
    return np.linalg.svd(a, full_matrices)


@njit
def svd_default(a):
    return np.linalg.svd(a)


@njit
def svdvals(a):
    return np.linalg.svdvals(a)


@njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_rcond(a, b, rcond):
    return np.linalg.lstsq(a, b, rcond=rcond)


@njit
def cholesky(a):
    return np.linalg.cholesky(a)


# ---------------------------------------------------------------------------------------------
# Linear systems, inverses, determinants


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_solve_inv_det_match_numpy(dtype, n, layout):
    a = well_conditioned(n, dtype, layout)
    b = random_layout(random_matrix(n, 3, dtype), layout)
    vector = random_matrix(1, n, dtype)[0]
    assert_matches(solve(a, b), np.linalg.solve(a, b), dtype)
    assert_matches(solve(a, vector), np.linalg.solve(a, vector), dtype)
    assert_matches(inv(a), np.linalg.inv(a), dtype)
    assert_matches(det(a), np.linalg.det(a), dtype)
    sign, log_magnitude = slogdet(a)
    expected_sign, expected_log = np.linalg.slogdet(a)
    assert_matches(sign, expected_sign, dtype)
    assert_matches(log_magnitude, expected_log, dtype)


def test_inputs_are_not_changed():
    a = well_conditioned(5, np.float64)
    b = random_matrix(5, 2, np.float64)
    a_before, b_before = a.copy(), b.copy()
    solve(a, b)
    inv(a)
    det(a)
    np.testing.assert_array_equal(a, a_before)
    np.testing.assert_array_equal(b, b_before)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.bool_])
def test_integer_inputs_compute_in_float64(dtype):
    a = np.array([[3, 1], [1, 2]], dtype=dtype) if dtype is not np.bool_ else np.eye(2, dtype=bool)
    b = np.array([9, 8], dtype=dtype)
    assert_matches(solve(a, b), np.linalg.solve(a, b), np.float64)
    assert_matches(inv(a), np.linalg.inv(a), np.float64)
    assert det(a) == np.linalg.det(a)


def test_mixed_precision_follows_numpy():
    a = well_conditioned(4, np.float32)
    b = random_matrix(4, 2, np.complex128)
    assert_matches(solve(a, b), np.linalg.solve(a, b), np.complex128)
    assert_matches(solve(a, b.real.copy()), np.linalg.solve(a, b.real), np.float64)


@pytest.mark.parametrize("dtype", DTYPES)
def test_singular_matrix_raises_numpys_error(dtype):
    a = np.array([[1, 2], [2, 4]], dtype=dtype)
    for function, args in ((solve, (a, np.ones(2, dtype))), (inv, (a,))):
        with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
            function(*args)
    assert det(a) == np.linalg.det(a) == 0
    assert slogdet(a) == (0, -np.inf)
    assert np.linalg.slogdet(a) == (0, -np.inf)


def test_non_square_and_mismatched_shapes_raise_numpys_errors():
    with pytest.raises(
        np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"
    ):
        inv(np.ones((2, 3)))
    with pytest.raises(
        np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"
    ):
        det(np.ones((3, 2)))
    with pytest.raises(ValueError, match="solve1: Input operand 1 has a mismatch"):
        solve(np.eye(3), np.ones(2))
    with pytest.raises(ValueError, match="solve: Input operand 1 has a mismatch"):
        solve(np.eye(3), np.ones((2, 2)))


def test_one_dimensional_input_is_a_typing_error_naming_the_line():
    with pytest.raises(TypingError, match="1-dimensional array given") as info:
        inv(np.ones(3))
    assert "return np.linalg.inv(a)" in str(info.value)


# ---------------------------------------------------------------------------------------------
# Eigenvalues


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_eig_matches_numpy(dtype, n, layout):
    # Real matrices with complex eigenvalues change NumPy's result type; symmetric ones do not.
    a = hermitian(n, dtype, layout) if np.dtype(dtype).kind == "f" else random_matrix(n, n, dtype)
    a = random_layout(a, layout)
    values, vectors = eig(a)
    expected_values, expected_vectors = np.linalg.eig(a)
    assert_matches(values, expected_values, dtype)
    assert_matches(vectors, expected_vectors, dtype)
    assert_matches(eigvals(a), np.linalg.eigvals(a), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_eigh_matches_numpy(dtype, n, layout):
    a = hermitian(n, dtype, layout)
    for compiled, uplo in ((eigh, "L"), (eigh_upper, "U")):
        values, vectors = compiled(a)
        expected_values, expected_vectors = np.linalg.eigh(a, UPLO=uplo)
        assert_matches(values, expected_values, dtype)
        assert_matches(vectors, expected_vectors, dtype)
    assert_matches(eigvalsh(a), np.linalg.eigvalsh(a), dtype)


def test_eigh_reads_only_the_named_triangle():
    a = hermitian(4, np.float64)
    lower_only = np.tril(a) + np.triu(np.full((4, 4), 99.0), 1)
    assert_matches(eigh(lower_only)[0], np.linalg.eigh(a)[0], np.float64)


def test_real_matrix_with_complex_eigenvalues_follows_the_installed_numpy():
    from taipan.numpy_library import linalg_eig

    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])
    if linalg_eig._eig_always_complex():  # NumPy 2.5 and later: complex results
        values, vectors = eig(rotation)
        assert values.dtype == vectors.dtype == np.complex128
        np.testing.assert_allclose(rotation @ vectors, vectors * values, atol=1e-12)
    else:  # the result type would depend on the values
        with pytest.raises(ValueError, match="domain change"):
            eig(rotation)
    values, _ = eig(rotation.astype(np.complex128))
    assert_matches(values, np.linalg.eig(rotation)[0], np.complex128)


def test_eig_of_non_finite_matrix_raises_numpys_error():
    with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
        eig(np.array([[np.nan, 1.0], [1.0, 1.0]]))


def test_eigh_uplo_must_be_l_or_u():
    @njit
    def bad(a):
        return np.linalg.eigh(a, UPLO="X")

    with pytest.raises(TypingError, match="UPLO argument must be 'L' or 'U'"):
        bad(np.eye(2))


# ---------------------------------------------------------------------------------------------
# Singular values, least squares, Cholesky


SHAPES = [(0, 0), (0, 3), (3, 0), (1, 1), (5, 3), (3, 5), (50, 50)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_svd_matches_numpy(dtype, shape, layout):
    a = random_matrix(*shape, dtype, layout)
    for full_matrices in (True, False):
        result = svd(a, full_matrices)
        expected = np.linalg.svd(a, full_matrices=full_matrices)
        for part, expected_part in zip(result, expected):
            assert_matches(part, expected_part, dtype)
    for part, expected_part in zip(svd_default(a), np.linalg.svd(a)):
        assert_matches(part, expected_part, dtype)
    assert_matches(svdvals(a), np.linalg.svdvals(a), dtype)


def test_svd_compute_uv_is_refused_with_a_pointer_to_svdvals():
    @njit
    def values_only(a):
        return np.linalg.svd(a, compute_uv=False)

    with pytest.raises(TypingError, match="svdvals"):
        values_only(np.eye(2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("columns", [None, 1, 3])
def test_lstsq_matches_numpy(dtype, shape, columns):
    a = random_matrix(*shape, dtype, "F")
    rows = shape[0]
    b = random_matrix(rows, columns or 1, dtype, seed=5)
    if columns is None:
        b = b[:, 0]
    result = lstsq(a, b)
    expected = np.linalg.lstsq(a, b)
    for part, expected_part in zip(result, expected):
        if np.ndim(expected_part) == 0:
            assert part == expected_part  # the rank
        else:
            assert_matches(part, expected_part, dtype)


def test_lstsq_rank_deficient_and_rcond():
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 3.5])
    for rcond in (1e-10, -1.0, 0.5):
        result = lstsq_rcond(a, b, rcond)
        expected = np.linalg.lstsq(a, b, rcond=rcond)
        assert result[2] == expected[2]
        for index in (0, 1, 3):
            assert_matches(result[index], expected[index], np.float64)


def test_lstsq_incompatible_dimensions():
    with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
        lstsq(np.ones((3, 2)), np.ones(2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_cholesky_matches_numpy(dtype, n):
    a = random_matrix(n, n, dtype)
    positive = (a @ a.conj().T + n * np.eye(n)).astype(dtype)
    assert_matches(cholesky(positive), np.linalg.cholesky(positive), dtype)
    if n > 0:
        with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
            cholesky(-positive)


# ---------------------------------------------------------------------------------------------
# Norms and traces


@njit
def norm(x):
    return np.linalg.norm(x)


@njit
def norm_ord(x, order):
    return np.linalg.norm(x, order)


@njit
def matrix_norms(x):
    return np.linalg.norm(x, "fro"), np.linalg.norm(x, "nuc")


NORM_DTYPES = DTYPES + [np.int64, np.int8]


@pytest.mark.parametrize("dtype", NORM_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_norms_match_numpy(dtype, layout):
    vector = (random_matrix(1, 9, dtype if np.dtype(dtype).kind in "fc" else np.float64) * 4)[0]
    vector = vector.astype(dtype)
    source = random_matrix(4, 6, np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    matrix = random_layout((source * 4).astype(dtype), layout)
    assert_matches(norm(vector), np.linalg.norm(vector), dtype)
    assert_matches(norm(matrix), np.linalg.norm(matrix), dtype)
    assert_matches(norm(matrix[None]), np.linalg.norm(matrix[None]), dtype)
    for order in (np.inf, -np.inf, 0, 1, -1, 2, 3, 0.5):
        assert_matches(norm_ord(vector, order), np.linalg.norm(vector, order), dtype)
    for order in (np.inf, -np.inf, 1, -1, 2, -2):
        assert_matches(norm_ord(matrix, order), np.linalg.norm(matrix, order), dtype)
    frobenius, nuclear = matrix_norms(matrix)
    assert_matches(frobenius, np.linalg.norm(matrix, "fro"), dtype)
    assert_matches(nuclear, np.linalg.norm(matrix, "nuc"), dtype)


def test_invalid_norm_orders_raise_numpys_errors():
    with pytest.raises(ValueError, match="Invalid norm order for matrices."):
        norm_ord(np.eye(2), 3)

    @njit
    def vector_fro(x):
        return np.linalg.norm(x, "fro")

    with pytest.raises(TypingError, match="Invalid norm order 'fro' for vectors"):
        vector_fro(np.ones(3))


@njit
def traces(a, offset):
    return np.trace(a), np.trace(a, offset), a.trace()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.bool_] + DTYPES)
@pytest.mark.parametrize("offset", [0, 2, -1, 10, -10])
def test_trace_matches_numpy(dtype, offset):
    a = random_layout((random_matrix(4, 6, np.float64) * 5).astype(dtype), "strided")
    plain, shifted, method = traces(a, offset)
    assert_matches(plain, np.trace(a), dtype)
    assert_matches(shifted, np.trace(a, offset), dtype)
    assert_matches(method, a.trace(), dtype)


# ---------------------------------------------------------------------------------------------
# Memory: every temporary LAPACK needs is freed, results included once dropped


@pytest.mark.parametrize(
    "function, args",
    [
        (solve, (well_conditioned(6, np.float64), np.ones((6, 2)))),
        (solve, (well_conditioned(6, np.float32), np.ones(6, np.float32))),
        (inv, (well_conditioned(6, np.complex128),)),
        (det, (well_conditioned(6, np.float64),)),
        (eig, (random_matrix(6, 6, np.complex64),)),
        (eigh, (hermitian(6, np.float64),)),
        (svd, (random_matrix(6, 4, np.float64), True)),
        (svdvals, (random_matrix(0, 4, np.float32),)),
        (lstsq, (random_matrix(6, 4, np.complex128), np.ones(6, np.complex128))),
        (norm_ord, (random_matrix(5, 5, np.float64), 2)),
        (cholesky, (np.eye(3),)),
    ],
)
def test_no_leaks(function, args):
    function(*args)  # compile first
    allocated, freed = allocation_balance(function, *args)
    assert allocated > 0
    assert allocated == freed


def test_errors_free_their_temporaries():
    singular = np.zeros((4, 4))
    with pytest.raises(np.linalg.LinAlgError):
        inv(singular)

    def raise_many():
        for _ in range(3):
            try:
                inv(singular)
            except np.linalg.LinAlgError:
                pass

    allocated, freed = allocation_balance(raise_many)
    assert allocated > 0
    assert allocated == freed


@pytest.mark.parametrize("vectors", [True, False])
def test_real_eig_as_numpy_2_5_returns_it(vectors):
    """NumPy 2.5 returns complex eig results for real matrices; taipan follows the installed
    NumPy, so the complex form is tested here directly whatever NumPy runs the tests."""
    from taipan import types as taipan_types
    from taipan.numpy_library import linalg_eig

    implementation = njit(
        linalg_eig._real_eig_as_complex(taipan_types.float64[:, :], vectors, np.float64, np.float64)
    )
    rotation = np.array(
        [[0.0, -2.0, 0.0, 1.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0], [0.0, 1.0, 0.0, -1.0]]
    )
    result = implementation(rotation)
    values = result[0] if vectors else result
    assert values.dtype == np.complex128
    np.testing.assert_allclose(
        np.sort_complex(values), np.sort_complex(np.linalg.eigvals(rotation)), atol=1e-12
    )
    if vectors:
        eigenvectors = result[1]
        assert eigenvectors.dtype == np.complex128
        np.testing.assert_allclose(rotation @ eigenvectors, eigenvectors * values, atol=1e-12)
