// A function pass removing pairs of reference-count calls that cancel: an increment of a block
// followed, along straight-line code, by a decrement of the same block with nothing in between
// that could release memory.
#pragma once

#include <llvm/IR/PassManager.h>

namespace taipan {

/// Calls of taipan_nrt_incref(p) ... taipan_nrt_decref(p) on the same value p along one path of
/// straight-line code are removed in pairs when no instruction between them may release a block
/// (a decrement of another value, a call that writes memory): the count is then never read
/// between the two, so neither changes what the program does. The path runs through a basic
/// block and on through the null tests lowering puts around each call (`if (p) incref(p)`:
/// the runtime's calls do nothing for null, so a guarded call acts as an unguarded one).
/// Inlining leaves many such pairs (a callee takes a reference to each argument it is given and
/// drops it on return), each two calls into the runtime with atomic updates; removing them is
/// what Numba's refcount pruning does per block and across such diamonds.
class RefcountPruningPass : public llvm::PassInfoMixin<RefcountPruningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace taipan
