// CudaDriver.cpp - The process's driver instance, and the two operations that cross its pieces:
// synchronizing a device (then freeing deferred memory) and closing every context.

#include "cuda/CudaDriver.h"
#include "cuda/CudaDriverApi.h"

#include <cstdlib>

namespace taipan::cuda {

namespace {

std::string defaultLibraryPath() {
  const char *path = std::getenv("TAIPAN_CUDA_DRIVER");
  return path && *path ? path : "libcuda.so.1";
}

} // namespace

CudaDriver &CudaDriver::get() {
  // Never destroyed: at process exit the driver may already be shutting down, and releasing
  // contexts then can crash; the operating system reclaims everything anyway.
  static CudaDriver *instance = new CudaDriver(defaultLibraryPath());
  return *instance;
}

CudaDriver::CudaDriver(std::string libraryPath) : cudaLibrary(std::move(libraryPath)) {}

void CudaDriver::synchronize() {
  cudaContexts.ensureContext();
  const CudaApi *api = cudaLibrary.api();
  api->call(api->cuCtxSynchronize);
  cudaMemory.releasePending(false);
}

void CudaDriver::setProfiling(bool on) {
  cudaContexts.ensureContext();
  const CudaApi *api = cudaLibrary.api();
  if (on)
    api->call(api->cuProfilerStart);
  else
    api->call(api->cuProfilerStop);
}

void CudaDriver::closeAll() {
  if (!cudaLibrary.available())
    return;
  cudaMemory.releaseAll();
  cudaContexts.releaseAll();
}

} // namespace taipan::cuda
