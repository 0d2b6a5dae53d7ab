// Sets in compiled code: a set value is one pointer to a reference-counted block whose data is
// runtime::SetHeader. The runtime hashes, compares and stores keys given by address
// (runtime/Sets.h); these helpers convert values into those stack copies. The set operations
// themselves are library entries (library/Sets.cpp).
#include "lower/FunctionLowering.h"

#include "lower/LowerTypes.h"
#include "runtime/Runtime.h"
#include "runtime/Sets.h"
#include "support/CompileError.h"
#include "syntax/VariableVersions.h"
#include "typing/SetTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

namespace taipan {

void ContainerLowering::requireSetType(const Type *setType, SourceLocation location) {
  if (!setType->keyType())
    throwTypingError("cannot infer the key type of an empty set; add to it, or build it with "
                     "items",
                     location);
}

llvm::Value *ContainerLowering::newSet(const Type *setType) {
  if (moduleLowering.target.hasThreadHierarchy())
    throwUnsupported("sets are not supported on the GPU (they run on the CPU)", {});
  std::vector<int64_t> layout = setLayout(setType);
  if (layout.empty())
    throwUnsupported("a " + setType->name() + " holds too many strings per key", {});
  auto *table = llvm::ConstantDataArray::get(context, llvm::ArrayRef<int64_t>(layout));
  auto *global = new llvm::GlobalVariable(moduleLowering.module, table->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, table, "set.layout");
  llvm::Value *set = listRuntime("taipan_set_new", builder.getPtrTy(), {global});
  core.exitIf(builder.CreateIsNull(set), builder.getInt32(MemoryErrorId));
  core.addTemporary(set, setType);
  return set;
}

llvm::Value *ContainerLowering::setLength(llvm::Value *set) {
  return listHeaderField(set, runtime::SetSizeOffset, builder.getInt64Ty());
}

llvm::Value *ContainerLowering::setKeyAddress(llvm::Value *key, const Type *keyType,
                                              const Type *setType) {
  const Type *expected = setType->keyType();
  llvm::Value *converted = core.castValue(key, keyType, expected);
  llvm::Value *slot = core.createEntryAlloca(memoryType(context, expected), "set.key");
  builder.CreateStore(toMemoryForm(builder, converted, expected), slot);
  return slot;
}

void ContainerLowering::addToSet(llvm::Value *set, const Type *setType, llvm::Value *key,
                                 const Type *keyType) {
  llvm::Value *address = setKeyAddress(key, keyType, setType);
  core.exitUnlessZero(listRuntime("taipan_set_add", builder.getInt32Ty(), {set, address}));
}

void ContainerLowering::addAllToSet(llvm::Value *set, const Type *setType, llvm::Value *iterable,
                                    const Type *iterableType) {
  if ((iterableType->isSet() && !iterableType->keyType()) ||
      (iterableType->isList() && !iterableType->itemType()))
    return; // `set()` or `[]`: nothing to add
  if (iterableType->isSet() && iterableType->keyType() == setType->keyType()) { // set_merge
    core.exitUnlessZero(listRuntime("taipan_set_combine_into", builder.getInt32Ty(),
                                    {set, iterable, builder.getInt32(runtime::SetUnion)}));
    return;
  }
  core.loops().forEachItem(iterable, iterableType, [&](llvm::Value *item, const Type *itemType) {
    addToSet(set, setType, item, itemType);
  });
}

llvm::Value *ContainerLowering::asSet(llvm::Value *iterable, const Type *iterableType,
                                      const Type *setType) {
  if (iterableType->isSet() && iterableType->keyType() == setType->keyType())
    return iterable; // a set or a frozenset of the keys: the same block
  llvm::Value *set = newSet(setType);
  addAllToSet(set, setType, iterable, iterableType);
  return set;
}

llvm::Value *ContainerLowering::setToList(llvm::Value *set, const Type *setType) {
  const Type *listType = types::list(setType->keyType());
  if (!setType->keyType())
    return newList(listType, builder.getInt64(0));
  std::vector<int64_t> offsets = types::referenceOffsets(setType->keyType());
  llvm::Value *offsetTable = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!offsets.empty()) {
    auto *table = llvm::ConstantDataArray::get(context, llvm::ArrayRef<int64_t>(offsets));
    offsetTable =
        new llvm::GlobalVariable(moduleLowering.module, table->getType(), true,
                                 llvm::GlobalValue::PrivateLinkage, table, "set.references");
  }
  llvm::Value *list =
      listRuntime("taipan_set_to_list", builder.getPtrTy(),
                  {set, offsetTable, builder.getInt64(static_cast<int64_t>(offsets.size()))});
  core.exitIf(builder.CreateIsNull(list), builder.getInt32(MemoryErrorId));
  core.addTemporary(list, listType);
  return list;
}

void ContainerLowering::lowerSetAugmentedAssign(Stmt *stmt) {
  Expr *target = stmt->targets[0];
  const Type *setType = core.typeOf(target);
  const Type *valueType = core.typeOf(stmt->value);
  llvm::Value *set = core.lowerExpr(augmentedRead(stmt)); // the version it reads
  llvm::Value *value = core.lowerExpr(stmt->value);
  if (!setType->keyType())
    return; // set() |= set(): nothing changes
  runtime::SetOperation operation = runtime::SetUnion;
  if (stmt->augmentedOp == BinaryOp::BitAnd)
    operation = runtime::SetIntersection;
  else if (stmt->augmentedOp == BinaryOp::Sub)
    operation = runtime::SetDifference;
  else if (stmt->augmentedOp == BinaryOp::BitXor)
    operation = runtime::SetSymmetricDifference;
  llvm::Value *other = asSet(value, valueType, setType);
  if (setType->isFrozen()) {
    // A frozenset cannot change: `f |= s` is `f = f | s`, a new frozenset, as in CPython.
    llvm::Value *result = listRuntime("taipan_set_combine", builder.getPtrTy(),
                                      {set, other, builder.getInt32(operation)});
    core.exitIf(builder.CreateIsNull(result), builder.getInt32(MemoryErrorId));
    core.addTemporary(result, setType);
    core.lowerAssign(target, result, setType);
    return;
  }
  core.exitUnlessZero(listRuntime("taipan_set_combine_into", builder.getInt32Ty(),
                                  {set, other, builder.getInt32(operation)}));
}

llvm::Value *ContainerLowering::convertSet(llvm::Value *set, const Type *from, const Type *to) {
  llvm::Value *result = newSet(to);
  addAllToSet(result, to, set, from);
  return result;
}

} // namespace taipan
