// Type inference of conditions: those decided from types alone (None tests, isinstance, hasattr,
// constants), whose dead branches are pruned, and the typing of every other condition.
#include "typing/ConditionInference.h"

#include "typing/InferencePass.h"

#include "typing/Isinstance.h"
#include "typing/JitClassTyping.h"
#include "typing/LiteralUnroll.h"

namespace taipan {

ConditionInference::ConditionInference(InferencePass &pass)
    : pass(pass), function(pass.function), source(pass.source), callees(pass.callees) {}

std::optional<bool> ConditionInference::decideCondition(Expr *test) {
  std::optional<bool> decided = staticTruth(test);
  if (decided)
    function.staticConditions[test->id] = *decided;
  else
    function.staticConditions.erase(test->id);
  return decided;
}

std::optional<bool> ConditionInference::staticTruth(Expr *expr) {
  switch (expr->kind) {
  case ExprKind::Constant:
    return constantTruth(expr->constant);
  case ExprKind::Name: {
    const Type *type = pass.typeExpr(expr);
    if (type && type->isNone())
      return false;
    auto global = function.globals.find(expr->id);
    if (global != function.globals.end() && global->second.kind == GlobalValue::Kind::Constant)
      return constantTruth(global->second.constant);
    return std::nullopt;
  }
  case ExprKind::UnaryOp:
    if (expr->unaryOp == UnaryOp::Not)
      if (std::optional<bool> operand = staticTruth(expr->operands[0]))
        return !*operand;
    return std::nullopt;
  case ExprKind::BoolOp:
    // `a and b` is false once an operand is, `a or b` true once one is; an undecided operand
    // before that leaves the whole undecided.
    for (Expr *operand : expr->operands) {
      std::optional<bool> value = staticTruth(operand);
      if (!value)
        return std::nullopt;
      if (*value != expr->isAnd)
        return *value;
    }
    return expr->isAnd;
  case ExprKind::Compare: {
    if (expr->compareOps.size() != 1)
      return std::nullopt;
    CompareOp op = expr->compareOps[0];
    bool identity = op == CompareOp::Is || op == CompareOp::Eq;
    const Type *left = pass.typeExpr(expr->operands[0]);
    const Type *right = pass.typeExpr(expr->operands[1]);
    if (left && right && !left->isNone() && !right->isNone())
      return compareConstants(op, staticValue(expr->operands[0]), staticValue(expr->operands[1]));
    if (!left || !right || (!left->isNone() && !right->isNone()) || left->isOptional() ||
        right->isOptional())
      return std::nullopt; // an optional value is None or not at run time
    if (left->isArray() || right->isArray())
      return std::nullopt; // `a == None` is elementwise in NumPy
    if (!identity && op != CompareOp::IsNot && op != CompareOp::NotEq)
      return std::nullopt;
    return (left->isNone() && right->isNone()) == identity;
  }
  case ExprKind::Call: {
    const Type *callee = pass.typeExpr(expr->callee());
    if (isIsinstance(callee))
      return decideIsinstance(expr);
    if (callee && callee->kind() == TypeKind::Builtin && callee->text() == "hasattr" &&
        pass.typeExpr(expr))
      return function.libraryCalls.at(expr->id).form != 0;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

std::optional<Constant> ConditionInference::staticValue(Expr *expr, int depth) {
  auto usable = [](const Constant &constant) -> std::optional<Constant> {
    switch (constant.kind) {
    case Constant::Kind::Int:
    case Constant::Kind::Bool:
    case Constant::Kind::Float:
    case Constant::Kind::String:
      return constant;
    default:
      return std::nullopt;
    }
  };
  if (depth > 16) // a chain of names no program writes; stops a cycle
    return std::nullopt;
  switch (expr->kind) {
  case ExprKind::Constant:
    return usable(expr->constant);
  case ExprKind::Name: {
    if (!pass.typeExpr(expr))
      return std::nullopt;
    auto global = function.globals.find(expr->id);
    if (global != function.globals.end())
      return global->second.kind == GlobalValue::Kind::Constant ? usable(global->second.constant)
                                                                : std::nullopt;
    // A local assigned once, from a constant (Numba's find_const follows its definition).
    if (!pass.singleAssignments)
      pass.singleAssignments = findSingleAssignments(source);
    auto assigned = pass.singleAssignments->find(expr->name);
    if (assigned == pass.singleAssignments->end() || !assigned->second)
      return std::nullopt;
    return staticValue(const_cast<Expr *>(assigned->second), depth + 1);
  }
  case ExprKind::Attribute: { // a.ndim of an array: its type fixes it
    if (expr->name != "ndim")
      return std::nullopt;
    const Type *base = pass.typeExpr(expr->operands[0]);
    if (!base || !base->isArray())
      return std::nullopt;
    Constant ndim;
    ndim.kind = Constant::Kind::Int;
    ndim.intValue = base->ndim();
    return ndim;
  }
  case ExprKind::Call: { // len(t) of a tuple: its type fixes it
    if (expr->positionalCount() != 1 || !expr->keywordNames.empty() || expr->starredOperand)
      return std::nullopt;
    const Type *callee = pass.typeExpr(expr->callee());
    if (!callee || callee->kind() != TypeKind::Builtin || callee->text() != "len")
      return std::nullopt;
    const Type *argument = pass.typeExpr(expr->operands[1]);
    if (!argument || !argument->isTuple())
      return std::nullopt;
    Constant length;
    length.kind = Constant::Kind::Int;
    length.intValue = static_cast<int64_t>(argument->elements().size());
    return length;
  }
  case ExprKind::UnaryOp: {
    std::optional<Constant> operand =
        expr->unaryOp == UnaryOp::Neg ? staticValue(expr->operands[0], depth + 1) : std::nullopt;
    if (!operand || operand->kind == Constant::Kind::String)
      return std::nullopt;
    if (operand->kind == Constant::Kind::Float)
      operand->floatValue = -operand->floatValue;
    else
      operand->intValue = -operand->intValue;
    operand->kind = operand->kind == Constant::Kind::Bool ? Constant::Kind::Int : operand->kind;
    return operand;
  }
  default:
    return std::nullopt;
  }
}

std::optional<bool> ConditionInference::compareConstants(CompareOp op,
                                                         const std::optional<Constant> &left,
                                                         const std::optional<Constant> &right) {
  if (!left || !right)
    return std::nullopt;
  bool leftText = left->kind == Constant::Kind::String;
  bool rightText = right->kind == Constant::Kind::String;
  int order = 0;               // -1, 0, 1 as left is below, equal to or above right
  if (leftText != rightText) { // Python: never equal, and no order
    if (op == CompareOp::Eq || op == CompareOp::NotEq)
      return op == CompareOp::NotEq;
    return std::nullopt;
  }
  if (leftText) {
    int compared = left->text.compare(right->text);
    order = compared < 0 ? -1 : compared > 0 ? 1 : 0;
  } else if (left->kind == Constant::Kind::Float || right->kind == Constant::Kind::Float) {
    double a = left->kind == Constant::Kind::Float ? left->floatValue
                                                   : static_cast<double>(left->intValue);
    double b = right->kind == Constant::Kind::Float ? right->floatValue
                                                    : static_cast<double>(right->intValue);
    if (a != a || b != b) // NaN: only != holds
      return op == CompareOp::NotEq                          ? std::optional(true)
             : op == CompareOp::Is || op == CompareOp::IsNot ? std::nullopt
                                                             : std::optional(false);
    order = a < b ? -1 : a > b ? 1 : 0;
  } else {
    order = left->intValue < right->intValue ? -1 : left->intValue > right->intValue ? 1 : 0;
  }
  // True and False are singletons, so `is` between bools is their equality (Numba prunes
  // `if flag is True:` of a constant flag); a bool is never the same object as a number.
  bool leftBool = left->kind == Constant::Kind::Bool;
  bool rightBool = right->kind == Constant::Kind::Bool;
  if ((op == CompareOp::Is || op == CompareOp::IsNot) && (leftBool || rightBool))
    return (leftBool && rightBool && order == 0) == (op == CompareOp::Is);
  switch (op) {
  case CompareOp::Eq:
    return order == 0;
  case CompareOp::NotEq:
    return order != 0;
  case CompareOp::Lt:
    return order < 0;
  case CompareOp::LtE:
    return order <= 0;
  case CompareOp::Gt:
    return order > 0;
  case CompareOp::GtE:
    return order >= 0;
  default: // `is` of numbers and strings is identity, not value: left to run time
    return std::nullopt;
  }
}

bool ConditionInference::isIsinstance(const Type *callee) {
  return callee && callee->kind() == TypeKind::Builtin && callee->text() == "isinstance";
}

std::optional<IsinstanceAnswer> ConditionInference::typeIsinstance(Expr *expr) {
  if (expr->positionalCount() != 2 || !expr->keywordNames.empty())
    throwTypingError("isinstance() takes 2 positional arguments", expr->location);
  if (expr->operands[1]->kind == ExprKind::Name) // an optional variable is None or not
    pass.keepsOptional.insert(expr->operands[1]->id);
  const Type *value = pass.typeExpr(expr->operands[1]);
  if (!value)
    return std::nullopt;
  IsinstanceAnswer answer =
      isinstanceAnswer(value, isinstanceClasses(expr->operands[2]), expr->location);
  LibraryCall call;
  call.function = Library::get().find("isinstance");
  call.location = expr->location;
  call.arguments = {expr->operands[1]};
  call.argumentTypes = {value};
  call.resultType = types::boolean();
  call.form = static_cast<unsigned>(answer);
  function.libraryCalls[expr->id] = std::move(call);
  if (answer == IsinstanceAnswer::True || answer == IsinstanceAnswer::False)
    function.staticConditions[expr->id] = answer == IsinstanceAnswer::True;
  return answer;
}

std::optional<bool> ConditionInference::decideIsinstance(Expr *expr) {
  std::optional<IsinstanceAnswer> answer = typeIsinstance(expr);
  if (!answer || *answer == IsinstanceAnswer::WhenNotNone || *answer == IsinstanceAnswer::WhenNone)
    return std::nullopt;
  return *answer == IsinstanceAnswer::True;
}

std::vector<std::string> ConditionInference::isinstanceClasses(Expr *classes) {
  if (classes->kind == ExprKind::Tuple) {
    std::vector<std::string> names;
    for (Expr *item : classes->operands)
      for (std::string &name : isinstanceClasses(item))
        names.push_back(std::move(name));
    return names;
  }
  auto cached = function.globals.find(classes->id);
  if (cached == function.globals.end()) {
    GlobalValue value;
    if (classes->kind == ExprKind::Name && !pass.localNames.count(classes->name)) {
      value = source.resolver->resolveName(classes->name);
    } else if (classes->kind == ExprKind::Attribute) {
      const Type *base = pass.typeExpr(classes->operands[0]);
      if (base && base->kind() == TypeKind::Module)
        value = source.resolver->resolveAttribute(function.globals.at(classes->operands[0]->id),
                                                  classes->name);
    }
    cached = function.globals.emplace(classes->id, std::move(value)).first;
  }
  if (cached->second.className.empty())
    throwTypingError("isinstance() arg 2 must be a class, or a tuple of classes, named by a "
                     "global or a module attribute",
                     classes->location);
  return {cached->second.className};
}

std::optional<bool> ConditionInference::constantTruth(const Constant &constant) {
  switch (constant.kind) {
  case Constant::Kind::None:
    return false;
  case Constant::Kind::Bool:
  case Constant::Kind::Int:
  case Constant::Kind::UInt:
    return constant.intValue != 0;
  case Constant::Kind::Float:
    return constant.floatValue != 0.0;
  case Constant::Kind::String:
    return !constant.text.empty();
  default:
    return std::nullopt;
  }
}

void ConditionInference::typeCondition(Expr *test) {
  const Type *type = pass.typeExpr(test);
  // A truth test reads a container's size, not its items.
  pass.itemFreeReads.insert(test->id);
  if (isClassInstance(type)) { // `if p:`: bool(p), the class's __bool__ (or its fallbacks)
    OverloadMember member = source.resolver->findMember(type, "__bool__");
    if (member.registryId < 0 || member.isAttribute)
      throwTypingError("jitclass " + type->text() + " has no truth value (__bool__)",
                       test->location);
    std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
        member.registryId, {type}, {}, {}, false, test->location);
    CallBinding binding;
    binding.arguments = {test};
    binding.callee = callees.typeCallee(implementation.get(), {type}, test->location);
    int key = attributeSetterKey(test); // a condition is never an assignment target
    function.calls[key] = binding;
    function.overloadImplementations[key] = std::move(implementation);
    return;
  }
  static const std::set<TypeKind> containers = {
      TypeKind::List,  TypeKind::Dict,     TypeKind::DictView, TypeKind::Set,
      TypeKind::Range, TypeKind::Datetime, TypeKind::Timedelta};
  // Containers are true when not empty (lowering's truthValue), as in Python.
  if (type && !type->isNumber() && !type->isNone() && !type->isTuple() && !type->isString() &&
      !containers.count(type->kind()))
    throwTypingError("cannot use a value of type " + InferencePass::describe(type) +
                         " as a condition",
                     test->location);
}

} // namespace taipan
