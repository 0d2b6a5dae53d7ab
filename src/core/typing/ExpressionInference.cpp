// Type inference of expressions: names, globals, attributes, subscripts, operators, literals
// and comprehensions, each typed once a pass and recorded under its expression.
#include "typing/ExpressionInference.h"

#include "typing/InferencePass.h"

#include "syntax/CaughtExceptions.h"
#include "types/CharSequences.h"
#include "types/NumericPromotion.h"
#include "types/UserTypes.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/ConstantArguments.h"
#include "typing/DatetimeTyping.h"
#include "typing/FirstClassFunctions.h"
#include "typing/JitClassTyping.h"
#include "typing/OptionalTyping.h"
#include "typing/RecordTyping.h"
#include "typing/StringTyping.h"

#include <algorithm>

namespace taipan {

ExpressionInference::ExpressionInference(InferencePass &pass)
    : pass(pass), function(pass.function), source(pass.source), callees(pass.callees) {}

const Type *ExpressionInference::typeClassOperator(Expr *expr, const std::string &method,
                                                   const std::string &what) {
  const Type *self = pass.typeOf(expr->operands[0]);
  // x + m, x < m: an operator whose right operand alone is a user type (an IntEnum member) is
  // found through that operand; its overloads still take the operands in order.
  if (!isClassInstance(self) && !isUserType(self) && expr->operands.size() == 2 &&
      isUserType(pass.typeOf(expr->operands[1])))
    self = pass.typeOf(expr->operands[1]);
  OverloadMember member = source.resolver->findMember(self, method);
  if (member.registryId < 0 || member.isAttribute)
    throwTypingError(isUserType(self) ? InferencePass::describe(self) + " does not support '" +
                                            what + "' (no overload or template types it)"
                                      : "jitclass " + self->text() + " does not support '" + what +
                                            "' (it defines no " + method + ")",
                     expr->location);
  return pass.calls.typeOverloadCall(expr, types::overload(member.registryId, method),
                                     expr->operands[0]);
}

const Type *ExpressionInference::typeClassContains(Expr *expr, const Type *instance,
                                                   const Type *item) {
  OverloadMember member = source.resolver->findMember(instance, "__contains__");
  if (member.registryId < 0 || member.isAttribute)
    throwTypingError("jitclass " + instance->text() +
                         " does not support 'in' (it defines no __contains__)",
                     expr->location);
  std::vector<const Type *> arguments = {instance, item};
  std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
      member.registryId, arguments, {}, {}, false, expr->location);
  CallBinding binding;
  binding.arguments = {expr->operands[1], expr->operands[0]};
  binding.callee = callees.typeCallee(implementation.get(), arguments, expr->location);
  function.calls[expr->id] = binding;
  function.overloadImplementations[expr->id] = std::move(implementation);
  return binding.callee->returnType ? types::boolean() : nullptr;
}

/// The type of an item of a frozen tuple: strings are run-time values, as in a literal.
static const Type *frozenItemType(const GlobalValue &value) {
  switch (value.kind) {
  case GlobalValue::Kind::Constant:
    if (value.scalarType)
      return value.scalarType;
    return value.constant.kind == Constant::Kind::String
               ? types::unicode()
               : InferencePass::constantType(value.constant);
  case GlobalValue::Kind::ConstantArray:
    return value.arrayType;
  case GlobalValue::Kind::ConstantTuple:
  case GlobalValue::Kind::FrozenTuple: {
    std::vector<const Type *> elements;
    if (value.kind == GlobalValue::Kind::ConstantTuple) {
      for (const Constant &item : value.items) {
        GlobalValue constant;
        constant.kind = GlobalValue::Kind::Constant;
        constant.constant = item;
        elements.push_back(frozenItemType(constant));
      }
      return types::tuple(elements);
    }
    for (const GlobalValue &element : value.elements)
      elements.push_back(frozenItemType(element));
    if (const Type *functions = cFunctionTuple(elements))
      return functions; // C functions of one signature, as Numba types them
    const Type *named = value.functionType;
    return named ? types::namedTuple(named->text(), named->namedTupleClass(), named->fieldNames(),
                                     elements)
                 : types::tuple(elements);
  }
  case GlobalValue::Kind::JitFunction:
    return types::jitFunction(value.function.get());
  case GlobalValue::Kind::ExternalFunction:
    return value.functionType;
  default:
    return nullptr;
  }
}

const Type *ExpressionInference::globalType(Expr *expr, const GlobalValue &value) {
  switch (value.kind) {
  case GlobalValue::Kind::Constant:
    return value.scalarType ? value.scalarType : InferencePass::constantType(value.constant);
  case GlobalValue::Kind::ConstantArray:
    return value.arrayType;
  case GlobalValue::Kind::ConstantTuple:
  case GlobalValue::Kind::FrozenTuple:
    return frozenItemType(value);
  case GlobalValue::Kind::Module:
    return types::module(value.name);
  case GlobalValue::Kind::Builtin:
    if (const LibraryValue *libraryValue = Library::get().findValue(value.name))
      return libraryValue->type; // cuda.laneid, cuda.warpsize
    return types::builtin(value.name);
  case GlobalValue::Kind::JitFunction:
    return types::jitFunction(value.function.get());
  case GlobalValue::Kind::ExceptionClass:
    return types::exceptionClass(value.exceptionId, value.name);
  case GlobalValue::Kind::ExternalFunction:
  case GlobalValue::Kind::DType:
    return value.functionType;
  case GlobalValue::Kind::Overload:
    // A library function that overloads were registered for (Numba's @overload(len), a
    // library's for its own type) stays that function wherever it is read, so that branch
    // pruning, isinstance() and values of it do not depend on what registered overloads
    // before; typeCall tries the overloads first when it is called.
    if (Library::get().find(value.name))
      return types::builtin(value.name);
    return types::overload(value.registryId, value.name);
  case GlobalValue::Kind::Intrinsic:
    return types::intrinsic(value.registryId, value.name);
  case GlobalValue::Kind::Unsupported:
    // Numba's words first ("Untyped global name"), which its users and tests look for.
    throwTypingError(value.reason.empty()
                         ? "Untyped global name '" + expr->name + "': a value of type " +
                               value.name + ", which compiled code cannot use"
                         : "'" + expr->name + "' " + value.reason,
                     expr->location);
  case GlobalValue::Kind::Missing:
    // Python's exception named first, as Numba writes it.
    throwTypingError("NameError: name '" + expr->name + "' is not defined", expr->location);
  }
  return nullptr;
}

const Type *ExpressionInference::computeType(Expr *expr) {
  switch (expr->kind) {
  case ExprKind::Constant:
    return InferencePass::constantType(expr->constant);
  case ExprKind::Name:
    return typeName(expr);
  case ExprKind::Attribute:
    return typeAttribute(expr);
  case ExprKind::BinOp: {
    const Type *left = pass.typeExpr(expr->operands[0]);
    const Type *right = pass.typeExpr(expr->operands[1]);
    if (!left || !right)
      return nullptr;
    // Values of user types that convert to numbers (Numba's can_convert_to: IntEnum members)
    // take taipan's own arithmetic where both sides are then numbers, as Numba's built-in
    // templates come before the user's.
    // (Not an array-compatible value, whose conversion is its array: the operator is then a
    // ufunc of it, whose result its __array_wrap__ gives in its own type, taipan.user_types.)
    auto convertible = [&](const Type *type, Expr *operand) {
      if (type->isNumber())
        return true;
      if (!isUserType(type))
        return false;
      const Type *number = InferencePass::userCast(function, type, nullptr, operand->location);
      return number && number->isNumber();
    };
    if ((isUserType(left) || isUserType(right)) && convertible(left, expr->operands[0]) &&
        convertible(right, expr->operands[1])) {
      if (isUserType(left))
        left = pass.convertToNumber(expr->operands[0]);
      if (isUserType(right))
        right = pass.convertToNumber(expr->operands[1]);
    }
    // p + q: the class's __add__; of a user type, the operator's overloads and templates
    if (isClassInstance(left) || isUserType(left) || isUserType(right))
      return typeClassOperator(expr, binaryOperatorMethod(expr->binaryOp),
                               binaryOpSymbol(expr->binaryOp));
    if (const Type *string = stringBinaryResultType(expr->binaryOp, left, right, expr->location))
      return string;
    if (const Type *datetime =
            datetimeBinaryResultType(expr->binaryOp, left, right, expr->location))
      return datetime;
    if (expr->binaryOp == BinaryOp::MatMult && (left->isArray() || right->isArray()))
      return pass.calls.typeLibraryOperands(expr, Library::get().find("numpy.dot"), expr->operands);
    if ((left->isDictView() || right->isDictView()) &&
        (expr->binaryOp == BinaryOp::BitOr || expr->binaryOp == BinaryOp::BitAnd ||
         expr->binaryOp == BinaryOp::Sub || expr->binaryOp == BinaryOp::BitXor))
      return pass.calls.typeLibraryOperands( // d.keys() & s (library/DictViews.cpp)
          expr, Library::get().find(std::string("dictview.") + binaryOpSymbol(expr->binaryOp)),
          expr->operands);
    if (left->isList() || right->isList()) // list + list, list * n (library/Lists.cpp)
      return pass.containers.typeListOperator(expr, binaryOpSymbol(expr->binaryOp), expr->operands);
    if (left->isSet() || right->isSet()) // a | b, a & b, a - b, a ^ b (library/Sets.cpp)
      return pass.containers.typeContainerOperator(expr, "set", binaryOpSymbol(expr->binaryOp),
                                                   expr->operands);
    if (expr->binaryOp == BinaryOp::Mult && left->isTuple() != right->isTuple() &&
        !left->isLiteralList() && !right->isLiteralList() &&
        (left->isIntegerLike() || right->isIntegerLike()))
      return typeTupleRepetition(expr, left->isTuple() ? left : right);
    if (const Type *array =
            typeElementwiseBinary(expr->binaryOp, left, right, expr->location,
                                  CallInference::isNumberLiteral(expr->operands[0]),
                                  CallInference::isNumberLiteral(expr->operands[1])))
      return array;
    const Type *result = binaryResultType(expr->binaryOp, left, right);
    if (!result)
      throwTypingError(std::string("unsupported operand types for ") +
                           binaryOpSymbol(expr->binaryOp) + ": " + InferencePass::describe(left) +
                           " and " + InferencePass::describe(right),
                       expr->location);
    return result;
  }
  case ExprKind::UnaryOp: {
    const Type *operand = pass.typeExpr(expr->operands[0]);
    if (!operand)
      return nullptr;
    if (expr->unaryOp == UnaryOp::Not)
      pass.itemFreeReads.insert(expr->operands[0]->id);
    if ((isClassInstance(operand) || isUserType(operand)) &&
        !unaryOperatorMethod(expr->unaryOp).empty()) // -p, ~p
      return typeClassOperator(expr, unaryOperatorMethod(expr->unaryOp),
                               unaryOperatorMethod(expr->unaryOp));
    if (const Type *array = typeElementwiseUnary(expr->unaryOp, operand, expr->location))
      return array;
    if (const Type *datetime = datetimeUnaryResultType(expr->unaryOp, operand, expr->location))
      return datetime;
    const Type *result = unaryResultType(expr->unaryOp, operand);
    if (!result)
      throwTypingError("bad operand type for unary operator: " + InferencePass::describe(operand),
                       expr->location);
    return result;
  }
  case ExprKind::BoolOp: {
    const Type *result = nullptr;
    bool unknown = false;
    for (Expr *operand : expr->operands) {
      // An operand whose truth types decide, and which ends the evaluation (false for
      // `and`, true for `or`), leaves the operands after it dead: they are not typed.
      std::optional<bool> truth =
          operand == expr->operands.back() ? std::nullopt : pass.conditions.staticTruth(operand);
      bool shortCircuits = truth && *truth != expr->isAnd;
      if (shortCircuits)
        function.staticConditions[operand->id] = *truth;
      else
        function.staticConditions.erase(operand->id);
      const Type *type = pass.typeExpr(operand);
      if (!type) {
        unknown = true;
        continue;
      }
      const Type *unified = unifyTypes(result, type);
      if (!unified)
        throwTypingError("the operands of and/or have incompatible types " +
                             InferencePass::describe(result) + " and " +
                             InferencePass::describe(type),
                         operand->location);
      result = unified;
      if (shortCircuits)
        break;
    }
    return unknown ? nullptr : result;
  }
  case ExprKind::Compare: {
    bool unknown = false;
    std::vector<const Type *> operands;
    for (Expr *operand : expr->operands) {
      operands.push_back(pass.typeExpr(operand));
      unknown |= !operands.back();
    }
    if (unknown)
      return nullptr;
    if (expr->compareOps.size() == 1 && isClassInstance(operands[1]) &&
        (expr->compareOps[0] == CompareOp::In || expr->compareOps[0] == CompareOp::NotIn))
      return typeClassContains(expr, operands[1], operands[0]); // x in p: its __contains__
    // p == q: the class's __eq__; of a user type, the operator's overloads and templates
    if ((isClassInstance(operands[0]) || isUserType(operands[0]) ||
         (isUserType(operands[1]) && !isClassInstance(operands[1]))) &&
        expr->compareOps.size() == 1 && !comparisonMethod(expr->compareOps[0]).empty())
      return typeClassOperator(expr, comparisonMethod(expr->compareOps[0]),
                               compareOpSymbol(expr->compareOps[0]));
    // p is q of two values of one user type: operator.is_/is_not's overloads (an enum member
    // is the same object as another member of its class with its value: taipan.enums); values
    // of two types are two objects, which the identity below answers.
    if (expr->compareOps.size() == 1 && isUserType(operands[0]) && operands[0] == operands[1] &&
        (expr->compareOps[0] == CompareOp::Is || expr->compareOps[0] == CompareOp::IsNot))
      return typeClassOperator(expr, expr->compareOps[0] == CompareOp::Is ? "$is" : "$is_not",
                               compareOpSymbol(expr->compareOps[0]));
    for (size_t i = 0; i < expr->compareOps.size(); ++i)
      if ((expr->compareOps[i] == CompareOp::Is || expr->compareOps[i] == CompareOp::IsNot) &&
          !identityIsDecidable(operands[i], operands[i + 1]))
        throwTypingError(std::string("'") + compareOpSymbol(expr->compareOps[i]) + "' between " +
                             InferencePass::describe(operands[i]) + " and " +
                             InferencePass::describe(operands[i + 1]) +
                             " is not supported: arrays, ranges, lists, dicts, sets and strings "
                             "have no object identity in compiled code",
                         expr->location);
    bool identity = expr->compareOps[0] == CompareOp::Is || expr->compareOps[0] == CompareOp::IsNot;
    if (!identity && operands.back()->isDictView() &&
        (expr->compareOps[0] == CompareOp::In || expr->compareOps[0] == CompareOp::NotIn)) {
      if (expr->compareOps.size() != 1)
        throwUnsupported("chained comparisons with 'in' a dict view are not supported",
                         expr->location);
      return pass.calls.typeLibraryOperands(
          expr,
          Library::get().find("dictview." + std::string(compareOpSymbol(expr->compareOps[0]))),
          expr->operands);
    }
    if (!identity && (operands[0]->isDict() || operands.back()->isDict())) {
      if (expr->compareOps.size() != 1)
        throwUnsupported("chained comparisons of dicts are not supported", expr->location);
      return pass.containers.typeContainerOperator(
          expr, "dict", compareOpSymbol(expr->compareOps[0]), expr->operands);
    }
    if (!identity && (operands[0]->isSet() || operands.back()->isSet())) {
      if (expr->compareOps.size() != 1)
        throwUnsupported("chained comparisons of sets are not supported", expr->location);
      return pass.containers.typeContainerOperator(
          expr, "set", compareOpSymbol(expr->compareOps[0]), expr->operands);
    }
    if (!identity && (operands[0]->isList() || operands.back()->isList())) {
      if (expr->compareOps.size() != 1)
        throwUnsupported("chained comparisons of lists are not supported", expr->location);
      return pass.containers.typeListOperator(expr, compareOpSymbol(expr->compareOps[0]),
                                              expr->operands);
    }
    if (expr->compareOps.size() == 1 &&
        (expr->compareOps[0] == CompareOp::In || expr->compareOps[0] == CompareOp::NotIn) &&
        operands[1]->isArray()) {
      // `x in a`: whether some item of the array equals the number x, as NumPy's
      // `(a == x).any()` (LowerComparisons.cpp).
      const Type *dtype = operands[1]->dtype();
      bool comparable = !operands[0]->isArray() &&
                        (operands[0]->isDatetimeLike() || dtype->isDatetimeLike()
                             ? operands[0]->kind() == dtype->kind()
                             : comparisonOperandType(CompareOp::Eq, operands[0], dtype) != nullptr);
      if (!comparable)
        throwTypingError("cannot look for " + InferencePass::describe(operands[0]) + " in " +
                             InferencePass::describe(operands[1]) +
                             " ('in' of an array takes a number of a comparable type)",
                         expr->location);
      return types::boolean();
    }
    if (expr->compareOps.size() == 1 && !identity)
      if (const Type *array =
              typeElementwiseCompare(expr->compareOps[0], operands[0], operands[1], expr->location))
        return array;
    for (size_t i = 0; i < expr->compareOps.size(); ++i) {
      CompareOp op = expr->compareOps[i];
      if ((op == CompareOp::Is || op == CompareOp::IsNot))
        continue; // identity of values: decided by type, or by value for None
      if (isStringComparison(op, operands[i], operands[i + 1]))
        continue;
      if (types::isByteCharSequence(operands[i]) && types::isByteCharSequence(operands[i + 1]) &&
          op != CompareOp::In && op != CompareOp::NotIn)
        continue; // byte strings (`S n` items, bytes literals): by their bytes
      if (checkDatetimeComparison(op, operands[i], operands[i + 1], expr->location))
        continue;
      if ((op == CompareOp::Eq || op == CompareOp::NotEq) &&
          (operands[i]->isNone() || operands[i + 1]->isNone()))
        continue; // None equals only None
      if ((op == CompareOp::Eq || op == CompareOp::NotEq) && dtypeFromArgument(operands[i]) &&
          dtypeFromArgument(operands[i + 1]))
        continue; // dtypes (a.dtype, np.dtype globals, np.float64): decided by their types
      if ((op == CompareOp::In || op == CompareOp::NotIn) && operands[i + 1]->isGenerator()) {
        const Type *item = operands[i + 1]->yieldType();
        if (!comparisonOperandType(CompareOp::Eq, operands[i], item) &&
            !isStringComparison(CompareOp::Eq, operands[i], item))
          throwTypingError("cannot look for " + InferencePass::describe(operands[i]) +
                               " among the items (" + InferencePass::describe(item) +
                               ") of a generator",
                           expr->location);
        continue;
      }
      if ((op == CompareOp::Eq || op == CompareOp::NotEq) &&
          ((operands[i]->isString() && operands[i + 1]->isNumber()) ||
           (operands[i]->isNumber() && operands[i + 1]->isString())))
        continue; // a string never equals a number
      if (op == CompareOp::In || op == CompareOp::NotIn) {
        if (!operands[i + 1]->isTuple())
          throwUnsupported("'in' is supported on tuples only", expr->location);
        // The tuple's lowering compares numbers and strings only and skips other items, which
        // would answer False for a user-type value (an enum member) that is there.
        const std::vector<const Type *> &items = operands[i + 1]->elements();
        if (isUserType(operands[i]) ||
            std::any_of(items.begin(), items.end(), [](const Type *t) { return isUserType(t); }))
          throwTypingError("'in' of a tuple is not supported with " +
                               InferencePass::describe(operands[i]) + " in " +
                               InferencePass::describe(operands[i + 1]) +
                               ": compare the items with == one by one",
                           expr->location);
        continue;
      }
      if (!comparisonOperandType(op, operands[i], operands[i + 1]))
        throwTypingError(std::string("cannot compare ") + InferencePass::describe(operands[i]) +
                             " " + compareOpSymbol(op) + " " +
                             InferencePass::describe(operands[i + 1]),
                         expr->location);
    }
    return types::boolean();
  }
  case ExprKind::IfExp: {
    if (std::optional<bool> decided = pass.conditions.decideCondition(expr->operands[0]))
      return pass.typeExpr(expr->operands[*decided ? 1 : 2]);
    pass.conditions.typeCondition(expr->operands[0]);
    const Type *body = pass.typeExpr(expr->operands[1]);
    const Type *orelse = pass.typeExpr(expr->operands[2]);
    // One branch still unknown (a recursive call while its function is inferred): the other
    // branch's type for now, as for a function's returns; later passes unify both.
    if (!body || !orelse)
      return body ? body : orelse;
    const Type *unified =
        unifyJitFunctionValues(function, *source.resolver, body, orelse, expr->location);
    if (!unified)
      unified = unifyWithOptional(body, orelse);
    if (!unified)
      throwTypingError("the branches of the conditional expression have incompatible types " +
                           InferencePass::describe(body) + " and " +
                           InferencePass::describe(orelse),
                       expr->location);
    return unified;
  }
  case ExprKind::Tuple: {
    std::vector<const Type *> elements;
    bool unknown = false;
    for (Expr *operand : expr->operands) {
      elements.push_back(pass.typeExpr(operand));
      unknown |= !elements.back();
      if (elements.back() && elements.back()->kind() == TypeKind::StringLiteral)
        elements.back() = types::unicode(); // a run-time value, as in Numba
    }
    if (unknown)
      return nullptr;
    if (const Type *functions =
            unifyFunctionTuple(function, *source.resolver, elements, expr->location))
      return functions; // function values of one signature (typing/FirstClassFunctions.h)
    return types::tuple(elements);
  }
  case ExprKind::Subscript:
    return typeSubscript(expr);
  case ExprKind::Call:
    return pass.calls.typeCall(expr);
  case ExprKind::List:
    return pass.containers.typeListLiteral(expr);
  case ExprKind::Comprehension:
    return typeComprehension(expr);
  case ExprKind::Dict: { // {k: v, ...}: the "dict.{}" entry (library/Dicts.cpp)
    bool unknown = false;
    for (Expr *operand : expr->operands)
      unknown |= !pass.typeExpr(operand);
    return unknown ? nullptr
                   : pass.containers.typeContainerOperator(expr, "dict", "{}", expr->operands);
  }
  case ExprKind::Set: { // {a, b, ...}: the "set.{}" entry (library/Sets.cpp)
    bool unknown = false;
    for (Expr *operand : expr->operands)
      unknown |= !pass.typeExpr(operand);
    return unknown ? nullptr
                   : pass.containers.typeContainerOperator(expr, "set", "{}", expr->operands);
  }
  case ExprKind::Slice:
    for (Expr *part : expr->operands) {
      const Type *type = part ? pass.typeExpr(part) : nullptr;
      if (type && !type->isInteger() && !type->isBoolean() && !type->isNone())
        throwTypingError("slice bounds must be integers, not " + InferencePass::describe(type),
                         part->location);
    }
    return sliceType();
  }
  return nullptr;
}

const Type *ExpressionInference::typeName(Expr *expr) {
  if (expr->name.rfind("$taipan.", 0) == 0) // made by rewriteCaughtExceptions, objmode
    return types::builtin(expr->name.substr(1));
  if (pass.localNames.count(expr->name)) {
    auto found = function.variableTypes.find(expr->name);
    if ((found == function.variableTypes.end() || !found->second) && pass.typesUnassignedReads &&
        !expr->boundFlag.empty()) {
      // No assignment typing kept reaches this read (a constant condition pruned them all):
      // it raises UnboundLocalError whenever it runs, so any type serves.
      pass.assignVariable(expr->name, types::int64(), expr->location);
      return types::int64();
    }
    if (found == function.variableTypes.end())
      return nullptr;
    if (found->second && found->second->isOptional() && !pass.keepsOptional.count(expr->id))
      return found->second->optionalValue(); // read as a value: lowering checks for None
    if (pass.reportUnknown && InferencePass::holdsUndefinedItems(found->second))
      pass.undefinedItemReads.push_back(expr); // checked once the pass is over (checkItemTypes)
    return found->second;
  }
  auto cached = function.globals.find(expr->id);
  if (cached == function.globals.end())
    cached = function.globals.emplace(expr->id, source.resolver->resolveName(expr->name)).first;
  return globalType(expr, cached->second);
}

const Type *ExpressionInference::typeAttribute(Expr *expr) {
  Expr *base = expr->operands[0];
  const Type *baseType = pass.typeExpr(base);
  if (!baseType)
    return nullptr;
  if (baseType->kind() == TypeKind::Module) {
    auto cached = function.globals.find(expr->id);
    if (cached == function.globals.end()) {
      // A module global, or a variable or parameter holding one (getattr(np, 'pi')).
      GlobalValue module;
      auto global = function.globals.find(base->id);
      if (global != function.globals.end()) {
        module = global->second;
      } else {
        module.kind = GlobalValue::Kind::Module;
        module.name = baseType->text();
      }
      GlobalValue value = source.resolver->resolveAttribute(module, expr->name);
      if (value.kind == GlobalValue::Kind::Missing)
        throwTypingError("module '" + module.name + "' has no attribute '" + expr->name + "'",
                         expr->location);
      cached = function.globals.emplace(expr->id, std::move(value)).first;
    }
    return globalType(expr, cached->second);
  }
  if (baseType->kind() == TypeKind::Builtin) {
    if (const Type *attribute = typeDtypeAttribute(expr, baseType->text()))
      return attribute;
    // Namespaces of builtins: cuda.threadIdx.x, cuda.shared.array, cuda.atomic.add...
    std::string qualified = baseType->text() + "." + expr->name;
    if (const LibraryValue *libraryValue = Library::get().findValue(qualified))
      return libraryValue->type;
    if (!isKnownBuiltin(qualified))
      throwTypingError("Unknown attribute '" + expr->name + "' of " + baseType->text(),
                       expr->location);
    return types::builtin(qualified);
  }
  if (baseType->isArray()) {
    // The library's array attributes and methods ("array.shape", "array.sum").
    if (const LibraryFunction *entry = Library::get().find("array." + expr->name))
      return entry->isAttribute ? pass.calls.typeLibraryAttribute(expr, entry)
                                : types::builtin(entry->name);
    if (const Type *view =
            typeRecordFieldView(baseType, expr->name, expr->location)) // a.x of records
      return view;
  } else if (baseType->kind() == TypeKind::Range || baseType->kind() == TypeKind::Slice) {
    // r.start of a range; s.start, s.indices of a slice (library/Slices.cpp)
    const char *prefix = baseType->kind() == TypeKind::Range ? "range." : "slice.";
    if (const LibraryFunction *entry = Library::get().find(prefix + expr->name))
      return entry->isAttribute ? pass.calls.typeLibraryAttribute(expr, entry)
                                : types::builtin(entry->name);
  } else if (baseType->isRecord()) {
    return typeRecordField(baseType, expr->name, expr->location);
  } else if (classInstanceOf(baseType)) {
    if (const Type *field = classFieldType(classInstanceOf(baseType), expr->name)) // p.x
      return field;
  } else if (baseType->isNamedTuple() && baseType->fieldIndex(expr->name) >= 0) {
    return baseType->elements()[static_cast<size_t>(baseType->fieldIndex(expr->name))];
  } else if (baseType->isNamedTuple() && expr->name == "_replace") {
    return types::builtin("namedtuple._replace"); // typeNamedTupleReplace types the call
  } else {
    if (baseType->isLiteralList())
      ContainerInference::refuseLiteralListMutation(expr->name, expr->location);
    if (const Type *attribute = typeValueAttribute(baseType, expr->name))
      return attribute;
    std::string method = methodBuiltinName(baseType, expr->name);
    if (!method.empty())
      return types::builtin(method);
  }
  if (const Type *member = pass.calls.typeMemberOverload(expr, baseType))
    return member;
  if (baseType->kind() == TypeKind::Overload) { // Point.static_method of a jitclass
    OverloadMember member = source.resolver->findMember(baseType, expr->name);
    if (member.registryId >= 0 && !member.isAttribute)
      return types::overload(member.registryId, expr->name);
  }
  if (baseType->kind() == TypeKind::DType && baseType->dtype()->isNamedTuple()) {
    // P._fields, P._make(...): a named tuple class's members (taipan.namedtuples), which
    // take no instance.
    OverloadMember member = source.resolver->findMember(baseType, expr->name);
    if (member.registryId >= 0) {
      const Type *overload = types::overload(member.registryId, expr->name);
      return member.isAttribute ? pass.calls.typeOverloadCall(expr, overload, nullptr) : overload;
    }
  }
  throwTypingError("Unknown attribute '" + expr->name + "' of type " +
                       InferencePass::describe(baseType),
                   expr->location);
}

/// NumPy's one-letter type code of a number type (dtype.char), as on Linux (int64 is 'l').
static char dtypeCharacter(const Type *scalar) {
  if (scalar->isBoolean())
    return '?';
  size_t size = scalar->storageSize();
  if (scalar->isInteger()) {
    const char *codes = scalar->isSigned() ? "bhil" : "BHIL";
    return codes[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
  }
  if (scalar->isFloat())
    return size == 2 ? 'e' : size == 4 ? 'f' : 'd';
  return size == 8 ? 'F' : 'D';
}

/// NumPy's kind letter of a number type (dtype.kind).
static char dtypeKind(const Type *scalar) {
  if (scalar->isBoolean())
    return 'b';
  if (scalar->isInteger())
    return scalar->isSigned() ? 'i' : 'u';
  if (scalar->isFloat())
    return 'f';
  return 'c';
}

const Type *ExpressionInference::typeDtypeAttribute(Expr *expr, const std::string &className) {
  if (className.rfind("numpy.", 0) != 0)
    return nullptr;
  std::string name = className.substr(6); // "float32", "datetime64[s]"
  bool datetime = name.rfind("datetime64", 0) == 0;
  bool timedelta = name.rfind("timedelta64", 0) == 0;
  const Type *scalar = datetime || timedelta ? nullptr : scalarConstructorType(className);
  if (!datetime && !timedelta && !(scalar && scalar->isNumber()))
    return nullptr;
  const std::string &attribute = expr->name;
  if (attribute == "type") { // the class itself (a.dtype.type(0) makes a scalar)
    GlobalValue value;
    value.kind = GlobalValue::Kind::Builtin;
    value.name = className;
    function.globals[expr->id] = value;
    return types::builtin(className);
  }
  int64_t size = scalar ? static_cast<int64_t>(scalar->storageSize()) : 8;
  char kind = datetime ? 'M' : timedelta ? 'm' : dtypeKind(scalar);
  size_t open = name.find('[');
  std::string unit = open == std::string::npos ? "" : name.substr(open);
  Constant constant;
  constant.kind = Constant::Kind::String;
  if (attribute == "itemsize" || attribute == "alignment") {
    constant.kind = Constant::Kind::Int; // a complex number aligns as its parts
    constant.intValue = attribute == "alignment" && kind == 'c' ? size / 2 : size;
  } else if (attribute == "kind") {
    constant.text = std::string(1, kind);
  } else if (attribute == "char") {
    constant.text = std::string(1, scalar ? dtypeCharacter(scalar) : kind);
  } else if (attribute == "name") {
    constant.text = scalar && scalar->isBoolean() ? "bool" : name;
  } else if (attribute == "str") { // '<f8'; one-byte types have no byte order: '|i1'
    constant.text = std::string(size == 1 ? "|" : "<") + kind + std::to_string(size) + unit;
  } else {
    return nullptr;
  }
  // Typing knows the value: it is frozen as a global is, so lowering gives the constant.
  GlobalValue value;
  value.kind = GlobalValue::Kind::Constant;
  value.constant = constant;
  function.globals[expr->id] = value;
  return InferencePass::constantType(constant);
}

const Type *ExpressionInference::typeComprehension(Expr *expr) {
  if (!expr->operands.empty()) {
    Expr *consumer = expr->operands[0];
    auto cached = function.globals.find(consumer->id);
    if (!pass.localNames.count(consumer->name) && cached == function.globals.end())
      cached = function.globals.emplace(consumer->id, source.resolver->resolveName(consumer->name))
                   .first;
    // The builtin, or the builtin with overloads written in Python (min, max, sorted: their
    // accumulation loop is built in, so the overloads' other forms do not apply).
    bool builtin = !pass.localNames.count(consumer->name) &&
                   (cached->second.kind == GlobalValue::Kind::Builtin ||
                    cached->second.kind == GlobalValue::Kind::Overload);
    if (!builtin || cached->second.name != consumer->name)
      throwUnsupported("a generator expression is only supported as the argument of the "
                       "builtin " +
                           consumer->name + "(), and '" + consumer->name +
                           "' here is another object",
                       consumer->location);
  }
  pass.typeBlock(expr->statements);
  auto found = function.variableTypes.find(expr->name);
  return found == function.variableTypes.end() ? nullptr : found->second;
}

const Type *ExpressionInference::typeTupleRepetition(Expr *expr, const Type *tuple) {
  // The count must be known while typing, as a tuple's length is part of its type: a constant
  // integer, or an array's ndim (`(slice(None),) * a.ndim`).
  Expr *countExpr =
      pass.typeOf(expr->operands[0])->isTuple() ? expr->operands[1] : expr->operands[0];
  std::optional<int64_t> count;
  if (std::optional<std::vector<int64_t>> values = constantIntegers(countExpr, function.globals))
    if (values->size() == 1)
      count = values->front();
  if (!count && countExpr->kind == ExprKind::Attribute && countExpr->name == "ndim") {
    const Type *base = pass.typeOf(countExpr->operands[0]);
    if (base && base->isArray())
      count = base->ndim();
  }
  if (!count)
    throwTypingError("a tuple can only be repeated by a constant integer or an array's ndim "
                     "(its length is part of its type)",
                     countExpr->location);
  if (*count * static_cast<int64_t>(tuple->elements().size()) > 10000)
    throwUnsupported("a repeated tuple of more than 10000 items", countExpr->location);
  std::vector<const Type *> elements;
  for (int64_t i = 0; i < *count; ++i)
    elements.insert(elements.end(), tuple->elements().begin(), tuple->elements().end());
  return types::tuple(elements);
}

namespace {
/// Whether a slice written in an index steps by 1: no step, None, or the constant 1.
bool isUnitStepSlice(Expr *slice, InferencePass &pass) {
  Expr *step = slice->operands.size() > 2 ? slice->operands[2] : nullptr;
  if (!step || (pass.typeOf(step) && pass.typeOf(step)->isNone()))
    return true;
  return step->kind == ExprKind::Constant && step->constant.kind == Constant::Kind::Int &&
         step->constant.intValue == 1;
}
} // namespace

/// `p[a:b]` of a jitclass or user type: the slice written in the index is a value (Numba's
/// slice2_type/slice3_type) passed to the type's __getitem__, made as slice(a, b, c) makes one
/// (library/Slices.cpp; lowered through the call recorded for it).
static const Type *typeWrittenSlice(InferencePass &pass, Expr *slice) {
  if (!pass.typeExpr(slice)) // the bounds, checked
    return nullptr;
  LibraryCall call;
  call.function = Library::get().find("slice");
  call.location = slice->location;
  for (Expr *part : slice->operands) {
    call.arguments.push_back(part);
    call.argumentTypes.push_back(part ? pass.typeOf(part) : types::none());
  }
  call.resultType = call.function->type(call);
  const Type *result = call.resultType;
  pass.function.libraryCalls[slice->id] = std::move(call);
  return pass.record(slice, result);
}

const Type *ExpressionInference::typeSubscript(Expr *expr) {
  const Type *base = pass.typeExpr(expr->operands[0]);
  Expr *index = expr->operands[1];
  if (!base)
    return nullptr;
  if (isClassInstance(base) || isUserType(base)) { // p[i]: the class's __getitem__
    if (!(index->kind == ExprKind::Slice ? typeWrittenSlice(pass, index) : pass.typeExpr(index)))
      return nullptr;
    if (!isUserType(base))
      return typeClassOperator(expr, "__getitem__", "[]");
    try {
      return typeClassOperator(expr, "__getitem__", "[]");
    } catch (const CompileError &error) {
      // Numba's array-compatible types (an "__array__" lowering): where no overload types
      // the item, the value is indexed as its array.
      const Type *array = InferencePass::userCast(function, base, nullptr, expr->location);
      if (error.kind != CompileErrorKind::Typing || !array || !array->isArray())
        throw;
      pass.convertToNumber(expr->operands[0]);
      const Type *item = typeSubscript(expr);
      // Several items are a value of the user's type again in Numba (its copy()), which
      // taipan cannot make: only single items are read through the array.
      if (item && item->isArray())
        throwTypingError("indexing " + InferencePass::describe(base) +
                             " with slices or arrays (a view of its own type, as in Numba) is "
                             "not supported; index its array",
                         expr->location);
      return item;
    }
  }
  if ((base->isArray() || base->isTuple() || base->isList() || base->isString()) &&
      !(base->isArray() && base->dtype()->isRecord()) && index->kind != ExprKind::Tuple &&
      index->kind != ExprKind::Slice) {
    const Type *indexType = pass.typeExpr(index);
    if (!indexType)
      return nullptr;
    if (isUserType(indexType)) // a[m] of an IntEnum member: its number (can_convert_to)
      pass.convertToNumber(index);
  }
  if ((base->isRecord() || (base->isArray() && base->dtype()->isRecord())) &&
      index->kind != ExprKind::Tuple) {
    // r['x'] (or r[0]) reads a field; a['x'] is the view a.x (Numba's spellings of the same).
    const Type *indexType = pass.typeExpr(index);
    if (indexType && indexType->isUnicode()) // a name bound to a constant string: r[f]
      if (std::optional<std::string> text = pass.loops.knownString(index))
        indexType = pass.record(index, types::stringLiteral(*text));
    std::string field = accessedRecordField(expr, base, indexType, function.globals);
    if (base->isRecord() && field.empty() && indexType)
      throwTypingError("a record is indexed by a constant field name or position, not by a "
                       "value of type " +
                           InferencePass::describe(indexType),
                       index->location);
    if (base->isRecord() && !field.empty())
      return typeRecordField(base, field, index->location);
    if (!field.empty()) {
      if (const Type *view = typeRecordFieldView(base, field, index->location))
        return view;
      throwTypingError("the array's record dtype " + base->dtype()->name() + " has no field '" +
                           field + "'",
                       index->location);
    }
  }
  if (base->isString()) {
    const Type *indexType = pass.typeExpr(index);
    return indexType ? stringIndexResultType(indexType, index->location) : nullptr;
  }
  if (base->isLiteralList() &&
      !(index->kind == ExprKind::Constant && index->constant.kind == Constant::Kind::Int))
    throwTypingError("Cannot __getitem__ on a literal list, return type cannot be statically "
                     "determined (index it with a constant integer)",
                     index->location);
  if (base->isTuple()) {
    std::vector<int64_t> positions;
    if (index->kind == ExprKind::Slice) {
      for (Expr *part : index->operands) // resolves the globals among the bounds
        if (part && !pass.typeExpr(part))
          return nullptr;
      int64_t count = static_cast<int64_t>(base->elements().size());
      if (!constantTupleSlice(index, count, function.globals, positions))
        throwUnsupported("tuples can only be sliced with constant bounds", index->location);
      std::vector<const Type *> elements;
      for (int64_t position : positions)
        elements.push_back(base->elements()[position]);
      return types::tuple(elements);
    }
    // A literal, or a global or closure variable frozen as an int (Numba's static_getitem);
    // typing the index first resolves the globals it names.
    const Type *indexType = pass.typeExpr(index);
    if (!indexType)
      return nullptr;
    if (std::optional<int64_t> constant = constantTupleIndex(index, function.globals)) {
      int64_t count = static_cast<int64_t>(base->elements().size());
      int64_t position = *constant;
      if (position < 0)
        position += count;
      if (position < 0 || position >= count)
        throwTypingError("tuple index out of range", index->location);
      return base->elements()[position];
    }
    if (base->isUniformTuple() && (indexType->isInteger() || indexType->isBoolean()))
      return base->elements().front();
    throwTypingError("a tuple of type " + InferencePass::describe(base) +
                         " can only be indexed with a constant integer",
                     index->location);
  }
  if (base->isDict()) { // d[k] (library/Dicts.cpp)
    if (!pass.typeExpr(index))
      return nullptr;
    return pass.containers.typeContainerOperator(expr, "dict", "[]", {expr->operands[0], index});
  }
  if (base->isList()) { // l[i], l[a:b] (library/Lists.cpp)
    if (!pass.typeExpr(index))
      return nullptr;
    return pass.containers.typeListOperator(expr, "[]", {expr->operands[0], index});
  }
  if (base->isArray()) {
    if (index->kind != ExprKind::Tuple) {
      // a[t] with a tuple-valued t indexes with its integers, slices, None, '...' and index
      // arrays as the same pieces written out would.
      const Type *indexType = pass.typeExpr(index);
      if (!indexType)
        return nullptr;
      if (indexType->isTuple()) {
        for (const Type *element : indexType->elements())
          if (!element->isInteger() && element->kind() != TypeKind::Slice && !element->isNone() &&
              element != ellipsisType() && !element->isArray())
            throwTypingError("an array index tuple must hold integers, slices, None, '...' or "
                             "index arrays, not " +
                                 InferencePass::describe(indexType),
                             index->location);
        return typeArrayIndex(base, indexType->elements(), expr->location);
      }
    }
    std::vector<const Type *> pieces, indexPieces;
    std::vector<Expr *> pieceExprs =
        index->kind == ExprKind::Tuple ? index->operands : std::vector<Expr *>{index};
    for (Expr *piece : pieceExprs) {
      pieces.push_back(pass.typeExpr(piece));
      if (!pieces.back())
        return nullptr;
      // A slice written in the index is a slice value to the layout rule: one with a step
      // other than None or the constant 1 may stride.
      indexPieces.push_back(pieces.back() == sliceType()
                                ? types::sliceValue(!isUnitStepSlice(piece, pass))
                                : pieces.back());
    }
    if (index->kind == ExprKind::Tuple)
      pass.record(index, types::tuple(pieces));
    return typeArrayIndex(base, indexPieces, expr->location);
  }
  if (base->isPointer() && base->pointee() && base->pointee()->isNumber()) {
    // p[i] of a cfunc's CPointer(dtype) argument: the element at p + i, unchecked, as in C.
    const Type *indexType = pass.typeExpr(index);
    if (indexType && !indexType->isInteger())
      throwTypingError("a pointer's index must be an integer, not " +
                           InferencePass::describe(indexType),
                       index->location);
    return indexType ? base->pointee() : nullptr;
  }
  throwTypingError("cannot index a value of type " + InferencePass::describe(base), expr->location);
}

} // namespace taipan
