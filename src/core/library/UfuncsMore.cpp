// UfuncsMore: NumPy's comparison, logical, bitwise and shift ufuncs, gcd and lcm, logaddexp,
// float_power, conj, nextafter, ldexp, spacing, isnat, and the ufuncs of two outputs (divmod,
// modf, frexp), each its loop selection next to its element lowering.
#include "library/Families.h"
#include "library/UfuncCalls.h"

#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Intrinsics.h>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace taipan {
namespace {

/// The promoted type of every input.
const Type *promotedInputs(const std::vector<const Type *> &elements) {
  const Type *common = elements[0];
  for (const Type *element : elements)
    common = promoteDtypes(common, element);
  return common;
}

/// Whether a loop of integers (booleans included: they compute as int8) serves these inputs.
bool allIntegers(const std::vector<const Type *> &elements) {
  return std::all_of(elements.begin(), elements.end(),
                     [](const Type *t) { return t->isInteger() || t->isBoolean(); });
}

/// Registers ufunc numpy.<name> of two outputs: `lowerElement` returns an LLVM struct of both.
void addTwoOutputUfunc(Library &library, const std::string &name, unsigned inputs,
                       LoopSelection select, LibraryLowerRule lowerElement) {
  UfuncKernel kernel;
  kernel.inputs = inputs;
  kernel.outputs = 2;
  kernel.selectLoop = std::move(select);
  kernel.lowerElement = std::move(lowerElement);
  library.add(makeUfunc("numpy." + name, std::move(kernel)));
}

/// The struct a two-output kernel returns.
llvm::Value *pairOf(llvm::IRBuilder<> &builder, llvm::Value *first, llvm::Value *second) {
  llvm::StructType *pair =
      llvm::StructType::get(builder.getContext(), {first->getType(), second->getType()});
  llvm::Value *value = llvm::UndefValue::get(pair);
  value = builder.CreateInsertValue(value, first, {0});
  return builder.CreateInsertValue(value, second, {1});
}

// ---- Comparisons.

/// `a op b` of two values of `type` as NumPy's comparison loops: floats ordered (NaN compares
/// false but for !=), complex numbers lexicographically (real part, then imaginary).
llvm::Value *compareValues(LoweringApi &lowering, CompareOp op, llvm::Value *a, llvm::Value *b,
                           const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (type->isComplex()) {
    llvm::Value *ai, *bi;
    llvm::Value *ar = lowering.operators().complexParts(a, ai);
    llvm::Value *br = lowering.operators().complexParts(b, bi);
    llvm::Value *realsEqual = builder.CreateFCmpOEQ(ar, br);
    switch (op) {
    case CompareOp::Eq:
      return builder.CreateAnd(realsEqual, builder.CreateFCmpOEQ(ai, bi));
    case CompareOp::NotEq:
      return builder.CreateNot(builder.CreateAnd(realsEqual, builder.CreateFCmpOEQ(ai, bi)));
    case CompareOp::Lt:
      return builder.CreateOr(builder.CreateFCmpOLT(ar, br),
                              builder.CreateAnd(realsEqual, builder.CreateFCmpOLT(ai, bi)));
    case CompareOp::LtE:
      return builder.CreateOr(builder.CreateFCmpOLT(ar, br),
                              builder.CreateAnd(realsEqual, builder.CreateFCmpOLE(ai, bi)));
    case CompareOp::Gt:
      return builder.CreateOr(builder.CreateFCmpOGT(ar, br),
                              builder.CreateAnd(realsEqual, builder.CreateFCmpOGT(ai, bi)));
    default:
      return builder.CreateOr(builder.CreateFCmpOGT(ar, br),
                              builder.CreateAnd(realsEqual, builder.CreateFCmpOGE(ai, bi)));
    }
  }
  return lowering.operators().lowerComparison(op, a, type, b, type);
}

/// int64 against uint64 (NumPy 2's qQ and Qq loops): exact, both widened to 128 bits.
llvm::Value *compareMixedSigns(LoweringApi &lowering, CompareOp op, llvm::Value *a,
                               const Type *aType, llvm::Value *b, const Type *bType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *wide = builder.getInt128Ty();
  llvm::Value *x = aType->isSigned() ? builder.CreateSExt(a, wide) : builder.CreateZExt(a, wide);
  llvm::Value *y = bType->isSigned() ? builder.CreateSExt(b, wide) : builder.CreateZExt(b, wide);
  return lowering.operators().lowerComparison(op, x, types::integer(128, true), y,
                                              types::integer(128, true));
}

void addComparisons(Library &library) {
  struct Comparison {
    const char *name;
    CompareOp op;
  };
  for (Comparison comparison :
       {Comparison{"greater", CompareOp::Gt}, Comparison{"greater_equal", CompareOp::GtE},
        Comparison{"less", CompareOp::Lt}, Comparison{"less_equal", CompareOp::LtE},
        Comparison{"equal", CompareOp::Eq}, Comparison{"not_equal", CompareOp::NotEq}}) {
    CompareOp op = comparison.op;
    addUfunc(
        library, comparison.name, 2,
        [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
          const Type *common = promotedInputs(elements);
          // Signed against unsigned integers whose promotion is a float compare exactly.
          if (allIntegers(elements) && !common->isInteger() && !common->isBoolean())
            return UfuncLoop{elements, types::boolean()};
          return UfuncLoop{{common, common}, types::boolean()};
        },
        [op](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) {
          const Type *a = call.loop.inputs[0], *b = call.loop.inputs[1];
          if (a != b)
            return compareMixedSigns(lowering, op, values[0], a, values[1], b);
          return compareValues(lowering, op, values[0], values[1], a);
        });
  }
}

// ---- Logical and bitwise functions.

void addLogicalFunctions(Library &library) {
  auto truthLoop = [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
    return UfuncLoop{elements, types::boolean()}; // each input's truth, in its own type
  };
  for (BinaryOp op : {BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor}) {
    const char *name = op == BinaryOp::BitAnd  ? "logical_and"
                       : op == BinaryOp::BitOr ? "logical_or"
                                               : "logical_xor";
    addUfunc(library, name, 2, truthLoop,
             [op](LoweringApi &lowering, const LibraryCall &call,
                  const std::vector<llvm::Value *> &values) {
               llvm::IRBuilder<> &builder = lowering.irBuilder();
               llvm::Value *a = lowering.truthValue(values[0], call.loop.inputs[0]);
               llvm::Value *b = lowering.truthValue(values[1], call.loop.inputs[1]);
               return op == BinaryOp::BitAnd  ? builder.CreateAnd(a, b)
                      : op == BinaryOp::BitOr ? builder.CreateOr(a, b)
                                              : builder.CreateXor(a, b);
             });
  }
  addUfunc(
      library, "logical_not", 1, truthLoop,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.irBuilder().CreateNot(lowering.truthValue(values[0], call.loop.inputs[0]));
      });
  // Bitwise functions of integers and booleans (a boolean loop: logical and/or/xor/not).
  auto integerLoop = [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
    if (!allIntegers(elements))
      return std::nullopt;
    const Type *common = promotedInputs(elements);
    if (!common->isInteger() && !common->isBoolean())
      return std::nullopt; // int64 with uint64: NumPy has no loop
    return uniformLoop(common, elements.size());
  };
  for (BinaryOp op : {BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor}) {
    const char *name = op == BinaryOp::BitAnd  ? "bitwise_and"
                       : op == BinaryOp::BitOr ? "bitwise_or"
                                               : "bitwise_xor";
    addUfunc(
        library, name, 2, integerLoop,
        [op](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          return op == BinaryOp::BitAnd  ? builder.CreateAnd(values[0], values[1])
                 : op == BinaryOp::BitOr ? builder.CreateOr(values[0], values[1])
                                         : builder.CreateXor(values[0], values[1]);
        });
  }
  for (const char *name : {"invert", "bitwise_not"})
    addUfunc(
        library, name, 1, integerLoop,
        [](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &values) {
          return lowering.irBuilder().CreateNot(values[0]);
        });
  // bitwise_count: the 1 bits of |x|, as uint8.
  addUfunc(
      library, "bitwise_count", 1,
      [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
        if (!allIntegers(elements))
          return std::nullopt;
        return UfuncLoop{{withoutBool(elements[0])}, types::integer(8, false)};
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *value = values[0];
        if (call.loop.inputs[0]->isSigned()) {
          llvm::Value *zero = llvm::ConstantInt::get(value->getType(), 0);
          value = builder.CreateSelect(builder.CreateICmpSLT(value, zero), builder.CreateNeg(value),
                                       value);
        }
        llvm::Value *count = lowering.callIntrinsic(llvm::Intrinsic::ctpop, {value});
        return builder.CreateZExtOrTrunc(count, builder.getInt8Ty());
      });
  // Shifts: NumPy's npy_lshift and npy_rshift, defined for every count (a count past the width,
  // or negative, gives 0, or -1 for a negative value shifted right).
  for (bool left : {true, false})
    addUfunc(
        library, left ? "left_shift" : "right_shift", 2,
        [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
          if (!allIntegers(elements))
            return std::nullopt;
          const Type *common = promotedInputs(elements);
          if (!common->isInteger() && !common->isBoolean())
            return std::nullopt;
          return uniformLoop(withoutBool(common), 2);
        },
        [left](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          const Type *type = call.loop.output;
          llvm::Value *a = values[0], *count = values[1];
          llvm::Type *llvmType = a->getType();
          llvm::Value *bits = llvm::ConstantInt::get(llvmType, type->bits());
          llvm::Value *inRange = builder.CreateICmpULT(count, bits); // negative: huge
          llvm::Value *safeCount =
              builder.CreateSelect(inRange, count, llvm::ConstantInt::get(llvmType, 0));
          llvm::Value *zero = llvm::ConstantInt::get(llvmType, 0);
          if (left)
            return builder.CreateSelect(inRange, builder.CreateShl(a, safeCount), zero);
          if (!type->isSigned())
            return builder.CreateSelect(inRange, builder.CreateLShr(a, safeCount), zero);
          llvm::Value *fill = builder.CreateSelect(builder.CreateICmpSLT(a, zero),
                                                   llvm::ConstantInt::get(llvmType, -1), zero);
          return builder.CreateSelect(inRange, builder.CreateAShr(a, safeCount), fill);
        });
}

// ---- gcd and lcm.

/// gcd(|a|, |b|) of two integers of `type` (Euclid's loop on the magnitudes, unsigned so that
/// |INT64_MIN| is exact), in `type`.
llvm::Value *greatestCommonDivisor(LoweringApi &lowering, llvm::Value *a, llvm::Value *b,
                                   const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *zero = llvm::ConstantInt::get(a->getType(), 0);
  auto magnitude = [&](llvm::Value *v) {
    return type->isSigned()
               ? builder.CreateSelect(builder.CreateICmpSLT(v, zero), builder.CreateNeg(v), v)
               : v;
  };
  llvm::Value *x = magnitude(a), *y = magnitude(b);
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *loop = lowering.newBlock("gcd.loop");
  llvm::BasicBlock *step = lowering.newBlock("gcd.step");
  llvm::BasicBlock *done = lowering.newBlock("gcd.done");
  builder.CreateBr(loop);
  builder.SetInsertPoint(loop);
  llvm::PHINode *first = builder.CreatePHI(a->getType(), 2);
  llvm::PHINode *second = builder.CreatePHI(a->getType(), 2);
  first->addIncoming(x, before);
  second->addIncoming(y, before);
  builder.CreateCondBr(builder.CreateICmpEQ(second, zero), done, step);
  builder.SetInsertPoint(step);
  llvm::Value *remainder = builder.CreateURem(first, second);
  first->addIncoming(second, step);
  second->addIncoming(remainder, step);
  builder.CreateBr(loop);
  builder.SetInsertPoint(done);
  return first;
}

void addDivisorFunctions(Library &library) {
  auto integerLoop = [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
    if (!allIntegers(elements))
      return std::nullopt;
    const Type *common = promotedInputs(elements);
    if (common->isBoolean() || !common->isInteger()) // none for booleans, int64 with uint64
      return std::nullopt;
    return uniformLoop(common, 2);
  };
  addUfunc(
      library, "gcd", 2, integerLoop,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return greatestCommonDivisor(lowering, values[0], values[1], call.loop.output);
      });
  // lcm: |a| / gcd * |b|, 0 when either is 0 (NumPy's npy_lcm).
  addUfunc(
      library, "lcm", 2, integerLoop,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *type = call.loop.output;
        llvm::Value *zero = llvm::ConstantInt::get(values[0]->getType(), 0);
        llvm::Value *divisor = greatestCommonDivisor(lowering, values[0], values[1], type);
        auto magnitude = [&](llvm::Value *v) {
          return type->isSigned()
                     ? builder.CreateSelect(builder.CreateICmpSLT(v, zero), builder.CreateNeg(v), v)
                     : v;
        };
        llvm::Value *isZero = builder.CreateICmpEQ(divisor, zero);
        llvm::Value *safe =
            builder.CreateSelect(isZero, llvm::ConstantInt::get(zero->getType(), 1), divisor);
        llvm::Value *lcm =
            builder.CreateMul(builder.CreateUDiv(magnitude(values[0]), safe), magnitude(values[1]));
        return builder.CreateSelect(isZero, zero, lcm);
      });
}

// ---- Float functions.

/// A float loop for real inputs (promoted, then NumPy's float loop type); none for complex.
std::optional<UfuncLoop> realFloatLoop(const std::vector<const Type *> &elements) {
  const Type *type = floatLoopType(promotedInputs(elements));
  if (type->isComplex())
    return std::nullopt;
  return uniformLoop(type, elements.size());
}

llvm::Value *floatConstant(LoweringApi &lowering, const Type *type, double value) {
  return llvm::ConstantFP::get(valueType(lowering.llvmContext(), type), value);
}

void addFloatFunctions(Library &library) {
  // logaddexp and logaddexp2: NumPy's npy_logaddexp(2): log(exp(x) + exp(y)) without overflow.
  for (bool base2 : {false, true})
    addUfunc(
        library, base2 ? "logaddexp2" : "logaddexp", 2, realFloatLoop,
        [base2](LoweringApi &lowering, const LibraryCall &call,
                const std::vector<llvm::Value *> &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          const Type *type = call.loop.output;
          llvm::Value *x = values[0], *y = values[1];
          // x == y (infinities included): x + log(2), or x + 1 in base 2.
          llvm::Value *same =
              builder.CreateFAdd(x, floatConstant(lowering, type, base2 ? 1.0 : std::log(2.0)));
          llvm::Value *difference = builder.CreateFSub(x, y);
          llvm::Value *positive =
              builder.CreateFCmpOGT(difference, floatConstant(lowering, type, 0));
          llvm::Value *larger = builder.CreateSelect(positive, x, y);
          llvm::Value *exponent =
              builder.CreateSelect(positive, builder.CreateFNeg(difference), difference);
          llvm::Value *term =
              base2
                  ? builder.CreateFMul(
                        lowering.callLibm("log1p", {lowering.callLibm("exp2", {exponent}, type)},
                                          type),
                        floatConstant(lowering, type, 1.0 / std::log(2.0)))
                  : lowering.callLibm("log1p", {lowering.callLibm("exp", {exponent}, type)}, type);
          llvm::Value *general = builder.CreateFAdd(larger, term);
          // A NaN difference (NaN operands, or inf - inf of unequal signs handled above as
          // equal) gives NaN, as NumPy's loop.
          llvm::Value *unordered = builder.CreateFCmpUNO(difference, difference);
          llvm::Value *result = builder.CreateSelect(unordered, difference, general);
          return builder.CreateSelect(builder.CreateFCmpOEQ(x, y), same, result);
        });
  // float_power: in float64 (complex128 for complex inputs).
  addUfunc(
      library, "float_power", 2,
      [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
        const Type *common = promotedInputs(elements);
        return uniformLoop(common->isComplex() ? types::complex128() : types::float64(), 2);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        const Type *type = call.loop.output;
        return lowering.operators().lowerBinary(BinaryOp::Pow, values[0], type, values[1], type,
                                                type);
      });
  // conj and conjugate: complex numbers conjugated, real numbers unchanged.
  for (const char *name : {"conj", "conjugate"})
    addUfunc(library, name, 1, promotedLoop(withoutBool, true),
             [](LoweringApi &lowering, const LibraryCall &call,
                const std::vector<llvm::Value *> &values) {
               if (!call.loop.output->isComplex())
                 return values[0];
               llvm::Value *imag;
               llvm::Value *real = lowering.operators().complexParts(values[0], imag);
               return lowering.operators().makeComplex(real, lowering.irBuilder().CreateFNeg(imag),
                                                       call.loop.output);
             });
  // heaviside(x, h): 0 below zero, 1 above, h at zero, NaN for NaN.
  addUfunc(
      library, "heaviside", 2, realFloatLoop,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *type = call.loop.output;
        llvm::Value *x = values[0];
        llvm::Value *zero = floatConstant(lowering, type, 0.0);
        llvm::Value *step = builder.CreateSelect(
            builder.CreateFCmpOLT(x, zero), zero,
            builder.CreateSelect(builder.CreateFCmpOGT(x, zero), floatConstant(lowering, type, 1.0),
                                 values[1]));
        return builder.CreateSelect(builder.CreateFCmpUNO(x, x), x, step);
      });
  addUfunc(
      library, "nextafter", 2, realFloatLoop,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.callLibm("nextafter", values, call.loop.output);
      });
  // spacing: the distance to the next float away from zero, upward from -0.0 too (NumPy's
  // npy_spacing steps toward +inf for x >= 0); NaN for infinities.
  addUfunc(
      library, "spacing", 1, realFloatLoop,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *type = call.loop.output;
        double inf = std::numeric_limits<double>::infinity();
        llvm::Value *infinity = builder.CreateSelect(
            builder.CreateFCmpOGE(values[0], floatConstant(lowering, type, 0.0)),
            floatConstant(lowering, type, inf), floatConstant(lowering, type, -inf));
        return builder.CreateFSub(lowering.callLibm("nextafter", {values[0], infinity}, type),
                                  values[0]);
      });
  // ldexp(x, n): x's float loop, n an integer (int32 or int64 loops; uint64 has none).
  addUfunc(
      library, "ldexp", 2,
      [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
        const Type *mantissa = floatLoopType(elements[0]);
        const Type *exponent = elements[1];
        if (mantissa->isComplex() || !(exponent->isInteger() || exponent->isBoolean()) ||
            isUnsigned64(exponent))
          return std::nullopt;
        return UfuncLoop{{mantissa, types::int64()}, mantissa};
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        // Exponents past int32 saturate: the result is 0 or infinity either way.
        llvm::Value *limit = builder.getInt64(std::numeric_limits<int32_t>::max());
        llvm::Value *clamped =
            builder.CreateSelect(builder.CreateICmpSGT(values[1], limit), limit, values[1]);
        llvm::Value *low = builder.getInt64(std::numeric_limits<int32_t>::min());
        clamped = builder.CreateSelect(builder.CreateICmpSLT(clamped, low), low, clamped);
        return lowering.callLibm("ldexp",
                                 {values[0], builder.CreateTrunc(clamped, builder.getInt32Ty())},
                                 call.loop.output);
      });
  // isnat: whether a datetime64 or timedelta64 is NaT (the smallest int64).
  UfuncKernel isnat;
  isnat.inputs = 1;
  isnat.takesDatetimes = true;
  isnat.selectLoop = [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
    if (!elements[0]->isDatetimeLike())
      return std::nullopt;
    return UfuncLoop{{elements[0]}, types::boolean()};
  };
  isnat.lowerElement = [](LoweringApi &lowering, const LibraryCall &,
                          const std::vector<llvm::Value *> &values) {
    return lowering.irBuilder().CreateICmpEQ(
        values[0], llvm::ConstantInt::get(
                       values[0]->getType(),
                       llvm::APInt::getSignedMinValue(values[0]->getType()->getIntegerBitWidth())));
  };
  library.add(makeUfunc("numpy.isnat", std::move(isnat)));
}

// ---- Two outputs.

void addTwoOutputFunctions(Library &library) {
  // divmod: floor_divide and remainder of one loop type.
  addTwoOutputUfunc(
      library, "divmod", 2,
      [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
        const Type *common = withoutBool(promotedInputs(elements));
        if (common->isComplex())
          return std::nullopt;
        UfuncLoop loop = uniformLoop(common, 2);
        loop.secondOutput = common;
        return loop;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        const Type *type = call.loop.output;
        llvm::Value *quotient = lowering.operators().lowerBinary(BinaryOp::FloorDiv, values[0],
                                                                 type, values[1], type, type);
        llvm::Value *remainder =
            lowering.operators().lowerBinary(BinaryOp::Mod, values[0], type, values[1], type, type);
        return pairOf(lowering.irBuilder(), quotient, remainder);
      });
  auto floatSplitLoop = [](const Type *second) {
    return [second](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
      const Type *type = floatLoopType(elements[0]);
      if (type->isComplex())
        return std::nullopt;
      UfuncLoop loop = uniformLoop(type, 1);
      loop.secondOutput = second ? second : type;
      return loop;
    };
  };
  // modf: (fractional part, integral part), both with x's sign; (±0, ±inf) for infinities.
  addTwoOutputUfunc(
      library, "modf", 1, floatSplitLoop(nullptr),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *type = call.loop.output;
        llvm::Value *x = values[0];
        llvm::Value *whole = lowering.callIntrinsic(llvm::Intrinsic::trunc, {x});
        llvm::Value *magnitude = lowering.callIntrinsic(llvm::Intrinsic::fabs, {x});
        llvm::Value *isInfinite = builder.CreateFCmpOEQ(
            magnitude, floatConstant(lowering, type, std::numeric_limits<double>::infinity()));
        llvm::Value *fraction = builder.CreateSelect(isInfinite, floatConstant(lowering, type, 0),
                                                     builder.CreateFSub(x, whole));
        fraction = lowering.callIntrinsic(llvm::Intrinsic::copysign, {fraction, x});
        return pairOf(builder, fraction, whole);
      });
  // frexp: (mantissa, exponent) with x == mantissa * 2**exponent, the exponent an int32.
  addTwoOutputUfunc(
      library, "frexp", 1, floatSplitLoop(types::integer(32, true)),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::AllocaInst *exponent = lowering.createEntryAlloca(builder.getInt32Ty(), "frexp.exp");
        llvm::Value *mantissa = lowering.callLibm("frexp", {values[0], exponent}, call.loop.output);
        return pairOf(builder, mantissa, builder.CreateLoad(builder.getInt32Ty(), exponent));
      });
}

/// The attributes of every NumPy ufunc object compiled code reads (`np.add.nin`): nin, nout,
/// nargs and identity (NumPy's: None where the ufunc has none).
void addUfuncAttributes(Library &library) {
  static const char *const names[] = {
      "negative",    "positive",     "absolute",      "abs",         "fabs",        "rint",
      "sign",        "conj",         "conjugate",     "exp",         "exp2",        "log",
      "log2",        "log10",        "expm1",         "log1p",       "sqrt",        "square",
      "cbrt",        "reciprocal",   "sin",           "cos",         "tan",         "arcsin",
      "arccos",      "arctan",       "sinh",          "cosh",        "tanh",        "arcsinh",
      "arccosh",     "arctanh",      "deg2rad",       "rad2deg",     "degrees",     "radians",
      "bitwise_not", "invert",       "bitwise_count", "logical_not", "isfinite",    "isinf",
      "isnan",       "signbit",      "floor",         "ceil",        "trunc",       "spacing",
      "add",         "subtract",     "multiply",      "divide",      "logaddexp",   "logaddexp2",
      "true_divide", "floor_divide", "power",         "float_power", "remainder",   "mod",
      "fmod",        "gcd",          "lcm",           "arctan2",     "hypot",       "bitwise_and",
      "bitwise_or",  "bitwise_xor",  "left_shift",    "right_shift", "greater",     "greater_equal",
      "less",        "less_equal",   "not_equal",     "equal",       "logical_and", "logical_or",
      "logical_xor", "maximum",      "minimum",       "fmax",        "fmin",        "copysign",
      "nextafter",   "ldexp",        "heaviside",     "isnat",       "divmod",      "modf",
      "frexp"};
  // NumPy's identities (the others are None).
  static const std::map<std::string, double> numericIdentities = {
      {"add", 0},
      {"multiply", 1},
      {"gcd", 0},
      {"hypot", 0},
      {"bitwise_and", -1},
      {"bitwise_or", 0},
      {"bitwise_xor", 0},
      {"logaddexp", -std::numeric_limits<double>::infinity()},
      {"logaddexp2", -std::numeric_limits<double>::infinity()}};
  static const std::map<std::string, bool> logicalIdentities = {
      {"logical_and", true}, {"logical_or", false}, {"logical_xor", false}};
  auto addValue = [&](const std::string &name, const Type *type,
                      std::function<llvm::Value *(LoweringApi &)> lower) {
    LibraryValue value;
    value.name = name;
    value.type = type;
    value.lower = std::move(lower);
    library.addValue(std::move(value));
  };
  auto integer = [](int64_t number) {
    return [number](LoweringApi &lowering) { return lowering.irBuilder().getInt64(number); };
  };
  for (const char *name : names) {
    std::string prefix = std::string("numpy.") + name;
    const LibraryFunction *function = library.find(prefix);
    if (!function || !function->ufunc)
      throw std::logic_error("no ufunc " + prefix);
    const UfuncKernel &kernel = *function->ufunc;
    addValue(prefix + ".nin", types::int64(), integer(kernel.inputs));
    addValue(prefix + ".nout", types::int64(), integer(kernel.outputs));
    addValue(prefix + ".nargs", types::int64(), integer(kernel.inputs + kernel.outputs));
    if (auto found = logicalIdentities.find(name); found != logicalIdentities.end()) {
      bool identity = found->second;
      addValue(prefix + ".identity", types::boolean(), [identity](LoweringApi &lowering) {
        return lowering.irBuilder().getInt1(identity);
      });
    } else if (auto number = numericIdentities.find(name); number != numericIdentities.end()) {
      double identity = number->second;
      if (std::isinf(identity))
        addValue(prefix + ".identity", types::float64(), [identity](LoweringApi &lowering) {
          return llvm::ConstantFP::get(lowering.irBuilder().getDoubleTy(), identity);
        });
      else
        addValue(prefix + ".identity", types::int64(), integer(static_cast<int64_t>(identity)));
    } else {
      addValue(prefix + ".identity", types::none(), [](LoweringApi &lowering) {
        return llvm::ConstantStruct::get(llvm::StructType::get(lowering.llvmContext()), {});
      });
    }
  }
}

} // namespace

void registerMoreUfuncs(Library &library) {
  addComparisons(library);
  addLogicalFunctions(library);
  addDivisorFunctions(library);
  addFloatFunctions(library);
  addTwoOutputFunctions(library);
  addUfuncAttributes(library);
}

} // namespace taipan
