// Binding a call's arguments to a jitted callee's parameters (see CallArguments.h).
#include "typing/CallArguments.h"

#include <string>

namespace taipan {

std::vector<Expr *> bindJitArguments(FunctionSource &caller, const FunctionSource &callee,
                                     Expr *call, const std::vector<Expr *> &positional) {
  const std::vector<Parameter> &parameters = callee.parameters;
  size_t star = parameters.size();
  size_t positionalParameters = 0;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i].isStar)
      star = i;
    else if (!parameters[i].keywordOnly && star == parameters.size())
      ++positionalParameters;
  }
  bool hasStar = star < parameters.size();
  if (positional.size() > positionalParameters && !hasStar)
    throwTypingError(callee.name + "() takes " + std::to_string(positionalParameters) +
                         " positional arguments but " + std::to_string(positional.size()) +
                         " were given",
                     call->location);
  std::vector<Expr *> arguments(parameters.size(), nullptr);
  for (size_t i = 0; i < positional.size() && i < positionalParameters; ++i)
    arguments[i] = positional[i];
  if (hasStar) {
    // One tuple per count of extra arguments: `f(*t)` may spread tuples of several lengths in
    // the specialisations of one caller.
    size_t extra =
        positional.size() > positionalParameters ? positional.size() - positionalParameters : 0;
    bool made = false;
    Expr *tuple = caller.syntheticExpr(call->id, -1 - static_cast<int>(extra), ExprKind::Tuple,
                                       call->location, made);
    if (made)
      tuple->operands.assign(positional.begin() + positionalParameters, positional.end());
    arguments[star] = tuple;
  }
  size_t keywordStart = call->operands.size() - call->keywordNames.size();
  for (size_t k = 0; k < call->keywordNames.size(); ++k) {
    const std::string &keyword = call->keywordNames[k];
    size_t index = 0;
    while (index < parameters.size() &&
           (parameters[index].isStar || parameters[index].name != keyword))
      ++index;
    if (index == parameters.size())
      throwTypingError(callee.name + "() got an unexpected keyword argument '" + keyword + "'",
                       call->location);
    if (arguments[index])
      throwTypingError(callee.name + "() got multiple values for argument '" + keyword + "'",
                       call->location);
    arguments[index] = call->operands[keywordStart + k];
  }
  return arguments;
}

Expr *tupleItem(FunctionSource &source, Expr *tuple, int index) {
  bool made = false;
  Expr *item = source.syntheticExpr(tuple->id, index, ExprKind::Subscript, tuple->location, made);
  if (made) {
    Expr *position =
        source.syntheticExpr(tuple->id, -1 - index, ExprKind::Constant, tuple->location, made);
    position->constant.kind = Constant::Kind::Int;
    position->constant.intValue = index;
    item->operands = {tuple, position};
  }
  return item;
}

} // namespace taipan
