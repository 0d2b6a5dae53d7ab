// Matmul.cpp - Matrix products for JIT-compiled `@` / `np.dot` on float32 and float64.
// Implements BLAS dispatch (LP64 or ILP64 gemm) and a packed, register-tiled fallback kernel.

#include "runtime/Matmul.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

namespace taipan::runtime {

namespace {

struct BlasTable {
  DgemmFunction Dgemm;
  SgemmFunction Sgemm;
  bool Ilp64;
};

/// Readers load this without locking; tables are never freed, so a pointer that was current
/// when loaded stays valid even if setBlasGemm replaces it meanwhile.
std::atomic<const BlasTable *> ActiveBlas{nullptr};

template <typename Real> GemmFunction<int, Real> registeredGemm(const BlasTable &Table) {
  if constexpr (sizeof(Real) == sizeof(double))
    return Table.Dgemm;
  else
    return Table.Sgemm;
}

/// Calls gemm with Int-sized dimensions; returns false, without calling, when the operands
/// are outside what BLAS accepts, so the caller can use the fallback instead.
template <typename Int, typename Real>
bool callGemm(GemmFunction<int, Real> Registered, const Real *A, const Real *B, Real *C, int64_t M,
              int64_t N, int64_t K, int64_t Lda, int64_t Ldb, int64_t Ldc) {
  if constexpr (sizeof(Int) < sizeof(int64_t)) {
    for (int64_t Value : {M, N, K, Lda, Ldb, Ldc})
      if (Value > INT_MAX)
        return false;
  }
  // BLAS rejects (and reports through xerbla) leading dimensions shorter than the column
  // length; such layouts, e.g. broadcast rows with stride 0, go to the fallback.
  if (Lda < std::max<int64_t>(1, K) || Ldb < std::max<int64_t>(1, N) ||
      Ldc < std::max<int64_t>(1, N))
    return false;
  // Round-trips the cast made at registration back to the library's real signature.
  auto Gemm = reinterpret_cast<GemmFunction<Int, Real>>(Registered);
  // Row-major C = A * B is column-major C^T = B^T * A^T over the same memory, so B is passed
  // first and neither operand needs a transpose.
  const char NoTranspose = 'N';
  const Real One = 1, Zero = 0;
  const Int RowsT = static_cast<Int>(N), ColsT = static_cast<Int>(M), Inner = static_cast<Int>(K);
  const Int LdbT = static_cast<Int>(Ldb), LdaT = static_cast<Int>(Lda),
            LdcT = static_cast<Int>(Ldc);
  Gemm(&NoTranspose, &NoTranspose, &RowsT, &ColsT, &Inner, &One, B, &LdbT, A, &LdaT, &Zero, C,
       &LdcT);
  return true;
}

template <typename Real>
bool tryBlas(const Real *A, const Real *B, Real *C, int64_t M, int64_t N, int64_t K, int64_t Lda,
             int64_t Ldb, int64_t Ldc) {
  const BlasTable *Table = ActiveBlas.load(std::memory_order_acquire);
  if (!Table)
    return false;
  GemmFunction<int, Real> Gemm = registeredGemm<Real>(*Table);
  if (!Gemm)
    return false;
  if (Table->Ilp64)
    return callGemm<int64_t, Real>(Gemm, A, B, C, M, N, K, Lda, Ldb, Ldc);
  return callGemm<int, Real>(Gemm, A, B, C, M, N, K, Lda, Ldb, Ldc);
}

// Register tile of the fallback: MR rows by two vectors of columns. The vector width follows
// what the runtime is compiled for; 16 bytes is SSE2/NEON, always available on our targets.
#if defined(__AVX__)
constexpr int VectorBytes = 32;
#else
constexpr int VectorBytes = 16;
#endif
constexpr int64_t MR = 4;
// Cache blocking: a KC x NR sliver of B and an MR x KC sliver of A stay in L1, the MC x KC
// block of A in L2, and the KC x NC panel of B in the last-level cache.
constexpr int64_t KC = 256;
constexpr int64_t MC = 96;
constexpr int64_t NC = 2048;
// Below this many multiply-adds the packing costs more than it saves.
constexpr int64_t SmallProduct = 32 * 32 * 32;

template <typename T> struct Tile {
  typedef T Vector __attribute__((vector_size(VectorBytes)));
  static constexpr int64_t Lanes = VectorBytes / sizeof(T);
  static constexpr int64_t NR = 2 * Lanes;
};

/// Straight i-k-j loop for small products, where packing would dominate.
template <typename T>
void gemmSmall(const T *A, const T *B, T *C, int64_t M, int64_t N, int64_t K, int64_t Lda,
               int64_t Ldb, int64_t Ldc) {
  for (int64_t I = 0; I < M; ++I) {
    T *__restrict CRow = C + I * Ldc;
    std::fill(CRow, CRow + N, T(0));
    for (int64_t P = 0; P < K; ++P) {
      const T Scale = A[I * Lda + P];
      const T *__restrict BRow = B + P * Ldb;
      for (int64_t J = 0; J < N; ++J)
        CRow[J] += Scale * BRow[J];
    }
  }
}

/// Multiplies a packed MR x Depth sliver of A by a packed Depth x NR sliver of B into the
/// Rows x Cols corner of C, overwriting C on the first depth block and adding afterwards.
template <typename T>
void microKernel(const T *PackedA, const T *PackedB, int64_t Depth, T *C, int64_t Ldc, int64_t Rows,
                 int64_t Cols, bool Accumulate) {
  using V = typename Tile<T>::Vector;
  constexpr int64_t Lanes = Tile<T>::Lanes, NR = Tile<T>::NR;
  V Acc[MR][2] = {};
  for (int64_t P = 0; P < Depth; ++P) {
    V B0, B1;
    std::memcpy(&B0, PackedB + P * NR, sizeof(V));
    std::memcpy(&B1, PackedB + P * NR + Lanes, sizeof(V));
    // Unrolled so the accumulators stay in registers even at -O2.
#pragma GCC unroll 4
    for (int64_t R = 0; R < MR; ++R) {
      const T Scale = PackedA[P * MR + R];
      Acc[R][0] += Scale * B0;
      Acc[R][1] += Scale * B1;
    }
  }
  for (int64_t R = 0; R < Rows; ++R) {
    T Values[NR];
    std::memcpy(Values, &Acc[R][0], sizeof(V));
    std::memcpy(Values + Lanes, &Acc[R][1], sizeof(V));
    T *CRow = C + R * Ldc;
    if (Accumulate) {
      for (int64_t J = 0; J < Cols; ++J)
        CRow[J] += Values[J];
    } else {
      for (int64_t J = 0; J < Cols; ++J)
        CRow[J] = Values[J];
    }
  }
}

/// GotoBLAS-style loop nest over packed panels; the zero padding of partial panels lets the
/// micro-kernel always run full tiles and only clip when storing.
template <typename T>
void gemmBlocked(const T *A, const T *B, T *C, int64_t M, int64_t N, int64_t K, int64_t Lda,
                 int64_t Ldb, int64_t Ldc) {
  constexpr int64_t NR = Tile<T>::NR;
  // Per thread and kept between calls so repeated products do not reallocate.
  thread_local std::vector<T> PackedA, PackedB;
  PackedA.resize(static_cast<size_t>(MC * KC));
  for (int64_t J0 = 0; J0 < N; J0 += NC) {
    const int64_t NCols = std::min(NC, N - J0);
    const int64_t BPanels = (NCols + NR - 1) / NR;
    for (int64_t P0 = 0; P0 < K; P0 += KC) {
      const int64_t Depth = std::min(KC, K - P0);
      PackedB.resize(static_cast<size_t>(BPanels * Depth * NR));
      for (int64_t Q = 0; Q < BPanels; ++Q) {
        T *Panel = PackedB.data() + Q * Depth * NR;
        const int64_t Col0 = J0 + Q * NR, Width = std::min(NR, N - Col0);
        for (int64_t P = 0; P < Depth; ++P) {
          const T *Source = B + (P0 + P) * Ldb + Col0;
          T *Dest = Panel + P * NR;
          for (int64_t J = 0; J < Width; ++J)
            Dest[J] = Source[J];
          for (int64_t J = Width; J < NR; ++J)
            Dest[J] = T(0);
        }
      }
      for (int64_t I0 = 0; I0 < M; I0 += MC) {
        const int64_t NRows = std::min(MC, M - I0);
        const int64_t APanels = (NRows + MR - 1) / MR;
        for (int64_t R = 0; R < APanels; ++R) {
          T *Panel = PackedA.data() + R * Depth * MR;
          const int64_t Row0 = I0 + R * MR, Height = std::min(MR, M - Row0);
          for (int64_t I = 0; I < MR; ++I) {
            if (I < Height) {
              const T *Source = A + (Row0 + I) * Lda + P0;
              for (int64_t P = 0; P < Depth; ++P)
                Panel[P * MR + I] = Source[P];
            } else {
              for (int64_t P = 0; P < Depth; ++P)
                Panel[P * MR + I] = T(0);
            }
          }
        }
        for (int64_t Q = 0; Q < BPanels; ++Q) {
          const int64_t Col0 = J0 + Q * NR, Width = std::min(NR, N - Col0);
          for (int64_t R = 0; R < APanels; ++R) {
            const int64_t Row0 = I0 + R * MR, Height = std::min(MR, M - Row0);
            microKernel(PackedA.data() + R * Depth * MR, PackedB.data() + Q * Depth * NR, Depth,
                        C + Row0 * Ldc + Col0, Ldc, Height, Width, P0 > 0);
          }
        }
      }
    }
  }
}

template <typename T>
void matmul(const T *A, const T *B, T *C, int64_t M, int64_t N, int64_t K, int64_t Lda, int64_t Ldb,
            int64_t Ldc) {
  if (M <= 0 || N <= 0)
    return;
  if (K <= 0) {
    for (int64_t I = 0; I < M; ++I)
      std::fill(C + I * Ldc, C + I * Ldc + N, T(0));
    return;
  }
  if (tryBlas(A, B, C, M, N, K, Lda, Ldb, Ldc))
    return;
  if (M * N * K <= SmallProduct)
    gemmSmall(A, B, C, M, N, K, Lda, Ldb, Ldc);
  else
    gemmBlocked(A, B, C, M, N, K, Lda, Ldb, Ldc);
}

} // namespace

void setBlasGemm(DgemmFunction Dgemm, SgemmFunction Sgemm, bool SixtyFourBitIntegers) {
  static std::mutex Lock;
  // Deliberately never destroyed: compiled code on other threads may still hold a table.
  static auto *Tables = new std::deque<BlasTable>;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Dgemm && !Sgemm) {
    ActiveBlas.store(nullptr, std::memory_order_release);
    return;
  }
  Tables->push_back({Dgemm, Sgemm, SixtyFourBitIntegers});
  ActiveBlas.store(&Tables->back(), std::memory_order_release);
}

bool findBlasInLibrary(const char *Path) {
  struct Candidate {
    const char *Dgemm;
    const char *Sgemm;
    bool Ilp64;
  };
  // NumPy >= 2 wheels bundle scipy-openblas with the `scipy_` prefix and `64_` suffix; older
  // ones and distribution ILP64 builds use the bare suffixes. ILP64 goes first so a library
  // exporting both interfaces is used without the 2**31 limit.
  static constexpr Candidate Candidates[] = {
      {"scipy_dgemm_64_", "scipy_sgemm_64_", true},
      {"scipy_dgemm64_", "scipy_sgemm64_", true},
      {"dgemm_64_", "sgemm_64_", true},
      {"dgemm64_", "sgemm64_", true},
      {"dgemm_", "sgemm_", false},
  };
  if (!Path)
    return false;
  void *Handle = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  if (!Handle)
    return false;
  for (const Candidate &Names : Candidates) {
    void *Dgemm = dlsym(Handle, Names.Dgemm);
    if (!Dgemm)
      continue;
    void *Sgemm = dlsym(Handle, Names.Sgemm);
    // The handle is intentionally kept open: the registered pointers live in the library.
    setBlasGemm(reinterpret_cast<DgemmFunction>(Dgemm), reinterpret_cast<SgemmFunction>(Sgemm),
                Names.Ilp64);
    return true;
  }
  dlclose(Handle);
  return false;
}

} // namespace taipan::runtime

extern "C" {

void taipan_matmul_f64(const double *a, const double *b, double *c, int64_t m, int64_t n, int64_t k,
                       int64_t lda, int64_t ldb, int64_t ldc) {
  taipan::runtime::matmul(a, b, c, m, n, k, lda, ldb, ldc);
}

void taipan_matmul_f32(const float *a, const float *b, float *c, int64_t m, int64_t n, int64_t k,
                       int64_t lda, int64_t ldb, int64_t ldc) {
  taipan::runtime::matmul(a, b, c, m, n, k, lda, ldb, ldc);
}
}
