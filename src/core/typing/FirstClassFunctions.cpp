// First-class function values: the typing of calls through them and of the unifications that
// make a jitted function one (see FirstClassFunctions.h).
#include "typing/FirstClassFunctions.h"

#include "types/NumericPromotion.h"
#include "typing/InferencePass.h"

namespace taipan {

const Type *typeFirstClassCall(Expr *call, const Type *callee,
                               const std::vector<const Type *> &arguments) {
  // The value carries an address and a signature, not parameter names (numba/issues/5540).
  if (!call->keywordNames.empty())
    throwUnsupported("first-class function call cannot use keyword arguments", call->location);
  const std::vector<const Type *> &parameters = callee->parameterTypes();
  if (arguments.size() != parameters.size())
    throwTypingError("mismatch of arguments number: " + std::to_string(arguments.size()) +
                         " given to a function of type " + callee->name() + ", which takes " +
                         std::to_string(parameters.size()),
                     call->location);
  for (size_t i = 0; i < parameters.size(); ++i) {
    const Type *parameter = parameters[i];
    const Type *argument = arguments[i];
    bool accepted;
    if (parameter->isPointer())
      accepted = argument == parameter ||
                 (argument->isArray() &&
                  (!parameter->pointee() || argument->dtype() == parameter->pointee())) ||
                 (argument->isPointer() && !parameter->pointee());
    else
      accepted = conversionKind(argument, parameter) <= Conversion::Safe;
    if (!accepted)
      throwTypingError("mismatch of argument types: argument " + std::to_string(i + 1) + " is " +
                           InferencePass::describe(argument) + " but the function of type " +
                           callee->name() + " takes " + parameter->name(),
                       call->operands[1 + i]->location);
  }
  return callee->resultType();
}

/// The first-class function type a function value stands for by itself: its own for a
/// FunctionType, its signature's for a C function at an address, the one explicit signature
/// of a jitted function whose compilation is closed; null otherwise.
static const Type *ownFunctionType(GlobalResolver &resolver, const Type *type) {
  if (type->kind() == TypeKind::FirstClassFunction)
    return type;
  if (type->kind() == TypeKind::JitFunction)
    return resolver.closedFunctionType(*type->function());
  return types::firstClassFunctionOf(type);
}

/// The jitted functions a function value of type `type` may be: itself for a JitFunction, the
/// members of an UndefinedFunction, none for other types.
static std::vector<const Type *> jitMembers(const Type *type) {
  if (type->kind() == TypeKind::JitFunction)
    return {type};
  if (type->kind() == TypeKind::UndefinedFunction)
    return type->elements();
  return {};
}

/// Records the C entry of each jitted function of `members` as a function value of `target`.
static void recordEntries(TypedFunction &function, GlobalResolver &resolver,
                          const std::vector<const Type *> &members, const Type *target,
                          SourceLocation location) {
  for (const Type *member : members)
    if (!function.firstClassEntries.count({member, target}))
      function.firstClassEntries[{member, target}] =
          resolver.firstClassEntry(*member->function(), target, location);
}

const Type *unifyJitFunctionValues(TypedFunction &function, GlobalResolver &resolver, const Type *a,
                                   const Type *b, SourceLocation location) {
  if (!a || !b || a == b)
    return nullptr;
  std::vector<const Type *> members = jitMembers(a);
  for (const Type *member : jitMembers(b))
    members.push_back(member);
  if (members.empty())
    return nullptr;
  const Type *target = nullptr;
  for (const Type *side : {a, b})
    if (jitMembers(side).empty() && !(target = ownFunctionType(resolver, side)))
      return nullptr; // a jitted function and a value of no function type
  if (!target) {      // jitted functions only: one explicit signature for all, or a call decides
    for (const Type *member : members) {
      const Type *own = ownFunctionType(resolver, member);
      if (!own || (target && own != target)) {
        target = nullptr;
        break;
      }
      target = own;
    }
    if (!target) {
      const Type *choice = types::undefinedFunction(members);
      auto chosen = function.chosenFunctionTypes.find(choice);
      if (chosen == function.chosenFunctionTypes.end())
        return choice;
      target = chosen->second; // a call gave these functions their signature
    }
  }
  recordEntries(function, resolver, members, target, location);
  return target;
}

const Type *convertFunctionValue(TypedFunction &function, GlobalResolver &resolver,
                                 const Type *value, const Type *target, SourceLocation location) {
  if (!value || !target)
    return nullptr;
  if (value->isTuple() && target->isTuple() && !target->isNamedTuple() &&
      value->elements().size() == target->elements().size()) {
    // Item by item: each converts or is already of its item's type; one at least converts.
    bool converted = false;
    for (size_t i = 0; i < target->elements().size(); ++i) {
      const Type *item = target->elements()[i], *given = value->elements()[i];
      if (convertFunctionValue(function, resolver, given, item, location))
        converted = true;
      else if (unifyTypes(item, given) != item)
        return nullptr;
    }
    return converted ? target : nullptr;
  }
  if (target->kind() != TypeKind::FirstClassFunction)
    return nullptr;
  if (types::firstClassFunctionOf(value) == target)
    return target; // a C function of the signature: its address is the value
  // (A choice of jitted functions becomes a value only once its variable has a signature:
  // typeUndefinedFunctionCall, unifyJitFunctionValues.)
  if (value->kind() != TypeKind::JitFunction)
    return nullptr;
  recordEntries(function, resolver, {value}, target, location);
  return target;
}

const Type *convertFunctionArgument(InferencePass &pass, Expr *argument, const Type *value,
                                    const Type *target) {
  if (value && value->kind() == TypeKind::UndefinedFunction && argument->kind == ExprKind::Name &&
      target && target->kind() == TypeKind::FirstClassFunction) {
    recordEntries(pass.function, *pass.source.resolver, value->elements(), target,
                  argument->location);
    pass.function.chosenFunctionTypes[value] = target;
    pass.assignVariable(argument->name, target, argument->location);
    return target;
  }
  return convertFunctionValue(pass.function, *pass.source.resolver, value, target,
                              argument->location);
}

const Type *typeUndefinedFunctionCall(InferencePass &pass, Expr *call, const Type *callee,
                                      const std::vector<const Type *> &arguments) {
  if (!call->keywordNames.empty())
    throwUnsupported("first-class function call cannot use keyword arguments", call->location);
  Expr *name = call->callee();
  if (name->kind != ExprKind::Name)
    throwTypingError("a choice of jitted functions (" + callee->name() +
                         ") can only be called through a variable",
                     call->location);
  const Type *result = nullptr;
  for (const Type *member : callee->elements()) {
    FunctionSource *source = member->function();
    bool plain = source->parameters.size() == arguments.size();
    for (const Parameter &parameter : source->parameters)
      plain &= !parameter.isStar;
    if (!plain)
      throwTypingError("the jitted function " + source->name + " chosen here does not take " +
                           std::to_string(arguments.size()) + " positional arguments",
                       call->location);
    TypedFunction *typed = pass.callees.typeCallee(source, arguments, call->location);
    if (!typed->returnType)
      return nullptr; // still being inferred (recursion): a later pass decides
    const Type *unified = result ? unifyTypes(result, typed->returnType) : typed->returnType;
    if (!unified)
      throwTypingError("mismatch of function types: the jitted functions chosen here return " +
                           InferencePass::describe(result) + " and " +
                           InferencePass::describe(typed->returnType),
                       call->location);
    result = unified;
  }
  for (const Type *argument : arguments)
    if (!argument->isNumber() && !argument->isPointer() && !argument->isArray() &&
        !argument->isNone())
      throwTypingError("the jitted functions chosen here are called through a C function "
                       "pointer, which takes numbers, pointers, arrays and None, not " +
                           InferencePass::describe(argument),
                       call->location);
  if (!result->isNumber() && !result->isNone() && !result->isPointer())
    throwTypingError("the jitted functions chosen here are called through a C function pointer, "
                     "which returns a number, a pointer or None, not " +
                         InferencePass::describe(result),
                     call->location);
  // The variable now holds function values of this signature; its assignments convert.
  const Type *target = types::firstClassFunction(arguments, result);
  pass.function.chosenFunctionTypes[callee] = target;
  pass.assignVariable(name->name, target, call->location);
  return result;
}

const Type *cFunctionTuple(const std::vector<const Type *> &elements) {
  if (elements.empty())
    return nullptr;
  const Type *target = types::firstClassFunctionOf(elements.front());
  bool varied = false;
  for (const Type *element : elements) {
    if (!target || types::firstClassFunctionOf(element) != target)
      return nullptr;
    varied |= element != elements.front();
  }
  return varied ? types::tuple(std::vector<const Type *>(elements.size(), target)) : nullptr;
}

const Type *unifyFunctionTuple(TypedFunction &function, GlobalResolver &resolver,
                               const std::vector<const Type *> &elements, SourceLocation location) {
  const Type *target = nullptr;
  bool varied = false;
  for (const Type *element : elements) {
    bool isFunction = element->kind() == TypeKind::FirstClassFunction ||
                      element->kind() == TypeKind::JitFunction ||
                      types::firstClassFunctionOf(element);
    if (!isFunction)
      return nullptr;
    varied |= element != elements.front();
    const Type *own = ownFunctionType(resolver, element);
    if (own && target && own != target)
      return nullptr; // two signatures: Numba refuses to unify them too
    target = own ? own : target;
  }
  if (!target || !varied)
    return nullptr;
  for (const Type *element : elements)
    recordEntries(function, resolver, jitMembers(element), target, location);
  return types::tuple(std::vector<const Type *>(elements.size(), target));
}

} // namespace taipan
