// One pass of type inference over a function: the core (variable environment, unification,
// the walk over the body, errors) and the rooms beside it that type each kind of code.
#pragma once

#include "typing/CallInference.h"
#include "typing/ConditionInference.h"
#include "typing/ContainerInference.h"
#include "typing/ExpressionInference.h"
#include "typing/LiteralUnroll.h"
#include "typing/LoopInference.h"
#include "typing/StatementInference.h"
#include "typing/TypeInference.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace taipan {

/// One inference pass over a function. The core keeps what every room shares: the function's
/// variable types (assignVariable unifies each assignment into them), the return type, the
/// expression types (typeExpr asks ExpressionInference and records the answer) and the state of
/// the pass; the rooms (public members below) type statements, conditions, loops, expressions,
/// calls and containers, each through a reference to this core.
class InferencePass {
public:
  InferencePass(TypedFunction &function, CalleeTyper &callees, bool reportUnknown)
      : function(function), source(*function.source), callees(callees),
        reportUnknown(reportUnknown) {}

  /// Types every statement once with the types known so far; whether any type changed.
  bool run();

  // The function being typed and the state of this pass, which the rooms read and update.
  TypedFunction &function;
  FunctionSource &source;
  CalleeTyper &callees;
  /// The last pass: a type still unknown is an error.
  bool reportUnknown;
  /// Whether this pass widened any type (another pass follows).
  bool changed = false;
  /// A pass after the others converged: a read some path reaches unassigned (Expr::boundFlag)
  /// of a variable no typed assignment reaches gives it int64 (the read always raises).
  bool typesUnassignedReads = false;
  /// Whether a return statement was typed (otherwise the function returns None).
  bool returnSeen = false;
  /// The names the function assigns (its parameters included): its local variables.
  std::set<std::string> localNames;
  /// Name expressions whose use keeps an Optional variable optional (OptionalTyping.h); other
  /// uses read its value.
  std::set<int> keepsOptional;
  /// The calls for loops iterate (`for x in zip(a, b)`), by expression id: their library
  /// entries may choose to iterate their arguments in step.
  std::set<int> loopIterables;
  /// The locals assigned once (typing/LiteralUnroll.h), found when first needed.
  std::optional<SingleAssignments> singleAssignments;
  /// The final pass's reads of variables whose items never got a type, and the reads that
  /// need no item type (len(), bool(), truth tests): such a container is always empty.
  std::vector<Expr *> undefinedItemReads;
  std::set<int> itemFreeReads;

  // The variable environment and unification (typing/InferencePass.cpp).
  /// Unifies `type` into the variable `name` (an Optional when None meets a value); a type
  /// that does not unify, or that is no run-time value, is a TypingError at `location`.
  void assignVariable(const std::string &name, const Type *type, SourceLocation location);
  /// Unifies a returned value's type into the function's return type (a literal string
  /// returns a string value).
  void unifyReturn(const Type *type, SourceLocation location);
  /// Records `type` as the type of `expr` (nullptr on the last pass is a TypingError).
  const Type *record(Expr *expr, const Type *type);
  /// The type recorded for `expr` in this pass or an earlier one.
  const Type *typeOf(Expr *expr) { return function.expressionTypes[expr->id]; }
  /// Gives a caller's variables passed as `arguments` the item types `typed` (the callee)
  /// found for them: a container is shared with the callee, never copied.
  void refineSharedContainers(const std::vector<Expr *> &arguments, const FunctionSource &callee,
                              const TypedFunction &typed);
  /// Whether `type` is a list, set or dict whose items have no type yet (`[]`, `{}`, `set()`).
  static bool holdsUndefinedItems(const Type *type);
  /// Whether `name` is one of the function's parameters: a dict or typed list passed in is the
  /// caller's (a typed.Dict or typed.List), whose types are fixed, so stores never widen it (a
  /// widened copy would leave the caller's container unchanged).
  bool isParameter(const std::string &name) const;
  /// Adds the names an assignment target binds (nested tuples and lists too) to localNames.
  void addLocalTarget(Expr *target);
  /// Adds the names `block` assigns to localNames.
  void collectLocalsIn(const std::vector<Stmt *> &block);

  // The walk over the function: each room's statements and expressions are typed through
  // these two (typing/InferencePass.cpp).
  /// Types the statements of `block` in order, up to the first after which control cannot
  /// pass (the rest is dead code, as Numba removes it).
  void typeBlock(const std::vector<Stmt *> &block);
  /// Types `expr` (ExpressionInference::computeType) and records its type; nullptr for none.
  /// An expression converted by convertToNumber keeps its number type.
  const Type *typeExpr(Expr *expr);
  /// Where a number is needed and `expr` (already typed) is a value of a user type that
  /// converts to one (Numba's can_convert_to with a lower_cast: an IntEnum member), converts
  /// it: from now on the expression has that number type (TypedFunction::convertedExpressions)
  /// and that type is returned; else nullptr, changing nothing. `target` asks for one number
  /// type; null takes the type's own choice, which for Numba's array-compatible types (an
  /// "__array__" lowering) is their array, where an array is needed.
  const Type *convertToNumber(Expr *expr, const Type *target = nullptr);
  /// Registers the lower_cast conversion of user type `from` to number `to` (or to the type's
  /// own choice when `to` is null) for castValue: the number type, or nullptr when it has none.
  static const Type *userCast(TypedFunction &function, const Type *from, const Type *to,
                              SourceLocation location);
  /// The one check of a result against an explicit signature's return type, for a compiled
  /// signature (JobTyping) and for a call of it from compiled code (CallInference): `returned`
  /// must convert to `declared` (number to number, an implicit conversion, anything to none, a
  /// user type through its lower_cast to a number, registered in `converting`, the function
  /// whose lowering converts). A TypingError at `location` naming `description` otherwise.
  static void checkDeclaredReturn(TypedFunction &converting, const std::string &description,
                                  const Type *returned, const Type *declared,
                                  SourceLocation location);

  // Errors and constants.
  /// Describes a type for error messages, using the Python spelling of compile-time objects.
  static std::string describe(const Type *type);
  /// The type of a literal constant: int64, float64, complex128, a string literal...
  static const Type *constantType(const Constant &constant);

private:
  /// Fills localNames with the parameters and every name the body assigns.
  void collectLocals();
  /// The one check of undefined item types, once types are final: a TypingError at the first
  /// read that needs the items' type, so no library entry or lowering sees such a type.
  void checkItemTypes();

public:
  // The rooms beside the core, each holding a reference to it and typing one kind of code.
  /// Statements, assignments to every kind of target, stores (typing/StatementInference.h).
  StatementInference statements{*this};
  /// Conditions, and those decided from types alone (typing/ConditionInference.h).
  ConditionInference conditions{*this};
  /// For loops over every kind of iterable (typing/LoopInference.h).
  LoopInference loops{*this};
  /// Names, attributes, subscripts, operators, literals (typing/ExpressionInference.h).
  ExpressionInference expressions{*this};
  /// Calls of every kind of callee (typing/CallInference.h).
  CallInference calls{*this};
  /// List, dict and set literals, operators and widening (typing/ContainerInference.h).
  ContainerInference containers{*this};
};

} // namespace taipan
