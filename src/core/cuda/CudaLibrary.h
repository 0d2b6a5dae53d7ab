// CudaLibrary.h - libcuda.so.1 opened with dlopen at first use: its function table, cuInit, the
// device count, and why CUDA is unavailable when it is.
#pragma once

#include "cuda/CudaTypes.h"

#include <memory>
#include <mutex>
#include <string>

namespace taipan::cuda {

struct CudaApi;

/// The driver library and the table of its functions (CudaApi, in CudaDriverApi.h). Nothing is
/// loaded until the first call, so importing taipan on a machine without a GPU costs nothing and
/// fails nowhere. The other pieces of the driver (contexts, memory, modules, streams) reach the
/// driver's functions through api() after requireAvailable().
class CudaLibrary {
public:
  /// A library at `libraryPath` ("libcuda.so.1", or a path), loaded at first use.
  explicit CudaLibrary(std::string libraryPath);
  ~CudaLibrary();
  CudaLibrary(const CudaLibrary &) = delete;
  CudaLibrary &operator=(const CudaLibrary &) = delete;

  /// Whether the library loaded, cuInit succeeded and there is at least one device.
  bool available();
  /// Why available() is false, in words for users; empty when it is true.
  std::string unavailableReason();
  /// The number of devices; 0 when CUDA is unavailable, which is an answer rather than a failure.
  int deviceCount();
  /// The driver's CUDA version, 1000 * major + 10 * minor (12040 for 12.4). Known even when
  /// cuInit failed, which helps explain the failure; throws only when no library loaded.
  int driverVersion();

  /// Loads the library and runs cuInit, once.
  void initialise();
  /// Throws the unavailable error (CudaError with unavailable() set) unless available().
  void requireAvailable();
  /// The driver's functions; null before initialise(), and callable only after
  /// requireAvailable().
  const CudaApi *api() const { return table.get(); }

private:
  void load();

  std::string libraryPath;
  std::once_flag initialised;
  std::unique_ptr<CudaApi> table;
  bool usable = false;
  CUresult failureCode = ErrorNoDriver;
  std::string failureReason;
  int devices = 0;
};

} // namespace taipan::cuda
