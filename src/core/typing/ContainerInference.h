// Lists, dicts and sets in type inference: literals and operators through their library entries,
// and variables whose item types widen with what is appended or stored into them.
#pragma once

#include "typing/TypeInference.h"

#include <optional>
#include <string>
#include <vector>

namespace taipan {

class InferencePass;

/// Type inference of lists, dicts and sets, beside the InferencePass core.
class ContainerInference {
public:
  explicit ContainerInference(InferencePass &pass);

  /// The list methods that change a list, refused on a LiteralList, which cannot change.
  static void refuseLiteralListMutation(const std::string &method, SourceLocation location);
  /// `[a, b, ...]`: a list of the items' unified type (`[]` a list whose item type the appends
  /// that follow give it, list(undefined) until then), or, when they do not unify (`[1, 'a']`),
  /// Numba's LiteralList: the tuple of the items, which cannot change.
  const Type *typeListLiteral(Expr *expr);
  /// An operator on lists (`+`, `*`, `in`, `==`, `[]`...), typed by its library entry
  /// "list.<operator>" (library/Lists.cpp) and recorded under the expression.
  const Type *typeListOperator(Expr *expr, const std::string &symbol, std::vector<Expr *> operands);
  /// `l += iterable` (list.extend) and `l *= n` (list.*=) change the list in place, as Python's
  /// do (another name for the list sees the change); the call is recorded under the target.
  void typeListInPlace(Stmt *stmt, Expr *target, const Type *value);
  /// `l.append(x)` (insert, extend) on a list variable widens the variable's item type, as
  /// Numba unifies a list's item type over the function: `l = []` then `l.append(1.5)` makes l
  /// a list(float64).
  void widenListVariable(Expr *list, const std::string &method,
                         const std::vector<const Type *> &arguments);
  /// An operator on dicts (`{}`, `[]`, `in`, `==`; `container` "dict", library/Dicts.cpp) or
  /// sets (`{a, b}`, `|`, `in`, `<=`...; "set", library/Sets.cpp), typed by its library entry
  /// "<container>.<operator>" and recorded under the expression.
  const Type *typeContainerOperator(Expr *expr, const char *container, const std::string &symbol,
                                    std::vector<Expr *> operands);
  /// `s.add(x)` and `s.update(iterable)` on a set variable widen its key type, as appends
  /// widen a list's: `s = set()` then `s.add(1.5)` makes s a set of float64.
  void widenSetVariable(Expr *set, const std::string &method,
                        const std::vector<const Type *> &arguments);
  /// `s |= t`, `&=`, `-=`, `^=`: the set is updated in place (a `|=` may type `set()`).
  void typeSetAugmentedAssign(Stmt *stmt, const Type *current, const Type *value);
  /// `d[k] = v`: widens a dict variable's key and value types to take the store (so `{}` is
  /// typed by the stores that follow, as in Numba), then checks the store fits.
  void typeDictStore(Expr *target, const Type *key, const Type *value);
  /// `d.setdefault(k, v)` and `d.update(other)` widen a dict variable as a store does.
  void widenDictVariable(Expr *dict, const std::string &method,
                         const std::vector<const Type *> &arguments, SourceLocation location);
  /// `l[i] = x` stores an item converted to the list's item type; `l[a:b] = other` a list.
  void checkListStore(Expr *target, const Type *value);

private:
  /// A number stored into a container whose types are fixed must keep its kind: no float into
  /// an integer slot, no complex into a real one, only booleans into booleans.
  static bool keepsNumberKind(const Type *expected, const Type *value);

  InferencePass &pass;
};

} // namespace taipan
