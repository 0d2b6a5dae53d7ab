// CudaDriver.h - The process's CUDA driver as one object: the library, contexts, memory,
// modules and streams pieces over one libcuda.so.1, and what crosses them (close, synchronize).
#pragma once

#include "cuda/CudaContexts.h"
#include "cuda/CudaLibrary.h"
#include "cuda/CudaMemory.h"
#include "cuda/CudaModules.h"
#include "cuda/CudaStreams.h"
#include "cuda/CudaTypes.h"

#include <string>

namespace taipan::cuda {

/// The CUDA driver behind @cuda.jit, in pieces that callers use directly: library() (loading,
/// availability), contexts() (devices), memory(), modules() and streams() (launches, streams,
/// events). Nothing is loaded until the first call; every method that needs CUDA throws
/// CudaError, with unavailable() set, when it cannot be had. The pieces share the library and
/// the contexts, so one driver is one set of contexts, pools and deferred frees.
class CudaDriver {
public:
  /// The instance taipan uses, loading libcuda.so.1 or the library that the TAIPAN_CUDA_DRIVER
  /// environment variable names (as NUMBA_CUDA_DRIVER does for Numba).
  static CudaDriver &get();

  /// A driver over the library at `libraryPath`, loaded at first use. For tests, which load a
  /// missing or stub library to see how failures read; everything else uses get(). A library
  /// stays loaded, and answers later dlopen calls for its soname: load the toolkit's stub (soname
  /// libcuda.so.1) in a child process, or get() finds it instead of the real driver.
  explicit CudaDriver(std::string libraryPath);
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  /// Loading the library, and whether CUDA is available.
  CudaLibrary &library() { return cudaLibrary; }
  /// Devices and their primary contexts.
  CudaContexts &contexts() { return cudaContexts; }
  /// Device and page-locked host memory, copies.
  CudaMemory &memory() { return cudaMemory; }
  /// Loading and linking code, kernels and globals.
  CudaModules &modules() { return cudaModules; }
  /// Launches, streams and events.
  CudaStreams &streams() { return cudaStreams; }

  /// Waits for all work of the current device, then frees what memory().freeDeferred() held.
  void synchronize();
  /// Releases the primary contexts this driver retained, after freeing the memory it holds
  /// (deferred frees, staging buffers, pools); the next call that needs a context selects
  /// device 0 again. Memory, modules, streams and events of the contexts are gone.
  void closeAll();
  /// Starts or stops the profiler's collection for the current context (cuda.profiling()).
  void setProfiling(bool on);

private:
  // In this order: each piece refers to those above it, and is destroyed before them.
  CudaLibrary cudaLibrary;
  CudaContexts cudaContexts{cudaLibrary};
  CudaMemory cudaMemory{cudaLibrary, cudaContexts};
  CudaModules cudaModules{cudaLibrary, cudaContexts};
  CudaStreams cudaStreams{cudaLibrary, cudaContexts};
};

} // namespace taipan::cuda
