// Statements and control flow: variables live in entry-block allocas, which SROA turns into
// SSA registers; loops keep Python's semantics (for/while else, range with any step).
#include "lower/FunctionLowering.h"

#include "lower/ExceptionDescriptors.h"
#include "lower/LowerJitClasses.h"
#include "lower/LowerStrings.h"
#include "typing/JitClassTyping.h"

#include "runtime/ExceptionArguments.h"
#include "runtime/FloatFormat.h"
#include "syntax/CaughtExceptions.h"
#include "types/NumericPromotion.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/MDBuilder.h>

#include <cstdio>
#include <optional>

namespace taipan {

ModuleLowering::ModuleLowering(llvm::Module &module, const Target &target)
    : module(module), context(module.getContext()), target(target) {}

llvm::Function *ModuleLowering::declare(TypedFunction &function) {
  auto found = functions.find(&function);
  if (found != functions.end())
    return found->second;
  std::vector<llvm::Type *> parameters = {llvm::PointerType::getUnqual(context)};
  for (const Type *argument : function.argumentTypes)
    parameters.push_back(memoryType(context, argument));
  auto *type = llvm::FunctionType::get(llvm::Type::getInt32Ty(context), parameters, false);
  auto *result =
      llvm::Function::Create(type, llvm::Function::InternalLinkage, function.symbolName, module);
  result->addFnAttr(llvm::Attribute::NoUnwind);
  // Arguments are whole values (callers never pass undef), and saying so spares LLVM's
  // undef-or-poison queries a walk up the dominator tree for each one.
  for (unsigned i = 1; i < parameters.size(); ++i)
    if (parameters[i]->isIntegerTy() || parameters[i]->isFloatingPointTy() ||
        parameters[i]->isPointerTy())
      result->addParamAttr(i, llvm::Attribute::NoUndef);
  if (function.source->options.inlineAlways && !function.source->isGenerator)
    result->addFnAttr(llvm::Attribute::AlwaysInline);
  functions.emplace(&function, result);
  return result;
}

void ModuleLowering::define(TypedFunction &function) {
  FunctionLowering lowering(*this, function, declare(function));
  lowering.lower();
}

llvm::DISubprogram *ModuleLowering::debugScope(TypedFunction &function, llvm::Function *target) {
  const FunctionSource &source = *function.source;
  if (!source.options.lineInfo)
    return nullptr;
  if (!debugBuilder) {
    // Line tables only: enough for profilers and cuda-gdb to map code to the user's lines.
    debugBuilder = std::make_unique<llvm::DIBuilder>(module);
    llvm::DIFile *file = debugBuilder->createFile(source.filename, ".");
    compileUnit = debugBuilder->createCompileUnit(llvm::dwarf::DW_LANG_Python, file, "taipan", true,
                                                  "", 0, "", llvm::DICompileUnit::LineTablesOnly);
    module.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    module.addModuleFlag(llvm::Module::Warning, "Dwarf Version", this->target.dwarfVersion());
  }
  llvm::DIFile *file = debugBuilder->createFile(source.filename, ".");
  int line = source.fileLine(source.definitionLocation.line);
  llvm::DISubprogram *subprogram = debugBuilder->createFunction(
      file, source.name, target->getName(), file, line,
      debugBuilder->createSubroutineType(debugBuilder->getOrCreateTypeArray({})), line,
      llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
  target->setSubprogram(subprogram);
  return subprogram;
}

void ModuleLowering::describeWrapper(llvm::Function *wrapper, llvm::Function *callee,
                                     llvm::IRBuilder<> &builder) {
  // A wrapper needs line information of its own, or inlining would drop the callee's.
  llvm::DISubprogram *calleeScope = callee->getSubprogram();
  if (!calleeScope)
    return;
  llvm::DISubprogram *scope = debugBuilder->createFunction(
      calleeScope->getFile(), wrapper->getName(), wrapper->getName(), calleeScope->getFile(),
      calleeScope->getLine(), calleeScope->getType(), calleeScope->getLine(),
      llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
  wrapper->setSubprogram(scope);
  builder.SetCurrentDebugLocation(llvm::DILocation::get(context, scope->getLine(), 0, scope));
}

void ModuleLowering::finishDebugInfo() {
  if (debugBuilder)
    debugBuilder->finalize();
}

llvm::Constant *ModuleLowering::stringConstant(const std::string &text) {
  auto found = strings.find(text);
  if (found != strings.end())
    return found->second;
  llvm::Constant *data = llvm::ConstantDataArray::getString(context, text, true);
  auto *global = new llvm::GlobalVariable(module, data->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, data, ".str");
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  strings.emplace(text, global);
  return global;
}

llvm::FunctionCallee ModuleLowering::runtimeFunction(const std::string &name, llvm::Type *result,
                                                     llvm::ArrayRef<llvm::Type *> parameters) {
  auto *type = llvm::FunctionType::get(result, parameters, false);
  return module.getOrInsertFunction(name, type);
}

FunctionLowering::FunctionLowering(ModuleLowering &module, TypedFunction &function,
                                   llvm::Function *target)
    : moduleLowering(module), function(function), options(function.source->options), target(target),
      context(module.context), builder(module.context) {}

void FunctionLowering::beginBody() {
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", target));
  scope = moduleLowering.debugScope(function, target);
  if (scope)
    builder.SetCurrentDebugLocation(llvm::DILocation::get(context, scope->getLine(), 0, scope));
  applyFastMath();
  // Made now, placed last: every exit branches here, so it must outlive the body's lowering.
  unwindBlock = llvm::BasicBlock::Create(context, "unwind");
  unwindStatus = llvm::PHINode::Create(builder.getInt32Ty(), 4, "status", unwindBlock);
  // Every variable holding arrays starts empty, so exits can release them all.
  for (auto &[name, type] : function.variableTypes)
    if (type && type->holdsReferences() && !variablesBorrowed)
      builder.CreateStore(llvm::Constant::getNullValue(memoryType(context, type)), variable(name));
}

void FunctionLowering::lower() {
  if (function.source->isGenerator) {
    lowerGeneratorFunction();
    return;
  }
  beginBody();
  const std::vector<Parameter> &parameters = function.source->parameters;
  for (size_t i = 0; i < parameters.size(); ++i) {
    llvm::Value *argument =
        fromMemoryForm(builder, target->getArg(i + 1), function.argumentTypes[i]);
    const Type *variableType = function.variableTypes.at(parameters[i].name);
    llvm::Value *converted = castValue(argument, function.argumentTypes[i], variableType);
    // Arguments are borrowed from the caller; the variable holds a reference of its own.
    incref(converted, variableType);
    builder.CreateStore(toMemoryForm(builder, converted, variableType),
                        variable(parameters[i].name));
  }
  if (!lowerInSegments(function.source->body))
    lowerBlock(function.source->body);
  if (!builder.GetInsertBlock()->getTerminator())
    lowerReturn(nullptr, types::none());
  emitUnwindBlock();
}

void FunctionLowering::exitFunction(llvm::Value *status) {
  // A return (a constant status of 0 or below) runs the finally blocks it leaves; an exception
  // goes to the innermost try's handlers (LowerTry.cpp).
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(status);
  if (constant && constant->getSExtValue() <= 0 && !routes.empty()) {
    leaveByReturn(status);
    return;
  }
  auto [destination, phi] = exceptionDestination();
  phi->addIncoming(status, builder.GetInsertBlock());
  builder.CreateBr(destination);
}

void FunctionLowering::exitIf(llvm::Value *condition, llvm::Value *status) {
  llvm::BasicBlock *continueBlock = newBlock("ok");
  auto [destination, phi] = exceptionDestination();
  phi->addIncoming(status, builder.GetInsertBlock());
  builder.CreateCondBr(condition, destination, continueBlock,
                       llvm::MDBuilder(context).createBranchWeights(1, 1 << 20));
  builder.SetInsertPoint(continueBlock);
}

void FunctionLowering::emitUnwindBlock() {
  unwindBlock->insertInto(target);
  builder.SetInsertPoint(unwindBlock);
  if (scope)
    builder.SetCurrentDebugLocation(llvm::DILocation::get(context, scope->getLine(), 0, scope));
  // Variables hold a reference each (or null); so do the slots of the temporaries alive at the
  // exit that branched here. A return has taken its value over, so its slot is null already.
  for (auto &[name, type] : function.variableTypes)
    if (type && type->holdsReferences() && !variablesBorrowed)
      decref(fromMemoryForm(builder, builder.CreateLoad(memoryType(context, type), variable(name)),
                            type),
             type);
  for (llvm::AllocaInst *slot : temporarySlots)
    decrefBlock(builder.CreateLoad(builder.getPtrTy(), slot));
  if (!coroutine) {
    builder.CreateRet(unwindStatus);
    return;
  }
  // A generator's body ended (returned or raised): keep the status for the resumer, then
  // suspend for good. Destroyed while suspended: the frame goes.
  llvm::BasicBlock *finished = newBlock("generator.finished");
  builder.CreateCondBr(builder.CreateICmpEQ(unwindStatus, builder.getInt32(DestroyedGenerator)),
                       coroutine->cleanup, finished);
  builder.SetInsertPoint(finished);
  builder.CreateStore(builder.CreateSExt(unwindStatus, builder.getInt64Ty()),
                      builder.CreateStructGEP(coroutine->promiseType, coroutine->promise, 0));
  suspendCoroutine(true);
}

void FunctionLowering::applyFastMath() {
  unsigned flags = options.fastmathFlags;
  llvm::FastMathFlags fastMath;
  fastMath.setNoNaNs(flags & FastmathNoNaNs);
  fastMath.setNoInfs(flags & FastmathNoInfs);
  fastMath.setNoSignedZeros(flags & FastmathNoSignedZeros);
  fastMath.setAllowReciprocal(flags & FastmathAllowReciprocal);
  fastMath.setAllowContract(flags & FastmathAllowContract);
  fastMath.setApproxFunc(flags & FastmathApproximateFunctions);
  fastMath.setAllowReassoc(flags & FastmathAllowReassociation);
  builder.setFastMathFlags(fastMath);
}

llvm::BasicBlock *FunctionLowering::newBlock(const char *name) {
  return llvm::BasicBlock::Create(context, name, target);
}

void FunctionLowering::ensureOpenBlock() {
  if (builder.GetInsertBlock()->getTerminator())
    builder.SetInsertPoint(newBlock("unreachable"));
}

llvm::AllocaInst *FunctionLowering::createEntryAlloca(llvm::Type *type, const std::string &name) {
  llvm::BasicBlock &entry = target->getEntryBlock();
  llvm::IRBuilder<> entryBuilder(&entry, entry.begin());
  return entryBuilder.CreateAlloca(type, nullptr, name);
}

llvm::Value *FunctionLowering::variable(const std::string &name) {
  auto found = variables.find(name);
  if (found != variables.end())
    return found->second;
  const Type *type = function.variableTypes.at(name);
  llvm::AllocaInst *slot = createEntryAlloca(memoryType(context, type), name);
  variables.emplace(name, slot);
  return slot;
}

void FunctionLowering::lowerBlock(const std::vector<Stmt *> &block) {
  for (Stmt *stmt : block) {
    ensureOpenBlock();
    if (scope)
      builder.SetCurrentDebugLocation(
          llvm::DILocation::get(context, function.source->fileLine(stmt->location.line),
                                stmt->location.column + 1, scope));
    size_t mark = temporaries.size();
    lowerStatement(stmt);
    releaseTemporaries(mark);
    if (!statementCompletes(function, stmt))
      break; // dead code was not typed
  }
}

llvm::Value *FunctionLowering::lowerCondition(Expr *test) {
  // Temporaries of a condition die before the branch it decides.
  size_t mark = temporaries.size();
  llvm::Value *value = lowerExpr(test);
  const Type *type = typeOf(test);
  auto truth = function.calls.find(attributeSetterKey(test)); // `if p:` of a jitclass instance
  if (truth != function.calls.end()) {
    value = callTypedFunction(*truth->second.callee, {value});
    type = truth->second.callee->returnType;
  }
  llvm::Value *condition = truthValue(value, type);
  releaseTemporaries(mark);
  return condition;
}

void FunctionLowering::lowerStatement(Stmt *stmt) {
  switch (stmt->kind) {
  case StmtKind::Assign: {
    for (Expr *target : stmt->targets)
      refuseAliasedDictCopy(target, stmt->value);
    llvm::Value *value = lowerExpr(stmt->value);
    for (Expr *target : stmt->targets)
      lowerAssign(target, value, typeOf(stmt->value));
    break;
  }
  case StmtKind::AugAssign: {
    Expr *target = stmt->targets[0];
    if (target->kind == ExprKind::Name && typeOf(target)->isSet()) {
      lowerSetAugmentedAssign(stmt); // s |= t changes the set in place
      break;
    }
    bool dictItem = // d[k] += v (l[i] += v) reads d[k], then stores the result as d[k] = ... does
        target->kind == ExprKind::Subscript &&
        (typeOf(target->operands[0])->isDict() || isClassInstance(typeOf(target->operands[0])) ||
         (typeOf(target->operands[0])->isList() && target->operands[1]->kind != ExprKind::Slice));
    // An array value (a dict's too) is updated in place, as NumPy's `a += v` does.
    if ((!dictItem && (target->kind == ExprKind::Subscript || isRecordAccess(target))) ||
        typeOf(target)->isArray()) {
      lowerAugmentedStore(stmt);
      break;
    }
    // l += x, l *= n: the list entry typing recorded under the name (library/Lists.cpp)
    auto inPlace = function.libraryCalls.find(target->id);
    if (target->kind == ExprKind::Name && typeOf(target)->isList() &&
        inPlace != function.libraryCalls.end()) {
      lowerLibraryCall(inPlace->second);
      break;
    }
    llvm::Value *current = lowerExpr(target);
    llvm::Value *value = lowerExpr(stmt->value);
    const Type *resultType =
        typeOf(target)->isString() || typeOf(stmt->value)->isString()
            ? types::unicode()
            : binaryResultType(stmt->augmentedOp, typeOf(target), typeOf(stmt->value));
    llvm::Value *result = lowerBinary(stmt->augmentedOp, current, typeOf(target), value,
                                      typeOf(stmt->value), resultType);
    lowerAssign(target, result, resultType);
    break;
  }
  case StmtKind::ExprStmt:
    lowerExpr(stmt->value);
    break;
  case StmtKind::Return:
    if (stmt->value && !coroutine) // a generator returns None (typing checked)
      lowerReturn(lowerExpr(stmt->value), typeOf(stmt->value));
    else
      lowerReturn(nullptr, types::none());
    break;
  case StmtKind::Yield:
    lowerYield(stmt);
    break;
  case StmtKind::If:
    lowerIf(stmt);
    break;
  case StmtKind::While:
    lowerWhile(stmt);
    break;
  case StmtKind::For:
    lowerFor(stmt);
    break;
  case StmtKind::Break:
    leaveByJump(loops.back().breakTarget);
    break;
  case StmtKind::Continue:
    leaveByJump(loops.back().continueTarget);
    break;
  case StmtKind::Try:
    lowerTry(stmt);
    break;
  case StmtKind::Pass:
    break;
  case StmtKind::Raise:
    lowerRaise(stmt);
    break;
  case StmtKind::Assert:
    lowerAssert(stmt);
    break;
  }
}

void FunctionLowering::lowerAssign(Expr *target, llvm::Value *value, const Type *valueType) {
  if (target->kind == ExprKind::Name) {
    const Type *variableType = function.variableTypes.at(target->name);
    llvm::Value *converted = takeOwnership(castValue(value, valueType, variableType), variableType);
    llvm::Value *slot = variable(target->name);
    llvm::Value *old = nullptr;
    if (variableType->holdsReferences())
      old = fromMemoryForm(builder, builder.CreateLoad(memoryType(context, variableType), slot),
                           variableType);
    builder.CreateStore(toMemoryForm(builder, converted, variableType), slot);
    if (old)
      decref(old, variableType);
    return;
  }
  if (target->kind == ExprKind::Attribute && classInstanceOf(typeOf(target->operands[0]))) {
    auto setter = function.calls.find(attributeSetterKey(target));
    if (setter != function.calls.end()) { // p.prop = v: the property's setter(self, value)
      TypedFunction &callee = *setter->second.callee;
      llvm::Value *self = castValue(lowerExpr(target->operands[0]), typeOf(target->operands[0]),
                                    callee.argumentTypes[0]); // an optional instance: checked
      callTypedFunction(callee, {self, castValue(value, valueType, callee.argumentTypes[1])});
    } else {
      storeClassField(*this, target, value, valueType); // p.x = v
    }
    return;
  }
  if (isRecordAccess(target)) { // r.x = v, r['x'] = v
    lowerRecordStore(target, value, valueType);
    return;
  }
  if (target->kind == ExprKind::Subscript && isClassInstance(typeOf(target->operands[0]))) {
    TypedFunction &setter = *function.calls.at(attributeSetterKey(target)).callee;
    llvm::Value *self = lowerExpr(target->operands[0]);
    llvm::Value *index = lowerExpr(target->operands[1]);
    callTypedFunction(setter,
                      {self, castValue(index, typeOf(target->operands[1]), setter.argumentTypes[1]),
                       castValue(value, valueType, setter.argumentTypes[2])});
    return;
  }
  if (target->kind == ExprKind::Subscript) {
    if (typeOf(target->operands[0])->isList())
      lowerListStore(target, value, valueType);
    else if (typeOf(target->operands[0])->isDict())
      lowerDictStore(target, value, valueType);
    else
      lowerArrayStore(target, value, valueType);
    return;
  }
  // Tuple unpacking: the element values are taken before any target is written.
  std::vector<llvm::Value *> elements;
  for (size_t i = 0; i < target->operands.size(); ++i)
    elements.push_back(tupleElement(value, valueType, static_cast<unsigned>(i)));
  for (size_t i = 0; i < target->operands.size(); ++i)
    lowerAssign(target->operands[i], elements[i], valueType->elements()[i]);
}

void FunctionLowering::lowerReturn(llvm::Value *value, const Type *type) {
  const Type *returnType = function.returnType;
  if (value && returnType->isRuntimeValue() && !returnType->isNone()) {
    llvm::Value *converted = takeOwnership(castValue(value, type, returnType), returnType);
    builder.CreateStore(toMemoryForm(builder, converted, returnType), target->getArg(0));
  } else if (!value && returnType->isOptional()) {
    // A bare `return` (or the end of the body) of a function that returns a value elsewhere
    // returns None: the optional's flag and payload are zero.
    builder.CreateStore(llvm::Constant::getNullValue(memoryType(context, returnType)),
                        target->getArg(0));
  }
  exitFunction(builder.getInt32(variablesBorrowed ? ReturnedFromSegment : 0));
}

void FunctionLowering::lowerIf(Stmt *stmt) {
  auto decided = function.staticConditions.find(stmt->test->id);
  if (decided != function.staticConditions.end()) { // the other branch was never typed
    lowerBlock(decided->second ? stmt->body : stmt->orelse);
    return;
  }
  llvm::Value *condition = lowerCondition(stmt->test);
  llvm::BasicBlock *thenBlock = newBlock("if.then");
  llvm::BasicBlock *elseBlock = stmt->orelse.empty() ? nullptr : newBlock("if.else");
  llvm::BasicBlock *endBlock = newBlock("if.end");
  builder.CreateCondBr(condition, thenBlock, elseBlock ? elseBlock : endBlock);
  builder.SetInsertPoint(thenBlock);
  lowerBlock(stmt->body);
  if (!builder.GetInsertBlock()->getTerminator())
    builder.CreateBr(endBlock);
  if (elseBlock) {
    builder.SetInsertPoint(elseBlock);
    lowerBlock(stmt->orelse);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateBr(endBlock);
  }
  builder.SetInsertPoint(endBlock);
}

void FunctionLowering::lowerLoopBody(const std::vector<Stmt *> &body, llvm::BasicBlock *next,
                                     llvm::BasicBlock *end) {
  loops.push_back({next, end});
  lowerBlock(body);
  loops.pop_back();
  if (!builder.GetInsertBlock()->getTerminator())
    builder.CreateBr(next);
}

void FunctionLowering::lowerLoopElse(const std::vector<Stmt *> &orelse, llvm::BasicBlock *elseBlock,
                                     llvm::BasicBlock *end) {
  if (elseBlock)
    builder.SetInsertPoint(elseBlock);
  lowerBlock(orelse);
  if (!builder.GetInsertBlock()->getTerminator())
    builder.CreateBr(end);
  builder.SetInsertPoint(end);
}

void FunctionLowering::lowerWhile(Stmt *stmt) {
  llvm::BasicBlock *header = newBlock("while.cond");
  llvm::BasicBlock *body = newBlock("while.body");
  llvm::BasicBlock *orelse = newBlock("while.else");
  llvm::BasicBlock *end = newBlock("while.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::Value *condition = lowerCondition(stmt->test);
  builder.CreateCondBr(condition, body, orelse);
  builder.SetInsertPoint(body);
  lowerLoopBody(stmt->body, header, end);
  lowerLoopElse(stmt->orelse, orelse, end);
}

FunctionLowering::IterationSource FunctionLowering::prepareIteration(llvm::Value *value,
                                                                     const Type *type) {
  // The loop holds what it iterates (the body may rebind the name it came from, which would
  // free a list or an array still being walked), released with the statement's temporaries.
  if (type->holdsReferences()) {
    incref(value, type);
    addTemporary(value, type);
  }
  IterationSource source{type, value};
  if (type->isString()) {
    source.value = asStringValue(*this, value, type);
    source.type = types::unicode();
  } else if (type->isDict()) { // zip(d, ...) walks a list of the keys, made first
    source.value = dictToList(value, type, 0);
    source.type = dictListType(type, 0);
  } else if (type->isDictView()) { // a list of the view's items, made first
    source.value = dictToList(value, type->viewedDict(), type->viewKind());
    source.type = dictListType(type->viewedDict(), type->viewKind());
  } else if (type->isSet()) { // `for k in s` walks a list of the keys in table order
    source.value = setToList(value, type);
    source.type = types::list(type->keyType());
  } else if (type->isTuple()) {
    // A tuple of one element type is read through a stack copy indexed by a counter.
    source.tupleCopy = createEntryAlloca(memoryType(context, type), "for.tuple");
    builder.CreateStore(value, source.tupleCopy);
  }
  return source;
}

FunctionLowering::IterationSource FunctionLowering::prepareIndexIteration(Expr *call) {
  IterationSource source{nullptr, nullptr};
  source.indexing = typeOf(call->callee())->text();
  for (size_t i = 1; i < call->operands.size(); ++i) {
    Expr *argument = call->operands[i];
    const Type *type = typeOf(argument);
    llvm::Value *value = lowerExpr(argument);
    if (type->isArray()) {
      source.type = type;
      source.value = value;
      source.extents = arrayShape(value, type);
    } else if (type->isTuple()) {
      for (unsigned k = 0; k < type->elements().size(); ++k)
        source.extents.push_back(
            castValue(tupleElement(value, type, k), type->elements()[k], types::int64()));
    } else {
      source.extents.push_back(castValue(value, type, types::int64()));
    }
  }
  if (source.indexing == "numpy.nditer")
    orderByMemory(source);
  if (source.indexing == "numpy.ndindex") {
    llvm::Value *negative = builder.getInt1(false);
    for (llvm::Value *extent : source.extents)
      negative = builder.CreateOr(negative, builder.CreateICmpSLT(extent, builder.getInt64(0)));
    raiseIf(negative, ValueErrorId, "negative dimensions are not allowed");
  }
  return source;
}

/// NumPy's nditer visits elements in memory order (order='K'): an axis with a negative stride
/// is walked backwards, and the axes are sorted by decreasing stride (stably, so ties keep C
/// order). NumPy refuses zero-sized operands.
void FunctionLowering::orderByMemory(IterationSource &source) {
  llvm::Value *zero = builder.getInt64(0);
  llvm::Value *empty = builder.getInt1(false);
  source.first = arrayField(source.value, ArrayLayout::Data);
  for (size_t axis = 0; axis < source.extents.size(); ++axis) {
    llvm::Value *extent = source.extents[axis];
    llvm::Value *stride = arrayField(source.value, ArrayLayout::Strides, static_cast<int>(axis));
    llvm::Value *negative = builder.CreateICmpSLT(stride, zero);
    llvm::Value *last = builder.CreateMul(builder.CreateSub(extent, builder.getInt64(1)), stride);
    source.first = builder.CreateGEP(builder.getInt8Ty(), source.first,
                                     builder.CreateSelect(negative, last, zero));
    source.strides.push_back(builder.CreateSelect(negative, builder.CreateNeg(stride), stride));
    empty = builder.CreateOr(empty, builder.CreateICmpEQ(extent, zero));
  }
  raiseIf(empty, ValueErrorId, "Iteration of zero-sized operands is not enabled");
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

llvm::Value *FunctionLowering::iterationLength(const IterationSource &source) {
  if (!source.indexing.empty()) {
    llvm::Value *count = builder.getInt64(1);
    for (llvm::Value *extent : source.extents)
      count = builder.CreateMul(count, extent);
    return count;
  }
  if (source.type->isArray())
    return arrayField(source.value, ArrayLayout::Shape, 0);
  if (source.type->isTuple())
    return builder.getInt64(source.type->elements().size());
  if (source.type->isUnicode())
    return stringLength(*this, source.value);
  if (source.type->isList())
    return listLength(source.value);
  return rangeLength(source.value);
}

void FunctionLowering::forEachItem(
    llvm::Value *iterable, const Type *type,
    const std::function<void(llvm::Value *item, const Type *itemType)> &body) {
  if (type->isGenerator()) { // resumed until it is exhausted
    llvm::BasicBlock *header = newBlock("generator.next");
    llvm::BasicBlock *end = newBlock("generator.end");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    size_t mark = temporaries.size();
    llvm::Value *item = nextGeneratorItem(iterable, type, end);
    body(item, type->yieldType());
    releaseTemporaries(mark);
    builder.CreateBr(header);
    builder.SetInsertPoint(end);
    return;
  }
  IterationSource source = prepareIteration(iterable, type);
  forEachIndex({iterationLength(source)}, [&](const std::vector<llvm::Value *> &at) {
    size_t mark = temporaries.size(); // an array's rows live for one item
    const Type *itemType;
    llvm::Value *item = iterationItem(source, at[0], &itemType);
    body(item, itemType);
    releaseTemporaries(mark);
  });
}

llvm::Value *FunctionLowering::iterationItem(const IterationSource &source, llvm::Value *index,
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
      return lowerTuple(indices, indexType);
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
        view = withArrayField(view, field, arrayField(source.value, field));
      view = withArrayField(view, ArrayLayout::Data, address);
      view = withArrayField(view, ArrayLayout::ItemCount, builder.getInt64(1));
      incref(view, *itemType);
      addTemporary(view, *itemType);
      return view;
    }
    // np.ndenumerate: the index and the element, in C order.
    llvm::Value *address = elementAddress(source.value, source.type, indices);
    *itemType = types::tuple({indexType, source.type->dtype()});
    return lowerTuple({lowerTuple(indices, indexType), loadElement(address, source.type->dtype())},
                      *itemType);
  }
  if (source.type->isArray()) {
    *itemType = arrayRowType(source.type);
    return arrayRow(source.value, source.type, index);
  }
  if (source.type->isUnicode()) {
    *itemType = types::unicode();
    return stringItem(*this, source.value, index);
  }
  if (source.type->isList()) {
    *itemType = source.type->itemType();
    return loadListItem(source.value, source.type, index);
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

llvm::Value *FunctionLowering::rangeLength(llvm::Value *range) {
  llvm::Value *start = builder.CreateExtractValue(range, 0);
  llvm::Value *stop = builder.CreateExtractValue(range, 1);
  llvm::Value *step = builder.CreateExtractValue(range, 2);
  llvm::Value *zero = builder.getInt64(0);
  llvm::Value *one = builder.getInt64(1);
  llvm::Value *up = builder.CreateSDiv(
      builder.CreateAdd(builder.CreateSub(stop, start), builder.CreateSub(step, one)), step);
  llvm::Value *down = builder.CreateSDiv(
      builder.CreateSub(builder.CreateSub(start, stop), builder.CreateAdd(step, one)),
      builder.CreateNeg(step));
  llvm::Value *count = builder.CreateSelect(builder.CreateICmpSGT(step, zero), up, down);
  return builder.CreateSelect(builder.CreateICmpSGT(count, zero), count, zero);
}

void FunctionLowering::lowerFor(Stmt *stmt) {
  if (lowerUnrolledLoop(stmt))
    return;
  if (lowerParallelFor(stmt))
    return;
  // enumerate() and zip() over arrays and ranges are iterated lazily, in step (their library
  // entries chose so while typing).
  std::vector<IterationSource> sources;
  bool enumerated = false;
  llvm::Value *countStart = nullptr; // enumerate(a, start)
  Expr *iterable = stmt->value;
  if (iterable->kind == ExprKind::Call && typeOf(iterable)->isNone() &&
      typeOf(iterable->callee())->kind() == TypeKind::Builtin &&
      isIndexIteration(typeOf(iterable->callee())->text())) {
    sources.push_back(prepareIndexIteration(iterable));
  } else if (const LibraryCall *call = inStepIteration(iterable)) {
    for (const Type *argument : call->argumentTypes)
      if (argument->isGenerator()) { // resumed in step (LowerGenerators.cpp)
        lowerInStepGeneratorFor(stmt, *call);
        return;
      }
    enumerated = call->iteration == LibraryIteration::CountedArgumentsInStep;
    for (size_t i = 0; i < call->arguments.size(); ++i) {
      Expr *argument = call->arguments[i];
      if (enumerated && i == 1) // enumerate's start, read once before the loop
        countStart = castValue(lowerExpr(argument), typeOf(argument), types::int64());
      else
        sources.push_back(prepareIteration(lowerExpr(argument), typeOf(argument)));
    }
  } else if (typeOf(iterable)->isGenerator()) {
    lowerGeneratorFor(stmt, lowerExpr(iterable), typeOf(iterable));
    return;
  } else if (typeOf(iterable)->isTuple() && typeOf(iterable)->elements().empty()) {
    lowerExpr(iterable); // `for x in ()`: evaluated, then the else block (typing skipped the body)
    lowerBlock(stmt->orelse);
    return;
  } else if (typeOf(iterable)->isDict() || typeOf(iterable)->isDictView()) {
    lowerDictFor(stmt, lowerExpr(iterable), typeOf(iterable));
    return;
  } else {
    sources.push_back(prepareIteration(lowerExpr(iterable), typeOf(iterable)));
  }
  llvm::Type *i64 = builder.getInt64Ty();
  // A plain range counts its value directly, as C does (no division for the trip count, which
  // matters in grid-stride loops on GPUs); everything else counts an index to a length.
  bool plainRange = sources.size() == 1 && !enumerated && sources[0].indexing.empty() &&
                    sources[0].type->kind() == TypeKind::Range;
  llvm::Value *first = builder.getInt64(0), *step = builder.getInt64(1), *limit;
  if (plainRange) {
    first = builder.CreateExtractValue(sources[0].value, 0);
    limit = builder.CreateExtractValue(sources[0].value, 1);
    step = builder.CreateExtractValue(sources[0].value, 2);
  } else {
    limit = iterationLength(sources[0]);
    for (size_t i = 1; i < sources.size(); ++i) {
      llvm::Value *length = iterationLength(sources[i]);
      limit = builder.CreateSelect(builder.CreateICmpSLT(length, limit), length, limit);
    }
  }
  if (plainRange && lowerUnrolledRange(stmt, first, limit, step))
    return;
  llvm::AllocaInst *counter = createEntryAlloca(i64, "for.index");
  builder.CreateStore(first, counter);
  llvm::BasicBlock *header = newBlock("for.cond");
  llvm::BasicBlock *body = newBlock("for.body");
  llvm::BasicBlock *latch = newBlock("for.next");
  llvm::BasicBlock *orelse = newBlock("for.else");
  llvm::BasicBlock *end = newBlock("for.end");
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::Value *index = builder.CreateLoad(i64, counter);
  llvm::Value *more = plainRange
                          ? builder.CreateSelect(builder.CreateICmpSGT(step, builder.getInt64(0)),
                                                 builder.CreateICmpSLT(index, limit),
                                                 builder.CreateICmpSGT(index, limit))
                          : builder.CreateICmpSLT(index, limit);
  builder.CreateCondBr(more, body, orelse);
  builder.SetInsertPoint(body);
  // Items made for this iteration (array rows) die once assigned to the target.
  size_t mark = temporaries.size();
  if (plainRange) {
    lowerAssign(stmt->targets[0], index, types::int64());
  } else if (sources.size() == 1 && !enumerated) {
    const Type *itemType;
    llvm::Value *item = iterationItem(sources[0], index, &itemType);
    lowerAssign(stmt->targets[0], item, itemType);
  } else {
    std::vector<llvm::Value *> parts;
    std::vector<const Type *> partTypes;
    if (enumerated) {
      parts.push_back(countStart ? builder.CreateAdd(countStart, index) : index);
      partTypes.push_back(types::int64());
    }
    for (const IterationSource &source : sources) {
      const Type *itemType;
      parts.push_back(iterationItem(source, index, &itemType));
      partTypes.push_back(itemType);
    }
    const Type *tupleType = types::tuple(partTypes);
    lowerAssign(stmt->targets[0], lowerTuple(parts, tupleType), tupleType);
  }
  releaseTemporaries(mark);
  lowerLoopBody(stmt->body, latch, end);
  builder.SetInsertPoint(latch);
  // No signed wrap: Python's integers do not wrap, and the flag lets LLVM prove a counter that
  // starts at 0 (or at cuda.grid()) stays non-negative, dropping negative-index wraparound.
  builder.CreateStore(builder.CreateNSWAdd(builder.CreateLoad(i64, counter), step), counter);
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

bool FunctionLowering::lowerUnrolledRange(Stmt *stmt, llvm::Value *first, llvm::Value *limit,
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
  int64_t from = start->getSExtValue(), to = stop->getSExtValue(), by = stride->getSExtValue();
  int64_t span = by > 0 ? to - from : from - to;
  int64_t magnitude = by > 0 ? by : -by;
  if (span > maxTrips * magnitude) // also keeps the arithmetic below far from overflow
    return false;
  int64_t trips = span <= 0 ? 0 : (span + magnitude - 1) / magnitude;
  int bodySize = countUnrollableStatements(stmt->body, maxCopiedStatements);
  if (bodySize < 0 || bodySize * trips > maxCopiedStatements)
    return false;
  llvm::BasicBlock *end = newBlock("for.end");
  for (int64_t trip = 0; trip < trips; ++trip) {
    llvm::BasicBlock *next = newBlock("for.next");
    lowerAssign(stmt->targets[0], builder.getInt64(from + trip * by), types::int64());
    lowerLoopBody(stmt->body, next, end);
    builder.SetInsertPoint(next);
  }
  lowerLoopElse(stmt->orelse, nullptr, end); // reached only when no copy broke out
  return true;
}

const LibraryCall *FunctionLowering::inStepIteration(const Expr *iterable) const {
  auto call = function.libraryCalls.find(iterable->id);
  if (iterable->kind != ExprKind::Call || call == function.libraryCalls.end() ||
      call->second.iteration == LibraryIteration::OverResult)
    return nullptr;
  return &call->second;
}

/// Python's repr() of a string: single quotes unless the text holds one and no double quote,
/// with backslashes, the quote and control characters escaped.
static std::string pythonStringRepr(const std::string &text) {
  char quote =
      text.find('\'') != std::string::npos && text.find('"') == std::string::npos ? '"' : '\'';
  std::string result(1, quote);
  for (unsigned char c : text) {
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      result += '\\';
      result += static_cast<char>(c);
    } else if (c == '\n') {
      result += "\\n";
    } else if (c == '\t') {
      result += "\\t";
    } else if (c == '\r') {
      result += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      result += escaped;
    } else {
      result += static_cast<char>(c);
    }
  }
  return result + quote;
}

/// str() of a value known while compiling (a literal, a frozen global or a string literal's
/// type); `quoted` gives repr() instead, as a tuple of arguments shows them. nullopt when the
/// value is only known at run time.
static std::optional<std::string> constantText(const Expr *argument, const Type *type,
                                               const TypedFunction &function, bool quoted) {
  if (type && type->kind() == TypeKind::StringLiteral)
    return quoted ? pythonStringRepr(type->text()) : type->text();
  const Constant *constant = nullptr;
  if (argument->kind == ExprKind::Constant) {
    constant = &argument->constant;
  } else {
    auto global = function.globals.find(argument->id);
    if (global != function.globals.end() && global->second.kind == GlobalValue::Kind::Constant)
      constant = &global->second.constant;
  }
  if (!constant)
    return std::nullopt;
  switch (constant->kind) {
  case Constant::Kind::Int:
    return runtime::formatPythonInt(constant->intValue);
  case Constant::Kind::UInt:
    return runtime::formatPythonUInt(static_cast<uint64_t>(constant->intValue));
  case Constant::Kind::Float:
    return type == types::float32()
               ? runtime::formatNumpyFloat32(static_cast<float>(constant->floatValue))
               : runtime::formatPythonFloat(constant->floatValue);
  case Constant::Kind::Complex:
    return runtime::formatPythonComplex(constant->floatValue, constant->imagValue);
  case Constant::Kind::Bool:
    return std::string(constant->intValue ? "True" : "False");
  case Constant::Kind::None:
    return std::string("None");
  case Constant::Kind::String:
    return quoted ? pythonStringRepr(constant->text) : constant->text;
  default:
    return std::nullopt;
  }
}

std::optional<std::string> FunctionLowering::exceptionMessage(Expr *raised) {
  if (raised->kind != ExprKind::Call)
    return std::string();
  // str() of an exception: its one argument's str(), or the repr() of the tuple of them.
  size_t count = raised->operands.size() - 1;
  std::vector<std::string> parts;
  for (size_t i = 1; i <= count; ++i) {
    Expr *argument = raised->operands[i];
    std::optional<std::string> text = constantText(argument, typeOf(argument), function, count > 1);
    if (!text)
      return std::nullopt;
    parts.push_back(*text);
  }
  if (count == 1)
    return parts[0];
  std::string joined;
  for (const std::string &part : parts)
    joined += (joined.empty() ? "" : ", ") + part;
  return count == 0 ? "" : "(" + joined + ")";
}

void FunctionLowering::printExceptionMessage(Expr *raised,
                                             const std::vector<llvm::Value *> &values) {
  size_t count = raised->operands.size() - 1;
  if (count > 1)
    printText("(");
  for (size_t i = 1; i <= count; ++i) {
    Expr *argument = raised->operands[i];
    const Type *type = typeOf(argument);
    if (i > 1)
      printText(", ");
    if (std::optional<std::string> text = constantText(argument, type, function, count > 1))
      printText(*text);
    else
      printValue(values[i - 1], type);
  }
  if (count > 1)
    printText(")");
}

void FunctionLowering::lowerRaise(Stmt *stmt) {
  if (!stmt->value) {
    if (handlerDepth == 0)
      throwUnsupported("a bare 'raise' is supported only inside an except block", stmt->location);
    builder.CreateCall(exceptionRuntime("taipan_reraise"));
    exitFunction(builder.getInt32(1));
    return;
  }
  Expr *raised = stmt->value;
  if (isCaughtExceptionName(raised)) { // `raise e` in `except ... as e`: its handled-stack index
    llvm::Value *index = lowerExpr(raised);
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_reraise_at", builder.getVoidTy(),
                                                      {builder.getInt64Ty()}),
                       {index});
    exitFunction(builder.getInt32(1));
    return;
  }
  const Type *classType =
      raised->kind == ExprKind::Call ? typeOf(raised->callee()) : typeOf(raised);
  std::vector<llvm::Value *> values;
  if (raised->kind == ExprKind::Call)
    for (size_t i = 1; i < raised->operands.size(); ++i)
      values.push_back(lowerExpr(raised->operands[i]));
  std::optional<std::string> message = exceptionMessage(raised);
  // Python gets the exception made of its arguments, unless they are one string (which the
  // message rebuilds exactly) or cannot be described.
  std::string descriptor;
  bool keepArguments = !values.empty() && moduleLowering.target.formatsMessagesAtRunTime() &&
                       !moduleLowering.target.hasThreadHierarchy() && !runsOnThreadPool();
  if (keepArguments && values.size() == 1 && typeOf(raised->operands[1])->isString())
    keepArguments = false;
  for (size_t i = 1; keepArguments && i < raised->operands.size(); ++i)
    keepArguments = describeExceptionArgument(typeOf(raised->operands[i]), descriptor);
  if (!keepArguments) {
    if (message) {
      emitRaise(classType->exceptionId(), *message);
      return;
    }
    emitPrintedRaise(classType->exceptionId(), [&] { printExceptionMessage(raised, values); });
    return;
  }
  int exceptionId = classType->exceptionId();
  if (exceptionId >= FirstUserException)
    moduleLowering.processSpecific = "it raises a user-defined exception class";
  if (message) {
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_raise", builder.getVoidTy(),
                                                      {builder.getInt32Ty(), builder.getPtrTy()}),
                       {builder.getInt32(exceptionId), moduleLowering.stringConstant(*message)});
  } else {
    printExceptionMessage(raised, values);
    builder.CreateCall(moduleLowering.runtimeFunction("taipan_raise_printed", builder.getVoidTy(),
                                                      {builder.getInt32Ty()}),
                       {builder.getInt32(exceptionId)});
  }
  llvm::Type *pointer = builder.getPtrTy();
  llvm::AllocaInst *pointers =
      createEntryAlloca(llvm::ArrayType::get(pointer, values.size()), "raise.arguments");
  for (size_t i = 0; i < values.size(); ++i) {
    const Type *type = typeOf(raised->operands[i + 1]);
    const Type *boxed = type->kind() == TypeKind::StringLiteral ? types::unicode() : type;
    llvm::Value *value = castValue(values[i], type, boxed);
    llvm::AllocaInst *slot = createEntryAlloca(memoryType(context, boxed), "raise.argument");
    builder.CreateStore(toMemoryForm(builder, value, boxed), slot);
    builder.CreateStore(slot, builder.CreateConstInBoundsGEP1_64(pointer, pointers, i));
  }
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_keep_exception_arguments",
                                                    builder.getVoidTy(), {pointer, pointer}),
                     {moduleLowering.stringConstant(descriptor), pointers});
  exitFunction(builder.getInt32(1));
}

void FunctionLowering::emitPrintedRaise(int exceptionId, const std::function<void()> &print) {
  if (!moduleLowering.target.formatsMessagesAtRunTime()) {
    emitRaise(exceptionId, "<message made at run time>");
    return;
  }
  print();
  if (exceptionId >= FirstUserException)
    moduleLowering.processSpecific = "it raises a user-defined exception class";
  builder.CreateCall(moduleLowering.runtimeFunction("taipan_raise_printed", builder.getVoidTy(),
                                                    {builder.getInt32Ty()}),
                     {builder.getInt32(exceptionId)});
  exitFunction(builder.getInt32(1));
}

void FunctionLowering::lowerAssert(Stmt *stmt) {
  llvm::Value *condition = lowerCondition(stmt->test);
  std::optional<std::string> message = std::string();
  if (stmt->message)
    message = constantText(stmt->message, typeOf(stmt->message), function, false);
  if (message) {
    raiseIf(builder.CreateNot(condition), AssertionErrorId, *message);
    return;
  }
  // A message made at run time is evaluated only when the assertion fails, as in Python.
  llvm::BasicBlock *failed = newBlock("assert.failed");
  llvm::BasicBlock *passed = newBlock("assert.ok");
  builder.CreateCondBr(condition, passed, failed,
                       llvm::MDBuilder(context).createBranchWeights(1 << 20, 1));
  builder.SetInsertPoint(failed);
  emitPrintedRaise(AssertionErrorId,
                   [&] { printValue(lowerExpr(stmt->message), typeOf(stmt->message)); });
  builder.SetInsertPoint(passed);
}

void FunctionLowering::emitRaise(int exceptionId, const std::string &message) {
  if (exceptionId >= FirstUserException)
    moduleLowering.processSpecific = "it raises a user-defined exception class";
  llvm::FunctionCallee raise = moduleLowering.runtimeFunction(
      "taipan_raise", builder.getVoidTy(), {builder.getInt32Ty(), builder.getPtrTy()});
  builder.CreateCall(raise,
                     {builder.getInt32(exceptionId), moduleLowering.stringConstant(message)});
  exitFunction(builder.getInt32(1));
}

void FunctionLowering::raiseIf(llvm::Value *condition, int exceptionId,
                               const std::string &message) {
  // A check that cannot fail (a constant divisor's zero test) costs no block: every block
  // deepens the dominator tree, which some of LLVM's analyses walk.
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(condition); constant && constant->isZero())
    return;
  // One raise block per distinct exception in a function: checks repeat (every // and % has
  // one), and sharing their cold blocks keeps large functions small for LLVM.
  llvm::BasicBlock *&raiseBlock = raiseBlocks[{exceptionDestination().first, exceptionId, message}];
  if (!raiseBlock) {
    llvm::IRBuilderBase::InsertPointGuard guard(builder);
    raiseBlock = newBlock("raise");
    builder.SetInsertPoint(raiseBlock);
    emitRaise(exceptionId, message);
  }
  llvm::BasicBlock *continueBlock = newBlock("ok");
  builder.CreateCondBr(condition, raiseBlock, continueBlock,
                       llvm::MDBuilder(context).createBranchWeights(1, 1 << 20));
  builder.SetInsertPoint(continueBlock);
}

} // namespace taipan
