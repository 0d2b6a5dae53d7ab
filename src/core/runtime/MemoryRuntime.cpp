// Reference-counted blocks with aligned data, destructors and global counters.
#include "runtime/MemoryRuntime.h"

#include "runtime/Runtime.h"

#include <cstdlib>
#include <limits>
#include <new>
#include <string>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace taipan::runtime {
namespace {
std::atomic<uint64_t> allocationCount{0};
std::atomic<uint64_t> freeCount{0};
constexpr size_t DataAlignment = 64; // a cache line, and enough for any vector register
/// The largest data size a block may have: malloc's argument must not wrap with the header.
constexpr size_t LargestData =
    static_cast<size_t>(std::numeric_limits<int64_t>::max()) - sizeof(MemInfo) - DataAlignment;
static_assert(offsetof(MemInfo, data) == MemInfoDataOffset, "lowering reads data at offset 8");

/// Small blocks freed by a thread wait in that thread's cache, one list per size class, for the
/// next allocation of their class. Compiled code makes and drops many small blocks (a string
/// per `str(i)`, a list per comprehension); through malloc alone, the heap that a loop's blocks
/// grew was trimmed when they were freed, and the next loop page-faulted it back in: a third of
/// the time of building 10^5 short strings. The cache keeps at most CachedBytesLimit per thread;
/// it is freed when the thread ends.
class SmallBlockCache {
public:
  static constexpr size_t ClassBytes = 32;
  static constexpr size_t Classes = 16; ///< blocks of up to 512 bytes, header included
  static constexpr size_t CachedBytesLimit = size_t(32) << 20;

  /// The size class of a block of `bytes` in all, or Classes when it is not small.
  static size_t classOf(size_t bytes) { return (bytes + ClassBytes - 1) / ClassBytes; }

  /// A cached block of class `index`, or null.
  void *take(size_t index) {
    FreeBlock *block = heads[index - 1];
    if (block) {
      heads[index - 1] = block->next;
      cachedBytes -= index * ClassBytes;
    }
    return block;
  }

  /// Keeps `memory` (a block of class `index`) if there is room; false when the caller frees it.
  bool keep(void *memory, size_t index) {
    if (cachedBytes + index * ClassBytes > CachedBytesLimit)
      return false;
    heads[index - 1] = new (memory) FreeBlock{heads[index - 1]};
    cachedBytes += index * ClassBytes;
    return true;
  }

  ~SmallBlockCache() {
    for (FreeBlock *&head : heads)
      while (head) {
        FreeBlock *next = head->next;
        std::free(head);
        head = next;
      }
    threadCacheGone = true;
  }

  /// Set when the thread's cache was destroyed (thread exit): blocks released by later
  /// destructors of the same thread go straight to free.
  static thread_local bool threadCacheGone;

private:
  struct FreeBlock {
    FreeBlock *next;
  };
  FreeBlock *heads[Classes] = {};
  size_t cachedBytes = 0;
};
thread_local bool SmallBlockCache::threadCacheGone = false;

/// The calling thread's cache, or null once it is gone.
SmallBlockCache *threadCache() {
  if (SmallBlockCache::threadCacheGone)
    return nullptr;
  static thread_local SmallBlockCache cache;
  return &cache;
}

/// The bytes a block of `dataSize` takes: the header, room to align the data, the data.
size_t blockBytes(size_t dataSize) { return sizeof(MemInfo) + DataAlignment + dataSize; }

/// Blocks from this size up ask Linux for transparent huge pages, as NumPy does for its arrays
/// (4 MiB, NumPy's threshold): where THP is `madvise` (the default of many distributions) a
/// fresh 80 MB array otherwise takes 20,000 page faults on its first writes instead of 40.
constexpr size_t HugePageThreshold = size_t(1) << 22;

/// Advises the kernel to back the whole pages of [memory, memory + bytes) with huge pages.
void adviseHugePages(void *memory, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t Page = 4096;
  uintptr_t start = (reinterpret_cast<uintptr_t>(memory) + Page - 1) / Page * Page;
  uintptr_t end = reinterpret_cast<uintptr_t>(memory) + bytes;
  if (end > start)
    madvise(reinterpret_cast<void *>(start), end - start, MADV_HUGEPAGE); // advice only
#else
  (void)memory;
  (void)bytes;
#endif
}

MemInfo *allocateBlock(int64_t bytes, MemInfoDestructor destructor, void *payload) {
  size_t size = bytes > 0 ? static_cast<size_t>(bytes) : 0;
  void *memory = nullptr;
  if (size <= LargestData) {
    size_t total = blockBytes(size);
    size_t sizeClass = SmallBlockCache::classOf(total);
    if (sizeClass > SmallBlockCache::Classes) {
      // Plain malloc (faster than aligned_alloc in glibc), with the data aligned by hand after
      // the header.
      memory = std::malloc(total);
      if (memory && size >= HugePageThreshold)
        adviseHugePages(memory, total);
    } else {
      SmallBlockCache *cache = threadCache();
      memory = cache ? cache->take(sizeClass) : nullptr;
      if (!memory) // the whole class size, so that the block can serve its class when cached
        memory = std::malloc(sizeClass * SmallBlockCache::ClassBytes);
    }
  }
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

/// Returns a block's memory to the thread's cache, or to malloc.
void freeBlock(MemInfo *block) {
  size_t sizeClass = SmallBlockCache::classOf(blockBytes(block->size));
  block->~MemInfo();
  SmallBlockCache *cache = sizeClass <= SmallBlockCache::Classes ? threadCache() : nullptr;
  if (!cache || !cache->keep(block, sizeClass))
    std::free(block);
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
  taipan::runtime::freeBlock(block);
  taipan::runtime::freeCount.fetch_add(1, std::memory_order_relaxed);
}
}
