// Type inference of calls: library functions and attributes, overloads written in Python,
// intrinsics, foreign functions, named tuple classes and other jitted functions.
#include "typing/CallInference.h"

#include "typing/InferencePass.h"

#include "types/NumericPromotion.h"
#include "types/UserTypes.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinNames.h"
#include "typing/BuiltinTyping.h"
#include "typing/CallArguments.h"
#include "typing/CallLiterals.h"
#include "typing/ConstantArguments.h"
#include "typing/FirstClassFunctions.h"
#include "typing/JitClassTyping.h"
#include "typing/NamedTupleTyping.h"
#include "typing/ObjectModeBlocks.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <set>
#include <typeinfo>

namespace taipan {

CallInference::CallInference(InferencePass &pass)
    : pass(pass), function(pass.function), source(pass.source), callees(pass.callees) {}

const Type *CallInference::typeMemberOverload(Expr *expr, const Type *baseType) {
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

/// The integer written as `argument` (a constant of the call: Numba's IntegerLiteral), if any.
static std::optional<int64_t> writtenInteger(const Expr *argument) {
  if (argument && argument->kind == ExprKind::Constant &&
      argument->constant.kind == Constant::Kind::Int)
    return argument->constant.intValue;
  return std::nullopt;
}

const Type *CallInference::typeOverloadCall(Expr *expr, const Type *overload, Expr *self,
                                            bool *declined) {
  std::vector<const Type *> positional;
  std::vector<std::optional<int64_t>> literals; // (a call's, not an operator's operands)
  if (self) {
    positional.push_back(pass.typeOf(self));
    literals.push_back(std::nullopt);
  }
  size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
  for (size_t i = 1; i < keywordStart; ++i) {
    if (i != expr->starredOperand) {
      positional.push_back(pass.typeOf(expr->operands[i]));
      literals.push_back(expr->kind == ExprKind::Call ? writtenInteger(expr->operands[i])
                                                      : std::nullopt);
      continue;
    }
    for (Expr *item : spreadStarred(expr->operands[i])) { // *t: typeJitCall spreads it so too
      positional.push_back(pass.typeOf(item));
      literals.push_back(std::nullopt);
    }
  }
  std::vector<const Type *> keywordTypes;
  for (size_t i = keywordStart; i < expr->operands.size(); ++i)
    keywordTypes.push_back(pass.typeOf(expr->operands[i]));
  bool mayDecline = declined && (self || isKnownBuiltin(overload->text()));
  CallLiteralsScope scope(std::move(literals));
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

/// A function value (a jitted function, a cfunc) given to a method of a container of
/// first-class function values (`fs.append(f)`, `fs.insert(0, f)`, `d.setdefault(k, f)`)
/// converts to the container's function type (a tuple of them, item by item: to a tuple of
/// items): the argument takes that type here and lowerLibraryCall casts its value, as Numba
/// converts a dispatcher wherever a FunctionType is expected.
static void convertFunctionValueArguments(InferencePass &pass, LibraryCall &call) {
  const Type *receiver = call.argumentTypes.empty() ? nullptr : call.argumentTypes[0];
  if (call.function->lowersArguments || !receiver || !(receiver->isList() || receiver->isDict()))
    return;
  const Type *expected = receiver->isList() ? receiver->itemType() : receiver->valueType();
  for (size_t i = 1; i < call.arguments.size(); ++i) {
    const Type *given = call.argumentTypes[i];
    if (!call.arguments[i] || !given)
      continue;
    const Type *converted = convertFunctionArgument(pass, call.arguments[i], given, expected);
    if (!converted && given->isTuple() && expected) // a tuple of items (fs.extend((f, g)))
      converted = convertFunctionArgument(
          pass, call.arguments[i], given,
          types::tuple(std::vector<const Type *>(given->elements().size(), expected)));
    if (converted)
      call.argumentTypes[i] = converted;
  }
}

/// The call's type by its function's rule; where the rule refuses it, again with the arguments
/// of user types that convert to numbers converted.
static const Type *typeConvertingUserValues(InferencePass &pass, LibraryCall &call) {
  try {
    return call.function->type(call);
  } catch (const CompileError &error) {
    // Numba's can_convert_to: arguments of user types that convert to numbers (IntEnum
    // members in range(m), np.empty(m), int(m)) take the call as those numbers.
    if (error.kind != CompileErrorKind::Typing || call.function->lowersArguments)
      throw;
    bool converted = false;
    for (size_t i = 0; i < call.arguments.size(); ++i) {
      Expr *argument = call.arguments[i];
      // An array-compatible value is not a ufunc's operand: Numba wraps the result in its
      // type again (__array_wrap__), which taipan has not got.
      if (argument && isUserType(call.argumentTypes[i]) && call.function->ufunc)
        if (const Type *array = InferencePass::userCast(pass.function, call.argumentTypes[i],
                                                        nullptr, call.location))
          if (array->isArray())
            continue;
      if (argument && isUserType(call.argumentTypes[i])) {
        // np.float32(x), int(x): the type's conversion to that number first (a bfloat16's to
        // float32 is exact, to int16 truncates), else the number of its own choice
        const Type *target =
            call.arguments.size() == 1 ? scalarConstructorType(call.function->name) : nullptr;
        const Type *number =
            target && target->isNumber() ? pass.convertToNumber(argument, target) : nullptr;
        if (!number)
          number = pass.convertToNumber(argument);
        if (number) {
          call.argumentTypes[i] = number;
          converted = true;
        }
      }
      // a tuple written in the call, of such values: a shape (np.empty((m, m)))
      if (argument && argument->kind == ExprKind::Tuple && call.argumentTypes[i] &&
          call.argumentTypes[i]->isTuple()) {
        bool convertedItem = false;
        for (Expr *item : argument->operands)
          if (isUserType(pass.typeOf(item)) && pass.convertToNumber(item))
            convertedItem = true;
        if (convertedItem) {
          call.argumentTypes[i] = pass.typeExpr(argument);
          converted = true;
        }
      }
    }
    if (!converted)
      throw;
  }
  return call.function->type(call);
}

/// Numba's `literally(x)`: `x` must be a literal (a constant string, a known integer); a
/// parameter read is asked of the caller (LiteralParametersNeeded), anything else refused.
static std::optional<std::vector<int64_t>> knownIntegers(InferencePass &pass, const Expr *expr,
                                                         int depth);
static constexpr const char *LiterallyName = "taipan.literally";
static void requireLiteral(InferencePass &pass, Expr *argument, const FunctionSource &source,
                           const std::unordered_map<int, GlobalValue> &globals,
                           SourceLocation location) {
  const Type *type = pass.typeOf(argument);
  if ((type && type->kind() == TypeKind::StringLiteral) || knownIntegers(pass, argument, 0))
    return;
  std::vector<size_t> parameters = constantParameterReads(argument, source, globals);
  if (!parameters.empty()) {
    std::string message = "literally() needs a literal: the value of the parameter '" +
                          source.parameters[parameters.front()].name +
                          "', which its callers do not give as a constant";
    throw LiteralParametersNeeded(message, location, &source, std::move(parameters));
  }
  throwTypingError("literally() takes a literal (a constant, or a parameter its caller gives "
                   "a constant for), not a value of type " +
                       (type ? type->name() : std::string("unknown")),
                   location);
}

/// The constant integers `expr` holds when typing can know them: constantIntegers', or those of
/// the value of a local assigned once (`N = 100` before `cuda.shared.array(N, int32)`), as
/// Numba's constant inference finds them, and of tuples of such names.
static std::optional<std::vector<int64_t>> knownIntegers(InferencePass &pass, const Expr *expr,
                                                         int depth = 0) {
  if (std::optional<std::vector<int64_t>> values = constantIntegers(expr, pass.function.globals))
    return values;
  if (depth > 8)
    return std::nullopt;
  if (expr->kind == ExprKind::Name) {
    if (!pass.singleAssignments)
      pass.singleAssignments = findSingleAssignments(pass.source);
    auto assigned = pass.singleAssignments->find(expr->name);
    if (assigned == pass.singleAssignments->end() || !assigned->second)
      return std::nullopt;
    return knownIntegers(pass, assigned->second, depth + 1);
  }
  if (expr->kind != ExprKind::Tuple)
    return std::nullopt;
  std::vector<int64_t> values;
  for (Expr *element : expr->operands) {
    const Type *type = pass.typeOf(element);
    std::optional<std::vector<int64_t>> item = knownIntegers(pass, element, depth + 1);
    if (!item || item->size() != 1 || !type || type->isTuple())
      return std::nullopt;
    values.push_back(item->front());
  }
  return values;
}

/// Numba's head of a call no implementation accepts, before taipan's reason: "No
/// implementation of function Function(<function shared.array>) found for signature:\n \n
/// >>> array(shape=float32, dtype=class(float32))", the arguments' types in the call's order
/// (keywords by name). numba-cuda's users and tests read its function and signature lines.
static std::string numbaNoImplementation(InferencePass &pass, const LibraryFunction &entry,
                                         const std::vector<Expr *> &positional,
                                         const std::vector<std::string> &keywordNames,
                                         const std::vector<Expr *> &keywordValues) {
  std::string qualified = entry.name.rfind("cuda.", 0) == 0 ? entry.name.substr(5) : entry.name;
  std::string signature = qualified.substr(qualified.rfind('.') + 1) + "(";
  // Numba's names where they differ from taipan's types: an integer literal is
  // Literal[int](1) (inside a tuple too), a list of constants shows its initial value
  // (list(int64)<iv=[5, 6]>), and a scalar class given as a dtype (np.float32, float32) is a
  // NumberClass, class(float32).
  std::function<std::string(Expr *)> describe = [&](Expr *argument) -> std::string {
    if (argument->kind == ExprKind::Constant && argument->constant.kind == Constant::Kind::Int)
      return "Literal[int](" + std::to_string(argument->constant.intValue) + ")";
    const Type *type = pass.typeOf(argument);
    if (!type)
      return "?";
    if (argument->kind == ExprKind::Tuple && !argument->operands.empty()) {
      std::vector<std::string> items;
      for (Expr *item : argument->operands)
        items.push_back(describe(item));
      if (std::all_of(items.begin(), items.end(),
                      [&](const std::string &item) { return item == items.front(); }))
        return "UniTuple(" + items.front() + " x " + std::to_string(items.size()) + ")";
      std::string text = "Tuple(";
      for (size_t i = 0; i < items.size(); ++i)
        text += (i ? ", " : "") + items[i];
      return text + ")";
    }
    if (argument->kind == ExprKind::List && !argument->operands.empty()) {
      std::string values;
      for (Expr *item : argument->operands) {
        std::optional<std::vector<int64_t>> value = constantIntegers(item, pass.function.globals);
        if (!value || value->size() != 1)
          return type->name();
        values += (values.empty() ? "" : ", ") + std::to_string(value->front());
      }
      return type->name() + "<iv=[" + values + "]>";
    }
    const Type *dtype = type->isNumber() ? nullptr : dtypeFromArgument(type);
    return dtype && dtype->isNumber() ? "class(" + dtype->name() + ")" : type->name();
  };
  for (size_t i = 0; i < positional.size(); ++i)
    signature += (i ? ", " : "") + describe(positional[i]);
  for (size_t i = 0; i < keywordValues.size(); ++i)
    signature += (positional.empty() && i == 0 ? "" : ", ") + keywordNames[i] + "=" +
                 describe(keywordValues[i]);
  return "No implementation of function Function(<function " + qualified +
         ">) found for signature:\n \n >>> " + signature + ")\n \n";
}

const Type *CallInference::typeLibraryCall(Expr *expr, const LibraryFunction *entry) {
  Expr *callee = expr->callee();
  // A ufunc of a value of an array-compatible user type (Numba's __array_wrap__): the type's
  // "$ufunc.<name>" member is the overload computing it on the arrays and wrapping the result
  // in the user's type again (taipan.array_compatible).
  if (entry->ufunc && expr->keywordNames.empty() && !isMethodCall(callee) &&
      expr->starredOperand == 0)
    for (size_t i = 1; i < expr->operands.size(); ++i) {
      const Type *type = pass.typeOf(expr->operands[i]);
      if (!type || !isUserType(type))
        continue;
      OverloadMember member = source.resolver->findMember(type, "$ufunc." + entry->name);
      if (member.registryId >= 0 && !member.isAttribute)
        return typeOverloadCall(expr, types::overload(member.registryId, entry->name), nullptr);
    }
  std::vector<Expr *> positional;
  if (isMethodCall(callee))
    positional.push_back(callee->operands[0]);
  size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
  for (size_t i = 1; i < keywordStart; ++i) {
    if (i != expr->starredOperand) {
      positional.push_back(expr->operands[i]);
      continue;
    }
    if (entry->ufunc) // an elementwise tree reads a ufunc's operands from the call itself
      throwUnsupported("'*' in a call of the ufunc " + entry->name + " is not supported",
                       expr->operands[i]->location);
    std::vector<Expr *> items = spreadStarred(expr->operands[i]); // *t: its items, in order
    positional.insert(positional.end(), items.begin(), items.end());
  }
  std::vector<Expr *> keywordValues(expr->operands.begin() + keywordStart, expr->operands.end());
  LibraryCall call;
  call.function = entry;
  call.location = expr->location;
  call.arguments =
      Library::bindArguments(*entry, positional, expr->keywordNames, keywordValues, expr->location);
  for (Expr *argument : call.arguments)
    call.argumentTypes.push_back(argument ? viewAsList(pass.typeOf(argument), entry) : nullptr);
  if (entry->name == LiterallyName && !call.arguments.empty() && call.arguments[0])
    requireLiteral(pass, call.arguments[0], *function.source, function.globals, expr->location);
  if (const std::optional<LibraryConstantArgument> &declared = entry->constantArgument) {
    std::optional<std::vector<int64_t>> values;
    if (declared->position < call.arguments.size())
      values = knownIntegers(pass, call.arguments[declared->position]);
    if (!values && declared->position < call.arguments.size()) {
      // The function's own parameters: its caller may know them (constantParametersOf).
      std::vector<size_t> parameters = constantParameterReads(call.arguments[declared->position],
                                                              *function.source, function.globals);
      if (!parameters.empty())
        throw ConstantParametersNeeded(entry->name + declared->requirement, expr->location,
                                       function.source, std::move(parameters));
    }
    if (!values)
      throwTypingError(
          numbaNoImplementation(pass, *entry, positional, expr->keywordNames, keywordValues) +
              entry->name + declared->requirement,
          expr->location);
    call.constants = std::move(*values);
  }
  for (size_t position : entry->integerLiteralArguments) {
    std::optional<int64_t> literal;
    const Expr *argument = position < call.arguments.size() ? call.arguments[position] : nullptr;
    const Type *type = argument ? call.argumentTypes[position] : nullptr;
    if (type && type->isInteger()) // one int: not a tuple of them, nor a bool
      if (std::optional<std::vector<int64_t>> values = knownIntegers(pass, argument))
        literal = values->size() == 1 ? std::optional<int64_t>(values->front()) : std::nullopt;
    call.integerLiterals.push_back(literal);
  }
  if ((entry->name == "len" || entry->name == "bool") && call.arguments.size() == 1 &&
      call.arguments[0])
    pass.itemFreeReads.insert(call.arguments[0]->id); // the size alone
  call.iteratedByLoop = pass.loopIterables.count(expr->id) > 0;
  if (isMethodCall(callee))
    convertFunctionValueArguments(pass, call);
  call.resultType = typeConvertingUserValues(pass, call);
  if (entry->ufunc && entry->ufunc->scalarFunction)
    typeUfuncElementCallee(call);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

const Type *CallInference::viewAsList(const Type *type, const LibraryFunction *entry) {
  static const std::set<std::string> consumers = {"list", "sorted", "sum", "any", "all"};
  if (type && type->isDict() && type->keyType() && consumers.count(entry->name))
    return types::list(type->keyType());
  if (!type || !type->isDictView() || entry->lowersArguments || entry->name == "len" ||
      entry->name.rfind("dictview.", 0) == 0)
    return type;
  return types::list(type->viewItemType());
}

void CallInference::typeUfuncElementCallee(LibraryCall &call) {
  call.elementCallee = callees.typeCallee(call.function->ufunc->scalarFunction.get(),
                                          call.loop.inputs, call.location);
  if (call.loop.output)
    return;
  const Type *returned = call.elementCallee->returnType;
  if (returned && !returned->isNumber())
    throwTypingError(
        "the ufunc " + call.function->name +
            " returns a value that is not a number: " + InferencePass::describe(returned),
        call.location);
  call.loop.output = returned; // nullptr while the callee's type is unknown (recursion)
  call.resultType = returned ? ufuncResultType(call) : nullptr;
}

const Type *CallInference::typeLibraryAttribute(Expr *expr, const LibraryFunction *entry) {
  return typeLibraryOperands(expr, entry, {expr->operands[0]});
}

const Type *CallInference::typeLibraryOperands(Expr *expr, const LibraryFunction *entry,
                                               std::vector<Expr *> operands) {
  LibraryCall call;
  call.function = entry;
  call.location = expr->location;
  call.arguments = std::move(operands);
  for (Expr *operand : call.arguments)
    call.argumentTypes.push_back(pass.typeOf(operand));
  call.resultType = entry->type(call);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

const Type *CallInference::typeIntrinsicCall(Expr *expr, const Type *intrinsic,
                                             const std::vector<const Type *> &callArguments) {
  std::vector<std::optional<int64_t>> literals;
  if (expr->kind == ExprKind::Call && expr->operands.size() == callArguments.size() + 1)
    for (size_t i = 1; i < expr->operands.size(); ++i)
      literals.push_back(writtenInteger(expr->operands[i]));
  CallLiteralsScope scope(std::move(literals));
  IntrinsicBody body = source.resolver->implementIntrinsic(intrinsic->registryId(), callArguments,
                                                           expr->keywordNames, expr->location);
  // The arguments in the parameters' order (keywords bound by the typing function's names).
  std::vector<const Type *> arguments = callArguments;
  if (!body.argumentOrder.empty()) {
    arguments.clear();
    for (size_t index : body.argumentOrder)
      arguments.push_back(index < callArguments.size() ? callArguments[index] : nullptr);
    if (std::find(arguments.begin(), arguments.end(), nullptr) != arguments.end() ||
        arguments.size() != callArguments.size())
      throwTypingError("the intrinsic " + intrinsic->text() + " bound its arguments wrongly",
                       expr->location);
  }
  if (body.parameterTypes.size() != arguments.size())
    throwTypingError("the intrinsic " + intrinsic->text() + " takes " +
                         std::to_string(body.parameterTypes.size()) + " arguments but " +
                         std::to_string(arguments.size()) + " were given",
                     expr->location);
  // Numbers convert to the signature's numbers (a complex only to a complex); any other
  // argument passes unchanged, so its type must be the parameter's.
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Type *parameter = body.parameterTypes[i];
    bool converts =
        arguments[i]->isNumber()
            ? parameter->isNumber() && (!arguments[i]->isComplex() || parameter->isComplex())
            : arguments[i] == parameter;
    if (!converts)
      throwTypingError("argument " + std::to_string(i) + " of the intrinsic " + intrinsic->text() +
                           " is " + InferencePass::describe(arguments[i]) +
                           ", which does not convert to " + InferencePass::describe(parameter),
                       expr->location);
  }
  // The result is a value the intrinsic made. As in Numba, a result holding references (an
  // array, a user type whose data model holds one) is a new reference the caller owns: the
  // codegen borrowed its arguments and increfs what it hands on (impl_ret_borrowed).
  const Type *returned = body.returnType;
  if (!returned->isNone() && !returned->isRuntimeValue())
    throwTypingError("the intrinsic " + intrinsic->text() +
                         " must return a value compiled code holds, not " +
                         InferencePass::describe(returned),
                     expr->location);
  const Type *result = body.returnType;
  function.intrinsics[expr->id] = std::move(body);
  return result;
}

const Type *CallInference::typeCall(Expr *expr) {
  Expr *callee = expr->callee();
  const Type *calleeType = pass.typeExpr(callee);
  if (ConditionInference::isIsinstance(calleeType))
    return pass.conditions.typeIsinstance(expr) ? types::boolean() : nullptr;
  // A jitted callee is specialised for an optional argument, as in Numba.
  // So are an objmode block's live-ins: the block sees None as None (ObjectModeBlocks.h).
  bool keepsArguments =
      calleeType &&
      (calleeType->kind() == TypeKind::JitFunction ||
       (calleeType->kind() == TypeKind::Builtin && calleeType->text() == ObjectModeCallee + 1));
  if (keepsArguments)
    for (size_t i = 1; i < expr->operands.size(); ++i)
      if (expr->operands[i]->kind == ExprKind::Name)
        pass.keepsOptional.insert(expr->operands[i]->id);
  // np.array([1, 2, 3]): a list literal given to NumPy is just a sequence of numbers.
  if (calleeType && calleeType->kind() == TypeKind::Builtin &&
      (calleeType->text() == "numpy.array" || calleeType->text() == "numpy.asarray") &&
      expr->operands.size() > 1 && expr->operands[1]->kind == ExprKind::List)
    expr->operands[1]->kind = ExprKind::Tuple;
  std::vector<const Type *> arguments;
  std::vector<Expr *> argumentExprs;
  bool unknown = false;
  for (size_t i = 1; i < expr->operands.size(); ++i) {
    arguments.push_back(pass.typeExpr(expr->operands[i]));
    argumentExprs.push_back(expr->operands[i]);
    unknown |= !arguments.back();
  }
  if (!calleeType || unknown)
    return nullptr;
  if (isAttributeQuery(calleeType))
    return typeAttributeQuery(expr, calleeType->text(), arguments);
  if (calleeType->kind() == TypeKind::DType && calleeType->dtype()->isNamedTuple())
    return typeNamedTupleCall(expr, calleeType->dtype(), arguments);
  if (calleeType->kind() == TypeKind::Builtin && calleeType->text() == "namedtuple._replace")
    return typeNamedTupleReplace(expr, arguments);
  // f(*t) spreads the tuple t into positional arguments of a jitted function, an overload (a
  // NumPy function written in Python) or a library function (not a container's method: its
  // widening reads the unspread arguments; an array's methods are NumPy's functions), whose
  // typing reads the items.
  bool arrayMethod = isMethodCall(callee) && pass.typeOf(callee->operands[0]) &&
                     pass.typeOf(callee->operands[0])->isArray();
  // A library function named by a global that overloads were registered for is typed as the
  // function (ExpressionInference::globalType); called, its overloads are tried first.
  if (calleeType->kind() == TypeKind::Builtin) {
    auto global = function.globals.find(callee->id);
    if (global != function.globals.end() && global->second.kind == GlobalValue::Kind::Overload)
      calleeType = types::overload(global->second.registryId, global->second.name);
  }
  bool spreads =
      calleeType->kind() == TypeKind::JitFunction || calleeType->kind() == TypeKind::Overload ||
      (calleeType->kind() == TypeKind::Builtin && (!isMethodCall(callee) || arrayMethod));
  if (expr->starredOperand && !spreads)
    throwUnsupported("'*' in a call is supported only when calling a function, not " +
                         InferencePass::describe(calleeType),
                     expr->operands[expr->starredOperand]->location);
  const LibraryFunction *inStep =
      calleeType->kind() == TypeKind::Overload && pass.loopIterables.count(expr->id)
          ? Library::get().find(calleeType->text())
          : nullptr;
  if (inStep && inStep->iteratesInStep) // `for i, x in enumerate(a)`: in step, nothing built
    calleeType = types::builtin(calleeType->text());
  if (calleeType->kind() == TypeKind::Overload) {
    // When every typing function declines, taipan's own implementation of the function (if
    // it has one) is tried, as Numba tries a function's other definitions.
    bool declined = false;
    Expr *self = isMethodCall(callee) ? callee->operands[0] : nullptr;
    const Type *result = typeOverloadCall(expr, calleeType, self, self ? nullptr : &declined);
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
      if (isMethodCall(callee)) {
        // A method registered in Python for the value's type (overload_method) is tried
        // first, as an overload of a builtin function is: list.sort(key=...) is written in
        // Python, list.sort() of numbers stays the library's.
        OverloadMember member =
            source.resolver->findMember(pass.typeOf(callee->operands[0]), callee->name);
        if (member.registryId >= 0 && !member.isAttribute) {
          bool declined = false;
          const Type *result =
              typeOverloadCall(expr, types::overload(member.registryId, callee->name),
                               callee->operands[0], &declined);
          if (!declined)
            return result;
        }
      }
      if (isMethodCall(callee) && pass.typeOf(callee->operands[0])->isList())
        pass.containers.widenListVariable(callee->operands[0], name, arguments);
      if (isMethodCall(callee) && pass.typeOf(callee->operands[0])->isDict())
        pass.containers.widenDictVariable(callee->operands[0], name, arguments, expr->location);
      if (isMethodCall(callee) && pass.typeOf(callee->operands[0])->isSet())
        pass.containers.widenSetVariable(callee->operands[0], name, arguments);
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
  case TypeKind::FirstClassFunction:
    return typeFirstClassCall(expr, calleeType, arguments);
  case TypeKind::UndefinedFunction:
    return typeUndefinedFunctionCall(pass, expr, calleeType, arguments);
  case TypeKind::ExceptionClass:
    for (Expr *argument : argumentExprs)
      pass.statements.typeExceptionArgument(argument);
    return calleeType;
  default:
    if (isUserType(calleeType)) {
      // A value of a user type called: the overloads registered for its type class (Numba's
      // types.Callable subclasses, @overload(TypeClass)), which take the call's arguments.
      OverloadMember member = source.resolver->findMember(calleeType, "__call__");
      if (member.registryId >= 0 && !member.isAttribute)
        return typeOverloadCall(expr, types::overload(member.registryId, "__call__"), nullptr);
    }
    throwTypingError("cannot call a value of type " + InferencePass::describe(calleeType),
                     expr->location);
  }
}

bool CallInference::isAttributeQuery(const Type *callee) {
  return callee && callee->kind() == TypeKind::Builtin &&
         (callee->text() == "getattr" || callee->text() == "hasattr");
}

/// A variable, a constant or attributes of them: evaluating it has no effect of its own.
static bool readsOnly(const Expr *expr) {
  if (expr->kind == ExprKind::Name || expr->kind == ExprKind::Constant)
    return true;
  return expr->kind == ExprKind::Attribute && readsOnly(expr->operands[0]);
}

const Type *CallInference::typeAttributeQuery(Expr *expr, const std::string &builtin,
                                              const std::vector<const Type *> &arguments) {
  bool isHasattr = builtin == "hasattr";
  size_t count = expr->positionalCount();
  if (!expr->keywordNames.empty() || count < 2 || count > (isHasattr ? 2u : 3u))
    throwTypingError(builtin + "() takes " + (isHasattr ? "2" : "2 or 3") + " positional arguments",
                     expr->location);
  if (arguments[1]->kind() != TypeKind::StringLiteral)
    throwTypingError(builtin + "() needs a constant attribute name in compiled code (argument "
                               "'name' must be a literal string)",
                     expr->operands[2]->location);
  if (!readsOnly(expr->operands[1]))
    throwUnsupported(builtin + "() of an expression other than a variable or its attributes is "
                               "not supported (compiled code may not evaluate it): assign the "
                               "value to a variable first",
                     expr->operands[1]->location);
  bool made = false;
  Expr *attribute = source.syntheticExpr(expr->id, 0, ExprKind::Attribute, expr->location, made);
  if (made) {
    attribute->operands = {expr->operands[1]};
    attribute->name = arguments[1]->text();
  }
  const Type *found = nullptr;
  bool missing = false;
  if (count == 2 && !isHasattr) {
    found = pass.typeExpr(attribute);
  } else {
    try {
      found = pass.typeExpr(attribute);
    } catch (const CompileError &error) {
      if (error.kind == CompileErrorKind::Internal)
        throw;
      missing = true; // the value's type has no such attribute
    }
  }
  if (!found && !missing)
    return nullptr;
  LibraryCall call;
  call.function = Library::get().find(builtin);
  call.location = expr->location;
  if (isHasattr) {
    call.resultType = types::boolean();
    call.form = missing ? 0 : 1;
    function.staticConditions[expr->id] = !missing;
  } else {
    Expr *chosen = missing ? expr->operands[3] : attribute;
    call.arguments = {chosen};
    call.argumentTypes = {pass.typeOf(chosen)};
    call.resultType = pass.typeOf(chosen);
  }
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

const Type *CallInference::typeNamedTupleReplace(Expr *expr,
                                                 const std::vector<const Type *> &arguments) {
  Expr *base = expr->callee()->operands[0];
  const Type *named = pass.typeOf(base);
  if (expr->positionalCount() != 0 || expr->starredOperand)
    throwTypingError("_replace() takes keyword arguments only", expr->location);
  if (base->kind != ExprKind::Name)
    throwUnsupported("_replace() is supported on a variable holding the named tuple",
                     expr->location);
  std::vector<Expr *> items;
  std::vector<const Type *> itemTypes;
  for (size_t i = 0; i < named->elements().size(); ++i) {
    items.push_back(tupleItem(source, base, static_cast<int>(i)));
    itemTypes.push_back(pass.typeExpr(items.back()));
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

const Type *CallInference::typeNamedTupleCall(Expr *expr, const Type *namedClass,
                                              const std::vector<const Type *> &arguments) {
  size_t positionalCount = expr->positionalCount();
  std::vector<Expr *> positional;
  std::vector<const Type *> positionalTypes;
  for (size_t i = 0; i < positionalCount; ++i) {
    Expr *operand = expr->operands[1 + i];
    if (expr->starredOperand == 1 + i) { // *t: its items, in order
      for (Expr *item : spreadStarred(operand)) {
        positional.push_back(item);
        positionalTypes.push_back(pass.typeOf(item));
      }
      continue;
    }
    positional.push_back(operand);
    positionalTypes.push_back(arguments[i]);
  }
  std::vector<const Type *> keywordTypes(arguments.begin() + positionalCount, arguments.end());
  if (positional.size() + keywordTypes.size() < namedClass->fieldNames().size() &&
      !expr->starredOperand) {
    // Fields left out: the class's constructor with its field defaults (taipan.namedtuples),
    // when it has defaults.
    OverloadMember constructor = source.resolver->findMember(namedClass, "__new__");
    if (constructor.registryId >= 0)
      return typeOverloadCall(expr, types::overload(constructor.registryId, "__new__"), nullptr);
  }
  LibraryCall call;
  call.function = Library::get().find("namedtuple.new");
  call.location = expr->location;
  call.resultType = bindNamedTupleCall(expr, namedClass, positional, positionalTypes, keywordTypes,
                                       call.arguments, call.argumentTypes);
  const Type *result = call.resultType;
  function.libraryCalls[expr->id] = std::move(call);
  return result;
}

std::vector<Expr *> CallInference::spreadStarred(Expr *tuple) {
  const Type *type = pass.typeOf(tuple);
  if (!type->isTuple())
    throwTypingError("'*' in a call needs a tuple, not " + InferencePass::describe(type),
                     tuple->location);
  std::vector<Expr *> items;
  for (size_t i = 0; i < type->elements().size(); ++i) {
    items.push_back(tupleItem(source, tuple, static_cast<int>(i)));
    pass.typeExpr(items.back());
  }
  return items;
}

bool CallInference::isMethodCall(Expr *callee) {
  const Type *base =
      callee->kind == ExprKind::Attribute ? pass.typeOf(callee->operands[0]) : nullptr;
  return base && !function.globals.count(callee->id) &&
         (base->isRuntimeValue() || base->kind() == TypeKind::StringLiteral);
}

bool CallInference::isNumberLiteral(const Expr *expr) {
  if (expr->kind != ExprKind::Constant)
    return false;
  Constant::Kind kind = expr->constant.kind;
  return kind == Constant::Kind::Int || kind == Constant::Kind::Float ||
         kind == Constant::Kind::Complex || kind == Constant::Kind::Bool;
}

const Type *CallInference::typeExternalCall(Expr *expr, const Type *callee,
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
                 (argument->isPointer() && !parameter->pointee()) ||
                 // an address as an integer (a.ctypes.data) for void*, as ctypes takes it
                 (argument->isInteger() && !parameter->pointee());
    else if (isUserType(parameter) || parameter->isRecord())
      // a user type's C value (its model a pointer or a number), a record's address
      accepted = argument == parameter;
    else // numbers convert as they would through a signature, but complex stays complex
      accepted = parameter->isNumber() && argument->isNumber() &&
                 (parameter->isComplex() || !argument->isComplex());
    if (!accepted)
      throwTypingError("argument " + std::to_string(i + 1) + " of " + name + "() must be " +
                           parameter->name() + ", not " + InferencePass::describe(argument),
                       expr->operands[1 + i]->location);
  }
  return callee->resultType();
}

Expr *CallInference::frozenDefault(Expr *call, const FunctionSource &callee, size_t index) {
  constexpr int FirstDefaultIndex = -(1 << 20); // apart from the packed `*args` tuples' indices
  bool made = false;
  Expr *name = source.syntheticExpr(call->id, FirstDefaultIndex - static_cast<int>(index),
                                    ExprKind::Name, call->location, made);
  const Parameter &parameter = callee.parameters[index];
  if (made)
    name->name = parameter.defaultName;
  if (!function.globals.count(name->id)) {
    GlobalValue value = callee.resolver->resolveName(parameter.defaultName);
    if (value.kind == GlobalValue::Kind::Unsupported || value.kind == GlobalValue::Kind::Missing)
      throwTypingError("the default value of parameter '" + parameter.name + "' of " + callee.name +
                           "() (" + (value.name.empty() ? "?" : value.name) +
                           ") cannot be frozen into compiled code; pass the argument explicitly",
                       call->location);
    function.globals.emplace(name->id, std::move(value));
  }
  return name;
}

ConstantParameters CallInference::constantParametersOf(const CallBinding &binding,
                                                       const ConstantParametersNeeded &needed) {
  ConstantParameters constants;
  for (size_t index : needed.parameters) {
    Expr *argument = index < binding.arguments.size() ? binding.arguments[index] : nullptr;
    std::optional<std::vector<int64_t>> values =
        argument ? knownIntegers(pass, argument) : std::nullopt;
    if (!values) {
      // This function's own parameter: its caller may know it in turn; else the callee's
      // TypingError stands.
      std::vector<size_t> own =
          argument ? constantParameterReads(argument, *function.source, function.globals)
                   : std::vector<size_t>{};
      bool literal = dynamic_cast<const LiteralParametersNeeded *>(&needed) != nullptr;
      if (own.empty() && literal)
        throw LiteralParametersNeeded(needed.what(), needed.location, needed.source,
                                      needed.parameters);
      if (own.empty())
        throw needed;
      if (literal)
        throw LiteralParametersNeeded(needed.what(), needed.location, function.source,
                                      std::move(own));
      throw ConstantParametersNeeded(needed.what(), needed.location, function.source,
                                     std::move(own));
    }
    GlobalValue value;
    const Type *type = pass.typeOf(argument);
    if (type && type->isTuple()) {
      value.kind = GlobalValue::Kind::ConstantTuple;
      for (int64_t item : *values) {
        Constant constant;
        constant.kind = Constant::Kind::Int;
        constant.intValue = item;
        value.items.push_back(constant);
      }
    } else {
      value.kind = GlobalValue::Kind::Constant;
      value.constant.kind = Constant::Kind::Int;
      value.constant.intValue = values->front();
    }
    constants.emplace(index, std::move(value));
  }
  return constants;
}

/// The arguments of a call to `callee` that are constant bools or ints (literals, frozen globals)
/// bound to parameters it never assigns: the values to type it again with.
static ConstantParameters literalArguments(const CallBinding &binding, const FunctionSource &callee,
                                           const std::unordered_map<int, GlobalValue> &globals) {
  ConstantParameters literals;
  for (size_t i = 0; i < binding.arguments.size() && i < callee.parameters.size(); ++i) {
    const Expr *argument = binding.arguments[i];
    if (!argument || callee.parameters[i].isStar)
      continue;
    const Constant *constant = nullptr;
    auto global = globals.find(argument->id);
    if (argument->kind == ExprKind::Constant)
      constant = &argument->constant;
    else if (global != globals.end() && global->second.kind == GlobalValue::Kind::Constant)
      constant = &global->second.constant;
    if (!constant ||
        (constant->kind != Constant::Kind::Bool && constant->kind != Constant::Kind::Int))
      continue;
    bool assigned = false;
    readsOfName(callee, callee.parameters[i].name, assigned);
    if (assigned)
      continue;
    GlobalValue value;
    value.kind = GlobalValue::Kind::Constant;
    value.constant = *constant;
    literals.emplace(i, std::move(value));
  }
  return literals;
}

/// Rethrows a callee's typing error with Numba's line naming the callee being resolved
/// ("During: resolving callee type: type(CPUDispatcher(<function f at 0x...>))"), one per
/// level of calls; other errors as they are.
[[noreturn]] static void rethrowResolvingCallee(std::exception_ptr error, GlobalResolver *resolver,
                                                FunctionSource &callee) {
  try {
    std::rethrow_exception(error);
  } catch (const CompileError &failure) {
    std::string name = resolver ? resolver->calleeTypeName(callee) : "";
    if (typeid(failure) != typeid(CompileError) || name.empty())
      throw;
    throw CompileError(failure.kind,
                       std::string(failure.what()) + "\nDuring: resolving callee type: " + name,
                       failure.location, failure.function);
  }
}

const Type *CallInference::typeJitCall(Expr *expr, FunctionSource *callee, Expr *self) {
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
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i].isStar)
      pass.typeExpr(binding.arguments[i]); // the tuple the call packs
    else if (!binding.arguments[i] && !parameters[i].defaultName.empty())
      pass.typeExpr(binding.arguments[i] = frozenDefault(expr, *callee, i));
  }
  std::vector<bool> bound(parameters.size());
  for (size_t i = 0; i < parameters.size(); ++i)
    bound[i] = binding.arguments[i] != nullptr;
  std::vector<const Type *> parameterTypes;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (bound[i]) {
      parameterTypes.push_back(pass.typeOf(binding.arguments[i]));
    } else if (parameters[i].hasDefault) {
      parameterTypes.push_back(InferencePass::constantType(parameters[i].defaultValue));
    } else {
      throwTypingError(callee->name + "() missing required argument '" + parameters[i].name + "'",
                       expr->location);
    }
  }
  // A dispatcher given explicit signatures compiles no others (Numba's closed compilation): the
  // call converts its arguments to the signature that takes them best, and the callee's result
  // to that signature's return type (the same choice a call from Python makes).
  bool packs = std::any_of(parameters.begin(), parameters.end(),
                           [](const Parameter &parameter) { return parameter.isStar; });
  if (source.resolver && !packs) {
    std::vector<const Type *> signature =
        source.resolver->explicitSignature(*callee, parameterTypes, expr->location);
    if (!signature.empty()) {
      binding.declaredReturnType = signature.back();
      signature.pop_back();
      // A function value given where the signature has a first-class function type converts
      // to it here (its C entry compiled), as any other place expecting one does.
      for (size_t i = 0; i < signature.size(); ++i)
        if (bound[i] && signature[i] != parameterTypes[i])
          convertFunctionArgument(pass, binding.arguments[i], parameterTypes[i], signature[i]);
      parameterTypes = std::move(signature);
    }
  }
  // The callee is specialised for the values of parameters it needs constant (a shared array's
  // shape). Numba also types a call's literal arguments as literals, so that the callee prunes
  // branches on them (`if neg_idx:` given False): a callee that does not type with its
  // arguments' types is typed again with its constant arguments' values; if that fails too,
  // its first error stands.
  ConstantParameters constants;
  std::exception_ptr firstError;
  for (;;) {
    try {
      binding.callee = callees.typeCallee(callee, parameterTypes, expr->location, constants);
      break;
    } catch (ConstantParametersNeeded &needed) {
      if (needed.source != callee)
        throw;
      size_t known = constants.size();
      for (auto &[index, value] : constantParametersOf(binding, needed))
        constants.insert_or_assign(index, std::move(value));
      if (constants.size() == known)
        throw;
    } catch (CompileError &error) {
      if (firstError)
        rethrowResolvingCallee(firstError, source.resolver.get(), *callee);
      if (error.kind != CompileErrorKind::Typing)
        throw;
      firstError = std::current_exception();
      size_t known = constants.size();
      for (auto &[index, value] : literalArguments(binding, *callee, function.globals))
        constants.emplace(index, std::move(value));
      if (constants.size() == known)
        rethrowResolvingCallee(firstError, source.resolver.get(), *callee);
    }
  }
  // Typing done, a callee still without a return type only ever returns calls that recurse.
  if (!binding.callee->returnType && pass.reportUnknown)
    throwTypingError("cannot type infer runaway recursion: no return of " + callee->name +
                         "() gives a value that is not a recursive call",
                     expr->location);
  const Type *declared = binding.declaredReturnType;
  const Type *returned = binding.callee->returnType;
  if (declared && returned) // the conversion is lowered here, in the caller (lowerJitCall)
    InferencePass::checkDeclaredReturn(function, callee->name + "()", returned, declared,
                                       expr->location);
  function.calls[expr->id] = binding;
  pass.refineSharedContainers(binding.arguments, *callee, *binding.callee);
  return declared ? declared : returned;
}

} // namespace taipan
