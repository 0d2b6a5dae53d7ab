// Type inference of for loops over every kind of iterable: ranges, containers, arrays, index
// spaces (np.ndindex...), zip/enumerate in step, and literal_unroll's copies of the body.
#include "typing/LoopInference.h"

#include "typing/InferencePass.h"

#include "syntax/LoopUnrolling.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/LiteralUnroll.h"
#include "typing/OptionalTyping.h"

#include "registry/Library.h"

namespace taipan {

LoopInference::LoopInference(InferencePass &pass)
    : pass(pass), function(pass.function), source(pass.source) {}

const Type *LoopInference::iterationItemType(const Type *iterable, SourceLocation location) {
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

bool LoopInference::typeIndexIterationLoop(Stmt *stmt) {
  Expr *call = stmt->value;
  if (call->kind != ExprKind::Call || !call->keywordNames.empty())
    return false;
  const Type *callee = pass.typeExpr(call->callee());
  // np.nditer is an overload too (its value form, a generator), iterated here by for loops.
  if (callee && (callee->kind() == TypeKind::Builtin || callee->kind() == TypeKind::Overload) &&
      isIndexIteration(callee->text()))
    return typeIndexIteration(stmt, callee->text());
  return false;
}

/// The in-step library call `expr` is, or null.
static const LibraryCall *inStepCall(TypedFunction &function, const Expr *expr) {
  auto library = function.libraryCalls.find(expr->id);
  if (expr->kind != ExprKind::Call || library == function.libraryCalls.end() ||
      library->second.iteration == LibraryIteration::OverResult)
    return nullptr;
  return &library->second;
}

bool LoopInference::typeInStepIteration(Stmt *stmt) {
  const LibraryCall *iterated = inStepCall(function, stmt->value);
  if (!iterated)
    return false;
  pass.statements.assignTarget(stmt->targets[0], inStepItemType(*iterated));
  return true;
}

const Type *LoopInference::inStepItemType(const LibraryCall &iterated) {
  std::vector<const Type *> parts;
  bool counted = iterated.iteration == LibraryIteration::CountedArgumentsInStep;
  if (counted)
    parts.push_back(types::int64());
  // enumerate's second argument is its start, not an iterable
  for (size_t i = 0; i < (counted ? 1 : iterated.arguments.size()); ++i) {
    const LibraryCall *nested = inStepCall(function, iterated.arguments[i]);
    const Type *item =
        nested ? inStepItemType(*nested)
               : iterationItemType(iterated.argumentTypes[i], iterated.arguments[i]->location);
    if (!item)
      throwTypingError("cannot iterate over a value of type " +
                           InferencePass::describe(iterated.argumentTypes[i]),
                       iterated.arguments[i]->location);
    parts.push_back(item);
  }
  return types::tuple(parts);
}

const LibraryFunction *LoopInference::inStepFunction(Expr *expr) {
  if (expr->kind != ExprKind::Call || !expr->keywordNames.empty() || expr->starredOperand)
    return nullptr;
  const Type *callee = pass.typeExpr(expr->callee());
  if (!callee || (callee->kind() != TypeKind::Overload && callee->kind() != TypeKind::Builtin))
    return nullptr;
  const LibraryFunction *entry = Library::get().find(callee->text());
  return entry && entry->iteratesInStep ? entry : nullptr;
}

void LoopInference::markNestedInStepCalls(Expr *call) {
  const LibraryFunction *outer = inStepFunction(call);
  if (!outer)
    return;
  // enumerate's second argument is its start, not an iterable
  size_t iterables = outer->variadic ? call->operands.size() - 1 : 1;
  // A generator among the iterables is resumed in step by the loop, which then takes its other
  // arguments as values (LowerGenerators.cpp): nothing nested is marked.
  for (size_t i = 0; i < iterables && i + 1 < call->operands.size(); ++i) {
    Expr *argument = call->operands[i + 1];
    if (inStepFunction(argument))
      continue;
    const Type *type = pass.typeExpr(argument);
    if (!type || type->isGenerator())
      return;
  }
  for (size_t i = 0; i < iterables && i + 1 < call->operands.size(); ++i) {
    Expr *argument = call->operands[i + 1];
    const LibraryFunction *inner = inStepFunction(argument);
    if (!inner || argument->operands.size() < 2)
      continue;
    size_t innerIterables = inner->variadic ? argument->operands.size() - 1 : 1;
    bool plain = true;
    for (size_t j = 0; j < innerIterables; ++j) {
      const Type *type = pass.typeExpr(argument->operands[j + 1]);
      plain = plain && type &&
              ((type->isArray() && type->ndim() > 0) || type->isList() ||
               type->kind() == TypeKind::Range || type->isString());
    }
    if (plain)
      pass.loopIterables.insert(argument->id);
  }
}

bool LoopInference::typeIndexIteration(Stmt *stmt, const std::string &name) {
  Expr *call = stmt->value;
  std::vector<const Type *> arguments;
  for (size_t i = 1; i < call->operands.size(); ++i) {
    arguments.push_back(pass.typeExpr(call->operands[i]));
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
  pass.record(call, types::none());
  pass.statements.assignTarget(stmt->targets[0], item);
  pass.typeBlock(stmt->body);
  pass.typeBlock(stmt->orelse);
  return true;
}

void LoopInference::typeFor(Stmt *stmt) {
  if (typeIndexIterationLoop(stmt)) {
    pass.typeBlock(stmt->body);
    pass.typeBlock(stmt->orelse);
    return;
  }
  pass.loopIterables.insert(stmt->value->id);
  markNestedInStepCalls(stmt->value);
  const Type *iterable = pass.typeExpr(stmt->value);
  if (typeUnrolledLoop(stmt, iterable))
    return;
  if (iterable && iterable->isTuple() && iterable->elements().empty()) {
    pass.typeBlock(stmt->orelse); // `for x in ()`, `zip()`: the body never runs
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
      throwTypingError("cannot iterate over a value of type " + InferencePass::describe(iterable) +
                           (iterable->isTuple() ? " (only tuples of one element type)" : ""),
                       stmt->value->location);
  }
  if (element)
    pass.statements.assignTarget(stmt->targets[0], element);
  pass.typeBlock(stmt->body);
  pass.typeBlock(stmt->orelse);
}

bool LoopInference::typeUnrolledLoop(Stmt *stmt, const Type *iterable) {
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
  if (!pass.singleAssignments)
    pass.singleAssignments = findSingleAssignments(source);
  ConstantStringContext context{function.globals, *pass.singleAssignments,
                                function.expressionTypes};
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
    pass.collectLocalsIn(copy.body);
    pass.addLocalTarget(copy.target);
    std::set<int> optionalUses = optionalPreservingUses(copy.body);
    pass.keepsOptional.insert(optionalUses.begin(), optionalUses.end());
    pass.statements.assignTarget(copy.target, items[i]);
    pass.typeBlock(copy.body);
  }
  pass.typeBlock(stmt->orelse);
  return true;
}

std::optional<std::string> LoopInference::knownString(const Expr *expr) {
  if (!pass.singleAssignments)
    pass.singleAssignments = findSingleAssignments(source);
  return constantString(expr,
                        {function.globals, *pass.singleAssignments, function.expressionTypes});
}

} // namespace taipan
