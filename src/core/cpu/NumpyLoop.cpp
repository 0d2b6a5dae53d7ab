// NumPy's inner-loop entry around a compiled root: the loop, the call and the failure exit.
#include "cpu/NumpyLoop.h"

#include "lower/FunctionLowering.h"

#include <llvm/IR/Module.h>

namespace taipan {

std::string defineNumpyLoop(
    ModuleLowering &lowering, TypedFunction &root, const std::string &suffix,
    const std::function<NumpyLoopBody(llvm::IRBuilder<> &builder,
                                      const NumpyLoopParameters &parameters)> &prepare) {
  llvm::LLVMContext &context = lowering.context;
  llvm::Function *callee = lowering.declare(root);
  auto *pointer = llvm::PointerType::getUnqual(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {pointer, pointer, pointer, pointer}, false);
  auto *loop = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                      root.symbolName + suffix, lowering.module);
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", loop);
  llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "failed", loop);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "done", loop);
  llvm::IRBuilder<> builder(entry);
  lowering.describeWrapper(loop, callee, builder);

  NumpyLoopBody body = prepare(builder, {loop->getArg(0), loop->getArg(1), loop->getArg(2)});
  llvm::Value *count = loadEntry(builder, i64, loop->getArg(1), 0);

  // One copy of the loop per element form: for (i = 0; i < count; ++i) call the root. A form
  // LLVM vectorises carries llvm.loop.unroll.disable: the vectoriser interleaves the vector
  // body itself, and LLVM's unroller only added runtime-unrolled remainder loops, a quarter of
  // a ufunc's compile time (a two-input float64 ufunc: 30.8 -> 23.5 ms on the VM, its speed
  // unchanged). The general loop carries llvm.loop.vectorize.enable false instead: its
  // operands have run-time byte strides, so its vector form would gather and scatter, and
  // compiling it costs more than it gains; unrolled, it runs about 6% faster.
  auto annotate = [&](llvm::Instruction *latch, bool vectorise) {
    llvm::Metadata *property[] = {llvm::MDString::get(context, vectorise
                                                                   ? "llvm.loop.unroll.disable"
                                                                   : "llvm.loop.vectorize.enable"),
                                  llvm::ConstantAsMetadata::get(builder.getFalse())};
    llvm::MDNode *self = llvm::MDNode::getDistinct(
        context,
        {nullptr, llvm::MDNode::get(context, llvm::ArrayRef(property, vectorise ? 1 : 2))});
    self->replaceOperandWith(0, self);
    latch->setMetadata(llvm::LLVMContext::MD_loop, self);
  };
  auto emitLoop = [&](const NumpyLoopElement &element, const char *name, bool vectorise) {
    llvm::BasicBlock *from = builder.GetInsertBlock();
    llvm::BasicBlock *header = llvm::BasicBlock::Create(context, name, loop);
    llvm::BasicBlock *call = llvm::BasicBlock::Create(context, "element", loop);
    llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "next", loop);
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    llvm::PHINode *index = builder.CreatePHI(i64, 2, "i");
    index->addIncoming(builder.getInt64(0), from);
    builder.CreateCondBr(builder.CreateICmpSLT(index, count), call, done);
    builder.SetInsertPoint(call);
    llvm::Value *status = builder.CreateCall(callee, element(builder, index));
    builder.CreateCondBr(builder.CreateICmpNE(status, builder.getInt32(0)), failed, next);
    builder.SetInsertPoint(next);
    index->addIncoming(builder.CreateNSWAdd(index, builder.getInt64(1)), next);
    annotate(builder.CreateBr(header), vectorise);
  };
  // for (start = 0; start < count; start += n) { n = min(chunk, count - start);
  //   beginChunk(start); for (j = 0; j < n; ++j) call the root }
  auto emitChunkedLoop = [&](const NumpyLoopForm &form) {
    llvm::BasicBlock *from = builder.GetInsertBlock();
    llvm::BasicBlock *chunks = llvm::BasicBlock::Create(context, "chunks", loop);
    llvm::BasicBlock *chunk = llvm::BasicBlock::Create(context, "chunk", loop);
    llvm::BasicBlock *header = llvm::BasicBlock::Create(context, "chunk.loop", loop);
    llvm::BasicBlock *call = llvm::BasicBlock::Create(context, "element", loop);
    llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "next", loop);
    llvm::BasicBlock *chunkDone = llvm::BasicBlock::Create(context, "chunk.done", loop);
    builder.CreateBr(chunks);
    builder.SetInsertPoint(chunks);
    llvm::PHINode *start = builder.CreatePHI(i64, 2, "start");
    start->addIncoming(builder.getInt64(0), from);
    builder.CreateCondBr(builder.CreateICmpSLT(start, count), chunk, done);
    builder.SetInsertPoint(chunk);
    llvm::Value *left = builder.CreateSub(count, start);
    llvm::Value *size = builder.getInt64(form.chunk);
    llvm::Value *n = builder.CreateSelect(builder.CreateICmpSLT(left, size), left, size);
    form.beginChunk(builder, start);
    llvm::BasicBlock *chunkStart = builder.GetInsertBlock();
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    llvm::PHINode *index = builder.CreatePHI(i64, 2, "j");
    index->addIncoming(builder.getInt64(0), chunkStart);
    builder.CreateCondBr(builder.CreateICmpSLT(index, n), call, chunkDone);
    builder.SetInsertPoint(call);
    llvm::Value *status = builder.CreateCall(callee, form.element(builder, index));
    builder.CreateCondBr(builder.CreateICmpNE(status, builder.getInt32(0)), failed, next);
    builder.SetInsertPoint(next);
    index->addIncoming(builder.CreateNSWAdd(index, builder.getInt64(1)), next);
    annotate(builder.CreateBr(header), true);
    builder.SetInsertPoint(chunkDone);
    start->addIncoming(builder.CreateNSWAdd(start, n), chunkDone);
    builder.CreateBr(chunks);
  };
  for (const NumpyLoopForm &form : body.forms) {
    llvm::BasicBlock *special = llvm::BasicBlock::Create(context, "special", loop);
    llvm::BasicBlock *otherwise = llvm::BasicBlock::Create(context, "otherwise", loop);
    builder.CreateCondBr(form.condition, special, otherwise);
    builder.SetInsertPoint(special);
    if (form.chunk > 0)
      emitChunkedLoop(form);
    else
      emitLoop(form.element, "special.loop", true);
    builder.SetInsertPoint(otherwise);
  }
  emitLoop(body.element, "loop", body.forms.empty());

  builder.SetInsertPoint(failed);
  builder.CreateCall(
      lowering.runtimeFunction("taipan_ufunc_loop_failed", llvm::Type::getVoidTy(context), {}));
  builder.CreateRetVoid();

  builder.SetInsertPoint(done);
  builder.CreateRetVoid();
  return loop->getName().str();
}

llvm::Value *loadEntry(llvm::IRBuilder<> &builder, llvm::Type *element, llvm::Value *array,
                       size_t index) {
  return builder.CreateLoad(element, builder.CreateConstGEP1_64(element, array, index));
}

llvm::Value *elementAddress(llvm::IRBuilder<> &builder, llvm::Value *base, llvm::Value *step,
                            llvm::Value *index) {
  return builder.CreateGEP(builder.getInt8Ty(), base, builder.CreateMul(index, step));
}

} // namespace taipan
