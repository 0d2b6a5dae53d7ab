// Arithmetic operators with Python's semantics: floor division and modulo take the divisor's
// sign, division by zero raises; complex numbers, powers, negation, and calls of libm.
#include "lower/FunctionLowering.h"
#include "runtime/Random.h"

#include "lower/FunctionLowering.h"
#include "lower/LowerDatetime.h"

#include "types/NumericPromotion.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <algorithm>

namespace taipan {

OperatorLowering::OperatorLowering(FunctionLowering &core) : LoweringRoom(core) {}

llvm::Value *OperatorLowering::complexParts(llvm::Value *value, llvm::Value *&imag) {
  imag = builder.CreateExtractValue(value, 1);
  return builder.CreateExtractValue(value, 0);
}

llvm::Value *OperatorLowering::makeComplex(llvm::Value *real, llvm::Value *imag, const Type *type) {
  llvm::Value *result = llvm::UndefValue::get(valueType(context, type));
  result = builder.CreateInsertValue(result, real, 0);
  return builder.CreateInsertValue(result, imag, 1);
}

void OperatorLowering::emitZeroDivisionCheck(llvm::Value *divisor, const Type *type,
                                             const char *message) {
  llvm::Value *isZero =
      type->isFloat()
          ? builder.CreateFCmpOEQ(divisor, llvm::ConstantFP::get(divisor->getType(), 0.0))
          : builder.CreateICmpEQ(divisor, llvm::ConstantInt::get(divisor->getType(), 0));
  core.exceptions().raiseIf(isZero, ZeroDivisionErrorId, message);
}

llvm::Value *OperatorLowering::lowerBinary(BinaryOp op, llvm::Value *left, const Type *leftType,
                                           llvm::Value *right, const Type *rightType,
                                           const Type *resultType) {
  if (resultType->isUnicode())
    return core.strings().lowerStringBinary(op, left, leftType, right, rightType);
  if (leftType->isDatetimeLike() || rightType->isDatetimeLike())
    return lowerDatetimeBinary(core, op, left, leftType, right, rightType, resultType);
  if (op == BinaryOp::LShift || op == BinaryOp::RShift) {
    llvm::Value *value = core.castValue(left, leftType, resultType);
    llvm::Value *amount = core.castValue(right, rightType, types::int64());
    // Shift counts wrap modulo the width, as the x86 instructions Numba relies on do.
    amount = builder.CreateAnd(amount, builder.getInt64(resultType->bits() - 1));
    amount = builder.CreateIntCast(amount, value->getType(), false);
    if (op == BinaryOp::LShift)
      return builder.CreateShl(value, amount);
    return resultType->isSigned() ? builder.CreateAShr(value, amount)
                                  : builder.CreateLShr(value, amount);
  }
  if (resultType->isTuple() && leftType->isTuple() != rightType->isTuple()) {
    // t * n: the items in turn (typing made the count a constant)
    const Type *tupleType = leftType->isTuple() ? leftType : rightType;
    llvm::Value *tuple = leftType->isTuple() ? left : right;
    std::vector<llvm::Value *> elements;
    size_t count = tupleType->elements().size();
    for (size_t i = 0; i < resultType->elements().size(); ++i)
      elements.push_back(core.tupleElement(tuple, tupleType, static_cast<unsigned>(i % count)));
    return core.lowerTuple(elements, resultType);
  }
  if (leftType->isTuple()) { // concatenation
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < leftType->elements().size(); ++i)
      elements.push_back(core.tupleElement(left, leftType, static_cast<unsigned>(i)));
    for (size_t i = 0; i < rightType->elements().size(); ++i)
      elements.push_back(core.tupleElement(right, rightType, static_cast<unsigned>(i)));
    return core.lowerTuple(elements, resultType);
  }
  const Type *operandType = binaryOperandType(op, leftType, rightType);
  llvm::Value *a = core.castValue(left, leftType, operandType);
  llvm::Value *b = core.castValue(right, rightType, operandType);
  llvm::Value *result;
  if (operandType->isBoolean()) {
    if (op == BinaryOp::BitAnd)
      result = builder.CreateAnd(a, b);
    else if (op == BinaryOp::BitOr)
      result = builder.CreateOr(a, b);
    else
      result = builder.CreateXor(a, b);
    return core.castValue(result, operandType, resultType);
  }
  if (operandType->isInteger())
    result = lowerIntegerBinary(op, a, b, operandType);
  else if (operandType->isFloat())
    result = lowerFloatBinary(op, a, b, operandType);
  else
    result = lowerComplexBinary(op, a, b, operandType);
  return core.castValue(result, operandType, resultType);
}

llvm::Value *OperatorLowering::lowerFloorByConstant(bool isDivision, llvm::Value *dividend,
                                                    llvm::ConstantInt *divisor) {
  // With a constant divisor (neither 0 nor -1, which the caller handles) the floor fix-up needs
  // no check of the divisor and no select between two computed values: a select whose arms are
  // computed makes InstCombine ask whether each arm may be undef, and that query walks the
  // dominator tree, so a function with many `%` and `//` compiled in time quadratic in its size.
  llvm::Value *quotient = builder.CreateSDiv(dividend, divisor);
  llvm::Value *remainder = builder.CreateSRem(dividend, divisor);
  llvm::Type *type = dividend->getType();
  if (divisor->isNegative()) {
    // A negative divisor floors when the remainder is positive.
    llvm::Value *positive = builder.CreateICmpSGT(remainder, llvm::ConstantInt::get(type, 0));
    if (isDivision)
      return builder.CreateSub(quotient, builder.CreateZExt(positive, type));
    return builder.CreateAdd(
        remainder, builder.CreateSelect(positive, divisor, llvm::ConstantInt::get(type, 0)));
  }
  // A positive divisor floors when the remainder is negative: its sign, spread over all bits,
  // is -1 exactly then.
  llvm::Value *negativeMask = builder.CreateAShr(remainder, type->getIntegerBitWidth() - 1);
  if (isDivision)
    return builder.CreateAdd(quotient, negativeMask);
  return builder.CreateAdd(remainder, builder.CreateAnd(negativeMask, divisor));
}

llvm::Value *OperatorLowering::lowerIntegerBinary(BinaryOp op, llvm::Value *a, llvm::Value *b,
                                                  const Type *type, bool checkZero) {
  bool isSigned = type->isSigned();
  llvm::Type *llvmType = a->getType();
  switch (op) {
  case BinaryOp::Add:
    return builder.CreateAdd(a, b);
  case BinaryOp::Sub:
    return builder.CreateSub(a, b);
  case BinaryOp::Mult:
    return builder.CreateMul(a, b);
  case BinaryOp::BitAnd:
    return builder.CreateAnd(a, b);
  case BinaryOp::BitOr:
    return builder.CreateOr(a, b);
  case BinaryOp::BitXor:
    return builder.CreateXor(a, b);
  case BinaryOp::Pow:
    return lowerIntegerPower(a, b, type);
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    bool isDivision = op == BinaryOp::FloorDiv;
    llvm::Value *zero = llvm::ConstantInt::get(llvmType, 0);
    llvm::Value *divisorIsZero = builder.CreateICmpEQ(b, zero);
    if (core.numpyErrorModel() && checkZero) {
      // NumPy's answer for x // 0 and x % 0 is 0; divide by 1 instead to avoid the trap.
      llvm::Value *safe =
          builder.CreateSelect(divisorIsZero, llvm::ConstantInt::get(llvmType, 1), b);
      llvm::Value *result = lowerIntegerBinary(op, a, safe, type, false);
      return builder.CreateSelect(divisorIsZero, zero, result);
    }
    if (checkZero)
      core.exceptions().raiseIf(divisorIsZero, ZeroDivisionErrorId,
                                isDivision ? "integer division or modulo by zero"
                                           : "integer modulo by zero");
    if (!isSigned)
      return isDivision ? builder.CreateUDiv(a, b) : builder.CreateURem(a, b);
    if (auto *divisor = llvm::dyn_cast<llvm::ConstantInt>(b);
        divisor && !divisor->isZero() && !divisor->isMinusOne())
      return lowerFloorByConstant(isDivision, a, divisor);
    // INT_MIN // -1 overflows the hardware divide; Python's answer wraps to INT_MIN here.
    llvm::Value *minusOne = llvm::ConstantInt::getSigned(llvmType, -1);
    llvm::Value *isMinusOne = builder.CreateICmpEQ(b, minusOne);
    llvm::Value *safeDivisor =
        builder.CreateSelect(isMinusOne, llvm::ConstantInt::get(llvmType, 1), b);
    llvm::Value *quotient = builder.CreateSDiv(a, safeDivisor);
    llvm::Value *remainder = builder.CreateSRem(a, safeDivisor);
    // Floor semantics: when the remainder's sign differs from the divisor's, step down.
    llvm::Value *adjust =
        builder.CreateAnd(builder.CreateICmpNE(remainder, zero),
                          builder.CreateICmpSLT(builder.CreateXor(remainder, safeDivisor), zero));
    if (isDivision) {
      llvm::Value *floored = builder.CreateSub(quotient, builder.CreateZExt(adjust, llvmType));
      return builder.CreateSelect(isMinusOne, builder.CreateNeg(a), floored);
    }
    // remainder + (adjust ? b : 0) rather than adjust ? remainder + b : remainder: a select with
    // a constant arm keeps InstCombine's known-bits queries on it cheap (see lowerFloorByConstant).
    llvm::Value *modulo = builder.CreateAdd(remainder, builder.CreateSelect(adjust, b, zero));
    return builder.CreateSelect(isMinusOne, zero, modulo);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "bad integer operator", {});
  }
}

llvm::Value *OperatorLowering::lowerIntegerPower(llvm::Value *base, llvm::Value *exponent,
                                                 const Type *type) {
  // Exponentiation by squaring in a loop; a negative exponent gives 1 / base**-n truncated
  // to an integer (so only 1 and -1 survive), and 0 ** negative raises, as in Numba.
  llvm::Type *llvmType = base->getType();
  llvm::Value *zero = llvm::ConstantInt::get(llvmType, 0);
  llvm::Value *one = llvm::ConstantInt::get(llvmType, 1);
  if (type->isSigned()) {
    llvm::Value *negative = builder.CreateICmpSLT(exponent, zero);
    core.exceptions().raiseIf(builder.CreateAnd(negative, builder.CreateICmpEQ(base, zero)),
                              ZeroDivisionErrorId, "0 cannot be raised to a negative power");
  }
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *loop = core.newBlock("pow.loop");
  llvm::BasicBlock *done = core.newBlock("pow.done");
  llvm::Value *absExponent = type->isSigned()
                                 ? builder.CreateSelect(builder.CreateICmpSLT(exponent, zero),
                                                        builder.CreateNeg(exponent), exponent)
                                 : exponent;
  builder.CreateCondBr(builder.CreateICmpEQ(absExponent, zero), done, loop);
  builder.SetInsertPoint(loop);
  llvm::PHINode *result = builder.CreatePHI(llvmType, 2);
  llvm::PHINode *square = builder.CreatePHI(llvmType, 2);
  llvm::PHINode *remaining = builder.CreatePHI(llvmType, 2);
  result->addIncoming(one, before);
  square->addIncoming(base, before);
  remaining->addIncoming(absExponent, before);
  llvm::Value *bit = builder.CreateTrunc(remaining, builder.getInt1Ty());
  llvm::Value *nextResult = builder.CreateSelect(bit, builder.CreateMul(result, square), result);
  llvm::Value *nextSquare = builder.CreateMul(square, square);
  llvm::Value *nextRemaining = builder.CreateLShr(remaining, one);
  result->addIncoming(nextResult, loop);
  square->addIncoming(nextSquare, loop);
  remaining->addIncoming(nextRemaining, loop);
  builder.CreateCondBr(builder.CreateICmpEQ(nextRemaining, zero), done, loop);
  builder.SetInsertPoint(done);
  llvm::PHINode *power = builder.CreatePHI(llvmType, 2);
  power->addIncoming(one, before);
  power->addIncoming(nextResult, loop);
  if (!type->isSigned())
    return power;
  // For a negative exponent, 1 / power truncates to 0 unless power is 1 or -1.
  llvm::Value *isUnit = builder.CreateOr(builder.CreateICmpEQ(power, one),
                                         builder.CreateICmpEQ(power, builder.CreateNeg(one)));
  llvm::Value *reciprocal = builder.CreateSelect(isUnit, power, zero);
  return builder.CreateSelect(builder.CreateICmpSLT(exponent, zero), reciprocal, power);
}

llvm::Value *OperatorLowering::lowerFloatBinary(BinaryOp op, llvm::Value *a, llvm::Value *b,
                                                const Type *type) {
  bool raises = !core.numpyErrorModel();
  switch (op) {
  case BinaryOp::Add:
    return builder.CreateFAdd(a, b);
  case BinaryOp::Sub:
    return builder.CreateFSub(a, b);
  case BinaryOp::Mult:
    return builder.CreateFMul(a, b);
  case BinaryOp::Div:
    if (raises)
      emitZeroDivisionCheck(b, type, "division by zero");
    return builder.CreateFDiv(a, b);
  case BinaryOp::Pow: {
    // x ** 2 is x * x on every target (LLVM rewrites pow(x, 2.0) so on the CPU; libdevice's
    // powf, renamed before optimisation, would stay a 2.7x slower call in kernels).
    if (auto *exponent = llvm::dyn_cast<llvm::ConstantFP>(b);
        exponent && exponent->isExactlyValue(2.0))
      return builder.CreateFMul(a, a);
    if (raises) {
      // CPython: 0.0 ** negative raises, except 0.0 ** -inf, which is inf.
      llvm::Value *zero = llvm::ConstantFP::get(a->getType(), 0.0);
      llvm::Value *negativeFinite = builder.CreateAnd(
          builder.CreateFCmpOLT(b, zero),
          builder.CreateFCmpONE(b, llvm::ConstantFP::getInfinity(a->getType(), true)));
      core.exceptions().raiseIf(builder.CreateAnd(builder.CreateFCmpOEQ(a, zero), negativeFinite),
                                ZeroDivisionErrorId, "0.0 cannot be raised to a negative power");
    }
    return core.callLibm("pow", {a, b}, type);
  }
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    bool isDivision = op == BinaryOp::FloorDiv;
    if (raises)
      emitZeroDivisionCheck(b, type, isDivision ? "division by zero" : "modulo by zero");
    // CPython's float_divmod, which both operators share.
    llvm::Type *llvmType = a->getType();
    llvm::Value *zero = llvm::ConstantFP::get(llvmType, 0.0);
    llvm::Value *mod = builder.CreateFRem(a, b);
    llvm::Value *modNonZero = builder.CreateFCmpUNE(mod, zero);
    llvm::Value *signsDiffer =
        builder.CreateXor(builder.CreateFCmpOLT(b, zero), builder.CreateFCmpOLT(mod, zero));
    llvm::Value *fix = builder.CreateAnd(modNonZero, signsDiffer);
    llvm::Value *fixedMod = builder.CreateSelect(fix, builder.CreateFAdd(mod, b), mod);
    llvm::Value *signedZero = core.callIntrinsic(llvm::Intrinsic::copysign, {zero, b});
    llvm::Value *finalMod = builder.CreateSelect(modNonZero, fixedMod, signedZero);
    if (!isDivision)
      return finalMod;
    llvm::Value *div = builder.CreateFDiv(builder.CreateFSub(a, mod), b);
    div = builder.CreateSelect(fix, builder.CreateFSub(div, llvm::ConstantFP::get(llvmType, 1.0)),
                               div);
    llvm::Value *floorDiv = core.callIntrinsic(llvm::Intrinsic::floor, {div});
    llvm::Value *roundUp = builder.CreateFCmpOGT(builder.CreateFSub(div, floorDiv),
                                                 llvm::ConstantFP::get(llvmType, 0.5));
    floorDiv = builder.CreateSelect(
        roundUp, builder.CreateFAdd(floorDiv, llvm::ConstantFP::get(llvmType, 1.0)), floorDiv);
    llvm::Value *zeroQuotient =
        core.callIntrinsic(llvm::Intrinsic::copysign, {zero, builder.CreateFDiv(a, b)});
    llvm::Value *divNonZero = builder.CreateFCmpUNE(div, zero);
    llvm::Value *result = builder.CreateSelect(divNonZero, floorDiv, zeroQuotient);
    // A zero divisor only gets here under error_model='numpy': NumPy gives a // 0 = a / 0.
    return builder.CreateSelect(builder.CreateFCmpOEQ(b, zero), builder.CreateFDiv(a, b), result);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "bad float operator", {});
  }
}

llvm::Value *OperatorLowering::lowerComplexBinary(BinaryOp op, llvm::Value *a, llvm::Value *b,
                                                  const Type *type) {
  llvm::Value *ai, *bi;
  llvm::Value *ar = complexParts(a, ai);
  llvm::Value *br = complexParts(b, bi);
  switch (op) {
  case BinaryOp::Add:
    return makeComplex(builder.CreateFAdd(ar, br), builder.CreateFAdd(ai, bi), type);
  case BinaryOp::Sub:
    return makeComplex(builder.CreateFSub(ar, br), builder.CreateFSub(ai, bi), type);
  case BinaryOp::Mult:
    return makeComplex(builder.CreateFSub(builder.CreateFMul(ar, br), builder.CreateFMul(ai, bi)),
                       builder.CreateFAdd(builder.CreateFMul(ar, bi), builder.CreateFMul(ai, br)),
                       type);
  case BinaryOp::Div: {
    llvm::Value *zero = llvm::ConstantFP::get(ar->getType(), 0.0);
    if (!core.numpyErrorModel())
      core.exceptions().raiseIf(
          builder.CreateAnd(builder.CreateFCmpOEQ(br, zero), builder.CreateFCmpOEQ(bi, zero)),
          ZeroDivisionErrorId, "complex division by zero");
    // Smith's algorithm, as CPython's _Py_c_quot.
    llvm::Value *absBr = core.callIntrinsic(llvm::Intrinsic::fabs, {br});
    llvm::Value *absBi = core.callIntrinsic(llvm::Intrinsic::fabs, {bi});
    llvm::Value *realLarger = builder.CreateFCmpOGE(absBr, absBi);
    llvm::Value *ratio1 = builder.CreateFDiv(bi, br);
    llvm::Value *denom1 = builder.CreateFAdd(br, builder.CreateFMul(bi, ratio1));
    llvm::Value *real1 =
        builder.CreateFDiv(builder.CreateFAdd(ar, builder.CreateFMul(ai, ratio1)), denom1);
    llvm::Value *imag1 =
        builder.CreateFDiv(builder.CreateFSub(ai, builder.CreateFMul(ar, ratio1)), denom1);
    llvm::Value *ratio2 = builder.CreateFDiv(br, bi);
    llvm::Value *denom2 = builder.CreateFAdd(bi, builder.CreateFMul(br, ratio2));
    llvm::Value *real2 =
        builder.CreateFDiv(builder.CreateFAdd(builder.CreateFMul(ar, ratio2), ai), denom2);
    llvm::Value *imag2 =
        builder.CreateFDiv(builder.CreateFSub(builder.CreateFMul(ai, ratio2), ar), denom2);
    return makeComplex(builder.CreateSelect(realLarger, real1, real2),
                       builder.CreateSelect(realLarger, imag1, imag2), type);
  }
  case BinaryOp::Pow: {
    // CPython's algorithm (exact for small integral exponents) in double precision, or under
    // NumPy's error model NumPy's npy_cpow (the same cases, NumPy's complex division, C's cpow
    // otherwise) in the type's own precision, as NumPy's complex64 and complex128 loops.
    bool raises = !core.numpyErrorModel();
    bool single = !raises && type->bits() == 64;
    const Type *wide = single ? type : types::complex128();
    llvm::Type *part = single ? builder.getFloatTy() : builder.getDoubleTy();
    auto widen = [&](llvm::Value *value) { return builder.CreateFPExt(value, part); };
    ar = widen(ar), ai = widen(ai), br = widen(br), bi = widen(bi);
    llvm::AllocaInst *out = core.createEntryAlloca(llvm::ArrayType::get(part, 2), "cpow.result");
    const char *function = raises   ? "taipan_complex_pow"
                           : single ? "taipan_numpy_complex_powf"
                                    : "taipan_numpy_complex_pow";
    llvm::FunctionCallee power = moduleLowering.runtimeFunction(
        function, builder.getInt32Ty(), {part, part, part, part, builder.getPtrTy()});
    llvm::Value *status = builder.CreateCall(power, {ar, ai, br, bi, out});
    if (raises)
      core.exceptions().raiseIf(builder.CreateICmpNE(status, builder.getInt32(0)),
                                ZeroDivisionErrorId, "0.0 to a negative or complex power");
    llvm::Value *real = builder.CreateLoad(part, out);
    llvm::Value *imag = builder.CreateLoad(part, builder.CreateConstInBoundsGEP1_64(part, out, 1));
    if (!raises) {
      // NumPy's npy_cpow for a zero base (any signs of its zeros) and a non-zero exponent:
      // 0 when the exponent's real part is positive (its imaginary part does not count), else
      // NaN parts (where CPython raises, and also for a NaN real part, where CPython gives 0).
      // The host's runtime function does so itself; a device's is CPython's algorithm.
      llvm::Value *zero = llvm::ConstantFP::get(part, 0.0);
      llvm::Value *zeroBase =
          builder.CreateAnd(builder.CreateFCmpOEQ(ar, zero), builder.CreateFCmpOEQ(ai, zero));
      llvm::Value *zeroExponent =
          builder.CreateAnd(builder.CreateFCmpOEQ(br, zero), builder.CreateFCmpOEQ(bi, zero));
      llvm::Value *numpyCase = builder.CreateAnd(zeroBase, builder.CreateNot(zeroExponent));
      llvm::Value *zeroBaseValue = builder.CreateSelect(builder.CreateFCmpOGT(br, zero), zero,
                                                        llvm::ConstantFP::getNaN(part));
      real = builder.CreateSelect(numpyCase, zeroBaseValue, real);
      imag = builder.CreateSelect(numpyCase, zeroBaseValue, imag);
    }
    return core.castValue(makeComplex(real, imag, wide), wide, type);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "bad complex operator", {});
  }
}

llvm::Value *OperatorLowering::lowerUnary(Expr *expr) {
  Expr *operand = expr->operands[0];
  const Type *operandType = core.typeOf(operand);
  const Type *resultType = core.typeOf(expr);
  llvm::Value *value = core.lowerExpr(operand);
  switch (expr->unaryOp) {
  case UnaryOp::Not:
    return builder.CreateNot(core.truthValue(value, operandType));
  case UnaryOp::Pos:
    return core.castValue(value, operandType, resultType);
  case UnaryOp::Invert:
    // In the operand's own width, then widened, as NumPy computes a narrow scalar's (and
    // Numba does): ~np.uint8(0) is 255, where inverting the widened value would give 2**64 - 1.
    return core.castValue(builder.CreateNot(value), operandType, resultType);
  case UnaryOp::Neg:
    // Likewise: -np.uint32(5) is 4294967291 and -np.int8(-128) wraps to -128. A boolean is
    // widened first, since -True is -1.
    if (operandType->isInteger())
      return core.castValue(lowerNegation(value, operandType), operandType, resultType);
    return lowerNegation(core.castValue(value, operandType, resultType), resultType);
  }
  return value;
}

llvm::Value *OperatorLowering::lowerNegation(llvm::Value *value, const Type *type) {
  if (type->isInteger() || type->isTimedelta()) // -NaT wraps to NaT
    return builder.CreateNeg(value);
  if (type->isFloat())
    return builder.CreateFNeg(value);
  llvm::Value *imag;
  llvm::Value *real = complexParts(value, imag);
  return makeComplex(builder.CreateFNeg(real), builder.CreateFNeg(imag), type);
}

llvm::Value *OperatorLowering::lowerRandomWord(llvm::Value *state) {
  // One Mersenne Twister word drawn inline, as CPython's genrand_uint32 does; only the refill
  // of all 624 words is a call.
  using runtime::RandomState;
  llvm::Type *i32 = builder.getInt32Ty();
  llvm::Value *indexAddress =
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), state, RandomState::indexOffset());
  llvm::Value *index = builder.CreateLoad(i32, indexAddress);
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *refill = core.newBlock("random.refill");
  llvm::BasicBlock *draw = core.newBlock("random.draw");
  builder.CreateCondBr(builder.CreateICmpUGE(index, builder.getInt32(RandomState::N)), refill, draw,
                       llvm::MDBuilder(context).createBranchWeights(1, 623));
  builder.SetInsertPoint(refill);
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_random_refill", builder.getVoidTy(),
                                                    {builder.getPtrTy()}),
                     {state});
  builder.CreateBr(draw);
  builder.SetInsertPoint(draw);
  llvm::PHINode *position = builder.CreatePHI(i32, 2);
  position->addIncoming(index, before);
  position->addIncoming(builder.getInt32(0), refill);
  builder.CreateStore(builder.CreateAdd(position, builder.getInt32(1)), indexAddress);
  llvm::Value *words =
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), state, RandomState::wordsOffset());
  llvm::Value *word = builder.CreateLoad(
      i32,
      builder.CreateInBoundsGEP(i32, words, builder.CreateZExt(position, builder.getInt64Ty())));
  word = builder.CreateXor(word, builder.CreateLShr(word, 11));
  word = builder.CreateXor(word, builder.CreateAnd(builder.CreateShl(word, 7), 0x9d2c5680U));
  word = builder.CreateXor(word, builder.CreateAnd(builder.CreateShl(word, 15), 0xefc60000U));
  return builder.CreateXor(word, builder.CreateLShr(word, 18));
}

llvm::Value *OperatorLowering::lowerRandomDouble() {
  // The state pointer never changes within a thread, so the call is marked as reading no
  // memory: LLVM then hoists it out of loops.
  llvm::FunctionCallee stateFunction =
      moduleLowering.runtimeFunction("taipan_random_state", builder.getPtrTy(), {});
  if (auto *declaration = llvm::dyn_cast<llvm::Function>(stateFunction.getCallee())) {
    declaration->setDoesNotAccessMemory();
    declaration->setDoesNotThrow();
    declaration->setWillReturn();
  }
  llvm::Value *state = builder.CreateCall(stateFunction);
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Value *high = builder.CreateLShr(lowerRandomWord(state), 5);
  llvm::Value *low = builder.CreateLShr(lowerRandomWord(state), 6);
  llvm::Value *combined = builder.CreateFAdd(
      builder.CreateFMul(builder.CreateUIToFP(high, f64), llvm::ConstantFP::get(f64, 67108864.0)),
      builder.CreateUIToFP(low, f64));
  return builder.CreateFMul(combined, llvm::ConstantFP::get(f64, 1.0 / 9007199254740992.0));
}

} // namespace taipan
