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
  llvm::Value *triple = llvm::UndefValue::get(valueType(context, to));
  triple = builder.CreateInsertValue(triple, address, 0);
  triple = builder.CreateInsertValue(
      triple, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(pointer)), 1);
  bool jitted = from->kind() == TypeKind::JitFunction;
  return builder.CreateInsertValue(triple, builder.getInt64(jitted ? 1 : 0), 2);
}

llvm::Value *FunctionLowering::lowerFirstClassCall(Expr *expr, const Type *callee) {
  if (moduleLowering.target.canCallForeignFunctions())
    throwUnsupported("a first-class function value holds a CPU address and cannot be called "
                     "from a CUDA kernel or device function",
                     expr->location);
  llvm::Value *function = lowerExpr(expr->callee());
  llvm::Value *address = builder.CreateExtractValue(function, 0);
  llvm::Value *jitted =
      builder.CreateICmpNE(builder.CreateExtractValue(function, 2), builder.getInt64(0));
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
  // unwinds as after a failed call of the function itself (runtime/Cfuncs.h); other C
  // functions are called plainly.
  llvm::Type *pointer = builder.getPtrTy();
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *enter = newBlock("first.class.enter");
  llvm::BasicBlock *callBlock = newBlock("first.class.call");
  builder.CreateCondBr(jitted, enter, callBlock);
  builder.SetInsertPoint(enter);
  llvm::Value *entered = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_first_class_enter", pointer, {pointer}), {address});
  builder.CreateBr(callBlock);
  builder.SetInsertPoint(callBlock);
  llvm::PHINode *previous = builder.CreatePHI(pointer, 2, "first.class.previous");
  previous->addIncoming(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(pointer)),
                        before);
  previous->addIncoming(entered, enter);
  llvm::CallInst *call = builder.CreateCall(type, address, arguments);
  for (size_t i = 0; i < callee->parameterTypes().size(); ++i)
    if (auto extension = cIntegerExtension(callee->parameterTypes()[i]))
      call->addParamAttr(static_cast<unsigned>(i), extension);
  if (auto extension = cIntegerExtension(result))
    call->addRetAttr(extension);
  llvm::BasicBlock *leave = newBlock("first.class.leave");
  llvm::BasicBlock *done = newBlock("first.class.done");
  builder.CreateCondBr(jitted, leave, done);
  builder.SetInsertPoint(leave);
  llvm::Value *status = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_first_class_leave", builder.getInt32Ty(), {pointer}),
      {previous});
  exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  if (result->isNone())
    return llvm::UndefValue::get(valueType(context, result));
  return fromMemoryForm(builder, call, result);
}

} // namespace taipan
