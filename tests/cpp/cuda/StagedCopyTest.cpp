// StagedCopyTest.cpp - The copy team on any machine; with TAIPAN_EXPECT_GPU=1, copies from and to
// pageable memory through staging buffers, and large blocks taken back after their release.

#include "cuda/StagedCopy.h"
#include "../testing/GpuTesting.h"
#include "cuda/CudaDriver.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

using taipan::cuda::CopyTeam;
using taipan::cuda::CudaDriver;
using taipan::cuda::StagedCopyMinimum;
using taipan::cuda::StagingArea;

namespace {

/// Bytes that differ from position to position, so a misplaced share shows.
std::vector<uint32_t> pattern(size_t count, uint32_t seed) {
  std::vector<uint32_t> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<uint32_t>(i * 2654435761u) ^ seed;
  return values;
}

} // namespace

TEST(CopyTeamTest, EveryShareLandsInPlace) {
  for (unsigned threads : {1u, 2u, 3u, 4u}) {
    CopyTeam team(threads);
    // Several copies through one team, of sizes that do not divide into pages or shares.
    for (size_t count :
         {size_t{0}, size_t{1}, size_t{1023}, size_t{4096 * 3 + 7}, size_t{1} << 20}) {
      std::vector<uint32_t> source = pattern(count, threads);
      std::vector<uint32_t> target(count + 1, 0xDEADBEEF);
      team.copy(target.data(), source.data(), count * sizeof(uint32_t));
      EXPECT_TRUE(std::equal(source.begin(), source.end(), target.begin()))
          << threads << " threads, " << count << " words";
      EXPECT_EQ(target[count], 0xDEADBEEF) << "wrote past the end";
    }
  }
}

TEST(CopyTeamTest, SleepingWorkersWakeForTheNextCopy) {
  CopyTeam team(3);
  std::vector<uint32_t> source = pattern(1 << 16, 5);
  for (int round = 0; round < 3; ++round) {
    // Longer than the workers spin, as when a chunk waits behind a stream's earlier work.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::vector<uint32_t> target(source.size(), 0);
    team.copy(target.data(), source.data(), source.size() * sizeof(uint32_t));
    EXPECT_EQ(target, source) << "round " << round;
  }
}

TEST(CopyTeamTest, SizeIsBetweenOneAndFour) {
  EXPECT_GE(CopyTeam::defaultSize(), 1u);
  EXPECT_LE(CopyTeam::defaultSize(), 4u);
}

TEST(StagedCopyGpuTest, PageableCopiesRoundTrip) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  // Not a whole number of chunks, so the last chunk is short.
  size_t count = (StagedCopyMinimum + 3 * StagingArea::ChunkBytes + 12) / sizeof(uint32_t);
  size_t bytes = count * sizeof(uint32_t);
  std::vector<uint32_t> host = pattern(count, 7);
  uint64_t device = driver.memory().allocate(bytes);
  uint64_t copy = driver.memory().allocate(bytes);
  driver.memory().copyToDevice(device, host.data(), bytes);
  driver.memory().copyDeviceToDevice(copy, device, bytes);
  std::vector<uint32_t> back(count, 0);
  driver.memory().copyToHost(back.data(), copy, bytes);
  EXPECT_EQ(back, host);

  // On a stream: the upload returns once the host memory is read, so it may change at once.
  void *stream = driver.streams().createStream();
  std::vector<uint32_t> other = pattern(count, 99);
  driver.memory().copyToDevice(device, other.data(), bytes, stream);
  std::fill(other.begin(), other.end(), 0u);
  std::fill(back.begin(), back.end(), 0u);
  driver.memory().copyToHost(back.data(), device, bytes, stream);
  EXPECT_EQ(back, pattern(count, 99));
  driver.streams().destroyStream(stream);
  driver.memory().free(device);
  driver.memory().free(copy);

  // Staging buffers go with the contexts at closeAll(); the next copy makes new ones.
  driver.closeAll();
  uint64_t fresh = driver.memory().allocate(bytes);
  driver.memory().copyToDevice(fresh, host.data(), bytes);
  std::fill(back.begin(), back.end(), 0u);
  driver.memory().copyToHost(back.data(), fresh, bytes);
  EXPECT_EQ(back, host);
  driver.memory().free(fresh);
}

TEST(StagedCopyGpuTest, LargeBlocksAreTakenBackAfterRelease) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  constexpr size_t Bytes = size_t{256} << 20;
  int ordinal = driver.contexts().currentDevice();
  uint64_t first = driver.memory().allocate(Bytes);
  driver.memory().freeDeferred(first, Bytes, ordinal);
  EXPECT_EQ(driver.memory().pendingFrees(), 0u) << "a large block should be kept idle, not queued";
  ASSERT_EQ(driver.memory().allocate(Bytes), first) << "the idle block of the same size comes back";
  uint64_t other = driver.memory().allocate(Bytes + 4096);
  EXPECT_NE(other, first);
  driver.memory().free(other);
  // Memory information counts idle blocks as free: they are given back first.
  size_t whileHeld = driver.memory().memoryInfo().first;
  driver.memory().freeDeferred(first, Bytes, ordinal);
  size_t afterRelease = driver.memory().memoryInfo().first;
  EXPECT_GE(afterRelease + (size_t{4} << 20), whileHeld + Bytes);
  uint64_t again = driver.memory().allocate(Bytes);
  EXPECT_NE(again, 0u);
  driver.memory().free(again);
}
