// Dict views in compiled code: d.keys(), d.values() and d.items() as live views of the dict
// (the view is the dict's block), `in` on them and the set operators of keys views. `len`,
// truth and for loops over a view read the dict as it is then (lower/LowerDicts.cpp); every
// other use takes a list of the view's items made at that moment.
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"
#include "typing/DictTyping.h"
#include "typing/SetTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// `x in view`: a key is looked up; a value is compared with each value in order; a (key,
/// value) pair looks up its key and compares the value found, as CPython's dictitems_contains.
llvm::Value *lowerViewContains(LoweringApi &lowering, const LibraryCall &call, llvm::Value *item,
                               llvm::Value *view) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *itemType = call.argumentTypes[0];
  const Type *viewType = call.argumentTypes[1];
  const Type *dict = viewType->viewedDict();
  if (!dict->keyType())
    return builder.getInt1(false);
  if (viewType->viewKind() == 0)
    return builder.CreateIsNotNull(lowering.containers().listRuntime(
        "taipan_dict_get", builder.getPtrTy(),
        {view, lowering.containers().dictKeyAddress(item, itemType, dict)}));
  if (viewType->viewKind() == 1) {
    llvm::AllocaInst *found = lowering.createEntryAlloca(builder.getInt1Ty(), "view.found");
    builder.CreateStore(builder.getInt1(false), found);
    lowering.containers().forEachDictEntry(view, dict, [&](llvm::Value *, llvm::Value *value) {
      llvm::Value *equal = lowering.operators().lowerComparison(CompareOp::Eq, item, itemType,
                                                                value, dict->valueType());
      builder.CreateStore(builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), found), equal),
                          found);
    });
    return builder.CreateLoad(builder.getInt1Ty(), found);
  }
  const Type *keyType = itemType->elements()[0], *valueType = itemType->elements()[1];
  llvm::Value *key = lowering.tupleElement(item, itemType, 0);
  llvm::Value *slot = lowering.containers().listRuntime(
      "taipan_dict_get", builder.getPtrTy(),
      {view, lowering.containers().dictKeyAddress(key, keyType, dict)});
  llvm::BasicBlock *compare = lowering.newBlock("view.compare");
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *done = lowering.newBlock("view.contains");
  builder.CreateCondBr(builder.CreateIsNull(slot), done, compare);
  builder.SetInsertPoint(compare);
  llvm::Value *equal = lowering.operators().lowerComparison(
      CompareOp::Eq, lowering.tupleElement(item, itemType, 1), valueType,
      lowering.containers().loadDictValue(slot, dict), dict->valueType());
  llvm::BasicBlock *compared = builder.GetInsertBlock();
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  llvm::PHINode *result = builder.CreatePHI(builder.getInt1Ty(), 2);
  result->addIncoming(builder.getInt1(false), before);
  result->addIncoming(equal, compared);
  return result;
}

/// Checks that `x in view` compares values that compare (a key must fit the dict's keys).
void typeViewContains(const LibraryCall &call) {
  const Type *item = call.argumentTypes[0], *view = call.argumentTypes[1];
  if (!view->isDictView())
    throwUnsupported("'in' with a dict view on its left is not supported", call.location);
  const Type *dict = view->viewedDict();
  if (!dict->keyType())
    return;
  auto refuse = [&] {
    throwTypingError("'in' of a " + item->name() + " in a " + view->name() +
                         " is not supported (the item must compare with the view's items)",
                     call.location);
  };
  switch (view->viewKind()) {
  case 0:
    if (!dictAcceptsKey(dict, item))
      refuse();
    return;
  case 1:
    if (!comparisonOperandType(CompareOp::Eq, item, dict->valueType()))
      refuse();
    return;
  default:
    if (!item->isTuple() || item->elements().size() != 2 ||
        !dictAcceptsKey(dict, item->elements()[0]) ||
        !comparisonOperandType(CompareOp::Eq, item->elements()[1], dict->valueType()))
      refuse();
  }
}

/// The type of an operand of a keys view's set operator as CPython iterates it: a keys view
/// is its dict's keys (a list of them, made when the operator runs), anything else is itself.
const Type *asIterable(const Type *operand) {
  if (operand->isDictView())
    return ContainerLowering::dictListType(operand->viewedDict(), 0);
  return operand;
}

/// The key type of `view op other` (or `other op view`): both sides' items unify into a key.
const Type *operatorKeyType(const LibraryCall &call) {
  const Type *key = nullptr;
  for (const Type *operand : call.argumentTypes) {
    if (operand->isDictView() && operand->viewKind() != 0)
      throwUnsupported("set operators on " + operand->name() +
                           " are not supported (on keys views they are)",
                       call.location);
    const Type *set = setOfIterable(asIterable(operand));
    if (!set)
      throwTypingError("unsupported operand types for " + call.function->name.substr(9) + ": " +
                           call.argumentTypes[0]->name() + " and " + call.argumentTypes[1]->name(),
                       call.location);
    if (!set->keyType())
      continue;
    // One key type: CPython's algorithm (which operand is walked) then needs no conversion.
    if (key && key != set->keyType())
      throwTypingError("set operators of " + call.argumentTypes[0]->name() + " and " +
                           call.argumentTypes[1]->name() +
                           " are supported for items of one type (convert one side first)",
                       call.location);
    key = set->keyType();
  }
  return key;
}

/// Calls the set library's entry `name` on `values` as if typed for `types`.
llvm::Value *callSetEntry(LoweringApi &lowering, const std::string &name,
                          std::vector<const Type *> types, const Values &values,
                          const Type *resultType, SourceLocation location) {
  LibraryCall call;
  call.function = Library::get().find(name);
  call.argumentTypes = std::move(types);
  call.resultType = resultType;
  call.location = location;
  return call.function->lower(lowering, call, values);
}

/// `view | x`, `view - x`, `view ^ x` (and with the view on the right): CPython's dictviews_or,
/// _sub and _xor make a set of the left operand and update it with the right one
/// (`update`, `difference_update`, `symmetric_difference_update`); `&` is
/// _PyDictView_Intersect: a set's own intersection when the set is the larger operand, else a
/// walk of the other operand (the smaller view) keeping what the view holds.
llvm::Value *lowerViewOperator(LoweringApi &lowering, const LibraryCall &call,
                               const Values &values) {
  const Type *setType = call.resultType;
  if (!setType->keyType())
    return lowering.containers().newSet(setType);
  std::string op = call.function->name.substr(9);
  std::vector<llvm::Value *> operands;
  std::vector<const Type *> operandTypes;
  for (size_t i = 0; i < 2; ++i) {
    const Type *type = call.argumentTypes[i];
    operands.push_back(type->isDictView()
                           ? lowering.containers().dictToList(values[i], type->viewedDict(), 0)
                           : values[i]);
    operandTypes.push_back(asIterable(type));
  }
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (op != "&") {
    llvm::Value *result = lowering.containers().newSet(setType);
    lowering.containers().addAllToSet(result, setType, operands[0], operandTypes[0]);
    const char *update = op == "|"   ? "set.update"
                         : op == "-" ? "set.difference_update"
                                     : "set.symmetric_difference_update";
    callSetEntry(lowering, update, {setType, operandTypes[1]}, {result, operands[1]}, types::none(),
                 call.location);
    return result;
  }
  // `&`: the view is `self` (CPython swaps the operands when the view is on the right).
  size_t self = call.argumentTypes[0]->isDictView() ? 0 : 1, other = 1 - self;
  const Type *otherType = call.argumentTypes[other];
  llvm::Value *selfLength = lowering.containers().dictLength(values[self]);
  llvm::AllocaInst *resultSlot = lowering.createEntryAlloca(builder.getPtrTy(), "view.and");
  llvm::BasicBlock *done = lowering.newBlock("view.and.done");
  if (otherType->isSet() && !otherType->isFrozen()) { // PySet_CheckExact
    // other.intersection(view), when the set is at least as large.
    llvm::BasicBlock *bySet = lowering.newBlock("view.and.set");
    llvm::BasicBlock *byWalk = lowering.newBlock("view.and.walk");
    builder.CreateCondBr(
        builder.CreateICmpSLE(selfLength, lowering.containers().setLength(values[other])), bySet,
        byWalk);
    builder.SetInsertPoint(bySet);
    builder.CreateStore(callSetEntry(lowering, "set.intersection", {otherType, operandTypes[self]},
                                     {values[other], operands[self]}, setType, call.location),
                        resultSlot);
    builder.CreateBr(done);
    builder.SetInsertPoint(byWalk);
  }
  // A walk of the other operand; of two views, the smaller one is walked.
  llvm::Value *walked = operands[other];
  llvm::Value *kept = values[self];
  const Type *keptDict = call.argumentTypes[self]->viewedDict();
  llvm::Value *result = lowering.containers().newSet(setType);
  auto walk = [&](llvm::Value *iterable, const Type *iterableType, llvm::Value *dict,
                  const Type *dictType) {
    lowering.loops().forEachItem(
        iterable, iterableType, [&](llvm::Value *item, const Type *itemType) {
          llvm::Value *slot = lowering.containers().listRuntime(
              "taipan_dict_get", builder.getPtrTy(),
              {dict, lowering.containers().dictKeyAddress(item, itemType, dictType)});
          llvm::BasicBlock *add = lowering.newBlock("view.and.add");
          llvm::BasicBlock *next = lowering.newBlock("view.and.next");
          builder.CreateCondBr(builder.CreateIsNotNull(slot), add, next);
          builder.SetInsertPoint(add);
          lowering.containers().addToSet(result, setType, item, itemType);
          builder.CreateBr(next);
          builder.SetInsertPoint(next);
        });
  };
  if (otherType->isDictView()) {
    llvm::BasicBlock *swap = lowering.newBlock("view.and.swap");
    llvm::BasicBlock *keep = lowering.newBlock("view.and.keep");
    llvm::BasicBlock *walked2 = lowering.newBlock("view.and.walked");
    builder.CreateCondBr(
        builder.CreateICmpSGT(lowering.containers().dictLength(values[other]), selfLength), swap,
        keep);
    builder.SetInsertPoint(swap); // walk self, keep what the other view holds
    walk(operands[self], operandTypes[self], values[other], otherType->viewedDict());
    builder.CreateBr(walked2);
    builder.SetInsertPoint(keep);
    walk(walked, operandTypes[other], kept, keptDict);
    builder.CreateBr(walked2);
    builder.SetInsertPoint(walked2);
  } else {
    walk(walked, operandTypes[other], kept, keptDict);
  }
  builder.CreateStore(result, resultSlot);
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  return builder.CreateLoad(builder.getPtrTy(), resultSlot);
}

} // namespace

void registerDictViewFunctions(Library &library) {
  for (const char *symbol : {"|", "&", "-", "^"})
    addCpu(
        library, std::string("dictview.") + symbol, {{"", false}, {"", false}},
        [](LibraryCall &call) { return types::set(operatorKeyType(call)); }, lowerViewOperator);
  // keys(), values(), items(): views of the dict (the view holds a reference to its block).
  const char *views[] = {"dict.keys", "dict.values", "dict.items"};
  for (int which = 0; which < 3; ++which)
    addCpu(
        library, views[which], {{"", false}},
        [which](LibraryCall &call) {
          const Type *dict = call.argumentTypes[0];
          if (!dict->isDict())
            throwNoOverload(call);
          return types::dictView(dict, which);
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          lowering.incref(values[0], call.argumentTypes[0]);
          lowering.addTemporary(values[0], call.resultType);
          return values[0];
        });
  for (bool negated : {false, true})
    addCpu(
        library, negated ? "dictview.not in" : "dictview.in", {{"", false}, {"", false}},
        [](LibraryCall &call) {
          typeViewContains(call);
          return types::boolean();
        },
        [negated](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::Value *found = lowerViewContains(lowering, call, values[0], values[1]);
          return negated ? lowering.irBuilder().CreateNot(found) : found;
        });
}

} // namespace taipan
