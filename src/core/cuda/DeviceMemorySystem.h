// DeviceMemorySystem.h - The host's side of the device memory runtime: one statistics block per
// context, pointed at by every loaded module that allocates, switched on and read by the host.
#pragma once

#include "cuda/DeviceMemoryRuntime.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace taipan::cuda {

class CudaDriver;

/// numba-cuda's `rtsys` in C++: each context (device, CudaContexts::contextEpoch()) has one
/// DeviceMemoryStatistics block in its memory, made zeroed at its first need; a loaded module
/// that defines DeviceMemorySystemGlobal is pointed at it. Counting is process-wide on or off
/// (off at the start, as numba-cuda's NUMBA_CUDA_NRT_STATS is): the switch writes every block.
class DeviceMemorySystem {
public:
  explicit DeviceMemorySystem(CudaDriver &driver) : driver(driver) {}
  DeviceMemorySystem(const DeviceMemorySystem &) = delete;
  DeviceMemorySystem &operator=(const DeviceMemorySystem &) = delete;

  /// The instance over CudaDriver::get().
  static DeviceMemorySystem &get();

  /// Points `module` (loaded from `image`, PTX or a cubin) at the current context's block when
  /// it holds the memsys global; other modules are left as they are.
  void attach(void *module, const std::string &image);
  /// Whether allocations are counted.
  bool statisticsEnabled();
  /// Switches counting on or off for every context, once the current device's queued work is
  /// done (it counts as the switch was when it was queued).
  void setStatisticsEnabled(bool enabled);
  /// The current context's counters, once the work queued on the device is done.
  DeviceMemoryStatistics statistics();

private:
  /// The current context's block, made at its first need.
  uint64_t currentBlock();

  CudaDriver &driver;
  std::mutex mutex;
  bool enabled = false;
  /// Blocks by (device, context epoch); those of an earlier epoch are gone with their contexts.
  std::map<std::pair<int, unsigned>, uint64_t> blocks;
};

} // namespace taipan::cuda
