// The native C entry around a compiled function (@cfunc).
#include "cpu/CfuncTarget.h"

#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
#include "support/CompileError.h"

#include <llvm/IR/Module.h>

namespace taipan {

static bool crossesCSignature(const Type *type) {
  return type->isNumber() || type->isBoolean() || type->isPointer();
}

/// Numba's cfunc takes arrays too (the array's struct by value, as a call of the function
/// passes it: for compiled callers, through a first-class function value) and None (no data).
static bool isCfuncArgument(const Type *type) {
  return crossesCSignature(type) || type->isArray() || type->isNone();
}

void CfuncTarget::checkEntry(const TypedFunction &root) const {
  for (const Type *argument : root.argumentTypes)
    if (!isCfuncArgument(argument))
      throwTypingError("a cfunc's arguments are numbers, booleans, pointers (CPointer, "
                       "voidptr), arrays or None, not " +
                           argument->name(),
                       root.source->definitionLocation);
  if (!crossesCSignature(root.returnType) && !root.returnType->isNone())
    throwTypingError("a cfunc returns a number, a boolean, a pointer or nothing, not " +
                         root.returnType->name(),
                     root.source->definitionLocation);
}

std::string CfuncTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root,
                                     const std::vector<TypedFunction *> &) const {
  llvm::LLVMContext &context = lowering.context;
  llvm::Function *callee = lowering.declare(root);
  bool returnsNothing = root.returnType->isNone();
  llvm::Type *resultType =
      returnsNothing ? llvm::Type::getVoidTy(context) : memoryType(context, root.returnType);
  std::vector<llvm::Type *> parameters;
  for (const Type *argument : root.argumentTypes)
    parameters.push_back(memoryType(context, argument));
  auto *type = llvm::FunctionType::get(resultType, parameters, false);
  auto *entry = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                       root.symbolName + "_cfunc", lowering.module);
  llvm::BasicBlock *start = llvm::BasicBlock::Create(context, "entry", entry);
  llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "failed", entry);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "done", entry);
  llvm::IRBuilder<> builder(start);
  lowering.describeWrapper(entry, callee, builder);

  // The root writes its result through a pointer (none: a byte nobody reads).
  llvm::Type *slotType = returnsNothing ? builder.getInt8Ty() : resultType;
  llvm::Value *result = builder.CreateAlloca(slotType, nullptr, "result");
  std::vector<llvm::Value *> arguments = {result};
  for (llvm::Argument &argument : entry->args())
    arguments.push_back(&argument);
  llvm::Value *status = builder.CreateCall(callee, arguments);
  builder.CreateCondBr(builder.CreateICmpNE(status, builder.getInt32(0)), failed, done);

  builder.SetInsertPoint(failed);
  // The entry names itself: a call through a first-class function value may take the exception
  // on (runtime/Cfuncs.h).
  builder.CreateCall(lowering.runtimeFunction("taipan_cfunc_failed", llvm::Type::getVoidTy(context),
                                              {builder.getPtrTy()}),
                     {entry});
  if (returnsNothing)
    builder.CreateRetVoid();
  else
    builder.CreateRet(llvm::Constant::getNullValue(resultType));

  builder.SetInsertPoint(done);
  if (returnsNothing)
    builder.CreateRetVoid();
  else
    builder.CreateRet(builder.CreateLoad(resultType, result));
  return entry->getName().str();
}

} // namespace taipan
