// First-class function values (Numba's FunctionType): {the address of a C-convention function,
// the Python object it came from}, made from C functions and jitted functions known at compile
// time, and called through the address.
#include "lower/FunctionLowering.h"

#include <llvm/IR/Constants.h>

namespace taipan {

/// The extension attribute the C ABI wants on an integer narrower than 32 bits, or none.
static llvm::Attribute::AttrKind cIntegerExtension(const Type *type) {
  if (type->isBoolean())
    return llvm::Attribute::ZExt;
  if (type->isInteger() && type->bits() < 32)
    return type->isSigned() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
  return llvm::Attribute::None;
}

llvm::Value *FunctionLowering::firstClassValue(llvm::Value *value, const Type *from,
                                               const Type *to) {
  if (from->kind() == TypeKind::FirstClassFunction) // (equal types never reach a conversion)
    throw CompileError(CompileErrorKind::Internal,
                       "first-class function types " + from->name() + " and " + to->name() +
                           " do not convert",
                       {});
  const Type *entry = from;
  if (from->kind() == TypeKind::JitFunction) {
    auto found = function.firstClassEntries.find({from, to});
    if (found == function.firstClassEntries.end())
      throw CompileError(CompileErrorKind::Internal,
                         "typing compiled no C entry of " + from->name() + " for " + to->name(),
                         {});
    entry = found->second;
  }
  if (types::firstClassFunctionOf(entry) != to)
    throw CompileError(CompileErrorKind::Internal,
                       entry->name() + " is not a function value of type " + to->name(), {});
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  llvm::Value *address;
  if (!entry->loadSymbol().empty() && moduleLowering.target.resolvesSymbolsAtLoad()) {
    // A function its library exports: found again by name where the code is loaded.
    address = moduleLowering.module
                  .getOrInsertFunction(entry->loadSymbol(),
                                       llvm::FunctionType::get(builder.getVoidTy(), false))
                  .getCallee();
  } else {
    moduleLowering.processSpecific =
        "it holds the address of the function " + entry->text() + " (no library exports it)";
    address = llvm::ConstantExpr::getIntToPtr(builder.getInt64(entry->address()), pointer);
  }
  (void)value; // a C function or a jitted function carries nothing at run time
  llvm::Value *pair = llvm::UndefValue::get(valueType(context, to));
  pair = builder.CreateInsertValue(pair, address, 0);
  return builder.CreateInsertValue(
      pair, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(pointer)), 1);
}

llvm::Value *FunctionLowering::lowerFirstClassCall(Expr *expr, const Type *callee) {
  if (moduleLowering.target.canCallForeignFunctions())
    throwUnsupported("a first-class function value holds a CPU address and cannot be called "
                     "from a CUDA kernel or device function",
                     expr->location);
  llvm::Value *address = builder.CreateExtractValue(lowerExpr(expr->callee()), 0);
  const Type *result = callee->resultType();
  std::vector<llvm::Value *> arguments;
  std::vector<llvm::Type *> parameterTypes;
  for (size_t i = 0; i < callee->parameterTypes().size(); ++i) {
    const Type *parameter = callee->parameterTypes()[i];
    Expr *argument = expr->operands[1 + i];
    llvm::Value *value;
    if (parameter->isPointer()) { // an array passes its data
      value = lowerExpr(argument);
      if (typeOf(argument)->isArray())
        value = arrays().arrayField(value, ArrayLayout::Data);
    } else {
      value = toMemoryForm(builder, lowerExprAs(argument, parameter), parameter);
    }
    arguments.push_back(value);
    parameterTypes.push_back(value->getType());
  }
  llvm::Type *returnType = result->isNone() ? builder.getVoidTy() : memoryType(context, result);
  auto *type = llvm::FunctionType::get(returnType, parameterTypes, false);
  // A jitted function's entry that raises leaves its exception pending for this code, which
  // unwinds as after a failed call of the function itself (runtime/Cfuncs.h).
  llvm::Type *pointer = builder.getPtrTy();
  llvm::Value *previous = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_first_class_enter", pointer, {pointer}), {address});
  llvm::CallInst *call = builder.CreateCall(type, address, arguments);
  for (size_t i = 0; i < callee->parameterTypes().size(); ++i)
    if (auto extension = cIntegerExtension(callee->parameterTypes()[i]))
      call->addParamAttr(static_cast<unsigned>(i), extension);
  if (auto extension = cIntegerExtension(result))
    call->addRetAttr(extension);
  llvm::Value *status = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_first_class_leave", builder.getInt32Ty(), {pointer}),
      {previous});
  exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  if (result->isNone())
    return llvm::UndefValue::get(valueType(context, result));
  return fromMemoryForm(builder, call, result);
}

} // namespace taipan
