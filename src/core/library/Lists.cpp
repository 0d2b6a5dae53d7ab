// Lists in compiled code, one library entry per operation: the methods ("list.append"...), the
// operators typing records under their expressions ("list.[]", "list.+", "list.in"...), and
// the builtins that make lists (list(), sorted()). Lowering helpers are in lower/LowerLists.cpp.
#include "library/Families.h"

#include "library/NumpySupport.h"
#include "lower/ArrayLowering.h"
#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/GeneratorLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// The item a for loop over `type` gives, for the iterables lists are made from: lists, ranges,
/// uniform tuples and 1-d arrays; nullptr for others.
const Type *iterableItem(const Type *type) {
  if (type->isList())
    return type->itemType();
  if (type->isSet()) // its keys, in iteration order
    return type->keyType();
  if (type->kind() == TypeKind::Range)
    return types::int64();
  if (type->isUniformTuple())
    return type->elements().front();
  if (type->isArray() && type->ndim() == 1)
    return type->dtype();
  if (type->isGenerator()) // resumed until it is exhausted
    return type->yieldType();
  return nullptr;
}

/// The list the method is called on, with a known item type.
const Type *listArgument(const LibraryCall &call) {
  const Type *list = call.argumentTypes[0];
  if (!list->isList())
    throwNoOverload(call);
  return list;
}

/// Whether a value of `value` may be stored into `list` (converted as an assignment converts
/// it). A typed list's item type is fixed, so it takes only values that convert without loss
/// (an int into a list of floats, not a float into a list of ints).
bool acceptsItem(const Type *list, const Type *value) {
  const Type *item = list->itemType();
  if (!item)
    return false;
  if (unifyTypes(item, value) == item)
    return true;
  if (value->kind() == TypeKind::StringLiteral && item->isUnicode())
    return true;
  if (!item->isNumber() || !value->isNumber() || (value->isComplex() && !item->isComplex()))
    return false;
  // A typed list converts numbers as a store into a NumPy array does, but never a float into
  // an integer (or anything into a boolean): that would change the value's kind.
  return list->isReflected() || (item->isInteger() && value->isIntegerLike()) || item->isFloat() ||
         item->isComplex();
}

/// The item type must be known by the time a method runs (`[]` given no item anywhere).
void requireItemType(const LibraryCall &call) {
  if (!call.argumentTypes[0]->itemType())
    throwTypingError("cannot infer the item type of an empty list; append to it, or build it "
                     "with items",
                     call.location);
}

/// Items that `==` compares: numbers, booleans, tuples of them, and strings.
void requireComparable(const LibraryCall &call, const Type *item, const Type *value) {
  bool strings = item && item->isString() && value->isString();
  if (!item || (!strings && !comparisonOperandType(CompareOp::Eq, item, value)))
    throwTypingError(call.function->name + "() cannot compare items of type " +
                         (item ? item->name() : "undefined") + " with " + value->name(),
                     call.location);
}

/// Appends the items of `iterable` to `list`: one copy when it is a list of the same type.
void appendAll(LoweringApi &lowering, llvm::Value *list, const Type *listType,
               llvm::Value *iterable, const Type *iterableType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (iterableType == listType) {
    lowering.exitUnlessZero(lowering.containers().listRuntime(
        "taipan_list_extend", builder.getInt32Ty(), {list, iterable, builder.getInt64(1)}));
    return;
  }
  if (iterableType->isList() && !iterableType->itemType())
    return; // `[]`: nothing to add
  lowering.loops().forEachItem(
      iterable, iterableType, [&](llvm::Value *item, const Type *itemType) {
        llvm::Value *length = lowering.containers().listLength(list);
        lowering.exitUnlessZero(lowering.containers().listRuntime(
            "taipan_list_open", builder.getInt32Ty(), {list, length, builder.getInt64(1)}));
        lowering.containers().storeListItem(list, listType, length, item, itemType);
      });
}

/// The index of the first item equal to `value` (in [from, to) when given), or -1.
llvm::Value *findItem(LoweringApi &lowering, llvm::Value *list, const Type *listType,
                      llvm::Value *value, const Type *valueType, llvm::Value *from = nullptr,
                      llvm::Value *to = nullptr) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::AllocaInst *found = lowering.createEntryAlloca(builder.getInt64Ty(), "list.found");
  builder.CreateStore(builder.getInt64(-1), found);
  llvm::Value *count = lowering.containers().listLength(list);
  if (from) {
    count = builder.CreateSub(to, from);
    count = builder.CreateSelect(builder.CreateICmpSGT(count, builder.getInt64(0)), count,
                                 builder.getInt64(0));
  }
  lowering.arrays().forEachIndex({count}, [&](const Values &counted) {
    Values at = {from ? builder.CreateAdd(from, counted[0]) : counted[0]};
    llvm::Value *item = lowering.containers().loadListItem(list, listType, at[0]);
    llvm::Value *equal = lowering.operators().lowerComparison(
        CompareOp::Eq, item, listType->itemType(), value, valueType);
    llvm::Value *current = builder.CreateLoad(builder.getInt64Ty(), found);
    llvm::Value *first =
        builder.CreateAnd(equal, builder.CreateICmpSLT(current, builder.getInt64(0)));
    builder.CreateStore(builder.CreateSelect(first, at[0], current), found);
  });
  return builder.CreateLoad(builder.getInt64Ty(), found);
}

/// Sorts a list of real numbers in place, descending when `descending` (an i1) holds.
void sortList(LoweringApi &lowering, llvm::Value *list, const Type *listType,
              llvm::Value *descending) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  lowering.containers().listRuntime("taipan_list_sort", builder.getVoidTy(),
                                    {list, builder.getInt32(sortDtypeCode(listType->itemType())),
                                     builder.CreateZExt(descending, builder.getInt32Ty())});
}

/// Only lists of real numbers sort here (Python's comparison of tuples is not implemented).
void requireSortable(const LibraryCall &call, const Type *item) {
  if (!item || !item->isReal() || (item->isFloat() && item->bits() == 16))
    throwUnsupported(call.function->name + "() of a list of " +
                         (item ? item->name() : "undefined") +
                         " is not supported (lists of integers, floats and booleans sort)",
                     call.location);
}

void registerMethods(Library &library) {
  addCpu(
      library, "list.append", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *list = listArgument(call);
        if (list->itemType() && !acceptsItem(list, call.argumentTypes[1]))
          throwTypingError("cannot append a value of type " + call.argumentTypes[1]->name() +
                               " to a " + list->name(),
                           call.location);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        requireItemType(call);
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *length = lowering.containers().listLength(values[0]);
        lowering.exitUnlessZero(lowering.containers().listRuntime(
            "taipan_list_open", builder.getInt32Ty(), {values[0], length, builder.getInt64(1)}));
        lowering.containers().storeListItem(values[0], call.argumentTypes[0], length, values[1],
                                            call.argumentTypes[1]);
        return noneValue(lowering);
      });
  addCpu(
      library, "list.extend", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *list = listArgument(call);
        const Type *item = iterableItem(call.argumentTypes[1]);
        bool empty = call.argumentTypes[1]->isList() && !item;
        if (!empty && (!item || (list->itemType() && !acceptsItem(list, item))))
          throwNoOverload(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        requireItemType(call);
        appendAll(lowering, values[0], call.argumentTypes[0], values[1], call.argumentTypes[1]);
        return noneValue(lowering);
      });
  addCpu(
      library, "list.insert", {{"", false}, {"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *list = listArgument(call);
        if (!call.argumentTypes[1]->isIntegerLike() ||
            (list->itemType() && !acceptsItem(list, call.argumentTypes[2])))
          throwNoOverload(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        requireItemType(call);
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        // Python clamps the position into [0, len].
        llvm::Value *length = lowering.containers().listLength(values[0]);
        llvm::Value *index = lowering.castValue(values[1], call.argumentTypes[1], types::int64());
        llvm::Value *zero = builder.getInt64(0);
        llvm::Value *wrapped = builder.CreateAdd(index, length);
        wrapped = builder.CreateSelect(builder.CreateICmpSLT(wrapped, zero), zero, wrapped);
        index = builder.CreateSelect(builder.CreateICmpSLT(index, zero), wrapped, index);
        index = builder.CreateSelect(builder.CreateICmpSGT(index, length), length, index);
        lowering.exitUnlessZero(lowering.containers().listRuntime(
            "taipan_list_open", builder.getInt32Ty(), {values[0], index, builder.getInt64(1)}));
        lowering.containers().storeListItem(values[0], call.argumentTypes[0], index, values[2],
                                            call.argumentTypes[2]);
        return noneValue(lowering);
      });
  addCpu(
      library, "list.pop", {{"", false}, {"", true}},
      [](LibraryCall &call) {
        const Type *list = listArgument(call);
        if (call.argumentTypes.size() > 1 && !call.argumentTypes[1]->isIntegerLike())
          throwNoOverload(call);
        if (!list->itemType())
          throwTypingError("cannot pop from a list whose item type is unknown", call.location);
        return list->itemType();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *listType = call.argumentTypes[0];
        llvm::Value *length = lowering.containers().listLength(values[0]);
        lowering.exceptions().raiseIf(builder.CreateICmpEQ(length, builder.getInt64(0)),
                                      IndexErrorId, "pop from empty list");
        llvm::Value *index = values.size() > 1 ? values[1] : builder.getInt64(-1);
        const Type *indexType = values.size() > 1 ? call.argumentTypes[1] : types::int64();
        llvm::Value *position =
            lowering.containers().listPosition(index, indexType, length, "pop index out of range");
        // The item's reference passes to the result: one more, then the list drops its own.
        llvm::Value *item = lowering.containers().loadListItem(values[0], listType, position);
        lowering.incref(item, listType->itemType());
        lowering.containers().listRuntime(
            "taipan_list_erase", builder.getVoidTy(),
            {values[0], position, builder.CreateAdd(position, builder.getInt64(1))});
        lowering.addTemporary(item, listType->itemType());
        return item;
      });
  addCpu(
      library, "list.remove", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        requireComparable(call, listArgument(call)->itemType(), call.argumentTypes[1]);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *index =
            findItem(lowering, values[0], call.argumentTypes[0], values[1], call.argumentTypes[1]);
        lowering.exceptions().raiseIf(builder.CreateICmpSLT(index, builder.getInt64(0)),
                                      ValueErrorId, "list.remove(x): x not in list");
        lowering.containers().listRuntime(
            "taipan_list_erase", builder.getVoidTy(),
            {values[0], index, builder.CreateAdd(index, builder.getInt64(1))});
        return noneValue(lowering);
      });
  addCpu(
      library, "list.index", {{"", false}, {"", false}, {"", true}, {"", true}},
      [](LibraryCall &call) {
        requireComparable(call, listArgument(call)->itemType(), call.argumentTypes[1]);
        for (size_t i = 2; i < call.argumentTypes.size(); ++i)
          if (!call.argumentTypes[i]->isIntegerLike())
            throwNoOverload(call);
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *length = lowering.containers().listLength(values[0]);
        // start and stop as slice bounds: negative ones count from the end, then clamped.
        auto bound = [&](size_t i, llvm::Value *absent) -> llvm::Value * {
          if (i >= values.size())
            return absent;
          llvm::Value *v = lowering.castValue(values[i], call.argumentTypes[i], types::int64());
          llvm::Value *zero = builder.getInt64(0);
          llvm::Value *wrapped = builder.CreateAdd(v, length);
          wrapped = builder.CreateSelect(builder.CreateICmpSLT(wrapped, zero), zero, wrapped);
          llvm::Value *clamped = builder.CreateSelect(builder.CreateICmpSGT(v, length), length, v);
          return builder.CreateSelect(builder.CreateICmpSLT(v, zero), wrapped, clamped);
        };
        llvm::Value *from = values.size() > 2 ? bound(2, nullptr) : nullptr;
        llvm::Value *to = from ? bound(3, length) : nullptr;
        llvm::Value *index = findItem(lowering, values[0], call.argumentTypes[0], values[1],
                                      call.argumentTypes[1], from, to);
        lowering.exceptions().raiseIf(
            lowering.irBuilder().CreateICmpSLT(index, lowering.irBuilder().getInt64(0)),
            ValueErrorId, "item not in list");
        return index;
      });
  addCpu(
      library, "list.count", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        requireComparable(call, listArgument(call)->itemType(), call.argumentTypes[1]);
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *listType = call.argumentTypes[0];
        llvm::AllocaInst *count = lowering.createEntryAlloca(builder.getInt64Ty(), "list.count");
        builder.CreateStore(builder.getInt64(0), count);
        lowering.arrays().forEachIndex(
            {lowering.containers().listLength(values[0])}, [&](const Values &at) {
              llvm::Value *equal = lowering.operators().lowerComparison(
                  CompareOp::Eq, lowering.containers().loadListItem(values[0], listType, at[0]),
                  listType->itemType(), values[1], call.argumentTypes[1]);
              builder.CreateStore(
                  builder.CreateAdd(builder.CreateLoad(builder.getInt64Ty(), count),
                                    builder.CreateZExt(equal, builder.getInt64Ty())),
                  count);
            });
        return static_cast<llvm::Value *>(builder.CreateLoad(builder.getInt64Ty(), count));
      });
  addCpu(
      library, "list.sort", {{"", false}, {"key", true}, {"reverse", true}},
      [](LibraryCall &call) {
        const Type *list = listArgument(call);
        if (call.arguments.size() > 1 && call.arguments[1] && !call.argumentTypes[1]->isNone())
          throwUnsupported("list.sort() with a key is not supported", call.location);
        if (call.arguments.size() > 2 && !call.argumentTypes[2]->isIntegerLike())
          throwNoOverload(call);
        if (list->itemType())
          requireSortable(call, list->itemType());
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        if (call.argumentTypes[0]->itemType()) {
          llvm::Value *descending = values.size() > 2
                                        ? lowering.truthValue(values[2], call.argumentTypes[2])
                                        : lowering.irBuilder().getInt1(false);
          sortList(lowering, values[0], call.argumentTypes[0], descending);
        }
        return noneValue(lowering);
      });
  addCpu(
      library, "list.reverse", {{"", false}},
      [](LibraryCall &call) {
        listArgument(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &, const Values &values) {
        lowering.containers().listRuntime("taipan_list_reverse", lowering.irBuilder().getVoidTy(),
                                          {values[0]});
        return noneValue(lowering);
      });
  addCpu(
      library, "list.clear", {{"", false}},
      [](LibraryCall &call) {
        listArgument(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &, const Values &values) {
        lowering.containers().listRuntime("taipan_list_erase", lowering.irBuilder().getVoidTy(),
                                          {values[0], lowering.irBuilder().getInt64(0),
                                           lowering.containers().listLength(values[0])});
        return noneValue(lowering);
      });
  addCpu(
      library, "list.copy", {{"", false}}, [](LibraryCall &call) { return listArgument(call); },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::Value *copy =
            lowering.containers().newList(call.resultType, lowering.irBuilder().getInt64(0));
        appendAll(lowering, copy, call.resultType, values[0], call.argumentTypes[0]);
        return copy;
      });
}

void registerOperators(Library &library) {
  // l[i] (borrowed from the list) and l[a:b] (a new list). The slice is lowered here.
  LibraryFunction subscript;
  subscript.name = "list.[]";
  subscript.parameters = {{"", false}, {"", false}};
  subscript.lowersArguments = true;
  subscript.targets = OnCpu;
  subscript.type = [](LibraryCall &call) {
    const Type *list = call.argumentTypes[0];
    const Type *index = call.argumentTypes[1];
    if (call.arguments[1]->kind == ExprKind::Slice || index->kind() == TypeKind::Slice)
      return list;
    if (!index->isIntegerLike())
      throwTypingError("list indices must be integers or slices, not " + index->name(),
                       call.location);
    if (!list->itemType())
      throwTypingError("cannot index a list whose item type is unknown", call.location);
    return list->itemType();
  };
  subscript.lower = [](LoweringApi &lowering, const LibraryCall &call, const Values &) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *listType = call.argumentTypes[0];
    llvm::Value *list = lowering.lowerExpr(call.arguments[0]);
    Expr *index = call.arguments[1];
    bool sliceObject = call.argumentTypes[1]->kind() == TypeKind::Slice;
    // CPython's order: the list, the index, then the lookup at the list's length by then.
    if (index->kind != ExprKind::Slice && !sliceObject) {
      llvm::Value *at = lowering.lowerExpr(index);
      llvm::Value *position = lowering.containers().listPosition(
          at, call.argumentTypes[1], lowering.containers().listLength(list),
          "list index out of range");
      return lowering.containers().loadListItem(list, listType, position);
    }
    llvm::Value *sliceValue = sliceObject ? lowering.lowerExpr(index) : nullptr;
    ContainerLowering::ListSlice slice =
        sliceObject ? lowering.containers().listSliceOfValue(sliceValue,
                                                             lowering.containers().listLength(list))
                    : lowering.containers().listSlice(index, list);
    llvm::Value *result = lowering.containers().listRuntime(
        "taipan_list_slice", builder.getPtrTy(), {list, slice.start, slice.step, slice.count});
    lowering.exitIf(builder.CreateIsNull(result), builder.getInt32(MemoryErrorId));
    lowering.addTemporary(result, listType);
    return result;
  };
  library.add(std::move(subscript));

  addCpu(
      library, "list.+", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
        const Type *unified = left->isList() && right->isList() ? unifyTypes(left, right) : nullptr;
        if (!unified && left->isTuple()) // `(*l,)` reads as `() + l`
          throwTypingError("can only concatenate tuple (not \"" + right->name() +
                               "\") to tuple: unpacking (*) into a tuple takes tuples only",
                           call.location);
        if (!unified)
          throwTypingError("can only concatenate list (not \"" + right->name() + "\") to list",
                           call.location);
        return unified;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::Value *result =
            lowering.containers().newList(call.resultType, lowering.irBuilder().getInt64(0));
        appendAll(lowering, result, call.resultType, values[0], call.argumentTypes[0]);
        appendAll(lowering, result, call.resultType, values[1], call.argumentTypes[1]);
        return result;
      });
  addCpu(
      library, "list.*", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
        if (left->isList() && right->isIntegerLike())
          return left;
        if (right->isList() && left->isIntegerLike())
          return right;
        throwTypingError("can't multiply sequence by non-int of type '" +
                             (left->isList() ? right : left)->name() + "'",
                         call.location);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        unsigned listAt = call.argumentTypes[0]->isList() ? 0 : 1;
        llvm::Value *count =
            lowering.castValue(values[1 - listAt], call.argumentTypes[1 - listAt], types::int64());
        llvm::Value *result =
            lowering.containers().newList(call.resultType, lowering.irBuilder().getInt64(0));
        if (call.resultType->itemType())
          lowering.exitUnlessZero(lowering.containers().listRuntime(
              "taipan_list_extend", lowering.irBuilder().getInt32Ty(),
              {result, values[listAt], count}));
        return result;
      });
  for (bool negated : {false, true})
    addCpu(
        library, negated ? "list.not in" : "list.in", {{"", false}, {"", false}},
        [](LibraryCall &call) {
          if (!call.argumentTypes[1]->isList())
            throwUnsupported("'in' is supported on tuples and lists only", call.location);
          if (call.argumentTypes[1]->itemType())
            requireComparable(call, call.argumentTypes[1]->itemType(), call.argumentTypes[0]);
          return types::boolean();
        },
        [negated](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          if (!call.argumentTypes[1]->itemType())
            return static_cast<llvm::Value *>(builder.getInt1(negated));
          llvm::Value *index = findItem(lowering, values[1], call.argumentTypes[1], values[0],
                                        call.argumentTypes[0]);
          return negated ? builder.CreateICmpSLT(index, builder.getInt64(0))
                         : builder.CreateICmpSGE(index, builder.getInt64(0));
        });
  for (bool negated : {false, true})
    addCpu(
        library, negated ? "list.!=" : "list.==", {{"", false}, {"", false}},
        [](LibraryCall &call) {
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          if (!left->isList() || !right->isList())
            return types::boolean(); // a list never equals a value of another type
          if (left->itemType() && right->itemType())
            requireComparable(call, left->itemType(), right->itemType());
          return types::boolean();
        },
        [negated](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          if (!left->isList() || !right->isList())
            return static_cast<llvm::Value *>(builder.getInt1(negated));
          llvm::Value *length = lowering.containers().listLength(values[0]);
          llvm::Value *sameLength =
              builder.CreateICmpEQ(length, lowering.containers().listLength(values[1]));
          llvm::AllocaInst *equal = lowering.createEntryAlloca(builder.getInt1Ty(), "list.equal");
          builder.CreateStore(sameLength, equal);
          if (left->itemType() && right->itemType()) {
            llvm::Value *count = builder.CreateSelect(sameLength, length, builder.getInt64(0));
            lowering.arrays().forEachIndex({count}, [&](const Values &at) {
              llvm::Value *same = lowering.operators().lowerComparison(
                  CompareOp::Eq, lowering.containers().loadListItem(values[0], left, at[0]),
                  left->itemType(), lowering.containers().loadListItem(values[1], right, at[0]),
                  right->itemType());
              builder.CreateStore(
                  builder.CreateAnd(builder.CreateLoad(builder.getInt1Ty(), equal), same), equal);
            });
          }
          llvm::Value *result = builder.CreateLoad(builder.getInt1Ty(), equal);
          return negated ? builder.CreateNot(result) : result;
        });
}

/// Python's list ordering: the first items that differ decide, else the lengths.
void addOrdering(Library &library, const std::string &symbol, CompareOp op) {
  addCpu(
      library, "list." + symbol, {{"", false}, {"", false}},
      [symbol](LibraryCall &call) {
        const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
        if (!left->isList() || !right->isList())
          throwTypingError("'" + symbol + "' not supported between instances of '" + left->name() +
                               "' and '" + right->name() + "'",
                           call.location);
        const Type *a = left->itemType(), *b = right->itemType();
        if (a && b && !(a->isReal() && b->isReal()) && !(a->isString() && b->isString()))
          throwUnsupported("ordering lists of " + a->name() + " and " + b->name() +
                               " is not supported (lists of numbers or strings compare)",
                           call.location);
        return types::boolean();
      },
      [op](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
        llvm::Value *leftLength = lowering.containers().listLength(values[0]);
        llvm::Value *rightLength = lowering.containers().listLength(values[1]);
        llvm::Value *lengthOrder = lowering.operators().lowerComparison(
            op, leftLength, types::int64(), rightLength, types::int64());
        if (!left->itemType() || !right->itemType())
          return lengthOrder;
        llvm::AllocaInst *differs = lowering.createEntryAlloca(builder.getInt64Ty(), "differs");
        builder.CreateStore(builder.getInt64(-1), differs);
        llvm::Value *common = builder.CreateSelect(builder.CreateICmpSLT(leftLength, rightLength),
                                                   leftLength, rightLength);
        lowering.arrays().forEachIndex({common}, [&](const Values &at) {
          llvm::Value *equal = lowering.operators().lowerComparison(
              CompareOp::Eq, lowering.containers().loadListItem(values[0], left, at[0]),
              left->itemType(), lowering.containers().loadListItem(values[1], right, at[0]),
              right->itemType());
          llvm::Value *current = builder.CreateLoad(builder.getInt64Ty(), differs);
          llvm::Value *first = builder.CreateAnd(
              builder.CreateNot(equal), builder.CreateICmpSLT(current, builder.getInt64(0)));
          builder.CreateStore(builder.CreateSelect(first, at[0], current), differs);
        });
        llvm::AllocaInst *result = lowering.createEntryAlloca(builder.getInt1Ty(), "ordered");
        builder.CreateStore(lengthOrder, result);
        llvm::Value *at = builder.CreateLoad(builder.getInt64Ty(), differs);
        llvm::Function *function = builder.GetInsertBlock()->getParent();
        llvm::BasicBlock *byItem =
            llvm::BasicBlock::Create(lowering.llvmContext(), "list.by_item", function);
        llvm::BasicBlock *done =
            llvm::BasicBlock::Create(lowering.llvmContext(), "list.ordered", function);
        builder.CreateCondBr(builder.CreateICmpSGE(at, builder.getInt64(0)), byItem, done);
        builder.SetInsertPoint(byItem);
        builder.CreateStore(
            lowering.operators().lowerComparison(
                op, lowering.containers().loadListItem(values[0], left, at), left->itemType(),
                lowering.containers().loadListItem(values[1], right, at), right->itemType()),
            result);
        builder.CreateBr(done);
        builder.SetInsertPoint(done);
        return static_cast<llvm::Value *>(builder.CreateLoad(builder.getInt1Ty(), result));
      });
}

/// l *= n (in place: n <= 0 empties the list) and del l[i], del l[a:b:c].
void registerInPlaceOperators(Library &library) {
  addCpu(
      library, "list.*=", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        listArgument(call);
        if (!call.argumentTypes[1]->isIntegerLike())
          throwTypingError("can't multiply sequence by non-int of type '" +
                               call.argumentTypes[1]->name() + "'",
                           call.location);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        if (!call.argumentTypes[0]->itemType())
          return noneValue(lowering);
        llvm::Value *count = lowering.castValue(values[1], call.argumentTypes[1], types::int64());
        // taipan_list_extend reads the source's length first, so a list may extend itself.
        lowering.exitUnlessZero(lowering.containers().listRuntime(
            "taipan_list_extend", builder.getInt32Ty(),
            {values[0], values[0], builder.CreateSub(count, builder.getInt64(1))}));
        llvm::Value *length = lowering.containers().listLength(values[0]);
        lowering.containers().listRuntime(
            "taipan_list_erase", builder.getVoidTy(),
            {values[0], builder.getInt64(0),
             builder.CreateSelect(builder.CreateICmpSLE(count, builder.getInt64(0)), length,
                                  builder.getInt64(0))});
        return noneValue(lowering);
      });
  // `del l[i]` and `del l[a:b:c]` (the reader makes them calls of __delitem__).
  LibraryFunction remove;
  remove.name = "list.__delitem__";
  remove.parameters = {{"", false}, {"", false}};
  remove.lowersArguments = true;
  remove.targets = OnCpu;
  remove.type = [](LibraryCall &call) {
    listArgument(call);
    if (call.arguments[1]->kind != ExprKind::Slice && !call.argumentTypes[1]->isIntegerLike() &&
        call.argumentTypes[1]->kind() != TypeKind::Slice)
      throwTypingError("list indices must be integers or slices, not " +
                           call.argumentTypes[1]->name(),
                       call.location);
    return types::none();
  };
  remove.lower = [](LoweringApi &lowering, const LibraryCall &call, const Values &) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    llvm::Value *list = lowering.lowerExpr(call.arguments[0]);
    Expr *index = call.arguments[1];
    auto erase = [&](llvm::Value *position) {
      lowering.containers().listRuntime(
          "taipan_list_erase", builder.getVoidTy(),
          {list, position, builder.CreateAdd(position, builder.getInt64(1))});
    };
    bool sliceValue = call.argumentTypes[1]->kind() == TypeKind::Slice;
    if (index->kind != ExprKind::Slice && !sliceValue) {
      llvm::Value *at = lowering.lowerExpr(index);
      erase(lowering.containers().listPosition(at, call.argumentTypes[1],
                                               lowering.containers().listLength(list),
                                               "list assignment index out of range"));
      return noneValue(lowering);
    }
    ContainerLowering::ListSlice slice =
        sliceValue ? lowering.containers().listSliceOfValue(lowering.lowerExpr(index),
                                                            lowering.containers().listLength(list))
                   : lowering.containers().listSlice(index, list);
    // Erase from the highest position down, so the positions still to erase do not move.
    llvm::Value *negative = builder.CreateICmpSLT(slice.step, builder.getInt64(0));
    llvm::Value *last = builder.CreateSub(slice.count, builder.getInt64(1));
    llvm::Value *lowest = builder.CreateSelect(
        negative, builder.CreateAdd(slice.start, builder.CreateMul(last, slice.step)), slice.start);
    llvm::Value *stride = builder.CreateSelect(negative, builder.CreateNeg(slice.step), slice.step);
    lowering.arrays().forEachIndex({slice.count}, [&](const Values &at) {
      erase(builder.CreateAdd(lowest, builder.CreateMul(builder.CreateSub(last, at[0]), stride)));
    });
    return noneValue(lowering);
  };
  library.add(std::move(remove));
  addOrdering(library, "<", CompareOp::Lt);
  addOrdering(library, "<=", CompareOp::LtE);
  addOrdering(library, ">", CompareOp::Gt);
  addOrdering(library, ">=", CompareOp::GtE);
}

void registerBuiltins(Library &library) {
  // list() and list(iterable): a new list of the items.
  addCpu(
      library, "list", {{"", true}},
      [](LibraryCall &call) {
        if (call.argumentTypes.empty())
          return types::list(nullptr);
        const Type *item = iterableItem(call.argumentTypes[0]);
        if (!item && !call.argumentTypes[0]->isList())
          throwNoOverload(call);
        return types::list(item);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::Value *result =
            lowering.containers().newList(call.resultType, lowering.irBuilder().getInt64(0));
        if (!values.empty())
          appendAll(lowering, result, call.resultType, values[0], call.argumentTypes[0]);
        return result;
      });
  // tuple() and tuple(t) of a tuple (itself): a tuple's length must be known while compiling,
  // so tuple() of a list or an array is a TypingError. Nothing is allocated: kernels too.
  library.add(
      "tuple", {{"", true}},
      [](LibraryCall &call) {
        if (call.argumentTypes.empty())
          return types::tuple({});
        if (!call.argumentTypes[0]->isTuple())
          throwTypingError("tuple() of " + call.argumentTypes[0]->name() +
                               " is not supported: a tuple's length must be known while "
                               "compiling (tuple() of a tuple is)",
                           call.location);
        // A plain tuple of the items, of a named tuple or a LiteralList too (same layout).
        return types::tuple(call.argumentTypes[0]->elements());
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        return values.empty() ? lowering.lowerTuple({}, call.resultType) : values[0];
      });
  // any() and all() of a list, range, uniform tuple or 1-D array. Of a generator expression
  // they are loops that stop at the answer (syntax/Comprehensions.h).
  for (const char *name : {"any", "all"})
    addCpu(
        library, name, {{"", false}},
        [](LibraryCall &call) {
          // Of a generator, they stop resuming it at the answer; its items must hold no
          // references (each is dropped right after its test).
          const Type *iterable = call.argumentTypes[0];
          if ((!iterableItem(iterable) && !iterable->isList()) ||
              (iterable->isGenerator() && iterable->yieldType()->holdsReferences()))
            throwNoOverload(call);
          return types::boolean();
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          bool isAll = call.function->name == "all";
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          llvm::AllocaInst *result = lowering.createEntryAlloca(builder.getInt1Ty(), "decided");
          builder.CreateStore(builder.getInt1(isAll), result);
          const Type *iterable = call.argumentTypes[0];
          if (iterable->isGenerator()) {
            llvm::BasicBlock *header = lowering.newBlock("decide.next");
            llvm::BasicBlock *decided = lowering.newBlock("decide.decided");
            llvm::BasicBlock *end = lowering.newBlock("decide.end");
            builder.CreateBr(header);
            builder.SetInsertPoint(header);
            llvm::Value *item = lowering.generators().nextGeneratorItem(values[0], iterable, end);
            llvm::Value *truth = lowering.truthValue(item, iterable->yieldType());
            // all() is decided by a false item, any() by a true one.
            builder.CreateCondBr(truth, isAll ? header : decided, isAll ? decided : header);
            builder.SetInsertPoint(decided);
            builder.CreateStore(builder.getInt1(!isAll), result);
            builder.CreateBr(end);
            builder.SetInsertPoint(end);
            return static_cast<llvm::Value *>(builder.CreateLoad(builder.getInt1Ty(), result));
          }
          if (iterableItem(call.argumentTypes[0]))
            lowering.loops().forEachItem(
                values[0], call.argumentTypes[0], [&](llvm::Value *item, const Type *itemType) {
                  llvm::Value *truth = lowering.truthValue(item, itemType);
                  llvm::Value *current = builder.CreateLoad(builder.getInt1Ty(), result);
                  builder.CreateStore(isAll ? builder.CreateAnd(current, truth)
                                            : builder.CreateOr(current, truth),
                                      result);
                });
          return static_cast<llvm::Value *>(builder.CreateLoad(builder.getInt1Ty(), result));
        });
  addCpu(
      library, "sorted", {{"", false}, {"key", true}, {"reverse", true}},
      [](LibraryCall &call) {
        const Type *item = iterableItem(call.argumentTypes[0]);
        if (!item)
          throwNoOverload(call);
        if (call.arguments.size() > 1 && call.arguments[1] && !call.argumentTypes[1]->isNone())
          throwUnsupported("sorted() with a key is not supported", call.location);
        if (call.arguments.size() > 2 && !call.argumentTypes[2]->isIntegerLike())
          throwNoOverload(call);
        requireSortable(call, item);
        return types::list(item);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::Value *result =
            lowering.containers().newList(call.resultType, lowering.irBuilder().getInt64(0));
        appendAll(lowering, result, call.resultType, values[0], call.argumentTypes[0]);
        llvm::Value *descending = values.size() > 2
                                      ? lowering.truthValue(values[2], call.argumentTypes[2])
                                      : lowering.irBuilder().getInt1(false);
        sortList(lowering, result, call.resultType, descending);
        return result;
      });
}

} // namespace

void registerListFunctions(Library &library) {
  registerMethods(library);
  registerOperators(library);
  registerInPlaceOperators(library);
  registerBuiltins(library);
}

} // namespace taipan
