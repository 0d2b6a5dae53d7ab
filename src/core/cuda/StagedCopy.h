// StagedCopy.h - Copies between pageable host memory and a device through page-locked staging
// buffers, which a team of threads fills or drains while the DMA engine moves the previous one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace taipan::cuda {

/// Threads that copy host memory together for the length of one staged copy: copy() splits a
/// range among them and the caller. One thread copies pageable memory at a fraction of what the
/// DMA engine moves (and first touches of fresh pages cost more than the copy), so staging pays
/// only when several share the work. Workers spin briefly between chunks, which arrive a few
/// hundred microseconds apart, then sleep (a chunk may wait long behind a stream's earlier
/// work); they never call the driver.
class CopyTeam {
public:
  /// A team of `threads` including the caller; 1 copies on the caller alone.
  explicit CopyTeam(unsigned threads);
  ~CopyTeam();
  CopyTeam(const CopyTeam &) = delete;
  CopyTeam &operator=(const CopyTeam &) = delete;

  /// Copies `bytes` from `source` to `destination`, returning when every thread is done.
  void copy(void *destination, const void *source, size_t bytes);

  /// The team size staged copies use: a few threads saturate host memory bandwidth.
  static unsigned defaultSize();

private:
  void work(unsigned part);
  void copyPart(unsigned part);

  std::vector<std::thread> workers;
  /// Wakes workers that stopped spinning; guards nothing else.
  std::mutex wakeMutex;
  std::condition_variable wake;
  std::atomic<unsigned> generation{0};
  std::atomic<unsigned> remaining{0};
  std::atomic<bool> stopping{false};
  char *destination = nullptr;
  const char *source = nullptr;
  size_t bytes = 0;
};

/// One device's staging buffers, and for each the event recorded after the last DMA that used
/// it: a buffer is refilled only once its event has passed.
struct StagingArea {
  /// Large enough that the per-chunk driver calls are noise, small enough that the first and
  /// last chunk, which do not overlap, are a small share of a large copy.
  static constexpr size_t ChunkBytes = size_t{8} << 20;
  static constexpr unsigned Buffers = 3;
  void *buffers[Buffers] = {};
  void *events[Buffers] = {};
  bool inFlight[Buffers] = {};
  /// One staged copy at a time per device.
  std::mutex mutex;
};

/// Copies of at least this many bytes from or to pageable memory are staged; smaller ones go to
/// the driver, whose own staging is as fast for them.
constexpr size_t StagedCopyMinimum = 2 * StagingArea::ChunkBytes;

} // namespace taipan::cuda
