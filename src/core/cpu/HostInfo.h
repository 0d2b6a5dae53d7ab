// Facts about the machine and the LLVM taipan was built with, for `python -m taipan` and for
// choosing the CPU the JIT generates code for.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace taipan {

/// LLVM's version string, such as "19.1.7".
std::string llvmVersion();
/// The host CPU as LLVM names it ("znver3", "sapphirerapids", ...).
std::string hostCpuName();
/// The host CPU features LLVM detected, as "+avx2,+fma,...". Each of these facts is read once
/// per process: in a virtual machine every CPUID instruction is a trip to the hypervisor (about
/// 0.1 ms for the features), which a cached function's first call would pay again.
std::string hostCpuFeatures();
/// The same features, each with whether the CPU has it.
const std::vector<std::pair<std::string, bool>> &hostCpuFeatureFlags();
/// Whether the host CPU has FMA and AVX2, which glibc's fused libm builds (the exact exp and
/// expf variants copy them) need.
bool hostHasFmaAndAvx2();
/// Why LLVM cannot generate code for the CPU `name` with `features` ("+avx2,-avx512f") on the
/// host's architecture (an unknown CPU or feature, which LLVM would only warn about and ignore),
/// or empty when it can.
std::string cpuModelProblem(const std::string &name, const std::string &features);
/// The target triple of the host.
std::string hostTargetTriple();
/// Whether glibc's vector math library (libmvec) is loaded into the process (tried once, on
/// x86-64 Linux): vectorised loops may then call its SIMD exp, sin, log... as clang's
/// -fveclib=libmvec does. Part of the CPU target's identity, so cached code matches it.
bool hostHasVectorMath();

} // namespace taipan
