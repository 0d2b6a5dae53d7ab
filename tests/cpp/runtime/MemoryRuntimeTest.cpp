// MemoryRuntimeTest.cpp - Checks the reference-counted blocks of the memory runtime: destructors
// run once when the last reference goes, nested blocks are released, counters stay balanced, and
// array allocation refuses the sizes NumPy refuses with its exceptions.

#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace taipan::runtime;

namespace {

/// Counts destructor calls through the payload, and checks the data pointer it is given.
struct DestructorLog {
  int calls = 0;
  void *lastData = nullptr;
};

void countingDestructor(void *data, void *payload) {
  auto *log = static_cast<DestructorLog *>(payload);
  ++log->calls;
  log->lastData = data;
}

/// The destructor of a block whose data is an array of MemInfo pointers it owns (as a list of
/// arrays would), releasing each.
void releaseOwnedBlocks(void *data, void *payload) {
  auto count = reinterpret_cast<uintptr_t>(payload);
  auto **items = static_cast<MemInfo **>(data);
  for (uintptr_t i = 0; i < count; ++i)
    taipan_nrt_decref(items[i]);
}

/// Allocations minus frees since `before`.
int64_t liveSince(const AllocationStatistics &before) {
  AllocationStatistics now = allocationStatistics();
  return static_cast<int64_t>(now.allocations - before.allocations) -
         static_cast<int64_t>(now.frees - before.frees);
}

/// The exception a failed allocation left pending, taken (so tests do not leak it).
std::pair<int32_t, std::string> takeException() {
  PendingException pending = takePendingException();
  return {pending.exceptionId, pending.message ? pending.message : ""};
}

} // namespace

TEST(MemoryRuntime, PlainBlockIsAlignedAndBalanced) {
  AllocationStatistics before = allocationStatistics();
  MemInfo *block = taipan_nrt_allocate(100);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block->data) % 64, 0u);
  EXPECT_EQ(block->size, 100u);
  EXPECT_EQ(block->destructor, nullptr);
  std::memset(block->data, 0xAB, 100);
  EXPECT_EQ(liveSince(before), 1);
  taipan_nrt_decref(block);
  EXPECT_EQ(liveSince(before), 0);
}

TEST(MemoryRuntime, DestructorRunsOnceWhenTheLastReferenceGoes) {
  AllocationStatistics before = allocationStatistics();
  DestructorLog log;
  MemInfo *block = taipan_nrt_allocate_with_destructor(16, countingDestructor, &log);
  ASSERT_NE(block, nullptr);
  taipan_nrt_incref(block);
  taipan_nrt_incref(block);
  taipan_nrt_decref(block);
  taipan_nrt_decref(block);
  EXPECT_EQ(log.calls, 0);
  EXPECT_EQ(liveSince(before), 1);
  void *data = block->data;
  taipan_nrt_decref(block);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.lastData, data);
  EXPECT_EQ(liveSince(before), 0);
}

TEST(MemoryRuntime, NullBlocksAreIgnored) {
  AllocationStatistics before = allocationStatistics();
  taipan_nrt_incref(nullptr);
  taipan_nrt_decref(nullptr);
  EXPECT_EQ(liveSince(before), 0);
}

TEST(MemoryRuntime, DestructorReleasesNestedBlocks) {
  AllocationStatistics before = allocationStatistics();
  DestructorLog innerLog;
  MemInfo *shared = taipan_nrt_allocate_with_destructor(8, countingDestructor, &innerLog);
  MemInfo *onlyOwned = taipan_nrt_allocate(32);
  // A "list" of three items: the shared block twice (one reference each) and another block.
  constexpr uintptr_t Count = 3;
  MemInfo *list = taipan_nrt_allocate_with_destructor(Count * sizeof(MemInfo *), releaseOwnedBlocks,
                                                      reinterpret_cast<void *>(Count));
  ASSERT_NE(list, nullptr);
  taipan_nrt_incref(shared);
  auto **items = static_cast<MemInfo **>(list->data);
  items[0] = shared;
  items[1] = onlyOwned;
  items[2] = shared;
  // The list holding one of two lists of another: nesting two levels deep.
  MemInfo *outer = taipan_nrt_allocate_with_destructor(sizeof(MemInfo *), releaseOwnedBlocks,
                                                       reinterpret_cast<void *>(uintptr_t{1}));
  *static_cast<MemInfo **>(outer->data) = list;
  EXPECT_EQ(liveSince(before), 4);
  taipan_nrt_decref(outer);
  EXPECT_EQ(innerLog.calls, 1);
  EXPECT_EQ(liveSince(before), 0);
}

TEST(MemoryRuntime, ArrayAllocationChecksExtentsLikeNumpy) {
  AllocationStatistics before = allocationStatistics();
  int64_t shape[3] = {2, 3, 4};
  MemInfo *block = taipan_nrt_allocate_array(shape, 3, 8);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->size, 2u * 3 * 4 * 8);
  taipan_nrt_decref(block);
  MemInfo *scalar = taipan_nrt_allocate_array(nullptr, 0, 16);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar->size, 16u);
  taipan_nrt_decref(scalar);

  const std::string tooBig = "array is too big; `arr.size * arr.dtype.itemsize` is larger than "
                             "the maximum possible size.";
  const int64_t huge = int64_t{1} << 62;
  struct Case {
    std::vector<int64_t> shape;
    int64_t itemSize;
    int32_t exceptionId;
    std::string message;
  };
  const Case refused[] = {
      {{-1}, 8, taipan::ValueErrorId, "negative dimensions are not allowed"},
      {{-1, -1}, 8, taipan::ValueErrorId, "negative dimensions are not allowed"},
      {{huge, -1}, 8, taipan::ValueErrorId, "negative dimensions are not allowed"},
      {{huge}, 8, taipan::ValueErrorId, tooBig},
      {{int64_t{1} << 61}, 8, taipan::ValueErrorId, tooBig},
      {{int64_t{1} << 40, int64_t{1} << 40}, 1, taipan::ValueErrorId, tooBig},
      {{0, huge, huge}, 8, taipan::ValueErrorId, tooBig}, // NumPy refuses it though it is empty
      {{std::numeric_limits<int64_t>::max()}, 1, taipan::MemoryErrorId, ""},
  };
  for (const Case &c : refused) {
    EXPECT_EQ(
        taipan_nrt_allocate_array(c.shape.data(), static_cast<int64_t>(c.shape.size()), c.itemSize),
        nullptr);
    auto [id, message] = takeException();
    EXPECT_EQ(id, c.exceptionId) << c.shape[0];
    if (c.exceptionId == taipan::MemoryErrorId)
      EXPECT_EQ(message.rfind("Unable to allocate", 0), 0u) << message;
    else
      EXPECT_EQ(message, c.message);
  }
  int64_t empty[2] = {0, int64_t{1} << 40};
  MemInfo *nothing = taipan_nrt_allocate_array(empty, 2, 8);
  ASSERT_NE(nothing, nullptr);
  EXPECT_EQ(nothing->size, 0u);
  taipan_nrt_decref(nothing);
  EXPECT_EQ(liveSince(before), 0);
}

TEST(MemoryRuntime, ReusedSmallBlocksKeepTheirDataWholeAndAligned) {
  // Small blocks come back from the thread's cache: every size of a class must get a block
  // whose aligned data still holds its size, with the counters balanced as before.
  AllocationStatistics before = allocationStatistics();
  for (int round = 0; round < 3; ++round) {
    std::vector<MemInfo *> blocks;
    for (int64_t size = 0; size <= 600; ++size) {
      MemInfo *block = taipan_nrt_allocate(size);
      ASSERT_NE(block, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(block->data) % 64, 0u);
      EXPECT_EQ(block->size, static_cast<size_t>(size));
      std::memset(block->data, static_cast<int>(size & 0xFF), static_cast<size_t>(size));
      blocks.push_back(block);
    }
    for (MemInfo *block : blocks) {
      const auto *bytes = static_cast<const unsigned char *>(block->data);
      for (size_t i = 0; i < block->size; ++i)
        ASSERT_EQ(bytes[i], block->size & 0xFF) << "block of " << block->size << " bytes";
    }
    for (size_t i = 0; i < blocks.size(); i += 2) // every other one first: mixed free lists
      taipan_nrt_decref(blocks[i]);
    for (size_t i = 1; i < blocks.size(); i += 2)
      taipan_nrt_decref(blocks[i]);
    EXPECT_EQ(liveSince(before), 0);
  }
}

TEST(MemoryRuntime, BlocksMayBeFreedByAnotherThread) {
  // A block made on one thread and released on another (a prange worker's result) goes to the
  // releasing thread's cache, which frees it when that thread ends.
  AllocationStatistics before = allocationStatistics();
  std::vector<MemInfo *> blocks;
  for (int i = 0; i < 1000; ++i)
    blocks.push_back(taipan_nrt_allocate(i % 300));
  std::thread releaser([&blocks] {
    for (MemInfo *block : blocks)
      taipan_nrt_decref(block);
    for (int i = 0; i < 100; ++i) // served from this thread's cache
      taipan_nrt_decref(taipan_nrt_allocate(i));
  });
  releaser.join();
  EXPECT_EQ(liveSince(before), 0);
}
