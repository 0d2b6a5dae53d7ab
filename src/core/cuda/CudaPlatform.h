// CUDA as a platform of the compile pipeline: kernels and device functions as PTX for one compute
// capability. Its code is delivered as text; the driver (CudaDriver) loads it at launch.
#pragma once

#include "target/Platform.h"

namespace taipan {

/// NVPTX for the description's compute capability. Registered as "cuda"
/// (compiler/Platforms.cpp).
class CudaPlatform final : public Platform {
public:
  /// CudaTarget with a kernel (EntryKind::Kernel), a device function
  /// (EntryKind::DeviceFunction) or a C-ABI device function (EntryKind::CDeviceFunction) as
  /// its entry point.
  std::unique_ptr<Target> makeTarget(const TargetDescription &description,
                                     const CompileOptions &options) const override;
  std::string assemblyName() const override { return "PTX"; }
};

} // namespace taipan
