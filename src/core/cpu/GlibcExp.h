// glibc's double-precision exp written as vector LLVM IR: the bits the host's libm call gives,
// offered to the loop vectoriser, and the check that the host's exp is that algorithm.
#pragma once

namespace taipan {

struct ExactVectorVariants;

/// Whether this host's `exp` is glibc's FMA variant, which glibcExp's IR reproduces bit for bit:
/// the CPU has FMA and AVX2 (glibc's ifunc then picks __exp_fma) and the process's exp gives
/// glibc's bits on inputs where it is not correctly rounded and where the FMA variant differs
/// from glibc's builds without FMA (a fingerprint that refuses those builds, other libms and
/// correctly rounded ones). Checked once.
bool hostExpIsGlibcFma();

/// glibc's algorithm on 2, 4 and 8 doubles: the exact vector variants (cpu/ExactVectorVariants) of
/// `exp` the CPU target offers the loop vectoriser where hostExpIsGlibcFma().
const ExactVectorVariants &glibcExpVariants();

} // namespace taipan
