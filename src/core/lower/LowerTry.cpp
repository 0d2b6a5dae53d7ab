// Lowering of try/except/else/finally. Exits are routed: inside a try body a failing status
// branches to the statement's handlers instead of the unwind block, and returns, breaks and
// continues leaving a finally's protection run a copy of the finally block on their way out.
#include "lower/FunctionLowering.h"

#include "runtime/Runtime.h"
#include "typing/TryTyping.h"

#include <llvm/IR/MDBuilder.h>

namespace taipan {

llvm::FunctionCallee ExceptionLowering::exceptionRuntime(const char *name) {
  if (std::string(name) == "taipan_exception_matches")
    return moduleLowering.runtimeFunction(name, builder.getInt32Ty(), {builder.getInt32Ty()});
  return moduleLowering.runtimeFunction(name, builder.getVoidTy(), {});
}

std::pair<llvm::BasicBlock *, llvm::PHINode *> ExceptionLowering::exceptionDestination() {
  if (core.routes.empty())
    return {core.unwindBlock, core.unwindStatus};
  return {core.routes.back().exceptionBlock, core.routes.back().exceptionStatus};
}

void ExceptionLowering::emitCleanupOutside(size_t index, const std::function<void()> &then) {
  FunctionLowering::ExitRoute route = core.routes[index];
  // The cleanup is code of the try statement, not of what it encloses: only the routes and
  // loops outside it are active while it is emitted (a break in a finally leaves the loop
  // around the try).
  std::vector<FunctionLowering::ExitRoute> inner(core.routes.begin() + index, core.routes.end());
  core.routes.resize(index);
  std::vector<FunctionLowering::LoopTargets> innerLoops(core.loopTargets.begin() + route.loopDepth,
                                                        core.loopTargets.end());
  core.loopTargets.resize(route.loopDepth);
  route.cleanup();
  if (!builder.GetInsertBlock()->getTerminator())
    then();
  core.loopTargets.insert(core.loopTargets.end(), innerLoops.begin(), innerLoops.end());
  core.routes.insert(core.routes.end(), inner.begin(), inner.end());
}

void ExceptionLowering::leaveByReturn(llvm::Value *status) {
  size_t index = core.routes.size();
  while (index > 0 && !core.routes[index - 1].cleanup)
    --index;
  if (index == 0) {
    core.unwindStatus->addIncoming(status, builder.GetInsertBlock());
    builder.CreateBr(core.unwindBlock);
    return;
  }
  // The returned value is in the result already; a return in the finally block replaces it.
  emitCleanupOutside(index - 1, [&] { core.exitFunction(status); });
}

void ExceptionLowering::leaveByJump(llvm::BasicBlock *destination) {
  // A route begun outside the innermost loop is not crossed by its break or continue.
  size_t index = core.routes.size();
  while (index > 0 && core.routes[index - 1].loopDepth >= core.loopTargets.size() &&
         !core.routes[index - 1].cleanup)
    --index;
  if (index == 0 || core.routes[index - 1].loopDepth < core.loopTargets.size()) {
    builder.CreateBr(destination);
    return;
  }
  emitCleanupOutside(index - 1, [&] { leaveByJump(destination); });
}

std::vector<unsigned> ExceptionLowering::heldTemporarySlots() const {
  std::vector<unsigned> held;
  for (const FunctionLowering::Temporary &temporary : core.temporaries)
    held.insert(held.end(), temporary.slots.begin(), temporary.slots.end());
  return held;
}

void ExceptionLowering::releaseTemporarySlotsExcept(const std::vector<unsigned> &kept) {
  // Slots not held by enclosing statements are null unless the interrupted statement filled
  // them; those values die here, exactly once, and the slots are empty again for the handler.
  for (unsigned slot = 0; slot < core.temporarySlots.size(); ++slot) {
    if (std::find(kept.begin(), kept.end(), slot) != kept.end())
      continue;
    core.decrefBlock(builder.CreateLoad(builder.getPtrTy(), core.temporarySlots[slot]));
    builder.CreateStore(llvm::ConstantPointerNull::get(builder.getPtrTy()),
                        core.temporarySlots[slot]);
  }
}

size_t ExceptionLowering::beginHandler() {
  builder.CreateCall(exceptionRuntime("taipan_catch"));
  llvm::BasicBlock *raised = llvm::BasicBlock::Create(context, "handler.raised");
  llvm::PHINode *status = llvm::PHINode::Create(builder.getInt32Ty(), 2, "status", raised);
  core.routes.push_back({raised, status,
                         [this] { builder.CreateCall(exceptionRuntime("taipan_end_catch")); },
                         core.loopTargets.size()});
  return core.routes.size() - 1;
}

void ExceptionLowering::endHandler(size_t index) {
  FunctionLowering::ExitRoute route = core.routes[index];
  core.routes.resize(index);
  if (!builder.GetInsertBlock()->getTerminator())
    builder.CreateCall(exceptionRuntime("taipan_end_catch"));
  if (route.exceptionStatus->getNumIncomingValues() == 0) {
    delete route.exceptionBlock;
    return;
  }
  // An exception leaving the handler replaces the one it handled.
  llvm::IRBuilderBase::InsertPointGuard guard(builder);
  route.exceptionBlock->insertInto(target);
  builder.SetInsertPoint(route.exceptionBlock);
  builder.CreateCall(exceptionRuntime("taipan_end_catch"));
  core.exitFunction(route.exceptionStatus);
}

void ExceptionLowering::lowerTry(Stmt *stmt) {
  if (moduleLowering.target.hasThreadHierarchy())
    throwUnsupported("try statements are not supported in CUDA kernels", stmt->location);
  if (stmt->finalbody.empty()) {
    lowerTryExcept(stmt);
    return;
  }
  std::vector<unsigned> held = heldTemporarySlots();
  llvm::BasicBlock *raised = llvm::BasicBlock::Create(context, "finally.raised");
  llvm::PHINode *status = llvm::PHINode::Create(builder.getInt32Ty(), 2, "status", raised);
  core.routes.push_back({raised, status, [this, stmt] { core.lowerBlock(stmt->finalbody); },
                         core.loopTargets.size()});
  lowerTryExcept(stmt);
  core.routes.pop_back();
  llvm::BasicBlock *end = core.newBlock("try.end");
  if (!builder.GetInsertBlock()->getTerminator()) {
    core.lowerBlock(stmt->finalbody);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateBr(end);
  }
  if (status->getNumIncomingValues() == 0) {
    delete raised;
  } else {
    // The finally block runs for the exception as a handler would, then raises it again.
    raised->insertInto(target);
    builder.SetInsertPoint(raised);
    releaseTemporarySlotsExcept(held);
    size_t route = beginHandler();
    core.lowerBlock(stmt->finalbody);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateCall(exceptionRuntime("taipan_reraise"));
    endHandler(route);
    if (!builder.GetInsertBlock()->getTerminator())
      core.exitFunction(status);
  }
  builder.SetInsertPoint(end);
}

void ExceptionLowering::lowerTryExcept(Stmt *stmt) {
  if (stmt->handlers.empty()) { // try/finally: lowerTry routes the exits
    core.lowerBlock(stmt->body);
    return;
  }
  std::vector<unsigned> held = heldTemporarySlots();
  llvm::BasicBlock *dispatch = llvm::BasicBlock::Create(context, "try.dispatch");
  llvm::PHINode *status = llvm::PHINode::Create(builder.getInt32Ty(), 4, "status", dispatch);
  core.routes.push_back({dispatch, status, {}, core.loopTargets.size()});
  core.lowerBlock(stmt->body);
  core.routes.pop_back();
  llvm::BasicBlock *end = core.newBlock("try.end");
  // The else block runs when the body completed; its exceptions are not this try's to catch.
  if (!builder.GetInsertBlock()->getTerminator()) {
    core.lowerBlock(stmt->orelse);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateBr(end);
  }
  if (status->getNumIncomingValues() == 0) {
    delete dispatch;
    builder.SetInsertPoint(end);
    return;
  }
  dispatch->insertInto(target);
  builder.SetInsertPoint(dispatch);
  releaseTemporarySlotsExcept(held);
  for (const ExceptHandler &handler : stmt->handlers) {
    llvm::Value *matches = nullptr;
    for (Expr *named : handlerClasses(handler)) {
      llvm::Value *call = builder.CreateCall(exceptionRuntime("taipan_exception_matches"),
                                             {exceptionIdValue(core.typeOf(named)->exceptionId())});
      llvm::Value *match = builder.CreateICmpNE(call, builder.getInt32(0));
      matches = matches ? builder.CreateOr(matches, match) : match;
    }
    llvm::BasicBlock *body = core.newBlock("except");
    llvm::BasicBlock *next = nullptr;
    if (matches) {
      next = core.newBlock("except.next");
      builder.CreateCondBr(matches, body, next);
    } else {
      builder.CreateBr(body); // a bare except catches everything
    }
    builder.SetInsertPoint(body);
    size_t route = beginHandler();
    ++core.handlerDepth;
    core.lowerBlock(handler.body);
    --core.handlerDepth;
    endHandler(route);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateBr(end);
    if (!next) { // later clauses are never reached
      builder.SetInsertPoint(end);
      return;
    }
    builder.SetInsertPoint(next);
  }
  core.exitFunction(status); // no clause matched: the exception goes on, still pending
  builder.SetInsertPoint(end);
}

} // namespace taipan
