// prange loops on the thread pool: the loop body outlined into a function of its own, called
// by the runtime's taipan_parallel_for once per chunk, and the reductions' partial results
// combined on the calling thread afterwards.
#include "lower/FunctionLowering.h"

#include "types/NumericPromotion.h"

#include <llvm/IR/MDBuilder.h>

namespace taipan {

namespace {

/// Fields of the environment a parallel loop's caller fills for its outlined body.
enum EnvironmentField : unsigned { RangeStart, RangeStep, FirstVariable };

/// Per reduction: the partial results' slots (one per chunk) and the variable before the loop.
constexpr unsigned FieldsPerReduction = 2;

ParallelLoopReport reportOf(const TypedFunction &function, const Stmt *loop,
                            const ParallelLoopPlan &plan) {
  ParallelLoopReport report;
  report.function = function.source->qualifiedName;
  report.filename = function.source->filename;
  report.line = function.source->fileLine(loop->location.line);
  report.parallel = plan.parallel;
  report.reason = plan.reason;
  report.privates = plan.privates;
  report.shared = plan.shared;
  report.notes = plan.notes;
  for (const ParallelReduction &reduction : plan.reductions)
    report.reductions.push_back(reduction.variable + " (" + reductionName(reduction.kind) + ")");
  return report;
}

} // namespace

llvm::Value *LoopLowering::reductionIdentity(ReductionKind kind, const Type *type) {
  if (kind == ReductionKind::Min || kind == ReductionKind::Max) {
    bool min = kind == ReductionKind::Min;
    if (type->isFloat())
      return llvm::ConstantFP::getInfinity(valueType(context, type), !min);
    unsigned bits = static_cast<unsigned>(type->bits());
    llvm::APInt limit =
        type->isSigned()
            ? (min ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getSignedMinValue(bits))
            : (min ? llvm::APInt::getMaxValue(bits) : llvm::APInt::getMinValue(bits));
    return llvm::ConstantInt::get(context, limit);
  }
  int64_t identity = kind == ReductionKind::Multiply ? 1 : kind == ReductionKind::BitAnd ? -1 : 0;
  return core.castValue(builder.getInt64(identity), types::int64(), type);
}

llvm::Value *LoopLowering::combineReduction(ReductionKind kind, llvm::Value *current,
                                            llvm::Value *partial, const Type *type) {
  if (kind == ReductionKind::Min || kind == ReductionKind::Max) {
    // As the builtins decide: the partial result replaces the value only when it is smaller
    // (larger), so NaN never wins a comparison.
    CompareOp op = kind == ReductionKind::Min ? CompareOp::Lt : CompareOp::Gt;
    llvm::Value *replace = core.operators().lowerComparison(op, partial, type, current, type);
    return builder.CreateSelect(core.truthValue(replace, types::boolean()), partial, current);
  }
  BinaryOp op = kind == ReductionKind::Add        ? BinaryOp::Add
                : kind == ReductionKind::Multiply ? BinaryOp::Mult
                : kind == ReductionKind::BitOr    ? BinaryOp::BitOr
                : kind == ReductionKind::BitAnd   ? BinaryOp::BitAnd
                                                  : BinaryOp::BitXor;
  const Type *resultType = binaryResultType(op, type, type);
  return core.castValue(core.operators().lowerBinary(op, current, type, partial, type, resultType),
                        resultType, type);
}

bool LoopLowering::runsOnThreadPool() const {
  return options.parallel && !core.insideParallelBody && moduleLowering.target.hasThreadPool();
}

/// The outlined body of a parallel loop: `i32 body(ptr environment, i64 begin, i64 end, i64
/// chunk)`, as taipan_parallel_for calls it.
static llvm::Function *createOutlinedBody(ModuleLowering &module, llvm::Function *parent,
                                          const char *suffix) {
  llvm::IRBuilder<> builder(module.context);
  llvm::Type *i64 = builder.getInt64Ty();
  auto *type =
      llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy(), i64, i64, i64}, false);
  return llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                parent->getName() + suffix, module.module);
}

/// Calls the runtime's taipan_parallel_for; returns the status.
static llvm::Value *callParallelFor(FunctionLowering &lowering, llvm::Value *count,
                                    llvm::Function *body, llvm::Value *environment,
                                    llvm::Value *chunks, llvm::Value *grain) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty(), *pointer = builder.getPtrTy();
  return builder.CreateCall(
      lowering.module().runtimeFunction("taipan_parallel_for", builder.getInt32Ty(),
                                        {i64, pointer, pointer, pointer, i64}),
      {count, body, environment, chunks, grain});
}

void LoopLowering::forEachIndexInParallel(llvm::Value *count,
                                          const std::vector<llvm::Value *> &captured,
                                          const ParallelLoopBody &body, llvm::Value *grain) {
  if (!runsOnThreadPool()) {
    core.arrays().forEachIndex(
        {count}, [&](const std::vector<llvm::Value *> &at) { body(core, at[0], captured); });
    return;
  }
  std::vector<llvm::Type *> fields;
  for (llvm::Value *value : captured)
    fields.push_back(value->getType());
  llvm::StructType *environmentType = llvm::StructType::get(context, fields);
  llvm::AllocaInst *environment = core.createEntryAlloca(environmentType, "parallel.environment");
  for (size_t k = 0; k < captured.size(); ++k)
    builder.CreateStore(captured[k], builder.CreateStructGEP(environmentType, environment,
                                                             static_cast<unsigned>(k)));
  llvm::Function *outlined = createOutlinedBody(moduleLowering, target, ".parallel");
  {
    FunctionLowering inner(moduleLowering, function, outlined);
    inner.insideParallelBody = true;
    inner.insideElementwise = core.insideElementwise;
    inner.beginBody();
    llvm::IRBuilder<> &innerBuilder = inner.builder;
    std::vector<llvm::Value *> values;
    for (size_t k = 0; k < captured.size(); ++k)
      values.push_back(innerBuilder.CreateLoad(
          fields[k], innerBuilder.CreateStructGEP(environmentType, outlined->getArg(0),
                                                  static_cast<unsigned>(k))));
    llvm::Value *begin = outlined->getArg(1);
    llvm::Value *span = innerBuilder.CreateSub(outlined->getArg(2), begin);
    inner.arrays().forEachIndex({span}, [&](const std::vector<llvm::Value *> &at) {
      body(inner, innerBuilder.CreateAdd(begin, at[0]), values);
    });
    inner.exitFunction(innerBuilder.getInt32(0));
    inner.emitUnwindBlock();
  }
  llvm::AllocaInst *chunks = core.createEntryAlloca(builder.getInt64Ty(), "parallel.chunks");
  llvm::Value *status = callParallelFor(core, count, outlined, environment, chunks,
                                        grain ? grain : builder.getInt64(ElementsPerThreadStart));
  core.exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
}

llvm::Value *LoopLowering::reduceInParallel(
    llvm::Value *count, const std::vector<llvm::Value *> &captured, llvm::Value *identity,
    const ParallelReductionStep &step,
    const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &combine, llvm::Value *grain) {
  llvm::Type *accumulatorType = identity->getType();
  llvm::Type *i64 = builder.getInt64Ty();
  if (!runsOnThreadPool()) {
    llvm::AllocaInst *accumulator = core.createEntryAlloca(accumulatorType, "reduce.accumulator");
    builder.CreateStore(identity, accumulator);
    core.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
      builder.CreateStore(
          step(core, builder.CreateLoad(accumulatorType, accumulator), at[0], captured),
          accumulator);
    });
    return builder.CreateLoad(accumulatorType, accumulator);
  }
  if (!llvm::isa<llvm::Constant>(identity)) // the outlined chunks start from it too
    throw CompileError(CompileErrorKind::Internal,
                       "a parallel reduction's identity must be a "
                       "constant",
                       function.source->definitionLocation);
  llvm::Value *slotCount =
      builder.CreateCall(moduleLowering.runtimeFunction("taipan_parallel_slot_count", i64, {}));
  llvm::Value *stackMark = builder.CreateStackSave();
  llvm::Value *slots = builder.CreateAlloca(accumulatorType, slotCount, "reduce.partials");
  std::vector<llvm::Type *> fields = {builder.getPtrTy()};
  for (llvm::Value *value : captured)
    fields.push_back(value->getType());
  llvm::StructType *environmentType = llvm::StructType::get(context, fields);
  llvm::AllocaInst *environment = core.createEntryAlloca(environmentType, "reduce.environment");
  builder.CreateStore(slots, builder.CreateStructGEP(environmentType, environment, 0));
  for (size_t k = 0; k < captured.size(); ++k)
    builder.CreateStore(captured[k], builder.CreateStructGEP(environmentType, environment,
                                                             static_cast<unsigned>(k + 1)));
  llvm::Function *outlined = createOutlinedBody(moduleLowering, target, ".reduce");
  {
    FunctionLowering inner(moduleLowering, function, outlined);
    inner.insideParallelBody = true;
    inner.insideElementwise = core.insideElementwise;
    inner.beginBody();
    llvm::IRBuilder<> &innerBuilder = inner.builder;
    innerBuilder.setFastMathFlags(builder.getFastMathFlags()); // the caller's reassociation
    auto load = [&](unsigned k) {
      return innerBuilder.CreateLoad(
          fields[k], innerBuilder.CreateStructGEP(environmentType, outlined->getArg(0), k));
    };
    std::vector<llvm::Value *> values;
    for (size_t k = 0; k < captured.size(); ++k)
      values.push_back(load(static_cast<unsigned>(k + 1)));
    llvm::AllocaInst *accumulator = inner.createEntryAlloca(accumulatorType, "reduce.accumulator");
    innerBuilder.CreateStore(identity, accumulator);
    llvm::Value *begin = outlined->getArg(1);
    llvm::Value *span = innerBuilder.CreateSub(outlined->getArg(2), begin);
    inner.arrays().forEachIndex({span}, [&](const std::vector<llvm::Value *> &at) {
      innerBuilder.CreateStore(step(inner, innerBuilder.CreateLoad(accumulatorType, accumulator),
                                    innerBuilder.CreateAdd(begin, at[0]), values),
                               accumulator);
    });
    innerBuilder.CreateStore(
        innerBuilder.CreateLoad(accumulatorType, accumulator),
        innerBuilder.CreateInBoundsGEP(accumulatorType, load(0), outlined->getArg(3)));
    inner.exitFunction(innerBuilder.getInt32(0));
    inner.emitUnwindBlock();
  }
  llvm::AllocaInst *chunks = core.createEntryAlloca(i64, "reduce.chunks");
  llvm::Value *status = callParallelFor(core, count, outlined, environment, chunks,
                                        grain ? grain : builder.getInt64(ElementsPerThreadStart));
  core.exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
  llvm::AllocaInst *result = core.createEntryAlloca(accumulatorType, "reduce.result");
  builder.CreateStore(identity, result);
  core.arrays().forEachIndex(
      {builder.CreateLoad(i64, chunks)}, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *partial = builder.CreateLoad(
            accumulatorType, builder.CreateInBoundsGEP(accumulatorType, slots, at[0]));
        builder.CreateStore(combine(builder.CreateLoad(accumulatorType, result), partial), result);
      });
  builder.CreateStackRestore(stackMark);
  return builder.CreateLoad(accumulatorType, result);
}

bool LoopLowering::lowerParallelFor(Stmt *stmt) {
  if (!runsOnThreadPool() || !isParallelLoop(function, stmt))
    return false;
  ParallelLoopPlan plan = planParallelLoop(function, stmt);
  moduleLowering.parallelLoops.push_back(reportOf(function, stmt, plan));
  if (!plan.parallel)
    return false;
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Type *pointer = builder.getPtrTy();

  llvm::Value *range = core.lowerExpr(stmt->value);
  llvm::Value *count = rangeLength(range);
  std::vector<llvm::Type *> fields = {i64, i64};
  fields.insert(fields.end(), plan.shared.size() + FieldsPerReduction * plan.reductions.size(),
                pointer);
  llvm::StructType *environmentType = llvm::StructType::get(context, fields);
  llvm::AllocaInst *environment = core.createEntryAlloca(environmentType, "prange.environment");
  auto field = [&](unsigned index) {
    return builder.CreateStructGEP(environmentType, environment, index);
  };
  builder.CreateStore(builder.CreateExtractValue(range, 0), field(RangeStart));
  builder.CreateStore(builder.CreateExtractValue(range, 2), field(RangeStep));
  unsigned next = FirstVariable;
  for (const std::string &name : plan.shared)
    builder.CreateStore(core.variable(name), field(next++));

  // One slot per chunk and reduction, on the stack for the loop's duration. Slots of arrays
  // start null, so that a failed loop can release exactly the partial arrays it made.
  llvm::Value *slotCount =
      builder.CreateCall(moduleLowering.runtimeFunction("taipan_parallel_slot_count", i64, {}));
  llvm::Value *stackMark = builder.CreateStackSave();
  std::vector<llvm::Value *> slots;
  for (const ParallelReduction &reduction : plan.reductions) {
    const Type *type = function.variableTypes.at(reduction.variable);
    llvm::Type *memory = memoryType(context, type);
    llvm::Value *reductionSlots = builder.CreateAlloca(memory, slotCount, "prange.partials");
    if (type->holdsReferences()) {
      uint64_t size = moduleLowering.module.getDataLayout().getTypeAllocSize(memory);
      builder.CreateMemSet(reductionSlots, builder.getInt8(0),
                           builder.CreateMul(slotCount, builder.getInt64(size)),
                           llvm::MaybeAlign());
    }
    slots.push_back(reductionSlots);
    builder.CreateStore(reductionSlots, field(next++));
    builder.CreateStore(core.variable(reduction.variable), field(next++));
  }

  llvm::Function *body = createOutlinedBody(moduleLowering, target, ".prange");
  FunctionLowering(moduleLowering, function, body).lowerParallelBody(stmt, plan, environmentType);

  // A prange loop always goes to the pool: the user said its iterations are worth it.
  llvm::AllocaInst *chunks = core.createEntryAlloca(i64, "prange.chunks");
  llvm::Value *status =
      callParallelFor(core, count, body, environment, chunks, builder.getInt64(1));
  llvm::Value *chunkCount = builder.CreateLoad(i64, chunks);
  llvm::Value *failed = builder.CreateICmpNE(status, builder.getInt32(0));
  llvm::BasicBlock *failedBlock = core.newBlock("prange.failed");
  llvm::BasicBlock *combineBlock = core.newBlock("prange.combine");
  builder.CreateCondBr(failed, failedBlock, combineBlock,
                       llvm::MDBuilder(context).createBranchWeights(1, 1 << 20));

  // After a failure, the partial arrays made so far are released and the error propagates.
  builder.SetInsertPoint(failedBlock);
  for (size_t r = 0; r < plan.reductions.size(); ++r) {
    const Type *type = function.variableTypes.at(plan.reductions[r].variable);
    if (!type->holdsReferences())
      continue;
    llvm::Type *memory = memoryType(context, type);
    core.arrays().forEachIndex({chunkCount}, [&](const std::vector<llvm::Value *> &chunk) {
      llvm::Value *slot = builder.CreateInBoundsGEP(memory, slots[r], chunk[0]);
      core.decref(fromMemoryForm(builder, builder.CreateLoad(memory, slot), type), type);
    });
  }
  builder.CreateStackRestore(stackMark);
  core.exitFunction(status);

  // Chunk by chunk, in order: integer results do not depend on the number of threads.
  builder.SetInsertPoint(combineBlock);
  for (size_t r = 0; r < plan.reductions.size(); ++r) {
    const ParallelReduction &reduction = plan.reductions[r];
    const Type *type = function.variableTypes.at(reduction.variable);
    llvm::Type *memory = memoryType(context, type);
    llvm::Value *slot = core.variable(reduction.variable);
    core.arrays().forEachIndex({chunkCount}, [&](const std::vector<llvm::Value *> &chunk) {
      llvm::Value *partial = fromMemoryForm(
          builder,
          builder.CreateLoad(memory, builder.CreateInBoundsGEP(memory, slots[r], chunk[0])), type);
      llvm::Value *current = fromMemoryForm(builder, builder.CreateLoad(memory, slot), type);
      if (!type->isArray()) {
        builder.CreateStore(
            toMemoryForm(builder, combineReduction(reduction.kind, current, partial, type), type),
            slot);
        return;
      }
      // The partial array has the variable's shape (it was made from it); combined in place.
      const Type *dtype = type->dtype();
      core.arrays().forEachIndex(
          core.arrays().arrayShape(current, type), [&](const std::vector<llvm::Value *> &at) {
            llvm::Value *into = core.arrays().elementAddress(current, type, at);
            llvm::Value *from = core.arrays().elementAddress(partial, type, at);
            core.arrays().storeElement(
                into,
                combineReduction(reduction.kind, core.arrays().loadElement(into, dtype),
                                 core.arrays().loadElement(from, dtype), dtype),
                dtype);
          });
      core.decref(partial, type);
    });
  }
  builder.CreateStackRestore(stackMark);
  // The loop's else clause runs after it, as it would serially (prange loops cannot break).
  core.lowerBlock(stmt->orelse);
  return true;
}

void FunctionLowering::lowerParallelBody(Stmt *loop, const ParallelLoopPlan &plan,
                                         llvm::StructType *environmentType) {
  insideParallelBody = true;
  beginBody();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Type *pointer = builder.getPtrTy();
  llvm::Value *environment = target->getArg(0);
  llvm::Value *begin = target->getArg(1), *end = target->getArg(2), *chunk = target->getArg(3);
  auto field = [&](unsigned index, llvm::Type *type) {
    return builder.CreateLoad(type, builder.CreateStructGEP(environmentType, environment, index));
  };
  // prange(n) and prange(a, b) start at 0 and step by 1: known here, LLVM sees that an index
  // into an array never needs negative wraparound, as in a serial loop (chunks start at 0 or
  // later); otherwise the values come from the caller.
  const LibraryCall &range = function.libraryCalls.at(loop->value->id);
  llvm::Value *start = range.arguments.size() == 1 ? static_cast<llvm::Value *>(builder.getInt64(0))
                                                   : field(RangeStart, i64);
  llvm::Value *step = range.arguments.size() < 3 ? static_cast<llvm::Value *>(builder.getInt64(1))
                                                 : field(RangeStep, i64);
  builder.CreateAssumption(builder.CreateICmpSGE(begin, builder.getInt64(0)));

  // Shared variables: this thread's copy of the caller's value, with a reference of its own.
  unsigned next = FirstVariable;
  for (const std::string &name : plan.shared) {
    const Type *type = function.variableTypes.at(name);
    llvm::Type *memory = memoryType(context, type);
    llvm::Value *value = builder.CreateLoad(memory, field(next++, pointer));
    incref(fromMemoryForm(builder, value, type), type);
    builder.CreateStore(value, variable(name));
  }
  // Reduction variables start at the identity: a scalar, or an array of the variable's shape.
  std::vector<llvm::Value *> slots;
  for (const ParallelReduction &reduction : plan.reductions) {
    const Type *type = function.variableTypes.at(reduction.variable);
    llvm::Type *memory = memoryType(context, type);
    slots.push_back(field(next++, pointer));
    llvm::Value *outer = field(next++, pointer);
    if (!type->isArray()) {
      builder.CreateStore(
          toMemoryForm(builder, loops().reductionIdentity(reduction.kind, type), type),
          variable(reduction.variable));
      if ((type->isFloat() || type->isComplex()) &&
          (reduction.kind == ReductionKind::Add || reduction.kind == ReductionKind::Multiply))
        reassociatedReductions.insert(reduction.variable);
      continue;
    }
    size_t mark = temporaries.size();
    llvm::Value *before = fromMemoryForm(builder, builder.CreateLoad(memory, outer), type);
    std::vector<llvm::Value *> shape = arrays().arrayShape(before, type);
    const Type *fresh = types::array(type->dtype(), type->ndim(), 'C', false);
    llvm::Value *array = arrays().allocateArray(fresh, shape);
    llvm::Value *identity = loops().reductionIdentity(reduction.kind, type->dtype());
    arrays().forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
      arrays().storeElement(arrays().elementAddress(array, fresh, at), identity, type->dtype());
    });
    llvm::Value *owned = takeOwnership(castValue(array, fresh, type), type);
    builder.CreateStore(toMemoryForm(builder, owned, type), variable(reduction.variable));
    releaseTemporaries(mark);
  }

  // The chunk's iterations, as a for loop over range(start + begin*step, ..., step) would run.
  llvm::AllocaInst *counter = createEntryAlloca(i64, "prange.index");
  builder.CreateStore(begin, counter);
  llvm::BasicBlock *header = newBlock("prange.cond");
  llvm::BasicBlock *bodyBlock = newBlock("prange.body");
  llvm::BasicBlock *latch = newBlock("prange.next");
  llvm::BasicBlock *done = newBlock("prange.done");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::Value *index = builder.CreateLoad(i64, counter);
  builder.CreateCondBr(builder.CreateICmpSLT(index, end), bodyBlock, done);
  builder.SetInsertPoint(bodyBlock);
  lowerAssign(loop->targets[0], builder.CreateAdd(start, builder.CreateMul(index, step)),
              types::int64());
  loops().lowerLoopBody(loop->body, latch, done);
  builder.SetInsertPoint(latch);
  builder.CreateStore(builder.CreateNSWAdd(builder.CreateLoad(i64, counter), builder.getInt64(1)),
                      counter);
  builder.CreateBr(header);

  // The partial results go to this chunk's slots; arrays move there with their reference.
  builder.SetInsertPoint(done);
  for (size_t r = 0; r < plan.reductions.size(); ++r) {
    const Type *type = function.variableTypes.at(plan.reductions[r].variable);
    llvm::Type *memory = memoryType(context, type);
    llvm::Value *slot = variable(plan.reductions[r].variable);
    builder.CreateStore(builder.CreateLoad(memory, slot),
                        builder.CreateInBoundsGEP(memory, slots[r], chunk));
    if (type->holdsReferences())
      builder.CreateStore(llvm::Constant::getNullValue(memory), slot);
  }
  exitFunction(builder.getInt32(0));
  emitUnwindBlock();
}

} // namespace taipan
