// ThreadPoolTest.cpp - runtime/ThreadPool.h: parallelFor covers its range exactly once, nested
// calls run serially, chunk ranges are fixed, idle threads take a slow one's chunks.

#include "runtime/ThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace taipan::runtime;

TEST(ThreadPoolTest, CoversEveryIterationOnce) {
  for (int64_t count : {0, 1, 2, 7, 1000, 100003}) {
    std::vector<std::atomic<int>> seen(count);
    parallelFor(count, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        seen[i].fetch_add(1);
    });
    for (int64_t i = 0; i < count; ++i)
      ASSERT_EQ(seen[i].load(), 1) << "count " << count << " index " << i;
  }
}

TEST(ThreadPoolTest, NestedRegionsRunSeriallyOnTheirThread) {
  std::atomic<int64_t> total{0};
  std::atomic<bool> nestedWasSerial{true};
  parallelFor(8, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int outerThread = currentThreadId();
      parallelFor(100, [&](int64_t b, int64_t e) {
        if (currentThreadId() != outerThread || b != 0 || e != 100)
          nestedWasSerial = false;
        total += e - b;
      });
    }
  });
  EXPECT_TRUE(nestedWasSerial.load());
  EXPECT_EQ(total.load(), 800);
  EXPECT_FALSE(insideParallelRegion());
  EXPECT_EQ(currentThreadId(), 0);
}

TEST(ThreadPoolTest, ThreadCountStaysWithinTheMaximum) {
  int before = threadCount();
  EXPECT_GE(maximumThreadCount(), 1);
  EXPECT_FALSE(setThreadCount(0));
  EXPECT_FALSE(setThreadCount(maximumThreadCount() + 1));
  EXPECT_TRUE(setThreadCount(1));
  EXPECT_EQ(threadCount(), 1);
  std::atomic<int> chunks{0};
  parallelFor(1000, [&](int64_t, int64_t) { ++chunks; });
  EXPECT_EQ(chunks.load(), 1);
  EXPECT_TRUE(setThreadCount(before));
}

TEST(ThreadPoolTest, ChunksKnowTheirDistinctIndex) {
  for (int round = 0; round < 2000; ++round) { // many back-to-back jobs: publication races
    int64_t count = 1 + round % 37;
    std::vector<std::atomic<int>> used(maximumChunkCount());
    std::atomic<int64_t> covered{0};
    parallelForChunks(count, [&](int64_t begin, int64_t end, int chunk) {
      ASSERT_GE(chunk, 0);
      ASSERT_LT(chunk, maximumChunkCount());
      used[chunk].fetch_add(1);
      covered += end - begin;
    });
    ASSERT_EQ(covered.load(), count);
    for (auto &uses : used)
      ASSERT_LE(uses.load(), 1);
  }
}

TEST(ThreadPoolTest, CallersOnSeveralThreadsAllFinish) {
  // A second caller finds the pool busy and runs its loop itself: every loop completes.
  std::vector<std::thread> callers;
  std::atomic<int64_t> total{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int round = 0; round < 200; ++round)
        parallelFor(1000, [&](int64_t begin, int64_t end) { total += end - begin; });
    });
  for (std::thread &caller : callers)
    caller.join();
  EXPECT_EQ(total.load(), 4 * 200 * 1000);
}

TEST(ThreadPoolTest, ChunkRangesDependOnlyOnTheCountAndThreadCount) {
  // Partial results combined in chunk order are reproducible only if chunk k always covers
  // the same range, whichever thread runs it.
  int threads = threadCount();
  int64_t count = 1000003;
  int chunks = threads * ChunksPerThread;
  for (int round = 0; round < 20; ++round) {
    std::vector<std::pair<int64_t, int64_t>> ranges(maximumChunkCount(), {-1, -1});
    parallelForChunks(count,
                      [&](int64_t begin, int64_t end, int chunk) { ranges[chunk] = {begin, end}; });
    for (int k = 0; k < (threads > 1 ? chunks : 1); ++k) {
      int64_t begin = threads > 1 ? count * k / chunks : 0;
      int64_t end = threads > 1 ? count * (k + 1) / chunks : count;
      ASSERT_EQ(ranges[k], std::make_pair(begin, end)) << "chunk " << k;
    }
  }
}

TEST(ThreadPoolTest, ASlowThreadsChunksAreTakenByTheOthers) {
  if (threadCount() < 2)
    GTEST_SKIP() << "one thread";
  // Whichever thread runs chunk 0 (the caller's first, unless a worker took it before the
  // caller started) stalls there; the chunks after it in the caller's share must not wait for
  // it, but run on another thread.
  std::vector<std::atomic<int>> ranBy(maximumChunkCount());
  parallelForChunks(threadCount() * ChunksPerThread, [&](int64_t, int64_t, int chunk) {
    ranBy[chunk] = currentThreadId();
    if (chunk == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
  });
  for (int k = 1; k < ChunksPerThread; ++k)
    EXPECT_NE(ranBy[k].load(), ranBy[0].load()) << "chunk " << k << " waited for chunk 0";
}
