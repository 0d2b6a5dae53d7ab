// Calls: to other jitted functions (through the status-returning convention), foreign functions
// (intrinsics: LowerIntrinsics.cpp), and the library's functions and values (src/core/library/),
// whose lowering rules this file calls after checking the target; printing through the runtime.
#include "lower/FunctionLowering.h"

#include "runtime/Random.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

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
    return lowerBuiltinCall(calleeType->text(), expr);
  }
  case TypeKind::Intrinsic:
    return lowerIntrinsicCall(expr, function.intrinsics.at(expr->id));
  case TypeKind::ExternalFunction:
    return lowerExternalCall(expr, calleeType);
  case TypeKind::FirstClassFunction:
    return lowerFirstClassCall(expr, calleeType);
  case TypeKind::Builtin: {
    auto method = function.calls.find(expr->id); // len(p) of a jitclass instance: its __len__
    if (method != function.calls.end())
      return lowerJitCall(expr, method->second);
    return lowerBuiltinCall(calleeType->text(), expr);
  }
  case TypeKind::DType: { // a named tuple class called: namedtuple.new (library/Tuples.cpp)
    auto constructor = function.calls.find(expr->id); // or its constructor with defaults
    if (constructor != function.calls.end())
      return lowerJitCall(expr, constructor->second);
    return lowerBuiltinCall(calleeType->name(), expr);
  }
  default: {
    // A value of a user type called: its type class's overload (CallInference::typeCall).
    auto call = function.calls.find(expr->id);
    if (call != function.calls.end())
      return lowerJitCall(expr, call->second);
    // An exception instance: only `raise` uses it, and reads its arguments itself.
    return llvm::UndefValue::get(valueType(context, typeOf(expr)));
  }
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
  // A function its library exports is called by a load-time symbol (runtime/LoadTimeSymbols)
  // that each process loading the code resolves; only an address baked in ties code to one.
  bool byLoadSymbol =
      byAddress && !callee->loadSymbol().empty() && moduleLowering.target.resolvesSymbolsAtLoad();
  if (byAddress && !byLoadSymbol)
    moduleLowering.processSpecific = "it calls the ctypes function " + symbol +
                                     " by its address (no library exports it by name)";
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
    if (parameter->isPointer() && typeOf(argument)->isInteger()) { // an address, for void*
      arguments.push_back(builder.CreateIntToPtr(lowerExprAs(argument, types::uint64()),
                                                 valueType(context, parameter)));
    } else if (parameter->isPointer()) {
      llvm::Value *value = lowerExpr(argument);
      arguments.push_back(
          typeOf(argument)->isArray() ? arrays().arrayField(value, ArrayLayout::Data) : value);
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
    // ctypes knows the function by address; its symbol alone would not resolve in the JIT.
    llvm::Value *address =
        byLoadSymbol
            ? moduleLowering.module.getOrInsertFunction(callee->loadSymbol(), type).getCallee()
            : llvm::ConstantExpr::getIntToPtr(builder.getInt64(callee->address()),
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

llvm::Value *FunctionLowering::lowerJitCall(Expr *expr, const CallBinding &binding) {
  TypedFunction &callee = *binding.callee;
  std::vector<llvm::Value *> arguments;
  for (size_t i = 0; i < binding.arguments.size(); ++i) {
    const Type *parameterType = callee.argumentTypes[i];
    arguments.push_back(
        binding.arguments[i]
            ? lowerExprAs(binding.arguments[i], parameterType)
            : lowerConstant(callee.source->parameters[i].defaultValue, parameterType));
  }
  (void)expr;
  llvm::Value *result = callTypedFunction(callee, arguments);
  const Type *declared = binding.declaredReturnType;
  if (declared && declared != callee.returnType)
    result = castValue(result, callee.returnType, declared); // an explicit signature's
  return result;
}

llvm::Value *FunctionLowering::callTypedFunction(TypedFunction &callee,
                                                 const std::vector<llvm::Value *> &arguments) {
  const Type *returnType = callee.returnType;
  llvm::AllocaInst *result = createEntryAlloca(memoryType(context, returnType), "call.result");
  std::vector<llvm::Value *> values = {result};
  for (size_t i = 0; i < arguments.size(); ++i)
    values.push_back(toMemoryForm(builder, arguments[i], callee.argumentTypes[i]));
  llvm::Value *status = builder.CreateCall(moduleLowering.declare(callee), values);
  // A non-zero status means an exception is pending: unwind and hand it on to our caller.
  // Otherwise the callee returned a reference its caller owns.
  exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  llvm::Value *value = fromMemoryForm(
      builder, builder.CreateLoad(memoryType(context, returnType), result), returnType);
  addTemporary(value, returnType);
  return value;
}

llvm::Value *FunctionLowering::lowerBuiltinCall(const std::string &name, Expr *expr) {
  auto library = function.libraryCalls.find(expr->id);
  if (library == function.libraryCalls.end())
    throw CompileError(CompileErrorKind::Internal, "no library call recorded for " + name,
                       expr->location);
  return lowerLibraryCall(library->second);
}

void FunctionLowering::checkLibraryTarget(const LibraryCall &call) {
  const LibraryFunction &entry = *call.function;
  // The library's targets are the CPU and the GPU (a grid of threads).
  unsigned here = moduleLowering.target.hasThreadHierarchy() ? OnGpu : OnCpu;
  if (!(entry.targets & here))
    throwUnsupported(describeTargetMismatch(entry.name + "()", here, entry.targets), call.location);
}

llvm::Value *FunctionLowering::lowerLibraryCall(const LibraryCall &call) {
  checkLibraryTarget(call);
  std::vector<llvm::Value *> values;
  if (!call.function->lowersArguments)
    for (size_t i = 0; i < call.arguments.size(); ++i) {
      Expr *argument = call.arguments[i];
      llvm::Value *value = argument ? lowerExpr(argument) : nullptr;
      // A dict view the function takes as a list of its items (TypeInference's viewAsList).
      if (value && typeOf(argument)->isDictView() && call.argumentTypes[i]->isList())
        value = containers().dictToList(value, typeOf(argument)->viewedDict(),
                                        typeOf(argument)->viewKind());
      else if (value && typeOf(argument)->isDict() && call.argumentTypes[i]->isList())
        value = containers().dictToList(value, typeOf(argument), 0); // its keys (viewAsList)
      // A function value (or a tuple holding some) converted to a first-class function type
      // (CallInference's convertFunctionValueArguments).
      else if (value && typeOf(argument) != call.argumentTypes[i] &&
               (call.argumentTypes[i]->kind() == TypeKind::FirstClassFunction ||
                call.argumentTypes[i]->isTuple()))
        value = castValue(value, typeOf(argument), call.argumentTypes[i]);
      values.push_back(value);
    }
  return call.function->lower(*this, call, values);
}

llvm::Value *FunctionLowering::lowerLibraryValue(const LibraryValue &value,
                                                 SourceLocation location) {
  unsigned here = moduleLowering.target.hasThreadHierarchy() ? OnGpu : OnCpu;
  if (!(value.targets & here))
    throwUnsupported(describeTargetMismatch(value.name, here, value.targets), location);
  return value.lower(*this);
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
