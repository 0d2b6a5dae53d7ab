// Host CPU detection through LLVM.
#include "cpu/HostInfo.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

namespace taipan {

std::string llvmVersion() { return LLVM_VERSION_STRING; }

std::string hostCpuName() {
  static const std::string name = llvm::sys::getHostCPUName().str();
  return name;
}

const std::vector<std::pair<std::string, bool>> &hostCpuFeatureFlags() {
  static const std::vector<std::pair<std::string, bool>> flags = [] {
    std::vector<std::pair<std::string, bool>> read;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      read.emplace_back(feature.first().str(), feature.second);
    return read;
  }();
  return flags;
}

std::string hostCpuFeatures() {
  static const std::string features = [] {
    std::string text;
    for (const auto &[feature, present] : hostCpuFeatureFlags())
      if (present)
        text += (text.empty() ? "+" : ",+") + feature;
    return text;
  }();
  return features;
}

bool hostHasFmaAndAvx2() {
  static const bool has = [] {
    bool fma = false, avx2 = false;
    for (const auto &[feature, present] : hostCpuFeatureFlags()) {
      fma |= feature == "fma" && present;
      avx2 |= feature == "avx2" && present;
    }
    return fma && avx2;
  }();
  return has;
}

std::string hostTargetTriple() {
  static const std::string triple = llvm::sys::getProcessTriple();
  return triple;
}

bool hostHasVectorMath() {
  // Loaded with RTLD_GLOBAL, so the JIT's search of the process finds its symbols.
  static const bool loaded = [] {
    llvm::Triple triple(hostTargetTriple());
    if (triple.getArch() != llvm::Triple::x86_64 || !triple.isOSLinux())
      return false;
    return !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  }();
  return loaded;
}

} // namespace taipan
