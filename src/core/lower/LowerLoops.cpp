// Loops: while and for with Python's semantics (else clauses, range with any step, iteration
// over arrays, lists, tuples and strings) and the unrolling of short constant ranges.
#include "lower/FunctionLowering.h"

#include "lower/FunctionLowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <optional>

namespace taipan {

LoopLowering::LoopLowering(FunctionLowering &core) : LoweringRoom(core) {}

void LoopLowering::lowerLoopBody(const std::vector<Stmt *> &body, llvm::BasicBlock *next,
                                 llvm::BasicBlock *end) {
  core.loopTargets.push_back({next, end, core.temporaries.size()});
  core.lowerBlock(body);
  core.loopTargets.pop_back();
  if (!builder.GetInsertBlock()->getTerminator())
    builder.CreateBr(next);
}

void LoopLowering::lowerLoopElse(const std::vector<Stmt *> &orelse, llvm::BasicBlock *elseBlock,
                                 llvm::BasicBlock *end) {
  if (elseBlock)
    builder.SetInsertPoint(elseBlock);
  core.lowerBlock(orelse);
  if (!builder.GetInsertBlock()->getTerminator())
    builder.CreateBr(end);
  builder.SetInsertPoint(end);
}

void LoopLowering::lowerWhile(Stmt *stmt) {
  llvm::BasicBlock *header = core.newBlock("while.cond");
  llvm::BasicBlock *body = core.newBlock("while.body");
  llvm::BasicBlock *orelse = core.newBlock("while.else");
  llvm::BasicBlock *end = core.newBlock("while.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::Value *condition = core.lowerCondition(stmt->test);
  builder.CreateCondBr(condition, body, orelse);
  builder.SetInsertPoint(body);
  lowerLoopBody(stmt->body, header, end);
  lowerLoopElse(stmt->orelse, orelse, end);
}

LoopLowering::IterationSource LoopLowering::prepareIteration(llvm::Value *value, const Type *type) {
  // The loop holds what it iterates (the body may rebind the name it came from, which would
  // free a list or an array still being walked), released with the statement's temporaries.
  if (type->holdsReferences()) {
    core.incref(value, type);
    core.addTemporary(value, type);
  }
  IterationSource source{type, value};
  if (type->isString()) {
    source.value = core.strings().asStringValue(value, type);
    source.type = types::unicode();
  } else if (type->isDict()) { // zip(d, ...) walks a list of the keys, made first
    source.value = core.containers().dictToList(value, type, 0);
    source.type = core.containers().dictListType(type, 0);
  } else if (type->isDictView()) { // a list of the view's items, made first
    source.value = core.containers().dictToList(value, type->viewedDict(), type->viewKind());
    source.type = core.containers().dictListType(type->viewedDict(), type->viewKind());
  } else if (type->isSet()) { // `for k in s` walks a list of the keys in table order
    source.watchedSet = value;
    source.watchedSetSize = core.containers().setLength(value);
    source.value = core.containers().setToList(value, type);
    source.type = types::list(type->keyType());
  } else if (type->isTuple()) {
    // A tuple of one element type is read through a stack copy indexed by a counter.
    source.tupleCopy = core.createEntryAlloca(memoryType(context, type), "for.tuple");
    builder.CreateStore(value, source.tupleCopy);
  }
  return source;
}

LoopLowering::IterationSource LoopLowering::prepareIndexIteration(Expr *call) {
  IterationSource source{nullptr, nullptr};
  source.indexing = core.typeOf(call->callee())->text();
  for (size_t i = 1; i < call->operands.size(); ++i) {
    Expr *argument = call->operands[i];
    const Type *type = core.typeOf(argument);
    llvm::Value *value = core.lowerExpr(argument);
    if (type->isArray()) {
      source.type = type;
      source.value = value;
      source.extents = core.arrays().arrayShape(value, type);
    } else if (type->isTuple()) {
      for (unsigned k = 0; k < type->elements().size(); ++k)
        source.extents.push_back(
            core.castValue(core.tupleElement(value, type, k), type->elements()[k], types::int64()));
    } else {
      source.extents.push_back(core.castValue(value, type, types::int64()));
    }
  }
  if (source.indexing == "numpy.nditer")
    orderByMemory(source);
  if (source.indexing == "numpy.ndindex") {
    llvm::Value *negative = builder.getInt1(false);
    for (llvm::Value *extent : source.extents)
      negative = builder.CreateOr(negative, builder.CreateICmpSLT(extent, builder.getInt64(0)));
    core.exceptions().raiseIf(negative, ValueErrorId, "negative dimensions are not allowed");
  }
  return source;
}

/// NumPy's nditer visits elements in memory order (order='K'): an axis with a negative stride
/// is walked backwards, and the axes are sorted by decreasing stride (stably, so ties keep C
/// order). NumPy refuses zero-sized operands.
void LoopLowering::orderByMemory(IterationSource &source) {
  llvm::Value *zero = builder.getInt64(0);
  llvm::Value *empty = builder.getInt1(false);
  source.first = core.arrays().arrayField(source.value, ArrayLayout::Data);
  for (size_t axis = 0; axis < source.extents.size(); ++axis) {
    llvm::Value *extent = source.extents[axis];
    llvm::Value *stride =
        core.arrays().arrayField(source.value, ArrayLayout::Strides, static_cast<int>(axis));
    llvm::Value *negative = builder.CreateICmpSLT(stride, zero);
    llvm::Value *last = builder.CreateMul(builder.CreateSub(extent, builder.getInt64(1)), stride);
    source.first = builder.CreateGEP(builder.getInt8Ty(), source.first,
                                     builder.CreateSelect(negative, last, zero));
    source.strides.push_back(builder.CreateSelect(negative, builder.CreateNeg(stride), stride));
    empty = builder.CreateOr(empty, builder.CreateICmpEQ(extent, zero));
  }
  core.exceptions().raiseIf(empty, ValueErrorId, "Iteration of zero-sized operands is not enabled");
  // A stable bubble sort of (stride, extent) pairs, unrolled: ndim is known.
  size_t ndim = source.strides.size();
  for (size_t pass = 0; pass + 1 < ndim; ++pass)
    for (size_t i = 0; i + 1 < ndim - pass; ++i) {
      llvm::Value *swap = builder.CreateICmpULT(source.strides[i], source.strides[i + 1]);
      for (auto *values : {&source.strides, &source.extents}) {
        llvm::Value *a = (*values)[i], *b = (*values)[i + 1];
        (*values)[i] = builder.CreateSelect(swap, b, a);
        (*values)[i + 1] = builder.CreateSelect(swap, a, b);
      }
    }
}

llvm::Value *LoopLowering::iterationLength(const IterationSource &source) {
  if (!source.indexing.empty()) {
    llvm::Value *count = builder.getInt64(1);
    for (llvm::Value *extent : source.extents)
      count = builder.CreateMul(count, extent);
    return count;
  }
  if (source.type->isArray())
    return core.arrays().arrayField(source.value, ArrayLayout::Shape, 0);
  if (source.type->isTuple())
    return builder.getInt64(source.type->elements().size());
  if (source.type->isUnicode())
    return core.strings().stringLength(source.value);
  if (source.type->isList())
    return core.containers().listLength(source.value);
  return rangeLength(source.value);
}

void LoopLowering::checkIterationSource(const IterationSource &source) {
  if (source.watchedSet)
    core.exceptions().raiseIf(
        builder.CreateICmpNE(core.containers().setLength(source.watchedSet), source.watchedSetSize),
        RuntimeErrorId, "Set changed size during iteration");
}

void LoopLowering::forEachItem(
    llvm::Value *iterable, const Type *type,
    const std::function<void(llvm::Value *item, const Type *itemType)> &body) {
  if (type->isGenerator()) { // resumed until it is exhausted
    llvm::BasicBlock *header = core.newBlock("generator.next");
    llvm::BasicBlock *end = core.newBlock("generator.end");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    size_t mark = core.temporaries.size();
    llvm::Value *item = core.generators().nextGeneratorItem(iterable, type, end);
    body(item, type->yieldType());
    core.releaseTemporaries(mark);
    builder.CreateBr(header);
    builder.SetInsertPoint(end);
    return;
  }
  IterationSource source = prepareIteration(iterable, type);
  // The length is read at each step, not once: the body may change a list it walks.
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *header = core.newBlock("items.next");
  llvm::BasicBlock *bodyBlock = core.newBlock("items.body");
  llvm::BasicBlock *end = core.newBlock("items.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2);
  index->addIncoming(builder.getInt64(0), before);
  checkIterationSource(source);
  builder.CreateCondBr(builder.CreateICmpSLT(index, iterationLength(source)), bodyBlock, end);
  builder.SetInsertPoint(bodyBlock);
  size_t mark = core.temporaries.size(); // an array's rows live for one item
  const Type *itemType;
  llvm::Value *item = iterationItem(source, index, &itemType);
  body(item, itemType);
  core.releaseTemporaries(mark);
  index->addIncoming(builder.CreateAdd(index, builder.getInt64(1)), builder.GetInsertBlock());
  builder.CreateBr(header);
  builder.SetInsertPoint(end);
}

llvm::Value *LoopLowering::iterationItem(const IterationSource &source, llvm::Value *index,
                                         const Type **itemType) {
  if (!source.indexing.empty()) {
    // The flat position in C order, split into one index per axis (the last varies fastest).
    size_t ndim = source.extents.size();
    std::vector<llvm::Value *> indices(ndim);
    llvm::Value *rest = index;
    for (size_t axis = ndim; axis-- > 0;) {
      indices[axis] = builder.CreateURem(rest, source.extents[axis]);
      rest = builder.CreateUDiv(rest, source.extents[axis]);
    }
    const Type *indexType = types::tuple(std::vector<const Type *>(ndim, types::int64()));
    if (source.indexing == "numpy.ndindex") {
      *itemType = indexType;
      return core.lowerTuple(indices, indexType);
    }
    if (source.indexing == "numpy.nditer") {
      // A 0-d view of the element, sharing the array's memory.
      llvm::Value *address = source.first;
      for (size_t axis = 0; axis < ndim; ++axis)
        address = builder.CreateGEP(builder.getInt8Ty(), address,
                                    builder.CreateMul(indices[axis], source.strides[axis]));
      *itemType = types::array(source.type->dtype(), 0, 'C', source.type->isReadonly());
      llvm::Value *view = llvm::UndefValue::get(valueType(context, *itemType));
      for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemSize})
        view = core.arrays().withArrayField(view, field,
                                            core.arrays().arrayField(source.value, field));
      view = core.arrays().withArrayField(view, ArrayLayout::Data, address);
      view = core.arrays().withArrayField(view, ArrayLayout::ItemCount, builder.getInt64(1));
      core.incref(view, *itemType);
      core.addTemporary(view, *itemType);
      return view;
    }
    // np.ndenumerate: the index and the element, in C order.
    llvm::Value *address = core.arrays().elementAddress(source.value, source.type, indices);
    *itemType = types::tuple({indexType, source.type->dtype()});
    return core.lowerTuple({core.lowerTuple(indices, indexType),
                            core.arrays().loadElement(address, source.type->dtype())},
                           *itemType);
  }
  if (source.type->isArray()) {
    *itemType = core.arrays().arrayRowType(source.type);
    return core.arrays().arrayRow(source.value, source.type, index);
  }
  if (source.type->isUnicode()) {
    *itemType = types::unicode();
    return core.strings().stringItem(source.value, index);
  }
  if (source.type->isList()) {
    *itemType = source.type->itemType();
    return core.containers().loadListItem(source.value, source.type, index);
  }
  if (source.type->isTuple()) {
    const Type *element = source.type->elements().front();
    *itemType = element;
    llvm::Value *address =
        builder.CreateInBoundsGEP(memoryType(context, element), source.tupleCopy, index);
    return fromMemoryForm(builder, builder.CreateLoad(memoryType(context, element), address),
                          element);
  }
  *itemType = types::int64();
  return builder.CreateAdd(builder.CreateExtractValue(source.value, 0),
                           builder.CreateMul(index, builder.CreateExtractValue(source.value, 2)));
}

llvm::Value *LoopLowering::rangeItemCount(llvm::Value *range) {
  // stop - start (or start - stop) taken as a uint64 is exact whenever the range is non-empty,
  // and so is the step's magnitude (2**63 for a step of -2**63): no int64 sum here can wrap.
  llvm::Value *start = builder.CreateExtractValue(range, 0);
  llvm::Value *stop = builder.CreateExtractValue(range, 1);
  llvm::Value *step = builder.CreateExtractValue(range, 2);
  llvm::Value *rising = builder.CreateICmpSGT(step, builder.getInt64(0));
  llvm::Value *nonEmpty = builder.CreateSelect(rising, builder.CreateICmpSLT(start, stop),
                                               builder.CreateICmpSGT(start, stop));
  llvm::Value *distance =
      builder.CreateSelect(rising, builder.CreateSub(stop, start), builder.CreateSub(start, stop));
  llvm::Value *magnitude = builder.CreateSelect(rising, step, builder.CreateNeg(step));
  llvm::Value *one = builder.getInt64(1);
  llvm::Value *count =
      builder.CreateAdd(builder.CreateUDiv(builder.CreateSub(distance, one), magnitude), one);
  return builder.CreateSelect(nonEmpty, count, builder.getInt64(0));
}

llvm::Value *LoopLowering::rangeLength(llvm::Value *range) {
  // Above 2**63 - 1 items (only ranges spanning both signs) no walk can reach the end anyway.
  llvm::Value *count = rangeItemCount(range);
  return builder.CreateSelect(builder.CreateICmpSLT(count, builder.getInt64(0)),
                              builder.getInt64(INT64_MAX), count);
}

/// Field `index` of a range value (0 start, 1 stop, 2 step), read from the range() call that
/// built it when there is one, so that a constant step is seen as one while lowering.
static llvm::Value *rangeField(llvm::IRBuilder<> &builder, llvm::Value *range, unsigned index) {
  for (auto *insert = llvm::dyn_cast<llvm::InsertValueInst>(range); insert;
       insert = llvm::dyn_cast<llvm::InsertValueInst>(insert->getAggregateOperand()))
    if (insert->getIndices()[0] == index)
      return insert->getInsertedValueOperand();
  return builder.CreateExtractValue(range, index);
}

void LoopLowering::lowerFor(Stmt *stmt) {
  if (lowerUnrolledLoop(stmt))
    return;
  if (lowerParallelFor(stmt))
    return;
  // enumerate() and zip() over arrays and ranges are iterated lazily, in step (their library
  // entries chose so while typing).
  std::vector<IterationSource> sources;
  std::optional<InStepItem> inStep; // the item of zip() or enumerate() iterated in step
  Expr *iterable = stmt->value;
  const Type *callee = iterable->kind == ExprKind::Call ? core.typeOf(iterable->callee()) : nullptr;
  if (callee && core.typeOf(iterable)->isNone() &&
      (callee->kind() == TypeKind::Builtin || callee->kind() == TypeKind::Overload) &&
      isIndexIteration(callee->text())) {
    sources.push_back(prepareIndexIteration(iterable));
  } else if (const LibraryCall *call = inStepIteration(iterable)) {
    for (const Type *argument : call->argumentTypes)
      if (argument->isGenerator()) { // resumed in step (LowerGenerators.cpp)
        core.generators().lowerInStepGeneratorFor(stmt, *call);
        return;
      }
    inStep = prepareInStep(*call, sources);
  } else if (core.typeOf(iterable)->isGenerator()) {
    core.generators().lowerGeneratorFor(stmt, core.lowerExpr(iterable), core.typeOf(iterable));
    return;
  } else if (core.typeOf(iterable)->isTuple() && core.typeOf(iterable)->elements().empty()) {
    core.lowerExpr(
        iterable); // `for x in ()`: evaluated, then the else block (typing skipped the body)
    core.lowerBlock(stmt->orelse);
    return;
  } else if (core.typeOf(iterable)->isDict() || core.typeOf(iterable)->isDictView()) {
    core.containers().lowerDictFor(stmt, core.lowerExpr(iterable), core.typeOf(iterable));
    return;
  } else {
    sources.push_back(prepareIteration(core.lowerExpr(iterable), core.typeOf(iterable)));
  }
  llvm::Type *i64 = builder.getInt64Ty();
  // A plain range counts its value directly, as C does (no division for the trip count, which
  // matters in grid-stride loops on GPUs); everything else counts an index to a length.
  bool plainRange = sources.size() == 1 && !inStep && sources[0].indexing.empty() &&
                    sources[0].type->kind() == TypeKind::Range;
  llvm::Value *first = builder.getInt64(0), *step = builder.getInt64(1), *limit = nullptr;
  // A step other than a constant +1 or -1 could carry the value past an int64 limit after the
  // last item (range(2**63 - 3, 2**63 - 1, 2)): such loops test in the latch whether the next
  // value is still before the limit, i.e. whether the value is before limit - step, a
  // difference held to the int64 limits, where no next item exists.
  bool unitStep = false;
  llvm::Value *nextLimit = nullptr;
  if (plainRange) {
    first = rangeField(builder, sources[0].value, 0);
    limit = rangeField(builder, sources[0].value, 1);
    step = rangeField(builder, sources[0].value, 2);
    if (lowerUnrolledRange(stmt, first, limit, step))
      return;
    auto *constantStep = llvm::dyn_cast<llvm::ConstantInt>(step);
    unitStep = constantStep && (constantStep->isOne() || constantStep->isMinusOne());
    if (!unitStep) {
      // limit - step held to the int64 limits, as max(limit, MIN + step) - step when rising:
      // unlike ssub.sat, LLVM's scalar evolution sees its range, so that it still proves the
      // value cannot wrap and computes the trip count (unrolling, vectorizing).
      llvm::Value *rising = builder.CreateICmpSGT(step, builder.getInt64(0));
      llvm::Value *lowest = builder.CreateBinaryIntrinsic(
          llvm::Intrinsic::smax, limit, builder.CreateAdd(builder.getInt64(INT64_MIN), step));
      llvm::Value *highest = builder.CreateBinaryIntrinsic(
          llvm::Intrinsic::smin, limit, builder.CreateAdd(builder.getInt64(INT64_MAX), step));
      nextLimit = builder.CreateNSWSub(builder.CreateSelect(rising, lowest, highest), step);
    }
  }
  // Emits `value` before `bound` in the range's direction (a select when the step's sign is
  // only known at run time).
  auto before = [&](llvm::Value *value, llvm::Value *bound) -> llvm::Value * {
    auto *constantStep = llvm::dyn_cast<llvm::ConstantInt>(step);
    if (constantStep)
      return constantStep->isNegative() ? builder.CreateICmpSGT(value, bound)
                                        : builder.CreateICmpSLT(value, bound);
    return builder.CreateSelect(builder.CreateICmpSGT(step, builder.getInt64(0)),
                                builder.CreateICmpSLT(value, bound),
                                builder.CreateICmpSGT(value, bound));
  };
  llvm::AllocaInst *counter = core.createEntryAlloca(i64, "for.index");
  builder.CreateStore(first, counter);
  llvm::BasicBlock *header = core.newBlock("for.cond");
  llvm::BasicBlock *body = core.newBlock("for.body");
  llvm::BasicBlock *latch = core.newBlock("for.next");
  llvm::BasicBlock *orelse = core.newBlock("for.else");
  llvm::BasicBlock *end = core.newBlock("for.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::Value *index = builder.CreateLoad(i64, counter);
  if (!plainRange) {
    // Read at each step (CPython's iterators do): a list the body appends to is walked to its
    // new end, one it shrinks stops at the new end instead of reading freed items.
    for (const IterationSource &source : sources)
      checkIterationSource(source);
    limit = iterationLength(sources[0]);
    for (size_t i = 1; i < sources.size(); ++i) {
      llvm::Value *length = iterationLength(sources[i]);
      limit = builder.CreateSelect(builder.CreateICmpSLT(length, limit), length, limit);
    }
  }
  llvm::Value *more = plainRange ? before(index, limit) : builder.CreateICmpSLT(index, limit);
  builder.CreateCondBr(more, body, orelse);
  builder.SetInsertPoint(body);
  // Items made for this iteration (array rows) die once assigned to the target.
  size_t mark = core.temporaries.size();
  if (plainRange) {
    // Read here, not in the header, which a latch testing its own limit goes around.
    core.lowerAssign(stmt->targets[0], builder.CreateLoad(i64, counter), types::int64());
  } else if (!inStep) {
    const Type *itemType;
    llvm::Value *item = iterationItem(sources[0], index, &itemType);
    core.lowerAssign(stmt->targets[0], item, itemType);
  } else {
    const Type *itemType;
    llvm::Value *item = inStepItem(*inStep, sources, index, &itemType);
    core.lowerAssign(stmt->targets[0], item, itemType);
  }
  core.releaseTemporaries(mark);
  lowerLoopBody(stmt->body, latch, end);
  builder.SetInsertPoint(latch);
  // No signed wrap: Python's integers do not wrap, and the flag lets LLVM prove a counter that
  // starts at 0 (or at cuda.grid()) stays non-negative, dropping negative-index wraparound.
  // With nextLimit the sum is used only when it is before the limit, so it cannot wrap either.
  llvm::Value *current = builder.CreateLoad(i64, counter);
  builder.CreateStore(builder.CreateNSWAdd(current, step), counter);
  if (nextLimit)
    builder.CreateCondBr(before(current, nextLimit), body, orelse);
  else
    builder.CreateBr(header);
  lowerLoopElse(stmt->orelse, orelse, end);
}

/// The statements in `block`, nested ones included; -1 when it holds a loop (copies of a loop
/// nest multiply) or more than `limit` statements.
static int countUnrollableStatements(const std::vector<Stmt *> &block, int limit) {
  int count = 0;
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::For || stmt->kind == StmtKind::While)
      return -1;
    int body = countUnrollableStatements(stmt->body, limit);
    int orelse = countUnrollableStatements(stmt->orelse, limit);
    if (body < 0 || orelse < 0)
      return -1;
    count += 1 + body + orelse;
    if (count > limit)
      return -1;
  }
  return count;
}

bool LoopLowering::lowerUnrolledRange(Stmt *stmt, llvm::Value *first, llvm::Value *limit,
                                      llvm::Value *step) {
  // LLVM unrolls such loops completely at -O2 and above anyway, but only after its loop passes
  // have rotated, simplified and analysed each of them, and in a long function every one of
  // those steps updates function-wide analyses: 600 three-trip loops in a 6,400-statement
  // function cost 2.3x its whole optimisation time. Copies made here skip all of that.
  constexpr int maxTrips = 8, maxCopiedStatements = 32;
  auto *start = llvm::dyn_cast<llvm::ConstantInt>(first);
  auto *stop = llvm::dyn_cast<llvm::ConstantInt>(limit);
  auto *stride = llvm::dyn_cast<llvm::ConstantInt>(step);
  if (!start || !stop || !stride || stride->isZero() || options.optimizationLevel == 0 ||
      options.debug)
    return false;
  // In uint64, as rangeItemCount counts: to - from may not fit an int64, nor may -by.
  int64_t from = start->getSExtValue(), to = stop->getSExtValue(), by = stride->getSExtValue();
  bool nonEmpty = by > 0 ? from < to : from > to;
  uint64_t span = by > 0 ? uint64_t(to) - uint64_t(from) : uint64_t(from) - uint64_t(to);
  uint64_t magnitude = by > 0 ? uint64_t(by) : 0 - uint64_t(by);
  uint64_t trips = nonEmpty ? (span - 1) / magnitude + 1 : 0;
  if (trips > maxTrips)
    return false;
  int bodySize = countUnrollableStatements(stmt->body, maxCopiedStatements);
  if (bodySize < 0 || uint64_t(bodySize) * trips > maxCopiedStatements)
    return false;
  llvm::BasicBlock *end = core.newBlock("for.end");
  for (uint64_t trip = 0; trip < trips; ++trip) {
    llvm::BasicBlock *next = core.newBlock("for.next");
    core.lowerAssign(stmt->targets[0], builder.getInt64(uint64_t(from) + trip * uint64_t(by)),
                     types::int64());
    lowerLoopBody(stmt->body, next, end);
    builder.SetInsertPoint(next);
  }
  lowerLoopElse(stmt->orelse, nullptr, end); // reached only when no copy broke out
  return true;
}

LoopLowering::InStepItem LoopLowering::prepareInStep(const LibraryCall &call,
                                                     std::vector<IterationSource> &sources) {
  InStepItem item;
  item.counted = call.iteration == LibraryIteration::CountedArgumentsInStep;
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    Expr *argument = call.arguments[i];
    if (item.counted && i == 1) { // enumerate's start, read once before the loop
      item.countStart =
          core.castValue(core.lowerExpr(argument), core.typeOf(argument), types::int64());
    } else if (const LibraryCall *nested = inStepIteration(argument)) {
      item.parts.push_back(prepareInStep(*nested, sources));
    } else {
      InStepItem part;
      part.source = static_cast<int>(sources.size());
      sources.push_back(prepareIteration(core.lowerExpr(argument), core.typeOf(argument)));
      item.parts.push_back(part);
    }
  }
  return item;
}

llvm::Value *LoopLowering::inStepItem(const InStepItem &item,
                                      const std::vector<IterationSource> &sources,
                                      llvm::Value *index, const Type **itemType) {
  if (item.source >= 0)
    return iterationItem(sources[item.source], index, itemType);
  std::vector<llvm::Value *> parts;
  std::vector<const Type *> partTypes;
  if (item.counted) {
    parts.push_back(item.countStart ? builder.CreateAdd(item.countStart, index) : index);
    partTypes.push_back(types::int64());
  }
  for (const InStepItem &part : item.parts) {
    const Type *partType;
    parts.push_back(inStepItem(part, sources, index, &partType));
    partTypes.push_back(partType);
  }
  *itemType = types::tuple(partTypes);
  return core.lowerTuple(parts, *itemType);
}

const LibraryCall *LoopLowering::inStepIteration(const Expr *iterable) const {
  auto call = function.libraryCalls.find(iterable->id);
  if (iterable->kind != ExprKind::Call || call == function.libraryCalls.end() ||
      call->second.iteration == LibraryIteration::OverResult)
    return nullptr;
  return &call->second;
}

/// Python's repr() of a string: single quotes unless the text holds one and no double quote,
/// with backslashes, the quote and control characters escaped.

} // namespace taipan
