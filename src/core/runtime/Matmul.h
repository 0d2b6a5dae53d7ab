// Matmul.h - Matrix products for JIT-compiled `@` / `np.dot` on float32 and float64.
// Holds the BLAS registration hooks and the C entry points that dispatch to BLAS or a fallback.

#ifndef TAIPAN_RUNTIME_MATMUL_H
#define TAIPAN_RUNTIME_MATMUL_H

#include <cstdint>

namespace taipan::runtime {

/// Fortran BLAS `?gemm_` signature with integer type Int: column-major
/// C = alpha * op(A) * op(B) + beta * C.
template <typename Int, typename Real>
using GemmFunction = void (*)(const char *TransA, const char *TransB, const Int *M, const Int *N,
                              const Int *K, const Real *Alpha, const Real *A, const Int *Lda,
                              const Real *B, const Int *Ldb, const Real *Beta, Real *C,
                              const Int *Ldc);

/// `dgemm_` as registered. An ILP64 BLAS's function is passed cast to this type together with
/// `SixtyFourBitIntegers`, and is called back through GemmFunction<int64_t, double>.
using DgemmFunction = GemmFunction<int, double>;
/// `sgemm_` as registered; see DgemmFunction for ILP64 libraries.
using SgemmFunction = GemmFunction<int, float>;

/// Makes the matmul entry points call these gemm routines; either may be null, in which case
/// that precision uses the built-in loop. `SixtyFourBitIntegers` says whether the routines take
/// int64 (ILP64) rather than int (LP64) dimensions. Meant to run before compiled code does;
/// concurrent callers see either the old or the new pair, never a mix.
void setBlasGemm(DgemmFunction Dgemm, SgemmFunction Sgemm, bool SixtyFourBitIntegers);

/// dlopen()s the shared library at Path and registers the first gemm pair it exports, trying
/// the ILP64 names of NumPy's bundled scipy-openblas (`scipy_dgemm_64_`, `scipy_dgemm64_`)
/// and of system ILP64 builds (`dgemm_64_`, `dgemm64_`) before LP64 `dgemm_`. Returns whether
/// one was found; the library then stays loaded for the life of the process.
bool findBlasInLibrary(const char *Path);

} // namespace taipan::runtime

extern "C" {
/// Row-major C = A * B with A m x k, B k x n and C m x n; lda, ldb and ldc are the distances
/// in elements between consecutive rows. C must not overlap A or B. k == 0 zeroes C.
void taipan_matmul_f64(const double *a, const double *b, double *c, int64_t m, int64_t n, int64_t k,
                       int64_t lda, int64_t ldb, int64_t ldc);
/// taipan_matmul_f64 for float32 operands.
void taipan_matmul_f32(const float *a, const float *b, float *c, int64_t m, int64_t n, int64_t k,
                       int64_t lda, int64_t ldb, int64_t ldc);
}

#endif // TAIPAN_RUNTIME_MATMUL_H
