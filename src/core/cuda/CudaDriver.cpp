// CudaDriver.cpp - The CUDA driver API resolved from libcuda.so.1 with dlopen and dlsym, so the
// build needs no CUDA library and a machine without a GPU gets an explanation, not a link error.

#include "cuda/CudaDriver.h"
#include "cuda/CudaDriverApi.h"
#include "cuda/StagedCopy.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <iterator>

namespace taipan::cuda {

namespace {

std::string defaultLibraryPath() {
  const char *path = std::getenv("TAIPAN_CUDA_DRIVER");
  return path && *path ? path : "libcuda.so.1";
}

} // namespace

std::string CudaError::describe(int code, const char *name, const char *text) {
  if (!name)
    return "CUDA error " + std::to_string(code) + (text ? std::string(": ") + text : "");
  if (!text)
    return name;
  return std::string(name) + ": " + text;
}

CudaDriver &CudaDriver::get() {
  // Never destroyed: at process exit the driver may already be shutting down, and releasing
  // contexts then can crash; the operating system reclaims everything anyway.
  static CudaDriver *instance = new CudaDriver(defaultLibraryPath());
  return *instance;
}

CudaDriver::CudaDriver(std::string libraryPath) : libraryPath(std::move(libraryPath)) {}

CudaDriver::~CudaDriver() {
  // The library stays loaded: unloading a driver whose threads may still run is unsafe, and
  // other code in the process may hold it too.
  if (!usable)
    return;
  for (size_t ordinal = 0; ordinal < primaryContexts.size(); ++ordinal) {
    CUdevice device = 0;
    if (primaryContexts[ordinal] && api->cuDeviceGet.function &&
        api->cuDeviceGet.function(&device, static_cast<int>(ordinal)) == CUDA_SUCCESS &&
        api->cuDevicePrimaryCtxRelease.function)
      api->cuDevicePrimaryCtxRelease.function(device);
  }
}

void CudaDriver::initialise() {
  std::call_once(initialised, [this] { load(); });
}

void CudaDriver::load() {
  api = std::make_unique<Api>();
  dlerror();
  api->library = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api->library) {
    // dlerror repeats the path first; the message names it already.
    const char *error = dlerror();
    std::string detail = error ? error : "unknown error";
    if (detail.rfind(libraryPath + ": ", 0) == 0)
      detail.erase(0, libraryPath.size() + 2);
    failureCode = ErrorNoDriver;
    failureReason =
        "no CUDA driver found (" + libraryPath + " could not be loaded: " + detail + ")";
    return;
  }
  api->resolveAll();
  if (!api->cuInit.function) {
    failureCode = ErrorNoDriver;
    failureReason = "no CUDA driver found (" + libraryPath + " has no cuInit)";
    return;
  }
  if (api->cuDriverGetVersion.function)
    api->cuDriverGetVersion.function(&api->version);

  std::string visibleDevices;
  if (const char *visible = std::getenv("CUDA_VISIBLE_DEVICES"))
    visibleDevices = std::string(" (CUDA_VISIBLE_DEVICES is '") + visible + "')";

  CUresult result = api->cuInit.function(0);
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    // Name the file that answered, which is the thing to fix.
    Dl_info info{};
    std::string file = libraryPath;
    if (dladdr(reinterpret_cast<void *>(api->cuInit.function), &info) && info.dli_fname)
      file = info.dli_fname;
    failureCode = result;
    failureReason = "no CUDA driver found (" + file +
                    " is the CUDA toolkit's stub library, not the NVIDIA driver's libcuda)";
    return;
  }
  if (result == CUDA_ERROR_NO_DEVICE) {
    failureCode = result;
    failureReason = "no CUDA-capable device is detected" + visibleDevices;
    return;
  }
  if (result != CUDA_SUCCESS) {
    failureCode = result;
    failureReason = "the CUDA driver failed to initialise: " + api->describe(result);
    if (api->version)
      failureReason += " (driver for CUDA " + versionText(api->version) + ")";
    return;
  }

  result = api->cuDeviceGetCount.function ? api->cuDeviceGetCount.function(&devices)
                                          : CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER;
  if (result != CUDA_SUCCESS) {
    failureCode = result;
    failureReason = "the CUDA driver could not count devices: " + api->describe(result);
    devices = 0;
    return;
  }
  if (devices <= 0) {
    failureCode = CUDA_ERROR_NO_DEVICE;
    failureReason = "no CUDA-capable device is detected" + visibleDevices;
    devices = 0;
    return;
  }
  primaryContexts.assign(static_cast<size_t>(devices), nullptr);
  usable = true;
}

void CudaDriver::requireAvailable() {
  initialise();
  if (usable)
    return;
  const char *name = failureCode == ErrorNoDriver ? nullptr : api->errorName(failureCode);
  throw CudaError(failureCode, name ? name : "", failureReason, /*unavailable=*/true);
}

bool CudaDriver::available() {
  initialise();
  return usable;
}

std::string CudaDriver::unavailableReason() {
  initialise();
  return usable ? std::string() : failureReason;
}

int CudaDriver::deviceCount() {
  initialise();
  return usable ? devices : 0;
}

int CudaDriver::driverVersion() {
  initialise();
  // The toolkit's stub answers nothing, not even its version.
  if (api->version == 0)
    requireAvailable();
  return api->version;
}

CUdevice CudaDriver::deviceHandle(int ordinal) {
  requireAvailable();
  if (ordinal < 0 || ordinal >= devices)
    throw CudaError(CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
                    "there is no CUDA device " + std::to_string(ordinal) + " (" +
                        std::to_string(devices) + (devices == 1 ? " device" : " devices") +
                        ", numbered from 0)");
  CUdevice device = 0;
  api->call(api->cuDeviceGet, &device, ordinal);
  return device;
}

void *CudaDriver::selectLocked(int ordinal) {
  CUdevice device = deviceHandle(ordinal);
  void *&context = primaryContexts[static_cast<size_t>(ordinal)];
  if (!context) {
    CUcontext retained = nullptr;
    api->call(api->cuDevicePrimaryCtxRetain, &retained, device);
    context = retained;
  }
  selectedDevice.store(ordinal, std::memory_order_release);
  currentContext.store(context, std::memory_order_release);
  return context;
}

void CudaDriver::selectDevice(int ordinal) {
  requireAvailable();
  void *context;
  {
    std::lock_guard<std::mutex> lock(contextMutex);
    context = selectLocked(ordinal);
  }
  api->call(api->cuCtxSetCurrent, static_cast<CUcontext>(context));
}

void *CudaDriver::ensureContext() {
  requireAvailable();
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
  api->call(api->cuCtxGetCurrent, &bound);
  if (bound != context)
    api->call(api->cuCtxSetCurrent, static_cast<CUcontext>(context));
  return context;
}

int CudaDriver::currentDevice() {
  ensureContext();
  return selectedDevice.load(std::memory_order_acquire);
}

int CudaDriver::pointerDevice(uint64_t address) {
  ensureContext();
  constexpr int PointerAttributeDeviceOrdinal = 9; // CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
  int ordinal = 0;
  api->call(api->cuPointerGetAttribute, static_cast<void *>(&ordinal),
            PointerAttributeDeviceOrdinal, CUdeviceptr{address});
  return ordinal;
}

std::string CudaDriver::deviceName(int ordinal) {
  CUdevice device = deviceHandle(ordinal);
  char name[256] = {};
  api->call(api->cuDeviceGetName, name, static_cast<int>(sizeof(name)), device);
  return name;
}

std::pair<int, int> CudaDriver::computeCapability(int ordinal) {
  return {deviceAttribute(ordinal, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
          deviceAttribute(ordinal, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
}

int CudaDriver::deviceAttribute(int ordinal, int attribute) {
  CUdevice device = deviceHandle(ordinal);
  int value = 0;
  api->call(api->cuDeviceGetAttribute, &value, attribute, device);
  return value;
}

void CudaDriver::synchronize() {
  ensureContext();
  api->call(api->cuCtxSynchronize);
  flushDeferredFrees();
}

std::pair<size_t, size_t> CudaDriver::memoryInfo() {
  ensureContext();
  // Blocks kept for reuse are free memory as far as the user is concerned.
  if (retireIdleBlocks())
    flushDeferredFrees();
  if (usesMemoryPool(selectedOrdinal())) {
    // A pool gives back only blocks whose stream-ordered frees have run.
    api->call(api->cuCtxSynchronize);
    trimMemoryPools();
  }
  size_t freeBytes = 0, totalBytes = 0;
  api->call(api->cuMemGetInfo, &freeBytes, &totalBytes);
  return {freeBytes, totalBytes};
}

void CudaDriver::closeAll() {
  initialise();
  if (!usable)
    return;
  try {
    // Another library may keep a primary context alive, and its memory with it.
    retireIdleBlocks();
    flushDeferredFrees(true);
  } catch (const CudaError &) {
    // Memory a failed context held went with it.
  }
  // Staging buffers belong to the contexts; later copies make new ones. This never throws.
  releaseStagingAreas();
  std::lock_guard<std::mutex> lock(contextMutex);
  // A pool with blocks still allocated goes once they are freed (cuMemPoolDestroy's rule).
  for (void *pool : memoryPools)
    if (pool)
      api->invoke(api->cuMemPoolDestroy, static_cast<CUmemoryPool>(pool));
  memoryPools.clear();
  memoryPoolTried.clear();
  currentContext.store(nullptr, std::memory_order_release);
  selectedDevice.store(-1, std::memory_order_release);
  epoch.fetch_add(1, std::memory_order_acq_rel);
  // Unbind our context from this thread so that nothing here goes on using a released one.
  CUcontext bound = nullptr;
  if (api->invoke(api->cuCtxGetCurrent, &bound) == CUDA_SUCCESS && bound) {
    for (void *context : primaryContexts)
      if (context == bound)
        api->invoke(api->cuCtxSetCurrent, static_cast<CUcontext>(nullptr));
  }
  // Release every context before reporting a failure, so one bad device leaks nothing else.
  CUresult firstFailure = CUDA_SUCCESS;
  for (size_t ordinal = 0; ordinal < primaryContexts.size(); ++ordinal) {
    if (!primaryContexts[ordinal])
      continue;
    primaryContexts[ordinal] = nullptr;
    CUdevice device = 0;
    CUresult result = api->invoke(api->cuDeviceGet, &device, static_cast<int>(ordinal));
    if (result == CUDA_SUCCESS)
      result = api->invoke(api->cuDevicePrimaryCtxRelease, device);
    if (result != CUDA_SUCCESS && firstFailure == CUDA_SUCCESS)
      firstFailure = result;
  }
  if (firstFailure != CUDA_SUCCESS)
    api->fail(firstFailure, api->cuDevicePrimaryCtxRelease.name);
}

void *CudaDriver::contextOf(int ordinal) {
  std::lock_guard<std::mutex> lock(contextMutex);
  void *&context = primaryContexts[static_cast<size_t>(ordinal)];
  if (!context) {
    CUcontext retained = nullptr;
    api->call(api->cuDevicePrimaryCtxRetain, &retained, deviceHandle(ordinal));
    context = retained;
  }
  return context;
}

void CudaDriver::launch(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
                        unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                        void *stream, void **arguments) {
  ensureContext();
  api->call(api->cuLaunchKernel, asFunction(function), gridX, gridY, gridZ, blockX, blockY, blockZ,
            sharedBytes, asStream(stream), arguments, static_cast<void **>(nullptr));
}

void CudaDriver::launchCooperative(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
                                   unsigned blockX, unsigned blockY, unsigned blockZ,
                                   unsigned sharedBytes, void *stream, void **arguments) {
  ensureContext();
  api->call(api->cuLaunchCooperativeKernel, asFunction(function), gridX, gridY, gridZ, blockX,
            blockY, blockZ, sharedBytes, asStream(stream), arguments);
}

int CudaDriver::maxActiveBlocksPerMultiprocessor(void *function, int blockSize,
                                                 size_t dynamicShared) {
  ensureContext();
  int blocks = 0;
  api->call(api->cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, asFunction(function),
            blockSize, dynamicShared);
  return blocks;
}

std::pair<int, int> CudaDriver::suggestedLaunchConfiguration(void *function, size_t dynamicShared) {
  ensureContext();
  int minGridSize = 0, blockSize = 0;
  api->call(api->cuOccupancyMaxPotentialBlockSize, &minGridSize, &blockSize, asFunction(function),
            static_cast<size_t (*)(int)>(nullptr), dynamicShared, 0);
  return {minGridSize, blockSize};
}

void *CudaDriver::createStream(bool nonBlocking) {
  ensureContext();
  CUstream stream = nullptr;
  api->call(api->cuStreamCreate, &stream, nonBlocking ? StreamNonBlocking : 0u);
  return stream;
}

void CudaDriver::destroyStream(void *stream) {
  if (isDefaultStream(stream))
    return;
  ensureContext();
  api->call(api->cuStreamDestroy, asStream(stream));
}

void CudaDriver::synchronizeStream(void *stream) {
  ensureContext();
  api->call(api->cuStreamSynchronize, asStream(stream));
}

bool CudaDriver::queryStream(void *stream) {
  ensureContext();
  CUresult result = api->invoke(api->cuStreamQuery, asStream(stream));
  if (result == CUDA_ERROR_NOT_READY)
    return false;
  if (result != CUDA_SUCCESS)
    api->fail(result, api->cuStreamQuery.name);
  return true;
}

void CudaDriver::launchHostFunction(void *stream, void (*function)(void *), void *data) {
  ensureContext();
  api->call(api->cuLaunchHostFunc, asStream(stream), function, data);
}

void *CudaDriver::createEvent(bool timing) {
  ensureContext();
  CUevent event = nullptr;
  api->call(api->cuEventCreate, &event, timing ? 0u : EventDisableTiming);
  return event;
}

void CudaDriver::destroyEvent(void *event) {
  if (!event)
    return;
  ensureContext();
  api->call(api->cuEventDestroy, asEvent(event));
}

void CudaDriver::recordEvent(void *event, void *stream) {
  ensureContext();
  api->call(api->cuEventRecord, asEvent(event), asStream(stream));
}

void CudaDriver::synchronizeEvent(void *event) {
  ensureContext();
  api->call(api->cuEventSynchronize, asEvent(event));
}

bool CudaDriver::queryEvent(void *event) {
  ensureContext();
  CUresult result = api->invoke(api->cuEventQuery, asEvent(event));
  if (result == CUDA_ERROR_NOT_READY)
    return false;
  if (result != CUDA_SUCCESS)
    api->fail(result, api->cuEventQuery.name);
  return true;
}

float CudaDriver::elapsedMilliseconds(void *start, void *end) {
  ensureContext();
  float milliseconds = 0;
  api->call(api->cuEventElapsedTime, &milliseconds, asEvent(start), asEvent(end));
  return milliseconds;
}

} // namespace taipan::cuda
