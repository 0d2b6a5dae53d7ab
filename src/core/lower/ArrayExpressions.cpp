// Array expressions and NumPy functions: an elementwise expression tree (operators and ufuncs)
// becomes one loop with no temporary arrays; creation functions, reductions and array methods.
#include "lower/FunctionLowering.h"

#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <map>

namespace taipan {
namespace {

const Type *scalarOf(const Type *type) { return type->isArray() ? type->dtype() : type; }

const std::map<std::string, std::string> &ufuncMathNames() {
  static const std::map<std::string, std::string> names = {
      {"arcsin", "asin"},   {"arccos", "acos"},     {"arctan", "atan"},
      {"arcsinh", "asinh"}, {"arccosh", "acosh"},   {"arctanh", "atanh"},
      {"arctan2", "atan2"}, {"deg2rad", "radians"}, {"rad2deg", "degrees"}};
  return names;
}

} // namespace

bool FunctionLowering::isElementwise(const Expr *expr) const {
  const Type *type = typeOf(expr);
  if (!type || !type->isArray())
    return false;
  switch (expr->kind) {
  case ExprKind::BinOp:
    return expr->binaryOp != BinaryOp::MatMult;
  case ExprKind::UnaryOp:
    return true;
  case ExprKind::Compare:
    return expr->compareOps.size() == 1;
  case ExprKind::Call: {
    const Type *callee = typeOf(expr->callee());
    return callee->kind() == TypeKind::Builtin &&
           (isUfunc(callee->text()) || callee->text() == "abs");
  }
  default:
    return false;
  }
}

void FunctionLowering::collectElementwiseLeaves(Expr *expr, std::vector<Expr *> &leaves) {
  size_t first = expr->kind == ExprKind::Call ? 1 : 0;
  for (size_t i = first; i < expr->operands.size(); ++i) {
    Expr *operand = expr->operands[i];
    if (isElementwise(operand))
      collectElementwiseLeaves(operand, leaves);
    else
      leaves.push_back(operand);
  }
}

llvm::Value *FunctionLowering::lowerElementwise(Expr *expr) {
  const Type *resultType = typeOf(expr);
  int ndim = resultType->ndim();
  std::vector<Expr *> leaves;
  collectElementwiseLeaves(expr, leaves);
  std::map<const Expr *, llvm::Value *> leafValues;
  std::vector<Expr *> arrayLeaves;
  for (Expr *leaf : leaves) {
    leafValues[leaf] = lowerExpr(leaf);
    if (typeOf(leaf)->isArray())
      arrayLeaves.push_back(leaf);
  }
  // The broadcast shape: trailing dimensions line up; an extent of 1 stretches.
  std::vector<llvm::Value *> shape(ndim, builder.getInt64(1));
  for (Expr *leaf : arrayLeaves) {
    const Type *leafType = typeOf(leaf);
    int offset = ndim - leafType->ndim();
    for (int i = 0; i < leafType->ndim(); ++i) {
      llvm::Value *extent = arrayField(leafValues[leaf], ArrayLayout::Shape, i);
      llvm::Value *current = shape[offset + i];
      llvm::Value *merged =
          builder.CreateSelect(builder.CreateICmpEQ(current, builder.getInt64(1)), extent, current);
      raiseIf(builder.CreateAnd(builder.CreateICmpNE(extent, builder.getInt64(1)),
                                builder.CreateICmpNE(extent, merged)),
              ValueErrorId, "operands could not be broadcast together");
      shape[offset + i] = merged;
    }
  }
  llvm::Value *result = allocateArray(resultType, shape);
  const Type *dtype = resultType->dtype();
  bool savedContext = insideElementwise;
  insideElementwise = true;
  auto evaluate = [&](const std::function<llvm::Value *(Expr *)> &addressOf,
                      llvm::Value *resultAddress) {
    std::map<const Expr *, llvm::Value *> scalars;
    for (Expr *leaf : leaves)
      scalars[leaf] = typeOf(leaf)->isArray() ? loadElement(addressOf(leaf), typeOf(leaf)->dtype())
                                              : leafValues[leaf];
    storeElement(resultAddress, castValue(elementwiseScalar(expr, scalars), dtype, dtype), dtype);
  };
  // When every operand is C-contiguous with the result's shape, one flat loop over the items:
  // addresses are base + i * itemsize, which LLVM vectorises.
  bool allContiguous = true;
  for (Expr *leaf : arrayLeaves)
    allContiguous &= typeOf(leaf)->layout() == 'C' && typeOf(leaf)->ndim() == ndim;
  llvm::BasicBlock *general = newBlock("elementwise.general");
  llvm::BasicBlock *done = newBlock("elementwise.done");
  if (allContiguous) {
    llvm::Value *sameShape = builder.getInt1(true);
    for (Expr *leaf : arrayLeaves)
      for (int i = 0; i < ndim; ++i)
        sameShape = builder.CreateAnd(
            sameShape,
            builder.CreateICmpEQ(arrayField(leafValues[leaf], ArrayLayout::Shape, i), shape[i]));
    llvm::BasicBlock *flat = newBlock("elementwise.flat");
    builder.CreateCondBr(sameShape, flat, general);
    builder.SetInsertPoint(flat);
    forEachIndex({arrayField(result, ArrayLayout::ItemCount)},
                 [&](const std::vector<llvm::Value *> &at) {
                   auto linear = [&](llvm::Value *array, const Type *type) {
                     return builder.CreateInBoundsGEP(memoryType(context, type->dtype()),
                                                      arrayField(array, ArrayLayout::Data), at[0]);
                   };
                   evaluate([&](Expr *leaf) { return linear(leafValues[leaf], typeOf(leaf)); },
                            linear(result, resultType));
                 });
    builder.CreateBr(done);
  } else {
    builder.CreateBr(general);
  }
  builder.SetInsertPoint(general);
  forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    evaluate(
        [&](Expr *leaf) {
          const Type *leafType = typeOf(leaf);
          llvm::Value *array = leafValues[leaf];
          int offset = ndim - leafType->ndim();
          std::vector<llvm::Value *> index;
          for (int i = 0; i < leafType->ndim(); ++i) {
            llvm::Value *extent = arrayField(array, ArrayLayout::Shape, i);
            index.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                                 builder.getInt64(0), at[offset + i]));
          }
          return elementAddress(array, leafType, index);
        },
        elementAddress(result, resultType, at));
  });
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  insideElementwise = savedContext;
  return result;
}

llvm::Value *
FunctionLowering::elementwiseScalar(Expr *expr,
                                    const std::map<const Expr *, llvm::Value *> &leaves) {
  auto found = leaves.find(expr);
  if (found != leaves.end())
    return found->second;
  const Type *result = scalarOf(typeOf(expr));
  auto operandType = [&](Expr *operand) { return scalarOf(typeOf(operand)); };
  switch (expr->kind) {
  case ExprKind::BinOp: {
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    return lowerBinary(expr->binaryOp, elementwiseScalar(left, leaves), operandType(left),
                       elementwiseScalar(right, leaves), operandType(right), result);
  }
  case ExprKind::Compare: {
    Expr *left = expr->operands[0];
    Expr *right = expr->operands[1];
    return lowerComparison(expr->compareOps[0], elementwiseScalar(left, leaves), operandType(left),
                           elementwiseScalar(right, leaves), operandType(right));
  }
  case ExprKind::UnaryOp: {
    Expr *operand = expr->operands[0];
    llvm::Value *value = elementwiseScalar(operand, leaves);
    const Type *type = operandType(operand);
    if (expr->unaryOp == UnaryOp::Invert && type->isBoolean())
      return builder.CreateNot(value);
    llvm::Value *converted = castValue(value, type, result);
    if (expr->unaryOp == UnaryOp::Pos)
      return converted;
    if (expr->unaryOp == UnaryOp::Invert)
      return builder.CreateNot(converted);
    return lowerUfuncScalar("numpy.negative", {converted}, {result}, result);
  }
  case ExprKind::Call: {
    std::vector<llvm::Value *> values;
    std::vector<const Type *> types;
    for (size_t i = 1; i < expr->operands.size(); ++i) {
      values.push_back(elementwiseScalar(expr->operands[i], leaves));
      types.push_back(operandType(expr->operands[i]));
    }
    std::string name = typeOf(expr->callee())->text();
    return lowerUfuncScalar(name == "abs" ? "numpy.abs" : name, values, types, result);
  }
  default:
    throw CompileError(CompileErrorKind::Internal, "not an elementwise expression", expr->location);
  }
}

llvm::Value *FunctionLowering::lowerUfuncScalar(const std::string &name,
                                                const std::vector<llvm::Value *> &values,
                                                const std::vector<const Type *> &types,
                                                const Type *result) {
  std::string ufunc = name.substr(6);
  auto mathName = ufuncMathNames().find(ufunc);
  if (mathName != ufuncMathNames().end())
    ufunc = mathName->second;
  const Type *first = types[0];
  auto binary = [&](BinaryOp op) {
    return lowerBinary(op, values[0], types[0], values[1], types[1], result);
  };
  if (ufunc == "add")
    return binary(BinaryOp::Add);
  if (ufunc == "subtract")
    return binary(BinaryOp::Sub);
  if (ufunc == "multiply")
    return binary(BinaryOp::Mult);
  if (ufunc == "divide" || ufunc == "true_divide")
    return binary(BinaryOp::Div);
  if (ufunc == "floor_divide")
    return binary(BinaryOp::FloorDiv);
  if (ufunc == "mod" || ufunc == "remainder")
    return binary(BinaryOp::Mod);
  if (ufunc == "power")
    return binary(BinaryOp::Pow);
  if (ufunc == "negative" || ufunc == "positive") {
    llvm::Value *value = castValue(values[0], first, result);
    if (ufunc == "positive")
      return value;
    if (result->isInteger())
      return builder.CreateNeg(value);
    if (result->isFloat())
      return builder.CreateFNeg(value);
    llvm::Value *imag;
    llvm::Value *real = complexParts(value, imag);
    return makeComplex(builder.CreateFNeg(real), builder.CreateFNeg(imag), result);
  }
  if (ufunc == "where")
    return builder.CreateSelect(truthValue(values[0], types[0]),
                                castValue(values[1], types[1], result),
                                castValue(values[2], types[2], result));
  if (ufunc == "clip") {
    llvm::Value *value = castValue(values[0], types[0], result);
    llvm::Value *low = castValue(values[1], types[1], result);
    llvm::Value *high = castValue(values[2], types[2], result);
    // NumPy: minimum(maximum(a, low), high), NaN-propagating.
    llvm::Value *raised = lowerUfuncScalar("numpy.maximum", {value, low}, {result, result}, result);
    return lowerUfuncScalar("numpy.minimum", {raised, high}, {result, result}, result);
  }
  if (ufunc == "square")
    return lowerBinary(BinaryOp::Mult, values[0], first, values[0], first, result);
  if (ufunc == "reciprocal")
    return lowerBinary(BinaryOp::Div, llvm::ConstantFP::get(valueType(context, result), 1.0),
                       result, castValue(values[0], first, result), result, result);
  if (ufunc == "abs" || ufunc == "absolute" || ufunc == "fabs") {
    if (first->isBoolean())
      return castValue(values[0], first, result);
    if (first->isComplex()) {
      llvm::Value *imag;
      llvm::Value *real = complexParts(values[0], imag);
      return callLibm("hypot", {real, imag}, result);
    }
    llvm::Value *value = castValue(values[0], first, result);
    if (result->isFloat())
      return callIntrinsic(llvm::Intrinsic::fabs, {value});
    if (!result->isSigned())
      return value;
    return builder.CreateSelect(
        builder.CreateICmpSLT(value, llvm::ConstantInt::get(value->getType(), 0)),
        builder.CreateNeg(value), value);
  }
  if (ufunc == "sign") {
    llvm::Value *value = castValue(values[0], first, result);
    if (result->isFloat()) {
      llvm::Value *zero = llvm::ConstantFP::get(value->getType(), 0.0);
      llvm::Value *one = llvm::ConstantFP::get(value->getType(), 1.0);
      llvm::Value *sign = builder.CreateSelect(
          builder.CreateFCmpOGT(value, zero), one,
          builder.CreateSelect(builder.CreateFCmpOLT(value, zero), builder.CreateFNeg(one), zero));
      return builder.CreateSelect(builder.CreateFCmpUNO(value, value), value, sign);
    }
    llvm::Value *zero = llvm::ConstantInt::get(value->getType(), 0);
    llvm::Value *positive =
        builder.CreateZExt(result->isSigned() ? builder.CreateICmpSGT(value, zero)
                                              : builder.CreateICmpUGT(value, zero),
                           value->getType());
    llvm::Value *negative = builder.CreateZExt(
        result->isSigned() ? builder.CreateICmpSLT(value, zero) : builder.getInt1(false),
        value->getType());
    return builder.CreateSub(positive, negative);
  }
  if (ufunc == "floor" || ufunc == "ceil" || ufunc == "trunc" || ufunc == "rint") {
    llvm::Value *value = castValue(values[0], first, result);
    if (!result->isFloat())
      return value; // integers are already whole
    llvm::Intrinsic::ID id = ufunc == "floor"   ? llvm::Intrinsic::floor
                             : ufunc == "ceil"  ? llvm::Intrinsic::ceil
                             : ufunc == "trunc" ? llvm::Intrinsic::trunc
                                                : llvm::Intrinsic::rint;
    return callIntrinsic(id, {value});
  }
  if (ufunc == "minimum" || ufunc == "maximum" || ufunc == "fmin" || ufunc == "fmax") {
    llvm::Value *a = castValue(values[0], types[0], result);
    llvm::Value *b = castValue(values[1], types[1], result);
    bool isMax = ufunc == "maximum" || ufunc == "fmax";
    if (!result->isFloat()) {
      llvm::Value *greater = lowerComparison(CompareOp::Gt, a, result, b, result);
      return builder.CreateSelect(greater, isMax ? a : b, isMax ? b : a);
    }
    if (ufunc == "fmin" || ufunc == "fmax")
      return callIntrinsic(isMax ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, {a, b});
    // NumPy's maximum and minimum propagate NaN.
    return callIntrinsic(isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum, {a, b});
  }
  if (ufunc == "isnan" || ufunc == "isinf" || ufunc == "isfinite") {
    if (first->isComplex())
      return lowerLibraryFunction("cmath." + ufunc, values, types, result);
    return lowerLibraryFunction("math." + ufunc, values, types, result);
  }
  if (ufunc == "signbit") {
    llvm::Value *value = castValue(values[0], first, types::float64());
    return builder.CreateICmpSLT(builder.CreateBitCast(value, builder.getInt64Ty()),
                                 builder.getInt64(0));
  }
  if (ufunc == "fmod" && result->isInteger()) {
    llvm::Value *a = castValue(values[0], types[0], result);
    llvm::Value *b = castValue(values[1], types[1], result);
    llvm::Value *zero = llvm::ConstantInt::get(a->getType(), 0);
    llvm::Value *isZero = builder.CreateICmpEQ(b, zero);
    llvm::Value *safe = builder.CreateSelect(isZero, llvm::ConstantInt::get(a->getType(), 1), b);
    llvm::Value *remainder =
        result->isSigned() ? builder.CreateSRem(a, safe) : builder.CreateURem(a, safe);
    return builder.CreateSelect(isZero, zero, remainder);
  }
  if (result->isComplex() && (ufunc == "log2" || ufunc == "log1p" || ufunc == "expm1")) {
    // Through log and exp: NumPy's complex loops for these are no more exact.
    const Type *wide = types::complex128();
    llvm::Value *z = castValue(values[0], first, wide);
    llvm::Value *one = makeComplex(llvm::ConstantFP::get(builder.getDoubleTy(), 1.0),
                                   llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), wide);
    llvm::Value *answer;
    if (ufunc == "log2") {
      llvm::Value *two = makeComplex(llvm::ConstantFP::get(builder.getDoubleTy(), 2.0),
                                     llvm::ConstantFP::get(builder.getDoubleTy(), 0.0), wide);
      answer = lowerLibraryFunction("cmath.log", {z, two}, {wide, wide}, wide);
    } else if (ufunc == "log1p") {
      answer = lowerLibraryFunction("cmath.log", {lowerComplexBinary(BinaryOp::Add, z, one, wide)},
                                    {wide}, wide);
    } else {
      answer = lowerComplexBinary(BinaryOp::Sub,
                                  lowerLibraryFunction("cmath.exp", {z}, {wide}, wide), one, wide);
    }
    return castValue(answer, wide, result);
  }
  if (result->isComplex()) // cmath computes in complex128
    return castValue(lowerLibraryFunction("cmath." + ufunc, values, types, types::complex128()),
                     types::complex128(), result);
  if (ufunc == "exp2" || ufunc == "cbrt" || ufunc == "fmod")
    return callLibm(
        ufunc,
        [&] {
          std::vector<llvm::Value *> converted;
          for (size_t i = 0; i < values.size(); ++i)
            converted.push_back(castValue(values[i], types[i], result));
          return converted;
        }(),
        result);
  return lowerLibraryFunction("math." + ufunc, values, types, result);
}

} // namespace taipan
