// Lists in compiled code: a list value is one pointer to a reference-counted block whose data is
// runtime::ListHeader. Items are read and written inline here; growth, copies and the release
// of held references are runtime calls (runtime/Lists.h). The list operations themselves are
// library entries (library/Lists.cpp) written with these helpers.
#include "lower/FunctionLowering.h"

#include "runtime/Lists.h"
#include "runtime/Runtime.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

namespace taipan {

ContainerLowering::ContainerLowering(FunctionLowering &core) : LoweringRoom(core) {}

llvm::Value *ContainerLowering::listRuntime(const char *name, llvm::Type *result,
                                            llvm::ArrayRef<llvm::Value *> arguments) {
  std::vector<llvm::Type *> parameters;
  for (llvm::Value *argument : arguments)
    parameters.push_back(argument->getType());
  return builder.CreateCall(moduleLowering.runtimeFunction(name, result, parameters), arguments);
}

llvm::Value *ContainerLowering::newList(const Type *listType, llvm::Value *count) {
  const Type *item = listType->itemType();
  std::vector<int64_t> offsets = types::referenceOffsets(item);
  if (static_cast<int64_t>(offsets.size()) > runtime::ListMaxReferences)
    throwUnsupported("a list of " + item->name() + " holds too many arrays or lists per item", {});
  llvm::Value *offsetTable = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!offsets.empty()) {
    auto *table = llvm::ConstantDataArray::get(context, llvm::ArrayRef<int64_t>(offsets));
    offsetTable =
        new llvm::GlobalVariable(moduleLowering.module, table->getType(), true,
                                 llvm::GlobalValue::PrivateLinkage, table, "list.references");
  }
  int64_t itemSize = item ? static_cast<int64_t>(item->storageSize()) : 0;
  llvm::Value *list = listRuntime("taipan_list_new", builder.getPtrTy(),
                                  {builder.getInt64(itemSize), count, offsetTable,
                                   builder.getInt64(static_cast<int64_t>(offsets.size()))});
  core.exitIf(builder.CreateIsNull(list), builder.getInt32(MemoryErrorId));
  core.addTemporary(list, listType);
  return list;
}

llvm::Value *ContainerLowering::listHeaderField(llvm::Value *list, size_t offset,
                                                llvm::Type *type) {
  llvm::Value *header = builder.CreateLoad(
      builder.getPtrTy(),
      builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), list, runtime::MemInfoDataOffset));
  return builder.CreateLoad(
      type, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), header, offset));
}

llvm::Value *ContainerLowering::listLength(llvm::Value *list) {
  return listHeaderField(list, runtime::ListSizeOffset, builder.getInt64Ty());
}

llvm::Value *ContainerLowering::listItemAddress(llvm::Value *list, const Type *listType,
                                                llvm::Value *index) {
  llvm::Value *items = listHeaderField(list, runtime::ListItemsOffset, builder.getPtrTy());
  return builder.CreateInBoundsGEP(memoryType(context, listType->itemType()), items, index);
}

llvm::Value *ContainerLowering::loadListItem(llvm::Value *list, const Type *listType,
                                             llvm::Value *index) {
  const Type *item = listType->itemType();
  return fromMemoryForm(
      builder,
      builder.CreateLoad(memoryType(context, item), listItemAddress(list, listType, index)), item);
}

void ContainerLowering::storeListItem(llvm::Value *list, const Type *listType, llvm::Value *index,
                                      llvm::Value *value, const Type *valueType) {
  const Type *item = listType->itemType();
  llvm::Value *owned = core.takeOwnership(core.castValue(value, valueType, item), item);
  builder.CreateStore(toMemoryForm(builder, owned, item), listItemAddress(list, listType, index));
  // A typed list may outlive the call: an array borrowed from an argument gets a block.
  if (!listType->isReflected() && types::holdsArray(item))
    listRuntime("taipan_list_adopt", builder.getVoidTy(), {list, index});
}

llvm::Value *ContainerLowering::listPosition(llvm::Value *index, const Type *indexType,
                                             llvm::Value *length, const char *message) {
  llvm::Value *position = core.castValue(index, indexType, types::int64());
  position = builder.CreateSelect(builder.CreateICmpSLT(position, builder.getInt64(0)),
                                  builder.CreateAdd(position, length), position);
  core.exceptions().raiseIf(builder.CreateICmpUGE(position, length), IndexErrorId, message);
  return position;
}

ContainerLowering::ListSlice ContainerLowering::listSlice(Expr *slice, llvm::Value *list) {
  llvm::Value *zero = builder.getInt64(0);
  auto part = [&](int i) -> llvm::Value * {
    Expr *bound = slice->operands[i];
    if (!bound || core.typeOf(bound)->isNone())
      return nullptr;
    return core.castValue(core.lowerExpr(bound), core.typeOf(bound), types::int64());
  };
  llvm::Value *startBound = part(0), *stopBound = part(1), *stepValue = part(2);
  if (stepValue)
    core.exceptions().raiseIf(builder.CreateICmpEQ(stepValue, zero), ValueErrorId,
                              "slice step cannot be zero");
  // The length after the bounds: a bound's own effects (an append) count, as in CPython.
  return adjustSlice(startBound, stopBound, stepValue, listLength(list));
}

ContainerLowering::ListSlice ContainerLowering::listSliceOfValue(llvm::Value *slice,
                                                                 llvm::Value *length) {
  // Every bound is present (None ones replaced as PySlice_Unpack does); a slice built in
  // compiled code may have a zero step, which raises here, where it is used, as in CPython.
  llvm::Value *step = builder.CreateExtractValue(slice, 2);
  core.exceptions().raiseIf(builder.CreateICmpEQ(step, builder.getInt64(0)), ValueErrorId,
                            "slice step cannot be zero");
  return adjustSlice(builder.CreateExtractValue(slice, 0), builder.CreateExtractValue(slice, 1),
                     step, length);
}

ContainerLowering::ListSlice ContainerLowering::adjustSlice(llvm::Value *startBound,
                                                            llvm::Value *stopBound,
                                                            llvm::Value *stepValue,
                                                            llvm::Value *length) {
  llvm::Value *zero = builder.getInt64(0);
  llvm::Value *one = builder.getInt64(1);
  llvm::Value *step = stepValue ? stepValue : one;
  llvm::Value *negative = builder.CreateICmpSLT(step, zero);
  auto adjust = [&](llvm::Value *value, llvm::Value *fallback) {
    if (!value)
      return fallback;
    llvm::Value *wrapped = builder.CreateAdd(value, length);
    llvm::Value *low = builder.CreateSelect(negative, builder.getInt64(-1), zero);
    llvm::Value *high = builder.CreateSelect(negative, builder.CreateSub(length, one), length);
    llvm::Value *fromNegative =
        builder.CreateSelect(builder.CreateICmpSLT(wrapped, zero), low, wrapped);
    llvm::Value *fromPositive =
        builder.CreateSelect(builder.CreateICmpSGE(value, length), high, value);
    return builder.CreateSelect(builder.CreateICmpSLT(value, zero), fromNegative, fromPositive);
  };
  ListSlice result;
  result.start =
      adjust(startBound, builder.CreateSelect(negative, builder.CreateSub(length, one), zero));
  llvm::Value *stop =
      adjust(stopBound, builder.CreateSelect(negative, builder.getInt64(-1), length));
  llvm::Value *up = builder.CreateSDiv(
      builder.CreateAdd(builder.CreateSub(stop, result.start), builder.CreateSub(step, one)), step);
  llvm::Value *down =
      builder.CreateSDiv(builder.CreateAdd(builder.CreateSub(result.start, stop),
                                           builder.CreateSub(builder.CreateNeg(step), one)),
                         builder.CreateNeg(step));
  llvm::Value *count = builder.CreateSelect(negative, down, up);
  result.count = builder.CreateSelect(builder.CreateICmpSGT(count, zero), count, zero);
  result.step = step;
  result.stop = stop;
  return result;
}

llvm::Value *ContainerLowering::lowerListLiteral(Expr *expr) {
  if (moduleLowering.target.hasThreadHierarchy())
    throwUnsupported("lists are not supported on the GPU (they run on the CPU)", expr->location);
  const Type *listType = core.typeOf(expr);
  std::vector<llvm::Value *> items;
  for (Expr *operand : expr->operands)
    items.push_back(core.lowerExpr(operand));
  llvm::Value *list = newList(listType, builder.getInt64(static_cast<int64_t>(items.size())));
  for (size_t i = 0; i < items.size(); ++i)
    storeListItem(list, listType, builder.getInt64(static_cast<int64_t>(i)), items[i],
                  core.typeOf(expr->operands[i]));
  return list;
}

llvm::Value *ContainerLowering::lowerComprehension(Expr *expr) {
  // The loop's statements release their own temporaries only: the enclosing statement's stay.
  core.lowerBlock(expr->statements);
  core.ensureOpenBlock();
  const Type *type = core.typeOf(expr);
  llvm::Type *stored = memoryType(context, type);
  llvm::Value *slot = core.variable(expr->name);
  llvm::Value *value = fromMemoryForm(builder, builder.CreateLoad(stored, slot, expr->name), type);
  if (type->holdsReferences()) {
    // The list moves out of the hidden variable, so it dies with the statement if unused.
    builder.CreateStore(llvm::Constant::getNullValue(stored), slot);
    core.addTemporary(value, type);
  }
  return value;
}

llvm::Value *ContainerLowering::convertList(llvm::Value *list, const Type *from, const Type *to) {
  // `[]` (no item type yet) becomes an empty list of the items it was later given; a list of
  // numbers becomes a new list of the unified item type (`l = [1]` then `l.append(2.5)`).
  if (!from->itemType())
    return newList(to, builder.getInt64(0));
  if (!to->isReflected() || !from->isReflected())
    // A copy would split one typed list into two (its other names keep the old one).
    throwTypingError("cannot convert a " + from->name() + " to a " + to->name() +
                         ": a typed list's item type is fixed",
                     {});
  llvm::Value *length = listLength(list);
  llvm::Value *result = newList(to, length);
  core.arrays().forEachIndex({length}, [&](const std::vector<llvm::Value *> &at) {
    storeListItem(result, to, at[0], loadListItem(list, from, at[0]), from->itemType());
  });
  return result;
}

void ContainerLowering::lowerListStore(Expr *target, llvm::Value *value, const Type *valueType) {
  Expr *base = target->operands[0];
  Expr *index = target->operands[1];
  const Type *listType = core.typeOf(base);
  llvm::Value *list = core.lowerExpr(base);
  bool sliceValue = core.typeOf(index)->kind() == TypeKind::Slice;
  if (index->kind != ExprKind::Slice && !sliceValue) {
    // The index first, then the length it is checked against (the index may change the list).
    llvm::Value *at = core.lowerExpr(index);
    llvm::Value *position = listPosition(at, core.typeOf(index), listLength(list),
                                         "list assignment index out of range");
    listRuntime("taipan_list_release", builder.getVoidTy(),
                {list, position, builder.CreateAdd(position, builder.getInt64(1))});
    storeListItem(list, listType, position, value, valueType);
    return;
  }
  // l[a:b] = other: the items of a copy of other (it may be l itself) replace the slice.
  ListSlice slice = sliceValue ? listSliceOfValue(core.lowerExpr(index), listLength(list))
                               : listSlice(index, list);
  llvm::Value *source;
  if (valueType != listType) {
    source = convertList(value, valueType, listType);
  } else {
    source = listRuntime("taipan_list_slice", builder.getPtrTy(),
                         {value, builder.getInt64(0), builder.getInt64(1), listLength(value)});
    core.exitIf(builder.CreateIsNull(source), builder.getInt32(MemoryErrorId));
    core.addTemporary(source, listType);
  }
  valueType = listType;
  llvm::Value *count = listLength(source);
  llvm::Value *simple = builder.CreateICmpEQ(slice.step, builder.getInt64(1));
  llvm::BasicBlock *contiguous = core.newBlock("listslice.simple");
  llvm::BasicBlock *extended = core.newBlock("listslice.extended");
  llvm::BasicBlock *done = core.newBlock("listslice.done");
  builder.CreateCondBr(simple, contiguous, extended);
  builder.SetInsertPoint(contiguous);
  {
    // Replace [start, max(start, stop)) by the source's items.
    llvm::Value *stop = builder.CreateSelect(builder.CreateICmpSLT(slice.stop, slice.start),
                                             slice.start, slice.stop);
    listRuntime("taipan_list_erase", builder.getVoidTy(), {list, slice.start, stop});
    core.exitUnlessZero(
        listRuntime("taipan_list_open", builder.getInt32Ty(), {list, slice.start, count}));
    core.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *item = loadListItem(source, valueType, at[0]);
      core.incref(item, listType->itemType());
      builder.CreateStore(toMemoryForm(builder, item, listType->itemType()),
                          listItemAddress(list, listType, builder.CreateAdd(slice.start, at[0])));
    });
    builder.CreateBr(done);
  }
  builder.SetInsertPoint(extended);
  {
    std::string message = "attempt to assign sequence of wrong size to extended slice";
    core.exceptions().raiseIf(builder.CreateICmpNE(count, slice.count), ValueErrorId, message);
    core.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *position = builder.CreateAdd(slice.start, builder.CreateMul(at[0], slice.step));
      listRuntime("taipan_list_release", builder.getVoidTy(),
                  {list, position, builder.CreateAdd(position, builder.getInt64(1))});
      llvm::Value *item = loadListItem(source, valueType, at[0]);
      core.incref(item, listType->itemType());
      builder.CreateStore(toMemoryForm(builder, item, listType->itemType()),
                          listItemAddress(list, listType, position));
    });
    builder.CreateBr(done);
  }
  builder.SetInsertPoint(done);
}

} // namespace taipan
