// DeviceLibrary.h - Runtime functions a GPU thread gets from code written in Python
// (taipan/cuda/device_runtime.py: the unary cmath functions, cmath.rect), linked as LLVM IR.
#pragma once

#include <functional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace taipan::cuda {

/// The LLVM IR text of a module defining `symbol`, a C-ABI device function, compiled for
/// `computeCapability`; empty when the source has no such function. The bindings set it (to
/// taipan.cuda.device_runtime's compiler), so that libtaipan holds no Python.
using DeviceLibrarySource =
    std::function<std::string(const std::string &symbol, int computeCapability)>;

void setDeviceLibrarySource(DeviceLibrarySource source);

/// Defines the runtime calls of `module` that the device library implements
/// (taipan_cmath_unary, taipan_cmath_rect: a status, the complex result written through the
/// last argument) as adapters over the library's functions, whose IR is linked in: the status
/// they return as a float (0, 1 for a domain error, 2 for a range error) becomes taipan's
/// exception id. Throws an Unsupported CompileError when no source is set.
void defineDeviceLibraryFunctions(llvm::Module &module, int computeCapability);

} // namespace taipan::cuda
