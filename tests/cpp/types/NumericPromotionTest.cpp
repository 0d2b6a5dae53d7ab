// NumericPromotionTest.cpp - Unit tests of types/NumericPromotion.h: Numba's result types for
// arithmetic, bitwise and shift operators, comparisons, unification and implicit conversion.

#include "types/NumericPromotion.h"

#include "../testing/TypePrinter.h"

#include <gtest/gtest.h>

using namespace taipan;

namespace {

const Type *i8() { return types::integer(8, true); }
const Type *i16() { return types::integer(16, true); }
const Type *i32() { return types::integer(32, true); }
const Type *u8() { return types::integer(8, false); }
const Type *u32() { return types::integer(32, false); }
const Type *i64() { return types::int64(); }
const Type *u64() { return types::uint64(); }
const Type *f32() { return types::float32(); }
const Type *f64() { return types::float64(); }
const Type *c64() { return types::complex(64); }
const Type *c128() { return types::complex128(); }
const Type *b1() { return types::boolean(); }

TEST(NumericPromotionTest, IntegerArithmeticWidensTo64Bits) {
  EXPECT_EQ(binaryResultType(BinaryOp::Add, i32(), i32()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Mult, i8(), i16()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Sub, i64(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, u32(), u32()), u64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, u8(), u8()), u64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, u64(), u64()), u64());
}

TEST(NumericPromotionTest, MixedSignednessIsSigned) {
  EXPECT_EQ(binaryResultType(BinaryOp::Add, u64(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, i64(), u64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Mult, u32(), i8()), i64());
}

TEST(NumericPromotionTest, BooleansCountAsSignedIntegers) {
  EXPECT_EQ(binaryResultType(BinaryOp::Add, b1(), b1()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Sub, b1(), u32()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, b1(), f64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, b1(), f32()), f32());
}

TEST(NumericPromotionTest, FloatPromotion) {
  EXPECT_EQ(binaryResultType(BinaryOp::Add, f32(), f32()), f32());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, f32(), i8()), f32());
  EXPECT_EQ(binaryResultType(BinaryOp::Mult, i16(), f32()), f32());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, f32(), u8()), f32());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, f32(), i32()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, f32(), i64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, f32(), f64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, i64(), f64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, u64(), f64()), f64());
}

TEST(NumericPromotionTest, ComplexPromotion) {
  EXPECT_EQ(binaryResultType(BinaryOp::Add, c64(), f32()), c64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, c64(), i8()), c64());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, c64(), f64()), c128());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, c64(), i64()), c128());
  EXPECT_EQ(binaryResultType(BinaryOp::Mult, c128(), i64()), c128());
  EXPECT_EQ(binaryResultType(BinaryOp::Add, c128(), c64()), c128());
}

TEST(NumericPromotionTest, Complex64WithComplex64StaysComplex64) {
  // Numba (like NumPy) keeps complex64 arithmetic in complex64.
  EXPECT_EQ(binaryResultType(BinaryOp::Add, c64(), c64()), c64());
  EXPECT_EQ(binaryResultType(BinaryOp::Mult, c64(), c64()), c64());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, c64(), c64()), c64());
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, c64(), c64()), c64());
}

TEST(NumericPromotionTest, TrueDivision) {
  EXPECT_EQ(binaryResultType(BinaryOp::Div, i64(), i64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, i32(), i32()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, u64(), u64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, b1(), b1()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, f32(), f32()), f32());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, f32(), i64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Div, c128(), i64()), c128());
}

TEST(NumericPromotionTest, FloorDivisionAndModulo) {
  EXPECT_EQ(binaryResultType(BinaryOp::FloorDiv, i64(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::FloorDiv, i32(), i32()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Mod, u32(), u32()), u64());
  EXPECT_EQ(binaryResultType(BinaryOp::FloorDiv, f64(), i64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Mod, f32(), f32()), f32());
  EXPECT_EQ(binaryResultType(BinaryOp::FloorDiv, c128(), c128()), nullptr);
  EXPECT_EQ(binaryResultType(BinaryOp::Mod, c128(), i64()), nullptr);
}

TEST(NumericPromotionTest, Power) {
  EXPECT_EQ(binaryResultType(BinaryOp::Pow, i64(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::Pow, f64(), i64()), f64());
  EXPECT_EQ(binaryResultType(BinaryOp::Pow, c128(), f64()), c128());
}

TEST(NumericPromotionTest, BitwiseOperators) {
  EXPECT_EQ(binaryResultType(BinaryOp::BitAnd, b1(), b1()), b1());
  EXPECT_EQ(binaryResultType(BinaryOp::BitOr, b1(), b1()), b1());
  EXPECT_EQ(binaryResultType(BinaryOp::BitXor, b1(), b1()), b1());
  EXPECT_EQ(binaryResultType(BinaryOp::BitAnd, b1(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::BitOr, i32(), i32()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::BitXor, u32(), u64()), u64());
  EXPECT_EQ(binaryResultType(BinaryOp::BitAnd, u64(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::BitAnd, f64(), i64()), nullptr);
  EXPECT_EQ(binaryResultType(BinaryOp::BitOr, c128(), c128()), nullptr);
}

TEST(NumericPromotionTest, ShiftsKeepLeftSignednessAt64Bits) {
  EXPECT_EQ(binaryResultType(BinaryOp::LShift, i32(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::LShift, i8(), u64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::RShift, u32(), i64()), u64());
  EXPECT_EQ(binaryResultType(BinaryOp::RShift, u64(), i8()), u64());
  EXPECT_EQ(binaryResultType(BinaryOp::LShift, b1(), i64()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::LShift, i64(), b1()), i64());
  EXPECT_EQ(binaryResultType(BinaryOp::LShift, f64(), i64()), nullptr);
  EXPECT_EQ(binaryResultType(BinaryOp::RShift, i64(), f64()), nullptr);
}

TEST(NumericPromotionTest, NonNumbersHaveNoArithmetic) {
  const Type *pair = types::tuple({i64(), i64()});
  EXPECT_EQ(binaryResultType(BinaryOp::Add, i64(), pair), nullptr);
  // tuple + tuple is concatenation, not arithmetic.
  EXPECT_EQ(binaryResultType(BinaryOp::Add, pair, pair),
            types::tuple({i64(), i64(), i64(), i64()}));
  EXPECT_EQ(binaryResultType(BinaryOp::Mult, pair, pair), nullptr);
  EXPECT_EQ(binaryResultType(BinaryOp::Add, types::none(), i64()), nullptr);
  EXPECT_EQ(binaryResultType(BinaryOp::MatMult, f64(), f64()), nullptr);
  EXPECT_EQ(binaryResultType(BinaryOp::Add, types::stringLiteral("a"), i64()), nullptr);
}

TEST(NumericPromotionTest, OperandTypeOfDivisionIsTheFloatItComputesIn) {
  EXPECT_EQ(binaryOperandType(BinaryOp::Div, i64(), i64()), f64());
  EXPECT_EQ(binaryOperandType(BinaryOp::Add, i32(), f32()), f64());
  EXPECT_EQ(binaryOperandType(BinaryOp::Add, u64(), i64()), i64());
}

TEST(NumericPromotionTest, Comparisons) {
  EXPECT_EQ(comparisonOperandType(CompareOp::Lt, i64(), f64()), f64());
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, i32(), i32()), i64());
  // int64 and uint64 have no common integer type: Numba compares them as float64.
  EXPECT_EQ(comparisonOperandType(CompareOp::Lt, u64(), i64()), f64());
  EXPECT_EQ(comparisonOperandType(CompareOp::Lt, u32(), i64()), i64());
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, b1(), b1()), b1());
  EXPECT_EQ(comparisonOperandType(CompareOp::Lt, b1(), b1()), b1());
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, c128(), f64()), c128());
  EXPECT_EQ(comparisonOperandType(CompareOp::NotEq, c128(), c128()), c128());
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, types::none(), types::none()), types::none());
  const Type *pair = types::tuple({i64(), f64()});
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, pair, pair), pair);
  EXPECT_EQ(comparisonOperandType(CompareOp::Eq, pair, i64()), nullptr);
}

TEST(NumericPromotionTest, ComplexOrderingComparisonDoesNotExist) {
  EXPECT_EQ(comparisonOperandType(CompareOp::Lt, c128(), c128()), nullptr);
  EXPECT_EQ(comparisonOperandType(CompareOp::LtE, c128(), f64()), nullptr);
  EXPECT_EQ(comparisonOperandType(CompareOp::Gt, i64(), c64()), nullptr);
  EXPECT_EQ(comparisonOperandType(CompareOp::GtE, c64(), c64()), nullptr);
}

TEST(NumericPromotionTest, IdentityAndMembershipHaveNoOperandType) {
  EXPECT_EQ(comparisonOperandType(CompareOp::Is, i64(), i64()), nullptr);
  EXPECT_EQ(comparisonOperandType(CompareOp::IsNot, types::none(), types::none()), nullptr);
  EXPECT_EQ(comparisonOperandType(CompareOp::In, i64(), types::tuple({i64()})), nullptr);
}

TEST(NumericPromotionTest, UnaryOperators) {
  EXPECT_EQ(unaryResultType(UnaryOp::Neg, i32()), i64());
  EXPECT_EQ(unaryResultType(UnaryOp::Neg, u32()), u64());
  EXPECT_EQ(unaryResultType(UnaryOp::Neg, b1()), i64());
  EXPECT_EQ(unaryResultType(UnaryOp::Pos, f32()), f32());
  EXPECT_EQ(unaryResultType(UnaryOp::Neg, c128()), c128());
  EXPECT_EQ(unaryResultType(UnaryOp::Invert, b1()), b1());
  EXPECT_EQ(unaryResultType(UnaryOp::Invert, i8()), i64());
  EXPECT_EQ(unaryResultType(UnaryOp::Invert, f64()), nullptr);
  EXPECT_EQ(unaryResultType(UnaryOp::Not, f64()), b1());
  EXPECT_EQ(unaryResultType(UnaryOp::Not, types::tuple({i64()})), b1());
  EXPECT_EQ(unaryResultType(UnaryOp::Neg, types::tuple({i64()})), nullptr);
}

TEST(NumericPromotionTest, UnifyScalars) {
  EXPECT_EQ(unifyTypes(i64(), i64()), i64());
  EXPECT_EQ(unifyTypes(nullptr, f32()), f32());
  EXPECT_EQ(unifyTypes(f32(), nullptr), f32());
  EXPECT_EQ(unifyTypes(i64(), f64()), f64());
  EXPECT_EQ(unifyTypes(f64(), i64()), f64());
  EXPECT_EQ(unifyTypes(i64(), u64()), f64());
  EXPECT_EQ(unifyTypes(u64(), i8()), f64());
  EXPECT_EQ(unifyTypes(i32(), i64()), i64());
  EXPECT_EQ(unifyTypes(i32(), u32()), i64());
  EXPECT_EQ(unifyTypes(i8(), u8()), i16());
  EXPECT_EQ(unifyTypes(u8(), u32()), u32());
  EXPECT_EQ(unifyTypes(b1(), i32()), i32());
  EXPECT_EQ(unifyTypes(b1(), f64()), f64());
  EXPECT_EQ(unifyTypes(f32(), f64()), f64());
  EXPECT_EQ(unifyTypes(f32(), i64()), f64());
  EXPECT_EQ(unifyTypes(i64(), c128()), c128());
  EXPECT_EQ(unifyTypes(f64(), c128()), c128());
  EXPECT_EQ(unifyTypes(types::none(), types::none()), types::none());
}

TEST(NumericPromotionTest, UnifyFailsAcrossKinds) {
  EXPECT_EQ(unifyTypes(i64(), types::none()), nullptr);
  EXPECT_EQ(unifyTypes(i64(), types::tuple({i64()})), nullptr);
  EXPECT_EQ(unifyTypes(types::module("math"), i64()), nullptr);
  EXPECT_EQ(unifyTypes(types::range(), i64()), nullptr);
}

TEST(NumericPromotionTest, TuplesUnifyElementwise) {
  const Type *intFloat = types::tuple({i64(), f64()});
  const Type *floatInt = types::tuple({f64(), i64()});
  EXPECT_EQ(unifyTypes(intFloat, floatInt), types::tuple({f64(), f64()}));
  EXPECT_EQ(unifyTypes(types::tuple({i32(), b1()}), types::tuple({i64(), b1()})),
            types::tuple({i64(), b1()}));
  EXPECT_EQ(unifyTypes(types::tuple({i64(), types::tuple({i32()})}),
                       types::tuple({i64(), types::tuple({f32()})})),
            types::tuple({i64(), types::tuple({f64()})}));
  EXPECT_EQ(unifyTypes(intFloat, types::tuple({i64()})), nullptr);
  EXPECT_EQ(unifyTypes(intFloat, types::tuple({i64(), types::none()})), nullptr);
}

TEST(NumericPromotionTest, ConversionKinds) {
  // Numba's casting graph (numba/core/typeconv/rules.py), closed over paths: a path is as bad
  // as its worst step, the best path counts.
  EXPECT_EQ(conversionKind(i64(), i64()), Conversion::Exact);
  EXPECT_EQ(conversionKind(i32(), i64()), Conversion::Promote);
  EXPECT_EQ(conversionKind(f32(), f64()), Conversion::Promote);
  EXPECT_EQ(conversionKind(i64(), f64()), Conversion::Safe);
  EXPECT_EQ(conversionKind(b1(), i64()), Conversion::Safe);
  EXPECT_EQ(conversionKind(i64(), c128()), Conversion::Safe);
  EXPECT_EQ(conversionKind(f64(), c128()), Conversion::Safe);
  EXPECT_EQ(conversionKind(i64(), f32()), Conversion::Unsafe);
  EXPECT_EQ(conversionKind(f64(), i64()), Conversion::Unsafe);
  EXPECT_EQ(conversionKind(f32(), i32()), Conversion::Unsafe);
  EXPECT_EQ(conversionKind(f64(), b1()), Conversion::Unsafe);
  EXPECT_EQ(conversionKind(c128(), f64()), Conversion::Impossible);
  EXPECT_EQ(conversionKind(i64(), types::none()), Conversion::Impossible);
  EXPECT_EQ(conversionKind(i64(), types::tuple({i64()})), Conversion::Impossible);
  EXPECT_EQ(conversionKind(types::tuple({i32(), f32()}), types::tuple({i64(), f64()})),
            Conversion::Promote);
  EXPECT_EQ(conversionKind(types::tuple({f64(), i64()}), types::tuple({i64(), i64()})),
            Conversion::Unsafe);
  EXPECT_EQ(conversionKind(types::tuple({c128()}), types::tuple({f64()})), Conversion::Impossible);
  EXPECT_FALSE(canConvertImplicitly(types::tuple({i64()}), types::tuple({i64(), i64()})));
  EXPECT_TRUE(canConvertImplicitly(f64(), i64()));
}

} // namespace
