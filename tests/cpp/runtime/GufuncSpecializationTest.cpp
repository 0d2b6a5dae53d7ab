// GufuncSpecializationTest.cpp - Checks which loop a SpecializingGufuncLoop runs: the generic
// one until a size tuple has run long enough, then the copy compiled for it; never a copy for
// other sizes, large sizes or after a failed compile; at most MaximumCopies copies.

#include "runtime/GufuncSpecialization.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace taipan::runtime;

namespace {

/// Which fake loop ran last: each writes its tag through `args[0]`.
void genericLoop(char **args, const int64_t *, const int64_t *, void *) { *args[0] = 'g'; }
void copyLoop(char **args, const int64_t *, const int64_t *, void *) { *args[0] = 'c'; }

/// Runs one call with core sizes `m` and `n` and returns the tag of the loop that ran.
char runCall(SpecializingGufuncLoop &loop, int64_t m, int64_t n) {
  char tag = '?';
  char *args[3] = {&tag, nullptr, nullptr};
  int64_t dimensions[3] = {1, m, n};
  int64_t steps[5] = {0, 0, 0, 0, 0};
  loop.run(args, dimensions, steps);
  return tag;
}

ParallelUfuncLoop twoCoreDimensions() { return {&genericLoop, 1, 2, 2}; }

/// A compiler that counts its calls in `compiles` and gives `result` (null: a failed compile).
SpecializingGufuncLoop::Compile countingCompiler(int &compiles, UfuncLoop result) {
  return [&compiles, result](const std::vector<int64_t> &) {
    ++compiles;
    return result;
  };
}

} // namespace

TEST(GufuncSpecializationTest, CompilesOnTheSecondCallAtAThresholdOfZero) {
  std::vector<std::vector<int64_t>> asked;
  SpecializingGufuncLoop loop(twoCoreDimensions(), false, 0, [&](const std::vector<int64_t> &s) {
    asked.push_back(s);
    return &copyLoop;
  });
  EXPECT_EQ(runCall(loop, 4, 3), 'g');
  EXPECT_EQ(runCall(loop, 4, 3), 'c');
  EXPECT_EQ(runCall(loop, 4, 3), 'c');
  EXPECT_EQ(runCall(loop, 3, 4), 'g'); // other sizes: no copy yet
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(loop.compiledSizes(), (std::vector<std::vector<int64_t>>{{4, 3}}));
}

TEST(GufuncSpecializationTest, WaitsForTheThreshold) {
  int compiles = 0;
  SpecializingGufuncLoop loop(twoCoreDimensions(), false, int64_t{1} << 60,
                              countingCompiler(compiles, &copyLoop));
  for (int call = 0; call < 100; ++call)
    EXPECT_EQ(runCall(loop, 2, 2), 'g');
  EXPECT_EQ(compiles, 0);
}

TEST(GufuncSpecializationTest, NoCopyForLargeOrEmptySizes) {
  int compiles = 0;
  SpecializingGufuncLoop loop(twoCoreDimensions(), false, 0, countingCompiler(compiles, &copyLoop));
  for (int call = 0; call < 3; ++call) {
    EXPECT_EQ(runCall(loop, SpecializingGufuncLoop::MaximumSize + 1, 2), 'g');
    EXPECT_EQ(runCall(loop, 0, 2), 'g');
  }
  EXPECT_EQ(compiles, 0);
}

TEST(GufuncSpecializationTest, AFailedCompileRunsTheGenericLoopForGood) {
  int compiles = 0;
  SpecializingGufuncLoop loop(twoCoreDimensions(), false, 0, countingCompiler(compiles, nullptr));
  for (int call = 0; call < 5; ++call)
    EXPECT_EQ(runCall(loop, 4, 4), 'g');
  EXPECT_EQ(compiles, 1);
  EXPECT_TRUE(loop.compiledSizes().empty());
}

TEST(GufuncSpecializationTest, AtMostMaximumCopies) {
  int compiles = 0;
  SpecializingGufuncLoop loop(twoCoreDimensions(), false, 0, countingCompiler(compiles, &copyLoop));
  for (int64_t n = 1; n <= SpecializingGufuncLoop::MaximumCopies + 3; ++n) {
    runCall(loop, n, n);
    char second = runCall(loop, n, n);
    EXPECT_EQ(second, n <= SpecializingGufuncLoop::MaximumCopies ? 'c' : 'g');
  }
  EXPECT_EQ(compiles, SpecializingGufuncLoop::MaximumCopies);
  EXPECT_EQ(loop.compiledSizes().size(), size_t(SpecializingGufuncLoop::MaximumCopies));
}

TEST(GufuncSpecializationTest, WithoutACompilerOnlyTheGenericLoopRuns) {
  SpecializingGufuncLoop loop(twoCoreDimensions(), false, 0, nullptr);
  for (int call = 0; call < 3; ++call)
    EXPECT_EQ(runCall(loop, 4, 4), 'g');
}
