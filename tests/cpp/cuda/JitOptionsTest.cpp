// JitOptionsTest.cpp - The option list given to cuModuleLoadDataEx and cuLinkCreate: the logs
// always, and max_registers only when a kernel asks for a limit.

#include "cuda/CudaDriverApi.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace api = taipan::cuda::driver_api;

namespace {

std::uintptr_t integerOption(const api::JitOptions &options, int option) {
  return reinterpret_cast<std::uintptr_t>(options.valueOf(option));
}

TEST(JitOptions, LogsWithoutRegisterLimit) {
  api::JitOptions options;
  EXPECT_EQ(options.count(), 5u);
  for (unsigned i = 0; i < options.count(); ++i)
    EXPECT_NE(options.options()[i], api::CU_JIT_MAX_REGISTERS);
  EXPECT_NE(options.valueOf(api::CU_JIT_INFO_LOG_BUFFER), nullptr);
  EXPECT_NE(options.valueOf(api::CU_JIT_ERROR_LOG_BUFFER), nullptr);
  EXPECT_EQ(integerOption(options, api::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES), api::JitLogBytes - 1);
  EXPECT_EQ(integerOption(options, api::CU_JIT_LOG_VERBOSE), 1u);
}

TEST(JitOptions, MaxRegistersReachesTheJit) {
  api::JitOptions options(40);
  ASSERT_EQ(options.count(), 6u);
  EXPECT_EQ(options.options()[5], api::CU_JIT_MAX_REGISTERS);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(options.values()[5]), 40u);
  EXPECT_EQ(integerOption(options, api::CU_JIT_MAX_REGISTERS), 40u);
}

TEST(JitOptions, NonPositiveLimitIsNoLimit) {
  api::JitOptions options(0);
  EXPECT_EQ(options.count(), 5u);
  EXPECT_EQ(options.valueOf(api::CU_JIT_MAX_REGISTERS), nullptr);
}

TEST(JitOptions, EmptyLogsReadAsEmptyText) {
  api::JitOptions options;
  EXPECT_EQ(options.infoLog(), "");
  std::string log = "stale";
  EXPECT_EQ(options.failureLog(&log), "");
  EXPECT_EQ(log, "");
}

} // namespace
