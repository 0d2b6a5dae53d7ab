// GpuTesting.h - How C++ tests that need a GPU decide to run: they skip unless the GPU host asks
// for them (TAIPAN_EXPECT_GPU=1), where a missing device is a failure.
#pragma once

#include "cuda/CudaDriver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace taipan::testing {

/// Set on the GPU host, where a missing device is a failure rather than a skip.
inline bool gpuExpected() {
  const char *value = std::getenv("TAIPAN_EXPECT_GPU");
  return value && std::string(value) == "1";
}

} // namespace taipan::testing

/// Skips the test unless the GPU host asked for it; fails it if that host has no usable GPU.
#define REQUIRE_GPU()                                                                              \
  do {                                                                                             \
    if (!taipan::testing::gpuExpected())                                                           \
      GTEST_SKIP() << "set TAIPAN_EXPECT_GPU=1 to run on a GPU";                                   \
    ASSERT_TRUE(taipan::cuda::CudaDriver::get().library().available())                             \
        << taipan::cuda::CudaDriver::get().library().unavailableReason();                          \
  } while (false)
