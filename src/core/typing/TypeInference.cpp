// Type inference by fixpoint: each pass types every statement with the variable types known so
// far, widening a variable's type when it is assigned something new, until a pass changes nothing.
#include "typing/TypeInference.h"
#include "typing/InferencePass.h"
#include "typing/TryTyping.h"

#include "syntax/CaughtExceptions.h"
#include "syntax/LoopUnrolling.h"
#include "types/DatetimeUnits.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/CallArguments.h"
#include "typing/ConstantArguments.h"
#include "typing/DatetimeTyping.h"
#include "typing/DictTyping.h"
#include "typing/Isinstance.h"
#include "typing/JitClassTyping.h"
#include "typing/LiteralUnroll.h"
#include "typing/NamedTupleTyping.h"
#include "typing/ObjectModeBlocks.h"
#include "typing/OptionalTyping.h"
#include "typing/RecordTyping.h"
#include "typing/SetTyping.h"
#include "typing/StringTyping.h"

#include <functional>
#include <optional>
#include <set>

namespace taipan {

std::string InferencePass::describe(const Type *type) {
  if (!type)
    return "<unknown>";
  switch (type->kind()) {
  case TypeKind::Module:
    return "Module(" + type->text() + ")";
  case TypeKind::Builtin:
    return "Function(" + type->text() + ")";
  case TypeKind::JitFunction:
    return "Dispatcher(" + type->function()->name + ")";
  case TypeKind::ExceptionClass:
    return "class(" + type->text() + ")";
  case TypeKind::StringLiteral:
    return "unicode_type";
  case TypeKind::Overload:
    return "Function(" + type->text() + ")";
  case TypeKind::Intrinsic:
    return "Intrinsic(" + type->text() + ")";
  default:
    return type->name();
  }
}

const Type *InferencePass::constantType(const Constant &constant) {
  switch (constant.kind) {
  case Constant::Kind::Int:
    return types::int64();
  case Constant::Kind::UInt:
    return types::uint64();
  case Constant::Kind::Float:
    return types::float64();
  case Constant::Kind::Complex:
    return types::complex128();
  case Constant::Kind::Bool:
    return types::boolean();
  case Constant::Kind::None:
    return types::none();
  case Constant::Kind::String:
    return types::stringLiteral(constant.text);
  case Constant::Kind::Ellipsis:
    return ellipsisType();
  }
  return nullptr;
}

bool InferencePass::run() {
  if (function.expressionTypes.size() != static_cast<size_t>(source.expressionCount()))
    function.expressionTypes.assign(source.expressionCount(), nullptr);
  if (localNames.empty()) {
    collectLocals();
    keepsOptional = optionalPreservingUses(source);
  }
  for (size_t i = 0; i < source.parameters.size(); ++i)
    assignVariable(source.parameters[i].name, function.argumentTypes[i], source.definitionLocation);
  typeBlock(source.body);
  if (source.isGenerator) { // calling it makes a generator of what it yields
    if (function.yieldType && function.returnType != types::generator(function.yieldType)) {
      function.returnType = types::generator(function.yieldType);
      changed = true;
    }
    if (reportUnknown && !function.yieldType)
      throwTypingError("Cannot type generator: it does not yield any value",
                       source.definitionLocation);
  } else if (!returnSeen)
    unifyReturn(types::none(), source.definitionLocation);
  else if (blockCompletes(function, source.body))
    unifyReturn(types::none(), source.definitionLocation);
  if (reportUnknown && !function.returnType)
    throwTypingError("cannot determine the return type of '" + source.name +
                         "' (recursion without a base case?)",
                     source.definitionLocation);
  return changed;
}

void InferencePass::collectLocals() {
  for (const Parameter &parameter : source.parameters)
    localNames.insert(parameter.name);
  collectLocalsIn(source.body);
}

void InferencePass::collectLocalsIn(const std::vector<Stmt *> &block) {
  std::function<void(Expr *)> addTarget = [&](Expr *target) {
    if (target->kind == ExprKind::Name)
      localNames.insert(target->name);
    else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
      for (Expr *element : target->operands)
        addTarget(element);
  };
  std::function<void(const std::vector<Stmt *> &)> walk;
  // A comprehension's loop assigns its hidden variables (SyntaxTree.h).
  std::function<void(Expr *)> visit = [&](Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Comprehension)
      walk(expr->statements);
    for (Expr *operand : expr->operands)
      visit(operand);
  };
  walk = [&](const std::vector<Stmt *> &block) {
    for (Stmt *stmt : block) {
      for (Expr *target : stmt->targets) {
        addTarget(target);
        visit(target);
      }
      visit(stmt->value);
      visit(stmt->test);
      visit(stmt->message);
      walk(stmt->body);
      walk(stmt->orelse);
      for (ExceptHandler &handler : stmt->handlers)
        walk(handler.body);
      walk(stmt->finalbody);
    }
  };
  walk(block);
}

void InferencePass::assignVariable(const std::string &name, const Type *type,
                                   SourceLocation location) {
  if (!type)
    return;
  if (!type->isRuntimeValue() && type->kind() != TypeKind::StringLiteral &&
      type->kind() != TypeKind::JitFunction && type->kind() != TypeKind::Builtin &&
      type->kind() != TypeKind::DType && type->kind() != TypeKind::Module)
    throwTypingError("cannot assign a value of type " + describe(type) + " to variable '" + name +
                         "'",
                     location);
  const Type *&slot = function.variableTypes[name];
  const Type *unified = unifyWithOptional(slot, type);
  if (!unified)
    throwTypingError("cannot unify " + describe(slot) + " and " + describe(type) +
                         " for variable '" + name + "'",
                     location);
  if (unified != slot) {
    slot = unified;
    changed = true;
  }
  auto &names = function.assignmentsByLine[location.line];
  if (std::find(names.begin(), names.end(), name) == names.end())
    names.push_back(name);
}

void InferencePass::unifyReturn(const Type *type, SourceLocation location) {
  if (!type)
    return;
  if (type->kind() == TypeKind::StringLiteral)
    type = types::unicode(); // a returned literal is a string value
  const Type *unified = unifyWithOptional(function.returnType, type);
  if (!unified)
    throwTypingError("cannot unify the return types " + describe(function.returnType) + " and " +
                         describe(type) + " of '" + source.name + "'",
                     location);
  if (unified != function.returnType) {
    function.returnType = unified;
    changed = true;
  }
}

const Type *InferencePass::record(Expr *expr, const Type *type) {
  if (!type && reportUnknown)
    throwTypingError("cannot determine the type of this expression", expr->location);
  if (static_cast<size_t>(expr->id) >= function.expressionTypes.size()) // a synthetic one
    function.expressionTypes.resize(source.expressionCount(), nullptr);
  function.expressionTypes[expr->id] = type;
  return type;
}

void InferencePass::refuseLiteralListMutation(const std::string &method, SourceLocation location) {
  static const std::set<std::string> mutating = {"append", "extend", "insert", "remove",
                                                 "pop",    "clear",  "sort",   "reverse"};
  if (mutating.count(method))
    throwTypingError("Cannot mutate a literal list (a list of items of different types): "
                     "list." +
                         method + "() is not supported on it",
                     location);
}

const Type *InferencePass::typeListLiteral(Expr *expr) {
  const Type *item = nullptr;
  std::vector<const Type *> items;
  bool unifies = true;
  for (Expr *operand : expr->operands) {
    const Type *type = typeExpr(operand);
    if (!type)
      return nullptr;
    if (type->kind() == TypeKind::StringLiteral)
      type = types::unicode(); // an item is a run-time value, as in Numba
    if (!type->isRuntimeValue() || type->isNone())
      throwTypingError("a list cannot hold a value of type " + describe(type), operand->location);
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

const Type *InferencePass::typeListOperator(Expr *expr, const std::string &symbol,
                                            std::vector<Expr *> operands) {
  const LibraryFunction *entry = Library::get().find("list." + symbol);
  if (!entry) {
    std::vector<const Type *> types;
    for (Expr *operand : operands)
      types.push_back(typeOf(operand));
    throwTypingError("unsupported operand types for " + symbol + ": " +
                         describeArgumentTypes(types),
                     expr->location);
  }
  return typeLibraryOperands(expr, entry, std::move(operands));
}

void InferencePass::typeListInPlace(Stmt *stmt, Expr *target, const Type *value) {
  std::string method = stmt->augmentedOp == BinaryOp::Add    ? "list.extend"
                       : stmt->augmentedOp == BinaryOp::Mult ? "list.*="
                                                             : "";
  if (method.empty())
    throwTypingError(std::string("unsupported operand types for ") +
                         binaryOpSymbol(stmt->augmentedOp) + "=: " + describe(typeOf(target)) +
                         " and " + describe(value),
                     stmt->location);
  if (method == "list.extend")
    widenListVariable(target, method, {value});
  typeLibraryOperands(target, Library::get().find(method), {target, stmt->value});
}

void InferencePass::widenListVariable(Expr *list, const std::string &method,
                                      const std::vector<const Type *> &arguments) {
  if (list->kind != ExprKind::Name || !localNames.count(list->name) || arguments.empty())
    return;
  // A typed list's item type is fixed once known (its stores convert or are refused).
  if (typeOf(list) && !typeOf(list)->isReflected() && typeOf(list)->itemType())
    return;
  const Type *item = nullptr;
  if (method == "list.append" || method == "list.insert")
    item = arguments.back();
  if (item && item->kind() == TypeKind::StringLiteral)
    item = types::unicode();
  else if (method == "list.extend")
    item = iterationItemType(arguments.back(), list->location);
  if (item && (item->isRuntimeValue() && !item->isNone()))
    if (const Type *widened = unifyTypes(typeOf(list), types::listLike(typeOf(list), item)))
      assignVariable(list->name, widened, list->location);
}

const Type *InferencePass::typeDictOperator(Expr *expr, const std::string &symbol,
                                            std::vector<Expr *> operands) {
  const LibraryFunction *entry = Library::get().find("dict." + symbol);
  if (!entry)
    throwTypingError("unsupported operand types for " + symbol + ": " +
                         describe(typeOf(operands[0])) + " and " + describe(typeOf(operands[1])),
                     expr->location);
  return typeLibraryOperands(expr, entry, std::move(operands));
}

const Type *InferencePass::typeSetOperator(Expr *expr, const std::string &symbol,
                                           std::vector<Expr *> operands) {
  const LibraryFunction *entry = Library::get().find("set." + symbol);
  if (!entry)
    throwTypingError("unsupported operand types for " + symbol + ": " +
                         describe(typeOf(operands[0])) + " and " + describe(typeOf(operands[1])),
                     expr->location);
  return typeLibraryOperands(expr, entry, std::move(operands));
}

void InferencePass::widenSetVariable(Expr *set, const std::string &method,
                                     const std::vector<const Type *> &arguments) {
  if (set->kind != ExprKind::Name || !localNames.count(set->name) || arguments.size() != 1)
    return;
  const Type *stored = nullptr;
  if (method == "set.add") {
    if (const Type *key = dictKeyType(arguments[0]))
      stored = types::set(key);
  } else if (method == "set.update") {
    stored = setOfIterable(arguments[0]);
  }
  if (stored)
    if (const Type *widened = unifyTypes(typeOf(set), stored))
      assignVariable(set->name, widened, set->location);
}

void InferencePass::typeSetAugmentedAssign(Stmt *stmt, const Type *current, const Type *value) {
  BinaryOp op = stmt->augmentedOp;
  if ((op != BinaryOp::BitOr && op != BinaryOp::BitAnd && op != BinaryOp::Sub &&
       op != BinaryOp::BitXor) ||
      !value->isSet())
    throwTypingError(std::string("unsupported operand types for ") + binaryOpSymbol(op) +
                         "=: " + describe(current) + " and " + describe(value),
                     stmt->location);
  Expr *target = stmt->targets[0];
  if (op == BinaryOp::BitOr)
    if (const Type *widened = unifyTypes(current, value)) {
      assignVariable(target->name, widened, target->location);
      current = widened;
    }
  if (current->keyType() && value->keyType() && !dictAcceptsKey(current, value->keyType()))
    throwTypingError(std::string("cannot update a ") + describe(current) + " with " +
                         describe(value) + " (" + binaryOpSymbol(op) + "=)",
                     stmt->location);
}

bool InferencePass::isParameter(const std::string &name) const {
  for (const Parameter &parameter : source.parameters)
    if (parameter.name == name)
      return true;
  return false;
}

bool InferencePass::keepsNumberKind(const Type *expected, const Type *value) {
  if (!expected || !expected->isNumber() || !value->isNumber() || expected == value)
    return true;
  if (expected->isBoolean())
    return value->isBoolean();
  if (expected->isInteger())
    return value->isIntegerLike();
  return expected->isComplex() || !value->isComplex();
}

void InferencePass::typeDictStore(Expr *target, const Type *key, const Type *value) {
  Expr *base = target->operands[0];
  const Type *dict = typeOf(base);
  const Type *stored = dictTypeOfStore(key, value, target->location);
  bool fixed = base->kind == ExprKind::Name && isParameter(base->name) && dict->keyType();
  if (fixed && !keepsNumberKind(dict->valueType(), value))
    throwTypingError("cannot store a value of type " + describe(value) + " into a " +
                         describe(dict) + " (a dict passed in keeps its types)",
                     target->location);
  if (base->kind == ExprKind::Name && localNames.count(base->name) && !fixed) {
    const Type *widened = unifyTypes(dict, stored);
    if (!widened)
      throwTypingError("cannot store a key of type " + describe(key) + " and a value of type " +
                           describe(value) + " into a " + describe(dict),
                       target->location);
    assignVariable(base->name, widened, base->location);
    dict = widened;
  }
  if (!dict->keyType() || !dictAcceptsKey(dict, key) || !dictAcceptsValue(dict, value))
    throwTypingError("cannot store a key of type " + describe(key) + " and a value of type " +
                         describe(value) + " into a " + describe(dict),
                     target->location);
}

void InferencePass::widenDictVariable(Expr *dict, const std::string &method,
                                      const std::vector<const Type *> &arguments,
                                      SourceLocation location) {
  if (dict->kind != ExprKind::Name || !localNames.count(dict->name) ||
      (isParameter(dict->name) && typeOf(dict)->keyType()))
    return;
  const Type *stored = nullptr;
  if (method == "dict.setdefault" && arguments.size() == 2 && !arguments[1]->isNone())
    stored = dictTypeOfStore(arguments[0], arguments[1], location);
  else if (method == "dict.update" && arguments.size() == 1 && arguments[0]->isDict())
    stored = arguments[0];
  if (stored)
    if (const Type *widened = unifyTypes(typeOf(dict), stored))
      assignVariable(dict->name, widened, dict->location);
}

void InferencePass::checkListStore(Expr *target, const Type *value) {
  const Type *list = typeOf(target->operands[0]);
  bool slice = target->operands[1]->kind == ExprKind::Slice;
  const Type *expected = slice ? list : list->itemType();
  bool accepted = slice ? value->isList() &&
                              (!value->itemType() ||
                               unifyTypes(list->itemType(), value->itemType()) == list->itemType())
                        : expected && unifyTypes(expected, value) == expected;
  if (!accepted && expected && expected->isNumber() && value->isNumber())
    accepted = list->isReflected() ? !value->isComplex() || expected->isComplex()
                                   : keepsNumberKind(expected, value); // fixed item type
  if (!accepted)
    throwTypingError("cannot store a value of type " + describe(value) + " into " + describe(list),
                     target->location);
}

/// Whether a loop body has a `break` of its own (not one of a nested loop).
static bool containsBreak(const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Break)
      return true;
    if (stmt->kind == StmtKind::If && (containsBreak(stmt->body) || containsBreak(stmt->orelse)))
      return true;
    if (stmt->kind == StmtKind::Try) {
      bool found = false;
      forEachTryBlock(
          stmt, [&](const std::vector<Stmt *> &block) { found = found || containsBreak(block); });
      if (found)
        return true;
    }
  }
  return false;
}

bool isIndexIteration(const std::string &builtinName) {
  return builtinName == "numpy.ndindex" || builtinName == "numpy.ndenumerate" ||
         builtinName == "numpy.nditer";
}

bool statementCompletes(const TypedFunction &function, const Stmt *stmt) {
  switch (stmt->kind) {
  case StmtKind::Return:
  case StmtKind::Raise:
  case StmtKind::Break:
  case StmtKind::Continue:
    return false;
  case StmtKind::If: {
    auto decided = function.staticConditions.find(stmt->test->id);
    if (decided != function.staticConditions.end())
      return blockCompletes(function, decided->second ? stmt->body : stmt->orelse);
    return blockCompletes(function, stmt->body) || blockCompletes(function, stmt->orelse);
  }
  case StmtKind::Try:
    return tryStatementCompletes(function, stmt);
  case StmtKind::While: // `while True:` without a break never completes
    return !(stmt->test->kind == ExprKind::Constant &&
             stmt->test->constant.kind != Constant::Kind::None &&
             stmt->test->constant.intValue != 0 && !containsBreak(stmt->body));
  default:
    return true;
  }
}

bool blockCompletes(const TypedFunction &function, const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block)
    if (!statementCompletes(function, stmt))
      return false;
  return true;
}

bool inferTypesOnce(TypedFunction &function, CalleeTyper &callees, bool reportUnknown) {
  InferencePass pass(function, callees, reportUnknown);
  return pass.run();
}

void inferTypes(TypedFunction &function, CalleeTyper &callees) {
  // Each pass can only widen types, and widening is bounded, so this ends; the cap guards
  // against a bug turning into a hang.
  for (int pass = 0; pass < 64; ++pass)
    if (!inferTypesOnce(function, callees, false))
      return;
  throwTypingError("type inference did not converge", function.source->definitionLocation);
}

} // namespace taipan
