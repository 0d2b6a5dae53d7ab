// The CPU JIT: one ORC LLJIT per process, for the host CPU, which links modules against the
// runtime and libm and returns the addresses of their entry points (CpuTarget drives it).
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

  /// The host's target machine (its CPU and features), which code is generated for.
  llvm::TargetMachine &targetMachine();
  /// A new target machine like targetMachine(), for a thread generating code beside others
  /// (LLVM does not share one between threads).
  std::unique_ptr<llvm::TargetMachine> createTargetMachine();
  /// A target machine for the host's triple with another CPU and features (LLVM's names:
  /// "generic", "+avx2,-avx512f"), at the JIT's level: code for it is generated as object
  /// code and added with addObjectAndLookup.
  std::unique_ptr<llvm::TargetMachine> createTargetMachine(const std::string &cpuName,
                                                           const std::string &cpuFeatures);
  /// Hands an optimised module to the JIT and returns the address of `symbol`.
  void *addModuleAndLookup(std::unique_ptr<llvm::Module> module,
                           std::unique_ptr<llvm::LLVMContext> context, const std::string &symbol);
  /// Adds compiled object code (the disk cache's) and returns the address of `symbol` in it.
  void *addObjectAndLookup(const std::string &objectCode, const std::string &symbol);
  /// The address of a symbol already in the JIT.
  void *lookup(const std::string &symbol);

  ~CpuJit();

private:
  CpuJit();
  struct Implementation;
  std::unique_ptr<Implementation> implementation;
};

} // namespace taipan
