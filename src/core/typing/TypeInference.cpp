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

const Type *InferencePass::typeMemberOverload(Expr *expr, const Type *baseType) {
  if (!baseType->isRuntimeValue())
    return nullptr;
  OverloadMember member = source.resolver->findMember(baseType, expr->name);
  if (member.registryId < 0)
    return nullptr;
  const Type *overload = types::overload(member.registryId, expr->name);
  if (!member.isAttribute)
    return overload;
  return typeOverloadCall(expr, overload, expr->operands[0]);
}

const Type *InferencePass::typeOverloadCall(Expr *expr, const Type *overload, Expr *self,
                                            bool *declined) {
  std::vector<const Type *> positional;
  if (self)
    positional.push_back(typeOf(self));
  size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
  for (size_t i = 1; i < keywordStart; ++i)
    positional.push_back(typeOf(expr->operands[i]));
  std::vector<const Type *> keywordTypes;
  for (size_t i = keywordStart; i < expr->operands.size(); ++i)
    keywordTypes.push_back(typeOf(expr->operands[i]));
  bool mayDecline = declined && !self && isKnownBuiltin(overload->text());
  std::shared_ptr<FunctionSource> implementation =
      source.resolver->implementOverload(overload->registryId(), positional, expr->keywordNames,
                                         keywordTypes, mayDecline, expr->location);
  if (!implementation) {
    *declined = true;
    function.calls.erase(expr->id);
    function.overloadImplementations.erase(expr->id);
    return nullptr;
  }
  FunctionSource *callee = implementation.get();
  function.overloadImplementations[expr->id] = std::move(implementation);
  return typeJitCall(expr, callee, self);
}

const Type *InferencePass::typeLibraryCall(Expr *expr, const LibraryFunction *entry) {
  Expr *callee = expr->callee();
  std::vector<Expr *> positional;
  if (isMethodCall(callee))
    positional.push_back(callee->operands[0]);
  size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
  positional.insert(positional.end(), expr->operands.begin() + 1,
                    expr->operands.begin() + keywordStart);
  std::vector<Expr *> keywordValues(expr->operands.begin() + keywordStart, expr->operands.end());
  LibraryCall call;
  call.function = entry;
  call.location = expr->location;
  call.arguments =
      Library::bindArguments(*entry, positional, expr->keywordNames, keywordValues, expr->location);
  for (Expr *argument : call.arguments)
    call.argumentTypes.push_back(argument ? viewAsList(typeOf(argument), entry) : nullptr);
  if (const std::optional<LibraryConstantArgument> &declared = entry->constantArgument) {
    std::optional<std::vector<int64_t>> values;
    if (declared->position < call.arguments.size())
      values = constantIntegers(call.arguments[declared->position], function.globals);
    if (!values)
      throwTypingError(entry->name + declared->requirement, expr->location);
    call.constants = std::move(*values);
  }
  call.iteratedByLoop = loopIterables.count(expr->id) > 0;
  call.resultType = entry->type(call);
  if (entry->ufunc && entry->ufunc->scalarFunction)
    typeUfuncElementCallee(call);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

const Type *InferencePass::viewAsList(const Type *type, const LibraryFunction *entry) {
  if (!type || !type->isDictView() || entry->lowersArguments || entry->name == "len" ||
      entry->name.rfind("dictview.", 0) == 0)
    return type;
  return types::list(type->viewItemType());
}

void InferencePass::typeUfuncElementCallee(LibraryCall &call) {
  call.elementCallee = callees.typeCallee(call.function->ufunc->scalarFunction.get(),
                                          call.loop.inputs, call.location);
  if (call.loop.output)
    return;
  const Type *returned = call.elementCallee->returnType;
  if (returned && !returned->isNumber())
    throwTypingError("the ufunc " + call.function->name +
                         " returns a value that is not a number: " + describe(returned),
                     call.location);
  call.loop.output = returned; // nullptr while the callee's type is unknown (recursion)
  call.resultType = returned ? ufuncResultType(call) : nullptr;
}

const Type *InferencePass::typeLibraryAttribute(Expr *expr, const LibraryFunction *entry) {
  return typeLibraryOperands(expr, entry, {expr->operands[0]});
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

const Type *InferencePass::typeLibraryOperands(Expr *expr, const LibraryFunction *entry,
                                               std::vector<Expr *> operands) {
  LibraryCall call;
  call.function = entry;
  call.location = expr->location;
  call.arguments = std::move(operands);
  for (Expr *operand : call.arguments)
    call.argumentTypes.push_back(typeOf(operand));
  call.resultType = entry->type(call);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

const Type *InferencePass::typeIntrinsicCall(Expr *expr, const Type *intrinsic,
                                             const std::vector<const Type *> &arguments) {
  if (!expr->keywordNames.empty())
    throwTypingError("keyword arguments to the intrinsic " + intrinsic->text() +
                         " are not supported",
                     expr->location);
  IntrinsicBody body =
      source.resolver->implementIntrinsic(intrinsic->registryId(), arguments, expr->location);
  if (body.parameterTypes.size() != arguments.size())
    throwTypingError("the intrinsic " + intrinsic->text() + " takes " +
                         std::to_string(body.parameterTypes.size()) + " arguments but " +
                         std::to_string(arguments.size()) + " were given",
                     expr->location);
  for (size_t i = 0; i < arguments.size(); ++i)
    if (!arguments[i]->isNumber() || !body.parameterTypes[i]->isNumber() ||
        (arguments[i]->isComplex() && !body.parameterTypes[i]->isComplex()))
      throwTypingError("argument " + std::to_string(i) + " of the intrinsic " + intrinsic->text() +
                           " is " + describe(arguments[i]) + ", which does not convert to " +
                           describe(body.parameterTypes[i]),
                       expr->location);
  if (!body.returnType->isNumber() && !body.returnType->isNone())
    throwTypingError("the intrinsic " + intrinsic->text() + " must return a number or None, not " +
                         describe(body.returnType),
                     expr->location);
  const Type *result = body.returnType;
  function.intrinsics[expr->id] = std::move(body);
  return result;
}

const Type *InferencePass::typeCall(Expr *expr) {
  Expr *callee = expr->callee();
  const Type *calleeType = typeExpr(callee);
  if (isIsinstance(calleeType))
    return decideIsinstance(expr) ? types::boolean() : nullptr;
  // A jitted callee is specialised for an optional argument, as in Numba.
  // So are an objmode block's live-ins: the block sees None as None (ObjectModeBlocks.h).
  bool keepsArguments =
      calleeType &&
      (calleeType->kind() == TypeKind::JitFunction ||
       (calleeType->kind() == TypeKind::Builtin && calleeType->text() == ObjectModeCallee + 1));
  if (keepsArguments)
    for (size_t i = 1; i < expr->operands.size(); ++i)
      if (expr->operands[i]->kind == ExprKind::Name)
        keepsOptional.insert(expr->operands[i]->id);
  // np.array([1, 2, 3]): a list literal given to NumPy is just a sequence of numbers.
  if (calleeType && calleeType->kind() == TypeKind::Builtin &&
      (calleeType->text() == "numpy.array" || calleeType->text() == "numpy.asarray") &&
      expr->operands.size() > 1 && expr->operands[1]->kind == ExprKind::List)
    expr->operands[1]->kind = ExprKind::Tuple;
  std::vector<const Type *> arguments;
  std::vector<Expr *> argumentExprs;
  bool unknown = false;
  for (size_t i = 1; i < expr->operands.size(); ++i) {
    arguments.push_back(typeExpr(expr->operands[i]));
    argumentExprs.push_back(expr->operands[i]);
    unknown |= !arguments.back();
  }
  if (!calleeType || unknown)
    return nullptr;
  if (calleeType->kind() == TypeKind::DType && calleeType->dtype()->isNamedTuple())
    return typeNamedTupleCall(expr, calleeType->dtype(), arguments);
  if (calleeType->kind() == TypeKind::Builtin && calleeType->text() == "namedtuple._replace")
    return typeNamedTupleReplace(expr, arguments);
  if (expr->starredOperand && calleeType->kind() != TypeKind::JitFunction)
    throwUnsupported("'*' in a call is supported only when calling a jitted function, not " +
                         describe(calleeType),
                     expr->operands[expr->starredOperand]->location);
  if (calleeType->kind() == TypeKind::Overload) {
    // When every typing function declines, taipan's own implementation of the function (if
    // it has one) is tried, as Numba tries a function's other definitions.
    bool declined = false;
    Expr *self = isMethodCall(callee) ? callee->operands[0] : nullptr;
    const Type *result = typeOverloadCall(expr, calleeType, self, &declined);
    if (!declined)
      return result;
    calleeType = types::builtin(calleeType->text());
  }
  switch (calleeType->kind()) {
  case TypeKind::Builtin: {
    const std::string &name = calleeType->text();
    std::string method = builtinClassMethod(name);
    if (!method.empty() && arguments.size() == 1 && expr->keywordNames.empty() &&
        isClassInstance(arguments[0])) { // len(p): the class's __len__
      OverloadMember member = source.resolver->findMember(arguments[0], method);
      if (member.registryId < 0 || member.isAttribute)
        throwTypingError(name + "() of jitclass " + arguments[0]->text() + " needs its " + method +
                             " method",
                         expr->location);
      return typeOverloadCall(expr, types::overload(member.registryId, method), nullptr);
    }
    if (const LibraryFunction *entry = Library::get().find(name)) {
      if (isMethodCall(callee) && typeOf(callee->operands[0])->isList())
        widenListVariable(callee->operands[0], name, arguments);
      if (isMethodCall(callee) && typeOf(callee->operands[0])->isDict())
        widenDictVariable(callee->operands[0], name, arguments, expr->location);
      if (isMethodCall(callee) && typeOf(callee->operands[0])->isSet())
        widenSetVariable(callee->operands[0], name, arguments);
      return typeLibraryCall(expr, entry);
    }
    // A name of a library module or namespace that the library lacks (math.isqrt).
    throwUnsupported(name + " is not supported", expr->location);
  }
  case TypeKind::JitFunction:
    return typeJitCall(expr, calleeType->function());
  case TypeKind::Intrinsic:
    return typeIntrinsicCall(expr, calleeType, arguments);
  case TypeKind::ExternalFunction:
    return typeExternalCall(expr, calleeType, arguments);
  case TypeKind::ExceptionClass:
    for (Expr *argument : argumentExprs)
      typeExceptionArgument(argument);
    return calleeType;
  default:
    throwTypingError("cannot call a value of type " + describe(calleeType), expr->location);
  }
}

const Type *InferencePass::typeNamedTupleReplace(Expr *expr,
                                                 const std::vector<const Type *> &arguments) {
  Expr *base = expr->callee()->operands[0];
  const Type *named = typeOf(base);
  if (expr->positionalCount() != 0 || expr->starredOperand)
    throwTypingError("_replace() takes keyword arguments only", expr->location);
  if (base->kind != ExprKind::Name)
    throwUnsupported("_replace() is supported on a variable holding the named tuple",
                     expr->location);
  std::vector<Expr *> items;
  std::vector<const Type *> itemTypes;
  for (size_t i = 0; i < named->elements().size(); ++i) {
    items.push_back(tupleItem(source, base, static_cast<int>(i)));
    itemTypes.push_back(typeExpr(items.back()));
  }
  size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
  for (size_t k = 0; k < expr->keywordNames.size(); ++k) {
    int field = named->fieldIndex(expr->keywordNames[k]);
    if (field < 0)
      throwTypingError("_replace() got an unexpected field name '" + expr->keywordNames[k] + "'",
                       expr->location);
    items[static_cast<size_t>(field)] = expr->operands[keywordStart + k];
    itemTypes[static_cast<size_t>(field)] = arguments[k];
  }
  LibraryCall call;
  call.function = Library::get().find("namedtuple.new");
  call.location = expr->location;
  const Type *shape =
      types::namedTuple(named->text(), named->namedTupleClass(), named->fieldNames(), {});
  call.resultType =
      bindNamedTupleCall(expr, shape, items, itemTypes, {}, call.arguments, call.argumentTypes);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

const Type *InferencePass::typeNamedTupleCall(Expr *expr, const Type *namedClass,
                                              const std::vector<const Type *> &arguments) {
  size_t positionalCount = expr->positionalCount();
  std::vector<Expr *> positional;
  std::vector<const Type *> positionalTypes;
  for (size_t i = 0; i < positionalCount; ++i) {
    Expr *operand = expr->operands[1 + i];
    if (expr->starredOperand == 1 + i) { // *t: its items, in order
      for (Expr *item : spreadStarred(operand)) {
        positional.push_back(item);
        positionalTypes.push_back(typeOf(item));
      }
      continue;
    }
    positional.push_back(operand);
    positionalTypes.push_back(arguments[i]);
  }
  std::vector<const Type *> keywordTypes(arguments.begin() + positionalCount, arguments.end());
  LibraryCall call;
  call.function = Library::get().find("namedtuple.new");
  call.location = expr->location;
  call.resultType = bindNamedTupleCall(expr, namedClass, positional, positionalTypes, keywordTypes,
                                       call.arguments, call.argumentTypes);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

std::vector<Expr *> InferencePass::spreadStarred(Expr *tuple) {
  const Type *type = typeOf(tuple);
  if (!type->isTuple())
    throwTypingError("'*' in a call needs a tuple, not " + describe(type), tuple->location);
  std::vector<Expr *> items;
  for (size_t i = 0; i < type->elements().size(); ++i) {
    items.push_back(tupleItem(source, tuple, static_cast<int>(i)));
    typeExpr(items.back());
  }
  return items;
}

bool InferencePass::isMethodCall(Expr *callee) {
  const Type *base = callee->kind == ExprKind::Attribute ? typeOf(callee->operands[0]) : nullptr;
  return base && !function.globals.count(callee->id) &&
         (base->isRuntimeValue() || base->kind() == TypeKind::StringLiteral);
}

bool InferencePass::isNumberLiteral(const Expr *expr) {
  if (expr->kind != ExprKind::Constant)
    return false;
  Constant::Kind kind = expr->constant.kind;
  return kind == Constant::Kind::Int || kind == Constant::Kind::Float ||
         kind == Constant::Kind::Complex || kind == Constant::Kind::Bool;
}

const Type *InferencePass::typeExternalCall(Expr *expr, const Type *callee,
                                            const std::vector<const Type *> &arguments) {
  const std::vector<const Type *> &parameters = callee->parameterTypes();
  const std::string &name = callee->text();
  if (!expr->keywordNames.empty())
    throwTypingError("keyword arguments to the foreign function " + name + " are not supported",
                     expr->location);
  if (arguments.size() != parameters.size())
    throwTypingError(name + "() takes " + std::to_string(parameters.size()) + " arguments but " +
                         std::to_string(arguments.size()) + " were given",
                     expr->location);
  for (size_t i = 0; i < parameters.size(); ++i) {
    const Type *parameter = parameters[i];
    const Type *argument = arguments[i];
    bool accepted = false;
    if (parameter->isPointer())
      accepted = argument == parameter ||
                 (argument->isArray() &&
                  (!parameter->pointee() || argument->dtype() == parameter->pointee())) ||
                 (argument->isPointer() && !parameter->pointee());
    else // numbers convert as they would through a signature, but complex stays complex
      accepted = parameter->isNumber() && argument->isNumber() &&
                 (parameter->isComplex() || !argument->isComplex());
    if (!accepted)
      throwTypingError("argument " + std::to_string(i + 1) + " of " + name + "() must be " +
                           parameter->name() + ", not " + describe(argument),
                       expr->operands[1 + i]->location);
  }
  return callee->resultType();
}

const Type *InferencePass::typeJitCall(Expr *expr, FunctionSource *callee, Expr *self) {
  const std::vector<Parameter> &parameters = callee->parameters;
  std::vector<Expr *> positional;
  if (self)
    positional.push_back(self);
  for (size_t i = 1; i <= expr->positionalCount(); ++i) {
    if (i != expr->starredOperand) {
      positional.push_back(expr->operands[i]);
      continue;
    }
    std::vector<Expr *> items = spreadStarred(expr->operands[i]);
    positional.insert(positional.end(), items.begin(), items.end());
  }
  CallBinding binding;
  binding.arguments = bindJitArguments(source, *callee, expr, positional);
  for (size_t i = 0; i < parameters.size(); ++i)
    if (parameters[i].isStar)
      typeExpr(binding.arguments[i]); // the tuple the call packs
  std::vector<bool> bound(parameters.size());
  for (size_t i = 0; i < parameters.size(); ++i)
    bound[i] = binding.arguments[i] != nullptr;
  std::vector<const Type *> parameterTypes;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (bound[i]) {
      parameterTypes.push_back(typeOf(binding.arguments[i]));
    } else if (parameters[i].hasDefault) {
      parameterTypes.push_back(constantType(parameters[i].defaultValue));
    } else {
      throwTypingError(callee->name + "() missing required argument '" + parameters[i].name + "'",
                       expr->location);
    }
  }
  binding.callee = callees.typeCallee(callee, parameterTypes, expr->location);
  function.calls[expr->id] = binding;
  return binding.callee->returnType;
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
