// Host CPU detection through LLVM.
#include "cpu/HostInfo.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <memory>

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

std::string cpuModelProblem(const std::string &name, const std::string &features) {
  llvm::InitializeNativeTarget();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(hostTargetTriple(), error);
  if (!target)
    return error;
  // Made for "generic" with no features, which LLVM accepts without printing a warning.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(hostTargetTriple(), "generic", ""));
  if (!subtarget)
    return "LLVM has no subtarget information for " + hostTargetTriple();
  if (!subtarget->isCPUStringValid(name))
    return "'" + name + "' is not a CPU LLVM knows for " + hostTargetTriple();
  llvm::StringRef rest(features);
  while (!rest.empty()) {
    auto [feature, after] = rest.split(',');
    rest = after;
    feature = feature.trim();
    if (feature.empty())
      continue;
    if (!feature.starts_with("+") && !feature.starts_with("-"))
      return "the feature '" + feature.str() + "' does not start with + or -";
    llvm::StringRef bare = feature.drop_front();
    bool known = false;
    for (const llvm::SubtargetFeatureKV &candidate : subtarget->getAllProcessorFeatures())
      known |= bare == candidate.Key;
    if (!known)
      return "'" + bare.str() + "' is not a CPU feature LLVM knows for " + hostTargetTriple();
  }
  return "";
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
