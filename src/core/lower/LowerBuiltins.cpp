// Calls: to other jitted functions (through the status-returning convention) and to the
// builtins typed in typing/BuiltinTyping.cpp: Python builtins, math, cmath, random, print.
#include "lower/FunctionLowering.h"

#include "runtime/Random.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
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
    auto library = function.libraryCalls.find(expr->id);
    if (library != function.libraryCalls.end())
      return lowerLibraryCall(library->second);
    std::vector<Expr *> arguments(expr->operands.begin() + 1, expr->operands.end());
    return lowerBuiltinCall(calleeType->text(), expr, arguments);
  }
  case TypeKind::Intrinsic:
    return lowerIntrinsicCall(expr, function.intrinsics.at(expr->id));
  case TypeKind::ExternalFunction:
    return lowerExternalCall(expr, calleeType);
  case TypeKind::Builtin: {
    auto library = function.libraryCalls.find(expr->id);
    if (library != function.libraryCalls.end())
      return lowerLibraryCall(library->second);
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

/// The extension attribute the C ABI wants on an integer narrower than 32 bits (callers widen
/// them, and compiled C code relies on it), or none.
static llvm::Attribute::AttrKind integerExtension(const Type *type) {
  if (type->isBoolean())
    return llvm::Attribute::ZExt;
  if (type->isInteger() && type->bits() < 32)
    return type->isSigned() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
  return llvm::Attribute::None;
}

llvm::Value *FunctionLowering::lowerExternalCall(Expr *expr, const Type *callee) {
  const std::string &symbol = callee->text();
  bool byAddress = callee->address() != 0; // a ctypes function: CPU only
  bool onDevice = moduleLowering.target.canCallForeignFunctions();
  if (byAddress && onDevice)
    throwUnsupported("the ctypes function " + symbol +
                         " runs on the CPU and cannot be called from a CUDA kernel or device "
                         "function (declare device code with cuda.declare_device)",
                     expr->location);
  if (!byAddress && !onDevice)
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
  if (byAddress) {
    // ctypes knows the function by address only; a symbol would not resolve in the JIT.
    llvm::Value *address = llvm::ConstantExpr::getIntToPtr(builder.getInt64(callee->address()),
                                                           llvm::PointerType::getUnqual(context));
    llvm::CallInst *call = builder.CreateCall(type, address, arguments);
    for (size_t i = 0; i < callee->parameterTypes().size(); ++i)
      if (auto extension = integerExtension(callee->parameterTypes()[i]))
        call->addParamAttr(static_cast<unsigned>(i), extension);
    if (auto extension = integerExtension(result))
      call->addRetAttr(extension);
    if (result->isNone())
      return llvm::UndefValue::get(valueType(context, result));
    return fromMemoryForm(builder, call, result);
  }
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
  // A non-zero status means an exception is pending: unwind and hand it on to our caller.
  // Otherwise the callee returned a reference its caller owns.
  exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
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
  if (name == "len" && typeOf(argumentExprs[0])->isArray())
    return arrayField(lowerExpr(argumentExprs[0]), ArrayLayout::Shape, 0);
  std::vector<llvm::Value *> arguments;
  std::vector<const Type *> argumentTypes;
  for (Expr *argument : argumentExprs) {
    arguments.push_back(lowerExpr(argument));
    argumentTypes.push_back(typeOf(argument));
  }
  if (isUfunc(name)) // on scalars; array operands go through lowerElementwise
    return lowerUfuncScalar(name, arguments, argumentTypes, result);
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

llvm::Value *FunctionLowering::lowerLibraryFunction(const std::string &name,
                                                    const std::vector<llvm::Value *> &values,
                                                    const std::vector<const Type *> &types,
                                                    const Type *result) {
  const LibraryFunction *entry = Library::get().find(name);
  if (!entry)
    throw CompileError(CompileErrorKind::Internal, "no library function " + name, {});
  LibraryCall call;
  call.function = entry;
  call.argumentTypes = types;
  call.resultType = result;
  return entry->lower(*this, call, values);
}

llvm::Value *FunctionLowering::lowerLibraryCall(const LibraryCall &call) {
  const LibraryFunction &entry = *call.function;
  // The library's targets are the CPU and the GPU (a grid of threads).
  unsigned here = moduleLowering.target.hasThreadHierarchy() ? OnGpu : OnCpu;
  if (!(entry.targets & here))
    throwUnsupported(entry.name + "() is not supported on " + describeTargets(here) +
                         " (it runs on " + describeTargets(entry.targets) + ")",
                     call.location);
  std::vector<llvm::Value *> values;
  for (Expr *argument : call.arguments)
    values.push_back(argument ? lowerExpr(argument) : nullptr);
  return entry.lower(*this, call, values);
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
