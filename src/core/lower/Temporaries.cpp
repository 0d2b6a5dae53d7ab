// Temporaries and reference counting: the memory blocks a value holds, increments and
// decrements, and the slots through which the unwind block releases what a statement made.
#include "lower/FunctionLowering.h"
#include "types/UserTypes.h"

#include <llvm/IR/Constants.h>

namespace taipan {

void FunctionLowering::collectBlocks(llvm::Value *value, const Type *type,
                                     std::vector<llvm::Value *> &blocks) {
  if (type->isArray()) {
    blocks.push_back(arrays().arrayField(value, ArrayLayout::MemInfo));
  } else if (type->isBlockReference()) {
    blocks.push_back(value);
  } else if (type->isTuple()) {
    for (size_t i = 0; i < type->elements().size(); ++i)
      if (type->elements()[i]->holdsReferences())
        collectBlocks(builder.CreateExtractValue(value, static_cast<unsigned>(i)),
                      type->elements()[i], blocks);
  } else if (isUserType(type) && type->holdsReferences()) {
    // A user type's value is its data model's (lower/LowerTypes): a StructModel's members.
    collectBlocks(value, userTypeLayout(type), blocks);
  } else if (type->isOptional() && type->holdsReferences()) {
    // None's payload is zero: its blocks are null, which reference counting skips.
    collectBlocks(
        fromMemoryForm(builder, builder.CreateExtractValue(value, 1), type->optionalValue()),
        type->optionalValue(), blocks);
  }
}

void FunctionLowering::incref(llvm::Value *value, const Type *type) {
  std::vector<llvm::Value *> blocks;
  collectBlocks(value, type, blocks);
  for (llvm::Value *block : blocks)
    callUnlessNull("taipan_nrt_incref", block);
}

void FunctionLowering::decref(llvm::Value *value, const Type *type) {
  std::vector<llvm::Value *> blocks;
  collectBlocks(value, type, blocks);
  for (llvm::Value *block : blocks)
    decrefBlock(block);
}

void FunctionLowering::decrefBlock(llvm::Value *block) {
  callUnlessNull("taipan_nrt_decref", block);
}

void FunctionLowering::callUnlessNull(const char *runtimeName, llvm::Value *block) {
  // Arrays from Python and gufunc views have no block; the runtime's calls do nothing for null.
  // The call is left unguarded so that straight-line code stays one basic block, where
  // RefcountPruning pairs an increment with its decrement; it also drops the calls whose
  // argument folds to null after inlining.
  if (llvm::isa<llvm::ConstantPointerNull>(block))
    return;
  builder.CreateCall(
      moduleLowering.runtimeFunction(runtimeName, builder.getVoidTy(), {builder.getPtrTy()}),
      {block});
}

unsigned FunctionLowering::acquireTemporarySlot() {
  if (!freeTemporarySlots.empty()) {
    unsigned slot = freeTemporarySlots.back();
    freeTemporarySlots.pop_back();
    return slot;
  }
  // Null from the function's start, so the unwind block may read it on any path.
  llvm::BasicBlock &entry = target->getEntryBlock();
  llvm::IRBuilder<> entryBuilder(&entry, entry.begin());
  llvm::AllocaInst *slot = entryBuilder.CreateAlloca(builder.getPtrTy(), nullptr, "temporary");
  entryBuilder.CreateStore(llvm::ConstantPointerNull::get(builder.getPtrTy()), slot);
  temporarySlots.push_back(slot);
  return static_cast<unsigned>(temporarySlots.size() - 1);
}

void FunctionLowering::clearTemporarySlots(const FunctionLowering::Temporary &temporary) {
  for (unsigned slot : temporary.slots) {
    builder.CreateStore(llvm::ConstantPointerNull::get(builder.getPtrTy()), temporarySlots[slot]);
    freeTemporarySlots.push_back(slot);
  }
}

void FunctionLowering::addTemporary(llvm::Value *value, const Type *type) {
  if (!type->holdsReferences())
    return;
  FunctionLowering::Temporary temporary{value, type, {}};
  std::vector<llvm::Value *> blocks;
  collectBlocks(value, type, blocks);
  for (llvm::Value *block : blocks) {
    unsigned slot = acquireTemporarySlot();
    builder.CreateStore(block, temporarySlots[slot]);
    temporary.slots.push_back(slot);
  }
  temporaries.push_back(std::move(temporary));
}

llvm::Value *FunctionLowering::takeOwnership(llvm::Value *value, const Type *type) {
  if (!type->holdsReferences())
    return value;
  for (auto it = temporaries.rbegin(); it != temporaries.rend(); ++it) {
    if (it->value == value) {
      clearTemporarySlots(*it);
      temporaries.erase(std::next(it).base());
      return value;
    }
  }
  incref(value, type);
  return value;
}

void FunctionLowering::releaseTemporaries(size_t mark) {
  if (temporaries.size() <= mark)
    return;
  ensureOpenBlock();
  // Through the slots rather than the values: a temporary made in one arm of a conditional
  // expression does not dominate the end of its statement, and its slot is null on the other.
  for (size_t i = temporaries.size(); i-- > mark;) {
    for (unsigned slot : temporaries[i].slots)
      decrefBlock(builder.CreateLoad(builder.getPtrTy(), temporarySlots[slot]));
    clearTemporarySlots(temporaries[i]);
  }
  temporaries.resize(mark);
}

void FunctionLowering::releaseTemporariesOnJump(size_t mark) {
  for (size_t i = mark; i < temporaries.size(); ++i)
    for (unsigned slot : temporaries[i].slots) {
      decrefBlock(builder.CreateLoad(builder.getPtrTy(), temporarySlots[slot]));
      builder.CreateStore(llvm::ConstantPointerNull::get(builder.getPtrTy()), temporarySlots[slot]);
    }
}

} // namespace taipan
