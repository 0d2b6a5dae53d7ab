// CUDA as a Target (NVPTX): kernels or device functions as PTX for one GPU architecture, with
// the runtime calls given device definitions and libdevice as the math library.
#pragma once

#include "syntax/SyntaxTree.h"
#include "target/Target.h"
#include "target/TargetMachinePool.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace taipan {

/// Code for one GPU architecture. The job's options (those of the function compiled, parsed
/// once) decide the module-wide settings: fastmath, opt and max_registers.
class CudaTarget final : public Target {
public:
  /// What the entry point is: a kernel (`void`, launched with one pointer per argument), a
  /// device function compiled on its own (compile_ptx(device=True)), kept visible, or such a
  /// function with the C ABI (`T name(args...)` returning its value; compile(abi='c')).
  enum class Entry { Kernel, DeviceFunction, CDeviceFunction };

  /// `computeCapability` 90 for sm_90; `cSymbol` names the C-ABI function of CDeviceFunction.
  CudaTarget(int computeCapability, const CompileOptions &options, Entry entry = Entry::Kernel,
             std::string cSymbol = {});
  ~CudaTarget() override;

  std::vector<std::string> identity() const override;
  void prepareModule(llvm::Module &module) const override;
  bool hasThreadHierarchy() const override { return true; }
  /// Arrays the user creates come from the device's malloc heap (DeviceMemoryRuntime.h), but
  /// lowering makes no hidden ones: a copy per thread of an operand overlapping a ufunc's output
  /// would drain the small heap (8 MiB by default) behind the user's back, so that is refused.
  bool allocatesArrays() const override { return false; }
  bool addressesDeviceMemory() const override { return true; }
  bool hasThreadPool() const override { return false; }
  bool canCallForeignFunctions() const override { return true; }
  bool resolvesSymbolsAtLoad() const override { return false; }
  bool printsThroughDevicePrintf() const override { return true; }
  bool formatsMessagesAtRunTime() const override { return false; }
  unsigned dwarfVersion() const override { return 2; }
  /// A kernel cannot return a value: results are written into array arguments.
  void checkEntry(const TypedFunction &root) const override;
  /// A kernel: `void <root>_kernel(args...)` with every argument in memory form, calling the
  /// root and dropping its status (the device runtime records an exception for debug
  /// launches). A device function: the root itself, made external. A C-ABI device function:
  /// `T <cSymbol>(args...)` calling the root and returning its result (its status dropped).
  std::string defineEntry(ModuleLowering &lowering, TypedFunction &root,
                          const std::vector<TypedFunction *> &variants) const override;
  /// libdevice's function (`sin` gives `__nv_sin`), or under fastmath=True the fast float32
  /// variant numba-cuda uses where there is one (`sinf` gives `__nv_fast_sinf`).
  std::string mathFunctionName(const std::string &libmName) const override;
  /// Marks the kernel, defines the runtime calls for the device, renames libm calls to
  /// libdevice's and links the functions used, internalises everything but the kernel and
  /// what the host reads, and applies fastmath=True to every function.
  void finalizeModule(llvm::Module &module, const std::string &entryName) const override;
  /// The pipeline at the job's level (opt=False gives 0, the default is 3, as with NVVM).
  void optimize(llvm::Module &module, StageTimes *times) const override;
  /// The PTX text.
  std::string emitAssembly(llvm::Module &module) const override;

  int optimizationLevel() const;

private:
  int computeCapability;
  CompileOptions options;
  Entry entry;
  std::string cSymbol;
  LeasedTargetMachine machine;
};

namespace cuda {
/// Where libdevice.10.bc is: set explicitly, else CUDA_HOME, CUDA_PATH, /usr/local/cuda.
void setLibdevicePath(const std::string &path);
std::string libdevicePath();
} // namespace cuda

} // namespace taipan
