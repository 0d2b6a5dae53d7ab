// The CPU JIT: one ORC LLJIT per process, tuned for the host CPU, which optimises modules,
// links them against the runtime and libm, and returns the addresses of their entry points.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace taipan {

class CpuJit {
public:
  /// The process-wide JIT, created on first use.
  static CpuJit &get();

  /// Sets the module's triple and data layout to the host's; call before lowering into it.
  void prepareModule(llvm::Module &module);
  /// Runs the optimisation pipeline (O2-like, at the given level 0-3) over a module.
  void optimize(llvm::Module &module, int level);
  /// Hands an optimised module to the JIT and returns the address of `symbol`.
  void *addModuleAndLookup(std::unique_ptr<llvm::Module> module,
                           std::unique_ptr<llvm::LLVMContext> context, const std::string &symbol);
  /// The host assembly of a module, for inspect_asm.
  std::string emitAssembly(llvm::Module &module);

  ~CpuJit();

private:
  CpuJit();
  struct Implementation;
  std::unique_ptr<Implementation> implementation;
};

} // namespace taipan
