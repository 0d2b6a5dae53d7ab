// Reference-counted blocks with aligned data, destructors and global counters.
#include "runtime/MemoryRuntime.h"

#include "runtime/Runtime.h"

#include <cstdlib>
#include <limits>
#include <new>
#include <string>

namespace taipan::runtime {
namespace {
std::atomic<uint64_t> allocationCount{0};
std::atomic<uint64_t> freeCount{0};
constexpr size_t DataAlignment = 64; // a cache line, and enough for any vector register
/// The largest data size a block may have: malloc's argument must not wrap with the header.
constexpr size_t LargestData =
    static_cast<size_t>(std::numeric_limits<int64_t>::max()) - sizeof(MemInfo) - DataAlignment;
static_assert(offsetof(MemInfo, data) == MemInfoDataOffset, "lowering reads data at offset 8");

MemInfo *allocateBlock(int64_t bytes, MemInfoDestructor destructor, void *payload) {
  size_t size = bytes > 0 ? static_cast<size_t>(bytes) : 0;
  // Plain malloc (faster than aligned_alloc in glibc), with the data aligned by hand after the
  // header.
  void *memory =
      size <= LargestData ? std::malloc(sizeof(MemInfo) + DataAlignment + size) : nullptr;
  if (!memory) {
    raiseWithMessage(MemoryErrorId,
                     "Unable to allocate " + std::to_string(size) + " bytes for a memory block");
    return nullptr;
  }
  auto *block = new (memory) MemInfo;
  block->references.store(1, std::memory_order_relaxed);
  uintptr_t data = reinterpret_cast<uintptr_t>(static_cast<char *>(memory) + sizeof(MemInfo));
  data = (data + DataAlignment - 1) / DataAlignment * DataAlignment;
  block->data = reinterpret_cast<void *>(data);
  block->size = size;
  block->destructor = destructor;
  block->payload = payload;
  allocationCount.fetch_add(1, std::memory_order_relaxed);
  return block;
}
} // namespace

AllocationStatistics allocationStatistics() { return {allocationCount.load(), freeCount.load()}; }

} // namespace taipan::runtime

using taipan::runtime::MemInfo;
using taipan::runtime::MemInfoDestructor;

extern "C" {

MemInfo *taipan_nrt_allocate(int64_t bytes) {
  return taipan::runtime::allocateBlock(bytes, nullptr, nullptr);
}

MemInfo *taipan_nrt_allocate_with_destructor(int64_t bytes, MemInfoDestructor destructor,
                                             void *payload) {
  return taipan::runtime::allocateBlock(bytes, destructor, payload);
}

MemInfo *taipan_nrt_allocate_array(const int64_t *shape, int64_t ndim, int64_t itemSize) {
  using namespace taipan;
  for (int64_t i = 0; i < ndim; ++i) {
    if (shape[i] < 0) {
      taipan_raise(ValueErrorId, "negative dimensions are not allowed");
      return nullptr;
    }
  }
  // As NumPy: the item size times every non-zero extent must fit in an intp, even when a zero
  // extent makes the array empty.
  int64_t bytes = itemSize;
  bool tooBig = false, empty = false;
  for (int64_t i = 0; i < ndim; ++i) {
    if (shape[i] == 0)
      empty = true;
    else
      tooBig |= __builtin_mul_overflow(bytes, shape[i], &bytes);
  }
  if (tooBig) {
    taipan_raise(ValueErrorId, "array is too big; `arr.size * arr.dtype.itemsize` is larger "
                               "than the maximum possible size.");
    return nullptr;
  }
  return runtime::allocateBlock(empty ? 0 : bytes, nullptr, nullptr);
}

void taipan_nrt_incref(MemInfo *block) {
  if (block)
    block->references.fetch_add(1, std::memory_order_relaxed);
}

void taipan_nrt_decref(MemInfo *block) {
  if (!block || block->references.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  if (block->destructor)
    block->destructor(block->data, block->payload);
  block->~MemInfo();
  std::free(block);
  taipan::runtime::freeCount.fetch_add(1, std::memory_order_relaxed);
}
}
