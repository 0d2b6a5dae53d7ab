// Lowering of lists, dicts and sets: each a pointer to a runtime block (runtime/Lists.h,
// Dicts.h, Sets.h); items, slices, conversions, literals, comprehensions and stores.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"

namespace taipan {

class FunctionLowering;

/// Lists (LowerLists.cpp), dicts (LowerDicts.cpp) and sets (LowerSets.cpp); tuples are
/// plain values of the core (FunctionLowering::lowerTuple, tupleElement). Holds a reference to the
/// core (FunctionLowering), whose state and exits it uses.
class ContainerLowering : LoweringRoom {
public:
  explicit ContainerLowering(FunctionLowering &core);

  /// `for x in d` or over a view of d (`d.items()`): the dict's entries as they are when each
  /// is reached, raising RuntimeError when the dict changed size since the loop began, as
  /// CPython's dict iterators do (lower/LowerDicts.cpp).
  void lowerDictFor(Stmt *stmt, llvm::Value *dict, const Type *type);
  /// Calls the runtime function `name` with `arguments`.
  llvm::Value *listRuntime(const char *name, llvm::Type *result,
                           llvm::ArrayRef<llvm::Value *> arguments);
  /// A new list of `count` zeroed items, owned by the current statement.
  llvm::Value *newList(const Type *listType, llvm::Value *count);
  llvm::Value *listHeaderField(llvm::Value *list, size_t offset, llvm::Type *type);
  llvm::Value *listLength(llvm::Value *list);
  llvm::Value *listItemAddress(llvm::Value *list, const Type *listType, llvm::Value *index);
  /// The item at `index` (borrowed from the list).
  llvm::Value *loadListItem(llvm::Value *list, const Type *listType, llvm::Value *index);
  /// Stores `value` (converted, as a reference the list owns) into the slot at `index`, which
  /// must hold nothing (new, or released).
  void storeListItem(llvm::Value *list, const Type *listType, llvm::Value *index,
                     llvm::Value *value, const Type *valueType);
  /// A Python index into `length` items (negative ones wrap); IndexError with `message`
  /// outside.
  llvm::Value *listPosition(llvm::Value *index, const Type *indexType, llvm::Value *length,
                            const char *message);
  /// A slice's start, step, count and adjusted stop over `length` items (PySlice_AdjustIndices).
  struct ListSlice {
    llvm::Value *start, *stop, *step, *count;
  };
  /// The positions a slice expression selects in `list`, its bounds evaluated before the length.
  ListSlice listSlice(Expr *slice, llvm::Value *list);
  /// The same for a slice object (types::sliceValue()), already unpacked; a zero step raises
  /// CPython's ValueError.
  ListSlice listSliceOfValue(llvm::Value *slice, llvm::Value *length);
  /// Python's PySlice_AdjustIndices of the bounds given (null: None), at run time.
  ListSlice adjustSlice(llvm::Value *startBound, llvm::Value *stopBound, llvm::Value *stepValue,
                        llvm::Value *length);
  llvm::Value *lowerListLiteral(Expr *expr);
  /// A comprehension (SyntaxTree.h): its loop, then the value it built, which the hidden
  /// variable hands over as a temporary.
  llvm::Value *lowerComprehension(Expr *expr);
  /// `[]` to a typed list, or a list of numbers to a list of another number type (a copy).
  llvm::Value *convertList(llvm::Value *list, const Type *from, const Type *to);
  /// `l[i] = x`, `l[a:b] = other`.
  void lowerListStore(Expr *target, llvm::Value *value, const Type *valueType);
  /// A new empty dict of `dictType`, owned by the current statement.
  llvm::Value *newDict(const Type *dictType);
  llvm::Value *dictLength(llvm::Value *dict);
  /// A TypingError at `location` when the dict's key and value types are still unknown.
  void requireDictTypes(const Type *dictType, SourceLocation location);
  /// The address of a stack copy of `key` converted to the dict's key type (borrowed).
  llvm::Value *dictKeyAddress(llvm::Value *key, const Type *keyType, const Type *dictType);
  /// d[key] = value: the value is converted, and the dict owns a reference to it.
  void storeDictItem(llvm::Value *dict, const Type *dictType, llvm::Value *key, const Type *keyType,
                     llvm::Value *value, const Type *valueType);
  /// The value at a value slot the runtime gave (borrowed from the dict).
  llvm::Value *loadDictValue(llvm::Value *address, const Type *dictType);
  /// A new list (a temporary) of the keys (`which` 0), values (1) or (key, value) items (2).
  llvm::Value *dictToList(llvm::Value *dict, const Type *dictType, int which);
  /// The list type dictToList gives.
  static const Type *dictListType(const Type *dictType, int which);
  /// A new empty set of `setType`, owned by the current statement.
  llvm::Value *newSet(const Type *setType);
  llvm::Value *setLength(llvm::Value *set);
  /// A TypingError at `location` when the set's key type is still unknown.
  void requireSetType(const Type *setType, SourceLocation location);
  /// The address of a stack copy of `key` converted to the set's key type (borrowed).
  llvm::Value *setKeyAddress(llvm::Value *key, const Type *keyType, const Type *setType);
  /// s.add(key): the key is converted; the set retains what it holds.
  void addToSet(llvm::Value *set, const Type *setType, llvm::Value *key, const Type *keyType);
  /// Adds each item of an iterable (a set, list, range, tuple, array or string), in order.
  void addAllToSet(llvm::Value *set, const Type *setType, llvm::Value *iterable,
                   const Type *iterableType);
  /// A set of `setType` with the items of `iterable`: the iterable itself when it is already a
  /// set of that type (borrowed), else a new temporary.
  llvm::Value *asSet(llvm::Value *iterable, const Type *iterableType, const Type *setType);
  /// A new list (a temporary) of the keys in iteration order.
  llvm::Value *setToList(llvm::Value *set, const Type *setType);
  /// `s |= t`, `&=`, `-=`, `^=` on a set variable: the set changes in place.
  void lowerSetAugmentedAssign(Stmt *stmt);
  /// A set of one key type as a set of another (a copy).
  llvm::Value *convertSet(llvm::Value *set, const Type *from, const Type *to);
  /// Calls `body` with the key and value (borrowed) of every entry, in order.
  void forEachDictEntry(llvm::Value *dict, const Type *dictType,
                        const std::function<void(llvm::Value *key, llvm::Value *value)> &body);
  /// `{}` to a typed dict, or a dict to one of wider key or value types (a copy).
  llvm::Value *convertDict(llvm::Value *dict, const Type *from, const Type *to);
  /// A TypingError for `e = d` where e's type is a wider dict than d's: the conversion would
  /// copy, and the two names would no longer share one dict as they do in Python.
  void refuseAliasedDictCopy(Expr *target, Expr *value);
  /// `d[k] = v`.
  void lowerDictStore(Expr *target, llvm::Value *value, const Type *valueType);
};

} // namespace taipan
