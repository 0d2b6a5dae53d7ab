// Generators: a generator function lowers to a switch-resumed LLVM coroutine whose frame lives
// in a reference-counted block (runtime/Generators.h); consumers resume it through the runtime.
#include "lower/FunctionLowering.h"

#include "runtime/Generators.h"
#include "runtime/Runtime.h"
#include "support/CompileError.h"
#include "typing/OptionalTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace taipan {

GeneratorLowering::GeneratorLowering(FunctionLowering &core) : LoweringRoom(core) {}

using runtime::GeneratorExhausted;
using runtime::GeneratorPromiseOffset;
using runtime::GeneratorValueOffset;

void GeneratorLowering::lowerGeneratorFunction() {
  if (moduleLowering.target.hasThreadHierarchy())
    throwUnsupported("generators are not supported in CUDA kernels or device functions",
                     function.source->definitionLocation);
  // CoroSplit (in LLVM's default pipelines) splits it into ramp, resume and destroy functions.
  target->setPresplitCoroutine();
  core.beginBody();
  llvm::Type *pointer = builder.getPtrTy();
  llvm::Type *i64 = builder.getInt64Ty();
  FunctionLowering::Coroutine state;
  // The promise: the status, the resumer's control word, the value yielded last and what
  // send() passed (runtime/Generators.h; read at fixed offsets: LLVM puts the promise right
  // after the frame's two function pointers).
  std::vector<llvm::Type *> promiseFields = {i64, i64, memoryType(context, function.yieldType)};
  if (const Type *sent = generatorSentType(function.yieldType)) // as generatorPromiseType lays it
    promiseFields.push_back(memoryType(context, sent));
  state.promiseType = llvm::StructType::get(context, promiseFields);
  const llvm::DataLayout &layout = moduleLowering.module.getDataLayout();
  const llvm::StructLayout *promiseLayout = layout.getStructLayout(state.promiseType);
  if (promiseLayout->getElementOffset(2) != GeneratorValueOffset ||
      layout.getABITypeAlign(state.promiseType).value() > 16)
    throwUnsupported("a generator cannot yield values of type " + function.yieldType->name(),
                     function.source->definitionLocation);
  state.promise = core.createEntryAlloca(state.promiseType, "generator.promise");
  builder.CreateStore(llvm::Constant::getNullValue(state.promiseType), state.promise);
  state.id = builder.CreateIntrinsic(
      llvm::Intrinsic::coro_id, {},
      {builder.getInt32(static_cast<uint32_t>(layout.getABITypeAlign(state.promiseType).value())),
       state.promise, llvm::ConstantPointerNull::get(builder.getPtrTy()),
       llvm::ConstantPointerNull::get(builder.getPtrTy())});
  // The frame is the data of a block whose destructor destroys the coroutine, so a generator
  // is reference counted like a list and an unfinished one releases what it holds.
  llvm::Value *size = builder.CreateIntrinsic(llvm::Intrinsic::coro_size, {i64}, {});
  llvm::FunctionCallee allocate = moduleLowering.runtimeFunction(
      "taipan_nrt_allocate_with_destructor", pointer, {i64, pointer, pointer});
  llvm::FunctionCallee destroy = moduleLowering.runtimeFunction(
      "taipan_generator_destroy", builder.getVoidTy(), {pointer, pointer});
  llvm::Value *block = builder.CreateCall(
      allocate, {size, destroy.getCallee(), llvm::ConstantPointerNull::get(builder.getPtrTy())});
  llvm::BasicBlock *noMemory = core.newBlock("generator.nomemory");
  llvm::BasicBlock *allocated = core.newBlock("generator.allocated");
  builder.CreateCondBr(builder.CreateIsNull(block), noMemory, allocated);
  builder.SetInsertPoint(noMemory);
  builder.CreateRet(builder.getInt32(MemoryErrorId));
  builder.SetInsertPoint(allocated);
  llvm::Value *frameMemory =
      builder.CreateLoad(pointer, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), block,
                                                                     runtime::MemInfoDataOffset));
  state.handle = builder.CreateIntrinsic(llvm::Intrinsic::coro_begin, {}, {state.id, frameMemory});
  // The frame reaches the caller only through the block; LLVM 19's O2 and O3 pipelines drop the
  // ramp's stores into it (the resume and destroy functions, the spilled arguments) unless the
  // handle visibly escapes, which this opaque call does.
  builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_generator_begin", builder.getVoidTy(), {pointer}),
      {state.handle});
  builder.CreateStore(block, target->getArg(0));

  // Where every suspension returns to its resumer, and where destruction ends.
  llvm::BasicBlock *body = builder.GetInsertBlock();
  state.suspended = core.newBlock("generator.suspended");
  builder.SetInsertPoint(state.suspended);
  builder.CreateIntrinsic(
      llvm::Intrinsic::coro_end, {},
      {state.handle, builder.getFalse(), llvm::ConstantTokenNone::get(context)});
  builder.CreateRet(builder.getInt32(0));
  state.cleanup = core.newBlock("generator.cleanup");
  builder.SetInsertPoint(state.cleanup);
  // The block owns the frame's memory and frees it after its destructor (this) returns.
  builder.CreateIntrinsic(llvm::Intrinsic::coro_free, {}, {state.id, state.handle});
  builder.CreateBr(state.suspended);
  builder.SetInsertPoint(body);
  core.coroutine = state;

  // The arguments are the generator's own: it outlives the call that made it.
  const std::vector<Parameter> &parameters = function.source->parameters;
  for (size_t i = 0; i < parameters.size(); ++i) {
    llvm::Value *argument =
        fromMemoryForm(builder, target->getArg(i + 1), function.argumentTypes[i]);
    const Type *variableType = function.variableTypes.at(parameters[i].name);
    llvm::Value *converted = core.castValue(argument, function.argumentTypes[i], variableType);
    core.incref(converted, variableType);
    builder.CreateStore(toMemoryForm(builder, converted, variableType),
                        core.variable(parameters[i].name));
  }
  // Python runs nothing of the body until the first next().
  suspendCoroutine(false);
  core.lowerBlock(function.source->body);
  if (!builder.GetInsertBlock()->getTerminator())
    core.lowerReturn(nullptr, types::none());
  core.emitUnwindBlock();
}

void GeneratorLowering::suspendCoroutine(bool final, bool delegating) {
  llvm::Value *suspend =
      builder.CreateIntrinsic(llvm::Intrinsic::coro_suspend, {},
                              {llvm::ConstantTokenNone::get(context), builder.getInt1(final)});
  llvm::SwitchInst *choice = builder.CreateSwitch(suspend, core.coroutine->suspended, 2);
  if (final) {
    choice->addCase(builder.getInt8(1), core.coroutine->cleanup);
    return;
  }
  llvm::BasicBlock *resumed = core.newBlock("generator.resumed");
  llvm::BasicBlock *destroyed = core.newBlock("generator.destroyed");
  choice->addCase(builder.getInt8(0), resumed);
  choice->addCase(builder.getInt8(1), destroyed);
  // Destroyed while suspended: leave as a return does (finally blocks run, as GeneratorExit
  // runs them in CPython), releasing every variable and temporary on the way out.
  builder.SetInsertPoint(destroyed);
  core.exitFunction(builder.getInt32(FunctionLowering::DestroyedGenerator));
  builder.SetInsertPoint(resumed);
  // Started: send() of a value is allowed from now on (the status word, runtime/Generators.h).
  llvm::Type *i64 = builder.getInt64Ty();
  builder.CreateStore(builder.getInt64(1), builder.CreateStructGEP(core.coroutine->promiseType,
                                                                   core.coroutine->promise, 0));
  llvm::Value *control = builder.CreateLoad(
      i64, builder.CreateStructGEP(core.coroutine->promiseType, core.coroutine->promise, 1));
  llvm::Value *thrown = builder.CreateICmpNE(control, builder.getInt64(0));
  if (delegating) {
    // CPython passes them on to the generator `yield from` iterates, which this loop cannot.
    core.exceptions().raiseIf(
        thrown, RuntimeErrorId,
        "throw() into a generator suspended in 'yield from' is not supported");
    if (core.coroutine->promiseType->getNumElements() > 3) {
      llvm::Value *sent = builder.CreateLoad(
          builder.getInt8Ty(),
          builder.CreateStructGEP(core.coroutine->promiseType, core.coroutine->promise, 3));
      core.exceptions().raiseIf(
          builder.CreateICmpNE(sent, builder.getInt8(0)), RuntimeErrorId,
          "send() of a value into a generator suspended in 'yield from' is not supported");
    }
    return;
  }
  // throw(): the exception is pending; raising it here lets the body's try statements see it.
  core.exitIf(thrown, builder.CreateTrunc(control, builder.getInt32Ty()));
}

void GeneratorLowering::lowerYield(Stmt *stmt) {
  // Outside the coroutine only in the outlined body of a loop run on the thread pool.
  if (!core.coroutine || core.insideParallelBody)
    throwUnsupported("yield inside a prange loop is not supported", stmt->location);
  if (core.handlerDepth > 0)
    throwUnsupported("yield inside an except handler is not supported", stmt->location);
  const Type *yieldType = function.yieldType;
  llvm::Value *value;
  const Type *type;
  if (stmt->value) {
    value = core.lowerExpr(stmt->value);
    type = core.typeOf(stmt->value);
  } else {
    value = llvm::Constant::getNullValue(valueType(context, types::none()));
    type = types::none();
  }
  llvm::Value *owned = core.takeOwnership(core.castValue(value, type, yieldType), yieldType);
  builder.CreateStore(
      toMemoryForm(builder, owned, yieldType),
      builder.CreateStructGEP(core.coroutine->promiseType, core.coroutine->promise, 2));
  // `yield from`'s yields are `yield $yield_from...` (AstReader).
  bool delegating = stmt->value && stmt->value->kind == ExprKind::Name &&
                    stmt->value->name.rfind("$yield_from.", 0) == 0;
  suspendCoroutine(false, delegating);
  if (core.coroutine->promiseType->getNumElements() < 4)
    return; // no yield expression has a value: nothing is ever sent
  // What send() passed (None after next()), read once: the slot is cleared for the next resume.
  const Type *sentType = generatorSentType(yieldType);
  llvm::Value *slot =
      builder.CreateStructGEP(core.coroutine->promiseType, core.coroutine->promise, 3);
  llvm::Type *memory = memoryType(context, sentType);
  llvm::Value *sent = fromMemoryForm(builder, builder.CreateLoad(memory, slot), sentType);
  builder.CreateStore(llvm::Constant::getNullValue(memory), slot);
  if (!stmt->targets.empty())
    core.lowerAssign(stmt->targets[0], sent, sentType);
}

llvm::Value *GeneratorLowering::nextGeneratorItem(llvm::Value *generator, const Type *type,
                                                  llvm::BasicBlock *exhausted,
                                                  llvm::Value *status) {
  llvm::Type *pointer = builder.getPtrTy();
  if (!status)
    status = builder.CreateCall(
        moduleLowering.runtimeFunction("taipan_generator_resume", builder.getInt32Ty(), {pointer}),
        {generator});
  llvm::BasicBlock *more = core.newBlock("generator.more");
  builder.CreateCondBr(builder.CreateICmpEQ(status, builder.getInt32(GeneratorExhausted)),
                       exhausted, more);
  builder.SetInsertPoint(more);
  core.exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  const Type *yieldType = type->yieldType();
  llvm::Value *frame =
      builder.CreateLoad(pointer, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), generator,
                                                                     runtime::MemInfoDataOffset));
  llvm::Value *address = builder.CreateConstInBoundsGEP1_64(
      builder.getInt8Ty(), frame, GeneratorPromiseOffset + GeneratorValueOffset);
  llvm::Value *item = fromMemoryForm(
      builder, builder.CreateLoad(memoryType(context, yieldType), address), yieldType);
  // The generator handed its reference over.
  if (yieldType->holdsReferences())
    core.addTemporary(item, yieldType);
  return item;
}

void GeneratorLowering::lowerGeneratorFor(Stmt *stmt, llvm::Value *generator, const Type *type) {
  core.incref(generator, type); // held by the loop, as prepareIteration holds other iterables
  core.addTemporary(generator, type);
  llvm::BasicBlock *header = core.newBlock("genfor.next");
  llvm::BasicBlock *orelse = core.newBlock("genfor.else");
  llvm::BasicBlock *end = core.newBlock("genfor.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  size_t mark = core.temporaries.size();
  llvm::Value *item = nextGeneratorItem(generator, type, orelse);
  core.lowerAssign(stmt->targets[0], item, type->yieldType());
  core.releaseTemporaries(mark);
  core.loops().lowerLoopBody(stmt->body, header, end);
  core.loops().lowerLoopElse(stmt->orelse, orelse, end);
}

void GeneratorLowering::lowerInStepGeneratorFor(Stmt *stmt, const LibraryCall &call) {
  bool counted = call.iteration == LibraryIteration::CountedArgumentsInStep;
  std::vector<LoopLowering::IterationSource> sources;
  std::vector<llvm::Value *> lengths;
  // enumerate(g, start): the start is read once before the loop and is not iterated.
  llvm::Value *countStart = builder.getInt64(0);
  for (size_t k = 0; k < call.arguments.size(); ++k) {
    const Type *type = call.argumentTypes[k];
    llvm::Value *value = core.lowerExpr(call.arguments[k]);
    if (counted && k == 1) {
      countStart = core.castValue(value, type, types::int64());
      continue;
    }
    sources.push_back(type->isGenerator() ? LoopLowering::IterationSource{type, value}
                                          : core.loops().prepareIteration(value, type));
    lengths.push_back(type->isGenerator() ? nullptr : core.loops().iterationLength(sources.back()));
  }
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::AllocaInst *counter = core.createEntryAlloca(i64, "zip.index");
  builder.CreateStore(builder.getInt64(0), counter);
  llvm::BasicBlock *header = core.newBlock("zip.next");
  llvm::BasicBlock *orelse = core.newBlock("zip.else");
  llvm::BasicBlock *end = core.newBlock("zip.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::Value *index = builder.CreateLoad(i64, counter);
  size_t mark = core.temporaries.size();
  std::vector<llvm::Value *> parts;
  std::vector<const Type *> partTypes;
  if (counted) {
    parts.push_back(builder.CreateAdd(index, countStart));
    partTypes.push_back(types::int64());
  }
  for (size_t k = 0; k < sources.size(); ++k) {
    // Stopping at argument k releases the items taken from the arguments before it (CPython's
    // zip drops them too) and empties their slots, so the loop's exit holds nothing.
    llvm::BasicBlock *stop = core.newBlock("zip.stop");
    llvm::BasicBlock *here = builder.GetInsertBlock();
    builder.SetInsertPoint(stop);
    for (size_t t = mark; t < core.temporaries.size(); ++t) {
      core.decref(core.temporaries[t].value, core.temporaries[t].type);
      for (unsigned slot : core.temporaries[t].slots)
        builder.CreateStore(llvm::Constant::getNullValue(builder.getPtrTy()),
                            core.temporarySlots[slot]);
    }
    builder.CreateBr(orelse);
    builder.SetInsertPoint(here);
    const Type *itemType;
    if (sources[k].type->isGenerator()) {
      parts.push_back(nextGeneratorItem(sources[k].value, sources[k].type, stop));
      itemType = sources[k].type->yieldType();
    } else {
      llvm::BasicBlock *more = core.newBlock("zip.more");
      builder.CreateCondBr(builder.CreateICmpSLT(index, lengths[k]), more, stop);
      builder.SetInsertPoint(more);
      parts.push_back(core.loops().iterationItem(sources[k], index, &itemType));
    }
    partTypes.push_back(itemType);
  }
  builder.CreateStore(builder.CreateAdd(index, builder.getInt64(1)), counter);
  const Type *tupleType = types::tuple(partTypes);
  core.lowerAssign(stmt->targets[0], core.lowerTuple(parts, tupleType), tupleType);
  core.releaseTemporaries(mark);
  core.loops().lowerLoopBody(stmt->body, header, end);
  core.loops().lowerLoopElse(stmt->orelse, orelse, end);
}

} // namespace taipan
