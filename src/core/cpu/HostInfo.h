// Facts about the machine and the LLVM taipan was built with, for `python -m taipan` and for
// choosing the CPU the JIT generates code for.
#pragma once

#include <string>

namespace taipan {

/// LLVM's version string, such as "19.1.7".
std::string llvmVersion();
/// The host CPU as LLVM names it ("znver3", "sapphirerapids", ...).
std::string hostCpuName();
/// The host CPU features LLVM detected, as "+avx2,+fma,...".
std::string hostCpuFeatures();
/// Whether the host CPU has FMA and AVX2, which glibc's fused libm builds (the exact exp and
/// expf variants copy them) need.
bool hostHasFmaAndAvx2();
/// The target triple of the host.
std::string hostTargetTriple();
/// Whether glibc's vector math library (libmvec) is loaded into the process (tried once, on
/// x86-64 Linux): vectorised loops may then call its SIMD exp, sin, log... as clang's
/// -fveclib=libmvec does. Part of the CPU target's identity, so cached code matches it.
bool hostHasVectorMath();

} // namespace taipan
