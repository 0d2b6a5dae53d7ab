// The CPU as a platform of the compile pipeline: the Target for each entry kind (a Python-
// callable function, a ufunc or gufunc loop, a cfunc), and delivery into the process's JIT.
#pragma once

#include "target/Platform.h"

namespace taipan {

/// The host CPU: code runs in this process, loaded by the JIT (CpuJit) under entry symbols that
/// are unique in it. Registered as "cpu" (compiler/Platforms.cpp).
class CpuPlatform final : public Platform {
public:
  /// CpuTarget for EntryKind::Function, UfuncLoopTarget, GufuncLoopTarget (with the
  /// description's layout) or CfuncTarget, for the description's CPU (CpuModel::of), at the
  /// options' opt (3 when not given), with libmvec's vector math where fastmath allows
  /// approximate functions.
  std::unique_ptr<Target> makeTarget(const TargetDescription &description,
                                     const CompileOptions &options) const override;
  std::string assemblyName() const override { return "host assembly"; }

  bool loadsIntoProcess() const override { return true; }
  /// The stable symbol, unless the process already has it (the same code compiled again, by
  /// another dispatcher of the same function), then with a suffix.
  std::string reserveEntryName(llvm::Module &module, const std::string &entryName) const override;
  /// Level 0 for a plain function (EntryKind::Function) at level 3 without fastmath.
  std::unique_ptr<Target> firstTierTarget(const TargetDescription &description,
                                          const CompileOptions &options) const override;
  void prepareForThreads(Target &target) const override;
  /// Kept code, or code below opt 3, which the JIT (generating at level 3) would not produce.
  bool generatesObjectCode(const Target &target, bool keepObject) const override;
  std::string emitObject(const Target &target, llvm::Module &module) const override;
  void *load(const Target &target, std::unique_ptr<llvm::Module> module,
             std::unique_ptr<llvm::LLVMContext> context, const std::string &objectCode,
             const std::string &entryName) const override;
  void *loadCachedObject(const std::string &objectCode,
                         const std::string &entryName) const override;
};

/// The optimisation level of a CPU job: its opt (taipan.config.OPT, from TAIPAN_OPT, unless the
/// options give one), 3 when none is given.
int cpuOptimizationLevel(const CompileOptions &options);

} // namespace taipan
