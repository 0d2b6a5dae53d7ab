// CudaDriverTest.cpp - The dlopen'd CUDA driver wrapper: readable failures without a driver, and
// with TAIPAN_EXPECT_GPU=1 real memory round trips, a PTX kernel launch, streams and events.

#include "cuda/CudaDriver.h"
#include "../testing/GpuTesting.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

using taipan::cuda::CudaDriver;
using taipan::cuda::CudaError;
namespace cuda = taipan::cuda;

namespace {

const char *WriteTidPtx = R"(
.version 8.0
.target sm_70
.address_size 64
.visible .entry write_tid(.param .u64 out) {
  .reg .b32 %r<2>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

TEST(CudaErrorTest, DescribeJoinsNameAndText) {
  EXPECT_EQ(CudaError::describe(1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"),
            "CUDA_ERROR_INVALID_VALUE: invalid argument");
  EXPECT_EQ(CudaError::describe(2, "CUDA_ERROR_OUT_OF_MEMORY", nullptr),
            "CUDA_ERROR_OUT_OF_MEMORY");
  // Codes newer than the driver have neither name nor text.
  EXPECT_EQ(CudaError::describe(12345, nullptr, nullptr), "CUDA error 12345");
  EXPECT_EQ(CudaError::describe(7, nullptr, "odd"), "CUDA error 7: odd");
}

TEST(CudaErrorTest, CarriesCodeAndName) {
  CudaError error(cuda::CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "message");
  EXPECT_EQ(error.code(), 500);
  EXPECT_EQ(error.errorName(), "CUDA_ERROR_NOT_FOUND");
  EXPECT_STREQ(error.what(), "message");
  EXPECT_FALSE(error.unavailable());
}

TEST(CudaDriverTest, MissingLibraryIsUnavailableWithReason) {
  CudaDriver driver("libtaipan-no-such-cuda-driver.so.1");
  EXPECT_FALSE(driver.library().available());
  std::string reason = driver.library().unavailableReason();
  EXPECT_NE(reason.find("no CUDA driver found"), std::string::npos) << reason;
  EXPECT_NE(reason.find("libtaipan-no-such-cuda-driver.so.1 could not be loaded"),
            std::string::npos)
      << reason;
  EXPECT_EQ(driver.library().deviceCount(), 0);
  try {
    driver.memory().allocate(16);
    FAIL() << "allocate succeeded without a driver";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.what(), reason);
    EXPECT_EQ(error.code(), cuda::ErrorNoDriver);
    EXPECT_TRUE(error.unavailable());
  }
  EXPECT_THROW(driver.library().driverVersion(), CudaError);
  EXPECT_THROW(driver.contexts().selectDevice(0), CudaError);
  EXPECT_THROW(driver.modules().loadModule(WriteTidPtx), CudaError);
  EXPECT_THROW(driver.streams().createStream(), CudaError);
  EXPECT_THROW(driver.contexts().deviceName(0), CudaError);
  // Releasing nothing must work anywhere, so destructors of device objects never throw.
  EXPECT_NO_THROW(driver.memory().free(0));
  EXPECT_NO_THROW(driver.memory().freePinned(nullptr));
  EXPECT_NO_THROW(driver.modules().unloadModule(nullptr));
  EXPECT_NO_THROW(driver.streams().destroyStream(nullptr));
  EXPECT_NO_THROW(driver.streams().destroyStream(cuda::StreamLegacy));
  EXPECT_NO_THROW(driver.streams().destroyStream(cuda::StreamPerThread));
  EXPECT_NO_THROW(driver.streams().destroyEvent(nullptr));
  EXPECT_NO_THROW(driver.closeAll());
}

TEST(CudaDriverDeathTest, ToolkitStubIsNotADriver) {
  // The toolkit ships a libcuda whose every call fails; finding it first is a common mistake.
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  // In a child process: the stub's soname is libcuda.so.1, so once loaded here it would be what
  // every later dlopen("libcuda.so.1") in this process gets, hiding a real driver.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        CudaDriver driver(stub);
        std::string reason = driver.library().unavailableReason();
        bool ok = !driver.library().available() && reason.find("stub") != std::string::npos;
        try {
          driver.memory().allocate(16);
          ok = false;
        } catch (const CudaError &error) {
          ok = ok && error.unavailable() && error.what() == reason;
        }
        std::fprintf(stderr, "%s\n", reason.c_str());
        std::_Exit(ok ? 0 : 1);
      },
      testing::ExitedWithCode(0), "stub library");
}

TEST(CudaDriverTest, ProcessDriverFailsGracefully) {
  CudaDriver &driver = CudaDriver::get();
  if (driver.library().available()) {
    EXPECT_TRUE(driver.library().unavailableReason().empty());
    EXPECT_GT(driver.library().deviceCount(), 0);
    GTEST_SKIP() << "CUDA is available here";
  }
  EXPECT_FALSE(taipan::testing::gpuExpected()) << driver.library().unavailableReason();
  std::string reason = driver.library().unavailableReason();
  // Without libcuda the reason names the driver; with a driver but no GPU it names the device.
  EXPECT_TRUE(reason.find("driver") != std::string::npos ||
              reason.find("device") != std::string::npos)
      << reason;
  EXPECT_EQ(driver.library().deviceCount(), 0);
  try {
    driver.memory().allocate(16);
    FAIL() << "allocate succeeded without CUDA";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.what(), reason);
    EXPECT_TRUE(error.unavailable());
  }
}

TEST(CudaDriverGpuTest, DeviceQueries) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  EXPECT_GE(driver.library().driverVersion(), 11000);
  driver.contexts().selectDevice(0);
  EXPECT_EQ(driver.contexts().currentDevice(), 0);
  EXPECT_FALSE(driver.contexts().deviceName(0).empty());
  auto [major, minor] = driver.contexts().computeCapability(0);
  EXPECT_GE(major, 7);
  EXPECT_GE(minor, 0);
  EXPECT_EQ(driver.contexts().deviceAttribute(0, cuda::CU_DEVICE_ATTRIBUTE_WARP_SIZE), 32);
  EXPECT_GT(driver.contexts().deviceAttribute(0, cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
            0);
  auto [freeBytes, totalBytes] = driver.memory().memoryInfo();
  EXPECT_GT(totalBytes, 0u);
  EXPECT_LE(freeBytes, totalBytes);
  try {
    driver.contexts().deviceName(driver.library().deviceCount());
    FAIL() << "an out-of-range device ordinal was accepted";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.code(), cuda::CUDA_ERROR_INVALID_DEVICE);
  }
}

TEST(CudaDriverGpuTest, MemoryRoundTrip) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  driver.contexts().selectDevice(0);
  constexpr size_t Count = 1000;
  std::vector<int32_t> host(Count);
  std::iota(host.begin(), host.end(), -17);
  uint64_t first = driver.memory().allocate(Count * sizeof(int32_t));
  uint64_t second = driver.memory().allocate(Count * sizeof(int32_t));
  ASSERT_NE(first, 0u);
  driver.memory().copyToDevice(first, host.data(), Count * sizeof(int32_t));
  driver.memory().copyDeviceToDevice(second, first, Count * sizeof(int32_t));
  std::vector<int32_t> back(Count, 0);
  driver.memory().copyToHost(back.data(), second, Count * sizeof(int32_t));
  EXPECT_EQ(back, host);

  driver.memory().memset(first, 0xAB, Count * sizeof(int32_t));
  std::vector<unsigned char> bytes(Count * sizeof(int32_t), 0);
  driver.memory().copyToHost(bytes.data(), first, bytes.size());
  EXPECT_EQ(bytes, std::vector<unsigned char>(bytes.size(), 0xAB));

  EXPECT_EQ(driver.memory().allocate(0), 0u);
  driver.memory().free(first);
  driver.memory().free(second);

  // Pinned, mapped and managed memory.
  auto *pinned = static_cast<int32_t *>(driver.memory().allocatePinned(64));
  ASSERT_NE(pinned, nullptr);
  pinned[0] = 42;
  driver.memory().freePinned(pinned);
  uint64_t mappedAddress = 0;
  auto *mapped = static_cast<int32_t *>(driver.memory().allocateMapped(64, &mappedAddress));
  ASSERT_NE(mapped, nullptr);
  EXPECT_NE(mappedAddress, 0u);
  mapped[0] = 7;
  int32_t seen = 0;
  driver.memory().copyToHost(&seen, mappedAddress, sizeof(seen));
  EXPECT_EQ(seen, 7);
  driver.memory().freePinned(mapped);
  if (driver.contexts().deviceAttribute(0, cuda::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)) {
    uint64_t managed = driver.memory().allocateManaged(64);
    driver.memory().memset(managed, 1, 64);
    driver.synchronize();
    EXPECT_EQ(reinterpret_cast<unsigned char *>(managed)[63], 1);
    driver.memory().free(managed);
  }

  // Registered (cuda.pinned) memory round-trips asynchronously.
  std::vector<int32_t> registered(Count, 5);
  driver.memory().registerHost(registered.data(), Count * sizeof(int32_t));
  uint64_t device = driver.memory().allocate(Count * sizeof(int32_t));
  void *stream = driver.streams().createStream();
  driver.memory().copyToDevice(device, registered.data(), Count * sizeof(int32_t), stream);
  driver.memory().memset(device, 0, sizeof(int32_t), stream);
  driver.memory().copyToHost(registered.data(), device, Count * sizeof(int32_t), stream);
  driver.streams().synchronizeStream(stream);
  EXPECT_EQ(registered[0], 0);
  EXPECT_EQ(registered[Count - 1], 5);
  driver.memory().unregisterHost(registered.data());

  // Deferred frees go in batches and on synchronize(); the memory comes back.
  size_t freeBefore = driver.memory().memoryInfo().first;
  for (int i = 0; i < 40; ++i)
    driver.memory().freeDeferred(driver.memory().allocate(size_t{1} << 20), size_t{1} << 20,
                                 driver.contexts().currentDevice());
  driver.synchronize();
  EXPECT_GE(driver.memory().memoryInfo().first + (size_t{8} << 20), freeBefore);
  driver.streams().destroyStream(stream);
  driver.memory().free(device);
}

TEST(CudaDriverGpuTest, FreesWaitForTheirStream) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  driver.memory().flushDeferredFrees(true);
  void *stream = driver.streams().createStream();
  // A host function holds the stream up until released, standing in for a long kernel.
  std::atomic<bool> release{false};
  driver.streams().launchHostFunction(
      stream,
      [](void *flag) {
        while (!static_cast<std::atomic<bool> *>(flag)->load())
          std::this_thread::sleep_for(std::chrono::microseconds(50));
      },
      &release);
  constexpr size_t Bytes = size_t{1} << 20;
  bool pooled = driver.memory().usesMemoryPool(driver.contexts().currentDevice());
  driver.memory().freeDeferred(driver.memory().allocate(Bytes, stream), Bytes,
                               driver.contexts().currentDevice(), stream);
  driver.memory().flushDeferredFrees();
  // A pool takes the block back in the stream's order (cuMemFreeAsync); batched frees hold it.
  EXPECT_EQ(driver.memory().pendingFrees(), pooled ? 0u : 1u)
      << "freed while its stream could use it";
  release = true;
  driver.streams().synchronizeStream(stream);
  driver.memory().flushDeferredFrees();
  EXPECT_EQ(driver.memory().pendingFrees(), 0u);

  // A wait frees everything, stream or not.
  driver.memory().freeDeferred(driver.memory().allocate(Bytes), Bytes,
                               driver.contexts().currentDevice(), stream);
  driver.memory().freeDeferred(driver.memory().allocate(Bytes), Bytes,
                               driver.contexts().currentDevice());
  driver.memory().flushDeferredFrees(true);
  EXPECT_EQ(driver.memory().pendingFrees(), 0u);
  driver.streams().destroyStream(stream);
}

TEST(CudaDriverGpuTest, PoolReusesFreedBlocksAndKeepsTheirContents) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  driver.contexts().selectDevice(0);
  if (!driver.memory().usesMemoryPool(0))
    GTEST_SKIP() << "this device has no memory pools";
  driver.memory().releasePending();
  constexpr size_t Count = size_t{1} << 20;
  std::vector<int32_t> host(Count);
  std::iota(host.begin(), host.end(), 3);
  uint64_t first = driver.memory().allocate(Count * sizeof(int32_t));
  driver.memory().copyToDevice(first, host.data(), Count * sizeof(int32_t));
  // Freed in the default stream's order (once the pending deallocations go), the block is the
  // next allocation of its size there.
  driver.memory().freeDeferred(first, Count * sizeof(int32_t), 0);
  EXPECT_EQ(driver.memory().pendingFrees(), 1u);
  driver.memory().releasePending();
  EXPECT_EQ(driver.memory().pendingFrees(), 0u);
  uint64_t second = driver.memory().allocate(Count * sizeof(int32_t));
  EXPECT_EQ(second, first);
  std::vector<int32_t> zeros(Count, 0), back(Count, 1);
  driver.memory().copyToDevice(second, zeros.data(), Count * sizeof(int32_t));
  driver.memory().copyToHost(back.data(), second, Count * sizeof(int32_t));
  EXPECT_EQ(back, zeros);
  // Memory information counts what the pool keeps as free.
  size_t freeBefore = driver.memory().memoryInfo().first;
  driver.memory().freeDeferred(second, Count * sizeof(int32_t), 0);
  driver.synchronize();
  EXPECT_GE(driver.memory().memoryInfo().first + (size_t{2} << 20),
            freeBefore + Count * sizeof(int32_t));
}

TEST(CudaDriverGpuTest, PendingDeallocationsFollowNumbaCudasThresholds) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  driver.contexts().selectDevice(0);
  driver.memory().releasePending();
  constexpr size_t Bytes = 4096;
  int device = driver.contexts().currentDevice();
  auto freeOne = [&] {
    driver.memory().freeDeferred(driver.memory().allocate(Bytes), Bytes, device);
  };
  cuda::CudaMemory::setReleaseLimits(3, 0.2);
  for (size_t i = 1; i <= 3; ++i) {
    freeOne();
    EXPECT_EQ(driver.memory().pendingFrees(), i);
    EXPECT_EQ(driver.memory().pendingFreeBytes(), i * Bytes);
  }
  freeOne(); // more than the count: all go
  EXPECT_EQ(driver.memory().pendingFrees(), 0u);
  // Deferred (nested), neither the count nor releasePending() frees them; leaving does not
  // either, until the next release.
  driver.memory().deferReleases(true);
  driver.memory().deferReleases(true);
  for (int i = 0; i < 6; ++i)
    freeOne();
  driver.memory().releasePending();
  EXPECT_EQ(driver.memory().pendingFrees(), 6u);
  driver.memory().deferReleases(false);
  driver.memory().releasePending();
  EXPECT_EQ(driver.memory().pendingFrees(), 6u);
  driver.memory().deferReleases(false);
  driver.memory().releasePending();
  EXPECT_EQ(driver.memory().pendingFrees(), 0u);
  EXPECT_EQ(driver.memory().pendingFreeBytes(), 0u);
  // A block of 256 MB or more goes back at once, for the next allocation of its size.
  constexpr size_t Large = size_t{256} << 20;
  driver.memory().freeDeferred(driver.memory().allocate(Large), Large, device);
  EXPECT_EQ(driver.memory().pendingFrees(), 0u);
  cuda::CudaMemory::setReleaseLimits(10, 0.2);
}

TEST(CudaDriverGpuTest, LoadAndLaunchPtx) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  std::string log;
  void *module = driver.modules().loadModule(WriteTidPtx, 0, &log);
  ASSERT_NE(module, nullptr);
  void *function = driver.modules().getFunction(module, "write_tid");
  EXPECT_GE(
      driver.modules().functionAttribute(function, cuda::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
      32);
  EXPECT_GT(driver.modules().functionAttribute(function, cuda::CU_FUNC_ATTRIBUTE_NUM_REGS), 0);

  uint64_t out = driver.memory().allocate(32 * sizeof(uint32_t));
  driver.memory().memset(out, 0xFF, 32 * sizeof(uint32_t));
  void *arguments[] = {&out};
  driver.streams().launch(function, 1, 1, 1, 32, 1, 1, 0, nullptr, arguments);
  driver.synchronize();
  std::vector<uint32_t> result(32);
  driver.memory().copyToHost(result.data(), out, result.size() * sizeof(uint32_t));
  for (uint32_t i = 0; i < 32; ++i)
    EXPECT_EQ(result[i], i);

  // The cooperative launch of one block always fits.
  if (driver.contexts().deviceAttribute(0, cuda::CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)) {
    driver.memory().memset(out, 0, 32 * sizeof(uint32_t));
    driver.streams().launchCooperative(function, 1, 1, 1, 32, 1, 1, 0, nullptr, arguments);
    driver.synchronize();
    driver.memory().copyToHost(result.data(), out, result.size() * sizeof(uint32_t));
    EXPECT_EQ(result[31], 31u);
  }

  try {
    driver.modules().getFunction(module, "no_such_kernel");
    FAIL() << "a missing kernel was found";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.code(), cuda::CUDA_ERROR_NOT_FOUND);
    EXPECT_NE(std::string(error.what()).find("no_such_kernel"), std::string::npos);
  }
  EXPECT_THROW(driver.modules().getGlobal(module, "no_such_global"), CudaError);
  driver.memory().free(out);
  driver.modules().unloadModule(module);
}

TEST(CudaDriverGpuTest, BadPtxReportsJitLog) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  std::string bad = WriteTidPtx;
  bad.replace(bad.find("mov.u32"), 7, "mov.q99");
  std::string log;
  try {
    driver.modules().loadModule(bad, 0, &log);
    FAIL() << "bad PTX loaded";
  } catch (const CudaError &error) {
    EXPECT_FALSE(log.empty());
    // The JIT's own words are part of the message users see.
    EXPECT_NE(std::string(error.what()).find(log), std::string::npos) << error.what();
  }
}

TEST(CudaDriverGpuTest, StreamsEventsAndOccupancy) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  void *module = driver.modules().loadModule(WriteTidPtx);
  void *function = driver.modules().getFunction(module, "write_tid");

  void *stream = driver.streams().createStream();
  void *start = driver.streams().createEvent(true);
  void *end = driver.streams().createEvent(true);
  constexpr size_t Bytes = 1 << 20;
  void *pinned = driver.memory().allocatePinned(Bytes);
  std::memset(pinned, 3, Bytes);
  uint64_t device = driver.memory().allocate(Bytes);
  driver.streams().recordEvent(start, stream);
  driver.memory().copyToDevice(device, pinned, Bytes, stream);
  void *arguments[] = {&device};
  driver.streams().launch(function, 1, 1, 1, 32, 1, 1, 0, stream, arguments);
  driver.memory().copyToHost(pinned, device, Bytes, stream);
  driver.streams().recordEvent(end, stream);
  driver.streams().synchronizeEvent(end);
  EXPECT_TRUE(driver.streams().queryEvent(end));
  driver.streams().synchronizeStream(stream);
  EXPECT_TRUE(driver.streams().queryStream(stream));
  EXPECT_GE(driver.streams().elapsedMilliseconds(start, end), 0.0f);
  auto *words = static_cast<uint32_t *>(pinned);
  EXPECT_EQ(words[5], 5u);
  EXPECT_EQ(words[32], 0x03030303u);

  // The default streams are plain handles.
  driver.streams().recordEvent(start, cuda::StreamLegacy);
  driver.streams().recordEvent(end, cuda::StreamPerThread);
  driver.streams().synchronizeStream(cuda::StreamLegacy);
  driver.streams().synchronizeStream(cuda::StreamPerThread);

  int blocks = driver.streams().maxActiveBlocksPerMultiprocessor(function, 32, 0);
  EXPECT_GT(blocks, 0);
  auto [minGridSize, blockSize] = driver.streams().suggestedLaunchConfiguration(function, 0);
  EXPECT_GT(minGridSize, 0);
  EXPECT_GT(blockSize, 0);
  EXPECT_EQ(blockSize % 32, 0);
  driver.modules().setMaxDynamicSharedMemory(function, 1024);

  void *untimed = driver.streams().createEvent(false);
  driver.streams().recordEvent(untimed, stream);
  driver.streams().synchronizeEvent(untimed);
  EXPECT_THROW(driver.streams().elapsedMilliseconds(start, untimed), CudaError);

  driver.streams().destroyEvent(untimed);
  driver.streams().destroyEvent(start);
  driver.streams().destroyEvent(end);
  driver.streams().destroyStream(stream);
  driver.memory().free(device);
  driver.memory().freePinned(pinned);
  driver.modules().unloadModule(module);
}

TEST(CudaDriverGpuTest, ContextFollowsToOtherThreadsAndSurvivesClose) {
  REQUIRE_GPU();
  CudaDriver &driver = CudaDriver::get();
  uint64_t address = driver.memory().allocate(4);
  uint32_t value = 0x12345678, back = 0;
  driver.memory().copyToDevice(address, &value, sizeof(value));
  // A fresh thread has no current context; the driver makes the primary one current there.
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      driver.memory().copyToHost(&back, address, sizeof(back));
    } catch (...) {
      failure = std::current_exception();
    }
  });
  worker.join();
  if (failure)
    std::rethrow_exception(failure);
  EXPECT_EQ(back, value);
  driver.memory().free(address);

  driver.closeAll();
  uint64_t again = driver.memory().allocate(16);
  EXPECT_NE(again, 0u);
  EXPECT_EQ(driver.contexts().currentDevice(), 0);
  driver.memory().free(again);
}

} // namespace
