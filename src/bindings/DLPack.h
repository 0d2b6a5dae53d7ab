// DLPack exchange for taipan._core: capsules made from device arrays (__dlpack__) and device
// memory taken from other libraries' capsules (cuda.from_dlpack), with DLPack's own structs.
#pragma once

#include <nanobind/nanobind.h>

namespace taipan::bindings {

/// Registers dlpack_export, dlpack_import and the DLPackTensor holder on the module.
void defineDLPackBindings(nanobind::module_ &module);

} // namespace taipan::bindings
