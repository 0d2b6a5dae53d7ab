// CudaModules.h - Code in a context through the CUDA driver: loading PTX or cubin images, the
// driver's linker joining several inputs, and the kernels and globals of a loaded module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace taipan::cuda {

class CudaLibrary;
class CudaContexts;
struct CudaApi;

/// One input of CudaModules::link(): a file, or bytes already in memory, and what it holds.
struct LinkInput {
  /// cuda.h's CUjitInputType numbering.
  enum class Kind : int { Cubin = 0, Ptx = 1, Fatbinary = 2, Object = 3, Library = 4 };
  Kind kind = Kind::Ptx;
  /// The file to read, or for bytes the name the linker's messages use.
  std::string name;
  /// The bytes; empty means read the file `name`.
  std::string data;
};

/// Modules of the current context and what they hold. Every call makes the selected device's
/// context current first; modules and functions travel as void *, so callers need no CUDA
/// header, and are gone after CudaDriver::closeAll() (CudaContexts::contextEpoch() counts).
class CudaModules {
public:
  CudaModules(CudaLibrary &library, CudaContexts &contexts)
      : library(library), contexts(contexts) {}
  CudaModules(const CudaModules &) = delete;
  CudaModules &operator=(const CudaModules &) = delete;

  /// Loads PTX, or a cubin from link(), into the current context, limiting a kernel to
  /// `maxRegisters` registers when positive (max_registers). On failure the CudaError's
  /// message carries the JIT's error log; `log`, when given, receives the JIT's info log
  /// (registers, spills) or, on failure, its error log.
  void *loadModule(const std::string &ptx, int maxRegisters = 0, std::string *log = nullptr);
  /// Links `inputs` into one cubin for the current device with the driver's linker, which
  /// resolves calls between them (a kernel's PTX calling a foreign device function). A failed
  /// link throws CudaError whose message carries the linker's log; `log`, when given, receives
  /// the info log. loadModule() loads the result. A nonzero `target` (a CUjit_target) links
  /// for it rather than for the device, as inputs built for an arch-specific target need.
  std::string link(const std::vector<LinkInput> &inputs, int maxRegisters = 0,
                   std::string *log = nullptr, unsigned target = 0);
  /// Unloads a module from loadModule(); null is ignored.
  void unloadModule(void *module);
  /// The kernel `name` of a loaded module; CUDA_ERROR_NOT_FOUND when it has none.
  void *getFunction(void *module, const std::string &name);
  /// The device address of a module's global variable, and its size in `*size` when given.
  uint64_t getGlobal(void *module, const std::string &name, size_t *size = nullptr);
  /// A CU_FUNC_ATTRIBUTE_* value of a kernel.
  int functionAttribute(void *function, int attribute);
  /// Sets a CUfunction_attribute of a loaded kernel (the preferred shared memory carveout).
  void setFunctionAttribute(void *function, int attribute, int value);
  /// Lets a kernel use `bytes` of dynamic shared memory; more than 48 KiB needs this opt-in.
  void setMaxDynamicSharedMemory(void *function, int bytes);

private:
  /// The library's function table.
  const CudaApi *api() const;

  CudaLibrary &library;
  CudaContexts &contexts;
};

} // namespace taipan::cuda
