// Host CPU detection through LLVM.
#include "cpu/HostInfo.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

namespace taipan {

std::string llvmVersion() { return LLVM_VERSION_STRING; }

std::string hostCpuName() { return llvm::sys::getHostCPUName().str(); }

std::string hostCpuFeatures() {
  std::string features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
    if (!feature.second)
      continue;
    features += (features.empty() ? "+" : ",+") + feature.first().str();
  }
  return features;
}

bool hostHasFmaAndAvx2() {
  static const bool has = [] {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    return features.lookup("fma") && features.lookup("avx2");
  }();
  return has;
}

std::string hostTargetTriple() { return llvm::sys::getProcessTriple(); }

bool hostHasVectorMath() {
  // Loaded with RTLD_GLOBAL, so the JIT's search of the process finds its symbols.
  static const bool loaded = [] {
    llvm::Triple triple(llvm::sys::getProcessTriple());
    if (triple.getArch() != llvm::Triple::x86_64 || !triple.isOSLinux())
      return false;
    return !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  }();
  return loaded;
}

} // namespace taipan
