// The CUDA platform: which CudaTarget a job's entry kind gets.
#include "cuda/CudaPlatform.h"

#include "cuda/CudaTarget.h"
#include "support/CompileError.h"

namespace taipan {

std::unique_ptr<Target> CudaPlatform::makeTarget(const TargetDescription &description,
                                                 const CompileOptions &options) const {
  if (description.entry == EntryKind::Kernel)
    return std::make_unique<CudaTarget>(description.computeCapability, options,
                                        CudaTarget::Entry::Kernel);
  if (description.entry == EntryKind::DeviceFunction)
    return std::make_unique<CudaTarget>(description.computeCapability, options,
                                        CudaTarget::Entry::DeviceFunction);
  if (description.entry == EntryKind::CDeviceFunction)
    return std::make_unique<CudaTarget>(description.computeCapability, options,
                                        CudaTarget::Entry::CDeviceFunction,
                                        description.entrySymbol);
  throw CompileError(CompileErrorKind::Internal,
                     "CUDA code is entered as a kernel or a device function only", {});
}

} // namespace taipan
