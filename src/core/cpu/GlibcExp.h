// glibc's double-precision exp written as LLVM IR: the bits the host's libm call gives, in a
// form the loop vectoriser widens, and the check that the host's exp is that algorithm.
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

/// Makes every call of `exp` in `module` that does not allow approximate functions (fastmath's
/// 'afn', which keeps libmvec's SIMD exp) call an always-inlined private copy of glibc's
/// algorithm instead, which the loop vectoriser can widen. Call only where hostExpIsGlibcFma().
void inlineGlibcExp(llvm::Module &module);

} // namespace taipan
