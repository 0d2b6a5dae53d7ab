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

const Type *unifyJitFunctionValues(TypedFunction &function, GlobalResolver &resolver, const Type *a,
                                   const Type *b, SourceLocation location) {
  if (!a || !b || a == b ||
      (a->kind() != TypeKind::JitFunction && b->kind() != TypeKind::JitFunction))
    return nullptr;
  const Type *target = nullptr;
  for (const Type *side : {a, b})
    if (side->kind() != TypeKind::JitFunction)
      target = ownFunctionType(resolver, side);
  if (!target) { // two jitted functions: each must have one signature, the same
    const Type *first = ownFunctionType(resolver, a);
    const Type *second = ownFunctionType(resolver, b);
    target = first && first == second ? first : nullptr;
  }
  if (!target)
    return nullptr;
  for (const Type *side : {a, b})
    if (side->kind() == TypeKind::JitFunction && !function.firstClassEntries.count({side, target}))
      function.firstClassEntries[{side, target}] =
          resolver.firstClassEntry(*side->function(), target, location);
  return target;
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
    if (element->kind() == TypeKind::JitFunction &&
        !function.firstClassEntries.count({element, target}))
      function.firstClassEntries[{element, target}] =
          resolver.firstClassEntry(*element->function(), target, location);
  return types::tuple(std::vector<const Type *>(elements.size(), target));
}

} // namespace taipan
