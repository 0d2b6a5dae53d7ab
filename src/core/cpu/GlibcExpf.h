// glibc's single-precision exp (expf) written as LLVM IR: the bits the host's libm call gives,
// in a form the loop vectoriser widens, and the check that the host's expf is that algorithm.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace taipan {

/// Whether this host's `expf` is glibc's FMA variant, which glibcExpf's IR reproduces bit for
/// bit: the CPU has FMA and AVX2 (glibc's ifunc then picks __expf_fma) and the process's expf
/// gives glibc's bits on inputs where it differs from the correctly rounded result (a
/// fingerprint that refuses older glibcs, musl and correctly rounded libms). Checked once.
bool hostExpfIsGlibcFma();

/// Makes every call of `expf` in `module` that does not allow approximate functions (fastmath's
/// 'afn', which keeps libmvec's SIMD expf) call an always-inlined private copy of glibc's
/// algorithm instead, which the loop vectoriser can widen. Call only where hostExpfIsGlibcFma().
void inlineGlibcExpf(llvm::Module &module);

/// Makes every call of the libm function `libmName` in `module` whose call site does not allow
/// approximate functions ('afn') call the function `define` adds to the module (once, on the
/// first such call) instead: how glibc's exp and expf are inlined.
void redirectExactLibmCalls(llvm::Module &module, llvm::StringRef libmName,
                            llvm::Function *(*define)(llvm::Module &));

} // namespace taipan
