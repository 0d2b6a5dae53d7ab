// Removes reference-count increments and decrements that cancel within a basic block.
#include "target/RefcountPruning.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <optional>
#include <utility>

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

/// Pairs increments with later decrements along one path of straight-line code.
class PathPruner {
public:
  /// Pairs `instruction`, a decrement, with the latest pending increment of the same value;
  /// records an increment as pending; forgets them all at anything that may release a block.
  void visit(llvm::Instruction &instruction) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    RefcountCall kind = call ? refcountCall(call) : RefcountCall::None;
    if (kind == RefcountCall::Increment) {
      pending[call->getArgOperand(0)->stripPointerCasts()].push_back(call);
      return;
    }
    if (kind == RefcountCall::Decrement) {
      auto found = pending.find(call->getArgOperand(0)->stripPointerCasts());
      if (found != pending.end() && !found->second.empty()) {
        removed.push_back(found->second.pop_back_val());
        removed.push_back(call);
        return;
      }
      pending.clear(); // it may release a block another pending increment counts
      return;
    }
    if (mayRelease(instruction))
      pending.clear();
  }

  bool erase() {
    for (llvm::CallInst *call : removed)
      call->eraseFromParent();
    return !removed.empty();
  }

private:
  // The increments not yet paired, by the value they count, latest last.
  llvm::DenseMap<llvm::Value *, llvm::SmallVector<llvm::CallInst *, 2>> pending;
  llvm::SmallVector<llvm::CallInst *, 16> removed;
};

/// For `block` ending in `br (p == null or p != null), ...` where one successor holds only a
/// reference-count call on p and falls through to the other successor, which has no other
/// predecessor: that call and the block where the path continues (lowering's `callUnlessNull`).
/// The runtime's calls do nothing for null, so the guarded call acts as an unguarded one on the
/// path.
std::optional<std::pair<llvm::CallInst *, llvm::BasicBlock *>>
guardedCall(llvm::BasicBlock &block) {
  auto *branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
  if (!branch || !branch->isConditional())
    return std::nullopt;
  auto *test = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
  if (!test || !test->isEquality() || !llvm::isa<llvm::ConstantPointerNull>(test->getOperand(1)))
    return std::nullopt;
  llvm::Value *pointer = test->getOperand(0)->stripPointerCasts();
  for (unsigned side = 0; side < 2; ++side) {
    llvm::BasicBlock *guarded = branch->getSuccessor(side);
    llvm::BasicBlock *join = branch->getSuccessor(1 - side);
    if (guarded == join || guarded->size() != 2 || !guarded->getSinglePredecessor() ||
        guarded->getSingleSuccessor() != join || !join->hasNPredecessors(2))
      continue;
    auto *call = llvm::dyn_cast<llvm::CallInst>(&guarded->front());
    if (!call || refcountCall(call) == RefcountCall::None ||
        call->getArgOperand(0)->stripPointerCasts() != pointer)
      continue;
    return std::make_pair(call, join);
  }
  return std::nullopt;
}

bool prunePath(llvm::BasicBlock &start) {
  PathPruner pruner;
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> seen; // a path through a loop stops where it began
  for (llvm::BasicBlock *block = &start; block && seen.insert(block).second;) {
    for (llvm::Instruction &instruction : *block)
      pruner.visit(instruction);
    auto guarded = guardedCall(*block);
    if (!guarded)
      break;
    pruner.visit(*guarded->first);
    block = guarded->second;
  }
  return pruner.erase();
}

} // namespace

llvm::PreservedAnalyses RefcountPruningPass::run(llvm::Function &function,
                                                 llvm::FunctionAnalysisManager &) {
  bool changed = false;
  for (llvm::BasicBlock &block : function)
    changed |= prunePath(block);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace taipan
