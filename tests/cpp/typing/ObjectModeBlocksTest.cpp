// ObjectModeBlocksTest.cpp - Unit tests of typing/ObjectModeBlocks.h (the registry of
// `with objmode(...)` blocks and their call sites) and of runtime/ObjectMode.h's entry point.

#include "typing/ObjectModeBlocks.h"
#include "runtime/ObjectMode.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <string>

using namespace taipan;

namespace {

TEST(ObjectModeBlocksTest, BlocksKeepTheirDeclarationsUnderTheirIds) {
  ObjectModeBlock block;
  block.outputNames = {"z", "s"};
  block.outputTypes = {types::float64(), types::unicode()};
  block.inputNames = {"y"};
  block.where = "\"f.py\", line 3";
  int id = registerObjectModeBlock(block);
  int next = registerObjectModeBlock(ObjectModeBlock{});
  EXPECT_GE(id, 1);
  EXPECT_EQ(next, id + 1);
  const ObjectModeBlock *found = findObjectModeBlock(id);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->outputNames, block.outputNames);
  EXPECT_EQ(found->outputTypes, block.outputTypes);
  EXPECT_EQ(found->inputNames, block.inputNames);
  EXPECT_EQ(found->where, block.where);
  EXPECT_EQ(findObjectModeBlock(0), nullptr);
  EXPECT_EQ(findObjectModeBlock(next + 1000), nullptr);
}

TEST(ObjectModeBlocksTest, OneSitePerBlockAndArgumentTypes) {
  int block = registerObjectModeBlock(ObjectModeBlock{});
  int first = objectModeSite(block, {types::int64(), types::float64()});
  EXPECT_EQ(objectModeSite(block, {types::int64(), types::float64()}), first);
  int other = objectModeSite(block, {types::float64(), types::float64()});
  EXPECT_NE(other, first);
  EXPECT_NE(objectModeSite(block + 1, {types::int64(), types::float64()}), first);
  const ObjectModeSite *site = findObjectModeSite(first);
  ASSERT_NE(site, nullptr);
  EXPECT_EQ(site->block, block);
  EXPECT_EQ(site->argumentTypes, (std::vector<const Type *>{types::int64(), types::float64()}));
  EXPECT_EQ(findObjectModeSite(0), nullptr);
}

TEST(ObjectModeBlocksTest, EntryWithoutBindingsRaisesRuntimeError) {
  // Without the bindings' hook (this test has no Python), a block cannot run: the call fails
  // with a RuntimeError pending instead of crashing.
  EXPECT_NE(taipan_objmode_call(1, nullptr, nullptr), 0);
  runtime::PendingException pending = runtime::takePendingException();
  EXPECT_EQ(pending.exceptionId, RuntimeErrorId);
  ASSERT_NE(pending.message, nullptr);
  EXPECT_NE(std::string(pending.message).find("objmode"), std::string::npos);
}

} // namespace
