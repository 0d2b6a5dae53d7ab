// Long functions lowered in segments: runs of top-level statements outlined into functions of
// their own, which share the parent's variables through their addresses. LLVM's function
// passes grow faster than the function (dominator walks, instcombine's poison queries), so a
// 6,400-statement body compiles faster as several bodies of a few hundred statements.
#include "lower/FunctionLowering.h"
#include "lower/VariableSlots.h"

#include <llvm/IR/MDBuilder.h>

#include <set>

namespace taipan {
namespace {

/// A body this long (statements, nested ones included) is lowered in segments...
constexpr int SegmentedFunctionStatements = 2000;
/// ...each of at least this many statements.
constexpr int SegmentStatements = 600;

int statementCount(const std::vector<Stmt *> &block) {
  int count = 0;
  for (const Stmt *stmt : block)
    count += 1 + statementCount(stmt->body) + statementCount(stmt->orelse);
  return count;
}

} // namespace

bool FunctionLowering::lowerInSegments(const std::vector<Stmt *> &body) {
  if (statementCount(body) < SegmentedFunctionStatements || options.debug ||
      options.optimizationLevel == 0)
    return false;
  // Runs of top-level statements, cut where a run has enough statements; a run ends early at
  // a statement after which control cannot go on (the rest is dead and never typed).
  std::vector<std::vector<Stmt *>> segments(1);
  int size = 0;
  for (Stmt *stmt : body) {
    segments.back().push_back(stmt);
    size += 1 + statementCount(stmt->body) + statementCount(stmt->orelse);
    if (!statementCompletes(function, stmt))
      break;
    if (size >= SegmentStatements) {
      segments.emplace_back();
      size = 0;
    }
  }
  if (segments.back().empty())
    segments.pop_back();
  if (segments.size() < 2)
    return false;

  // The frame: the address of every variable, in one order both sides know.
  std::vector<std::string> names;
  std::set<std::string> slots; // versions of one type share a slot (lower/VariableSlots.h)
  for (auto &[name, type] : function.variableTypes)
    if (type && slots.insert(variableSlotName(name, type)).second)
      names.push_back(name);
  llvm::Type *pointer = builder.getPtrTy();
  llvm::ArrayType *frameType = llvm::ArrayType::get(pointer, names.size());
  llvm::AllocaInst *frame = createEntryAlloca(frameType, "segment.frame");
  for (size_t i = 0; i < names.size(); ++i)
    builder.CreateStore(variable(names[i]), builder.CreateConstInBoundsGEP2_32(
                                                frameType, frame, 0, static_cast<unsigned>(i)));
  auto *segmentType =
      llvm::FunctionType::get(builder.getInt32Ty(), {target->getArg(0)->getType(), pointer}, false);
  for (size_t index = 0; index < segments.size(); ++index) {
    llvm::Function *outlined = llvm::Function::Create(
        segmentType, llvm::GlobalValue::InternalLinkage,
        target->getName() + ".segment" + std::to_string(index), moduleLowering.module);
    // Inlined back, the segments would make the one long function again.
    outlined->addFnAttr(llvm::Attribute::NoInline);
    {
      FunctionLowering segment(moduleLowering, function, outlined);
      segment.variablesBorrowed = true;
      segment.beginBody();
      llvm::IRBuilder<> &segmentBuilder = segment.builder;
      // The segment works on local copies of the variables, taken from the frame on entry and
      // written back at its exit. Through the frame's addresses, which LLVM cannot tell apart,
      // every store would clobber every variable: no value would stay in a register from one
      // statement to the next, and the optimised segments were twice the size of the same
      // statements in one function.
      std::vector<std::pair<llvm::AllocaInst *, llvm::Value *>> copies;
      for (size_t i = 0; i < names.size(); ++i) {
        llvm::Value *shared = segmentBuilder.CreateLoad(
            pointer, segmentBuilder.CreateConstInBoundsGEP2_32(frameType, outlined->getArg(1), 0,
                                                               static_cast<unsigned>(i)));
        llvm::Type *stored = memoryType(context, function.variableTypes.at(names[i]));
        llvm::AllocaInst *local = segment.createEntryAlloca(stored, names[i]);
        segmentBuilder.CreateStore(segmentBuilder.CreateLoad(stored, shared), local);
        segment.variables[variableSlotName(names[i], function.variableTypes.at(names[i]))] = local;
        copies.emplace_back(local, shared);
      }
      segment.lowerBlock(segments[index]);
      if (!segmentBuilder.GetInsertBlock()->getTerminator())
        segment.exitFunction(segmentBuilder.getInt32(0));
      segment.emitUnwindBlock();
      // Every exit (end, return, exception) leaves through a return: the variables, with the
      // references they hold, go back to the frame before each.
      for (llvm::BasicBlock &block : *outlined)
        if (auto *exit = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator())) {
          llvm::IRBuilder<> writeBack(exit);
          for (auto &[local, shared] : copies)
            writeBack.CreateStore(writeBack.CreateLoad(local->getAllocatedType(), local), shared);
        }
    }
    ensureOpenBlock();
    llvm::Value *status = builder.CreateCall(outlined, {target->getArg(0), frame});
    // 0: go on with the next segment; returned: the value is in the result slot already.
    llvm::BasicBlock *next = newBlock("segment.next");
    llvm::BasicBlock *leave = newBlock("segment.leave");
    builder.CreateCondBr(builder.CreateICmpEQ(status, builder.getInt32(0)), next, leave,
                         llvm::MDBuilder(context).createBranchWeights(1 << 20, 1));
    builder.SetInsertPoint(leave);
    llvm::Value *returned = builder.CreateICmpEQ(status, builder.getInt32(ReturnedFromSegment));
    exitFunction(builder.CreateSelect(returned, builder.getInt32(0), status));
    builder.SetInsertPoint(next);
  }
  if (!statementCompletes(function, segments.back().back()))
    builder.CreateUnreachable(); // the last segment always returned or raised
  return true;
}

} // namespace taipan
