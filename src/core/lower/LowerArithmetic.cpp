// Expressions: constants, names, operators with Python's semantics (floor division and modulo
// take the divisor's sign, division by zero raises), comparisons, and conversions between types.
#include "lower/FunctionLowering.h"
#include "lower/LowerJitClasses.h"
#include "typing/JitClassTyping.h"

#include "library/Library.h"
#include "lower/LowerDatetime.h"
#include "lower/LowerStrings.h"

#include "types/NumericPromotion.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>

namespace taipan {

llvm::Value *FunctionLowering::lowerExprAs(Expr *expr, const Type *type) {
  return castValue(lowerExpr(expr), typeOf(expr), type);
}

llvm::Value *FunctionLowering::lowerConstant(const Constant &constant, const Type *type) {
  llvm::Type *llvmType = valueType(context, type);
  switch (constant.kind) {
  case Constant::Kind::Int:
  case Constant::Kind::UInt:
    return llvm::ConstantInt::get(llvmType, static_cast<uint64_t>(constant.intValue));
  case Constant::Kind::Bool:
    return builder.getInt1(constant.intValue != 0);
  case Constant::Kind::Float:
    return llvm::ConstantFP::get(llvmType, constant.floatValue);
  case Constant::Kind::Complex: {
    llvm::Type *part = llvmType->getStructElementType(0);
    return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(llvmType),
                                     {llvm::ConstantFP::get(part, constant.floatValue),
                                      llvm::ConstantFP::get(part, constant.imagValue)});
  }
  default:
    return llvm::UndefValue::get(llvmType);
  }
}

llvm::Value *FunctionLowering::lowerExpr(Expr *expr) {
  const Type *type = typeOf(expr);
  if (isElementwise(expr))
    return lowerElementwise(expr);
  if ((expr->kind == ExprKind::BinOp || expr->kind == ExprKind::Compare ||
       expr->kind == ExprKind::Subscript || expr->kind == ExprKind::UnaryOp) &&
      (isClassInstance(typeOf(expr->operands[0])) ||
       (expr->kind == ExprKind::Compare && isClassInstance(typeOf(expr->operands.back()))))) {
    auto method = function.calls.find(expr->id); // p + q, p == q, p[i], -p, x in p: a method
    if (method != function.calls.end()) {
      llvm::Value *result = lowerJitCall(expr, method->second);
      if (expr->kind == ExprKind::Compare && expr->compareOps[0] == CompareOp::NotIn)
        return builder.CreateNot(truthValue(result, method->second.callee->returnType));
      if (expr->kind == ExprKind::Compare && expr->compareOps[0] == CompareOp::In)
        return truthValue(result, method->second.callee->returnType);
      return result;
    }
  }
  switch (expr->kind) {
  case ExprKind::Constant:
    return lowerConstant(expr->constant, type);
  case ExprKind::Name: {
    auto global = function.globals.find(expr->id);
    if (global != function.globals.end()) {
      const GlobalValue &value = global->second;
      if (value.kind == GlobalValue::Kind::Constant)
        return lowerConstant(value.constant, type);
      if (value.kind == GlobalValue::Kind::Builtin)
        if (const LibraryValue *libraryValue = Library::get().findValue(value.name))
          return lowerLibraryValue(*libraryValue, expr->location); // cuda.laneid
      if (value.kind == GlobalValue::Kind::ConstantArray)
        return lowerConstantArray(value);
      if (value.kind == GlobalValue::Kind::ConstantTuple) {
        std::vector<llvm::Value *> elements;
        for (size_t i = 0; i < value.items.size(); ++i)
          elements.push_back(value.items[i].kind == Constant::Kind::String
                                 ? lowerStringLiteral(*this, value.items[i].text)
                                 : lowerConstant(value.items[i], type->elements()[i]));
        return lowerTuple(elements, type);
      }
      return llvm::UndefValue::get(valueType(context, type));
    }
    // An optional variable read as its value (typing decided) is checked for None here.
    auto declared = function.variableTypes.find(expr->name);
    const Type *stored =
        declared != function.variableTypes.end() && declared->second ? declared->second : type;
    llvm::Value *loaded =
        builder.CreateLoad(memoryType(context, stored), variable(expr->name), expr->name);
    llvm::Value *value = fromMemoryForm(builder, loaded, stored);
    return stored == type ? value : castValue(value, stored, type);
  }
  case ExprKind::Attribute: {
    // An attribute implemented in Python (overload_attribute) is a call of its implementation.
    auto call = function.calls.find(expr->id);
    return call != function.calls.end() ? lowerJitCall(expr, call->second) : lowerAttribute(expr);
  }
  case ExprKind::BinOp: {
    auto dot = function.libraryCalls.find(expr->id); // `a @ b` of arrays: numpy.dot's entry
    if (dot != function.libraryCalls.end())
      return lowerLibraryCall(dot->second);
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    llvm::Value *leftValue = lowerExpr(left);
    llvm::Value *rightValue = lowerExpr(right);
    return lowerBinary(expr->binaryOp, leftValue, typeOf(left), rightValue, typeOf(right), type);
  }
  case ExprKind::UnaryOp:
    return lowerUnary(expr);
  case ExprKind::BoolOp:
    return lowerBoolOp(expr);
  case ExprKind::Compare:
    return lowerCompareChain(expr);
  case ExprKind::IfExp:
    return lowerIfExp(expr);
  case ExprKind::List: // a LiteralList ([1, 'a']) is the tuple of its items
    if (!type->isLiteralList())
      return lowerListLiteral(expr);
    [[fallthrough]];
  case ExprKind::Tuple: {
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < expr->operands.size(); ++i) {
      // A string literal in a tuple is a string value (typing made the element unicode_type).
      Expr *operand = expr->operands[i];
      const Type *element = type->elements()[i];
      elements.push_back(
          takeOwnership(castValue(lowerExpr(operand), typeOf(operand), element), element));
    }
    llvm::Value *tuple = lowerTuple(elements, type);
    addTemporary(tuple, type); // it owns the references of its array elements
    return tuple;
  }
  case ExprKind::Subscript:
    return lowerSubscript(expr);
  case ExprKind::Call:
    return lowerCall(expr);
  case ExprKind::Comprehension:
    return lowerComprehension(expr);
  case ExprKind::Dict: // {k: v, ...}: the "dict.{}" entry (library/Dicts.cpp)
  case ExprKind::Set:  // {a, b, ...}: the "set.{}" entry (library/Sets.cpp)
    return lowerLibraryCall(function.libraryCalls.at(expr->id));
  default:
    throwUnsupported("this expression is not supported", expr->location);
  }
}

llvm::Value *FunctionLowering::lowerTuple(const std::vector<llvm::Value *> &elements,
                                          const Type *type) {
  llvm::Value *tuple = llvm::UndefValue::get(memoryType(context, type));
  for (size_t i = 0; i < elements.size(); ++i)
    tuple = builder.CreateInsertValue(
        tuple, toMemoryForm(builder, elements[i], type->elements()[i]), static_cast<unsigned>(i));
  return tuple;
}

llvm::Value *FunctionLowering::tupleElement(llvm::Value *tuple, const Type *tupleType,
                                            unsigned index) {
  return fromMemoryForm(builder, builder.CreateExtractValue(tuple, index),
                        tupleType->elements()[index]);
}

llvm::Value *FunctionLowering::complexParts(llvm::Value *value, llvm::Value *&imag) {
  imag = builder.CreateExtractValue(value, 1);
  return builder.CreateExtractValue(value, 0);
}

llvm::Value *FunctionLowering::makeComplex(llvm::Value *real, llvm::Value *imag, const Type *type) {
  llvm::Value *result = llvm::UndefValue::get(valueType(context, type));
  result = builder.CreateInsertValue(result, real, 0);
  return builder.CreateInsertValue(result, imag, 1);
}

llvm::Value *FunctionLowering::castValue(llvm::Value *value, const Type *from, const Type *to) {
  if (from != to && (from->isOptional() || to->isOptional()))
    return castOptional(value, from, to);
  if (from == to)
    return value;
  if (to->isBoolean())
    return truthValue(value, from);
  if (to->isUnicode() && from->kind() == TypeKind::StringLiteral)
    return lowerStringLiteral(*this, from->text());
  llvm::Type *target = valueType(context, to);
  if (to->isInteger()) {
    if (from->isBoolean())
      return builder.CreateZExt(value, target);
    if (from->isInteger())
      return builder.CreateIntCast(value, target, from->isSigned());
    if (from->isFloat())
      return to->isSigned() ? builder.CreateFPToSI(value, target)
                            : builder.CreateFPToUI(value, target);
  }
  if (to->isFloat()) {
    if (from->isBoolean())
      return builder.CreateUIToFP(value, target);
    if (from->isInteger())
      return from->isSigned() ? builder.CreateSIToFP(value, target)
                              : builder.CreateUIToFP(value, target);
    if (from->isFloat())
      return builder.CreateFPCast(value, target);
  }
  if (to->isComplex()) {
    const Type *part = types::floating(to->bits() / 2);
    if (from->isComplex()) {
      llvm::Value *imag;
      llvm::Value *real = complexParts(value, imag);
      const Type *fromPart = types::floating(from->bits() / 2);
      return makeComplex(castValue(real, fromPart, part), castValue(imag, fromPart, part), to);
    }
    if (from->isNumber())
      return makeComplex(castValue(value, from, part),
                         llvm::ConstantFP::get(valueType(context, part), 0.0), to);
  }
  if (to->isDatetimeLike() && from->kind() == to->kind())
    return convertDatetimeUnit(*this, value, from, to);
  if (to->isList() && from->isList())
    return convertList(value, from, to);
  if (to->isDict() && from->isDict())
    return convertDict(value, from, to);
  if (to->isSet() && from->isSet())
    return convertSet(value, from, to);
  if (to->isTuple() && from->isTuple()) {
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < to->elements().size(); ++i)
      elements.push_back(castValue(tupleElement(value, from, static_cast<unsigned>(i)),
                                   from->elements()[i], to->elements()[i]));
    return lowerTuple(elements, to);
  }
  // A C or F array where an A array is expected (a variable assigned both): the same value,
  // whose layout is no longer promised.
  if (from->isArray() && to->isArray() && from->dtype() == to->dtype() &&
      from->ndim() == to->ndim() && (to->layout() == 'A' || to->layout() == from->layout()) &&
      (to->isReadonly() || !from->isReadonly()))
    return value;
  if (!from->isRuntimeValue() || !to->isRuntimeValue() || to->isNone())
    return llvm::UndefValue::get(target);
  throw CompileError(CompileErrorKind::Internal,
                     "cannot convert " + from->name() + " to " + to->name(), {});
}

llvm::Value *FunctionLowering::truthValue(llvm::Value *value, const Type *type) {
  switch (type->kind()) {
  case TypeKind::Boolean:
    return value;
  case TypeKind::Integer:
    return builder.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  case TypeKind::Float:
    return builder.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0));
  case TypeKind::Complex: {
    llvm::Value *imag;
    llvm::Value *real = complexParts(value, imag);
    llvm::Value *zero = llvm::ConstantFP::get(real->getType(), 0.0);
    return builder.CreateOr(builder.CreateFCmpUNE(real, zero), builder.CreateFCmpUNE(imag, zero));
  }
  case TypeKind::Tuple:
    return builder.getInt1(!type->elements().empty());
  case TypeKind::StringLiteral:
    return builder.getInt1(!type->text().empty());
  case TypeKind::Unicode:
    return builder.CreateICmpNE(stringLength(*this, value), builder.getInt64(0));
  case TypeKind::List:
    return builder.CreateICmpNE(listLength(value), builder.getInt64(0));
  case TypeKind::Dict:
  case TypeKind::DictView: // the dict's block
    return builder.CreateICmpNE(dictLength(value), builder.getInt64(0));
  case TypeKind::Set:
    return builder.CreateICmpNE(setLength(value), builder.getInt64(0));
  case TypeKind::Datetime: // the count: NaT is true, as in NumPy
  case TypeKind::Timedelta:
    return builder.CreateICmpNE(value, builder.getInt64(0));
  case TypeKind::Range: {
    llvm::Value *start = builder.CreateExtractValue(value, 0);
    llvm::Value *stop = builder.CreateExtractValue(value, 1);
    llvm::Value *step = builder.CreateExtractValue(value, 2);
    return builder.CreateSelect(builder.CreateICmpSGT(step, builder.getInt64(0)),
                                builder.CreateICmpSLT(start, stop),
                                builder.CreateICmpSGT(start, stop));
  }
  default:
    return builder.getInt1(false);
  }
}

void FunctionLowering::emitZeroDivisionCheck(llvm::Value *divisor, const Type *type,
                                             const char *message) {
  llvm::Value *isZero =
      type->isFloat()
          ? builder.CreateFCmpOEQ(divisor, llvm::ConstantFP::get(divisor->getType(), 0.0))
          : builder.CreateICmpEQ(divisor, llvm::ConstantInt::get(divisor->getType(), 0));
  raiseIf(isZero, ZeroDivisionErrorId, message);
}

llvm::Value *FunctionLowering::lowerBinary(BinaryOp op, llvm::Value *left, const Type *leftType,
                                           llvm::Value *right, const Type *rightType,
                                           const Type *resultType) {
  if (resultType->isUnicode())
    return lowerStringBinary(*this, op, left, leftType, right, rightType);
  if (leftType->isDatetimeLike() || rightType->isDatetimeLike())
    return lowerDatetimeBinary(*this, op, left, leftType, right, rightType, resultType);
  if (op == BinaryOp::LShift || op == BinaryOp::RShift) {
    llvm::Value *value = castValue(left, leftType, resultType);
    llvm::Value *amount = castValue(right, rightType, types::int64());
    // Shift counts wrap modulo the width, as the x86 instructions Numba relies on do.
    amount = builder.CreateAnd(amount, builder.getInt64(resultType->bits() - 1));
    amount = builder.CreateIntCast(amount, value->getType(), false);
    if (op == BinaryOp::LShift)
      return builder.CreateShl(value, amount);
    return resultType->isSigned() ? builder.CreateAShr(value, amount)
                                  : builder.CreateLShr(value, amount);
  }
  if (leftType->isTuple()) { // concatenation
    std::vector<llvm::Value *> elements;
    for (size_t i = 0; i < leftType->elements().size(); ++i)
      elements.push_back(tupleElement(left, leftType, static_cast<unsigned>(i)));
    for (size_t i = 0; i < rightType->elements().size(); ++i)
      elements.push_back(tupleElement(right, rightType, static_cast<unsigned>(i)));
    return lowerTuple(elements, resultType);
  }
  const Type *operandType = binaryOperandType(op, leftType, rightType);
  llvm::Value *a = castValue(left, leftType, operandType);
  llvm::Value *b = castValue(right, rightType, operandType);
  llvm::Value *result;
  if (operandType->isBoolean()) {
    if (op == BinaryOp::BitAnd)
      result = builder.CreateAnd(a, b);
    else if (op == BinaryOp::BitOr)
      result = builder.CreateOr(a, b);
    else
      result = builder.CreateXor(a, b);
    return castValue(result, operandType, resultType);
  }
  if (operandType->isInteger())
    result = lowerIntegerBinary(op, a, b, operandType);
  else if (operandType->isFloat())
    result = lowerFloatBinary(op, a, b, operandType);
  else
    result = lowerComplexBinary(op, a, b, operandType);
  return castValue(result, operandType, resultType);
}

llvm::Value *FunctionLowering::lowerFloorByConstant(bool isDivision, llvm::Value *dividend,
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

llvm::Value *FunctionLowering::lowerIntegerBinary(BinaryOp op, llvm::Value *a, llvm::Value *b,
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
    if (numpyErrorModel() && checkZero) {
      // NumPy's answer for x // 0 and x % 0 is 0; divide by 1 instead to avoid the trap.
      llvm::Value *safe =
          builder.CreateSelect(divisorIsZero, llvm::ConstantInt::get(llvmType, 1), b);
      llvm::Value *result = lowerIntegerBinary(op, a, safe, type, false);
      return builder.CreateSelect(divisorIsZero, zero, result);
    }
    if (checkZero)
      raiseIf(divisorIsZero, ZeroDivisionErrorId,
              isDivision ? "integer division or modulo by zero" : "integer modulo by zero");
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

llvm::Value *FunctionLowering::lowerIntegerPower(llvm::Value *base, llvm::Value *exponent,
                                                 const Type *type) {
  // Exponentiation by squaring in a loop; a negative exponent gives 1 / base**-n truncated
  // to an integer (so only 1 and -1 survive), and 0 ** negative raises, as in Numba.
  llvm::Type *llvmType = base->getType();
  llvm::Value *zero = llvm::ConstantInt::get(llvmType, 0);
  llvm::Value *one = llvm::ConstantInt::get(llvmType, 1);
  if (type->isSigned()) {
    llvm::Value *negative = builder.CreateICmpSLT(exponent, zero);
    raiseIf(builder.CreateAnd(negative, builder.CreateICmpEQ(base, zero)), ZeroDivisionErrorId,
            "0 cannot be raised to a negative power");
  }
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *loop = newBlock("pow.loop");
  llvm::BasicBlock *done = newBlock("pow.done");
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

llvm::Value *FunctionLowering::lowerFloatBinary(BinaryOp op, llvm::Value *a, llvm::Value *b,
                                                const Type *type) {
  bool raises = !numpyErrorModel();
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
      raiseIf(builder.CreateAnd(builder.CreateFCmpOEQ(a, zero), negativeFinite),
              ZeroDivisionErrorId, "0.0 cannot be raised to a negative power");
    }
    return callLibm("pow", {a, b}, type);
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
    llvm::Value *signedZero = callIntrinsic(llvm::Intrinsic::copysign, {zero, b});
    llvm::Value *finalMod = builder.CreateSelect(modNonZero, fixedMod, signedZero);
    if (!isDivision)
      return finalMod;
    llvm::Value *div = builder.CreateFDiv(builder.CreateFSub(a, mod), b);
    div = builder.CreateSelect(fix, builder.CreateFSub(div, llvm::ConstantFP::get(llvmType, 1.0)),
                               div);
    llvm::Value *floorDiv = callIntrinsic(llvm::Intrinsic::floor, {div});
    llvm::Value *roundUp = builder.CreateFCmpOGT(builder.CreateFSub(div, floorDiv),
                                                 llvm::ConstantFP::get(llvmType, 0.5));
    floorDiv = builder.CreateSelect(
        roundUp, builder.CreateFAdd(floorDiv, llvm::ConstantFP::get(llvmType, 1.0)), floorDiv);
    llvm::Value *zeroQuotient =
        callIntrinsic(llvm::Intrinsic::copysign, {zero, builder.CreateFDiv(a, b)});
    llvm::Value *divNonZero = builder.CreateFCmpUNE(div, zero);
    llvm::Value *result = builder.CreateSelect(divNonZero, floorDiv, zeroQuotient);
    // A zero divisor only gets here under error_model='numpy': NumPy gives a // 0 = a / 0.
    return builder.CreateSelect(builder.CreateFCmpOEQ(b, zero), builder.CreateFDiv(a, b), result);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "bad float operator", {});
  }
}

llvm::Value *FunctionLowering::lowerComplexBinary(BinaryOp op, llvm::Value *a, llvm::Value *b,
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
    if (!numpyErrorModel())
      raiseIf(builder.CreateAnd(builder.CreateFCmpOEQ(br, zero), builder.CreateFCmpOEQ(bi, zero)),
              ZeroDivisionErrorId, "complex division by zero");
    // Smith's algorithm, as CPython's _Py_c_quot.
    llvm::Value *absBr = callIntrinsic(llvm::Intrinsic::fabs, {br});
    llvm::Value *absBi = callIntrinsic(llvm::Intrinsic::fabs, {bi});
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
    // CPython's algorithm (exact for small integral exponents), in double precision.
    const Type *wide = types::complex128();
    llvm::Type *f64 = builder.getDoubleTy();
    auto widen = [&](llvm::Value *value) { return builder.CreateFPExt(value, f64); };
    llvm::AllocaInst *out = createEntryAlloca(llvm::ArrayType::get(f64, 2), "cpow.result");
    llvm::FunctionCallee power = moduleLowering.runtimeFunction(
        "taipan_complex_pow", builder.getInt32Ty(), {f64, f64, f64, f64, builder.getPtrTy()});
    llvm::Value *status =
        builder.CreateCall(power, {widen(ar), widen(ai), widen(br), widen(bi), out});
    raiseIf(builder.CreateICmpNE(status, builder.getInt32(0)), ZeroDivisionErrorId,
            "0.0 to a negative or complex power");
    llvm::Value *real = builder.CreateLoad(f64, out);
    llvm::Value *imag = builder.CreateLoad(f64, builder.CreateConstInBoundsGEP1_64(f64, out, 1));
    return castValue(makeComplex(real, imag, wide), wide, type);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "bad complex operator", {});
  }
}

llvm::Value *FunctionLowering::lowerUnary(Expr *expr) {
  Expr *operand = expr->operands[0];
  const Type *operandType = typeOf(operand);
  const Type *resultType = typeOf(expr);
  llvm::Value *value = lowerExpr(operand);
  switch (expr->unaryOp) {
  case UnaryOp::Not:
    return builder.CreateNot(truthValue(value, operandType));
  case UnaryOp::Pos:
    return castValue(value, operandType, resultType);
  case UnaryOp::Invert:
    if (operandType->isBoolean())
      return builder.CreateNot(value);
    return builder.CreateNot(castValue(value, operandType, resultType));
  case UnaryOp::Neg:
    return lowerNegation(castValue(value, operandType, resultType), resultType);
  }
  return value;
}

llvm::Value *FunctionLowering::lowerNegation(llvm::Value *value, const Type *type) {
  if (type->isInteger() || type->isTimedelta()) // -NaT wraps to NaT
    return builder.CreateNeg(value);
  if (type->isFloat())
    return builder.CreateFNeg(value);
  llvm::Value *imag;
  llvm::Value *real = complexParts(value, imag);
  return makeComplex(builder.CreateFNeg(real), builder.CreateFNeg(imag), type);
}

llvm::Value *FunctionLowering::lowerComparison(CompareOp op, llvm::Value *left,
                                               const Type *leftType, llvm::Value *right,
                                               const Type *rightType) {
  if (leftType->isOptional() || rightType->isOptional())
    if (llvm::Value *result = lowerOptionalComparison(op, left, leftType, right, rightType))
      return result;
  if (op == CompareOp::Is)
    return lowerIdentity(left, leftType, right, rightType);
  if (op == CompareOp::IsNot)
    return builder.CreateNot(lowerIdentity(left, leftType, right, rightType));
  if (leftType->isString() && rightType->isString())
    return lowerStringComparison(*this, op, left, leftType, right, rightType);
  // A string never equals a number (`"1" == 1` is False, as in Python).
  if ((op == CompareOp::Eq || op == CompareOp::NotEq) &&
      ((leftType->isString() && rightType->isNumber()) ||
       (leftType->isNumber() && rightType->isString())))
    return builder.getInt1(op == CompareOp::NotEq);
  if (leftType->isDatetimeLike() && rightType->isDatetimeLike() && op != CompareOp::In &&
      op != CompareOp::NotIn)
    return lowerDatetimeComparison(*this, op, left, leftType, right, rightType);
  // None equals only None (`x == None` where x is a number is False, as in Python).
  if ((op == CompareOp::Eq || op == CompareOp::NotEq) && !leftType->isArray() &&
      !rightType->isArray() && (leftType->isNone() || rightType->isNone()))
    return builder.getInt1((leftType->isNone() && rightType->isNone()) != (op == CompareOp::NotEq));
  if ((op == CompareOp::In || op == CompareOp::NotIn) && rightType->isGenerator()) {
    // Resumes the generator until an item equals `left` (what is left of it stays unread, as
    // in CPython).
    llvm::AllocaInst *found = createEntryAlloca(builder.getInt1Ty(), "in.found");
    builder.CreateStore(builder.getFalse(), found);
    llvm::BasicBlock *header = newBlock("in.next");
    llvm::BasicBlock *hit = newBlock("in.hit");
    llvm::BasicBlock *end = newBlock("in.end");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    size_t mark = temporaries.size();
    const Type *itemType = rightType->yieldType();
    llvm::Value *item = nextGeneratorItem(right, rightType, end);
    llvm::Value *equal = lowerComparison(CompareOp::Eq, left, leftType, item, itemType);
    releaseTemporaries(mark);
    builder.CreateCondBr(equal, hit, header);
    builder.SetInsertPoint(hit);
    builder.CreateStore(builder.getTrue(), found);
    builder.CreateBr(end);
    builder.SetInsertPoint(end);
    llvm::Value *result = builder.CreateLoad(builder.getInt1Ty(), found);
    return op == CompareOp::In ? result : builder.CreateNot(result);
  }
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    llvm::Value *found = builder.getInt1(false);
    for (size_t i = 0; i < rightType->elements().size(); ++i) {
      const Type *elementType = rightType->elements()[i];
      if (!comparisonOperandType(CompareOp::Eq, leftType, elementType) &&
          !(leftType->isString() && elementType->isString()))
        continue;
      llvm::Value *element = tupleElement(right, rightType, static_cast<unsigned>(i));
      found = builder.CreateOr(
          found, lowerComparison(CompareOp::Eq, left, leftType, element, elementType));
    }
    return op == CompareOp::In ? found : builder.CreateNot(found);
  }
  if (leftType->isTuple() && rightType->isTuple())
    return lowerTupleComparison(op, left, leftType, right, rightType);
  const Type *common = comparisonOperandType(op, leftType, rightType);
  llvm::Value *a = castValue(left, leftType, common);
  llvm::Value *b = castValue(right, rightType, common);
  if (common->isNone())
    return builder.getInt1(op == CompareOp::Eq || op == CompareOp::LtE || op == CompareOp::GtE);
  if (common->isComplex()) {
    llvm::Value *ai, *bi;
    llvm::Value *ar = complexParts(a, ai);
    llvm::Value *br = complexParts(b, bi);
    llvm::Value *equal =
        builder.CreateAnd(builder.CreateFCmpOEQ(ar, br), builder.CreateFCmpOEQ(ai, bi));
    return op == CompareOp::Eq ? equal : builder.CreateNot(equal);
  }
  if (common->isFloat()) {
    switch (op) {
    case CompareOp::Eq:
      return builder.CreateFCmpOEQ(a, b);
    case CompareOp::NotEq:
      return builder.CreateFCmpUNE(a, b);
    case CompareOp::Lt:
      return builder.CreateFCmpOLT(a, b);
    case CompareOp::LtE:
      return builder.CreateFCmpOLE(a, b);
    case CompareOp::Gt:
      return builder.CreateFCmpOGT(a, b);
    default:
      return builder.CreateFCmpOGE(a, b);
    }
  }
  bool isSigned = common->isInteger() && common->isSigned();
  switch (op) {
  case CompareOp::Eq:
    return builder.CreateICmpEQ(a, b);
  case CompareOp::NotEq:
    return builder.CreateICmpNE(a, b);
  case CompareOp::Lt:
    return isSigned ? builder.CreateICmpSLT(a, b) : builder.CreateICmpULT(a, b);
  case CompareOp::LtE:
    return isSigned ? builder.CreateICmpSLE(a, b) : builder.CreateICmpULE(a, b);
  case CompareOp::Gt:
    return isSigned ? builder.CreateICmpSGT(a, b) : builder.CreateICmpUGT(a, b);
  default:
    return isSigned ? builder.CreateICmpSGE(a, b) : builder.CreateICmpUGE(a, b);
  }
}

llvm::Value *FunctionLowering::lowerIdentity(llvm::Value *left, const Type *leftType,
                                             llvm::Value *right, const Type *rightType) {
  // None, modules, functions and classes are singletons their type names.
  if (!leftType->isRuntimeValue() || !rightType->isRuntimeValue() || leftType->isNone() ||
      rightType->isNone())
    return builder.getInt1(leftType == rightType);
  if (leftType->isPointer() && rightType->isPointer())
    return builder.CreateICmpEQ(left, right);
  // jitclass instances are their blocks: the same block is the same instance.
  if (isClassInstance(leftType) && leftType == rightType)
    return builder.CreateICmpEQ(left, right);
  // Values of different types are different objects. Numbers of one type compare by value, as
  // in Numba (CPython's answer for equal numbers depends on its caches); tuples item by item.
  if (leftType != rightType)
    return builder.getInt1(false);
  if (leftType->isTuple()) {
    llvm::Value *same = builder.getInt1(true);
    for (size_t i = 0; i < leftType->elements().size(); ++i) {
      auto index = static_cast<unsigned>(i);
      same = builder.CreateAnd(
          same, lowerIdentity(tupleElement(left, leftType, index), leftType->elements()[i],
                              tupleElement(right, rightType, index), rightType->elements()[i]));
    }
    return same;
  }
  if (leftType->isNumber())
    return lowerComparison(CompareOp::Eq, left, leftType, right, rightType);
  throw CompileError(CompileErrorKind::Internal, "'is' between " + leftType->name() + " values",
                     {});
}

llvm::Value *FunctionLowering::lowerTupleComparison(CompareOp op, llvm::Value *left,
                                                    const Type *leftType, llvm::Value *right,
                                                    const Type *rightType) {
  // Python compares tuples lexicographically: the first unequal pair decides, else the lengths.
  size_t leftCount = leftType->elements().size();
  size_t rightCount = rightType->elements().size();
  auto compareCounts = [&](CompareOp compare) {
    switch (compare) {
    case CompareOp::Eq:
      return leftCount == rightCount;
    case CompareOp::NotEq:
      return leftCount != rightCount;
    case CompareOp::Lt:
      return leftCount < rightCount;
    case CompareOp::LtE:
      return leftCount <= rightCount;
    case CompareOp::Gt:
      return leftCount > rightCount;
    default:
      return leftCount >= rightCount;
    }
  };
  llvm::Value *result = builder.getInt1(compareCounts(op));
  for (size_t i = std::min(leftCount, rightCount); i-- > 0;) {
    const Type *a = leftType->elements()[i];
    const Type *b = rightType->elements()[i];
    llvm::Value *x = tupleElement(left, leftType, static_cast<unsigned>(i));
    llvm::Value *y = tupleElement(right, rightType, static_cast<unsigned>(i));
    llvm::Value *equal = lowerComparison(CompareOp::Eq, x, a, y, b);
    llvm::Value *decided = op == CompareOp::Eq      ? builder.getInt1(false)
                           : op == CompareOp::NotEq ? builder.getInt1(true)
                                                    : lowerComparison(op, x, a, y, b);
    result = builder.CreateSelect(equal, result, decided);
  }
  return result;
}

llvm::Value *FunctionLowering::lowerCompareChain(Expr *expr) {
  auto list = function.libraryCalls.find(expr->id); // `x in l`, `a == b` of lists
  if (list != function.libraryCalls.end())
    return lowerLibraryCall(list->second);
  // a < b < c evaluates b once and stops at the first false comparison.
  llvm::BasicBlock *end = newBlock("cmp.end");
  std::vector<std::pair<llvm::Value *, llvm::BasicBlock *>> incoming;
  llvm::Value *left = lowerExpr(expr->operands[0]);
  const Type *leftType = typeOf(expr->operands[0]);
  llvm::Value *result = nullptr;
  for (size_t i = 0; i < expr->compareOps.size(); ++i) {
    Expr *rightExpr = expr->operands[i + 1];
    llvm::Value *right = lowerExpr(rightExpr);
    result = lowerComparison(expr->compareOps[i], left, leftType, right, typeOf(rightExpr));
    if (i + 1 < expr->compareOps.size()) {
      llvm::BasicBlock *next = newBlock("cmp.next");
      incoming.push_back({builder.getInt1(false), builder.GetInsertBlock()});
      builder.CreateCondBr(result, next, end);
      builder.SetInsertPoint(next);
    }
    left = right;
    leftType = typeOf(rightExpr);
  }
  incoming.push_back({result, builder.GetInsertBlock()});
  builder.CreateBr(end);
  builder.SetInsertPoint(end);
  llvm::PHINode *phi = builder.CreatePHI(builder.getInt1Ty(), incoming.size());
  for (auto &[value, block] : incoming)
    phi->addIncoming(value, block);
  return phi;
}

llvm::Value *FunctionLowering::lowerBoolOp(Expr *expr) {
  // `a and b` is a if a is false, else b; `or` the other way round. The value, not a bool.
  const Type *resultType = typeOf(expr);
  llvm::BasicBlock *end = newBlock("boolop.end");
  std::vector<std::pair<llvm::Value *, llvm::BasicBlock *>> incoming;
  for (size_t i = 0; i < expr->operands.size(); ++i) {
    Expr *operand = expr->operands[i];
    llvm::Value *value = lowerExpr(operand);
    llvm::Value *converted = castValue(value, typeOf(operand), resultType);
    // The last operand, or one whose truth types decided to end the evaluation (the operands
    // after it were not typed).
    if (i + 1 == expr->operands.size() || function.staticConditions.count(operand->id)) {
      incoming.push_back({converted, builder.GetInsertBlock()});
      builder.CreateBr(end);
      break;
    }
    llvm::Value *truth = truthValue(value, typeOf(operand));
    llvm::BasicBlock *next = newBlock("boolop.next");
    incoming.push_back({converted, builder.GetInsertBlock()});
    if (expr->isAnd)
      builder.CreateCondBr(truth, next, end);
    else
      builder.CreateCondBr(truth, end, next);
    builder.SetInsertPoint(next);
  }
  builder.SetInsertPoint(end);
  llvm::PHINode *phi = builder.CreatePHI(valueType(context, resultType), incoming.size());
  for (auto &[value, block] : incoming)
    phi->addIncoming(value, block);
  return phi;
}

llvm::Value *FunctionLowering::lowerIfExp(Expr *expr) {
  const Type *resultType = typeOf(expr);
  auto decided = function.staticConditions.find(expr->operands[0]->id);
  if (decided != function.staticConditions.end()) // the other branch was never typed
    return lowerExprAs(expr->operands[decided->second ? 1 : 2], resultType);
  llvm::Value *test = lowerExpr(expr->operands[0]);
  const Type *testType = typeOf(expr->operands[0]);
  auto truth = function.calls.find(attributeSetterKey(expr->operands[0])); // `x if p else y`
  if (truth != function.calls.end()) {
    test = callTypedFunction(*truth->second.callee, {test});
    testType = truth->second.callee->returnType;
  }
  llvm::Value *condition = truthValue(test, testType);
  llvm::BasicBlock *thenBlock = newBlock("ifexp.then");
  llvm::BasicBlock *elseBlock = newBlock("ifexp.else");
  llvm::BasicBlock *end = newBlock("ifexp.end");
  builder.CreateCondBr(condition, thenBlock, elseBlock);
  builder.SetInsertPoint(thenBlock);
  llvm::Value *thenValue = lowerExprAs(expr->operands[1], resultType);
  llvm::BasicBlock *thenEnd = builder.GetInsertBlock();
  builder.CreateBr(end);
  builder.SetInsertPoint(elseBlock);
  llvm::Value *elseValue = lowerExprAs(expr->operands[2], resultType);
  llvm::BasicBlock *elseEnd = builder.GetInsertBlock();
  builder.CreateBr(end);
  builder.SetInsertPoint(end);
  llvm::PHINode *phi = builder.CreatePHI(valueType(context, resultType), 2);
  phi->addIncoming(thenValue, thenEnd);
  phi->addIncoming(elseValue, elseEnd);
  return phi;
}

llvm::Value *FunctionLowering::pointerElementAddress(Expr *subscript) {
  const Type *pointee = typeOf(subscript->operands[0])->pointee();
  llvm::Value *pointer = lowerExpr(subscript->operands[0]);
  llvm::Value *index = lowerExprAs(subscript->operands[1], types::int64());
  return builder.CreateGEP(memoryType(context, pointee), pointer, index);
}

llvm::Value *FunctionLowering::lowerSubscript(Expr *expr) {
  auto list = function.libraryCalls.find(expr->id); // l[i], l[a:b] (library/Lists.cpp)
  if (list != function.libraryCalls.end())
    return lowerLibraryCall(list->second);
  Expr *base = expr->operands[0];
  Expr *index = expr->operands[1];
  if (isRecordAccess(expr))
    return lowerRecordAccess(expr);
  if (typeOf(base)->isArray())
    return lowerArraySubscript(expr);
  if (typeOf(base)->isString())
    return lowerStringSubscript(*this, expr);
  if (typeOf(base)->isPointer())
    return loadElement(pointerElementAddress(expr), typeOf(expr));
  const Type *tupleType = typeOf(base);
  llvm::Value *tuple = lowerExpr(base);
  int64_t count = static_cast<int64_t>(tupleType->elements().size());
  std::vector<int64_t> positions;
  if (constantSliceIndices(index, count, positions)) {
    std::vector<llvm::Value *> elements;
    for (int64_t position : positions)
      elements.push_back(tupleElement(tuple, tupleType, static_cast<unsigned>(position)));
    return lowerTuple(elements, typeOf(expr));
  }
  if (index->kind == ExprKind::Constant && index->constant.kind == Constant::Kind::Int) {
    int64_t position = index->constant.intValue;
    return tupleElement(tuple, tupleType,
                        static_cast<unsigned>(position < 0 ? position + count : position));
  }
  // A uniform tuple indexed at run time: through a stack copy, with Python's negative indices.
  llvm::Value *position = lowerExprAs(index, types::int64());
  position = builder.CreateSelect(builder.CreateICmpSLT(position, builder.getInt64(0)),
                                  builder.CreateAdd(position, builder.getInt64(count)), position);
  raiseIf(builder.CreateICmpUGE(position, builder.getInt64(count)), IndexErrorId,
          "tuple index out of range");
  const Type *elementType = tupleType->elements().front();
  llvm::AllocaInst *slot = createEntryAlloca(memoryType(context, tupleType), "tuple.copy");
  builder.CreateStore(tuple, slot);
  llvm::Value *address =
      builder.CreateInBoundsGEP(memoryType(context, elementType), slot, position);
  return fromMemoryForm(builder, builder.CreateLoad(memoryType(context, elementType), address),
                        elementType);
}

llvm::Value *FunctionLowering::lowerAttribute(Expr *expr) {
  const Type *type = typeOf(expr);
  if (function.globals.count(expr->id)) {
    const GlobalValue &value = function.globals.at(expr->id);
    if (value.kind == GlobalValue::Kind::Constant)
      return lowerConstant(value.constant, type);
    if (value.kind == GlobalValue::Kind::Builtin)
      if (const LibraryValue *libraryValue = Library::get().findValue(value.name))
        return lowerLibraryValue(*libraryValue, expr->location);
    if (value.kind == GlobalValue::Kind::ConstantArray)
      return lowerConstantArray(value);
    return llvm::UndefValue::get(valueType(context, type));
  }
  Expr *base = expr->operands[0];
  const Type *baseType = typeOf(base);
  if (baseType->kind() == TypeKind::Builtin) { // cuda.threadIdx.x and friends
    std::string name = baseType->text() + "." + expr->name;
    const LibraryValue *libraryValue = Library::get().findValue(name);
    if (!libraryValue)
      throwUnsupported(name + " is not supported", expr->location);
    return lowerLibraryValue(*libraryValue, expr->location);
  }
  if (isClassFieldAccess(*this, expr)) // p.x of a jitclass instance
    return lowerClassFieldLoad(*this, expr);
  if (isRecordAccess(expr))
    return lowerRecordAccess(expr);
  if (baseType->isNamedTuple() && baseType->fieldIndex(expr->name) >= 0) // p.x: an item
    return tupleElement(lowerExpr(base), baseType,
                        static_cast<unsigned>(baseType->fieldIndex(expr->name)));
  if (!type->isRuntimeValue() || type->kind() == TypeKind::Builtin)
    return llvm::UndefValue::get(valueType(context, type)); // a bound method, or a.dtype
  // An attribute the library implements (a.shape...): a call of its entry with the value.
  auto library = function.libraryCalls.find(expr->id);
  if (library != function.libraryCalls.end())
    return lowerLibraryCall(library->second);
  llvm::Value *value = lowerExpr(base);
  if (baseType->isComplex()) {
    llvm::Value *imag;
    llvm::Value *real = complexParts(value, imag);
    return expr->name == "real" ? real : imag;
  }
  if (expr->name == "real")
    return castValue(value, baseType, type);
  return llvm::Constant::getNullValue(valueType(context, type));
}

llvm::Value *FunctionLowering::callIntrinsic(llvm::Intrinsic::ID id,
                                             llvm::ArrayRef<llvm::Value *> arguments) {
  return builder.CreateIntrinsic(id, {arguments[0]->getType()}, arguments);
}

llvm::Value *FunctionLowering::callLibm(const std::string &name,
                                        llvm::ArrayRef<llvm::Value *> arguments,
                                        const Type *floatType) {
  llvm::Type *llvmType = valueType(context, floatType);
  std::vector<llvm::Type *> parameters;
  for (llvm::Value *argument : arguments)
    parameters.push_back(argument->getType());
  std::string symbol = floatType->bits() == 32 ? name + "f" : name;
  llvm::FunctionCallee callee = moduleLowering.runtimeFunction(symbol, llvmType, parameters);
  // errno is never read, so a function of numbers alone is pure (clang's -fno-math-errno):
  // loops calling it can vectorise (with a vector math library) and calls can be hoisted.
  bool numbersOnly = std::all_of(parameters.begin(), parameters.end(),
                                 [](llvm::Type *type) { return type->isFloatingPointTy(); });
  if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee());
      declared && numbersOnly) {
    declared->setDoesNotAccessMemory();
    declared->setDoesNotThrow();
    declared->setWillReturn();
  }
  return builder.CreateCall(callee, arguments);
}

} // namespace taipan
