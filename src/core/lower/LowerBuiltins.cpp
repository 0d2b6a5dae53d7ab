// Calls: to other jitted functions (through the status-returning convention) and to the
// builtins typed in typing/BuiltinTyping.cpp: Python builtins, math, cmath, random, print.
#include "lower/FunctionLowering.h"

#include "runtime/Random.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>

#include <cmath>
#include <numbers>

namespace taipan {

llvm::Value *FunctionLowering::lowerCall(Expr *expr) {
  Expr *callee = expr->callee();
  const Type *calleeType = typeOf(callee);
  switch (calleeType->kind()) {
  case TypeKind::JitFunction:
    return lowerJitCall(expr, function.calls.at(expr->id));
  case TypeKind::Overload: { // the implementation chosen for these argument types
    auto call = function.calls.find(expr->id);
    if (call != function.calls.end())
      return lowerJitCall(expr, call->second);
    // Every typing function declined: taipan's own implementation.
    std::vector<Expr *> arguments(expr->operands.begin() + 1, expr->operands.end());
    return lowerBuiltinCall(calleeType->text(), expr, arguments);
  }
  case TypeKind::Intrinsic:
    return lowerIntrinsicCall(expr, function.intrinsics.at(expr->id));
  case TypeKind::ExternalFunction:
    return lowerExternalCall(expr, calleeType);
  case TypeKind::Builtin: {
    std::vector<Expr *> arguments(expr->operands.begin() + 1, expr->operands.end());
    if (callee->kind == ExprKind::Attribute && !function.globals.count(callee->id) &&
        typeOf(callee->operands[0])->isRuntimeValue()) // a method
      arguments.insert(arguments.begin(), callee->operands[0]);
    return lowerBuiltinCall(calleeType->text(), expr, arguments);
  }
  default:
    // An exception instance: only `raise` uses it, and reads its arguments itself.
    return llvm::UndefValue::get(valueType(context, typeOf(expr)));
  }
}

llvm::Value *FunctionLowering::lowerExternalCall(Expr *expr, const Type *callee) {
  const std::string &symbol = callee->text();
  if (!moduleLowering.target.canCallForeignFunctions())
    throwUnsupported("the foreign function " + symbol +
                         " (cuda.declare_device) can only be called from CUDA kernels and device "
                         "functions",
                     expr->location);
  const Type *result = callee->resultType();
  bool plainC = callee->usesCConvention();
  std::vector<llvm::Value *> arguments;
  llvm::AllocaInst *resultSlot = nullptr;
  if (!plainC) {
    // Numba's convention: `int f(T *result, args...)`, result in local memory, status ignored
    // (foreign code raises no Python exceptions).
    llvm::Type *slotType = result->isNone() ? builder.getInt8Ty() : memoryType(context, result);
    resultSlot = createEntryAlloca(slotType, "foreign.result");
    arguments.push_back(resultSlot);
  }
  for (size_t i = 0; i < callee->parameterTypes().size(); ++i) {
    const Type *parameter = callee->parameterTypes()[i];
    Expr *argument = expr->operands[1 + i];
    if (parameter->isPointer()) {
      llvm::Value *value = lowerExpr(argument);
      arguments.push_back(typeOf(argument)->isArray() ? arrayField(value, ArrayLayout::Data)
                                                      : value);
    } else {
      arguments.push_back(toMemoryForm(builder, lowerExprAs(argument, parameter), parameter));
    }
  }
  std::vector<llvm::Type *> parameterTypes;
  for (llvm::Value *argument : arguments)
    parameterTypes.push_back(argument->getType());
  llvm::Type *returnType = !plainC            ? builder.getInt32Ty()
                           : result->isNone() ? builder.getVoidTy()
                                              : memoryType(context, result);
  auto *type = llvm::FunctionType::get(returnType, parameterTypes, false);
  if (llvm::Function *existing = moduleLowering.module.getFunction(symbol))
    if (existing->getFunctionType() != type)
      throwTypingError("the foreign function " + symbol +
                           " is declared with two different signatures, or clashes with a "
                           "function of the same name",
                       expr->location);
  llvm::FunctionCallee declared = moduleLowering.module.getOrInsertFunction(symbol, type);
  llvm::cast<llvm::Function>(declared.getCallee())->addFnAttr(ForeignFunctionAttribute);
  llvm::Value *call = builder.CreateCall(declared, arguments);
  if (result->isNone())
    return llvm::UndefValue::get(valueType(context, result));
  llvm::Value *value = plainC ? call : builder.CreateLoad(memoryType(context, result), resultSlot);
  return fromMemoryForm(builder, value, result);
}

/// The intrinsic's body becomes an internal, always-inlined function of the module, parsed
/// from its IR text once per module (named by a hash of the text); the arguments convert to its
/// parameter types.
llvm::Value *FunctionLowering::lowerIntrinsicCall(Expr *expr, const IntrinsicBody &body) {
  std::vector<llvm::Type *> parameterTypes;
  std::string parameters;
  for (size_t i = 0; i < body.parameterTypes.size(); ++i) {
    parameterTypes.push_back(valueType(context, body.parameterTypes[i]));
    std::string typeText;
    llvm::raw_string_ostream stream(typeText);
    parameterTypes.back()->print(stream);
    parameters += (i ? ", " : "") + stream.str() + " %arg" + std::to_string(i);
  }
  llvm::Type *returnType =
      body.returnType->isNone() ? builder.getVoidTy() : valueType(context, body.returnType);
  std::string returnText;
  llvm::raw_string_ostream returnStream(returnText);
  returnType->print(returnStream);
  std::string definition = "define " + returnStream.str() + " @intrinsic(" + parameters +
                           ") alwaysinline {\n" + body.instructions + "\n}\n";
  std::string name = "taipan.intrinsic." +
                     std::to_string(std::hash<std::string>()(body.declarations + definition));
  llvm::Function *function = moduleLowering.module.getFunction(name);
  if (!function) {
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> parsed =
        llvm::parseAssemblyString(body.declarations + "\n" + definition, diagnostic, context);
    if (!parsed) {
      std::string message;
      llvm::raw_string_ostream stream(message);
      diagnostic.print("intrinsic", stream, false);
      throwTypingError("the LLVM IR of this intrinsic does not parse:\n" + stream.str(),
                       expr->location);
    }
    std::string problems;
    llvm::raw_string_ostream problemStream(problems);
    if (llvm::verifyModule(*parsed, &problemStream))
      throwTypingError("the LLVM IR of this intrinsic is invalid:\n" + problemStream.str(),
                       expr->location);
    parsed->getFunction("intrinsic")->setName(name);
    parsed->setDataLayout(moduleLowering.module.getDataLayout());
    parsed->setTargetTriple(moduleLowering.module.getTargetTriple());
    if (llvm::Linker::linkModules(moduleLowering.module, std::move(parsed)))
      throwTypingError("the LLVM IR of this intrinsic clashes with the module's", expr->location);
    // Linked with external linkage (the linker drops unused internal functions), then made
    // internal so that it is inlined and disappears.
    function = moduleLowering.module.getFunction(name);
    function->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  std::vector<llvm::Value *> arguments;
  for (size_t i = 0; i < body.parameterTypes.size(); ++i)
    arguments.push_back(lowerExprAs(expr->operands[1 + i], body.parameterTypes[i]));
  llvm::Value *call = builder.CreateCall(function, arguments);
  return body.returnType->isNone() ? llvm::UndefValue::get(valueType(context, body.returnType))
                                   : call;
}

llvm::Value *FunctionLowering::lowerJitCall(Expr *expr, const CallBinding &binding) {
  TypedFunction &callee = *binding.callee;
  std::vector<llvm::Value *> arguments;
  const Type *returnType = callee.returnType;
  llvm::AllocaInst *result = createEntryAlloca(memoryType(context, returnType), "call.result");
  arguments.push_back(result);
  for (size_t i = 0; i < binding.arguments.size(); ++i) {
    const Type *parameterType = callee.argumentTypes[i];
    llvm::Value *value =
        binding.arguments[i]
            ? lowerExprAs(binding.arguments[i], parameterType)
            : lowerConstant(callee.source->parameters[i].defaultValue, parameterType);
    arguments.push_back(toMemoryForm(builder, value, parameterType));
  }
  llvm::Value *status = builder.CreateCall(moduleLowering.declare(callee), arguments);
  // The callee returns a reference its caller owns.
  // A non-zero status means an exception is pending: hand it on to our caller.
  llvm::BasicBlock *propagate = newBlock("call.error");
  llvm::BasicBlock *next = newBlock("call.ok");
  builder.CreateCondBr(builder.CreateICmpNE(status, builder.getInt32(0)), propagate, next,
                       llvm::MDBuilder(context).createBranchWeights(1, 1 << 20));
  builder.SetInsertPoint(propagate);
  builder.CreateRet(status);
  builder.SetInsertPoint(next);
  (void)expr;
  llvm::Value *value = fromMemoryForm(
      builder, builder.CreateLoad(memoryType(context, returnType), result), returnType);
  addTemporary(value, returnType);
  return value;
}

llvm::Value *FunctionLowering::lowerBuiltinCall(const std::string &name, Expr *expr,
                                                const std::vector<Expr *> &argumentExprs) {
  const Type *result = typeOf(expr);
  if (name.rfind("cuda.", 0) == 0)
    return lowerCudaCall(name, expr, argumentExprs);
  if (name == "print") {
    lowerPrint(argumentExprs);
    return llvm::UndefValue::get(valueType(context, result));
  }
  if ((name.rfind("numpy.", 0) == 0 || name.rfind("array.", 0) == 0) &&
      (!scalarConstructorType(name) || !expr->keywordNames.empty()))
    return lowerNumpyCall(name, expr, argumentExprs);
  if (name == "len" && typeOf(argumentExprs[0])->isArray())
    return arrayField(lowerExpr(argumentExprs[0]), ArrayLayout::Shape, 0);
  std::vector<llvm::Value *> arguments;
  std::vector<const Type *> argumentTypes;
  for (Expr *argument : argumentExprs) {
    arguments.push_back(lowerExpr(argument));
    argumentTypes.push_back(typeOf(argument));
  }
  if (name.rfind("math.", 0) == 0)
    return lowerMathCall(name.substr(5), arguments, argumentTypes, result);
  if (name.rfind("cmath.", 0) == 0)
    return lowerCmathCall(name.substr(6), arguments, argumentTypes, result);
  if (name.rfind("random.", 0) == 0)
    return lowerRandomCall(name.substr(7), arguments, argumentTypes);
  if (const Type *target = scalarConstructorType(name)) {
    if (arguments.empty())
      return llvm::Constant::getNullValue(valueType(context, target));
    if (arguments.size() == 2) {
      const Type *part = types::float64();
      return makeComplex(castValue(arguments[0], argumentTypes[0], part),
                         castValue(arguments[1], argumentTypes[1], part), target);
    }
    return castValue(arguments[0], argumentTypes[0], target);
  }
  if (name == "abs") {
    llvm::Value *value =
        castValue(arguments[0], argumentTypes[0],
                  argumentTypes[0]->isBoolean() ? types::int64() : argumentTypes[0]);
    if (argumentTypes[0]->isComplex()) {
      llvm::Value *imag;
      llvm::Value *real = complexParts(value, imag);
      return callLibm("hypot", {real, imag}, result);
    }
    if (result->isFloat())
      return callIntrinsic(llvm::Intrinsic::fabs, {value});
    if (!result->isSigned())
      return value;
    return builder.CreateSelect(
        builder.CreateICmpSLT(value, llvm::ConstantInt::get(value->getType(), 0)),
        builder.CreateNeg(value), value);
  }
  if (name == "min" || name == "max") {
    if (arguments.size() == 1) {
      const Type *tupleType = argumentTypes[0];
      std::vector<llvm::Value *> values;
      for (size_t i = 0; i < tupleType->elements().size(); ++i)
        values.push_back(tupleElement(arguments[0], tupleType, static_cast<unsigned>(i)));
      return lowerMinMax(name == "max", values, tupleType->elements(), result);
    }
    return lowerMinMax(name == "max", arguments, argumentTypes, result);
  }
  if (name == "round")
    return lowerRound(
        arguments[0], argumentTypes[0],
        arguments.size() > 1 ? castValue(arguments[1], argumentTypes[1], types::int64()) : nullptr,
        result);
  if (name == "divmod") {
    const Type *part = result->elements()[0];
    llvm::Value *quotient = lowerBinary(BinaryOp::FloorDiv, arguments[0], argumentTypes[0],
                                        arguments[1], argumentTypes[1], part);
    llvm::Value *remainder = lowerBinary(BinaryOp::Mod, arguments[0], argumentTypes[0],
                                         arguments[1], argumentTypes[1], part);
    return lowerTuple({quotient, remainder}, result);
  }
  if (name == "pow") {
    if (arguments.size() == 2)
      return lowerBinary(BinaryOp::Pow, arguments[0], argumentTypes[0], arguments[1],
                         argumentTypes[1], result);
    return lowerModularPower(castValue(arguments[0], argumentTypes[0], types::int64()),
                             castValue(arguments[1], argumentTypes[1], types::int64()),
                             castValue(arguments[2], argumentTypes[2], types::int64()));
  }
  if (name == "len") {
    if (argumentTypes[0]->isTuple())
      return builder.getInt64(argumentTypes[0]->elements().size());
    return rangeLength(arguments[0]);
  }
  if (name == "sum") {
    const Type *tupleType = argumentTypes[0];
    llvm::Value *total = builder.getInt64(0);
    const Type *totalType = types::int64();
    for (size_t i = 0; i < tupleType->elements().size(); ++i) {
      const Type *elementType = tupleType->elements()[i];
      const Type *next = binaryResultType(BinaryOp::Add, totalType, elementType);
      total = lowerBinary(BinaryOp::Add, total, totalType,
                          tupleElement(arguments[0], tupleType, static_cast<unsigned>(i)),
                          elementType, next);
      totalType = next;
    }
    return castValue(total, totalType, result);
  }
  if (name == "enumerate" || name == "zip") {
    std::vector<llvm::Value *> items;
    for (size_t i = 0; i < result->elements().size(); ++i) {
      std::vector<llvm::Value *> parts;
      if (name == "enumerate")
        parts.push_back(builder.getInt64(i));
      for (size_t k = 0; k < arguments.size(); ++k)
        parts.push_back(tupleElement(arguments[k], argumentTypes[k], static_cast<unsigned>(i)));
      items.push_back(lowerTuple(parts, result->elements()[i]));
    }
    return lowerTuple(items, result);
  }
  if (name == "range") {
    llvm::Value *start = builder.getInt64(0);
    llvm::Value *step = builder.getInt64(1);
    llvm::Value *stop;
    if (arguments.size() == 1) {
      stop = castValue(arguments[0], argumentTypes[0], types::int64());
    } else {
      start = castValue(arguments[0], argumentTypes[0], types::int64());
      stop = castValue(arguments[1], argumentTypes[1], types::int64());
      if (arguments.size() == 3) {
        step = castValue(arguments[2], argumentTypes[2], types::int64());
        raiseIf(builder.CreateICmpEQ(step, builder.getInt64(0)), ValueErrorId,
                "range() arg 3 must not be zero");
      }
    }
    llvm::Value *range = llvm::UndefValue::get(valueType(context, result));
    range = builder.CreateInsertValue(range, start, 0);
    range = builder.CreateInsertValue(range, stop, 1);
    return builder.CreateInsertValue(range, step, 2);
  }
  if (name == "method.conjugate") {
    llvm::Value *value = castValue(arguments[0], argumentTypes[0], result);
    if (!result->isComplex())
      return value;
    llvm::Value *imag;
    llvm::Value *real = complexParts(value, imag);
    return makeComplex(real, builder.CreateFNeg(imag), result);
  }
  throwUnsupported("the builtin " + name + "() is not supported", expr->location);
}

llvm::Value *FunctionLowering::lowerModularPower(llvm::Value *base, llvm::Value *exponent,
                                                 llvm::Value *modulus) {
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::AllocaInst *error = createEntryAlloca(builder.getInt32Ty(), "powmod.error");
  llvm::Value *result = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_powmod", i64, {i64, i64, i64, builder.getPtrTy()}),
      {base, exponent, modulus, error});
  llvm::Value *code = builder.CreateLoad(builder.getInt32Ty(), error);
  raiseIf(builder.CreateICmpEQ(code, builder.getInt32(1)), ValueErrorId,
          "pow() 3rd argument cannot be 0");
  raiseIf(builder.CreateICmpEQ(code, builder.getInt32(2)), ValueErrorId,
          "base is not invertible for the given modulus");
  return result;
}

llvm::Value *FunctionLowering::lowerMinMax(bool isMax, std::vector<llvm::Value *> values,
                                           std::vector<const Type *> valueTypes,
                                           const Type *result) {
  // Python keeps the first of equal values and only replaces it on a strict comparison, so
  // min(nan, 1.0) is nan while min(1.0, nan) is 1.0.
  llvm::Value *best = castValue(values[0], valueTypes[0], result);
  for (size_t i = 1; i < values.size(); ++i) {
    llvm::Value *candidate = castValue(values[i], valueTypes[i], result);
    llvm::Value *better =
        lowerComparison(isMax ? CompareOp::Gt : CompareOp::Lt, candidate, result, best, result);
    best = builder.CreateSelect(better, candidate, best);
  }
  return best;
}

llvm::Value *FunctionLowering::lowerRound(llvm::Value *value, const Type *type, llvm::Value *digits,
                                          const Type *result) {
  if (!type->isFloat()) {
    llvm::Value *integer = castValue(value, type, types::int64());
    if (!digits)
      return integer;
    // round(int, n) only changes the value for negative n: go through float64.
    llvm::Value *asFloat = castValue(integer, types::int64(), types::float64());
    llvm::Value *rounded = lowerRound(asFloat, types::float64(), digits, types::float64());
    return builder.CreateSelect(builder.CreateICmpSGE(digits, builder.getInt64(0)), integer,
                                castValue(rounded, types::float64(), types::int64()));
  }
  if (!digits)
    return castValue(callIntrinsic(llvm::Intrinsic::rint, {value}), type, result);
  // Correctly rounded, like CPython (and unlike Numba's scale-and-rint).
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Value *rounded = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_round_ndigits", f64, {f64, builder.getInt64Ty()}),
      {castValue(value, type, types::float64()), digits});
  return castValue(rounded, types::float64(), result);
}

llvm::Value *FunctionLowering::lowerMathCall(const std::string &name,
                                             const std::vector<llvm::Value *> &arguments,
                                             const std::vector<const Type *> &argumentTypes,
                                             const Type *result) {
  using llvm::Intrinsic::ID;
  const Type *argumentType = argumentTypes[0];
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    if (!argumentType->isFloat())
      return builder.getInt1(name == "isfinite");
    llvm::Value *value = arguments[0];
    if (name == "isnan")
      return builder.CreateFCmpUNO(value, value);
    llvm::Value *magnitude = callIntrinsic(llvm::Intrinsic::fabs, {value});
    llvm::Value *infinity = llvm::ConstantFP::getInfinity(value->getType());
    return name == "isinf" ? builder.CreateFCmpOEQ(magnitude, infinity)
                           : builder.CreateFCmpOLT(magnitude, infinity);
  }
  if (name == "floor" || name == "ceil" || name == "trunc") {
    if (!argumentType->isFloat())
      return castValue(arguments[0], argumentType, result);
    ID id = name == "floor"  ? llvm::Intrinsic::floor
            : name == "ceil" ? llvm::Intrinsic::ceil
                             : llvm::Intrinsic::trunc;
    return castValue(callIntrinsic(id, {arguments[0]}), argumentType, result);
  }
  if (name == "gcd") {
    llvm::Value *a = castValue(arguments[0], argumentTypes[0], result);
    llvm::Value *b = castValue(arguments[1], argumentTypes[1], result);
    llvm::Value *zero = llvm::ConstantInt::get(a->getType(), 0);
    auto absolute = [&](llvm::Value *v) {
      return result->isSigned()
                 ? builder.CreateSelect(builder.CreateICmpSLT(v, zero), builder.CreateNeg(v), v)
                 : v;
    };
    a = absolute(a);
    b = absolute(b);
    llvm::BasicBlock *before = builder.GetInsertBlock();
    llvm::BasicBlock *loop = newBlock("gcd.loop");
    llvm::BasicBlock *done = newBlock("gcd.done");
    builder.CreateCondBr(builder.CreateICmpEQ(b, zero), done, loop);
    builder.SetInsertPoint(loop);
    llvm::PHINode *x = builder.CreatePHI(a->getType(), 2);
    llvm::PHINode *y = builder.CreatePHI(a->getType(), 2);
    x->addIncoming(a, before);
    y->addIncoming(b, before);
    llvm::Value *remainder = builder.CreateURem(x, y);
    x->addIncoming(y, loop);
    y->addIncoming(remainder, loop);
    builder.CreateCondBr(builder.CreateICmpEQ(remainder, zero), done, loop);
    builder.SetInsertPoint(done);
    llvm::PHINode *gcd = builder.CreatePHI(a->getType(), 2);
    gcd->addIncoming(a, before);
    gcd->addIncoming(y, loop);
    return gcd;
  }
  if (name == "ldexp") {
    llvm::Value *mantissa = castValue(arguments[0], argumentTypes[0], result);
    llvm::Value *exponent = castValue(arguments[1], argumentTypes[1], types::integer(32, true));
    return callLibm("ldexp", {mantissa, exponent}, result);
  }
  if (name == "frexp" || name == "modf") {
    const Type *floatType = result->elements()[0];
    llvm::Value *value = castValue(arguments[0], argumentType, floatType);
    bool isFrexp = name == "frexp";
    llvm::Type *outType = isFrexp ? builder.getInt32Ty() : valueType(context, floatType);
    llvm::AllocaInst *out = createEntryAlloca(outType, name + ".out");
    llvm::Value *first = callLibm(name, {value, out}, floatType);
    llvm::Value *second = builder.CreateLoad(outType, out);
    if (isFrexp)
      second = builder.CreateSExt(second, builder.getInt64Ty());
    return lowerTuple({first, second}, result);
  }
  // Everything else computes in the result's float type.
  std::vector<llvm::Value *> values;
  for (size_t i = 0; i < arguments.size(); ++i)
    values.push_back(castValue(arguments[i], argumentTypes[i], result));
  llvm::Value *x = values[0];
  llvm::Type *floatType = x->getType();
  if (name == "sqrt")
    return callIntrinsic(llvm::Intrinsic::sqrt, {x});
  if (name == "fabs")
    return callIntrinsic(llvm::Intrinsic::fabs, {x});
  if (name == "copysign")
    return callIntrinsic(llvm::Intrinsic::copysign, values);
  if (name == "radians")
    return builder.CreateFMul(x, llvm::ConstantFP::get(floatType, std::numbers::pi / 180.0));
  if (name == "degrees")
    return builder.CreateFMul(x, llvm::ConstantFP::get(floatType, 180.0 / std::numbers::pi));
  if (name == "log" && values.size() == 2)
    return builder.CreateFDiv(callLibm("log", {x}, result), callLibm("log", {values[1]}, result));
  if (name == "gamma")
    return callLibm("tgamma", {x}, result);
  return callLibm(name, values, result);
}

llvm::Value *FunctionLowering::lowerCmathCall(const std::string &name,
                                              const std::vector<llvm::Value *> &arguments,
                                              const std::vector<const Type *> &argumentTypes,
                                              const Type *result) {
  const Type *wide = types::complex128();
  const Type *real = types::float64();
  if (name == "rect") {
    llvm::Type *f64 = builder.getDoubleTy();
    llvm::AllocaInst *out = createEntryAlloca(llvm::ArrayType::get(f64, 2), "rect.result");
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_cmath_rect", builder.getVoidTy(),
                                                      {f64, f64, builder.getPtrTy()}),
                       {castValue(arguments[0], argumentTypes[0], real),
                        castValue(arguments[1], argumentTypes[1], real), out});
    return makeComplex(builder.CreateLoad(f64, out),
                       builder.CreateLoad(f64, builder.CreateConstInBoundsGEP1_64(f64, out, 1)),
                       wide);
  }
  if (name == "log" && arguments.size() == 2) {
    llvm::Value *numerator = lowerCmathCall("log", {arguments[0]}, {argumentTypes[0]}, wide);
    llvm::Value *denominator = lowerCmathCall("log", {arguments[1]}, {argumentTypes[1]}, wide);
    return lowerComplexBinary(BinaryOp::Div, numerator, denominator, wide);
  }
  llvm::Value *imag;
  llvm::Value *value = castValue(arguments[0], argumentTypes[0], wide);
  llvm::Value *re = complexParts(value, imag);
  if (name == "phase")
    return callLibm("atan2", {imag, re}, real);
  if (name == "polar")
    return lowerTuple({callLibm("hypot", {re, imag}, real), callLibm("atan2", {imag, re}, real)},
                      result);
  if (name == "isnan")
    return builder.CreateOr(builder.CreateFCmpUNO(re, re), builder.CreateFCmpUNO(imag, imag));
  if (name == "isinf" || name == "isfinite") {
    llvm::Value *infinity = llvm::ConstantFP::getInfinity(builder.getDoubleTy());
    llvm::Value *reAbs = callIntrinsic(llvm::Intrinsic::fabs, {re});
    llvm::Value *imAbs = callIntrinsic(llvm::Intrinsic::fabs, {imag});
    if (name == "isinf")
      return builder.CreateOr(builder.CreateFCmpOEQ(reAbs, infinity),
                              builder.CreateFCmpOEQ(imAbs, infinity));
    return builder.CreateAnd(builder.CreateFCmpOLT(reAbs, infinity),
                             builder.CreateFCmpOLT(imAbs, infinity));
  }
  // The C99 complex functions of libm; a double complex travels as two doubles on x86-64.
  bool isLog10 = name == "log10";
  std::string symbol = "c" + (isLog10 ? std::string("log") : name);
  llvm::Type *part = builder.getDoubleTy();
  llvm::FunctionCallee function =
      moduleLowering.runtimeFunction(symbol, valueType(context, wide), {part, part});
  llvm::Value *complexResult = builder.CreateCall(function, {re, imag});
  if (isLog10) {
    llvm::Value *scale = llvm::ConstantFP::get(part, 1.0 / std::log(10.0));
    llvm::Value *resultImag;
    llvm::Value *resultReal = complexParts(complexResult, resultImag);
    complexResult = makeComplex(builder.CreateFMul(resultReal, scale),
                                builder.CreateFMul(resultImag, scale), wide);
  }
  return complexResult;
}

llvm::Value *FunctionLowering::lowerRandomCall(const std::string &name,
                                               const std::vector<llvm::Value *> &arguments,
                                               const std::vector<const Type *> &argumentTypes) {
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Type *i64 = builder.getInt64Ty();
  auto asDouble = [&](size_t i, double fallback) -> llvm::Value * {
    if (i >= arguments.size())
      return llvm::ConstantFP::get(f64, fallback);
    return castValue(arguments[i], argumentTypes[i], types::float64());
  };
  auto asInt = [&](size_t i) { return castValue(arguments[i], argumentTypes[i], types::int64()); };
  auto call = [&](const char *symbol, llvm::Type *result, llvm::ArrayRef<llvm::Type *> parameters,
                  llvm::ArrayRef<llvm::Value *> values) {
    return builder.CreateCall(moduleLowering.runtimeFunction(symbol, result, parameters), values);
  };
  if (name == "random")
    return lowerRandomDouble();
  if (name == "uniform") {
    llvm::Value *low = asDouble(0, 0);
    llvm::Value *high = asDouble(1, 1);
    return builder.CreateFAdd(
        low, builder.CreateFMul(builder.CreateFSub(high, low), lowerRandomDouble()));
  }
  if (name == "seed") {
    call("taipan_random_seed", builder.getVoidTy(), {i64}, {asInt(0)});
    return llvm::UndefValue::get(valueType(context, types::none()));
  }
  if (name == "gauss" || name == "normalvariate")
    return call(name == "gauss" ? "taipan_random_gauss" : "taipan_random_normalvariate", f64,
                {f64, f64}, {asDouble(0, 0.0), asDouble(1, 1.0)});
  if (name == "getrandbits")
    return call("taipan_random_getrandbits", i64, {builder.getInt32Ty()},
                {builder.CreateTrunc(asInt(0), builder.getInt32Ty())});
  // randint and randrange report an empty range through an error flag.
  llvm::AllocaInst *error = createEntryAlloca(builder.getInt32Ty(), "random.error");
  llvm::Value *value;
  if (name == "randint") {
    value = call("taipan_random_randint", i64, {i64, i64, builder.getPtrTy()},
                 {asInt(0), asInt(1), error});
  } else {
    llvm::Value *start = arguments.size() == 1 ? builder.getInt64(0) : asInt(0);
    llvm::Value *stop = arguments.size() == 1 ? asInt(0) : asInt(1);
    llvm::Value *step = arguments.size() == 3 ? asInt(2) : builder.getInt64(1);
    value = call("taipan_random_randrange", i64, {i64, i64, i64, builder.getPtrTy()},
                 {start, stop, step, error});
  }
  raiseIf(
      builder.CreateICmpNE(builder.CreateLoad(builder.getInt32Ty(), error), builder.getInt32(0)),
      ValueErrorId, "empty range for randrange()");
  return value;
}

llvm::Value *FunctionLowering::lowerRandomWord(llvm::Value *state) {
  // One Mersenne Twister word drawn inline, as CPython's genrand_uint32 does; only the refill
  // of all 624 words is a call.
  using runtime::RandomState;
  llvm::Type *i32 = builder.getInt32Ty();
  llvm::Value *indexAddress =
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), state, RandomState::indexOffset());
  llvm::Value *index = builder.CreateLoad(i32, indexAddress);
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *refill = newBlock("random.refill");
  llvm::BasicBlock *draw = newBlock("random.draw");
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

llvm::Value *FunctionLowering::lowerRandomDouble() {
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

void FunctionLowering::lowerPrint(const std::vector<Expr *> &arguments) {
  if (moduleLowering.target.printsThroughDevicePrintf()) {
    lowerDevicePrint(arguments);
    return;
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i)
      printText(" ");
    Expr *argument = arguments[i];
    const Type *type = typeOf(argument);
    if (type->kind() == TypeKind::StringLiteral) {
      printText(type->text());
      continue;
    }
    printValue(lowerExpr(argument), type);
  }
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_print_end", builder.getVoidTy(), {}));
}

void FunctionLowering::printText(const std::string &text) {
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_print_text", builder.getVoidTy(),
                                                    {builder.getPtrTy()}),
                     {moduleLowering.stringConstant(text)});
}

void FunctionLowering::printValue(llvm::Value *value, const Type *type) {
  auto call = [&](const char *symbol, const Type *as) {
    llvm::Value *converted = castValue(value, type, as);
    std::vector<llvm::Value *> values;
    if (as->isComplex()) {
      llvm::Value *imag;
      values.push_back(complexParts(converted, imag));
      values.push_back(imag);
    } else {
      values.push_back(as->isBoolean() ? toMemoryForm(builder, converted, as) : converted);
    }
    std::vector<llvm::Type *> parameters;
    for (llvm::Value *v : values)
      parameters.push_back(v->getType());
    builder.CreateCall(moduleLowering.runtimeFunction(symbol, builder.getVoidTy(), parameters),
                       values);
  };
  switch (type->kind()) {
  case TypeKind::Boolean:
    return call("taipan_print_bool", type);
  case TypeKind::Integer:
    return type->isSigned() ? call("taipan_print_int64", types::int64())
                            : call("taipan_print_uint64", types::uint64());
  case TypeKind::Float:
    return call("taipan_print_float64", types::float64());
  case TypeKind::Complex:
    return call("taipan_print_complex128", types::complex128());
  case TypeKind::Tuple: {
    printText("(");
    for (size_t i = 0; i < type->elements().size(); ++i) {
      if (i)
        printText(", ");
      printValue(tupleElement(value, type, static_cast<unsigned>(i)), type->elements()[i]);
    }
    printText(type->elements().size() == 1 ? ",)" : ")");
    return;
  }
  default:
    printText("None");
  }
}

} // namespace taipan
