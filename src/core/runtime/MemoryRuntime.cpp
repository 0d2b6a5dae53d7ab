// Reference-counted blocks with aligned data and global counters.
#include "runtime/MemoryRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <new>

namespace taipan::runtime {
namespace {
std::atomic<uint64_t> allocationCount{0};
std::atomic<uint64_t> freeCount{0};
constexpr size_t DataAlignment = 64; // a cache line, and enough for any vector register
} // namespace

AllocationStatistics allocationStatistics() { return {allocationCount.load(), freeCount.load()}; }

} // namespace taipan::runtime

using taipan::runtime::MemInfo;

extern "C" {

MemInfo *taipan_nrt_allocate(int64_t bytes) {
  using namespace taipan::runtime;
  size_t size = bytes > 0 ? static_cast<size_t>(bytes) : 0;
  // Plain malloc (faster than aligned_alloc in glibc), with the data aligned by hand after the
  // header.
  void *memory = std::malloc(sizeof(MemInfo) + DataAlignment + size);
  if (!memory) {
    std::fprintf(stderr, "taipan: out of memory allocating %zu bytes\n", size);
    std::abort();
  }
  auto *block = new (memory) MemInfo;
  block->references.store(1, std::memory_order_relaxed);
  uintptr_t data = reinterpret_cast<uintptr_t>(static_cast<char *>(memory) + sizeof(MemInfo));
  data = (data + DataAlignment - 1) / DataAlignment * DataAlignment;
  block->data = reinterpret_cast<void *>(data);
  block->size = size;
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return block;
}

void taipan_nrt_incref(MemInfo *block) {
  if (block)
    block->references.fetch_add(1, std::memory_order_relaxed);
}

void taipan_nrt_decref(MemInfo *block) {
  if (!block || block->references.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  block->~MemInfo();
  std::free(block);
  taipan::runtime::freeCount.fetch_add(1, std::memory_order_relaxed);
}
}
