// What a compile job is compiled for: the platform (by its registered name), its architecture
// (a CPU's name and features, the host's by default; a GPU's compute capability), and the kind of
// entry point the code is called through, which fixes its ABI. No LLVM types here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace taipan {

/// How a job's code is entered, which fixes its ABI. The numbers are part of every job hash
/// (compiler/JobHash), and so of the disk cache's keys: never renumber, only append.
enum class EntryKind : int {
  /// `i32 entry(ptr arguments, ptr result)`: each argument read through a pointer in the
  /// `arguments` array (memory form); what the dispatcher calls from Python.
  Function = 0,
  /// A GPU kernel: `void`, launched with one pointer per argument.
  Kernel = 1,
  /// A GPU device function compiled on its own (compile_ptx(device=True)), kept visible.
  DeviceFunction = 2,
  /// NumPy's inner-loop signature (@vectorize): `void loop(args, dimensions, steps, data)`.
  UfuncLoop = 3,
  /// NumPy's generalized-ufunc loop (@guvectorize): operands are array views.
  GufuncLoop = 4,
  /// A native C signature (@cfunc), for C code to call directly.
  Cfunc = 5,
  /// A GPU device function with the C ABI (numba-cuda's compile(abi='c')): `T name(args...)`
  /// returning its value, named TargetDescription::entrySymbol.
  CDeviceFunction = 6,
};

/// The built-in descriptions by name, for code that compiles for one of them (the bindings, the
/// C++ tests): `CompileJob{source, types, nullptr, JobTarget::UfuncLoop}`.
enum class JobTarget { Cpu, CudaKernel, CudaDevice, UfuncLoop, GufuncLoop, Cfunc, CudaDeviceCAbi };

/// Where and through what a job's code runs. The platform (its Platform, registered under its
/// name in compiler/Platforms.cpp) turns a description into the Target that lowering asks; the
/// description itself decides nothing.
struct TargetDescription {
  TargetDescription() = default;
  /// A built-in description; `computeCapability` is used by the CUDA ones (90 for sm_90).
  TargetDescription(JobTarget preset, int computeCapability = 90)
      : platform(isCuda(preset) ? "cuda" : "cpu"), entry(entryOf(preset)),
        computeCapability(computeCapability) {}

  /// The registered platform: "cpu" (the host, through the process's JIT) or "cuda" (PTX).
  std::string platform = "cpu";
  EntryKind entry = EntryKind::Function;
  /// GPU platforms: the architecture, 90 for sm_90.
  int computeCapability = 90;
  /// The CPU platform: the CPU code is generated for, as LLVM names it ("generic", "skylake");
  /// none: the host's (taipan.config.CPU_NAME, Numba's NUMBA_CPU_NAME, sets it).
  std::optional<std::string> cpuName;
  /// The CPU platform: its features as LLVM lists them ("+avx2,-avx512f"; empty: the named
  /// CPU's own); none: the host's (taipan.config.CPU_FEATURES). Both enter the job hash
  /// through the CPU target's identity.
  std::optional<std::string> cpuFeatures;
  /// GufuncLoop: for each operand (inputs, then outputs), the indices of its core dimensions
  /// among the layout's distinct names ("(m,n),(n,p)->(m,p)" gives {0,1}, {1,2}, {0,2}).
  std::vector<std::vector<int>> coreDimensions;
  /// GufuncLoop: the layout's distinct core sizes when the loop is a copy for calls of those
  /// sizes only (runtime/GufuncSpecialization); empty: the loop reads them at run time.
  std::vector<int64_t> coreSizes;
  /// CDeviceFunction: the name of the C-ABI function (part of the target's identity).
  std::string entrySymbol;

private:
  static bool isCuda(JobTarget preset) {
    return preset == JobTarget::CudaKernel || preset == JobTarget::CudaDevice ||
           preset == JobTarget::CudaDeviceCAbi;
  }
  static EntryKind entryOf(JobTarget preset) {
    switch (preset) {
    case JobTarget::Cpu:
      return EntryKind::Function;
    case JobTarget::CudaKernel:
      return EntryKind::Kernel;
    case JobTarget::CudaDevice:
      return EntryKind::DeviceFunction;
    case JobTarget::UfuncLoop:
      return EntryKind::UfuncLoop;
    case JobTarget::GufuncLoop:
      return EntryKind::GufuncLoop;
    case JobTarget::Cfunc:
      return EntryKind::Cfunc;
    case JobTarget::CudaDeviceCAbi:
      return EntryKind::CDeviceFunction;
    }
    return EntryKind::Function;
  }
};

} // namespace taipan
