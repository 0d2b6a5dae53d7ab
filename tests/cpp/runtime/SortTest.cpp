// SortTest.cpp - Checks taipan_sort and taipan_argsort against NumPy's ordering.
// Covers every dtype code, NaN placement, row-wise sorting, strides and argsort stability.

#include "runtime/Sort.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

using namespace taipan::runtime;

namespace {

const double NaN = std::numeric_limits<double>::quiet_NaN();
const float NaNF = std::numeric_limits<float>::quiet_NaN();

/// Sorts one row and compares it to Expected element by element, NaN matching NaN.
template <typename T>
void expectSorted(std::vector<T> Values, const std::vector<T> &Expected, SortDtype Code) {
  taipan_sort(Values.data(), 1, static_cast<int64_t>(Values.size()), Code);
  ASSERT_EQ(Values.size(), Expected.size());
  for (size_t I = 0; I < Values.size(); ++I) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(Expected[I])) {
        EXPECT_TRUE(std::isnan(Values[I])) << "index " << I;
        continue;
      }
    }
    EXPECT_EQ(Values[I], Expected[I]) << "index " << I;
  }
}

TEST(SortTest, IntegerDtypes) {
  expectSorted<uint8_t>({1, 0, 1, 1, 0}, {0, 0, 1, 1, 1}, SortBool);
  expectSorted<int8_t>({5, -128, 127, 0, -1}, {-128, -1, 0, 5, 127}, SortInt8);
  expectSorted<uint8_t>({200, 3, 255, 0}, {0, 3, 200, 255}, SortUInt8);
  expectSorted<int16_t>({-300, 300, -32768, 7}, {-32768, -300, 7, 300}, SortInt16);
  expectSorted<uint16_t>({65535, 1, 40000}, {1, 40000, 65535}, SortUInt16);
  expectSorted<int32_t>({3, -2147483647 - 1, 2147483647, -5}, {-2147483647 - 1, -5, 3, 2147483647},
                        SortInt32);
  expectSorted<uint32_t>({4000000000U, 2, 3000000000U}, {2, 3000000000U, 4000000000U}, SortUInt32);
  expectSorted<int64_t>({INT64_MAX, -4, INT64_MIN, 9, -4}, {INT64_MIN, -4, -4, 9, INT64_MAX},
                        SortInt64);
  // Values above INT64_MAX must not be ordered as negative numbers.
  expectSorted<uint64_t>({UINT64_MAX, 1, 1ULL << 63}, {1, 1ULL << 63, UINT64_MAX}, SortUInt64);
}

TEST(SortTest, FloatsPutNaNLast) {
  // python3 -c "import numpy as np; print(np.sort(np.array([3.5, np.nan, -np.inf, 1.0,
  //   np.nan, np.inf, -2.25, 0.0])))"
  double Inf = std::numeric_limits<double>::infinity();
  expectSorted<double>({3.5, NaN, -Inf, 1.0, NaN, Inf, -2.25, 0.0},
                       {-Inf, -2.25, 0.0, 1.0, 3.5, Inf, NaN, NaN}, SortFloat64);
  expectSorted<float>({NaNF, 2.5f, -1.0f, NaNF, 0.5f}, {-1.0f, 0.5f, 2.5f, NaNF, NaNF},
                      SortFloat32);
  expectSorted<double>({NaN, NaN}, {NaN, NaN}, SortFloat64);
}

TEST(SortTest, SortsEachRowSeparately) {
  std::vector<int32_t> Matrix = {3, 1, 2, 9, 8, 7, -1, 0, -2};
  taipan_sort(Matrix.data(), 3, 3, SortInt32);
  EXPECT_EQ(Matrix, (std::vector<int32_t>{1, 2, 3, 7, 8, 9, -2, -1, 0}));

  std::vector<double> Rows = {NaN, 1.0, 0.5, 2.0, NaN, -1.0};
  taipan_sort(Rows.data(), 2, 3, SortFloat64);
  EXPECT_EQ(Rows[0], 0.5);
  EXPECT_EQ(Rows[1], 1.0);
  EXPECT_TRUE(std::isnan(Rows[2]));
  EXPECT_EQ(Rows[3], -1.0);
  EXPECT_EQ(Rows[4], 2.0);
  EXPECT_TRUE(std::isnan(Rows[5]));
}

TEST(SortTest, EmptyAndUnknownInputsAreLeftAlone) {
  std::vector<int64_t> Values = {3, 1, 2};
  taipan_sort(Values.data(), 0, 3, SortInt64);
  taipan_sort(Values.data(), 1, 0, SortInt64);
  taipan_sort(Values.data(), 1, 3, 99);
  EXPECT_EQ(Values, (std::vector<int64_t>{3, 1, 2}));
  taipan_sort(nullptr, 0, 0, SortFloat64);

  std::vector<int64_t> Indices(3, -1);
  taipan_argsort(Values.data(), 3, sizeof(int64_t), Indices.data(), 99);
  EXPECT_EQ(Indices, (std::vector<int64_t>{0, 1, 2}));
  taipan_argsort(nullptr, 0, 8, nullptr, SortInt64);
}

TEST(SortTest, LargeRandomRowsMatchReference) {
  std::mt19937_64 Engine(12345);
  std::vector<double> Values(10007);
  std::uniform_real_distribution<double> Dist(-1e6, 1e6);
  for (size_t I = 0; I < Values.size(); ++I)
    Values[I] = (I % 97 == 0) ? NaN : Dist(Engine);
  std::vector<double> Sorted = Values;
  taipan_sort(Sorted.data(), 1, static_cast<int64_t>(Sorted.size()), SortFloat64);
  size_t NaNCount = (Values.size() + 96) / 97;
  size_t Finite = Values.size() - NaNCount;
  for (size_t I = 1; I < Finite; ++I)
    EXPECT_LE(Sorted[I - 1], Sorted[I]);
  for (size_t I = Finite; I < Sorted.size(); ++I)
    EXPECT_TRUE(std::isnan(Sorted[I]));
}

TEST(SortTest, ArgsortIsStableWithNaNLast) {
  // python3 -c "import numpy as np; print(np.argsort(np.array([2.0, np.nan, 1.0, 2.0,
  //   np.nan, -3.0, 1.0]), kind='stable'))"
  std::vector<double> Values = {2.0, NaN, 1.0, 2.0, NaN, -3.0, 1.0};
  std::vector<int64_t> Indices(Values.size());
  taipan_argsort(Values.data(), 7, sizeof(double), Indices.data(), SortFloat64);
  EXPECT_EQ(Indices, (std::vector<int64_t>{5, 2, 6, 0, 3, 1, 4}));

  // python3 -c "import numpy as np; print(np.argsort(np.array([1, 0, 1, 0, 1], dtype=bool),
  //   kind='stable'))"
  std::vector<uint8_t> Flags = {1, 0, 1, 0, 1};
  std::vector<int64_t> FlagIndices(5);
  taipan_argsort(Flags.data(), 5, 1, FlagIndices.data(), SortBool);
  EXPECT_EQ(FlagIndices, (std::vector<int64_t>{1, 3, 0, 2, 4}));
}

TEST(SortTest, ArgsortFollowsByteStrides) {
  // Column 1 of a 4x3 int16 matrix: elements 6 bytes apart.
  std::vector<int16_t> Matrix = {0, 40, 0, 0, -7, 0, 0, 40, 0, 0, 12, 0};
  std::vector<int64_t> Indices(4);
  taipan_argsort(Matrix.data() + 1, 4, 3 * sizeof(int16_t), Indices.data(), SortInt16);
  EXPECT_EQ(Indices, (std::vector<int64_t>{1, 3, 0, 2}));

  // A reversed view: a negative stride starting from the last element.
  std::vector<uint64_t> Values = {5, UINT64_MAX, 5, 0};
  taipan_argsort(Values.data() + 3, 4, -static_cast<int64_t>(sizeof(uint64_t)), Indices.data(),
                 SortUInt64);
  // The view is {0, 5, UINT64_MAX, 5}.
  EXPECT_EQ(Indices, (std::vector<int64_t>{0, 1, 3, 2}));

  std::vector<float> Floats = {NaNF, 1.0f, -0.5f};
  taipan_argsort(Floats.data(), 3, sizeof(float), Indices.data(), SortFloat32);
  EXPECT_EQ(std::vector<int64_t>(Indices.begin(), Indices.begin() + 3),
            (std::vector<int64_t>{2, 1, 0}));
}

TEST(SortTest, ArgsortOfRandomIntsIsAStableSortingPermutation) {
  std::mt19937 Engine(7);
  std::uniform_int_distribution<int32_t> Dist(-50, 50);
  std::vector<int8_t> Values(5000);
  for (int8_t &V : Values)
    V = static_cast<int8_t>(Dist(Engine));
  std::vector<int64_t> Indices(Values.size());
  taipan_argsort(Values.data(), static_cast<int64_t>(Values.size()), 1, Indices.data(), SortInt8);
  std::vector<bool> Seen(Values.size());
  for (size_t I = 0; I < Indices.size(); ++I) {
    ASSERT_GE(Indices[I], 0);
    ASSERT_LT(Indices[I], static_cast<int64_t>(Values.size()));
    EXPECT_FALSE(Seen[Indices[I]]);
    Seen[Indices[I]] = true;
    if (I > 0) {
      int8_t Previous = Values[Indices[I - 1]], Current = Values[Indices[I]];
      EXPECT_LE(Previous, Current);
      if (Previous == Current) {
        EXPECT_LT(Indices[I - 1], Indices[I]);
      }
    }
  }
}

} // namespace
