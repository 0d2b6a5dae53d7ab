// NumPy's inner-loop entry around a compiled scalar function.
#include "cpu/UfuncLoopTarget.h"

#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
#include "support/CompileError.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace taipan {

static bool crossesUfuncLoop(const Type *type) { return type->isNumber() || type->isBoolean(); }

void UfuncLoopTarget::checkEntry(const TypedFunction &root) const {
  for (const Type *argument : root.argumentTypes)
    if (!crossesUfuncLoop(argument))
      throwTypingError("a ufunc's arguments are numbers or booleans, not " + argument->name(),
                       root.source->definitionLocation);
  if (!crossesUfuncLoop(root.returnType))
    throwTypingError("a ufunc's function must return a number or a boolean, not " +
                         root.returnType->name(),
                     root.source->definitionLocation);
}

std::string UfuncLoopTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root) const {
  llvm::LLVMContext &context = lowering.context;
  llvm::Function *callee = lowering.declare(root);
  auto *pointer = llvm::PointerType::getUnqual(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {pointer, pointer, pointer, pointer}, false);
  auto *loop = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                      root.symbolName + "_ufunc", lowering.module);
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", loop);
  llvm::BasicBlock *header = llvm::BasicBlock::Create(context, "loop", loop);
  llvm::BasicBlock *body = llvm::BasicBlock::Create(context, "element", loop);
  llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "failed", loop);
  llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "next", loop);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "done", loop);
  llvm::IRBuilder<> builder(entry);
  lowering.describeWrapper(loop, callee, builder);

  // Operand k's base pointer and step; the output is the last operand.
  size_t inputs = root.argumentTypes.size();
  std::vector<llvm::Value *> bases, steps;
  for (size_t k = 0; k <= inputs; ++k) {
    bases.push_back(
        builder.CreateLoad(pointer, builder.CreateConstGEP1_64(pointer, loop->getArg(0), k)));
    steps.push_back(builder.CreateLoad(i64, builder.CreateConstGEP1_64(i64, loop->getArg(2), k)));
  }
  llvm::Value *count = builder.CreateLoad(i64, loop->getArg(1));
  builder.CreateBr(header);

  builder.SetInsertPoint(header);
  llvm::PHINode *index = builder.CreatePHI(i64, 2, "i");
  index->addIncoming(builder.getInt64(0), entry);
  builder.CreateCondBr(builder.CreateICmpSLT(index, count), body, done);

  builder.SetInsertPoint(body);
  auto address = [&](size_t k) {
    return builder.CreateGEP(builder.getInt8Ty(), bases[k], builder.CreateMul(index, steps[k]));
  };
  std::vector<llvm::Value *> arguments = {address(inputs)}; // the result goes straight out
  for (size_t k = 0; k < inputs; ++k)
    arguments.push_back(builder.CreateLoad(memoryType(context, root.argumentTypes[k]), address(k)));
  llvm::Value *status = builder.CreateCall(callee, arguments);
  builder.CreateCondBr(builder.CreateICmpNE(status, builder.getInt32(0)), failed, next);

  builder.SetInsertPoint(failed);
  builder.CreateCall(
      lowering.runtimeFunction("taipan_ufunc_loop_failed", llvm::Type::getVoidTy(context), {}));
  builder.CreateRetVoid();

  builder.SetInsertPoint(next);
  index->addIncoming(builder.CreateNSWAdd(index, builder.getInt64(1)), next);
  builder.CreateBr(header);

  builder.SetInsertPoint(done);
  builder.CreateRetVoid();
  return loop->getName().str();
}

} // namespace taipan
