// Module and function lowering, statements and control flow: variables live in entry-block
// allocas, which SROA turns into SSA registers (loops: LowerLoops.cpp; raise: LowerRaise.cpp).
#include "lower/FunctionLowering.h"

#include "lower/LowerCharSequences.h"
#include "lower/LowerJitClasses.h"
#include "lower/VariableSlots.h"
#include "syntax/VariableVersions.h"
#include "types/UserTypes.h"
#include "typing/JitClassTyping.h"

#include "types/NumericPromotion.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/MDBuilder.h>

#include <set>

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
  const CompileOptions &options = function.source->options;
  if (options.optimizeNone) { // numba-cuda's _dbg_optnone: left as lowered
    result->addFnAttr(llvm::Attribute::OptimizeNone);
    result->addFnAttr(llvm::Attribute::NoInline);
  } else if ((options.inlineAlways || options.forceInline) && !function.source->isGenerator) {
    result->addFnAttr(llvm::Attribute::AlwaysInline);
  }
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
    // lineinfo without debug (a CUDA option) asks for the line directives alone, as
    // numba-cuda's lineinfo does: PTX's .file/.loc, no debug sections, code unchanged.
    debugBuilder = std::make_unique<llvm::DIBuilder>(module);
    llvm::DIFile *file = debugBuilder->createFile(source.filename, ".");
    // debug=True adds the variables (full debug information, as numba-cuda's debug=True).
    compileUnit = debugBuilder->createCompileUnit(
        llvm::dwarf::DW_LANG_Python, file, "taipan", true, "", 0, "",
        source.options.debug ? llvm::DICompileUnit::FullDebug
                             : llvm::DICompileUnit::DebugDirectivesOnly);
    module.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    module.addModuleFlag(llvm::Module::Warning, "Dwarf Version", this->target.dwarfVersion());
  }
  llvm::DIFile *file = debugBuilder->createFile(source.filename, ".");
  int line = source.fileLine(source.definitionLocation.line);
  // With variables, the subprogram's type lists the result (null: none) and the parameters.
  std::vector<llvm::Metadata *> signature;
  if (source.options.debug && !source.isGenerator) {
    signature.push_back(function.returnType && !function.returnType->isNone()
                            ? debugType(function.returnType)
                            : nullptr);
    for (const Type *argument : function.argumentTypes)
      signature.push_back(debugType(argument));
  }
  llvm::DISubprogram *subprogram = debugBuilder->createFunction(
      file, source.name, target->getName(), file, line,
      debugBuilder->createSubroutineType(debugBuilder->getOrCreateTypeArray(signature)), line,
      llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
  target->setSubprogram(subprogram);
  return subprogram;
}

llvm::DIType *ModuleLowering::debugType(const Type *type) {
  auto found = debugTypes.find(type);
  if (found != debugTypes.end())
    return found->second;
  llvm::DIType *result;
  if (type->isBoolean()) {
    result = debugBuilder->createBasicType("bool", 8, llvm::dwarf::DW_ATE_boolean);
  } else if (type->isInteger() || type->isFloat() || type->isComplex()) {
    unsigned encoding = type->isFloat()     ? llvm::dwarf::DW_ATE_float
                        : type->isComplex() ? llvm::dwarf::DW_ATE_complex_float
                        : type->isSigned()  ? llvm::dwarf::DW_ATE_signed
                                            : llvm::dwarf::DW_ATE_unsigned;
    uint64_t bits = module.getDataLayout().getTypeAllocSizeInBits(memoryType(context, type));
    result = debugBuilder->createBasicType(type->name(), bits, encoding);
  } else {
    llvm::Type *memory = memoryType(context, type);
    const llvm::DataLayout &layout = module.getDataLayout();
    uint64_t bits = memory->isSized() ? layout.getTypeAllocSizeInBits(memory) : 0;
    uint32_t align = memory->isSized() ? layout.getABITypeAlign(memory).value() * 8 : 8;
    result = debugBuilder->createStructType(compileUnit, type->name(), compileUnit->getFile(), 0,
                                            bits, align, llvm::DINode::FlagZero, nullptr,
                                            debugBuilder->getOrCreateArray({}));
  }
  debugTypes.emplace(type, result);
  return result;
}

void ModuleLowering::describeVariable(llvm::DISubprogram *scope, llvm::AllocaInst *slot,
                                      const std::string &name, unsigned argument, const Type *type,
                                      unsigned line) {
  if (!debugBuilder || !scope || compileUnit->getEmissionKind() != llvm::DICompileUnit::FullDebug)
    return;
  llvm::DIFile *file = scope->getFile();
  llvm::DILocalVariable *variable =
      argument ? debugBuilder->createParameterVariable(scope, name, argument, file, line,
                                                       debugType(type), true)
               : debugBuilder->createAutoVariable(scope, name, file, line, debugType(type), true);
  const llvm::DILocation *location = llvm::DILocation::get(context, line, 0, scope);
  if (llvm::Instruction *next = slot->getNextNode())
    debugBuilder->insertDeclare(slot, variable, debugBuilder->createExpression(), location, next);
  else
    debugBuilder->insertDeclare(slot, variable, debugBuilder->createExpression(), location,
                                slot->getParent());
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

LoweringRoom::LoweringRoom(FunctionLowering &core)
    : core(core), builder(core.builder), context(core.context), options(core.options),
      function(core.function), moduleLowering(core.moduleLowering), target(core.target) {}

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
  // Every variable holding arrays starts empty, so exits can release them all (each slot
  // once: versions of one type share it, lower/VariableSlots.h).
  std::set<llvm::Value *> emptied;
  for (auto &[name, type] : function.variableTypes)
    if (type && type->holdsReferences() && !variablesBorrowed &&
        emptied.insert(variable(name)).second)
      builder.CreateStore(llvm::Constant::getNullValue(memoryType(context, type)), variable(name));
}

void FunctionLowering::lower() {
  if (function.source->isGenerator) {
    generators().lowerGeneratorFunction();
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
    exceptions().leaveByReturn(status);
    return;
  }
  auto [destination, phi] = exceptions().exceptionDestination();
  phi->addIncoming(status, builder.GetInsertBlock());
  builder.CreateBr(destination);
}

void FunctionLowering::exitIf(llvm::Value *condition, llvm::Value *status) {
  llvm::BasicBlock *continueBlock = newBlock("ok");
  auto [destination, phi] = exceptions().exceptionDestination();
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
  std::set<llvm::Value *> released;
  for (auto &[name, type] : function.variableTypes)
    if (type && type->holdsReferences() && !variablesBorrowed &&
        released.insert(variable(name)).second)
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
  generators().suspendCoroutine(true);
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
  const Type *type = function.variableTypes.at(name);
  std::string slotName = variableSlotName(name, type);
  auto found = variables.find(slotName);
  if (found != variables.end())
    return found->second;
  std::string spelled = pythonVariableName(name);
  llvm::AllocaInst *slot = createEntryAlloca(memoryType(context, type), spelled);
  variables.emplace(slotName, slot);
  // debug=True: the user's variables (not the compiler's $temporaries) for debuggers; a
  // parameter's slot is made first, for the parameter itself (lower()).
  if (scope && options.debug && !variablesBorrowed && slotName != name) {
    const std::vector<Parameter> &parameters = function.source->parameters;
    unsigned argument = 0;
    for (size_t i = 0; i < parameters.size(); ++i)
      if (parameters[i].name == name)
        argument = static_cast<unsigned>(i + 1);
    unsigned line = scope->getLine();
    if (!argument)
      if (llvm::DILocation *current = builder.getCurrentDebugLocation())
        line = current->getLine();
    moduleLowering.describeVariable(scope, slot, spelled, argument, type, line);
  }
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
      containers().refuseAliasedDictCopy(target, stmt->value);
    const Type *valueType = typeOf(stmt->value);
    // `a[i] = b[j]` of fixed-width strings copies characters, making no string in between.
    llvm::Value *value = stmt->targets.size() == 1 && storesCharSequence(*this, stmt->targets[0])
                             ? lowerCharSequenceItem(*this, stmt->value, &valueType)
                             : nullptr;
    if (!value)
      value = lowerExpr(stmt->value);
    for (Expr *target : stmt->targets)
      lowerAssign(target, value, valueType);
    break;
  }
  case StmtKind::AugAssign: {
    Expr *target = stmt->targets[0];
    // The version of the target it reads (the target itself, or the version before it when it
    // starts one: syntax/VariableVersions.h). Updates in place keep one type for both, so the
    // two share a slot and the paths that update the object need not store it again.
    Expr *read = augmentedRead(stmt);
    if (!read->boundFlag.empty()) // the paths below may not read the name through lowerExpr
      lowerExpr(read);            // raises UnboundLocalError where nothing assigned it
    if (target->kind == ExprKind::Name && typeOf(read)->isSet()) {
      containers().lowerSetAugmentedAssign(stmt); // s |= t changes the set in place
      break;
    }
    bool dictItem = // d[k] += v (l[i] += v) reads d[k], then stores the result as d[k] = ... does
        target->kind == ExprKind::Subscript &&
        (typeOf(target->operands[0])->isDict() || isClassInstance(typeOf(target->operands[0])) ||
         (typeOf(target->operands[0])->isList() && target->operands[1]->kind != ExprKind::Slice));
    // An array value (a dict's too) is updated in place, as NumPy's `a += v` does.
    if ((!dictItem && (target->kind == ExprKind::Subscript || arrays().isRecordAccess(target))) ||
        typeOf(read)->isArray()) {
      arrays().lowerAugmentedStore(stmt);
      break;
    }
    // l += x, l *= n: the list entry typing recorded under the name (library/Lists.cpp)
    auto inPlace = function.libraryCalls.find(read->id);
    if (target->kind == ExprKind::Name && typeOf(read)->isList() &&
        inPlace != function.libraryCalls.end()) {
      lowerLibraryCall(inPlace->second);
      break;
    }
    // x += y of a user type: the operator's overload typing recorded under the name
    auto userOperator = function.calls.find(target->id);
    if (target->kind == ExprKind::Name && userOperator != function.calls.end()) {
      llvm::Value *result = lowerJitCall(target, userOperator->second);
      lowerAssign(target, result, userOperator->second.callee->returnType);
      break;
    }
    llvm::Value *current = lowerExpr(read);
    llvm::Value *value = lowerExpr(stmt->value);
    const Type *resultType =
        typeOf(read)->isString() || typeOf(stmt->value)->isString()
            ? types::unicode()
            : binaryResultType(stmt->augmentedOp, typeOf(read), typeOf(stmt->value));
    llvm::IRBuilderBase::FastMathFlagGuard keepFlags(builder);
    if (target->kind == ExprKind::Name && reassociatedReductions.count(target->name)) {
      llvm::FastMathFlags flags = builder.getFastMathFlags();
      flags.setAllowReassoc(); // only the update: `value` was computed as written
      builder.setFastMathFlags(flags);
    }
    llvm::Value *result = operators().lowerBinary(stmt->augmentedOp, current, typeOf(read), value,
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
    generators().lowerYield(stmt);
    break;
  case StmtKind::If:
    lowerIf(stmt);
    break;
  case StmtKind::While:
    loops().lowerWhile(stmt);
    break;
  case StmtKind::For:
    loops().lowerFor(stmt);
    break;
  case StmtKind::Break:
    releaseTemporariesOnJump(loopTargets.back().temporaryMark);
    exceptions().leaveByJump(loopTargets.back().breakTarget);
    break;
  case StmtKind::Continue:
    releaseTemporariesOnJump(loopTargets.back().temporaryMark);
    exceptions().leaveByJump(loopTargets.back().continueTarget);
    break;
  case StmtKind::Try:
    exceptions().lowerTry(stmt);
    break;
  case StmtKind::Pass: {
    if (!isVersionRelease(stmt))
      break;
    // Another version of the Python variable was assigned: this one's value is freed now, not
    // at the function's exit, and its slot emptied, so exits release it only once. A version
    // sharing the new one's slot was released by that store already.
    auto ended = function.variableTypes.find(stmt->targets[0]->name);
    const Type *type = ended == function.variableTypes.end() ? nullptr : ended->second;
    if (!type || !type->holdsReferences())
      break;
    llvm::Value *slot = variable(ended->first);
    auto assigned = function.variableTypes.find(stmt->targets[1]->name);
    if (assigned != function.variableTypes.end() && assigned->second &&
        variable(assigned->first) == slot)
      break;
    llvm::Type *stored = memoryType(context, type);
    llvm::Value *old = fromMemoryForm(builder, builder.CreateLoad(stored, slot), type);
    builder.CreateStore(llvm::Constant::getNullValue(stored), slot);
    decref(old, type);
    break;
  }
  case StmtKind::Raise:
    exceptions().lowerRaise(stmt);
    break;
  case StmtKind::Assert:
    exceptions().lowerAssert(stmt);
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
  if (target->kind == ExprKind::Attribute && isUserType(typeOf(target->operands[0]))) {
    // o.x = v of a user-defined type: the overload calling its lower_setattr(self, value)
    TypedFunction &callee = *function.calls.at(attributeSetterKey(target)).callee;
    callTypedFunction(callee, {lowerExpr(target->operands[0]),
                               castValue(value, valueType, callee.argumentTypes[1])});
    return;
  }
  if (arrays().isRecordAccess(target)) { // r.x = v, r['x'] = v
    arrays().lowerRecordStore(target, value, valueType);
    return;
  }
  if (target->kind == ExprKind::Subscript &&
      (isClassInstance(typeOf(target->operands[0])) || isUserType(typeOf(target->operands[0])))) {
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
      containers().lowerListStore(target, value, valueType);
    else if (typeOf(target->operands[0])->isDict())
      containers().lowerDictStore(target, value, valueType);
    else
      arrays().lowerArrayStore(target, value, valueType);
    return;
  }
  // Unpacking: the element values are taken before any target is written.
  std::vector<llvm::Value *> elements;
  std::vector<const Type *> elementTypes;
  if (valueType->isArray() || valueType->isList()) { // its length must match
    uint64_t count = target->operands.size();
    bool isList = valueType->isList();
    llvm::Value *length =
        isList ? containers().listLength(value) : arrays().arrayField(value, ArrayLayout::Shape, 0);
    exceptions().raiseIf(builder.CreateICmpUGT(length, builder.getInt64(count)), ValueErrorId,
                         "too many values to unpack (expected " + std::to_string(count) + ")");
    exceptions().raiseIf(builder.CreateICmpULT(length, builder.getInt64(count)), ValueErrorId,
                         "not enough values to unpack (expected " + std::to_string(count) + ")");
    for (uint64_t i = 0; i < count; ++i) {
      if (isList) { // items borrowed from the list: each target takes a reference of its own
        elements.push_back(containers().loadListItem(value, valueType, builder.getInt64(i)));
        elementTypes.push_back(valueType->itemType());
        continue;
      }
      elements.push_back(arrays().arrayRow(value, valueType, builder.getInt64(i)));
      elementTypes.push_back(arrays().arrayRowType(valueType));
    }
  } else {
    for (size_t i = 0; i < target->operands.size(); ++i) {
      elements.push_back(tupleElement(value, valueType, static_cast<unsigned>(i)));
      elementTypes.push_back(valueType->elements()[i]);
    }
  }
  for (size_t i = 0; i < target->operands.size(); ++i)
    lowerAssign(target->operands[i], elements[i], elementTypes[i]);
}

void FunctionLowering::lowerReturn(llvm::Value *value, const Type *type) {
  const Type *returnType = function.returnType;
  // A tuple holding compile-time values (a.dtype, a function) is stored too: its other items
  // are values the caller reads.
  if (value && (returnType->isRuntimeValue() || returnType->isTuple()) && !returnType->isNone()) {
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

void FunctionLowering::exitUnlessZero(llvm::Value *status) {
  exitIf(builder.CreateICmpNE(status, builder.getInt32(0)), status);
}

} // namespace taipan
