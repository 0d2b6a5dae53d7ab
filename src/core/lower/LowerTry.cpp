// Lowering of try/except/else/finally. Exits are routed: inside a try body a failing status
// branches to the statement's handlers instead of the unwind block, and returns, breaks and
// continues leaving a finally's protection run a copy of the finally block on their way out.
#include "lower/FunctionLowering.h"

#include "runtime/Runtime.h"
#include "typing/TryTyping.h"

#include <llvm/IR/MDBuilder.h>

namespace taipan {

llvm::FunctionCallee FunctionLowering::exceptionRuntime(const char *name) {
  if (std::string(name) == "taipan_exception_matches")
    return moduleLowering.runtimeFunction(name, builder.getInt32Ty(), {builder.getInt32Ty()});
  return moduleLowering.runtimeFunction(name, builder.getVoidTy(), {});
}

std::pair<llvm::BasicBlock *, llvm::PHINode *> FunctionLowering::exceptionDestination() {
  if (routes.empty())
    return {unwindBlock, unwindStatus};
  return {routes.back().exceptionBlock, routes.back().exceptionStatus};
}

void FunctionLowering::emitCleanupOutside(size_t index, const std::function<void()> &then) {
  ExitRoute route = routes[index];
  // The cleanup is code of the try statement, not of what it encloses: only the routes and
  // loops outside it are active while it is emitted (a break in a finally leaves the loop
  // around the try).
  std::vector<ExitRoute> inner(routes.begin() + index, routes.end());
  routes.resize(index);
  std::vector<LoopTargets> innerLoops(loops.begin() + route.loopDepth, loops.end());
  loops.resize(route.loopDepth);
  route.cleanup();
  if (!builder.GetInsertBlock()->getTerminator())
    then();
  loops.insert(loops.end(), innerLoops.begin(), innerLoops.end());
  routes.insert(routes.end(), inner.begin(), inner.end());
}

void FunctionLowering::leaveByReturn(llvm::Value *status) {
  size_t index = routes.size();
  while (index > 0 && !routes[index - 1].cleanup)
    --index;
  if (index == 0) {
    unwindStatus->addIncoming(status, builder.GetInsertBlock());
    builder.CreateBr(unwindBlock);
    return;
  }
  // The returned value is in the result already; a return in the finally block replaces it.
  emitCleanupOutside(index - 1, [&] { exitFunction(status); });
}

void FunctionLowering::leaveByJump(llvm::BasicBlock *destination) {
  // A route begun outside the innermost loop is not crossed by its break or continue.
  size_t index = routes.size();
  while (index > 0 && routes[index - 1].loopDepth >= loops.size() && !routes[index - 1].cleanup)
    --index;
  if (index == 0 || routes[index - 1].loopDepth < loops.size()) {
    builder.CreateBr(destination);
    return;
  }
  emitCleanupOutside(index - 1, [&] { leaveByJump(destination); });
}

std::vector<unsigned> FunctionLowering::heldTemporarySlots() const {
  std::vector<unsigned> held;
  for (const Temporary &temporary : temporaries)
    held.insert(held.end(), temporary.slots.begin(), temporary.slots.end());
  return held;
}

void FunctionLowering::releaseTemporarySlotsExcept(const std::vector<unsigned> &kept) {
  // Slots not held by enclosing statements are null unless the interrupted statement filled
  // them; those values die here, exactly once, and the slots are empty again for the handler.
  for (unsigned slot = 0; slot < temporarySlots.size(); ++slot) {
    if (std::find(kept.begin(), kept.end(), slot) != kept.end())
      continue;
    decrefBlock(builder.CreateLoad(builder.getPtrTy(), temporarySlots[slot]));
    builder.CreateStore(llvm::ConstantPointerNull::get(builder.getPtrTy()), temporarySlots[slot]);
  }
}

size_t FunctionLowering::beginHandler() {
  builder.CreateCall(exceptionRuntime("taipan_catch"));
  llvm::BasicBlock *raised = llvm::BasicBlock::Create(context, "handler.raised");
  llvm::PHINode *status = llvm::PHINode::Create(builder.getInt32Ty(), 2, "status", raised);
  routes.push_back({raised, status,
                    [this] { builder.CreateCall(exceptionRuntime("taipan_end_catch")); },
                    loops.size()});
  return routes.size() - 1;
}

void FunctionLowering::endHandler(size_t index) {
  ExitRoute route = routes[index];
  routes.resize(index);
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
  exitFunction(route.exceptionStatus);
}

void FunctionLowering::lowerTry(Stmt *stmt) {
  if (moduleLowering.target.hasThreadHierarchy())
    throwUnsupported("try statements are not supported in CUDA kernels", stmt->location);
  if (stmt->finalbody.empty()) {
    lowerTryExcept(stmt);
    return;
  }
  std::vector<unsigned> held = heldTemporarySlots();
  llvm::BasicBlock *raised = llvm::BasicBlock::Create(context, "finally.raised");
  llvm::PHINode *status = llvm::PHINode::Create(builder.getInt32Ty(), 2, "status", raised);
  routes.push_back({raised, status, [this, stmt] { lowerBlock(stmt->finalbody); }, loops.size()});
  lowerTryExcept(stmt);
  routes.pop_back();
  llvm::BasicBlock *end = newBlock("try.end");
  if (!builder.GetInsertBlock()->getTerminator()) {
    lowerBlock(stmt->finalbody);
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
    lowerBlock(stmt->finalbody);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateCall(exceptionRuntime("taipan_reraise"));
    endHandler(route);
    if (!builder.GetInsertBlock()->getTerminator())
      exitFunction(status);
  }
  builder.SetInsertPoint(end);
}

void FunctionLowering::lowerTryExcept(Stmt *stmt) {
  if (stmt->handlers.empty()) { // try/finally: lowerTry routes the exits
    lowerBlock(stmt->body);
    return;
  }
  std::vector<unsigned> held = heldTemporarySlots();
  llvm::BasicBlock *dispatch = llvm::BasicBlock::Create(context, "try.dispatch");
  llvm::PHINode *status = llvm::PHINode::Create(builder.getInt32Ty(), 4, "status", dispatch);
  routes.push_back({dispatch, status, {}, loops.size()});
  lowerBlock(stmt->body);
  routes.pop_back();
  llvm::BasicBlock *end = newBlock("try.end");
  // The else block runs when the body completed; its exceptions are not this try's to catch.
  if (!builder.GetInsertBlock()->getTerminator()) {
    lowerBlock(stmt->orelse);
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
                                             {exceptionIdValue(typeOf(named)->exceptionId())});
      llvm::Value *match = builder.CreateICmpNE(call, builder.getInt32(0));
      matches = matches ? builder.CreateOr(matches, match) : match;
    }
    llvm::BasicBlock *body = newBlock("except");
    llvm::BasicBlock *next = nullptr;
    if (matches) {
      next = newBlock("except.next");
      builder.CreateCondBr(matches, body, next);
    } else {
      builder.CreateBr(body); // a bare except catches everything
    }
    builder.SetInsertPoint(body);
    size_t route = beginHandler();
    ++handlerDepth;
    lowerBlock(handler.body);
    --handlerDepth;
    endHandler(route);
    if (!builder.GetInsertBlock()->getTerminator())
      builder.CreateBr(end);
    if (!next) { // later clauses are never reached
      builder.SetInsertPoint(end);
      return;
    }
    builder.SetInsertPoint(next);
  }
  exitFunction(status); // no clause matched: the exception goes on, still pending
  builder.SetInsertPoint(end);
}

} // namespace taipan
