// CudaContexts.h - Devices and their primary contexts: which device is selected, making its
// context current on the calling thread, device queries, and releasing the contexts.
#pragma once

#include "cuda/CudaTypes.h"

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace taipan::cuda {

class CudaLibrary;
struct CudaApi;

/// The devices' primary contexts, as Numba and the runtime API use, so memory and modules are
/// shared with any library in the process that uses them too. The selected device is
/// process-wide; each call that needs a context first makes that device's primary context
/// current on the calling thread (ensureContext()), so any thread may call any method of any
/// piece of the driver.
class CudaContexts {
public:
  explicit CudaContexts(CudaLibrary &library) : library(library) {}
  /// Releases the primary contexts retained.
  ~CudaContexts();
  CudaContexts(const CudaContexts &) = delete;
  CudaContexts &operator=(const CudaContexts &) = delete;

  /// Makes device `ordinal` the current device: retains its primary context and makes it
  /// current on this thread. Other threads switch to it at their next call.
  void selectDevice(int ordinal);
  /// The current device's ordinal, selecting device 0 if none was selected.
  int currentDevice();
  /// The selected device's ordinal without a driver call (launch paths check it per call); -1
  /// before the first selection.
  int selectedOrdinal() const { return selectedDevice.load(std::memory_order_acquire); }
  /// Counts releaseAll() calls: handles (modules, functions) from an earlier count are gone.
  unsigned contextEpoch() const { return epoch.load(std::memory_order_acquire); }
  /// The ordinal of the device whose memory holds `address` (device or managed memory).
  int pointerDevice(uint64_t address);
  /// The device's marketing name ("NVIDIA H100 80GB HBM3").
  std::string deviceName(int ordinal);
  /// The device's UUID as nvidia-smi prints it ("GPU-" and 32 hex digits in 8-4-4-4-12 groups).
  std::string deviceUuid(int ordinal);
  /// (major, minor) compute capability.
  std::pair<int, int> computeCapability(int ordinal);
  /// A CU_DEVICE_ATTRIBUTE_* value of the device.
  int deviceAttribute(int ordinal, int attribute);

  /// Makes the current device's primary context current on this thread (selecting device 0 if
  /// none was selected); returns it. Throws the unavailable error without CUDA.
  void *ensureContext();
  /// The primary context of `ordinal`, retained if it is not yet, without selecting it.
  void *contextOf(int ordinal);
  /// The context current on this thread as the driver tells it (null when none), without making
  /// one current: what `with cuda.gpus[n]:` restores when it ends.
  void *boundContext();
  /// Makes `context` (null: none) current on this thread, as boundContext() gave it.
  void bindContext(void *context);
  /// Whether the context bound on this thread is a device's primary context (or none is bound);
  /// false for a context another library created with cuCtxCreate.
  bool boundContextIsPrimary();
  /// The driver's handle of device `ordinal`, after a range check with a readable error.
  CUdevice deviceHandle(int ordinal);
  /// Releases every primary context retained; the next call that needs a context selects
  /// device 0 again. Call only with CUDA available (CudaDriver::closeAll() checks).
  void releaseAll();

private:
  /// Retains `ordinal`'s primary context if needed and makes it the current device's.
  /// Needs contextMutex held.
  void *selectLocked(int ordinal);
  /// The slot of `ordinal`'s retained context; needs contextMutex held and a valid ordinal.
  void *&slotOf(int ordinal);

  /// The library's function table.
  const CudaApi *api() const;

  CudaLibrary &library;
  std::mutex contextMutex;
  std::atomic<unsigned> epoch{0};
  /// Primary contexts retained so far, by ordinal (null where not retained); sized to the
  /// device count at the first retain.
  std::vector<void *> primaryContexts;
  std::atomic<int> selectedDevice{-1};
  std::atomic<void *> currentContext{nullptr};
};

} // namespace taipan::cuda
