// Dicts in compiled code: a dict value is one pointer to a reference-counted block whose data is
// runtime::DictHeader. The runtime hashes, compares and stores keys and values given by address
// (runtime/Dicts.h); these helpers convert values into those stack copies and read the slots
// back. The dict operations themselves are library entries (library/Dicts.cpp).
#include "lower/FunctionLowering.h"

#include "lower/LowerTypes.h"
#include "runtime/Dicts.h"
#include "runtime/Runtime.h"
#include "support/CompileError.h"
#include "syntax/VariableVersions.h"
#include "typing/DictTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

namespace taipan {

void ContainerLowering::requireDictTypes(const Type *dictType, SourceLocation location) {
  if (!dictType->keyType())
    throwTypingError("cannot infer the key and value types of an empty dict; store into it, or "
                     "build it with items",
                     location);
}

llvm::Value *ContainerLowering::newDict(const Type *dictType) {
  if (moduleLowering.target.hasThreadHierarchy())
    throwUnsupported("dicts are not supported on the GPU (they run on the CPU)", {});
  std::vector<int64_t> layout = dictRuntimeLayout(dictType);
  if (layout.empty())
    throwUnsupported("a " + dictType->name() +
                         " holds too many arrays, strings or lists per "
                         "entry",
                     {});
  auto *table = llvm::ConstantDataArray::get(context, llvm::ArrayRef<int64_t>(layout));
  auto *global = new llvm::GlobalVariable(moduleLowering.module, table->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, table, "dict.layout");
  llvm::Value *dict = listRuntime("taipan_dict_new", builder.getPtrTy(), {global});
  core.exitIf(builder.CreateIsNull(dict), builder.getInt32(MemoryErrorId));
  core.addTemporary(dict, dictType);
  return dict;
}

llvm::Value *ContainerLowering::dictLength(llvm::Value *dict) {
  return listHeaderField(dict, runtime::DictSizeOffset, builder.getInt64Ty());
}

llvm::Value *ContainerLowering::dictKeyAddress(llvm::Value *key, const Type *keyType,
                                               const Type *dictType) {
  const Type *expected = dictType->keyType();
  llvm::Value *converted = core.castValue(key, keyType, expected);
  llvm::Value *slot = core.createEntryAlloca(memoryType(context, expected), "dict.key");
  builder.CreateStore(toMemoryForm(builder, converted, expected), slot);
  return slot;
}

void ContainerLowering::storeDictItem(llvm::Value *dict, const Type *dictType, llvm::Value *key,
                                      const Type *keyType, llvm::Value *value,
                                      const Type *valueType) {
  const Type *expected = dictType->valueType();
  llvm::Value *keySlot = dictKeyAddress(key, keyType, dictType);
  llvm::Value *owned = core.takeOwnership(core.castValue(value, valueType, expected), expected);
  llvm::Value *valueSlot = core.createEntryAlloca(memoryType(context, expected), "dict.value");
  builder.CreateStore(toMemoryForm(builder, owned, expected), valueSlot);
  // The dict may outlive the call (a typed.Dict): an array borrowed from an argument gets a
  // block.
  if (types::holdsArray(expected))
    listRuntime("taipan_dict_adopt", builder.getVoidTy(), {dict, valueSlot});
  core.exitUnlessZero(
      listRuntime("taipan_dict_set", builder.getInt32Ty(), {dict, keySlot, valueSlot}));
}

llvm::Value *ContainerLowering::loadDictValue(llvm::Value *address, const Type *dictType) {
  const Type *value = dictType->valueType();
  return fromMemoryForm(builder, builder.CreateLoad(memoryType(context, value), address), value);
}

const Type *ContainerLowering::dictListType(const Type *dictType, int which) {
  const Type *key = dictType->keyType();
  const Type *value = dictType->valueType();
  if (!key)
    return types::list(nullptr);
  return types::list(which == 0 ? key : which == 1 ? value : types::tuple({key, value}));
}

llvm::Value *ContainerLowering::dictToList(llvm::Value *dict, const Type *dictType, int which) {
  const Type *listType = dictListType(dictType, which);
  const Type *item = listType->itemType();
  if (!item)
    return newList(listType, builder.getInt64(0));
  int64_t keyAt = which == 0 ? 0 : which == 2 ? static_cast<int64_t>(item->elementOffset(0)) : -1;
  int64_t valueAt = which == 1 ? 0 : which == 2 ? static_cast<int64_t>(item->elementOffset(1)) : -1;
  std::vector<int64_t> offsets = types::referenceOffsets(item);
  llvm::Value *offsetTable = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!offsets.empty()) {
    auto *table = llvm::ConstantDataArray::get(context, llvm::ArrayRef<int64_t>(offsets));
    offsetTable =
        new llvm::GlobalVariable(moduleLowering.module, table->getType(), true,
                                 llvm::GlobalValue::PrivateLinkage, table, "dict.references");
  }
  llvm::Value *list =
      listRuntime("taipan_dict_to_list", builder.getPtrTy(),
                  {dict, builder.getInt64(static_cast<int64_t>(item->storageSize())),
                   builder.getInt64(keyAt), builder.getInt64(valueAt), offsetTable,
                   builder.getInt64(static_cast<int64_t>(offsets.size()))});
  core.exitIf(builder.CreateIsNull(list), builder.getInt32(MemoryErrorId));
  core.addTemporary(list, listType);
  return list;
}

void ContainerLowering::forEachDictEntry(
    llvm::Value *dict, const Type *dictType,
    const std::function<void(llvm::Value *key, llvm::Value *value)> &body) {
  if (!dictType->keyType())
    return;
  llvm::Value *used = listHeaderField(dict, runtime::DictUsedOffset, builder.getInt64Ty());
  core.arrays().forEachIndex({used}, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *keyAddress =
        listRuntime("taipan_dict_entry", builder.getPtrTy(), {dict, at[0], builder.getInt32(0)});
    llvm::BasicBlock *live = core.newBlock("dict.live");
    llvm::BasicBlock *next = core.newBlock("dict.next");
    builder.CreateCondBr(builder.CreateIsNull(keyAddress), next, live);
    builder.SetInsertPoint(live);
    const Type *key = dictType->keyType();
    llvm::Value *keyValue =
        fromMemoryForm(builder, builder.CreateLoad(memoryType(context, key), keyAddress), key);
    llvm::Value *valueAddress =
        listRuntime("taipan_dict_entry", builder.getPtrTy(), {dict, at[0], builder.getInt32(1)});
    size_t mark = core.temporaries.size(); // what one entry's body makes lives for that entry
    body(keyValue, loadDictValue(valueAddress, dictType));
    core.releaseTemporaries(mark);
    builder.CreateBr(next);
    builder.SetInsertPoint(next);
  });
}

void ContainerLowering::lowerDictFor(Stmt *stmt, llvm::Value *dict, const Type *type) {
  const Type *dictType = type->isDict() ? type : type->viewedDict();
  int which = type->isDict() ? 0 : type->viewKind();
  // The loop holds the dict (the body may rebind the name it came from), as CPython's iterator
  // does; released with the statement's temporaries.
  core.incref(dict, type);
  core.addTemporary(dict, type);
  llvm::BasicBlock *orelse = core.newBlock("dictfor.else");
  llvm::BasicBlock *end = core.newBlock("dictfor.end");
  if (!dictType->keyType()) { // `{}` never stored into: no items
    builder.CreateBr(orelse);
  } else {
    llvm::Type *i64 = builder.getInt64Ty();
    // CPython's dictiterobject: the position in the entry array, the size at the start, and
    // how many items are still expected (more means keys changed during the iteration).
    llvm::AllocaInst *position = core.createEntryAlloca(i64, "dictfor.position");
    llvm::AllocaInst *remaining = core.createEntryAlloca(i64, "dictfor.remaining");
    llvm::Value *initialSize = dictLength(dict);
    builder.CreateStore(builder.getInt64(0), position);
    builder.CreateStore(initialSize, remaining);
    llvm::BasicBlock *header = core.newBlock("dictfor.next");
    llvm::BasicBlock *look = core.newBlock("dictfor.look");
    llvm::BasicBlock *found = core.newBlock("dictfor.found");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    core.exceptions().raiseIf(builder.CreateICmpNE(dictLength(dict), initialSize), RuntimeErrorId,
                              "dictionary changed size during iteration");
    builder.CreateBr(look);
    builder.SetInsertPoint(look); // skips deleted entries
    llvm::Value *index = builder.CreateLoad(i64, position);
    llvm::Value *used = listHeaderField(dict, runtime::DictUsedOffset, i64);
    llvm::BasicBlock *entry = core.newBlock("dictfor.entry");
    builder.CreateCondBr(builder.CreateICmpSGE(index, used), orelse, entry);
    builder.SetInsertPoint(entry);
    builder.CreateStore(builder.CreateAdd(index, builder.getInt64(1)), position);
    llvm::Value *keyAddress =
        listRuntime("taipan_dict_entry", builder.getPtrTy(), {dict, index, builder.getInt32(0)});
    builder.CreateCondBr(builder.CreateIsNull(keyAddress), look, found);
    builder.SetInsertPoint(found);
    llvm::Value *left = builder.CreateLoad(i64, remaining);
    core.exceptions().raiseIf(builder.CreateICmpSLE(left, builder.getInt64(0)), RuntimeErrorId,
                              "dictionary keys changed during iteration");
    builder.CreateStore(builder.CreateSub(left, builder.getInt64(1)), remaining);
    const Type *key = dictType->keyType();
    llvm::Value *keyValue =
        fromMemoryForm(builder, builder.CreateLoad(memoryType(context, key), keyAddress), key);
    llvm::Value *item = keyValue;
    const Type *itemType = key;
    if (which != 0) {
      llvm::Value *valueAddress =
          listRuntime("taipan_dict_entry", builder.getPtrTy(), {dict, index, builder.getInt32(1)});
      llvm::Value *value = loadDictValue(valueAddress, dictType);
      itemType = which == 1 ? dictType->valueType() : type->viewItemType();
      item = which == 1 ? value : core.lowerTuple({keyValue, value}, itemType);
    }
    size_t mark = core.temporaries.size();
    core.lowerAssign(stmt->targets[0], item, itemType); // retains what it keeps of the entry
    core.releaseTemporaries(mark);
    core.loops().lowerLoopBody(stmt->body, header, end);
  }
  core.loops().lowerLoopElse(stmt->orelse, orelse, end);
}

llvm::Value *ContainerLowering::convertDict(llvm::Value *dict, const Type *from, const Type *to) {
  llvm::Value *result = newDict(to);
  forEachDictEntry(dict, from, [&](llvm::Value *key, llvm::Value *value) {
    storeDictItem(result, to, key, from->keyType(), value, from->valueType());
  });
  return result;
}

void ContainerLowering::refuseAliasedDictCopy(Expr *target, Expr *value) {
  const Type *from = core.typeOf(value);
  if (target->kind != ExprKind::Name || value->kind != ExprKind::Name ||
      !(from->isDict() || from->isSet()) || core.typeOf(target) == from)
    return;
  std::string targetName = pythonVariableName(target->name);
  throwTypingError("'" + targetName + " = " + pythonVariableName(value->name) +
                       "' would copy the " + from->name() + " into a " +
                       core.typeOf(target)->name() + " (later stores widen '" + targetName +
                       "'), so changes through one name would not show through "
                       "the other; store values of one type",
                   target->location);
}

void ContainerLowering::lowerDictStore(Expr *target, llvm::Value *value, const Type *valueType) {
  Expr *base = target->operands[0];
  Expr *index = target->operands[1];
  const Type *dictType = core.typeOf(base);
  requireDictTypes(dictType, target->location);
  llvm::Value *dict = core.lowerExpr(base);
  storeDictItem(dict, dictType, core.lowerExpr(index), core.typeOf(index), value, valueType);
}

} // namespace taipan
