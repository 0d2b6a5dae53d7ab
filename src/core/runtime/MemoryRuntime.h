// The memory runtime (NRT): reference-counted blocks that hold the data of arrays created by
// compiled code (or anything else that owns memory), and the allocation counters tests read.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace taipan::runtime {

/// Called once when a block's last reference goes, before its memory is freed: it releases what
/// the block owns (the items of a list, the arrays of a struct). `data` is the block's data,
/// `payload` the opaque pointer given at allocation.
using MemInfoDestructor = void (*)(void *data, void *payload);

/// A reference-counted block of memory. The data follows the header, aligned to 64 bytes.
/// Lowering reads `data` at offset 8 (MemInfoDataOffset), so the first two fields stay first.
struct MemInfo {
  std::atomic<int64_t> references;
  void *data;
  size_t size;
  MemInfoDestructor destructor; ///< null for plain data (arrays)
  void *payload;
};
constexpr size_t MemInfoDataOffset = 8;

/// Live and total allocation counts, for tests and for leak hunting.
struct AllocationStatistics {
  uint64_t allocations;
  uint64_t frees;
};
AllocationStatistics allocationStatistics();

} // namespace taipan::runtime

extern "C" {
/// A new block of `bytes` with one reference and no destructor. Returns null, with MemoryError
/// pending (taipan_raise), when the memory cannot be had.
taipan::runtime::MemInfo *taipan_nrt_allocate(int64_t bytes);
/// The same, with `destructor(data, payload)` run when the last reference goes.
taipan::runtime::MemInfo *
taipan_nrt_allocate_with_destructor(int64_t bytes, taipan::runtime::MemInfoDestructor destructor,
                                    void *payload);
/// The one allocation routine of arrays: a block for `ndim` extents of `itemSize` bytes, checked
/// as NumPy checks them. Returns null with the exception pending: ValueError for a negative
/// extent ("negative dimensions are not allowed") or a byte size past the largest intp ("array
/// is too big; ..."), MemoryError when malloc fails.
taipan::runtime::MemInfo *taipan_nrt_allocate_array(const int64_t *shape, int64_t ndim,
                                                    int64_t itemSize);
/// Reference counting; both accept null (arrays borrowed from Python have no block).
void taipan_nrt_incref(taipan::runtime::MemInfo *block);
void taipan_nrt_decref(taipan::runtime::MemInfo *block);
}
