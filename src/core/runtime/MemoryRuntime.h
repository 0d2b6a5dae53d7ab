// The memory runtime (NRT): reference-counted blocks that hold the data of arrays created by
// compiled code, and the allocation counters tests read to prove nothing leaks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace taipan::runtime {

/// A reference-counted block of memory. The data follows the header, aligned to 64 bytes.
struct MemInfo {
  std::atomic<int64_t> references;
  void *data;
  size_t size;
};

/// Live and total allocation counts, for tests and for leak hunting.
struct AllocationStatistics {
  uint64_t allocations;
  uint64_t frees;
};
AllocationStatistics allocationStatistics();

} // namespace taipan::runtime

extern "C" {
/// A new block of `bytes` with one reference; never null (aborts when memory runs out).
taipan::runtime::MemInfo *taipan_nrt_allocate(int64_t bytes);
/// Reference counting; both accept null (arrays borrowed from Python have no block).
void taipan_nrt_incref(taipan::runtime::MemInfo *block);
void taipan_nrt_decref(taipan::runtime::MemInfo *block);
}
