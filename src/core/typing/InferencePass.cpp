// The core of one inference pass: the variable environment, unification of what each variable,
// return and expression is assigned, the pass over the function's body, and its errors.
#include "typing/InferencePass.h"

#include "syntax/VariableVersions.h"
#include "types/CharSequences.h"
#include "types/NumericPromotion.h"
#include "types/UserTypes.h"
#include "typing/ArrayTyping.h"
#include "typing/FirstClassFunctions.h"
#include "typing/OptionalTyping.h"

#include <algorithm>
#include <functional>

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
  case Constant::Kind::Bytes: // Numba's CharSeq of its bytes (b"" as NumPy's S1)
    return types::charSequence(std::max<int64_t>(1, static_cast<int64_t>(constant.text.size())),
                               false);
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
  if (reportUnknown)
    checkItemTypes();
  return changed;
}

void InferencePass::checkItemTypes() {
  for (Expr *read : undefinedItemReads)
    if (!itemFreeReads.count(read->id))
      throwTypingError("Cannot infer the type of variable '" + pythonVariableName(read->name) +
                           "', have imprecise type: " + describe(typeOf(read)) +
                           " (nothing gives its items a type)",
                       read->location);
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

/// Values a variable may hold: run-time values, and compile-time ones that carry nothing
/// (functions, classes, modules, strings known while compiling), alone or in tuples (a pair of
/// jitted functions unpacked from a tuple argument).
static bool isAssignable(const Type *type) {
  if (type->isRuntimeValue())
    return true;
  switch (type->kind()) {
  case TypeKind::StringLiteral:
  case TypeKind::JitFunction:
  case TypeKind::ExternalFunction:
  case TypeKind::UndefinedFunction:
  case TypeKind::Builtin:
  case TypeKind::DType:
  case TypeKind::Module:
    return true;
  case TypeKind::Tuple:
    return std::all_of(type->elements().begin(), type->elements().end(), isAssignable);
  default:
    return false;
  }
}

void InferencePass::assignVariable(const std::string &name, const Type *type,
                                   SourceLocation location) {
  if (!type)
    return;
  if (!isAssignable(type))
    throwTypingError("cannot assign a value of type " + describe(type) + " to variable '" +
                         pythonVariableName(name) + "'",
                     location);
  const Type *&slot = function.variableTypes[name];
  const Type *unified = unifyJitFunctionValues(function, *source.resolver, slot, type, location);
  if (!unified)
    unified = unifyWithOptional(slot, type);
  if (!unified)
    throwTypingError("cannot unify " + describe(slot) + " and " + describe(type) +
                         " for variable '" + pythonVariableName(name) + "'",
                     location);
  if (unified != slot) {
    slot = unified;
    changed = true;
  }
  auto &names = function.assignmentsByLine[location.line];
  if (std::find(names.begin(), names.end(), name) == names.end())
    names.push_back(name);
}

/// Whether `function` calls itself (a recursive function, whose return type may grow).
static bool callsItself(const TypedFunction &function) {
  return std::any_of(function.calls.begin(), function.calls.end(),
                     [&](const auto &call) { return call.second.callee == &function; });
}

void InferencePass::unifyReturn(const Type *type, SourceLocation location) {
  if (!type)
    return;
  if (type->kind() == TypeKind::StringLiteral)
    type = types::unicode(); // a returned literal is a string value
  if (const Type *firstClass = types::firstClassFunctionOf(type))
    type = firstClass; // a C function returned is a function value, which boxing makes
  const Type *unified =
      unifyJitFunctionValues(function, *source.resolver, function.returnType, type, location);
  if (!unified)
    unified = unifyWithOptional(function.returnType, type);
  if (unified && unified->kind() == TypeKind::UndefinedFunction)
    throwTypingError("cannot return one of several jitted functions (" + unified->name() +
                         ") without a signature they share: give them one explicit signature",
                     location);
  if (!unified && callsItself(function))
    throwTypingError("Return type of recursive function does not converge: '" + source.name +
                         "' returns " + describe(function.returnType) + " and " + describe(type) +
                         ", which do not unify",
                     location);
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

void InferencePass::typeBlock(const std::vector<Stmt *> &block) {
  for (Stmt *stmt : block) {
    statements.typeStatement(stmt);
    if (!statementCompletes(function, stmt))
      break; // what follows is dead code, as Numba removes it
  }
}

void InferencePass::addLocalTarget(Expr *target) {
  if (target->kind == ExprKind::Name)
    localNames.insert(target->name);
  else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
    for (Expr *element : target->operands)
      addLocalTarget(element);
}

const Type *InferencePass::typeExpr(Expr *expr) {
  if (!expr)
    return nullptr;
  const Type *type = expressions.computeType(expr);
  auto conversion = function.convertedExpressions.find(expr->id);
  if (conversion != function.convertedExpressions.end() && type == conversion->second.first)
    type = conversion->second.second; // converted to a number where it was used as one
  return record(expr, type);
}

const Type *InferencePass::userCast(TypedFunction &function, const Type *from, const Type *to,
                                    SourceLocation location) {
  if (to && function.userCasts.count({from, to}))
    return to;
  GlobalResolver *resolver = function.source->resolver.get();
  if (!resolver)
    return nullptr;
  // The type's conversions are its "$cast" members (taipan.user_types): an intrinsic taking
  // the value and returning the number, "$cast" for the type's own choice.
  OverloadMember cast = resolver->findMember(from, to ? "$cast." + to->name() : "$cast");
  if (cast.registryId < 0)
    return nullptr;
  IntrinsicBody body = resolver->implementIntrinsic(cast.registryId, {from}, {}, location);
  const Type *number = body.returnType;
  function.userCasts[{from, number}] = std::move(body);
  return number;
}

void InferencePass::checkDeclaredReturn(TypedFunction &converting, const std::string &description,
                                        const Type *returned, const Type *declared,
                                        SourceLocation location) {
  if (declared == returned)
    return;
  if ((declared->isNumber() && returned->isNumber()) || canConvertImplicitly(returned, declared) ||
      declared->isNone())
    return;
  // An integer as a void* (Numba's unsafe uintp -> voidptr: an address computed as a number).
  if (returned->isInteger() && declared->isPointer() && !declared->pointee())
    return;
  // A user type's lower_cast to the declared number (Numba's can_convert_to, then lower_cast).
  if (isUserType(returned) && declared->isNumber() &&
      userCast(converting, returned, declared, location))
    return;
  throwTypingError(description + " returns " + returned->name() +
                       ", which does not convert to its declared return type " + declared->name(),
                   location);
}

const Type *InferencePass::convertToNumber(Expr *expr, const Type *target) {
  const Type *type = typeOf(expr);
  if (!isUserType(type))
    return nullptr;
  const Type *number = userCast(function, type, target, expr->location);
  if (!number)
    return nullptr;
  function.convertedExpressions[expr->id] = {type, number};
  return record(expr, number);
}

bool InferencePass::isParameter(const std::string &name) const {
  for (const Parameter &parameter : source.parameters)
    if (parameter.name == name)
      return true;
  return false;
}

void InferencePass::refineSharedContainers(const std::vector<Expr *> &arguments,
                                           const FunctionSource &callee,
                                           const TypedFunction &typed) {
  // `acc = []` filled by a closure (or any callee) through its parameter: the callee gave the
  // items a type, which the caller's variable takes too, so both name one list (no copy into a
  // list of another type at the call).
  for (size_t i = 0; i < arguments.size() && i < callee.parameters.size(); ++i) {
    Expr *argument = arguments[i];
    if (!argument || argument->kind != ExprKind::Name || !holdsUndefinedItems(typeOf(argument)))
      continue;
    auto inCallee = typed.variableTypes.find(callee.parameters[i].name);
    if (inCallee == typed.variableTypes.end() || !inCallee->second ||
        holdsUndefinedItems(inCallee->second))
      continue;
    if (unifyTypes(typeOf(argument), inCallee->second) == inCallee->second)
      assignVariable(argument->name, inCallee->second, argument->location);
  }
}

bool InferencePass::holdsUndefinedItems(const Type *type) {
  if (!type)
    return false;
  if (type->isList())
    return !type->itemType();
  if (type->isSet() || type->isDict())
    return !type->keyType();
  return false;
}

} // namespace taipan
