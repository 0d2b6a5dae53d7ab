// Type inference of statements: blocks, assignments to every kind of target, yield, raise, try,
// and the stores into arrays, records and jitclass instances they check.
#include "typing/StatementInference.h"

#include "typing/InferencePass.h"

#include "syntax/CaughtExceptions.h"
#include "syntax/VariableVersions.h"
#include "types/CharSequences.h"
#include "types/DatetimeUnits.h"
#include "types/NumericPromotion.h"
#include "types/UserTypes.h"
#include "typing/ArrayTyping.h"
#include "typing/DatetimeTyping.h"
#include "typing/ImpreciseValues.h"
#include "typing/JitClassTyping.h"
#include "typing/OptionalTyping.h"
#include "typing/RecordTyping.h"
#include "typing/StringTyping.h"
#include "typing/TryTyping.h"

namespace taipan {

StatementInference::StatementInference(InferencePass &pass)
    : pass(pass), function(pass.function), source(pass.source), callees(pass.callees) {}

void StatementInference::typeUserTypeInPlace(Stmt *stmt, Expr *target, const Type *current,
                                             const Type *value) {
  // x += y of a user type is x = x + y through the operator's overloads and templates, as
  // Numba's inplace_binop falls back to the binary operator; recorded under the name, as
  // lists' in-place entries are.
  const Type *self = isUserType(current) ? current : value;
  std::string symbol = std::string(binaryOpSymbol(stmt->augmentedOp)) + "=";
  OverloadMember member =
      source.resolver->findMember(self, binaryOperatorMethod(stmt->augmentedOp));
  if (member.registryId < 0 || member.isAttribute)
    throwTypingError(InferencePass::describe(self) + " does not support '" + symbol +
                         "' (no overload or template types it)",
                     stmt->location);
  std::vector<const Type *> arguments = {current, value};
  std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
      member.registryId, arguments, {}, {}, false, stmt->location);
  CallBinding binding;
  binding.arguments = {augmentedRead(stmt), stmt->value};
  binding.callee = callees.typeCallee(implementation.get(), arguments, stmt->location);
  function.calls[target->id] = binding;
  function.overloadImplementations[target->id] = std::move(implementation);
  if (binding.callee->returnType)
    pass.assignVariable(target->name, binding.callee->returnType, stmt->location);
}

void StatementInference::typeNameUpdate(Stmt *stmt) {
  Expr *target = stmt->targets[0];
  // x += y reads one version of x and may start another (syntax/VariableVersions.h)
  Expr *read = augmentedRead(stmt);
  const Type *current = pass.typeExpr(read);
  const Type *value = pass.typeExpr(stmt->value);
  if (current && value && current->isList()) {
    pass.containers.typeListInPlace(stmt, read, value);
    keepOneType(read, target);
    return;
  }
  // Values of user types that convert to numbers (Numba's can_convert_to) take taipan's own
  // arithmetic where both sides are then numbers, as in `x + y` (ExpressionInference): Numba's
  // built-in templates come before the user's. The result is a number, so a new version.
  auto convertible = [&](const Type *type, Expr *operand) {
    if (type->isNumber())
      return true;
    const Type *number = isUserType(type)
                             ? InferencePass::userCast(function, type, nullptr, operand->location)
                             : nullptr;
    return number && number->isNumber();
  };
  if (current && value && (isUserType(current) || isUserType(value)) &&
      convertible(current, read) && convertible(value, stmt->value)) {
    if (isUserType(current))
      current = pass.convertToNumber(read);
    if (isUserType(value))
      value = pass.convertToNumber(stmt->value);
  }
  if (current && value && (isUserType(current) || isUserType(value))) {
    typeUserTypeInPlace(stmt, target, current, value);
    return;
  }
  if (current && value && current->isSet()) {
    pass.containers.typeSetAugmentedAssign(stmt, current, value);
    keepOneType(read, target);
    return;
  }
  if (current && value) {
    const Type *result = stringBinaryResultType(stmt->augmentedOp, current, value, stmt->location);
    if (!result)
      result = datetimeBinaryResultType(stmt->augmentedOp, current, value, stmt->location);
    if (!result)
      result = typeElementwiseBinary(stmt->augmentedOp, current, value, stmt->location, false,
                                     CallInference::isNumberLiteral(stmt->value));
    if (!result)
      result = binaryResultType(stmt->augmentedOp, current, value);
    if (!result)
      throwTypingError(
          std::string("unsupported operand types for ") + binaryOpSymbol(stmt->augmentedOp) +
              "=: " + InferencePass::describe(current) + " and " + InferencePass::describe(value),
          stmt->location);
    if (current->isArray()) {
      // a += b updates the array in place: its type stays, its dtype takes the result.
      if (current->isReadonly())
        throwTypingError("cannot modify a read-only array in place (" +
                             std::string(binaryOpSymbol(stmt->augmentedOp)) + "=)",
                         stmt->location);
      if (value->isArray() && value->ndim() > current->ndim())
        throwTypingError("cannot broadcast " + InferencePass::describe(value) + " into " +
                             InferencePass::describe(current),
                         stmt->location);
      keepOneType(read, target);
    } else {
      pass.assignVariable(target->name, result, stmt->location);
    }
  }
}

void StatementInference::keepOneType(Expr *read, Expr *target) {
  // An update in place leaves the object where it was: the version it starts holds the same
  // value, so both take one type (and share one slot, lower/VariableSlots.h).
  if (read == target)
    return;
  pass.assignVariable(target->name, function.variableTypes[read->name], target->location);
  pass.assignVariable(read->name, function.variableTypes[target->name], read->location);
}

const Type *StatementInference::typeAssignedValue(Stmt *stmt) {
  try {
    return pass.typeExpr(stmt->value);
  } catch (const ImpreciseValue &imprecise) {
    // Numba types the value and then cannot type the variable holding it (an array of Python
    // objects is imprecise): the error names the variable.
    const Expr *target = stmt->targets.size() == 1 ? stmt->targets[0] : nullptr;
    if (!target || target->kind != ExprKind::Name)
      throw;
    throwTypingError(impreciseVariableMessage(pythonVariableName(target->name), imprecise.typeName),
                     imprecise.location);
  }
}

void StatementInference::typeStatement(Stmt *stmt) {
  switch (stmt->kind) {
  case StmtKind::Assign: {
    const Type *value = typeAssignedValue(stmt);
    // a[i] = v of a user type that converts to the array's number type (Numba's
    // can_convert_to: an IntEnum member, a bfloat16 into an int16 array) stores the number
    if (value && isUserType(value) && stmt->targets.size() == 1 &&
        stmt->targets[0]->kind == ExprKind::Subscript)
      if (const Type *base = pass.typeExpr(stmt->targets[0]->operands[0]))
        if (base->isArray() && base->dtype()->isNumber())
          if (const Type *number = pass.convertToNumber(stmt->value, base->dtype()))
            value = number;
    for (Expr *target : stmt->targets)
      assignTarget(target, value);
    break;
  }
  case StmtKind::AugAssign: {
    Expr *target = stmt->targets[0];
    if (stmt->augmentedOp == BinaryOp::MatMult) {
      // In place, a matrix product would overwrite operands it still reads (NumPy copies;
      // Numba refuses): refused, with the spelling that works.
      const Type *current = pass.typeExpr(augmentedRead(stmt));
      const Type *value = pass.typeExpr(stmt->value);
      if ((current && current->isArray()) || (value && value->isArray()))
        throwUnsupported("in-place matrix multiplication (a @= b) is not supported; write "
                         "a = a @ b",
                         stmt->location);
    }
    if (target->kind == ExprKind::Subscript || target->kind == ExprKind::Attribute) {
      const Type *current = pass.typeExpr(target);
      const Type *value = pass.typeExpr(stmt->value);
      if (current && value) {
        const Type *result =
            current->isArray() || value->isArray()
                ? typeElementwiseBinary(stmt->augmentedOp, current, value, stmt->location, false,
                                        CallInference::isNumberLiteral(stmt->value))
                : binaryResultType(stmt->augmentedOp, current, value);
        if (!current->isArray() && !value->isArray())
          if (const Type *datetime =
                  datetimeBinaryResultType(stmt->augmentedOp, current, value, stmt->location))
            result = datetime;
        if (!result) // l[i] += 'x' of strings
          result = stringBinaryResultType(stmt->augmentedOp, current, value, stmt->location);
        if (!result)
          throwTypingError(std::string("unsupported operand types for ") +
                               binaryOpSymbol(stmt->augmentedOp) +
                               "=: " + InferencePass::describe(current) + " and " +
                               InferencePass::describe(value),
                           stmt->location);
        checkArrayStore(target, current, result);
      }
      break;
    }
    if (target->kind != ExprKind::Name)
      throwUnsupported("augmented assignment to this target is not supported yet",
                       target->location);
    typeNameUpdate(stmt);
    // the version it starts (the target's expression, which lowering reads the type of)
    if (augmentedRead(stmt) != target)
      pass.record(target, function.variableTypes[target->name]);
    break;
  }
  case StmtKind::ExprStmt:
    pass.typeExpr(stmt->value);
    break;
  case StmtKind::Return:
    pass.returnSeen = true;
    if (source.isGenerator) { // ends the generator: StopIteration
      const Type *value = stmt->value ? pass.typeExpr(stmt->value) : types::none();
      if (value && !value->isNone())
        throwUnsupported("return with a value in a generator is not supported (the value of "
                         "its StopIteration); use a bare return",
                         stmt->location);
      break;
    }
    pass.unifyReturn(stmt->value ? pass.typeExpr(stmt->value) : types::none(), stmt->location);
    break;
  case StmtKind::Yield:
    typeYield(stmt);
    break;
  case StmtKind::If:
    if (std::optional<bool> decided = pass.conditions.decideCondition(stmt->test)) {
      pass.typeBlock(*decided ? stmt->body : stmt->orelse);
      break;
    }
    pass.conditions.typeCondition(stmt->test);
    pass.typeBlock(stmt->body);
    pass.typeBlock(stmt->orelse);
    break;
  case StmtKind::While:
    pass.conditions.typeCondition(stmt->test);
    pass.typeBlock(stmt->body);
    pass.typeBlock(stmt->orelse);
    break;
  case StmtKind::For:
    pass.loops.typeFor(stmt);
    break;
  case StmtKind::Raise:
    if (stmt->value)
      typeRaised(stmt->value);
    break;
  case StmtKind::Assert:
    pass.conditions.typeCondition(stmt->test);
    if (stmt->message)
      typeExceptionArgument(stmt->message);
    break;
  case StmtKind::Try:
    typeTry(stmt);
    break;
  case StmtKind::Break:
  case StmtKind::Continue:
  case StmtKind::Pass:
    break;
  }
}

void StatementInference::typeYield(Stmt *stmt) {
  const Type *type = stmt->value ? pass.typeExpr(stmt->value) : types::none();
  if (!type)
    return;
  if (type->kind() == TypeKind::StringLiteral)
    type = types::unicode(); // a yielded literal is a string value
  if (!type->isRuntimeValue())
    throwTypingError("cannot yield a value of type " + InferencePass::describe(type),
                     stmt->location);
  const Type *unified = unifyWithOptional(function.yieldType, type);
  if (!unified)
    throwTypingError("Can't unify yield type from the following types: " +
                         InferencePass::describe(function.yieldType) + ", " +
                         InferencePass::describe(type),
                     stmt->location);
  if (unified != function.yieldType) {
    function.yieldType = unified;
    pass.changed = true;
  }
  if (stmt->targets.empty())
    return;
  // `x = yield v`: x is what send() passes, None after next() (runtime/Generators.h).
  const Type *sent = generatorSentType(function.yieldType);
  if (!sent)
    throwUnsupported("the value of a yield expression (send()) is supported in generators "
                     "yielding numbers or tuples of them, not " +
                         InferencePass::describe(function.yieldType),
                     stmt->location);
  assignTarget(stmt->targets[0], sent);
}

void StatementInference::typeTry(Stmt *stmt) {
  pass.typeBlock(stmt->body);
  for (ExceptHandler &handler : stmt->handlers) {
    for (Expr *named : handlerClasses(handler)) {
      const Type *type = pass.typeExpr(named);
      if (type && type->kind() != TypeKind::ExceptionClass)
        throwUnsupported("an except clause must name exception classes, not " +
                             InferencePass::describe(type),
                         named->location);
    }
    pass.typeBlock(handler.body);
  }
  pass.typeBlock(stmt->orelse);
  pass.typeBlock(stmt->finalbody);
}

void StatementInference::typeRaised(Expr *value) {
  const Type *type = pass.typeExpr(value);
  if (isCaughtExceptionName(value)) // `raise e` in `except ... as e`
    return;
  if (type && type->kind() == TypeKind::ExceptionClass)
    return;
  if (value->kind == ExprKind::Call && value->callee()->kind != ExprKind::Attribute) {
    const Type *calleeType = function.expressionTypes[value->callee()->id];
    if (calleeType && calleeType->kind() == TypeKind::ExceptionClass)
      return;
  }
  throwUnsupported("can only raise an exception class, or an instance built from constant "
                   "arguments",
                   value->location);
}

void StatementInference::typeExceptionArgument(Expr *argument) {
  const Type *type = pass.typeExpr(argument);
  if (type && !type->isNumber() && !type->isNone() && !type->isString())
    throwUnsupported("exception arguments must be constants or numbers, not " +
                         InferencePass::describe(type),
                     argument->location);
}

void StatementInference::assignTarget(Expr *target, const Type *value) {
  if (target->kind == ExprKind::Name) {
    pass.assignVariable(target->name, value, target->location);
    pass.record(target, function.variableTypes[target->name]);
    return;
  }
  if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
    if (!value) {
      for (Expr *element : target->operands)
        assignTarget(element, nullptr);
      return;
    }
    if (value->isArray() && value->ndim() > 0) {
      // Numba unpacks an array along its first axis (scalars of a 1-d array, rows of an n-d
      // one); the count is checked at run time.
      const Type *row = typeArrayIndex(value, {types::int64()}, target->location);
      for (Expr *element : target->operands)
        assignTarget(element, row);
      pass.record(target, value);
      return;
    }
    if (value->isList() && value->itemType()) {
      // `a, b = [x, y]` (Numba unpacks a list too): every target takes an item; the count is
      // checked at run time.
      for (Expr *element : target->operands)
        assignTarget(element, value->itemType());
      pass.record(target, value);
      return;
    }
    if (!value->isTuple())
      throwTypingError("cannot unpack a value of type " + InferencePass::describe(value),
                       target->location);
    if (value->elements().size() != target->operands.size())
      throwTypingError("cannot unpack " + std::to_string(value->elements().size()) +
                           " values into " + std::to_string(target->operands.size()) + " targets",
                       target->location);
    for (size_t i = 0; i < target->operands.size(); ++i)
      assignTarget(target->operands[i], value->elements()[i]);
    pass.record(target, value);
    return;
  }
  if (target->kind == ExprKind::Subscript) {
    const Type *base = pass.typeExpr(target->operands[0]);
    // p[i] = v: the class's __setitem__; of a user type, operator.setitem's overloads
    if (base && (isClassInstance(base) || isUserType(base))) {
      if (value)
        typeClassItemStore(target, base, value);
      return;
    }
    if (base && base->isLiteralList())
      throwTypingError("Cannot mutate a literal list (a list of items of different types)",
                       target->location);
    if (base && base->isDict()) { // d[k] = v, which may type `{}` (typeDictStore)
      const Type *key = pass.typeExpr(target->operands[1]);
      if (key && value)
        pass.containers.typeDictStore(target, key, value);
      return;
    }
    const Type *slot = pass.typeExpr(target);
    if (slot && value)
      checkArrayStore(target, slot, value);
    return;
  }
  if (target->kind == ExprKind::Attribute) { // r.x = v, a[i].x = v: a record's field
    const Type *instance = classInstanceOf(pass.typeExpr(target->operands[0]));
    if (instance) { // p.x = v, p.prop = v (p may be an optional instance, checked)
      if (value)
        typeClassAttributeStore(target, instance, value);
      return;
    }
    const Type *base = pass.typeOf(target->operands[0]);
    if (isUserType(base)) { // o.x = v of a user-defined type: its lower_setattr (Python)
      if (!value)
        return;
      // The registry answers the setter's name with an overload calling the lower_setattr the
      // user registered (taipan.user_types), typed by the attribute templates as in Numba.
      OverloadMember setter = source.resolver->findMember(base, propertySetterName(target->name));
      if (setter.registryId < 0 || setter.isAttribute)
        throwTypingError("cannot set attribute '" + target->name + "' of " +
                             InferencePass::describe(base) +
                             " (no attribute template types it, or no lower_setattr lowers it)",
                         target->location);
      std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
          setter.registryId, {base, value}, {}, {}, false, target->location);
      CallBinding binding;
      binding.arguments = {target->operands[0]};
      binding.callee = callees.typeCallee(implementation.get(), {base, value}, target->location);
      int key = attributeSetterKey(target);
      function.calls[key] = binding;
      function.overloadImplementations[key] = std::move(implementation);
      return;
    }
    const Type *slot = pass.typeExpr(target);
    if (slot && value)
      checkRecordStore(target, base, slot, value);
    return;
  }
  throwUnsupported("cannot assign to this target", target->location);
}

void StatementInference::typeClassItemStore(Expr *target, const Type *instance, const Type *value) {
  const Type *index = pass.typeExpr(target->operands[1]);
  if (!index)
    return;
  OverloadMember setter = source.resolver->findMember(instance, "__setitem__");
  if (setter.registryId < 0 || setter.isAttribute)
    throwTypingError(isUserType(instance)
                         ? InferencePass::describe(instance) +
                               " does not support item assignment (no overload or template "
                               "types it)"
                         : "jitclass " + instance->text() +
                               " does not support item assignment (it defines no __setitem__)",
                     target->location);
  std::vector<const Type *> arguments = {instance, index, value};
  std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
      setter.registryId, arguments, {}, {}, false, target->location);
  CallBinding binding;
  binding.arguments = {target->operands[0], target->operands[1]};
  binding.callee = callees.typeCallee(implementation.get(), arguments, target->location);
  int key = attributeSetterKey(target);
  function.calls[key] = binding;
  function.overloadImplementations[key] = std::move(implementation);
}

void StatementInference::typeClassAttributeStore(Expr *target, const Type *instance,
                                                 const Type *value) {
  if (const Type *field = classFieldType(instance, target->name)) {
    if (!classFieldAccepts(field, value))
      throwTypingError("cannot store a value of type " + InferencePass::describe(value) +
                           " into the field '" + target->name + "' of type " +
                           InferencePass::describe(field) + " of jitclass " + instance->text(),
                       target->location);
    pass.record(target, field);
    return;
  }
  OverloadMember setter = source.resolver->findMember(instance, propertySetterName(target->name));
  if (setter.registryId < 0) {
    OverloadMember getter = source.resolver->findMember(instance, target->name);
    throwTypingError(getter.registryId >= 0
                         ? "cannot set attribute '" + target->name + "' of jitclass " +
                               instance->text() + ": it is a property without a setter"
                         : "jitclass " + instance->text() + " has no field or property '" +
                               target->name + "' to set",
                     target->location);
  }
  std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
      setter.registryId, {instance, value}, {}, {}, false, target->location);
  CallBinding binding;
  binding.arguments = {target->operands[0]};
  binding.callee = callees.typeCallee(implementation.get(), {instance, value}, target->location);
  int key = attributeSetterKey(target);
  function.calls[key] = binding;
  function.overloadImplementations[key] = std::move(implementation);
}

void StatementInference::checkRecordStore(Expr *target, const Type *base, const Type *slot,
                                          const Type *value) {
  if (!base || !base->isRecord())
    throwUnsupported("cannot assign to an attribute of a value of type " +
                         InferencePass::describe(base),
                     target->location);
  if (slot->isArray()) { // a subarray field takes a number or an array broadcast into it
    const Type *element = value->isArray() ? value->dtype() : value;
    if (!recordStoreAllowed(slot->dtype(), element) ||
        (value->isArray() && value->ndim() > slot->ndim()))
      throwTypingError("cannot store a value of type " + InferencePass::describe(value) +
                           " into the " + "subarray field of type " + InferencePass::describe(slot),
                       target->location);
    return;
  }
  if (!recordStoreAllowed(slot, value))
    throwTypingError("cannot store a value of type " + InferencePass::describe(value) +
                         " into the field " + "of type " + InferencePass::describe(slot) + " of " +
                         InferencePass::describe(base),
                     target->location);
}

/// The number of dimensions of the array NumPy makes of a list of numbers, of lists or of
/// nested tuples of numbers (each level's tuples of one length; nested lists are checked to
/// be rectangular when they are stored), whose leaves convert to `dtype`; -1 for another value.
static int sequenceDimensions(const Type *value, const Type *dtype) {
  if (value->isNumber())
    return value->isComplex() && !dtype->isComplex() ? -1 : 0;
  if (value->isList()) {
    if (!value->itemType())
      return -1;
    int inner = sequenceDimensions(value->itemType(), dtype);
    return inner < 0 ? -1 : inner + 1;
  }
  if (!value->isTuple() || value->isLiteralList())
    return -1;
  const std::vector<const Type *> &items = value->elements();
  if (items.empty())
    return 1;
  int inner = sequenceDimensions(items[0], dtype);
  for (const Type *item : items) {
    bool sameShape = item->isTuple() == items[0]->isTuple() &&
                     (!item->isTuple() || item->elements().size() == items[0]->elements().size());
    if (item->isList() || !sameShape || sequenceDimensions(item, dtype) != inner)
      return -1;
  }
  return inner < 0 ? -1 : inner + 1;
}

void StatementInference::checkSequenceStore(Expr *target, const Type *slot, const Type *value) {
  auto isArray = [&](Expr *expr) {
    const Type *type = pass.typeOf(expr);
    return type && type->isArray();
  };
  Expr *index = target->operands[1];
  bool selection = isArray(index);
  if (index->kind == ExprKind::Tuple)
    for (Expr *piece : index->operands)
      selection |= isArray(piece);
  const Type *base = pass.typeOf(target->operands[0]);
  int dimensions = sequenceDimensions(value, base->dtype());
  if (selection || !slot->isArray() || dimensions < 0 || dimensions > slot->ndim() ||
      base->dtype()->isDatetimeLike())
    throwTypingError("cannot store a value of type " + InferencePass::describe(value) + " into " +
                         InferencePass::describe(slot) +
                         (slot->isArray() ? "" : ": setting an array element with a sequence"),
                     target->location);
}

void StatementInference::checkArrayStore(Expr *target, const Type *slot, const Type *value) {
  // The refusal of storing `value` into `into` (the array or the element, as each case says).
  auto refuseStore = [&](const Type *into) {
    throwTypingError("cannot store a value of type " + InferencePass::describe(value) + " into " +
                         InferencePass::describe(into),
                     target->location);
  };
  // A 0-d array stores its item; an array of more dimensions than the slot broadcasts when its
  // leading extents are 1 (checked when it runs), as in NumPy; into one element, it cannot.
  auto checkBroadcast = [&] {
    if (value->isArray() && value->ndim() > 0 && !slot->isArray())
      throwTypingError("cannot broadcast " + InferencePass::describe(value) + " into " +
                           InferencePass::describe(slot),
                       target->location);
  };
  const Type *base = pass.typeOf(target->operands[0]);
  if (target->kind == ExprKind::Attribute && classInstanceOf(base)) { // p.x += v
    typeClassAttributeStore(target, classInstanceOf(base), value);
    return;
  }
  if (target->kind == ExprKind::Subscript && isClassInstance(base)) { // p[i] += v
    typeClassItemStore(target, base, value);
    return;
  }
  if (base->isDict()) { // d[k] += v
    pass.containers.typeDictStore(target, pass.typeOf(target->operands[1]), value);
    return;
  }
  if (base->isRecord() || target->kind == ExprKind::Attribute) { // r['x'] = v, r.x += v
    checkRecordStore(target, base, slot, value);
    return;
  }
  if (base->isArray() && slot->isRecord()) { // a[i] = r copies the record's bytes
    if (base->isReadonly() || !recordStoreAllowed(slot, value))
      refuseStore(base);
    return;
  }
  if (base->isPointer()) {
    if (!value->isNumber() || (value->isComplex() && !slot->isComplex()))
      throwTypingError("cannot store a value of type " + InferencePass::describe(value) +
                           " through " + InferencePass::describe(base),
                       target->location);
    return;
  }
  if (base->isList()) {
    pass.containers.checkListStore(target, value);
    return;
  }
  if (!base->isArray())
    throwTypingError("cannot assign to an item of a value of type " + InferencePass::describe(base),
                     target->location);
  if (base->isReadonly())
    throwTypingError("cannot assign to an item of a read-only array", target->location);
  if (types::isCharSequence(base->dtype())) { // `<U n`, `S n`: text, truncated or NUL-padded
    const Type *element = value->isArray() ? value->dtype() : value;
    if (!charSequenceStoreAllowed(base->dtype(), element))
      refuseStore(base);
    checkBroadcast();
    return;
  }
  if ((value->isTuple() && !value->isLiteralList()) || value->isList()) {
    checkSequenceStore(target, slot, value);
    return;
  }
  const Type *element = value->isArray() ? value->dtype() : value;
  // An optional value stores what it holds, cast as Numba casts it: a TypeError when None.
  if (element->isOptional())
    element = element->optionalValue();
  if (isUserType(element) || isUserType(base->dtype())) {
    // An element of a type with a data model (its layout holds no references): a value of
    // that type, stored whole into one element.
    if (element != base->dtype() || value->isArray() || slot->isArray())
      refuseStore(slot);
    return;
  }
  if (element->isDatetimeLike() || base->dtype()->isDatetimeLike()) {
    // Same kind, and a unit that converts exactly to the array's (coarser or equal).
    if (element->kind() != base->dtype()->kind() ||
        !datetimeConversionFactor(element->datetimeUnit(), base->dtype()->datetimeUnit()))
      refuseStore(base);
    return;
  }
  if (!element->isNumber() || (element->isComplex() && !base->dtype()->isComplex()))
    refuseStore(base);
  checkBroadcast();
}

} // namespace taipan
