// Host CPU detection through LLVM.
#include "cpu/HostInfo.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

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

std::string hostTargetTriple() { return llvm::sys::getProcessTriple(); }

} // namespace taipan
