// MatmulTest.cpp - Checks taipan_matmul_f64/f32 through the built-in kernel and through BLAS.
// The real-BLAS test runs only when TAIPAN_TEST_BLAS names a library, e.g. NumPy's OpenBLAS.

#include "runtime/Matmul.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

using namespace taipan::runtime;

namespace {

struct Shape {
  int64_t M, N, K;
};

// Small, non-square and degenerate shapes, plus ones that cross every blocking boundary of
// the fallback (K > 256, M > 96, N > 2048) and its small-product cut-over.
const std::vector<Shape> Shapes = {
    {1, 1, 1},    {3, 5, 4},    {7, 2, 9},      {1, 17, 33},  {19, 1, 6},    {32, 32, 32},
    {33, 31, 35}, {64, 64, 64}, {100, 37, 300}, {200, 9, 50}, {5, 2100, 40}, {97, 129, 513},
};

/// Row-major operands with padded leading dimensions; padding holds a sentinel so reads or
/// writes outside the logical matrices show up in the results.
template <typename T> struct Problem {
  int64_t M, N, K, Lda, Ldb, Ldc;
  std::vector<T> A, B, C;

  Problem(Shape S, int64_t PadA, int64_t PadB, int64_t PadC, unsigned Seed)
      : M(S.M), N(S.N), K(S.K), Lda(S.K + PadA), Ldb(S.N + PadB), Ldc(S.N + PadC) {
    std::mt19937 Engine(Seed);
    std::uniform_real_distribution<double> Dist(-1.0, 1.0);
    A.assign(static_cast<size_t>(std::max<int64_t>(M * Lda, 1)), T(1e30));
    B.assign(static_cast<size_t>(std::max<int64_t>(K * Ldb, 1)), T(1e30));
    // C starts as NaN: the product must overwrite it, not accumulate into it.
    C.assign(static_cast<size_t>(std::max<int64_t>(M * Ldc, 1)),
             std::numeric_limits<T>::quiet_NaN());
    for (int64_t I = 0; I < M; ++I)
      for (int64_t P = 0; P < K; ++P)
        A[I * Lda + P] = static_cast<T>(Dist(Engine));
    for (int64_t P = 0; P < K; ++P)
      for (int64_t J = 0; J < N; ++J)
        B[P * Ldb + J] = static_cast<T>(Dist(Engine));
  }

  void run() {
    if constexpr (sizeof(T) == sizeof(double))
      taipan_matmul_f64(A.data(), B.data(), C.data(), M, N, K, Lda, Ldb, Ldc);
    else
      taipan_matmul_f32(A.data(), B.data(), C.data(), M, N, K, Lda, Ldb, Ldc);
  }

  void check() const {
    const double Tolerance = sizeof(T) == sizeof(double) ? 1e-12 : 2e-5;
    for (int64_t I = 0; I < M; ++I) {
      for (int64_t J = 0; J < N; ++J) {
        long double Sum = 0, Magnitude = 0;
        for (int64_t P = 0; P < K; ++P) {
          long double Term = static_cast<long double>(A[I * Lda + P]) * B[P * Ldb + J];
          Sum += Term;
          Magnitude += std::fabs(Term);
        }
        double Bound = Tolerance * static_cast<double>(Magnitude + 1);
        ASSERT_NEAR(C[I * Ldc + J], static_cast<double>(Sum), Bound)
            << "at (" << I << ", " << J << ") of " << M << "x" << N << "x" << K;
      }
      for (int64_t J = N; J < Ldc; ++J)
        ASSERT_TRUE(std::isnan(C[I * Ldc + J])) << "padding of C written at row " << I;
    }
  }
};

template <typename T> void checkAllShapes(int64_t PadA, int64_t PadB, int64_t PadC) {
  unsigned Seed = 1;
  for (const Shape &S : Shapes) {
    Problem<T> P(S, PadA, PadB, PadC, Seed++);
    P.run();
    P.check();
  }
}

/// Resets the registration so each test sees the BLAS state it sets up itself.
class MatmulTest : public ::testing::Test {
protected:
  void SetUp() override { setBlasGemm(nullptr, nullptr, false); }
  void TearDown() override { setBlasGemm(nullptr, nullptr, false); }
};

TEST_F(MatmulTest, FallbackContiguous) {
  checkAllShapes<double>(0, 0, 0);
  checkAllShapes<float>(0, 0, 0);
}

TEST_F(MatmulTest, FallbackStridedLeadingDimensions) {
  checkAllShapes<double>(3, 5, 2);
  checkAllShapes<float>(1, 7, 4);
}

TEST_F(MatmulTest, KnownProduct) {
  // python3 -c "import numpy as np;
  //   print(np.arange(6.).reshape(2, 3) @ np.arange(12.).reshape(3, 4))"
  std::vector<double> A = {0, 1, 2, 3, 4, 5};
  std::vector<double> B = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<double> C(8);
  taipan_matmul_f64(A.data(), B.data(), C.data(), 2, 4, 3, 3, 4, 4);
  EXPECT_EQ(C, (std::vector<double>{20, 23, 26, 29, 56, 68, 80, 92}));
}

TEST_F(MatmulTest, EmptyInnerDimensionZeroesC) {
  std::vector<double> C(12, 7.0);
  taipan_matmul_f64(nullptr, nullptr, C.data(), 3, 3, 0, 0, 3, 4);
  for (int64_t I = 0; I < 3; ++I) {
    for (int64_t J = 0; J < 3; ++J)
      EXPECT_EQ(C[I * 4 + J], 0.0);
    EXPECT_EQ(C[I * 4 + 3], 7.0); // Padding stays untouched.
  }
  std::vector<float> F(4, 7.0f);
  taipan_matmul_f32(nullptr, nullptr, F.data(), 2, 2, 0, 0, 2, 2);
  EXPECT_EQ(F, (std::vector<float>{0, 0, 0, 0}));
}

TEST_F(MatmulTest, EmptyOutputTouchesNothing) {
  std::vector<double> C(4, 7.0);
  taipan_matmul_f64(nullptr, nullptr, C.data(), 0, 4, 5, 5, 4, 4);
  taipan_matmul_f64(nullptr, nullptr, C.data(), 4, 0, 5, 5, 0, 0);
  EXPECT_EQ(C, (std::vector<double>{7, 7, 7, 7}));
}

TEST_F(MatmulTest, BroadcastRowsWithZeroLeadingDimension) {
  // lda == 0 makes every row of A the same vector, as a stride-0 broadcast view does.
  std::vector<double> A = {1, 2};
  std::vector<double> B = {3, 4, 5, 6};
  std::vector<double> C(6);
  taipan_matmul_f64(A.data(), B.data(), C.data(), 3, 2, 2, 0, 2, 2);
  EXPECT_EQ(C, (std::vector<double>{13, 16, 13, 16, 13, 16}));
}

/// Reference column-major gemm with the Fortran calling convention, standing in for a BLAS
/// so the operand swap can be checked without one. Only 'N' transposes are expected.
template <typename Int, typename Real>
void referenceGemm(const char *TransA, const char *TransB, const Int *M, const Int *N, const Int *K,
                   const Real *Alpha, const Real *A, const Int *Lda, const Real *B, const Int *Ldb,
                   const Real *Beta, Real *C, const Int *Ldc) {
  EXPECT_EQ(*TransA, 'N');
  EXPECT_EQ(*TransB, 'N');
  EXPECT_EQ(*Alpha, Real(1));
  EXPECT_EQ(*Beta, Real(0));
  for (Int J = 0; J < *N; ++J)
    for (Int I = 0; I < *M; ++I) {
      Real Sum = 0;
      for (Int P = 0; P < *K; ++P)
        Sum += A[I + P * *Lda] * B[P + J * *Ldb];
      C[I + J * *Ldc] = Sum;
    }
}

int FakeCalls = 0;

template <typename Int, typename Real>
void countingGemm(const char *TransA, const char *TransB, const Int *M, const Int *N, const Int *K,
                  const Real *Alpha, const Real *A, const Int *Lda, const Real *B, const Int *Ldb,
                  const Real *Beta, Real *C, const Int *Ldc) {
  ++FakeCalls;
  referenceGemm<Int, Real>(TransA, TransB, M, N, K, Alpha, A, Lda, B, Ldb, Beta, C, Ldc);
}

TEST_F(MatmulTest, RegisteredLp64GemmGetsSwappedOperands) {
  setBlasGemm(&countingGemm<int, double>, &countingGemm<int, float>, false);
  FakeCalls = 0;
  Problem<double> D({7, 5, 3}, 2, 1, 3, 11);
  D.run();
  D.check();
  Problem<float> F({4, 9, 6}, 0, 2, 1, 12);
  F.run();
  F.check();
  EXPECT_EQ(FakeCalls, 2);
}

TEST_F(MatmulTest, RegisteredIlp64GemmGetsSixtyFourBitIntegers) {
  setBlasGemm(reinterpret_cast<DgemmFunction>(&countingGemm<int64_t, double>),
              reinterpret_cast<SgemmFunction>(&countingGemm<int64_t, float>), true);
  FakeCalls = 0;
  Problem<double> D({6, 8, 5}, 1, 0, 2, 13);
  D.run();
  D.check();
  Problem<float> F({3, 3, 3}, 0, 0, 0, 14);
  F.run();
  F.check();
  EXPECT_EQ(FakeCalls, 2);
}

TEST_F(MatmulTest, LayoutsBlasRejectsUseTheFallback) {
  setBlasGemm(&countingGemm<int, double>, nullptr, false);
  FakeCalls = 0;
  std::vector<double> A = {1, 2};
  std::vector<double> B = {3, 4, 5, 6};
  std::vector<double> C(6);
  taipan_matmul_f64(A.data(), B.data(), C.data(), 3, 2, 2, 0, 2, 2);
  EXPECT_EQ(C, (std::vector<double>{13, 16, 13, 16, 13, 16}));
  // A null sgemm leaves float32 on the fallback too.
  Problem<float> F({5, 4, 3}, 0, 0, 0, 15);
  F.run();
  F.check();
  EXPECT_EQ(FakeCalls, 0);
}

TEST_F(MatmulTest, FindBlasRejectsMissingLibraries) {
  EXPECT_FALSE(findBlasInLibrary(nullptr));
  EXPECT_FALSE(findBlasInLibrary("/nonexistent/libblas.so"));
  // Loads fine but exports no gemm.
  EXPECT_FALSE(findBlasInLibrary("libm.so.6"));
}

TEST_F(MatmulTest, RealBlasFromEnvironment) {
  // e.g. TAIPAN_TEST_BLAS=$(python3 -c "import numpy, glob, os; print(glob.glob(os.path.join(
  //   os.path.dirname(os.path.dirname(numpy.__file__)), 'numpy.libs', 'libscipy_openblas*'))[0])")
  const char *Path = std::getenv("TAIPAN_TEST_BLAS");
  if (!Path || !*Path)
    GTEST_SKIP() << "TAIPAN_TEST_BLAS not set";
  ASSERT_TRUE(findBlasInLibrary(Path)) << Path;
  checkAllShapes<double>(0, 0, 0);
  checkAllShapes<double>(3, 5, 2);
  checkAllShapes<float>(0, 0, 0);
  checkAllShapes<float>(1, 7, 4);
  std::vector<double> C(12, 7.0);
  taipan_matmul_f64(nullptr, nullptr, C.data(), 3, 4, 0, 0, 4, 4);
  EXPECT_EQ(C, std::vector<double>(12, 0.0));
}

} // namespace
