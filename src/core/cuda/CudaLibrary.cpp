// CudaLibrary.cpp - The CUDA driver API resolved from libcuda.so.1 with dlopen and dlsym, so the
// build needs no CUDA library and a machine without a GPU gets an explanation, not a link error.

#include "cuda/CudaLibrary.h"
#include "cuda/CudaDriverApi.h"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdlib>

namespace taipan::cuda {

namespace {

/// Set in a child of fork() made after the driver was initialised: the driver's state is the
/// parent's, and every CUDA call of the child would fail obscurely (or hang), so each is refused
/// with the reason, as numba-cuda refuses them.
std::atomic<bool> forkedAfterInitialisation{false};

void markForked() { forkedAfterInitialisation.store(true, std::memory_order_relaxed); }

} // namespace

std::string CudaError::describe(int code, const char *name, const char *text) {
  if (!name)
    return "CUDA error " + std::to_string(code) + (text ? std::string(": ") + text : "");
  if (!text)
    return name;
  return std::string(name) + ": " + text;
}

CudaLibrary::CudaLibrary(std::string libraryPath) : libraryPath(std::move(libraryPath)) {}

// The library stays loaded: unloading a driver whose threads may still run is unsafe, and other
// code in the process may hold it too.
CudaLibrary::~CudaLibrary() = default;

void CudaLibrary::initialise() {
  std::call_once(initialised, [this] { load(); });
}

void CudaLibrary::load() {
  table = std::make_unique<CudaApi>();
  dlerror();
  table->library = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!table->library) {
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
  table->resolveAll();
  if (!table->cuInit.function) {
    failureCode = ErrorNoDriver;
    failureReason = "no CUDA driver found (" + libraryPath + " has no cuInit)";
    return;
  }
  if (table->cuDriverGetVersion.function)
    table->cuDriverGetVersion.function(&table->version);

  std::string visibleDevices;
  if (const char *visible = std::getenv("CUDA_VISIBLE_DEVICES"))
    visibleDevices = std::string(" (CUDA_VISIBLE_DEVICES is '") + visible + "')";

  CUresult result = table->cuInit.function(0);
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    // Name the file that answered, which is the thing to fix.
    Dl_info info{};
    std::string file = libraryPath;
    if (dladdr(reinterpret_cast<void *>(table->cuInit.function), &info) && info.dli_fname)
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
    failureReason = "the CUDA driver failed to initialise: " + table->describe(result);
    if (table->version)
      failureReason += " (driver for CUDA " + versionText(table->version) + ")";
    return;
  }

  result = table->cuDeviceGetCount.function ? table->cuDeviceGetCount.function(&devices)
                                            : CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER;
  if (result != CUDA_SUCCESS) {
    failureCode = result;
    failureReason = "the CUDA driver could not count devices: " + table->describe(result);
    devices = 0;
    return;
  }
  if (devices <= 0) {
    failureCode = CUDA_ERROR_NO_DEVICE;
    failureReason = "no CUDA-capable device is detected" + visibleDevices;
    devices = 0;
    return;
  }
  usable = true;
  pthread_atfork(nullptr, nullptr, markForked);
}

void CudaLibrary::requireAvailable() {
  initialise();
  if (forkedAfterInitialisation.load(std::memory_order_relaxed))
    throw CudaError(CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
                    "CUDA initialized before forking: a process made by fork() cannot use the "
                    "CUDA driver its parent had initialised; use the 'spawn' or 'forkserver' "
                    "start method of multiprocessing");
  if (usable)
    return;
  const char *name = failureCode == ErrorNoDriver ? nullptr : table->errorName(failureCode);
  throw CudaError(failureCode, name ? name : "", failureReason, /*unavailable=*/true);
}

bool CudaLibrary::available() {
  initialise();
  return usable;
}

std::string CudaLibrary::unavailableReason() {
  initialise();
  return usable ? std::string() : failureReason;
}

int CudaLibrary::deviceCount() {
  initialise();
  return usable ? devices : 0;
}

int CudaLibrary::driverVersion() {
  initialise();
  // The toolkit's stub answers nothing, not even its version.
  if (table->version == 0)
    requireAvailable();
  return table->version;
}

} // namespace taipan::cuda
