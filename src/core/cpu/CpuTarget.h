// The host CPU as a Target: modules for the process's JIT (CpuJit), called through an entry
// wrapper that reads its arguments through an array of pointers.
#pragma once

#include "target/Target.h"
#include "target/TargetDescription.h"
#include "target/TargetMachinePool.h"

#include <llvm/Support/CodeGen.h>

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class TargetMachine;
} // namespace llvm

namespace taipan {

struct ExactVectorVariants;

/// The CPU code is generated for: the host as detected (the JIT's own target machine), or a CPU
/// a description names (TargetDescription::cpuName, cpuFeatures; NUMBA_CPU_NAME=generic for
/// code that runs on any CPU of the architecture).
struct CpuModel {
  /// LLVM's name of the CPU ("znver3", "generic").
  std::string name;
  /// Its features as LLVM lists them ("+avx2,+fma"; empty: the named CPU's own).
  std::string features;
  /// The host as detected: code goes through the JIT's target machine.
  bool host = true;

  /// The host's CPU and features.
  static CpuModel hostModel();
  /// What `description` asks for: its CPU and features, each the host's where it gives none.
  static CpuModel of(const TargetDescription &description);
};

/// Code for the host CPU, run in this process. The runtime's functions and libm resolve
/// against the process when the JIT links a module, so modules stay as lowering left them
/// until optimisation.
class CpuTarget : public Target {
public:
  /// `optimizationLevel` 0-3 (the job's opt: TAIPAN_OPT by default); `vectorMath`: loops may
  /// call libmvec's SIMD math functions, a few ulps from libm's (fastmath's 'afn' allows it);
  /// `cpu`: the CPU code is generated for. A CPU other than the host gets libmvec and glibc's
  /// exact exp variants only where it has FMA and AVX2, which their vector code assumes.
  explicit CpuTarget(int optimizationLevel = 3, bool vectorMath = false,
                     CpuModel cpu = CpuModel::hostModel());
  ~CpuTarget() override;

  /// Optimises and emits code with a target machine of its own rather than the JIT's, so that
  /// several jobs can generate code at once, one per thread (compileFunctions).
  void useOwnTargetMachine();

  void prepareModule(llvm::Module &module) const override;
  bool hasThreadHierarchy() const override { return false; }
  bool hasThreadPool() const override { return true; }
  bool canCallForeignFunctions() const override { return false; }
  bool resolvesSymbolsAtLoad() const override { return true; }
  bool printsThroughDevicePrintf() const override { return false; }
  bool formatsMessagesAtRunTime() const override { return true; }
  unsigned dwarfVersion() const override { return 4; }
  std::vector<std::string> identity() const override;
  void checkEntry(const TypedFunction &) const override {}
  /// `i32 <root>_entry(ptr arguments, ptr result)`, reading each argument through a pointer in
  /// the `arguments` array (memory form): the one entry point the dispatcher calls.
  std::string defineEntry(ModuleLowering &lowering, TypedFunction &root,
                          const std::vector<TypedFunction *> &variants) const override;
  std::string mathFunctionName(const std::string &libmName) const override { return libmName; }
  /// Calls of `expf` and `exp` without fastmath's 'afn' get glibc's algorithms on vectors
  /// (cpu/GlibcExpf, cpu/GlibcExp) as their vector variants where the host's libm is glibc's
  /// FMA variant: loops can vectorise with libm's bits, scalar calls stay libm's.
  void finalizeModule(llvm::Module &module, const std::string &entryName) const override;
  /// The pipeline at the job's level, with both vectorisers from level 2, then the exact
  /// vector variants the vectorisers chose inlined (cpu/ExactVectorVariants).
  void optimize(llvm::Module &module, StageTimes *times) const override;
  std::string emitAssembly(llvm::Module &module) const override;

  /// Hands an optimised module to the process's JIT and returns the address of `entryName`.
  void *install(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
                const std::string &entryName) const;
  /// The host object code of an optimised module (what the disk cache keeps).
  std::string emitObject(llvm::Module &module) const;
  /// Whether code generation runs at another level than the JIT's own (opt 0 to 2) or for
  /// another CPU than the host: such a job emits its object code itself rather than hand its
  /// module to the JIT.
  bool generatesCodeItself() const { return optimizationLevel < 3 || !cpu.host; }

protected:
  /// The level of LLVM's pass pipeline `optimize` runs: the job's level here.
  virtual int pipelineLevel() const { return optimizationLevel; }

private:
  /// The module as host assembly or object code.
  std::string emitFile(llvm::Module &module, bool object) const;
  /// The target machine code is generated with: the JIT's, or this target's own.
  llvm::TargetMachine &machine() const;
  /// The pool's name of this CPU's machines ("host" for the JIT's configuration).
  std::string machineConfiguration() const;
  /// A new target machine for this CPU, at the JIT's level.
  std::unique_ptr<llvm::TargetMachine> createMachine() const;
  /// The exact vector variants offered to this target's loops (cpu/ExactVectorVariants).
  const std::vector<const ExactVectorVariants *> &exactVariants() const;
  /// The code-generation level of the job's opt, as Numba's NUMBA_OPT sets llvmlite's target
  /// machine: 0 None (FastISel, the fast register allocator), 1 Less, 2 Default, 3 Aggressive.
  llvm::CodeGenOptLevel codeGenerationLevel() const;

  int optimizationLevel;
  CpuModel cpu;
  /// The CPU has FMA and AVX2 (glibc's fused exp builds and libmvec's AVX2 variants need them).
  bool fmaAndAvx2;
  bool vectorMath;
  LeasedTargetMachine ownMachine;
};

} // namespace taipan
