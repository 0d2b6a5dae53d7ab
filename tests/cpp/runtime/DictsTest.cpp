// DictsTest.cpp - Checks the dict runtime directly: lookups and insertion order across deletion,
// reinsertion and growth past many rebuilds, -0.0 and 0.0 as one key, NaN keys as distinct,
// popitem order, copies, clear, lists of values, and balanced allocation counters.

#include "runtime/Dicts.h"
#include "runtime/Lists.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace taipan::runtime;

namespace {

/// The layout of a dict of int64 keys (or float64 keys) to int64 values, no references.
const int64_t IntLayout[] = {8, 8, 0, 0, 2, DictKeySigned | 8, 0};
const int64_t FloatLayout[] = {8, 8, 0, 0, 2, DictKeyFloat | 8, 0};

int64_t valueOf(MemInfo *dict, int64_t key) {
  char *slot = taipan_dict_get(dict, &key);
  return slot ? *reinterpret_cast<int64_t *>(slot) : -1;
}

std::vector<int64_t> keysOf(MemInfo *dict) {
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < dictHeader(dict)->used; ++i)
    if (char *key = taipan_dict_entry(dict, i, 0))
      keys.push_back(*reinterpret_cast<int64_t *>(key));
  return keys;
}

TEST(DictsTest, StoresFindsAndKeepsInsertionOrder) {
  AllocationStatistics before = allocationStatistics();
  MemInfo *dict = taipan_dict_new(IntLayout);
  ASSERT_NE(dict, nullptr);
  for (int64_t k = 0; k < 100000; ++k) {
    int64_t key = k * 7919 % 100003, value = k;
    ASSERT_EQ(taipan_dict_set(dict, &key, &value), 0);
  }
  EXPECT_EQ(dictHeader(dict)->size, 100000);
  EXPECT_EQ(valueOf(dict, 7919), 1);
  EXPECT_EQ(valueOf(dict, 200000), -1); // keys are below 100003
  int64_t key = 7919;
  EXPECT_EQ(taipan_dict_pop(dict, &key, nullptr), 1);
  EXPECT_EQ(taipan_dict_pop(dict, &key, nullptr), 0);
  int64_t value = 5;
  ASSERT_EQ(taipan_dict_set(dict, &key, &value), 0);
  std::vector<int64_t> keys = keysOf(dict);
  EXPECT_EQ(keys.front(), 0);
  EXPECT_EQ(keys.back(), 7919); // reinserted: last
  int64_t poppedKey, poppedValue;
  EXPECT_EQ(taipan_dict_popitem(dict, &poppedKey, &poppedValue), 1);
  EXPECT_EQ(poppedKey, 7919);
  EXPECT_EQ(poppedValue, 5);
  taipan_nrt_decref(dict);
  AllocationStatistics after = allocationStatistics();
  EXPECT_EQ(after.allocations - before.allocations, after.frees - before.frees);
}

TEST(DictsTest, FloatKeysCompareByValue) {
  MemInfo *dict = taipan_dict_new(FloatLayout);
  double zero = 0.0, negativeZero = -0.0, nan = std::nan("");
  int64_t one = 1, two = 2;
  taipan_dict_set(dict, &zero, &one);
  taipan_dict_set(dict, &negativeZero, &two); // the same key as 0.0
  EXPECT_EQ(dictHeader(dict)->size, 1);
  taipan_dict_set(dict, &nan, &one);
  taipan_dict_set(dict, &nan, &two); // NaN never equals itself: a second key
  EXPECT_EQ(dictHeader(dict)->size, 3);
  EXPECT_EQ(taipan_dict_get(dict, &nan), nullptr);
  taipan_nrt_decref(dict);
}

TEST(DictsTest, ClearAndCopyKeepEntries) {
  MemInfo *dict = taipan_dict_new(IntLayout);
  for (int64_t k = 0; k < 10; ++k)
    taipan_dict_set(dict, &k, &k);
  MemInfo *copy = taipan_dict_copy(dict);
  taipan_dict_clear(dict);
  EXPECT_EQ(dictHeader(dict)->size, 0);
  EXPECT_EQ(keysOf(copy).size(), 10u);
  EXPECT_EQ(valueOf(copy, 9), 9);
  MemInfo *values = taipan_dict_to_list(copy, 8, -1, 0, nullptr, 0);
  EXPECT_EQ(listHeader(values)->size, 10);
  taipan_nrt_decref(values);
  taipan_nrt_decref(copy);
  taipan_nrt_decref(dict);
}

} // namespace
