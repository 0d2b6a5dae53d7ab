// A function pass removing pairs of reference-count calls that cancel: an increment of a block
// followed, in one basic block or across a dominating/post-dominating pair of blocks, by a
// decrement of the same block with nothing in between that could release memory.
#pragma once

#include <llvm/IR/PassManager.h>

namespace taipan {

/// Calls of taipan_nrt_incref(p) ... taipan_nrt_decref(p) on the same value p are removed in
/// pairs when no instruction between them may release a block (a decrement of another value, a
/// call that writes memory): the count is then never read between the two, so neither changes
/// what the program does. The pair is looked for in one basic block, and between a block's last
/// increments and a later block's first decrements when the first block dominates the second,
/// the second post-dominates the first, no path between may release a block and neither is
/// entered again without the other (a loop body's views taken before an inner loop and dropped
/// after it). Calls on a null constant are removed too: the runtime ignores null, and lowering
/// leaves the calls unguarded so that straight-line code stays one block. Inlining leaves many
/// such pairs (a callee takes a reference to each argument it is given and drops it on return),
/// each two calls into the runtime with atomic updates; removing them is what Numba's refcount
/// pruning does per block and across diamonds.
class RefcountPruningPass : public llvm::PassInfoMixin<RefcountPruningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace taipan
