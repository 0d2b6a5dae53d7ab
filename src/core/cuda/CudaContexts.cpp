// CudaContexts.cpp - Devices and primary contexts: selection, the context made current on each
// calling thread, device queries, and the release of every context at closing.

#include "cuda/CudaContexts.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/CudaLibrary.h"

namespace taipan::cuda {

const CudaApi *CudaContexts::api() const { return library.api(); }

CudaContexts::~CudaContexts() {
  // Contexts are retained only once the library is usable, so an empty list needs no driver.
  const CudaApi *api = primaryContexts.empty() ? nullptr : library.api();
  for (size_t ordinal = 0; ordinal < primaryContexts.size(); ++ordinal) {
    CUdevice device = 0;
    if (primaryContexts[ordinal] && api->cuDeviceGet.function &&
        api->cuDeviceGet.function(&device, static_cast<int>(ordinal)) == CUDA_SUCCESS &&
        api->cuDevicePrimaryCtxRelease.function)
      api->cuDevicePrimaryCtxRelease.function(device);
  }
}

CUdevice CudaContexts::deviceHandle(int ordinal) {
  library.requireAvailable();
  int devices = library.deviceCount();
  if (ordinal < 0 || ordinal >= devices)
    throw CudaError(CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
                    "there is no CUDA device " + std::to_string(ordinal) + " (" +
                        std::to_string(devices) + (devices == 1 ? " device" : " devices") +
                        ", numbered from 0)");
  CUdevice device = 0;
  api()->call(api()->cuDeviceGet, &device, ordinal);
  return device;
}

void *&CudaContexts::slotOf(int ordinal) {
  if (primaryContexts.empty())
    primaryContexts.assign(static_cast<size_t>(library.deviceCount()), nullptr);
  return primaryContexts[static_cast<size_t>(ordinal)];
}

void *CudaContexts::selectLocked(int ordinal) {
  CUdevice device = deviceHandle(ordinal);
  void *&context = slotOf(ordinal);
  if (!context) {
    CUcontext retained = nullptr;
    api()->call(api()->cuDevicePrimaryCtxRetain, &retained, device);
    context = retained;
  }
  selectedDevice.store(ordinal, std::memory_order_release);
  currentContext.store(context, std::memory_order_release);
  return context;
}

void CudaContexts::selectDevice(int ordinal) {
  library.requireAvailable();
  void *context;
  {
    std::lock_guard<std::mutex> lock(contextMutex);
    context = selectLocked(ordinal);
  }
  api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(context));
}

void *CudaContexts::ensureContext() {
  library.requireAvailable();
  void *context = currentContext.load(std::memory_order_acquire);
  if (!context) {
    std::lock_guard<std::mutex> lock(contextMutex);
    context = currentContext.load(std::memory_order_acquire);
    if (!context)
      context = selectLocked(0);
  }
  // Asking the driver, rather than remembering per thread, notices when other code in the
  // process (CuPy, PyTorch) made another context current on this thread.
  CUcontext bound = nullptr;
  api()->call(api()->cuCtxGetCurrent, &bound);
  if (bound != context)
    api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(context));
  return context;
}

int CudaContexts::currentDevice() {
  ensureContext();
  return selectedDevice.load(std::memory_order_acquire);
}

int CudaContexts::pointerDevice(uint64_t address) {
  ensureContext();
  constexpr int PointerAttributeDeviceOrdinal = 9; // CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
  int ordinal = 0;
  api()->call(api()->cuPointerGetAttribute, static_cast<void *>(&ordinal),
              PointerAttributeDeviceOrdinal, CUdeviceptr{address});
  return ordinal;
}

std::string CudaContexts::deviceName(int ordinal) {
  CUdevice device = deviceHandle(ordinal);
  char name[256] = {};
  api()->call(api()->cuDeviceGetName, name, static_cast<int>(sizeof(name)), device);
  return name;
}

std::string CudaContexts::deviceUuid(int ordinal) {
  CUdevice device = deviceHandle(ordinal);
  unsigned char bytes[16] = {};
  api()->call(api()->cuDeviceGetUuid, bytes, device);
  static const char digits[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      text += '-';
    text += digits[bytes[i] >> 4];
    text += digits[bytes[i] & 15];
  }
  return text;
}

std::pair<int, int> CudaContexts::computeCapability(int ordinal) {
  return {deviceAttribute(ordinal, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
          deviceAttribute(ordinal, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
}

int CudaContexts::deviceAttribute(int ordinal, int attribute) {
  CUdevice device = deviceHandle(ordinal);
  int value = 0;
  api()->call(api()->cuDeviceGetAttribute, &value, attribute, device);
  return value;
}

void *CudaContexts::contextOf(int ordinal) {
  std::lock_guard<std::mutex> lock(contextMutex);
  void *&context = slotOf(ordinal);
  if (!context) {
    CUcontext retained = nullptr;
    api()->call(api()->cuDevicePrimaryCtxRetain, &retained, deviceHandle(ordinal));
    context = retained;
  }
  return context;
}

void *CudaContexts::boundContext() {
  library.requireAvailable();
  CUcontext bound = nullptr;
  api()->call(api()->cuCtxGetCurrent, &bound);
  return bound;
}

void CudaContexts::bindContext(void *context) {
  library.requireAvailable();
  api()->call(api()->cuCtxSetCurrent, static_cast<CUcontext>(context));
}

bool CudaContexts::boundContextIsPrimary() {
  void *bound = boundContext();
  if (!bound)
    return true;
  CUdevice device = 0;
  api()->call(api()->cuCtxGetDevice, &device);
  int count = library.deviceCount();
  for (int ordinal = 0; ordinal < count; ++ordinal)
    if (deviceHandle(ordinal) == device)
      return contextOf(ordinal) == bound;
  return false;
}

void CudaContexts::releaseAll() {
  std::lock_guard<std::mutex> lock(contextMutex);
  currentContext.store(nullptr, std::memory_order_release);
  selectedDevice.store(-1, std::memory_order_release);
  epoch.fetch_add(1, std::memory_order_acq_rel);
  // Unbind our context from this thread so that nothing here goes on using a released one.
  CUcontext bound = nullptr;
  if (api()->invoke(api()->cuCtxGetCurrent, &bound) == CUDA_SUCCESS && bound) {
    for (void *context : primaryContexts)
      if (context == bound)
        api()->invoke(api()->cuCtxSetCurrent, static_cast<CUcontext>(nullptr));
  }
  // Release every context before reporting a failure, so one bad device leaks nothing else.
  CUresult firstFailure = CUDA_SUCCESS;
  for (size_t ordinal = 0; ordinal < primaryContexts.size(); ++ordinal) {
    if (!primaryContexts[ordinal])
      continue;
    primaryContexts[ordinal] = nullptr;
    CUdevice device = 0;
    CUresult result = api()->invoke(api()->cuDeviceGet, &device, static_cast<int>(ordinal));
    if (result == CUDA_SUCCESS)
      result = api()->invoke(api()->cuDevicePrimaryCtxRelease, device);
    if (result != CUDA_SUCCESS && firstFailure == CUDA_SUCCESS)
      firstFailure = result;
  }
  if (firstFailure != CUDA_SUCCESS)
    api()->fail(firstFailure, api()->cuDevicePrimaryCtxRelease.name);
}

} // namespace taipan::cuda
