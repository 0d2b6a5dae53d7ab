// Dict views in compiled code: d.keys(), d.values() and d.items() as live views of the dict
// (the view is the dict's block), `in` on them and the set operators of a keys view. `len`,
// truth and for loops over a view read the dict as it is then (lower/LowerDicts.cpp); every
// other use takes a list of the view's items made at that moment.
#include "library/Library.h"

#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
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
llvm::Value *lowerViewContains(FunctionLowering &lowering, const LibraryCall &call,
                               llvm::Value *item, llvm::Value *view) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *itemType = call.argumentTypes[0];
  const Type *viewType = call.argumentTypes[1];
  const Type *dict = viewType->viewedDict();
  if (!dict->keyType())
    return builder.getInt1(false);
  if (viewType->viewKind() == 0)
    return builder.CreateIsNotNull(
        lowering.listRuntime("taipan_dict_get", builder.getPtrTy(),
                             {view, lowering.dictKeyAddress(item, itemType, dict)}));
  if (viewType->viewKind() == 1) {
    llvm::AllocaInst *found = lowering.createEntryAlloca(builder.getInt1Ty(), "view.found");
    builder.CreateStore(builder.getInt1(false), found);
    lowering.forEachDictEntry(view, dict, [&](llvm::Value *, llvm::Value *value) {
      llvm::Value *equal =
          lowering.lowerComparison(CompareOp::Eq, item, itemType, value, dict->valueType());
      builder.CreateStore(builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), found), equal),
                          found);
    });
    return builder.CreateLoad(builder.getInt1Ty(), found);
  }
  const Type *keyType = itemType->elements()[0], *valueType = itemType->elements()[1];
  llvm::Value *key = lowering.tupleElement(item, itemType, 0);
  llvm::Value *slot = lowering.listRuntime("taipan_dict_get", builder.getPtrTy(),
                                           {view, lowering.dictKeyAddress(key, keyType, dict)});
  llvm::BasicBlock *compare = lowering.newBlock("view.compare");
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *done = lowering.newBlock("view.contains");
  builder.CreateCondBr(builder.CreateIsNull(slot), done, compare);
  builder.SetInsertPoint(compare);
  llvm::Value *equal =
      lowering.lowerComparison(CompareOp::Eq, lowering.tupleElement(item, itemType, 1), valueType,
                               lowering.loadDictValue(slot, dict), dict->valueType());
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

} // namespace

void registerDictViewFunctions(Library &library) {
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
        [](FunctionLowering &lowering, const LibraryCall &call, const Values &values) {
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
        [negated](FunctionLowering &lowering, const LibraryCall &call, const Values &values) {
          llvm::Value *found = lowerViewContains(lowering, call, values[0], values[1]);
          return negated ? lowering.irBuilder().CreateNot(found) : found;
        });
}

} // namespace taipan
