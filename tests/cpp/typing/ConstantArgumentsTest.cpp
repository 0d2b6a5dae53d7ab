// ConstantArgumentsTest.cpp - Unit tests of typing/ConstantArguments.h: the evaluator of constant
// integer expressions (literals, frozen globals, arithmetic, tuples).

#include "../testing/SyntaxBuilder.h"

#include "typing/ConstantArguments.h"

#include <gtest/gtest.h>

using namespace taipan;
using namespace taipan::test;

namespace {

using Values = std::optional<std::vector<int64_t>>;

/// The expected result of an evaluation that succeeds.
Values values(std::vector<int64_t> integers) { return integers; }

TEST(ConstantArgumentsTest, IntegerLiteralAndTupleOfLiterals) {
  SyntaxBuilder b("f", {});
  std::unordered_map<int, GlobalValue> globals;
  EXPECT_EQ(constantIntegers(b.constant(intConstant(16)), globals), values({16}));
  Expr *shape = b.tuple({b.constant(intConstant(4)), b.constant(intConstant(-8))});
  EXPECT_EQ(constantIntegers(shape, globals), values({4, -8}));
  EXPECT_EQ(constantIntegers(b.tuple({}), globals), values({}));
}

TEST(ConstantArgumentsTest, ArithmeticFollowsPython) {
  SyntaxBuilder b("f", {});
  std::unordered_map<int, GlobalValue> globals;
  auto binary = [&](BinaryOp op, int64_t left, int64_t right) {
    return constantIntegers(
        b.binary(op, b.constant(intConstant(left)), b.constant(intConstant(right))), globals);
  };
  EXPECT_EQ(binary(BinaryOp::Add, 16, 1), values({17}));
  EXPECT_EQ(binary(BinaryOp::Sub, 2, 5), values({-3}));
  EXPECT_EQ(binary(BinaryOp::Mult, -4, 8), values({-32}));
  EXPECT_EQ(binary(BinaryOp::FloorDiv, 7, 2), values({3}));
  EXPECT_EQ(binary(BinaryOp::FloorDiv, -7, 2), values({-4})); // floors, as Python does
  EXPECT_EQ(binary(BinaryOp::FloorDiv, 7, -2), values({-4}));
  EXPECT_EQ(binary(BinaryOp::FloorDiv, -8, 2), values({-4}));
  EXPECT_EQ(binary(BinaryOp::FloorDiv, 1, 0), std::nullopt);
  EXPECT_EQ(binary(BinaryOp::Mod, 7, 2), std::nullopt); // not among the folded operators
}

TEST(ConstantArgumentsTest, FrozenGlobals) {
  SyntaxBuilder b("f", {});
  Expr *tile = b.name("TILE");
  Expr *shape = b.name("SHAPE");
  Expr *scale = b.name("SCALE");
  std::unordered_map<int, GlobalValue> globals;
  globals[tile->id] = constantValue(intConstant(32));
  GlobalValue tuple;
  tuple.kind = GlobalValue::Kind::ConstantTuple;
  tuple.items = {intConstant(2), intConstant(3)};
  globals[shape->id] = tuple;
  globals[scale->id] = constantValue(floatConstant(0.5));
  EXPECT_EQ(constantIntegers(tile, globals), values({32}));
  EXPECT_EQ(constantIntegers(shape, globals), values({2, 3}));
  Expr *padded = b.tuple({tile, b.binary(BinaryOp::Add, tile, b.constant(intConstant(1)))});
  EXPECT_EQ(constantIntegers(padded, globals), values({32, 33}));
  EXPECT_EQ(constantIntegers(scale, globals), std::nullopt);       // a float is no extent
  EXPECT_EQ(constantIntegers(b.name("n"), globals), std::nullopt); // a run-time variable
  EXPECT_EQ(constantIntegers(b.tuple({tile, b.name("n")}), globals), std::nullopt);
}

} // namespace
