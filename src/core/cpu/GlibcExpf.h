// glibc's single-precision exp (expf) written as vector LLVM IR: the bits the host's libm call
// gives, offered to the loop vectoriser, and the check that the host's expf is that algorithm.
#pragma once

namespace taipan {

struct ExactVectorVariants;

/// Whether this host's `expf` is glibc's FMA variant, which glibcExpf's IR reproduces bit for
/// bit: the CPU has FMA and AVX2 (glibc's ifunc then picks __expf_fma) and the process's expf
/// gives glibc's bits on inputs where it differs from the correctly rounded result (a
/// fingerprint that refuses older glibcs, musl and correctly rounded libms). Checked once.
bool hostExpfIsGlibcFma();

/// glibc's algorithm on 4 and 8 floats: the exact vector variants (cpu/ExactVectorVariants) of
/// `expf` the CPU target offers the loop vectoriser where hostExpfIsGlibcFma().
const ExactVectorVariants &glibcExpfVariants();

} // namespace taipan
