// Dicts in compiled code, one library entry per operation: the literal ("dict.{}"), the operators
// typing records under their expressions ("dict.[]", "dict.in", "dict.=="...), the methods
// ("dict.get"...) and dict(). Lowering helpers are in lower/LowerDicts.cpp.
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"
#include "typing/DictTyping.h"
#include "typing/OptionalTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// The dict a method is called on.
const Type *dictArgument(const LibraryCall &call) {
  const Type *dict = call.argumentTypes[0];
  if (!dict->isDict())
    throwNoOverload(call);
  return dict;
}

/// A key argument must convert to the dict's key type without changing its value.
void requireKey(const LibraryCall &call, const Type *dict, const Type *key) {
  if (dict->keyType() && !dictAcceptsKey(dict, key))
    throwTypingError("a key of type " + key->name() + " does not match " + dict->name() +
                         " (its keys are " + dict->keyType()->name() + ")",
                     call.location);
}

void requireValue(const LibraryCall &call, const Type *dict, const Type *value) {
  if (dict->keyType() && !dictAcceptsValue(dict, value))
    throwTypingError("cannot store a value of type " + value->name() + " into a " + dict->name(),
                     call.location);
}

/// The type of `d.get(k, default)`, `d.pop(k, default)`: the value type and the default's
/// unified; a reference-holding value must match the default's type exactly.
const Type *withDefault(const LibraryCall &call, const Type *dict, const Type *fallback) {
  const Type *normal = dictValueType(fallback);
  if (!dict->keyType())
    return normal; // for now: `counts[w] = counts.get(w, 0) + 1` then types the dict
  if (fallback->isNone() && canBeOptional(dict->valueType()))
    return types::optional(dict->valueType()); // d.pop(k, None): the value or None

  const Type *result = normal ? unifyTypes(dict->valueType(), normal) : nullptr;
  if (!result || (result->holdsReferences() && result != dict->valueType()))
    throwTypingError("the default of type " + fallback->name() +
                         " does not match the values "
                         "of " +
                         dict->name(),
                     call.location);
  return result;
}

/// The item type of an iterable of (key, value) pairs that dict() takes, or null.
const Type *pairIterableItem(const Type *iterable) {
  const Type *item = nullptr;
  if (iterable->isList())
    item = iterable->itemType();
  else if (iterable->isSet())
    item = iterable->keyType();
  else if (iterable->isUniformTuple())
    item = iterable->elements().front();
  else if (iterable->isGenerator())
    item = iterable->yieldType();
  return item && item->isTuple() && item->elements().size() == 2 ? item : nullptr;
}

/// The value slot of `key` in `dict`, or null.
llvm::Value *findSlot(LoweringApi &lowering, llvm::Value *dict, const Type *dictType,
                      llvm::Value *key, const Type *keyType, llvm::Value **keyAddress = nullptr) {
  llvm::Value *address = lowering.containers().dictKeyAddress(key, keyType, dictType);
  if (keyAddress)
    *keyAddress = address;
  return lowering.containers().listRuntime("taipan_dict_get", lowering.irBuilder().getPtrTy(),
                                           {dict, address});
}

/// Raises KeyError(key) when `missing` holds, continuing where it does not.
void raiseKeyErrorIf(LoweringApi &lowering, llvm::Value *missing, llvm::Value *dict,
                     llvm::Value *keyAddress) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::BasicBlock *raise = lowering.newBlock("dict.missing");
  llvm::BasicBlock *found = lowering.newBlock("dict.found");
  builder.CreateCondBr(missing, raise, found);
  builder.SetInsertPoint(raise);
  lowering.containers().listRuntime("taipan_dict_key_error", builder.getVoidTy(),
                                    {dict, keyAddress});
  lowering.exitFunction(builder.getInt32(KeyErrorId));
  builder.SetInsertPoint(found);
}

/// The value at `slot`, or a zeroed stand-in when the slot is null (for selects).
llvm::Value *loadOrZero(LoweringApi &lowering, llvm::Value *slot, const Type *dictType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *memory = memoryType(lowering.llvmContext(), dictType->valueType());
  llvm::AllocaInst *zero = lowering.createEntryAlloca(memory, "dict.zero");
  builder.CreateStore(llvm::Constant::getNullValue(memory), zero);
  llvm::Value *safe = builder.CreateSelect(builder.CreateIsNull(slot), zero, slot);
  return lowering.containers().loadDictValue(safe, dictType);
}

void registerOperators(Library &library) {
  // {k0: v0, k1: v1, ...}: the keys and values unify, as Numba types a literal dict.
  addCpu(
      library, "dict.{}", {},
      [](LibraryCall &call) -> const Type * {
        const Type *dict = types::dict(nullptr, nullptr);
        for (size_t i = 0; i + 1 < call.argumentTypes.size(); i += 2) {
          const Type *pair = dictTypeOfStore(call.argumentTypes[i], call.argumentTypes[i + 1],
                                             call.arguments[i]->location);
          const Type *unified = unifyTypes(dict, pair);
          if (!unified)
            throwTypingError("cannot unify " + dict->name() + " and " + pair->name() +
                                 " in a dict literal (dicts hold keys of one type and values "
                                 "of one type)",
                             call.arguments[i]->location);
          dict = unified;
        }
        return dict;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::Value *dict = lowering.containers().newDict(call.resultType);
        for (size_t i = 0; i + 1 < values.size(); i += 2)
          lowering.containers().storeDictItem(dict, call.resultType, values[i],
                                              call.argumentTypes[i], values[i + 1],
                                              call.argumentTypes[i + 1]);
        return dict;
      });
  // d[k]: the value (borrowed from the dict), or KeyError(k).
  addCpu(
      library, "dict.[]", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        const Type *dict = call.argumentTypes[0];
        requireKey(call, dict, call.argumentTypes[1]);
        return dict->valueType(); // null while `{}` is not typed yet
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        const Type *dict = call.argumentTypes[0];
        lowering.containers().requireDictTypes(dict, call.location);
        llvm::Value *keyAddress;
        llvm::Value *slot =
            findSlot(lowering, values[0], dict, values[1], call.argumentTypes[1], &keyAddress);
        raiseKeyErrorIf(lowering, lowering.irBuilder().CreateIsNull(slot), values[0], keyAddress);
        return lowering.containers().loadDictValue(slot, dict);
      });
  for (bool negated : {false, true})
    addCpu(
        library, negated ? "dict.not in" : "dict.in", {{"", false}, {"", false}},
        [](LibraryCall &call) {
          if (!call.argumentTypes[1]->isDict())
            throwUnsupported("'in' with a dict on its left is not supported", call.location);
          requireKey(call, call.argumentTypes[1], call.argumentTypes[0]);
          return types::boolean();
        },
        [negated](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          const Type *dict = call.argumentTypes[1];
          if (!dict->keyType())
            return static_cast<llvm::Value *>(builder.getInt1(negated));
          llvm::Value *slot = findSlot(lowering, values[1], dict, values[0], call.argumentTypes[0]);
          return negated ? builder.CreateIsNull(slot) : builder.CreateIsNotNull(slot);
        });
  for (bool negated : {false, true})
    addCpu(
        library, negated ? "dict.!=" : "dict.==", {{"", false}, {"", false}},
        [](LibraryCall &call) {
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          if (!left->isDict() || !right->isDict())
            return types::boolean(); // a dict never equals a value of another type
          if (left->keyType() && right->keyType() &&
              (left->keyType() != right->keyType() ||
               !comparisonOperandType(CompareOp::Eq, left->valueType(), right->valueType())))
            throwTypingError("== of " + left->name() + " and " + right->name() +
                                 " is not supported (the keys must have one type and the "
                                 "values compare)",
                             call.location);
          return types::boolean();
        },
        [negated](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          if (!left->isDict() || !right->isDict())
            return static_cast<llvm::Value *>(builder.getInt1(negated));
          llvm::Value *same = builder.CreateICmpEQ(lowering.containers().dictLength(values[0]),
                                                   lowering.containers().dictLength(values[1]));
          llvm::AllocaInst *equal = lowering.createEntryAlloca(builder.getInt1Ty(), "dict.equal");
          builder.CreateStore(same, equal);
          if (left->keyType() && right->keyType())
            lowering.containers().forEachDictEntry(
                values[0], left, [&](llvm::Value *key, llvm::Value *value) {
                  llvm::Value *slot = findSlot(lowering, values[1], right, key, left->keyType());
                  llvm::Value *other = loadOrZero(lowering, slot, right);
                  llvm::Value *match = builder.CreateAnd(
                      builder.CreateIsNotNull(slot),
                      lowering.operators().lowerComparison(CompareOp::Eq, value, left->valueType(),
                                                           other, right->valueType()));
                  builder.CreateStore(
                      builder.CreateAnd(builder.CreateLoad(builder.getInt1Ty(), equal), match),
                      equal);
                });
          llvm::Value *result = builder.CreateLoad(builder.getInt1Ty(), equal);
          return negated ? builder.CreateNot(result) : result;
        });
}

void registerLookups(Library &library) {
  // d.get(k): Optional(value); d.get(k, default): the value or the default.
  addCpu(
      library, "dict.get", {{"", false}, {"", false}, {"default", true}},
      [](LibraryCall &call) -> const Type * {
        const Type *dict = dictArgument(call);
        requireKey(call, dict, call.argumentTypes[1]);
        if (call.argumentTypes.size() > 2 && !call.argumentTypes[2]->isNone())
          return withDefault(call, dict, call.argumentTypes[2]);
        if (!dict->keyType())
          return nullptr;
        if (!canBeOptional(dict->valueType()))
          throwUnsupported("d.get(key) of a " + dict->name() +
                               " is not supported (its values cannot be None in compiled "
                               "code); give a default",
                           call.location);
        return types::optional(dict->valueType());
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *dict = call.argumentTypes[0];
        lowering.containers().requireDictTypes(dict, call.location);
        llvm::Value *slot = findSlot(lowering, values[0], dict, values[1], call.argumentTypes[1]);
        llvm::Value *value = lowering.castValue(loadOrZero(lowering, slot, dict), dict->valueType(),
                                                call.resultType);
        bool given = values.size() > 2 && !call.argumentTypes[2]->isNone();
        llvm::Value *fallback =
            given ? lowering.castValue(values[2], call.argumentTypes[2], call.resultType)
                  : lowering.castValue(noneValue(lowering), types::none(), call.resultType);
        return builder.CreateSelect(builder.CreateIsNull(slot), fallback, value);
      });
  // d.setdefault(k, default): d[k], stored first when missing.
  addCpu(
      library, "dict.setdefault", {{"", false}, {"", false}, {"default", true}},
      [](LibraryCall &call) -> const Type * {
        const Type *dict = dictArgument(call);
        if (call.argumentTypes.size() < 3)
          throwUnsupported("d.setdefault(key) without a default is not supported (the value "
                           "would be None)",
                           call.location);
        requireKey(call, dict, call.argumentTypes[1]);
        requireValue(call, dict, call.argumentTypes[2]);
        return dict->valueType();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *dict = call.argumentTypes[0];
        lowering.containers().requireDictTypes(dict, call.location);
        llvm::Value *slot = findSlot(lowering, values[0], dict, values[1], call.argumentTypes[1]);
        llvm::BasicBlock *store = lowering.newBlock("setdefault.store");
        llvm::BasicBlock *done = lowering.newBlock("setdefault.done");
        builder.CreateCondBr(builder.CreateIsNull(slot), store, done);
        builder.SetInsertPoint(store);
        lowering.containers().storeDictItem(values[0], dict, values[1], call.argumentTypes[1],
                                            values[2], call.argumentTypes[2]);
        builder.CreateBr(done);
        builder.SetInsertPoint(done);
        llvm::Value *stored = findSlot(lowering, values[0], dict, values[1], call.argumentTypes[1]);
        return lowering.containers().loadDictValue(stored, dict);
      });
  // d.pop(k) and d.pop(k, default): the value, moved out of the dict (owned by the statement).
  addCpu(
      library, "dict.pop", {{"", false}, {"", false}, {"default", true}},
      [](LibraryCall &call) -> const Type * {
        const Type *dict = dictArgument(call);
        requireKey(call, dict, call.argumentTypes[1]);
        if (call.argumentTypes.size() > 2)
          return withDefault(call, dict, call.argumentTypes[2]);
        return dict->valueType();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *dict = call.argumentTypes[0];
        lowering.containers().requireDictTypes(dict, call.location);
        const Type *valueType = dict->valueType();
        llvm::Type *memory = memoryType(lowering.llvmContext(), valueType);
        llvm::Value *keyAddress =
            lowering.containers().dictKeyAddress(values[1], call.argumentTypes[1], dict);
        llvm::AllocaInst *out = lowering.createEntryAlloca(memory, "dict.popped");
        builder.CreateStore(llvm::Constant::getNullValue(memory), out);
        llvm::Value *found = lowering.containers().listRuntime(
            "taipan_dict_pop", builder.getInt32Ty(), {values[0], keyAddress, out});
        llvm::Value *missing = builder.CreateICmpEQ(found, builder.getInt32(0));
        const Type *result = call.resultType;
        llvm::Value *value;
        if (values.size() < 3) {
          raiseKeyErrorIf(lowering, missing, values[0], keyAddress);
          value = lowering.containers().loadDictValue(out, dict);
        } else {
          // The default becomes owned like the popped value, so the result is one temporary.
          llvm::Value *popped =
              lowering.castValue(lowering.containers().loadDictValue(out, dict), valueType, result);
          llvm::Value *fallback = lowering.castValue(values[2], call.argumentTypes[2], result);
          value = builder.CreateSelect(missing, fallback, popped);
          if (result->holdsReferences()) {
            llvm::BasicBlock *retain = lowering.newBlock("pop.default");
            llvm::BasicBlock *done = lowering.newBlock("pop.done");
            builder.CreateCondBr(missing, retain, done);
            builder.SetInsertPoint(retain);
            lowering.incref(fallback, result);
            builder.CreateBr(done);
            builder.SetInsertPoint(done);
          }
        }
        if (result->holdsReferences())
          lowering.addTemporary(value, result);
        return value;
      });
  // d.popitem(): the last (key, value) inserted, or KeyError when empty.
  addCpu(
      library, "dict.popitem", {{"", false}},
      [](LibraryCall &call) -> const Type * {
        const Type *dict = dictArgument(call);
        if (!dict->keyType())
          return nullptr;
        return types::tuple({dict->keyType(), dict->valueType()});
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *dict = call.argumentTypes[0];
        lowering.containers().requireDictTypes(dict, call.location);
        llvm::LLVMContext &context = lowering.llvmContext();
        llvm::AllocaInst *key =
            lowering.createEntryAlloca(memoryType(context, dict->keyType()), "dict.popkey");
        llvm::AllocaInst *value =
            lowering.createEntryAlloca(memoryType(context, dict->valueType()), "dict.popvalue");
        llvm::Value *found = lowering.containers().listRuntime(
            "taipan_dict_popitem", builder.getInt32Ty(), {values[0], key, value});
        lowering.exceptions().raiseIf(builder.CreateICmpEQ(found, builder.getInt32(0)), KeyErrorId,
                                      "popitem(): dictionary is empty");
        const Type *keyType = dict->keyType();
        llvm::Value *keyValue =
            fromMemoryForm(builder, builder.CreateLoad(memoryType(context, keyType), key), keyType);
        llvm::Value *item = lowering.lowerTuple(
            {keyValue, lowering.containers().loadDictValue(value, dict)}, call.resultType);
        if (call.resultType->holdsReferences())
          lowering.addTemporary(item, call.resultType);
        return item;
      });
}

void registerMethods(Library &library) {
  addCpu(
      library, "dict.__delitem__", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        requireKey(call, dictArgument(call), call.argumentTypes[1]);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *dict = call.argumentTypes[0];
        lowering.containers().requireDictTypes(dict, call.location);
        llvm::Value *keyAddress =
            lowering.containers().dictKeyAddress(values[1], call.argumentTypes[1], dict);
        llvm::Value *found = lowering.containers().listRuntime(
            "taipan_dict_pop", builder.getInt32Ty(),
            {values[0], keyAddress, llvm::ConstantPointerNull::get(builder.getPtrTy())});
        raiseKeyErrorIf(lowering, builder.CreateICmpEQ(found, builder.getInt32(0)), values[0],
                        keyAddress);
        return noneValue(lowering);
      });
  addCpu(
      library, "dict.clear", {{"", false}},
      [](LibraryCall &call) {
        dictArgument(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &, const Values &values) {
        lowering.containers().listRuntime("taipan_dict_clear", lowering.irBuilder().getVoidTy(),
                                          {values[0]});
        return noneValue(lowering);
      });
  addCpu(
      library, "dict.copy", {{"", false}}, [](LibraryCall &call) { return dictArgument(call); },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        if (!call.resultType->keyType())
          return lowering.containers().newDict(call.resultType);
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *copy =
            lowering.containers().listRuntime("taipan_dict_copy", builder.getPtrTy(), {values[0]});
        lowering.exitIf(builder.CreateIsNull(copy), builder.getInt32(MemoryErrorId));
        lowering.addTemporary(copy, call.resultType);
        return copy;
      });
  addCpu(
      library, "dict.update", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *dict = dictArgument(call);
        const Type *other = call.argumentTypes[1];
        if (!other->isDict())
          throwUnsupported("d.update() takes a dict here (iterables of pairs and keywords are "
                           "not supported)",
                           call.location);
        if (dict->keyType() && other->keyType() && unifyTypes(dict, other) != dict)
          throwTypingError("cannot update a " + dict->name() + " with a " + other->name(),
                           call.location);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        const Type *dict = call.argumentTypes[0];
        const Type *other = call.argumentTypes[1];
        if (!other->keyType())
          return noneValue(lowering);
        lowering.containers().requireDictTypes(dict, call.location);
        llvm::Value *source = lowering.castValue(values[1], other, dict);
        lowering.exitUnlessZero(lowering.containers().listRuntime(
            "taipan_dict_update", lowering.irBuilder().getInt32Ty(), {values[0], source}));
        return noneValue(lowering);
      });
  // dict(), dict(d) (a copy) and dict(iterable of pairs), as Numba has them; dict(**kw) is not
  // supported (Numba refuses it too). dict(zip(...)) and dict(<generator expression>) are read as
  // comprehensions (syntax/Comprehensions.h).
  addCpu(
      library, "dict", {{"", true}},
      [](LibraryCall &call) -> const Type * {
        if (call.argumentTypes.empty())
          return types::dict(nullptr, nullptr);
        const Type *iterable = call.argumentTypes[0];
        if (iterable->isDict())
          return iterable;
        if ((iterable->isList() && !iterable->itemType()) ||
            (iterable->isTuple() && iterable->elements().empty()))
          return types::dict(nullptr, nullptr); // dict([]) and dict(())
        const Type *pair = pairIterableItem(iterable);
        if (!pair)
          throwTypingError("dict() of a " + iterable->name() +
                               " is not supported (dict() takes a dict, or an iterable of "
                               "(key, value) pairs: a list, uniform tuple, set or generator of "
                               "2-tuples)",
                           call.location);
        return dictTypeOfStore(pair->elements()[0], pair->elements()[1], call.location);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        if (values.empty() || !call.resultType->keyType())
          return lowering.containers().newDict(call.resultType);
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *iterable = call.argumentTypes[0];
        if (iterable->isDict()) {
          llvm::Value *copy = lowering.containers().listRuntime("taipan_dict_copy",
                                                                builder.getPtrTy(), {values[0]});
          lowering.exitIf(builder.CreateIsNull(copy), builder.getInt32(MemoryErrorId));
          lowering.addTemporary(copy, call.resultType);
          return copy;
        }
        llvm::Value *dict = lowering.containers().newDict(call.resultType);
        lowering.loops().forEachItem(
            values[0], iterable, [&](llvm::Value *pair, const Type *pairType) {
              lowering.containers().storeDictItem(
                  dict, call.resultType, lowering.tupleElement(pair, pairType, 0),
                  pairType->elements()[0], lowering.tupleElement(pair, pairType, 1),
                  pairType->elements()[1]);
            });
        return dict;
      });
}

} // namespace

void registerDictFunctions(Library &library) {
  registerOperators(library);
  registerLookups(library);
  registerMethods(library);
}

} // namespace taipan
