// Removes reference-count increments and decrements that cancel within a basic block.
#include "target/RefcountPruning.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace taipan {
namespace {

enum class RefcountCall { None, Increment, Decrement };

RefcountCall refcountCall(const llvm::CallInst *call) {
  const llvm::Function *callee = call->getCalledFunction();
  if (!callee || call->arg_size() != 1)
    return RefcountCall::None;
  llvm::StringRef name = callee->getName();
  if (name == "taipan_nrt_incref")
    return RefcountCall::Increment;
  if (name == "taipan_nrt_decref")
    return RefcountCall::Decrement;
  return RefcountCall::None;
}

/// Whether `instruction` may release a block (and so ends every pending increment's chance of
/// being paired): calls other than increments that may write memory. Intrinsics such as
/// lifetime markers and calls that only read memory cannot.
bool mayRelease(const llvm::Instruction &instruction) {
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
  if (!call)
    return false;
  if (llvm::isa<llvm::DbgInfoIntrinsic>(call) || call->onlyReadsMemory())
    return false;
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call))
    return !intrinsic->isAssumeLikeIntrinsic();
  return true;
}

bool pruneBlock(llvm::BasicBlock &block) {
  // The increments not yet paired, by the value they count, latest last.
  llvm::DenseMap<llvm::Value *, llvm::SmallVector<llvm::CallInst *, 2>> pending;
  llvm::SmallVector<llvm::CallInst *, 16> removed;
  for (llvm::Instruction &instruction : block) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    RefcountCall kind = call ? refcountCall(call) : RefcountCall::None;
    if (kind == RefcountCall::Increment) {
      pending[call->getArgOperand(0)->stripPointerCasts()].push_back(call);
      continue;
    }
    if (kind == RefcountCall::Decrement) {
      auto found = pending.find(call->getArgOperand(0)->stripPointerCasts());
      if (found != pending.end() && !found->second.empty()) {
        removed.push_back(found->second.pop_back_val());
        removed.push_back(call);
        continue;
      }
      pending.clear(); // it may release a block another pending increment counts
      continue;
    }
    if (mayRelease(instruction))
      pending.clear();
  }
  for (llvm::CallInst *call : removed)
    call->eraseFromParent();
  return !removed.empty();
}

} // namespace

llvm::PreservedAnalyses RefcountPruningPass::run(llvm::Function &function,
                                                 llvm::FunctionAnalysisManager &) {
  bool changed = false;
  for (llvm::BasicBlock &block : function)
    changed |= pruneBlock(block);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace taipan
