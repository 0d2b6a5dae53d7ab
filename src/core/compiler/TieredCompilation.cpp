// Tiered compilation: a lowered module qualifies for a level-0 first tier when its calls run
// for a bounded time (no loops, no recursion) and it is large enough for the tier to pay.
#include "compiler/TieredCompilation.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

namespace taipan {
namespace {

/// Whether some function the module defines reaches itself through direct calls (recursion),
/// or makes a call whose callee is not known (it could be anything, a loop included).
bool callsMayRecurse(const llvm::Module &module) {
  enum class Visit { Unseen, Open, Done };
  llvm::DenseMap<const llvm::Function *, Visit> state;
  bool unbounded = false;
  // Depth first over the defined callees; a callee still open is on the current path.
  auto visit = [&](auto &self, const llvm::Function &function) -> void {
    state[&function] = Visit::Open;
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &instruction : block) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (!call || unbounded)
          continue;
        const llvm::Function *callee = call->getCalledFunction();
        if (!callee) {
          unbounded = !call->isInlineAsm();
          continue;
        }
        if (callee->isDeclaration())
          continue; // the runtime and libm: precompiled, their speed is not the tier's
        Visit seen = state.lookup(callee);
        if (seen == Visit::Open)
          unbounded = true;
        else if (seen == Visit::Unseen)
          self(self, *callee);
      }
    state[&function] = Visit::Done;
  };
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && state.lookup(&function) == Visit::Unseen && !unbounded)
      visit(visit, function);
  return unbounded;
}

} // namespace

bool qualifiesForFirstTier(const llvm::Module &module) {
  size_t instructions = 0;
  for (const llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::SmallVector<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, 4> backEdges;
    llvm::FindFunctionBackedges(function, backEdges);
    if (!backEdges.empty())
      return false;
    instructions += function.getInstructionCount();
  }
  return instructions >= FirstTierMinimumInstructions && !callsMayRecurse(module);
}

} // namespace taipan
