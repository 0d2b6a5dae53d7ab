// Removes reference-count increments and decrements that cancel: within a basic block, and
// between a block and a later one that it dominates and that post-dominates it.
#include "target/RefcountPruning.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <iterator>

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
/// being paired): calls other than increments that may write memory. Calls that only read
/// memory cannot, nor can intrinsics: they run no code of ours (a `memset` that zeroes an
/// output, a lifetime marker), so no block's count changes in them. Nor can the runtime's
/// raise functions, which only record the pending exception (a ZeroDivisionError check in a
/// loop would otherwise keep the loop's pairs).
bool mayRelease(const llvm::Instruction &instruction) {
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
  if (!call || call->onlyReadsMemory() || llvm::isa<llvm::IntrinsicInst>(call))
    return false;
  const llvm::Function *callee = call->getCalledFunction();
  llvm::StringRef name = callee ? callee->getName() : "";
  return name != "taipan_raise" && name != "taipan_raise_index_error" &&
         name != "taipan_raise_printed";
}

/// Pairs increments with later decrements in one basic block.
class BlockPruner {
public:
  /// Pairs `instruction`, a decrement, with the latest pending increment of the same value;
  /// records an increment as pending; forgets them all at anything that may release a block.
  void visit(llvm::Instruction &instruction) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    RefcountCall kind = call ? refcountCall(call) : RefcountCall::None;
    if (kind != RefcountCall::None &&
        llvm::isa<llvm::ConstantPointerNull>(call->getArgOperand(0)->stripPointerCasts())) {
      removed.push_back(call); // the runtime does nothing for null
      return;
    }
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

/// Blocks reachable from `from`'s successors without entering `stop`.
llvm::SmallPtrSet<llvm::BasicBlock *, 16> reachableBefore(llvm::BasicBlock *from,
                                                          llvm::BasicBlock *stop) {
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> seen;
  llvm::SmallVector<llvm::BasicBlock *, 16> work(llvm::successors(from));
  while (!work.empty()) {
    llvm::BasicBlock *block = work.pop_back_val();
    if (block == stop || !seen.insert(block).second)
      continue;
    work.append(llvm::succ_begin(block), llvm::succ_end(block));
  }
  return seen;
}

bool mayReleaseAnything(llvm::BasicBlock &block) {
  for (llvm::Instruction &instruction : block) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    RefcountCall kind = call ? refcountCall(call) : RefcountCall::None;
    if (kind == RefcountCall::Decrement || (kind == RefcountCall::None && mayRelease(instruction)))
      return true;
  }
  return false;
}

/// Pairs the increments at the end of `from` (after anything that may release a block) with
/// decrements at the start of a later block `to` that `from` dominates and that post-dominates
/// `from`, where nothing on the paths between may release a block and neither block is
/// entered again without the other: each execution of the increment is then followed by one
/// of the decrement with the count never read between (a loop body's references to the arrays
/// it views, taken before an inner loop and dropped after it).
bool pruneAcross(llvm::BasicBlock &from, const llvm::DominatorTree &dominators,
                 const llvm::PostDominatorTree &postDominators) {
  llvm::SmallVector<llvm::CallInst *, 8> increments;
  for (llvm::Instruction &instruction : from) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    RefcountCall kind = call ? refcountCall(call) : RefcountCall::None;
    if (kind == RefcountCall::Increment)
      increments.push_back(call);
    else if (kind == RefcountCall::Decrement || mayRelease(instruction))
      increments.clear();
  }
  if (increments.empty())
    return false;
  const llvm::DomTreeNode *node = postDominators.getNode(&from);
  for (node = node ? node->getIDom() : nullptr; node && node->getBlock(); node = node->getIDom()) {
    llvm::BasicBlock *to = node->getBlock();
    if (!dominators.dominates(&from, to))
      return false;
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> between = reachableBefore(&from, to);
    if (between.count(&from))
      return false;
    for (llvm::BasicBlock *block : between)
      if (mayReleaseAnything(*block))
        return false;
    if (reachableBefore(to, &from).count(to)) { // a loop of its own: look further down
      if (mayReleaseAnything(*to))
        return false;
      continue;
    }
    llvm::SmallVector<llvm::CallInst *, 16> removed;
    for (llvm::Instruction &instruction : *to) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      RefcountCall kind = call ? refcountCall(call) : RefcountCall::None;
      if (kind == RefcountCall::Increment)
        continue;
      if (kind == RefcountCall::None) {
        if (mayRelease(instruction))
          break;
        continue;
      }
      llvm::Value *pointer = call->getArgOperand(0)->stripPointerCasts();
      auto match = llvm::find_if(llvm::reverse(increments), [&](llvm::CallInst *increment) {
        return increment->getArgOperand(0)->stripPointerCasts() == pointer;
      });
      if (match == increments.rend())
        break; // an unpaired decrement may release what a pending increment counts
      removed.push_back(*match);
      removed.push_back(call);
      increments.erase(std::next(match).base());
    }
    if (!removed.empty()) {
      for (llvm::CallInst *call : removed)
        call->eraseFromParent();
      return true;
    }
    if (mayReleaseAnything(*to))
      return false;
  }
  return false;
}

bool pruneBlock(llvm::BasicBlock &block) {
  BlockPruner pruner;
  for (llvm::Instruction &instruction : block)
    pruner.visit(instruction);
  return pruner.erase();
}

} // namespace

llvm::PreservedAnalyses RefcountPruningPass::run(llvm::Function &function,
                                                 llvm::FunctionAnalysisManager &analyses) {
  bool changed = false;
  for (llvm::BasicBlock &block : function)
    changed |= pruneBlock(block);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto &postDominators = analyses.getResult<llvm::PostDominatorTreeAnalysis>(function);
  for (llvm::BasicBlock &block : function)
    changed |= pruneAcross(block, dominators, postDominators);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace taipan
