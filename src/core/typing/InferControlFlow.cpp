// Type inference of control flow: conditions decided from types alone (None tests, isinstance,
// constants), whose dead branches are pruned, and for loops over every kind of iterable.
#include "typing/InferencePass.h"

#include "syntax/LoopUnrolling.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/Isinstance.h"
#include "typing/JitClassTyping.h"
#include "typing/LiteralUnroll.h"
#include "typing/OptionalTyping.h"

namespace taipan {

std::optional<bool> InferencePass::decideCondition(Expr *test) {
  std::optional<bool> decided = staticTruth(test);
  if (decided)
    function.staticConditions[test->id] = *decided;
  else
    function.staticConditions.erase(test->id);
  return decided;
}

std::optional<bool> InferencePass::staticTruth(Expr *expr) {
  switch (expr->kind) {
  case ExprKind::Constant:
    return constantTruth(expr->constant);
  case ExprKind::Name: {
    const Type *type = typeExpr(expr);
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
    if (!identity && op != CompareOp::IsNot && op != CompareOp::NotEq)
      return std::nullopt;
    const Type *left = typeExpr(expr->operands[0]);
    const Type *right = typeExpr(expr->operands[1]);
    if (!left || !right || (!left->isNone() && !right->isNone()) || left->isOptional() ||
        right->isOptional())
      return std::nullopt; // an optional value is None or not at run time
    if (left->isArray() || right->isArray())
      return std::nullopt; // `a == None` is elementwise in NumPy
    return (left->isNone() && right->isNone()) == identity;
  }
  case ExprKind::Call: {
    const Type *callee = typeExpr(expr->callee());
    if (isIsinstance(callee))
      return decideIsinstance(expr);
    if (callee && callee->kind() == TypeKind::Builtin && callee->text() == "hasattr" &&
        typeExpr(expr))
      return function.libraryCalls.at(expr->id).form != 0;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

bool InferencePass::isIsinstance(const Type *callee) {
  return callee && callee->kind() == TypeKind::Builtin && callee->text() == "isinstance";
}

std::optional<IsinstanceAnswer> InferencePass::typeIsinstance(Expr *expr) {
  if (expr->positionalCount() != 2 || !expr->keywordNames.empty())
    throwTypingError("isinstance() takes 2 positional arguments", expr->location);
  if (expr->operands[1]->kind == ExprKind::Name) // an optional variable is None or not
    keepsOptional.insert(expr->operands[1]->id);
  const Type *value = typeExpr(expr->operands[1]);
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

std::optional<bool> InferencePass::decideIsinstance(Expr *expr) {
  std::optional<IsinstanceAnswer> answer = typeIsinstance(expr);
  if (!answer || *answer == IsinstanceAnswer::WhenNotNone || *answer == IsinstanceAnswer::WhenNone)
    return std::nullopt;
  return *answer == IsinstanceAnswer::True;
}

std::vector<std::string> InferencePass::isinstanceClasses(Expr *classes) {
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
    if (classes->kind == ExprKind::Name && !localNames.count(classes->name)) {
      value = source.resolver->resolveName(classes->name);
    } else if (classes->kind == ExprKind::Attribute) {
      const Type *base = typeExpr(classes->operands[0]);
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

std::optional<bool> InferencePass::constantTruth(const Constant &constant) {
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

void InferencePass::typeCondition(Expr *test) {
  const Type *type = typeExpr(test);
  // A truth test reads a container's size, not its items.
  itemFreeReads.insert(test->id);
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
    throwTypingError("cannot use a value of type " + describe(type) + " as a condition",
                     test->location);
}

const Type *InferencePass::iterationItemType(const Type *iterable, SourceLocation location) {
  if (iterable->kind() == TypeKind::Range)
    return types::int64();
  if (iterable->isUniformTuple())
    return iterable->elements().front();
  if (iterable->isArray() && iterable->ndim() > 0)
    return typeArrayIndex(iterable, {types::int64()}, location);
  if (iterable->isList())
    return iterable->itemType();
  if (iterable->isDict() || iterable->isSet())
    return iterable->keyType();
  if (iterable->isDictView())
    return iterable->viewItemType();
  if (iterable->isGenerator())
    return iterable->yieldType();
  if (iterable->isString()) // its characters
    return types::unicode();
  return nullptr;
}

bool InferencePass::typeIndexIterationLoop(Stmt *stmt) {
  Expr *call = stmt->value;
  if (call->kind != ExprKind::Call || !call->keywordNames.empty())
    return false;
  const Type *callee = typeExpr(call->callee());
  if (callee && callee->kind() == TypeKind::Builtin && isIndexIteration(callee->text()))
    return typeIndexIteration(stmt, callee->text());
  return false;
}

bool InferencePass::typeInStepIteration(Stmt *stmt) {
  Expr *call = stmt->value;
  auto library = function.libraryCalls.find(call->id);
  if (call->kind != ExprKind::Call || library == function.libraryCalls.end() ||
      library->second.iteration == LibraryIteration::OverResult)
    return false;
  const LibraryCall &iterated = library->second;
  std::vector<const Type *> parts;
  bool counted = iterated.iteration == LibraryIteration::CountedArgumentsInStep;
  if (counted)
    parts.push_back(types::int64());
  // enumerate's second argument is its start, not an iterable
  for (size_t i = 0; i < (counted ? 1 : iterated.arguments.size()); ++i) {
    const Type *item =
        iterationItemType(iterated.argumentTypes[i], iterated.arguments[i]->location);
    if (!item)
      throwTypingError("cannot iterate over a value of type " + describe(iterated.argumentTypes[i]),
                       iterated.arguments[i]->location);
    parts.push_back(item);
  }
  assignTarget(stmt->targets[0], types::tuple(parts));
  return true;
}

bool InferencePass::typeIndexIteration(Stmt *stmt, const std::string &name) {
  Expr *call = stmt->value;
  std::vector<const Type *> arguments;
  for (size_t i = 1; i < call->operands.size(); ++i) {
    arguments.push_back(typeExpr(call->operands[i]));
    if (!arguments.back())
      return true; // not known yet: the next pass decides
  }
  const Type *item = nullptr;
  if (name == "numpy.ndindex") {
    // ndindex(3, 4) or ndindex((3, 4)): integers, or one tuple of integers.
    std::vector<const Type *> extents = arguments;
    if (arguments.size() == 1 && arguments[0]->isTuple())
      extents = arguments[0]->elements();
    for (const Type *extent : extents)
      if (!extent->isInteger())
        throwTypingError("np.ndindex() takes integers or a tuple of integers, not " +
                             describeArgumentTypes(arguments),
                         call->location);
    item = types::tuple(std::vector<const Type *>(extents.size(), types::int64()));
  } else {
    if (arguments.size() != 1 || !arguments[0]->isArray())
      throwTypingError(name.substr(6) + "() takes one array, not " +
                           describeArgumentTypes(arguments),
                       call->location);
    const Type *array = arguments[0];
    if (name == "numpy.nditer") {
      item = types::array(array->dtype(), 0, 'C', array->isReadonly());
    } else {
      const Type *index = types::tuple(std::vector<const Type *>(array->ndim(), types::int64()));
      item = types::tuple({index, array->dtype()});
    }
  }
  record(call, types::none());
  assignTarget(stmt->targets[0], item);
  typeBlock(stmt->body);
  typeBlock(stmt->orelse);
  return true;
}

void InferencePass::typeFor(Stmt *stmt) {
  if (typeIndexIterationLoop(stmt)) {
    typeBlock(stmt->body);
    typeBlock(stmt->orelse);
    return;
  }
  loopIterables.insert(stmt->value->id);
  const Type *iterable = typeExpr(stmt->value);
  if (typeUnrolledLoop(stmt, iterable))
    return;
  if (iterable && iterable->isTuple() && iterable->elements().empty()) {
    typeBlock(stmt->orelse); // `for x in ()`, `zip()`: the body never runs
    return;
  }
  const Type *element = nullptr;
  // An in-step iteration types its target itself (the call is none).
  if (iterable && !typeInStepIteration(stmt)) {
    if (iterable->kind() == TypeKind::Range)
      element = types::int64();
    else if (iterable->isString())
      element = types::unicode();
    else if (iterable->isUniformTuple())
      element = iterable->elements().front();
    else if (iterable->isArray() && iterable->ndim() > 0)
      element = typeArrayIndex(iterable, {types::int64()}, stmt->value->location);
    else if (iterable->isList() || (iterable->isTuple() && iterable->elements().empty()))
      element = iterable->isList() ? iterable->itemType() : nullptr;
    else if (iterable->isDict()) // the keys, in insertion order
      element = iterable->keyType();
    else if (iterable->isDictView()) // keys, values or (key, value) pairs, in order
      element = iterable->viewItemType();
    else if (iterable->isGenerator())
      element = iterable->yieldType();
    else if (iterable->isSet()) // the keys, in CPython's table order
      element = iterable->keyType();
    else
      throwTypingError("cannot iterate over a value of type " + describe(iterable) +
                           (iterable->isTuple() ? " (only tuples of one element type)" : ""),
                       stmt->value->location);
  }
  if (element)
    assignTarget(stmt->targets[0], element);
  typeBlock(stmt->body);
  typeBlock(stmt->orelse);
}

bool InferencePass::typeUnrolledLoop(Stmt *stmt, const Type *iterable) {
  Expr *call = stmt->value;
  bool unrollCall = call->kind == ExprKind::Call && call->positionalCount() == 1 &&
                    call->keywordNames.empty() && !call->starredOperand;
  const Type *callee = unrollCall ? function.typeOf(call->callee()) : nullptr;
  if (!callee || callee->kind() != TypeKind::Builtin || callee->text() != "taipan.literal_unroll")
    return false;
  if (!iterable || !iterable->isTuple()) {
    function.unrolledLoops.erase(stmt);
    return !iterable; // unknown yet: its body waits for the next pass
  }
  if (!singleAssignments)
    singleAssignments = findSingleAssignments(source);
  ConstantStringContext context{function.globals, *singleAssignments, function.expressionTypes};
  std::vector<const Type *> items = unrolledItemTypes(iterable, call->operands[1], context);
  if (items.empty() && !iterable->elements().empty()) { // an ordinary loop
    function.unrolledLoops.erase(stmt);
    return false;
  }
  UnrolledLoop &loop = function.unrolledLoops[stmt];
  loop.container = call->operands[1];
  loop.itemTypes = items;
  loop.copies.clear();
  for (size_t i = 0; i < items.size(); ++i) {
    const UnrolledLoopCopy &copy = unrolledLoopCopy(source, stmt, i);
    loop.copies.push_back(&copy);
    collectLocalsIn(copy.body);
    addLocalTarget(copy.target);
    std::set<int> optionalUses = optionalPreservingUses(copy.body);
    keepsOptional.insert(optionalUses.begin(), optionalUses.end());
    assignTarget(copy.target, items[i]);
    typeBlock(copy.body);
  }
  typeBlock(stmt->orelse);
  return true;
}

std::optional<std::string> InferencePass::knownString(const Expr *expr) {
  if (!singleAssignments)
    singleAssignments = findSingleAssignments(source);
  return constantString(expr, {function.globals, *singleAssignments, function.expressionTypes});
}

} // namespace taipan
