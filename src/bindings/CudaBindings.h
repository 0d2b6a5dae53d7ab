// The CUDA side of taipan._core: the driver (devices, memory, modules) and kernel launches,
// with errors raised as Python exceptions carrying the driver's reason.
#pragma once

#include <nanobind/nanobind.h>

namespace taipan::bindings {

/// Registers the cuda_* functions and the DeviceBuffer class on the module.
void defineCudaBindings(nanobind::module_ &module);

} // namespace taipan::bindings
