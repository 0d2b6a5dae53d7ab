// Ufuncs: NumPy's ufuncs of math, rounding, predicates, arithmetic and extrema, each its loop
// selection (NumPy's inner-loop types) next to its element lowering (the rest: UfuncsMore.cpp).
#include "library/Families.h"
#include "library/UfuncCalls.h"

#include "lower/ArrayLowering.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "support/CompileError.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace taipan {
namespace {

// ---- Element lowering.

/// |x| of a value of `type`: the magnitude (float `result`) of a complex number.
llvm::Value *absoluteValue(LoweringApi &lowering, llvm::Value *value, const Type *type,
                           const Type *result) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (type->isBoolean())
    return value;
  if (type->isComplex()) {
    llvm::Value *imag;
    llvm::Value *real = lowering.operators().complexParts(value, imag);
    return lowering.callLibm("hypot", {real, imag}, result);
  }
  if (type->isFloat())
    return lowering.callIntrinsic(llvm::Intrinsic::fabs, {value});
  if (!type->isSigned())
    return value;
  return builder.CreateSelect(
      builder.CreateICmpSLT(value, llvm::ConstantInt::get(value->getType(), 0)),
      builder.CreateNeg(value), value);
}

/// NumPy 2's sign of a complex number: z / |z|; 0 for 0; NaN parts for a NaN magnitude or two
/// infinite parts; for one infinite part, that part's sign (npy_math's nc_sign).
llvm::Value *complexSign(LoweringApi &lowering, llvm::Value *value, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *imag;
  llvm::Value *real = lowering.operators().complexParts(value, imag);
  const Type *part = types::floating(type->bits() / 2);
  llvm::Value *magnitude = lowering.callLibm("hypot", {real, imag}, part);
  llvm::Type *partType = real->getType();
  llvm::Value *zero = llvm::ConstantFP::get(partType, 0.0);
  llvm::Value *nan = llvm::ConstantFP::getNaN(partType);
  llvm::Value *infinity = llvm::ConstantFP::getInfinity(partType);
  auto unit = [&](llvm::Value *x) { // x's sign as +-1
    return builder.CreateSelect(builder.CreateFCmpOGT(x, zero),
                                llvm::ConstantFP::get(partType, 1.0),
                                llvm::ConstantFP::get(partType, -1.0));
  };
  auto isInfinite = [&](llvm::Value *x) {
    return builder.CreateFCmpOEQ(lowering.callIntrinsic(llvm::Intrinsic::fabs, {x}), infinity);
  };
  llvm::Value *realInfinite = isInfinite(real), *imagInfinite = isInfinite(imag);
  // The finite case first, then the special cases over it, the last test winning.
  llvm::Value *re = builder.CreateFDiv(real, magnitude);
  llvm::Value *im = builder.CreateFDiv(imag, magnitude);
  llvm::Value *isZero = builder.CreateFCmpOEQ(magnitude, zero);
  re = builder.CreateSelect(isZero, zero, re);
  im = builder.CreateSelect(isZero, zero, im);
  llvm::Value *onlyImagInfinite = builder.CreateAnd(imagInfinite, builder.CreateNot(realInfinite));
  re = builder.CreateSelect(onlyImagInfinite, zero, re);
  im = builder.CreateSelect(onlyImagInfinite, unit(imag), im);
  llvm::Value *onlyRealInfinite = builder.CreateAnd(realInfinite, builder.CreateNot(imagInfinite));
  re = builder.CreateSelect(onlyRealInfinite, unit(real), re);
  im = builder.CreateSelect(onlyRealInfinite, zero, im);
  llvm::Value *undefined = builder.CreateOr(builder.CreateFCmpUNO(magnitude, magnitude),
                                            builder.CreateAnd(realInfinite, imagInfinite));
  re = builder.CreateSelect(undefined, nan, re);
  im = builder.CreateSelect(undefined, nan, im);
  return lowering.operators().makeComplex(re, im, type);
}

/// sign: -1, 0 or 1 (NaN stays NaN).
llvm::Value *signOf(LoweringApi &lowering, llvm::Value *value, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (type->isComplex())
    return complexSign(lowering, value, type);
  if (type->isFloat()) {
    llvm::Value *zero = llvm::ConstantFP::get(value->getType(), 0.0);
    llvm::Value *one = llvm::ConstantFP::get(value->getType(), 1.0);
    llvm::Value *sign = builder.CreateSelect(
        builder.CreateFCmpOGT(value, zero), one,
        builder.CreateSelect(builder.CreateFCmpOLT(value, zero), builder.CreateFNeg(one), zero));
    return builder.CreateSelect(builder.CreateFCmpUNO(value, value), value, sign);
  }
  llvm::Value *zero = llvm::ConstantInt::get(value->getType(), 0);
  llvm::Value *positive = builder.CreateZExt(type->isSigned() ? builder.CreateICmpSGT(value, zero)
                                                              : builder.CreateICmpUGT(value, zero),
                                             value->getType());
  llvm::Value *negative = builder.CreateZExt(type->isSigned() ? builder.CreateICmpSLT(value, zero)
                                                              : builder.getInt1(false),
                                             value->getType());
  return builder.CreateSub(positive, negative);
}

/// maximum and minimum propagate NaN; fmax and fmin ignore it.
llvm::Value *extremum(LoweringApi &lowering, bool isMax, bool ignoresNan, llvm::Value *a,
                      llvm::Value *b, const Type *type) {
  if (type->isComplex()) {
    // NumPy's complex loops: lexicographic order; maximum keeps a NaN of a, fmax drops one of b.
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    llvm::Value *ai, *bi;
    llvm::Value *ar = lowering.operators().complexParts(a, ai);
    llvm::Value *br = lowering.operators().complexParts(b, bi);
    llvm::Value *realsEqual = builder.CreateFCmpOEQ(ar, br);
    llvm::Value *keepsA =
        isMax ? builder.CreateOr(builder.CreateFCmpOGT(ar, br),
                                 builder.CreateAnd(realsEqual, builder.CreateFCmpOGE(ai, bi)))
              : builder.CreateOr(builder.CreateFCmpOLT(ar, br),
                                 builder.CreateAnd(realsEqual, builder.CreateFCmpOLE(ai, bi)));
    auto hasNan = [&](llvm::Value *real, llvm::Value *imag) {
      return builder.CreateOr(builder.CreateFCmpUNO(real, real), builder.CreateFCmpUNO(imag, imag));
    };
    keepsA = builder.CreateOr(keepsA, ignoresNan ? hasNan(br, bi) : hasNan(ar, ai));
    return builder.CreateSelect(keepsA, a, b);
  }
  if (!type->isFloat()) {
    llvm::Value *greater = lowering.operators().lowerComparison(CompareOp::Gt, a, type, b, type);
    return lowering.irBuilder().CreateSelect(greater, isMax ? a : b, isMax ? b : a);
  }
  llvm::Intrinsic::ID id = ignoresNan
                               ? (isMax ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum)
                               : (isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum);
  return lowering.callIntrinsic(id, {a, b});
}

/// fmod of integers: the remainder truncated toward zero, 0 for a zero divisor (as NumPy).
/// A divisor of -1 is divided as 1 (the remainder is 0 either way): the smallest integer
/// divided by -1 overflows, which the CPU traps (SIGFPE) rather than wraps.
llvm::Value *integerFmod(LoweringApi &lowering, llvm::Value *a, llvm::Value *b, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *zero = llvm::ConstantInt::get(a->getType(), 0);
  llvm::Value *isZero = builder.CreateICmpEQ(b, zero);
  llvm::Value *dividesAsOne = isZero;
  if (type->isSigned())
    dividesAsOne = builder.CreateOr(
        isZero, builder.CreateICmpEQ(b, llvm::ConstantInt::getSigned(a->getType(), -1)));
  llvm::Value *safe =
      builder.CreateSelect(dividesAsOne, llvm::ConstantInt::get(a->getType(), 1), b);
  llvm::Value *remainder =
      type->isSigned() ? builder.CreateSRem(a, safe) : builder.CreateURem(a, safe);
  return builder.CreateSelect(isZero, zero, remainder);
}

/// Registers the float functions: math's entries for reals, cmath's for complex numbers.
void addFloatFunctions(Library &library) {
  struct FloatFunction {
    const char *ufunc;
    const char *math; ///< the math (and cmath) function computing it
    bool takesComplex;
  };
  static const FloatFunction functions[] = {
      {"sqrt", "sqrt", true},        {"exp", "exp", true},          {"exp2", "exp2", true},
      {"log", "log", true},          {"log2", "log2", true},        {"log10", "log10", true},
      {"log1p", "log1p", true},      {"expm1", "expm1", true},      {"sin", "sin", true},
      {"cos", "cos", true},          {"tan", "tan", true},          {"arcsin", "asin", true},
      {"arccos", "acos", true},      {"arctan", "atan", true},      {"sinh", "sinh", true},
      {"cosh", "cosh", true},        {"tanh", "tanh", true},        {"arcsinh", "asinh", true},
      {"arccosh", "acosh", true},    {"arctanh", "atanh", true},    {"deg2rad", "radians", false},
      {"rad2deg", "degrees", false}, {"degrees", "degrees", false}, {"radians", "radians", false},
      {"cbrt", "cbrt", false}};
  const LibraryFunction *cmathLog = ufuncHelperEntry(library, "cmath.log");
  const LibraryFunction *cmathExp = ufuncHelperEntry(library, "cmath.exp");
  for (const FloatFunction &function : functions) {
    const LibraryFunction *real = ufuncHelperEntry(library, std::string("math.") + function.math);
    const LibraryFunction *complex = library.find(std::string("cmath.") + function.math);
    std::string name = function.ufunc;
    addUfunc(
        library, name, 1, promotedLoop(floatLoopType, function.takesComplex),
        [real, complex, cmathLog, cmathExp, name](LoweringApi &lowering, const LibraryCall &call,
                                                  const std::vector<llvm::Value *> &values) {
          const Type *type = call.loop.output;
          if (!type->isComplex())
            return lowerThrough(real, lowering, values, {type}, type);
          // cmath computes in complex128.
          const Type *wide = types::complex128();
          if (complex)
            return lowering.castValue(lowerThrough(complex, lowering, values, {type}, wide), wide,
                                      type);
          // exp2, log2, log1p and expm1 through exp and log: NumPy's complex loops for these
          // are no more exact.
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          llvm::Value *z = lowering.castValue(values[0], type, wide);
          auto constant = [&](double real) {
            return lowering.operators().makeComplex(
                llvm::ConstantFP::get(builder.getDoubleTy(), real),
                llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), wide);
          };
          llvm::Value *answer;
          if (name == "exp2") { // exp(z ln 2), z scaled part by part (no inf * 0 terms)
            llvm::Value *imag;
            llvm::Value *real = lowering.operators().complexParts(z, imag);
            llvm::Value *scale = llvm::ConstantFP::get(builder.getDoubleTy(), std::log(2.0));
            answer = lowerThrough(
                cmathExp, lowering,
                {lowering.operators().makeComplex(builder.CreateFMul(real, scale),
                                                  builder.CreateFMul(imag, scale), wide)},
                {wide}, wide);
          } else if (name == "log2") {
            // log(z) / ln 2 part by part, as NumPy (a complex division would turn log(0)'s
            // -inf + 0j into -inf + nanj).
            llvm::Value *imag;
            llvm::Value *real = lowering.operators().complexParts(
                lowerThrough(cmathLog, lowering, {z}, {wide}, wide), imag);
            llvm::Value *scale = llvm::ConstantFP::get(builder.getDoubleTy(), 1.0 / std::log(2.0));
            answer = lowering.operators().makeComplex(builder.CreateFMul(real, scale),
                                                      builder.CreateFMul(imag, scale), wide);
          } else if (name == "log1p")
            answer = lowerThrough(
                cmathLog, lowering,
                {lowering.operators().lowerComplexBinary(BinaryOp::Add, z, constant(1.0), wide)},
                {wide}, wide);
          else
            answer = lowering.operators().lowerComplexBinary(
                BinaryOp::Sub, lowerThrough(cmathExp, lowering, {z}, {wide}, wide), constant(1.0),
                wide);
          return lowering.castValue(answer, wide, type);
        });
  }
  // reciprocal: 1 / x; integers divide as integers (NumPy's loop: 0 for 0, as observed).
  addUfunc(
      library, "reciprocal", 1, promotedLoop(withoutBool, true),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *type = call.loop.output;
        llvm::Value *x = values[0];
        if (type->isInteger()) {
          llvm::Value *zero = llvm::ConstantInt::get(x->getType(), 0);
          llvm::Value *one = llvm::ConstantInt::get(x->getType(), 1);
          llvm::Value *isZero = builder.CreateICmpEQ(x, zero);
          llvm::Value *safe = builder.CreateSelect(isZero, one, x);
          llvm::Value *quotient =
              type->isSigned() ? builder.CreateSDiv(one, safe) : builder.CreateUDiv(one, safe);
          return builder.CreateSelect(isZero, zero, quotient);
        }
        llvm::Value *one;
        if (type->isComplex()) {
          llvm::Type *part = valueType(lowering.llvmContext(), types::floating(type->bits() / 2));
          one = lowering.operators().makeComplex(llvm::ConstantFP::get(part, 1.0),
                                                 llvm::ConstantFP::get(part, 0.0), type);
        } else {
          one = llvm::ConstantFP::get(valueType(lowering.llvmContext(), type), 1.0);
        }
        return lowering.operators().lowerBinary(BinaryOp::Div, one, type, x, type, type);
      });
}

/// Registers abs, sign, rounding and the other functions of one number that keep its kind.
void addUnaryFunctions(Library &library) {
  for (const char *name : {"abs", "absolute"})
    addUfunc(
        library, name, 1,
        [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
          const Type *type = elements[0];
          return UfuncLoop{{type}, type->isComplex() ? types::floating(type->bits() / 2) : type};
        },
        [](LoweringApi &lowering, const LibraryCall &call,
           const std::vector<llvm::Value *> &values) {
          return absoluteValue(lowering, values[0], call.loop.inputs[0], call.loop.output);
        });
  addUfunc(
      library, "fabs", 1, promotedLoop(floatLoopType, false),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return absoluteValue(lowering, values[0], call.loop.output, call.loop.output);
      });
  addUfunc(
      library, "negative", 1, promotedLoop(refusingBool, true),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.operators().lowerNegation(values[0], call.loop.output);
      });
  addUfunc(library, "positive", 1, promotedLoop(refusingBool, true),
           [](LoweringApi &, const LibraryCall &, const std::vector<llvm::Value *> &values) {
             return values[0];
           });
  addUfunc(
      library, "square", 1, promotedLoop(withoutBool, true),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        const Type *type = call.loop.output;
        return lowering.operators().lowerBinary(BinaryOp::Mult, values[0], type, values[0], type,
                                                type);
      });
  addUfunc(
      library, "sign", 1, promotedLoop(refusingBool, true),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return signOf(lowering, values[0], call.loop.output);
      });
  // Integers are already whole: floor, ceil and trunc keep them; rint computes in a float.
  struct Rounding {
    const char *name;
    llvm::Intrinsic::ID intrinsic;
  };
  for (Rounding rounding :
       {Rounding{"floor", llvm::Intrinsic::floor}, Rounding{"ceil", llvm::Intrinsic::ceil},
        Rounding{"trunc", llvm::Intrinsic::trunc}, Rounding{"rint", llvm::Intrinsic::rint}}) {
    bool keepsIntegers = rounding.intrinsic != llvm::Intrinsic::rint;
    addUfunc(library, rounding.name, 1,
             promotedLoop(keepsIntegers ? sameType : floatLoopType, !keepsIntegers),
             [rounding](LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
               const Type *type = call.loop.output;
               if (type->isComplex()) { // rint of complex numbers: each part rounded
                 llvm::Value *imag;
                 llvm::Value *real = lowering.operators().complexParts(values[0], imag);
                 return lowering.operators().makeComplex(
                     lowering.callIntrinsic(rounding.intrinsic, {real}),
                     lowering.callIntrinsic(rounding.intrinsic, {imag}), type);
               }
               if (!type->isFloat())
                 return values[0];
               return lowering.callIntrinsic(rounding.intrinsic, {values[0]});
             });
  }
}

/// Registers isnan, isinf, isfinite (math's and cmath's tests) and signbit.
void addPredicates(Library &library) {
  for (std::string name : {"isnan", "isinf", "isfinite"}) {
    const LibraryFunction *real = ufuncHelperEntry(library, "math." + name);
    const LibraryFunction *complex = ufuncHelperEntry(library, "cmath." + name);
    addUfunc(
        library, name, 1,
        [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
          return UfuncLoop{{elements[0]}, types::boolean()};
        },
        [real, complex](LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
          const Type *type = call.loop.inputs[0];
          return lowerThrough(type->isComplex() ? complex : real, lowering, values, {type},
                              types::boolean());
        });
  }
  addUfunc(
      library, "signbit", 1,
      [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
        if (elements[0]->isComplex())
          return std::nullopt;
        return UfuncLoop{{floatLoopType(elements[0])}, types::boolean()};
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Type *bits = builder.getIntNTy(call.loop.inputs[0]->bits());
        return builder.CreateICmpSLT(builder.CreateBitCast(values[0], bits),
                                     llvm::ConstantInt::get(bits, 0));
      });
}

/// Registers the arithmetic of two numbers, extrema, and the float functions of two reals.
void addBinaryFunctions(Library &library) {
  struct Arithmetic {
    const char *name;
    BinaryOp op;
    const Type *(*rule)(const Type *);
    bool takesComplex;
  };
  static const Arithmetic arithmetic[] = {{"add", BinaryOp::Add, sameType, true},
                                          {"subtract", BinaryOp::Sub, refusingBool, true},
                                          {"multiply", BinaryOp::Mult, sameType, true},
                                          {"divide", BinaryOp::Div, divisionType, true},
                                          {"true_divide", BinaryOp::Div, divisionType, true},
                                          {"floor_divide", BinaryOp::FloorDiv, withoutBool, false},
                                          {"mod", BinaryOp::Mod, withoutBool, false},
                                          {"remainder", BinaryOp::Mod, withoutBool, false},
                                          {"power", BinaryOp::Pow, withoutBool, true}};
  for (const Arithmetic &function : arithmetic) {
    BinaryOp op = function.op;
    UfuncKernel kernel;
    kernel.inputs = 2;
    kernel.selectLoop = promotedLoop(function.rule, function.takesComplex);
    kernel.lowerElement = [op](LoweringApi &lowering, const LibraryCall &call,
                               const std::vector<llvm::Value *> &values) {
      const Type *type = call.loop.output;
      return lowering.operators().lowerBinary(op, values[0], type, values[1], type, type);
    };
    library.add(makeUfunc(std::string("numpy.") + function.name, std::move(kernel), {}));
  }
  const LibraryFunction *mathFmod = ufuncHelperEntry(library, "math.fmod");
  addUfunc(library, "fmod", 2, promotedLoop(withoutBool, false),
           [mathFmod](LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) {
             const Type *type = call.loop.output;
             if (type->isInteger())
               return integerFmod(lowering, values[0], values[1], type);
             return lowerThrough(mathFmod, lowering, values, {type, type}, type);
           });
  // np.hypot is C's hypot, as NumPy's loop (math.hypot follows CPython's own algorithm).
  addUfunc(
      library, "hypot", 2, promotedLoop(floatLoopType, false),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.callLibm("hypot", values, call.loop.output);
      });
  for (auto [ufunc, math] : {std::pair{"arctan2", "atan2"}, std::pair{"copysign", "copysign"}}) {
    const LibraryFunction *real = ufuncHelperEntry(library, std::string("math.") + math);
    addUfunc(library, ufunc, 2, promotedLoop(floatLoopType, false),
             [real](LoweringApi &lowering, const LibraryCall &call,
                    const std::vector<llvm::Value *> &values) {
               const Type *type = call.loop.output;
               return lowerThrough(real, lowering, values, {type, type}, type);
             });
  }
  struct Extremum {
    const char *name;
    bool isMax;
    bool ignoresNan;
  };
  for (Extremum function : {Extremum{"maximum", true, false}, Extremum{"minimum", false, false},
                            Extremum{"fmax", true, true}, Extremum{"fmin", false, true}}) {
    bool isMax = function.isMax, ignoresNan = function.ignoresNan;
    addUfunc(library, function.name, 2, promotedLoop(sameType, true),
             [isMax, ignoresNan](LoweringApi &lowering, const LibraryCall &call,
                                 const std::vector<llvm::Value *> &values) {
               return extremum(lowering, isMax, ignoresNan, values[0], values[1], call.loop.output);
             });
  }
}

/// Registers where(condition, x, y): elementwise with three operands.
void addSelections(Library &library) {
  // np.where is no ufunc in NumPy: no output argument, and 0-d operands give a 0-d array.
  UfuncKernel where;
  where.inputs = 3;
  where.keepsZeroDimensionalArrays = true;
  where.selectLoop = [](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
    const Type *common = promoteDtypes(elements[1], elements[2]);
    return UfuncLoop{{elements[0], common, common}, common};
  };
  where.lowerElement = [](LoweringApi &lowering, const LibraryCall &call,
                          const std::vector<llvm::Value *> &values) {
    llvm::Value *condition = lowering.truthValue(values[0], call.loop.inputs[0]);
    return lowering.irBuilder().CreateSelect(condition, values[1], values[2]);
  };
  library.add(makeUfunc("numpy.where", std::move(where), std::vector<LibraryParameter>(3)));
  // np.clip is written in Python (numpy_library/clipping.py): out=, None bounds, Numba's checks.
}

} // namespace

void registerUfuncs(Library &library) {
  addFloatFunctions(library);
  addUnaryFunctions(library);
  addPredicates(library);
  addBinaryFunctions(library);
  addSelections(library);
  registerMoreUfuncs(library);
}

} // namespace taipan
