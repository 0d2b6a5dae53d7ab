// The NVPTX back end: turns a lowered module into PTX for one GPU architecture, after giving
// the runtime calls device definitions and linking the libdevice functions it uses.
#pragma once

#include "syntax/SyntaxTree.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace taipan::cuda {

/// The attribute lowering gives declarations of foreign device functions (cuda.declare_device):
/// they are neither libdevice's nor taipan's, and stay external for the driver's linker.
inline constexpr const char *ForeignFunctionAttribute = "taipan-foreign";

/// Which GPU code is compiled for, and how: the job's options (those of the function compiled,
/// parsed once) decide the module-wide settings (fastmath, opt, max_registers).
struct PtxTarget {
  int computeCapability = 90; ///< 90 for sm_90
  CompileOptions options;

  /// opt=False gives 0; the default is 3, as with NVVM.
  int optimizationLevel() const {
    return options.optimizationLevel < 0 ? 3 : options.optimizationLevel;
  }
};

/// The fast libdevice variant numba-cuda uses under fastmath=True for a float32 libm function
/// (`sinf` gives `__nv_fast_sinf`), or "" when it has none.
std::string fastLibdeviceName(const std::string &libmName);

/// The PTX ISA version to use for an architecture (and LLVM 19's limits).
std::string ptxVersionFeature(int computeCapability);

/// Where libdevice.10.bc is: set explicitly, else CUDA_HOME, CUDA_PATH, /usr/local/cuda.
void setLibdevicePath(const std::string &path);
std::string libdevicePath();

/// Prepares an empty module for NVPTX (triple and data layout).
void prepareModule(llvm::Module &module);

/// Marks `entryNames` as kernels (or, without `entriesAreKernels`, keeps them as visible device
/// functions), links libdevice, internalises everything else, optimises, and returns the PTX
/// text; `optimizedIR`, when given, receives the optimised module as LLVM IR text. Throws
/// CompileError for code the GPU cannot run.
std::string compileToPtx(llvm::Module &module, const std::vector<std::string> &entryNames,
                         const PtxTarget &target, bool entriesAreKernels = true,
                         std::string *optimizedIR = nullptr);

} // namespace taipan::cuda
