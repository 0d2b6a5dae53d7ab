// The CPU platform: which CpuTarget a job's entry kind gets (for the description's CPU, the
// host's by default), and the entry symbols the JIT already holds (so that code compiled or
// loaded twice in a process never collides).
#include "cpu/CpuPlatform.h"

#include "cpu/CfuncTarget.h"
#include "cpu/CpuJit.h"
#include "cpu/CpuTarget.h"
#include "cpu/GufuncLoopTarget.h"
#include "cpu/UfuncLoopTarget.h"
#include "support/CompileError.h"
#include "syntax/SyntaxTree.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <set>

namespace taipan {
namespace {

/// Entry symbols already in the JIT; guarded by the compiler lock.
std::set<std::string> &loadedEntryNames() {
  static std::set<std::string> names;
  return names;
}

const CpuTarget &cpuTarget(const Target &target) { return static_cast<const CpuTarget &>(target); }

} // namespace

int cpuOptimizationLevel(const CompileOptions &options) {
  int asked = options.optimizationLevel;
  return asked >= 0 ? asked : 3;
}

std::unique_ptr<Target> CpuPlatform::makeTarget(const TargetDescription &description,
                                                const CompileOptions &options) const {
  int level = cpuOptimizationLevel(options);
  // Approximate functions allowed (fastmath=True or 'afn'): vectorised loops may use libmvec.
  bool vectorMath = options.fastmathFlags & FastmathApproximateFunctions;
  CpuModel cpu = CpuModel::of(description);
  switch (description.entry) {
  case EntryKind::Function:
    return std::make_unique<CpuTarget>(level, vectorMath, std::move(cpu));
  case EntryKind::UfuncLoop:
    return std::make_unique<UfuncLoopTarget>(level, vectorMath, std::move(cpu));
  case EntryKind::GufuncLoop:
    return std::make_unique<GufuncLoopTarget>(level, vectorMath, description.coreDimensions,
                                              description.coreSizes, std::move(cpu));
  case EntryKind::Cfunc:
    return std::make_unique<CfuncTarget>(level, vectorMath, std::move(cpu));
  case EntryKind::Kernel:
  case EntryKind::DeviceFunction:
  case EntryKind::CDeviceFunction:
    break;
  }
  throw CompileError(CompileErrorKind::Internal,
                     "the host CPU has no GPU kernels or device functions", {});
}

std::string CpuPlatform::reserveEntryName(llvm::Module &module,
                                          const std::string &entryName) const {
  std::string name = entryName;
  for (int copy = 2; loadedEntryNames().count(name); ++copy)
    name = entryName + "_" + std::to_string(copy);
  module.getFunction(entryName)->setName(name);
  loadedEntryNames().insert(name);
  return name;
}

std::unique_ptr<Target> CpuPlatform::firstTierTarget(const TargetDescription &description,
                                                     const CompileOptions &options) const {
  if (description.entry != EntryKind::Function || cpuOptimizationLevel(options) < 3 ||
      options.fastmathFlags != 0)
    return nullptr;
  return std::make_unique<CpuTarget>(0, false, CpuModel::of(description));
}

void CpuPlatform::prepareForThreads(Target &target) const {
  static_cast<CpuTarget &>(target).useOwnTargetMachine();
}

bool CpuPlatform::generatesObjectCode(const Target &target, bool keepObject) const {
  return keepObject || cpuTarget(target).generatesCodeItself();
}

std::string CpuPlatform::emitObject(const Target &target, llvm::Module &module) const {
  return cpuTarget(target).emitObject(module);
}

void *CpuPlatform::load(const Target &target, std::unique_ptr<llvm::Module> module,
                        std::unique_ptr<llvm::LLVMContext> context, const std::string &objectCode,
                        const std::string &entryName) const {
  if (!objectCode.empty())
    return CpuJit::get().addObjectAndLookup(objectCode, entryName);
  return cpuTarget(target).install(std::move(module), std::move(context), entryName);
}

void *CpuPlatform::loadCachedObject(const std::string &objectCode,
                                    const std::string &entryName) const {
  void *entry = loadedEntryNames().count(entryName)
                    ? CpuJit::get().lookup(entryName)
                    : CpuJit::get().addObjectAndLookup(objectCode, entryName);
  loadedEntryNames().insert(entryName);
  return entry;
}

} // namespace taipan
