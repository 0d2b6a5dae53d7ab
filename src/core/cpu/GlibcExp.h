// glibc's double-precision exp written as vector LLVM IR: the bits the host's libm call gives,
// offered to the loop vectoriser, and the check that the host's exp is that algorithm.
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace taipan {

/// Whether this host's `exp` is glibc's FMA variant, which glibcExp's IR reproduces bit for bit:
/// the CPU has FMA and AVX2 (glibc's ifunc then picks __exp_fma) and the process's exp gives
/// glibc's bits on inputs where it is not correctly rounded and where the FMA variant differs
/// from glibc's builds without FMA (a fingerprint that refuses those builds, other libms and
/// correctly rounded ones). Checked once.
bool hostExpIsGlibcFma();

/// Offers the loop vectoriser glibc's algorithm on 2, 4 and 8 doubles as the exact vector
/// variants (cpu/ExactVectorVariants) of every call of `exp` in `module` that does not allow
/// approximate functions (fastmath's 'afn' keeps libmvec's SIMD exp). Call only where
/// hostExpIsGlibcFma().
void offerGlibcExpVariants(llvm::Module &module);

} // namespace taipan
