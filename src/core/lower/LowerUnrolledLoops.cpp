// Lowering of `for x in literal_unroll(t)` over a tuple of items of different types: the copies
// of the body typing made (TypedFunction::unrolledLoops), one after the other, each given its
// item; `continue` goes on to the next copy and `break` past the last.
#include "lower/FunctionLowering.h"

#include "syntax/LoopUnrolling.h"

namespace taipan {

bool LoopLowering::lowerUnrolledLoop(Stmt *stmt) {
  auto found = function.unrolledLoops.find(stmt);
  if (found == function.unrolledLoops.end())
    return false;
  const UnrolledLoop &loop = found->second;
  const Type *tupleType = core.typeOf(loop.container);
  // The tuple lives to the end of the statement (a temporary of the for statement).
  llvm::Value *tuple = core.lowerExpr(loop.container);
  llvm::BasicBlock *end = core.newBlock("unroll.end");
  for (size_t i = 0; i < loop.copies.size(); ++i) {
    const UnrolledLoopCopy &copy = *loop.copies[i];
    llvm::BasicBlock *next = core.newBlock("unroll.next");
    // An item typed as a string literal needs no value: its type is its value.
    if (loop.itemTypes[i]->isRuntimeValue()) {
      const Type *itemType = tupleType->elements()[i];
      core.lowerAssign(copy.target, core.tupleElement(tuple, tupleType, static_cast<unsigned>(i)),
                       itemType);
    }
    lowerLoopBody(copy.body, next, end);
    builder.SetInsertPoint(next);
  }
  lowerLoopElse(stmt->orelse, nullptr, end); // reached only when no copy broke out
  return true;
}

} // namespace taipan
