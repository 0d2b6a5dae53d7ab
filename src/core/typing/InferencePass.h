// One pass of type inference over a function: the visitor that types each statement and
// expression, its members defined in typing/TypeInference.cpp and the typing/Infer*.cpp files.
#pragma once

#include "typing/CallInference.h"
#include "typing/ContainerInference.h"
#include "typing/Isinstance.h"
#include "typing/LiteralUnroll.h"
#include "typing/TypeInference.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace taipan {

/// One inference pass over a function.
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
  void assignVariable(const std::string &name, const Type *type, SourceLocation location);
  void unifyReturn(const Type *type, SourceLocation location);
  const Type *record(Expr *expr, const Type *type);
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
  void addLocalTarget(Expr *target);

  // The walk over the function: each room's statements and expressions are typed through
  // these two (typing/InferencePass.cpp).
  void typeBlock(const std::vector<Stmt *> &block);
  const Type *typeExpr(Expr *expr);

  // Errors and constants.
  /// Describes a type for error messages, using the Python spelling of compile-time objects.
  static std::string describe(const Type *type);
  static const Type *constantType(const Constant &constant);

  // Statements, assignments and stores (typing/InferStatements.cpp).
  void typeStatement(Stmt *stmt);
  /// `yield value`: the generator's items are the unification of every value it yields.
  void typeYield(Stmt *stmt);
  /// Every block of a try statement is typed: any statement of the body may raise, so each
  /// handler is reachable. An except clause names exception classes only.
  void typeTry(Stmt *stmt);
  void typeRaised(Expr *value);
  void typeExceptionArgument(Expr *argument);
  void assignTarget(Expr *target, const Type *value);
  /// `p[i] = value` of a jitclass instance: a call of its __setitem__(self, i, value), recorded
  /// under attributeSetterKey as a property's setter is.
  void typeClassItemStore(Expr *target, const Type *instance, const Type *value);
  /// `p.name = value` of a jitclass instance: into a field (converted as classFieldAccepts
  /// allows), or a call of the property's setter, recorded under attributeSetterKey.
  void typeClassAttributeStore(Expr *target, const Type *instance, const Type *value);
  /// `record.name = value` or `record['name'] = value`: a number into a number field, a record
  /// into a nested record of its type (copied). Subarray fields are assigned per element.
  void checkRecordStore(Expr *target, const Type *base, const Type *slot, const Type *value);
  /// `array[index] = value`: a number into an element, or a number or array broadcast into a view.
  void checkArrayStore(Expr *target, const Type *slot, const Type *value);

  // Conditions decided from types, and loops (typing/InferControlFlow.cpp).
  /// The value of a condition when types alone decide it, recorded in staticConditions:
  /// comparisons of None with a value (`x is None`, `x is not None`, `x == None`, `ord == 2`
  /// when ord is None), constants, and `not`/`and`/`or` of those. Otherwise nothing.
  std::optional<bool> decideCondition(Expr *test);
  std::optional<bool> staticTruth(Expr *expr);
  static bool isIsinstance(const Type *callee);
  /// isinstance(value, classes): decided from the value's type (typing/Isinstance.h) and
  /// recorded as the library call's form and, when known while compiling, as a static
  /// condition, so that the branch it rules out is pruned. Its classes are named, not typed as
  /// values; nullopt while the value's type is unknown.
  std::optional<IsinstanceAnswer> typeIsinstance(Expr *expr);
  /// isinstance(...) as a condition: its answer when known while compiling.
  std::optional<bool> decideIsinstance(Expr *expr);
  /// The qualified names of the classes isinstance's second argument names: a global class,
  /// a module's (np.float32), or a tuple of those, nested as isinstance allows.
  std::vector<std::string> isinstanceClasses(Expr *classes);
  static std::optional<bool> constantTruth(const Constant &constant);
  void typeCondition(Expr *test);
  /// The item type of iterating over `iterable`, or nullptr when it is not iterable.
  static const Type *iterationItemType(const Type *iterable, SourceLocation location);
  /// A for loop over np.ndindex, np.ndenumerate or np.nditer: typed by typeIndexIteration.
  bool typeIndexIterationLoop(Stmt *stmt);
  /// `for ... in enumerate(a)` / `zip(a, b)` whose library entry chose to iterate the arguments
  /// in step (some is an array or a range): the item is the tuple of their items, after the
  /// index for enumerate. False when the loop iterates a value.
  bool typeInStepIteration(Stmt *stmt);
  /// `for index in np.ndindex(shape)`, `for index, value in np.ndenumerate(a)` and `for x in
  /// np.nditer(a)`: a loop over an index space in C order (the call itself is typed as none).
  bool typeIndexIteration(Stmt *stmt, const std::string &name);
  void typeFor(Stmt *stmt);
  /// `for x in literal_unroll(t)` over a tuple of items of different types (or string
  /// literals): each copy of the body (syntax/LoopUnrolling.h) is typed with its item's type.
  /// False when the loop is an ordinary one.
  bool typeUnrolledLoop(Stmt *stmt, const Type *iterable);
  /// The string `expr` always holds, when compiling knows it (typing/LiteralUnroll.h).
  std::optional<std::string> knownString(const Expr *expr);

  // Expressions (typing/InferExpressions.cpp).
  /// `p[i]`, `p + q`, `p == q` with a jitclass instance `p` on the left (its operands typed):
  /// a call of the class's method (`__getitem__`, `__add__`, `__eq__`), self first.
  const Type *typeClassOperator(Expr *expr, const std::string &method, const std::string &what);
  /// `x in p` / `x not in p` of a jitclass instance: a call of its __contains__(self, x), bound
  /// to the operands in that order (lowering negates it for `not in`).
  const Type *typeClassContains(Expr *expr, const Type *instance, const Type *item);
  const Type *globalType(Expr *expr, const GlobalValue &value);
  const Type *computeType(Expr *expr);
  const Type *typeName(Expr *expr);
  const Type *typeAttribute(Expr *expr);
  /// A comprehension's loop is typed where it stands; its value is its hidden variable's. A
  /// generator expression's consumer must be the builtin it was read as.
  const Type *typeComprehension(Expr *expr);
  const Type *typeSubscript(Expr *expr);

  // Calls: library functions, overloads, intrinsics, foreign and jitted functions, named tuple
  // classes (typing/InferCalls.cpp).

  // Lists, dicts and sets: literals, operators, and variables widened by what is stored into them
  // (typing/InferContainers.cpp).

private:
  void collectLocals();
  /// Adds the names `block` assigns to localNames.
  void collectLocalsIn(const std::vector<Stmt *> &block);
  /// The one check of undefined item types, once types are final: a TypingError at the first
  /// read that needs the items' type, so no library entry or lowering sees such a type.
  void checkItemTypes();

public:
  // The rooms beside the core, each holding a reference to it.
  ContainerInference containers{*this};
  CallInference calls{*this};
};

} // namespace taipan
