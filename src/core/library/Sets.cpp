// Sets in compiled code, one library entry per operation: set() and the literal ("set.{}"), the
// operators typing records under their expressions ("set.|", "set.in", "set.<="...) and the
// methods ("set.add"...). Each computes what CPython's setobject.c computes, in its order, so
// the tables (and iteration order) match. Lowering helpers are in lower/LowerSets.cpp.
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "runtime/Runtime.h"
#include "runtime/Sets.h"
#include "types/NumericPromotion.h"
#include "typing/DictTyping.h"
#include "typing/SetTyping.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;
using runtime::SetOperation;

/// Whether CPython's AST optimiser turns `expr` into a constant: a literal, or unary and binary
/// operators and tuples of such.
bool isFoldedConstant(const Expr *expr) {
  switch (expr->kind) {
  case ExprKind::Constant:
    return true;
  case ExprKind::UnaryOp:
  case ExprKind::BinOp:
  case ExprKind::Tuple:
    return std::all_of(expr->operands.begin(), expr->operands.end(),
                       [](const Expr *operand) { return operand && isFoldedConstant(operand); });
  default:
    return false;
  }
}

/// The set a method is called on.
const Type *setArgument(const LibraryCall &call) {
  const Type *set = call.argumentTypes[0];
  if (!set->isSet())
    throwNoOverload(call);
  return set;
}

/// The set a method changing it is called on: a frozenset has no such method, as in CPython
/// (where calling it is an AttributeError).
const Type *mutableSetArgument(const LibraryCall &call) {
  const Type *set = setArgument(call);
  if (set->isFrozen())
    throwTypingError("'frozenset' object has no attribute '" + call.function->name.substr(4) +
                         "' (a frozenset cannot change; " + set->name() + ")",
                     call.location);
  return set;
}

/// A key argument must convert to the set's key type without changing its value.
void requireKey(const LibraryCall &call, const Type *set, const Type *key) {
  if (set->keyType() && !dictAcceptsKey(set, key))
    throwTypingError("a key of type " + key->name() + " does not match " + set->name() +
                         " (its keys are " + set->keyType()->name() + ")",
                     call.location);
}

/// The set type of a method's other operand (a set or an iterable), or a TypingError.
const Type *otherSetType(const LibraryCall &call, size_t index) {
  const Type *other = setOfIterable(call.argumentTypes[index]);
  if (!other)
    throwTypingError(call.function->name.substr(4) +
                         "() takes a set or an iterable of "
                         "hashable items, not " +
                         call.argumentTypes[index]->name(),
                     call.location);
  return other;
}

/// The set type two sets combine into (their keys unified), or a TypingError. The result is a
/// frozenset when the left one is, as CPython's set operations give the left operand's type.
const Type *combinedType(const LibraryCall &call, const Type *left, const Type *right) {
  if (!left->keyType() || !right->keyType())
    return types::setLike(left, left->keyType() ? left->keyType() : right->keyType());
  const Type *key = unifyTypes(left->keyType(), right->keyType());
  if (!key || !dictKeyType(key) || dictKeyType(key) != key)
    throwTypingError("cannot combine a " + left->name() + " and a " + right->name(), call.location);
  return types::setLike(left, key);
}

/// A method updating the set in place takes keys that convert into its own.
void requireUpdate(const LibraryCall &call, const Type *set, const Type *other) {
  if (set->keyType() && other->keyType() && !dictAcceptsKey(set, other->keyType()))
    throwTypingError("cannot update a " + set->name() + " with items of type " +
                         other->keyType()->name(),
                     call.location);
}

llvm::Value *checkedSet(LoweringApi &lowering, llvm::Value *set, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  lowering.exitIf(builder.CreateIsNull(set), builder.getInt32(MemoryErrorId));
  lowering.addTemporary(set, type);
  return set;
}

llvm::Value *combine(LoweringApi &lowering, llvm::Value *a, llvm::Value *b, SetOperation operation,
                     const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *result = lowering.containers().listRuntime("taipan_set_combine", builder.getPtrTy(),
                                                          {a, b, builder.getInt32(operation)});
  return checkedSet(lowering, result, resultType);
}

void combineInto(LoweringApi &lowering, llvm::Value *a, llvm::Value *b, SetOperation operation) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  lowering.exitUnlessZero(lowering.containers().listRuntime(
      "taipan_set_combine_into", builder.getInt32Ty(), {a, b, builder.getInt32(operation)}));
}

/// A new set: CPython's set_intersection(a, other) for a set or an iterable other (an iterable
/// is walked in its order, keeping the items `a` holds).
llvm::Value *intersection(LoweringApi &lowering, llvm::Value *a, const Type *aType,
                          llvm::Value *other, const Type *otherType, const Type *resultType) {
  if (otherType->isSet()) {
    llvm::Value *left = lowering.containers().asSet(a, aType, resultType);
    llvm::Value *right = lowering.containers().asSet(other, otherType, resultType);
    return combine(lowering, left, right, runtime::SetIntersection, resultType);
  }
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *result = lowering.containers().newSet(resultType);
  if (otherType->isList() && !otherType->itemType())
    return result;
  lowering.loops().forEachItem(other, otherType, [&](llvm::Value *item, const Type *itemType) {
    llvm::Value *address = lowering.containers().setKeyAddress(item, itemType, aType);
    llvm::Value *found = lowering.containers().listRuntime("taipan_set_contains",
                                                           builder.getInt32Ty(), {a, address});
    llvm::BasicBlock *add = lowering.newBlock("set.common");
    llvm::BasicBlock *next = lowering.newBlock("set.next");
    builder.CreateCondBr(builder.CreateICmpNE(found, builder.getInt32(0)), add, next);
    builder.SetInsertPoint(add);
    lowering.containers().addToSet(result, resultType, item, itemType);
    builder.CreateBr(next);
    builder.SetInsertPoint(next);
  });
  return result;
}

/// `a op b` or a.method(b) returning a new set, as CPython computes it.
llvm::Value *lowerCombination(LoweringApi &lowering, const LibraryCall &call, const Values &values,
                              SetOperation operation) {
  const Type *aType = call.argumentTypes[0], *bType = call.argumentTypes[1];
  const Type *resultType = call.resultType;
  lowering.containers().requireSetType(resultType, call.location);
  llvm::Value *a = values[0], *b = values[1];
  switch (operation) {
  case runtime::SetUnion: { // set_copy, then set_update_internal
    if (bType->isSet())     // the runtime skips the update of `a | a`, as CPython does
      return combine(lowering, lowering.containers().asSet(a, aType, resultType),
                     lowering.containers().asSet(b, bType, resultType), operation, resultType);
    llvm::Value *left = lowering.containers().asSet(a, aType, resultType);
    llvm::Value *result = lowering.containers().listRuntime(
        "taipan_set_copy", lowering.irBuilder().getPtrTy(), {left});
    checkedSet(lowering, result, resultType);
    lowering.containers().addAllToSet(result, resultType, b, bType);
    return result;
  }
  case runtime::SetIntersection:
    return intersection(lowering, lowering.containers().asSet(a, aType, resultType), resultType, b,
                        bType, resultType);
  case runtime::SetDifference:
    if (!bType->isSet()) { // set_copy_and_difference
      llvm::Value *left = lowering.containers().asSet(a, aType, resultType);
      llvm::Value *result = lowering.containers().listRuntime(
          "taipan_set_copy", lowering.irBuilder().getPtrTy(), {left});
      checkedSet(lowering, result, resultType);
      combineInto(lowering, result, lowering.containers().asSet(b, bType, resultType), operation);
      return result;
    }
    return combine(lowering, lowering.containers().asSet(a, aType, resultType),
                   lowering.containers().asSet(b, bType, resultType), operation, resultType);
  default: // symmetric difference: a set of b's items, updated with a
    if (!bType->isSet()) {
      llvm::Value *result = lowering.containers().asSet(b, bType, resultType); // a new set
      combineInto(lowering, result, lowering.containers().asSet(a, aType, resultType), operation);
      return result;
    }
    return combine(lowering, lowering.containers().asSet(a, aType, resultType),
                   lowering.containers().asSet(b, bType, resultType), operation, resultType);
  }
}

/// a.method(b) updating a in place, as CPython computes it.
void lowerUpdate(LoweringApi &lowering, const LibraryCall &call, const Values &values,
                 SetOperation operation) {
  const Type *aType = call.argumentTypes[0], *bType = call.argumentTypes[1];
  if (!aType->keyType()) {
    if (operation == runtime::SetUnion && (bType->isSet() ? bType->keyType() : nullptr))
      lowering.containers().requireSetType(aType, call.location);
    return; // set() stays empty (or `set().update(set())`)
  }
  llvm::Value *a = values[0], *b = values[1];
  switch (operation) {
  case runtime::SetUnion:
    lowering.containers().addAllToSet(a, aType, b, bType);
    return;
  case runtime::SetIntersection: {
    // CPython computes a & b and takes its table.
    llvm::Value *computed = intersection(lowering, a, aType, b, bType, aType);
    combineInto(lowering, a, computed, runtime::SetReplace);
    return;
  }
  default:
    combineInto(lowering, a, lowering.containers().asSet(b, bType, aType), operation);
  }
}

SetOperation operationOf(const std::string &name) {
  if (name == "|" || name.find("union") != std::string::npos || name == "update")
    return runtime::SetUnion;
  if (name == "&" || name.find("intersection") != std::string::npos)
    return runtime::SetIntersection;
  if (name == "-" || name.rfind("difference", 0) == 0)
    return runtime::SetDifference;
  return runtime::SetSymmetricDifference;
}

void registerConstruction(Library &library) {
  // set() and set(iterable).
  addCpu(
      library, "set", {{"", true}},
      [](LibraryCall &call) {
        if (call.argumentTypes.empty())
          return types::set(nullptr);
        const Type *set = setOfIterable(call.argumentTypes[0]);
        if (!set)
          throwTypingError("set() of a " + call.argumentTypes[0]->name() +
                               " is not supported (set() takes an iterable of integers, floats, "
                               "booleans, strings or tuples of them)",
                           call.location);
        return set;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::Value *set = lowering.containers().newSet(call.resultType);
        if (!values.empty() && call.resultType->keyType())
          lowering.containers().addAllToSet(set, call.resultType, values[0], call.argumentTypes[0]);
        return set;
      });
  // frozenset() and frozenset(iterable): a set that cannot change, built as set() builds it.
  addCpu(
      library, "frozenset", {{"", true}},
      [](LibraryCall &call) {
        if (call.argumentTypes.empty())
          return types::frozenset(nullptr);
        const Type *set = setOfIterable(call.argumentTypes[0]);
        if (!set)
          throwTypingError("frozenset() of a " + call.argumentTypes[0]->name() +
                               " is not supported (frozenset() takes an iterable of integers, "
                               "floats, booleans, strings or tuples of them)",
                           call.location);
        return types::frozenset(set->keyType());
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        const Type *argument = values.empty() ? nullptr : call.argumentTypes[0];
        if (argument && argument->isFrozen() && argument == call.resultType) {
          lowering.incref(values[0], argument); // frozenset(f) is f, as in CPython
          lowering.addTemporary(values[0], argument);
          return values[0];
        }
        llvm::Value *set = lowering.containers().newSet(call.resultType);
        if (argument && call.resultType->keyType())
          lowering.containers().addAllToSet(set, call.resultType, values[0], argument);
        return set;
      });
  // {a, b, ...}: the keys unify; each is added in order, as CPython's BUILD_SET does.
  addCpu(
      library, "set.{}", {},
      [](LibraryCall &call) -> const Type * {
        const Type *set = types::set(nullptr);
        for (size_t i = 0; i < call.argumentTypes.size(); ++i) {
          const Type *key = dictKeyType(call.argumentTypes[i]);
          const Type *unified = key ? unifyTypes(set, types::set(key)) : nullptr;
          if (!unified)
            throwTypingError("a set of " + set->name() + " cannot hold a " +
                                 call.argumentTypes[i]->name() +
                                 " (sets hold integers, floats, booleans, strings or tuples "
                                 "of them, of one type)",
                             call.arguments[i]->location);
          set = unified;
        }
        return set;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        // CPython compiles a literal of three or more constants into a frozenset constant,
        // which its constant merging rebuilds from the first frozenset's iteration order, and
        // an empty set is updated with that. Collisions make each step's order differ, so the
        // same steps run here (each new block is a temporary of the statement).
        bool frozenConstant =
            values.size() > 2 &&
            std::all_of(call.arguments.begin(), call.arguments.end(), isFoldedConstant);
        llvm::Value *items = lowering.containers().newSet(call.resultType);
        for (size_t i = 0; i < values.size(); ++i)
          lowering.containers().addToSet(items, call.resultType, values[i], call.argumentTypes[i]);
        if (!frozenConstant)
          return items;
        llvm::Value *merged = lowering.containers().newSet(call.resultType);
        const Type *orderType = types::list(call.resultType->keyType());
        llvm::Value *order = lowering.containers().setToList(items, call.resultType);
        lowering.loops().forEachItem(order, orderType, [&](llvm::Value *item, const Type *type) {
          lowering.containers().addToSet(merged, call.resultType, item, type);
        });
        llvm::Value *set = lowering.containers().newSet(call.resultType);
        combineInto(lowering, set, merged, runtime::SetUnion);
        return set;
      });
}

void registerElementMethods(Library &library) {
  addCpu(
      library, "set.add", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *set = mutableSetArgument(call);
        if (!dictKeyType(call.argumentTypes[1]))
          throwTypingError("a set cannot hold a " + call.argumentTypes[1]->name(), call.location);
        requireKey(call, set, call.argumentTypes[1]);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        lowering.containers().requireSetType(call.argumentTypes[0], call.location);
        lowering.containers().addToSet(values[0], call.argumentTypes[0], values[1],
                                       call.argumentTypes[1]);
        return noneValue(lowering);
      });
  for (const char *name : {"set.discard", "set.remove"})
    addCpu(
        library, name, {{"", false}, {"", false}},
        [](LibraryCall &call) {
          requireKey(call, mutableSetArgument(call), call.argumentTypes[1]);
          return types::none();
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          const Type *set = call.argumentTypes[0];
          bool remove = call.function->name == "set.remove";
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          if (!set->keyType()) {
            if (remove)
              lowering.containers().requireSetType(set, call.location);
            return noneValue(lowering);
          }
          llvm::Value *address =
              lowering.containers().setKeyAddress(values[1], call.argumentTypes[1], set);
          llvm::Value *found = lowering.containers().listRuntime(
              "taipan_set_discard", builder.getInt32Ty(), {values[0], address});
          if (remove) {
            llvm::BasicBlock *missing = lowering.newBlock("set.missing");
            llvm::BasicBlock *done = lowering.newBlock("set.removed");
            builder.CreateCondBr(builder.CreateICmpEQ(found, builder.getInt32(0)), missing, done);
            builder.SetInsertPoint(missing);
            lowering.containers().listRuntime("taipan_set_key_error", builder.getVoidTy(),
                                              {values[0], address});
            lowering.exitFunction(builder.getInt32(KeyErrorId));
            builder.SetInsertPoint(done);
          }
          return noneValue(lowering);
        });
  addCpu(
      library, "set.pop", {{"", false}},
      [](LibraryCall &call) { return mutableSetArgument(call)->keyType(); },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        const Type *set = call.argumentTypes[0];
        lowering.containers().requireSetType(set, call.location);
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *keyType = set->keyType();
        llvm::Type *memory = memoryType(lowering.llvmContext(), keyType);
        llvm::AllocaInst *key = lowering.createEntryAlloca(memory, "set.popped");
        lowering.exitUnlessZero(lowering.containers().listRuntime(
            "taipan_set_pop", builder.getInt32Ty(), {values[0], key}));
        llvm::Value *value = fromMemoryForm(builder, builder.CreateLoad(memory, key), keyType);
        if (keyType->holdsReferences())
          lowering.addTemporary(value, keyType); // moved out of the set
        return value;
      });
  addCpu(
      library, "set.clear", {{"", false}},
      [](LibraryCall &call) {
        mutableSetArgument(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &, const Values &values) {
        lowering.containers().listRuntime("taipan_set_clear", lowering.irBuilder().getVoidTy(),
                                          {values[0]});
        return noneValue(lowering);
      });
  addCpu(
      library, "set.copy", {{"", false}}, [](LibraryCall &call) { return setArgument(call); },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        if (!call.resultType->keyType())
          return lowering.containers().newSet(call.resultType);
        llvm::Value *copy = lowering.containers().listRuntime(
            "taipan_set_copy", lowering.irBuilder().getPtrTy(), {values[0]});
        return checkedSet(lowering, copy, call.resultType);
      });
}

void registerSetMethods(Library &library) {
  // The methods taking another set or any iterable.
  for (const char *method : {"union", "intersection", "difference", "symmetric_difference"})
    addCpu(
        library, std::string("set.") + method, {{"", false}, {"", false}},
        [](LibraryCall &call) {
          return combinedType(call, setArgument(call), otherSetType(call, 1));
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          return lowerCombination(lowering, call, values,
                                  operationOf(call.function->name.substr(4)));
        });
  for (const char *method :
       {"update", "intersection_update", "difference_update", "symmetric_difference_update"})
    addCpu(
        library, std::string("set.") + method, {{"", false}, {"", false}},
        [](LibraryCall &call) {
          requireUpdate(call, mutableSetArgument(call), otherSetType(call, 1));
          return types::none();
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          lowerUpdate(lowering, call, values, operationOf(call.function->name.substr(4)));
          return noneValue(lowering);
        });
  for (const char *method : {"issubset", "issuperset", "isdisjoint"})
    addCpu(
        library, std::string("set.") + method, {{"", false}, {"", false}},
        [](LibraryCall &call) {
          combinedType(call, setArgument(call), otherSetType(call, 1));
          return types::boolean();
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          const std::string method = call.function->name.substr(4);
          const Type *both =
              combinedType(call, call.argumentTypes[0], setOfIterable(call.argumentTypes[1]));
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          if (!both->keyType()) // both empty: a subset, a superset and disjoint
            return static_cast<llvm::Value *>(builder.getInt1(true));
          llvm::Value *a = lowering.containers().asSet(values[0], call.argumentTypes[0], both);
          llvm::Value *b = lowering.containers().asSet(values[1], call.argumentTypes[1], both);
          if (method == "issuperset")
            std::swap(a, b);
          llvm::Value *answer = lowering.containers().listRuntime(
              "taipan_set_relation", builder.getInt32Ty(),
              {a, b, builder.getInt32(method == "isdisjoint" ? 1 : 0)});
          return builder.CreateICmpNE(answer, builder.getInt32(0));
        });
}

void registerOperators(Library &library) {
  for (const char *symbol : {"|", "&", "-", "^"})
    addCpu(
        library, std::string("set.") + symbol, {{"", false}, {"", false}},
        [](LibraryCall &call) {
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          if (!left->isSet() || !right->isSet())
            throwTypingError("unsupported operand types for " + call.function->name.substr(4) +
                                 ": " + left->name() + " and " + right->name(),
                             call.location);
          return combinedType(call, left, right);
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          if (!call.resultType->keyType())
            return lowering.containers().newSet(call.resultType);
          return lowerCombination(lowering, call, values,
                                  operationOf(call.function->name.substr(4)));
        });
  // Comparisons: equality and the subset relations; a set never equals a value of another type.
  for (const char *symbol : {"==", "!=", "<", "<=", ">", ">="})
    addCpu(
        library, std::string("set.") + symbol, {{"", false}, {"", false}},
        [](LibraryCall &call) {
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          std::string op = call.function->name.substr(4);
          if (!left->isSet() || !right->isSet()) {
            if (op == "==" || op == "!=")
              return types::boolean();
            throwTypingError("'" + op + "' is not supported between a " + left->name() + " and a " +
                                 right->name(),
                             call.location);
          }
          combinedType(call, left, right);
          return types::boolean();
        },
        [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          std::string op = call.function->name.substr(4);
          const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
          if (!left->isSet() || !right->isSet())
            return static_cast<llvm::Value *>(builder.getInt1(op == "!="));
          const Type *both = combinedType(call, left, right);
          llvm::Value *a = values[0], *b = values[1];
          llvm::Value *leftSize =
              left->keyType() ? lowering.containers().setLength(a) : builder.getInt64(0);
          llvm::Value *rightSize =
              right->keyType() ? lowering.containers().setLength(b) : builder.getInt64(0);
          if (!both->keyType()) // both empty
            return static_cast<llvm::Value *>(
                builder.getInt1(op == "==" || op == "<=" || op == ">="));
          a = lowering.containers().asSet(a, left, both);
          b = lowering.containers().asSet(b, right, both);
          if (op == ">" || op == ">=") {
            std::swap(a, b);
            std::swap(leftSize, rightSize);
          }
          llvm::Value *subset = builder.CreateICmpNE(
              lowering.containers().listRuntime("taipan_set_relation", builder.getInt32Ty(),
                                                {a, b, builder.getInt32(0)}),
              builder.getInt32(0));
          if (op == "==" || op == "!=") {
            llvm::Value *equal =
                builder.CreateAnd(builder.CreateICmpEQ(leftSize, rightSize), subset);
            return op == "==" ? equal : builder.CreateNot(equal);
          }
          if (op == "<" || op == ">")
            return builder.CreateAnd(builder.CreateICmpSLT(leftSize, rightSize), subset);
          return subset;
        });
  for (bool negated : {false, true})
    addCpu(
        library, negated ? "set.not in" : "set.in", {{"", false}, {"", false}},
        [](LibraryCall &call) {
          if (!call.argumentTypes[1]->isSet())
            throwUnsupported("'in' with a set on its left is not supported", call.location);
          requireKey(call, call.argumentTypes[1], call.argumentTypes[0]);
          return types::boolean();
        },
        [negated](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
          llvm::IRBuilder<> &builder = lowering.irBuilder();
          const Type *set = call.argumentTypes[1];
          if (!set->keyType())
            return static_cast<llvm::Value *>(builder.getInt1(negated));
          llvm::Value *address =
              lowering.containers().setKeyAddress(values[0], call.argumentTypes[0], set);
          llvm::Value *found = lowering.containers().listRuntime(
              "taipan_set_contains", builder.getInt32Ty(), {values[1], address});
          return negated ? builder.CreateICmpEQ(found, builder.getInt32(0))
                         : builder.CreateICmpNE(found, builder.getInt32(0));
        });
}

} // namespace

void registerSetFunctions(Library &library) {
  registerConstruction(library);
  registerElementMethods(library);
  registerSetMethods(library);
  registerOperators(library);
}

} // namespace taipan
