// Type inference of lists, dicts and sets: literals and operators through their library entries,
// and variables whose item types widen with what is appended or stored into them.
#include "typing/ContainerInference.h"

#include "typing/InferencePass.h"

#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"
#include "typing/DictTyping.h"
#include "typing/FirstClassFunctions.h"
#include "typing/SetTyping.h"

namespace taipan {

ContainerInference::ContainerInference(InferencePass &pass) : pass(pass) {}

void ContainerInference::refuseLiteralListMutation(const std::string &method,
                                                   SourceLocation location) {
  static const std::set<std::string> mutating = {"append", "extend", "insert", "remove",
                                                 "pop",    "clear",  "sort",   "reverse"};
  if (mutating.count(method))
    throwTypingError("Cannot mutate a literal list (a list of items of different types): "
                     "list." +
                         method + "() is not supported on it",
                     location);
}

const Type *ContainerInference::typeListLiteral(Expr *expr) {
  const Type *item = nullptr;
  std::vector<const Type *> items;
  bool unifies = true;
  for (Expr *operand : expr->operands) {
    const Type *type = pass.typeExpr(operand);
    if (!type)
      return nullptr;
    if (type->kind() == TypeKind::StringLiteral)
      type = types::unicode(); // an item is a run-time value, as in Numba
    if (!type->isRuntimeValue() || type->isNone())
      throwTypingError("a list cannot hold a value of type " + InferencePass::describe(type),
                       operand->location);
    items.push_back(type);
    if (!unifies)
      continue;
    const Type *unified = unifyTypes(item, type);
    if (!unified)
      unifies = false;
    item = unified;
  }
  return unifies ? types::list(item) : types::literalList(items);
}

const Type *ContainerInference::typeListOperator(Expr *expr, const std::string &symbol,
                                                 std::vector<Expr *> operands) {
  const LibraryFunction *entry = Library::get().find("list." + symbol);
  if (!entry) {
    std::vector<const Type *> types;
    for (Expr *operand : operands)
      types.push_back(pass.typeOf(operand));
    throwTypingError("unsupported operand types for " + symbol + ": " +
                         describeArgumentTypes(types),
                     expr->location);
  }
  return pass.calls.typeLibraryOperands(expr, entry, std::move(operands));
}

void ContainerInference::typeListInPlace(Stmt *stmt, Expr *target, const Type *value) {
  std::string method = stmt->augmentedOp == BinaryOp::Add    ? "list.extend"
                       : stmt->augmentedOp == BinaryOp::Mult ? "list.*="
                                                             : "";
  if (method.empty())
    throwTypingError(std::string("unsupported operand types for ") +
                         binaryOpSymbol(stmt->augmentedOp) +
                         "=: " + InferencePass::describe(pass.typeOf(target)) + " and " +
                         InferencePass::describe(value),
                     stmt->location);
  if (method == "list.extend")
    widenListVariable(target, method, {value});
  pass.calls.typeLibraryOperands(target, Library::get().find(method), {target, stmt->value});
}

void ContainerInference::widenListVariable(Expr *list, const std::string &method,
                                           const std::vector<const Type *> &arguments) {
  if (list->kind != ExprKind::Name || !pass.localNames.count(list->name) || arguments.empty())
    return;
  // A typed list's item type is fixed once known (its stores convert or are refused).
  if (pass.typeOf(list) && !pass.typeOf(list)->isReflected() && pass.typeOf(list)->itemType())
    return;
  const Type *item = nullptr;
  if (method == "list.append" || method == "list.insert")
    item = arguments.back();
  if (item && item->kind() == TypeKind::StringLiteral)
    item = types::unicode();
  else if (method == "list.extend")
    item = LoopInference::iterationItemType(arguments.back(), list->location);
  if (item && (item->isRuntimeValue() && !item->isNone()))
    if (const Type *widened =
            unifyTypes(pass.typeOf(list), types::listLike(pass.typeOf(list), item)))
      pass.assignVariable(list->name, widened, list->location);
}

const Type *ContainerInference::typeContainerOperator(Expr *expr, const char *container,
                                                      const std::string &symbol,
                                                      std::vector<Expr *> operands) {
  const LibraryFunction *entry = Library::get().find(std::string(container) + "." + symbol);
  if (!entry)
    throwTypingError("unsupported operand types for " + symbol + ": " +
                         InferencePass::describe(pass.typeOf(operands[0])) + " and " +
                         InferencePass::describe(pass.typeOf(operands[1])),
                     expr->location);
  return pass.calls.typeLibraryOperands(expr, entry, std::move(operands));
}

void ContainerInference::widenSetVariable(Expr *set, const std::string &method,
                                          const std::vector<const Type *> &arguments) {
  if (set->kind != ExprKind::Name || !pass.localNames.count(set->name) || arguments.size() != 1)
    return;
  const Type *stored = nullptr;
  if (method == "set.add") {
    if (const Type *key = dictKeyType(arguments[0]))
      stored = types::set(key);
  } else if (method == "set.update") {
    stored = setOfIterable(arguments[0]);
  }
  if (stored)
    if (const Type *widened = unifyTypes(pass.typeOf(set), stored))
      pass.assignVariable(set->name, widened, set->location);
}

void ContainerInference::typeSetAugmentedAssign(Stmt *stmt, const Type *current,
                                                const Type *value) {
  BinaryOp op = stmt->augmentedOp;
  if ((op != BinaryOp::BitOr && op != BinaryOp::BitAnd && op != BinaryOp::Sub &&
       op != BinaryOp::BitXor) ||
      !value->isSet())
    throwTypingError(std::string("unsupported operand types for ") + binaryOpSymbol(op) +
                         "=: " + InferencePass::describe(current) + " and " +
                         InferencePass::describe(value),
                     stmt->location);
  Expr *target = stmt->targets[0];
  if (op == BinaryOp::BitOr)
    if (const Type *widened = unifyTypes(current, value)) {
      pass.assignVariable(target->name, widened, target->location);
      current = widened;
    }
  if (current->keyType() && value->keyType() && !dictAcceptsKey(current, value->keyType()))
    throwTypingError(std::string("cannot update a ") + InferencePass::describe(current) + " with " +
                         InferencePass::describe(value) + " (" + binaryOpSymbol(op) + "=)",
                     stmt->location);
}

bool ContainerInference::keepsNumberKind(const Type *expected, const Type *value) {
  if (!expected || !expected->isNumber() || !value->isNumber() || expected == value)
    return true;
  if (expected->isBoolean())
    return value->isBoolean();
  if (expected->isInteger())
    return value->isIntegerLike();
  return expected->isComplex() || !value->isComplex();
}

void ContainerInference::typeDictStore(Expr *target, const Type *key, const Type *value) {
  Expr *base = target->operands[0];
  const Type *dict = pass.typeOf(base);
  if (dict->keyType()) // a function value stored into a dict of them converts (cast on store)
    if (const Type *converted = convertFunctionValue(pass.function, *pass.source.resolver, value,
                                                     dict->valueType(), target->location))
      value = converted;
  const Type *stored = dictTypeOfStore(key, value, target->location);
  bool fixed = base->kind == ExprKind::Name && pass.isParameter(base->name) && dict->keyType();
  if (fixed && !keepsNumberKind(dict->valueType(), value))
    throwTypingError("cannot store a value of type " + InferencePass::describe(value) + " into a " +
                         InferencePass::describe(dict) + " (a dict passed in keeps its types)",
                     target->location);
  if (base->kind == ExprKind::Name && pass.localNames.count(base->name) && !fixed) {
    const Type *widened = unifyTypes(dict, stored);
    if (!widened)
      throwTypingError("cannot store a key of type " + InferencePass::describe(key) +
                           " and a value of type " + InferencePass::describe(value) + " into a " +
                           InferencePass::describe(dict),
                       target->location);
    pass.assignVariable(base->name, widened, base->location);
    dict = widened;
  }
  if (!dict->keyType() || !dictAcceptsKey(dict, key) || !dictAcceptsValue(dict, value))
    throwTypingError("cannot store a key of type " + InferencePass::describe(key) +
                         " and a value of type " + InferencePass::describe(value) + " into a " +
                         InferencePass::describe(dict),
                     target->location);
}

void ContainerInference::widenDictVariable(Expr *dict, const std::string &method,
                                           const std::vector<const Type *> &arguments,
                                           SourceLocation location) {
  if (dict->kind != ExprKind::Name || !pass.localNames.count(dict->name) ||
      (pass.isParameter(dict->name) && pass.typeOf(dict)->keyType()))
    return;
  const Type *stored = nullptr;
  if (method == "dict.setdefault" && arguments.size() == 2 && !arguments[1]->isNone()) {
    const Type *value = arguments[1];
    if (pass.typeOf(dict)->keyType()) // a function value converts, as in typeDictStore
      if (const Type *converted = convertFunctionValue(pass.function, *pass.source.resolver, value,
                                                       pass.typeOf(dict)->valueType(), location))
        value = converted;
    stored = dictTypeOfStore(arguments[0], value, location);
  } else if (method == "dict.update" && arguments.size() == 1 && arguments[0]->isDict())
    stored = arguments[0];
  if (stored)
    if (const Type *widened = unifyTypes(pass.typeOf(dict), stored))
      pass.assignVariable(dict->name, widened, dict->location);
}

void ContainerInference::checkListStore(Expr *target, const Type *value) {
  const Type *list = pass.typeOf(target->operands[0]);
  const Type *indexType = pass.typeOf(target->operands[1]);
  bool slice = target->operands[1]->kind == ExprKind::Slice ||
               (indexType && indexType->kind() == TypeKind::Slice); // l[s] = ... of a slice value
  const Type *expected = slice ? list : list->itemType();
  bool accepted = slice ? value->isList() &&
                              (!value->itemType() ||
                               unifyTypes(list->itemType(), value->itemType()) == list->itemType())
                        : expected && (unifyTypes(expected, value) == expected ||
                                       convertFunctionValue(pass.function, *pass.source.resolver,
                                                            value, expected, target->location));
  if (!accepted && expected && expected->isNumber() && value->isNumber())
    accepted = list->isReflected() ? !value->isComplex() || expected->isComplex()
                                   : keepsNumberKind(expected, value); // fixed item type
  if (!accepted)
    throwTypingError("cannot store a value of type " + InferencePass::describe(value) + " into " +
                         InferencePass::describe(list),
                     target->location);
}

} // namespace taipan
