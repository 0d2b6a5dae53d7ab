// Typing of named tuple classes called in compiled code (`Point(1, y=2)`): the arguments bound
// to the class's fields by Python's rules, and the instance type they make.
#include "typing/NamedTupleTyping.h"

#include "support/CompileError.h"

namespace taipan {

const Type *bindNamedTupleCall(const Expr *call, const Type *namedClass,
                               const std::vector<const Type *> &argumentTypes,
                               std::vector<Expr *> &bound, std::vector<const Type *> &boundTypes) {
  const std::vector<std::string> &fields = namedClass->fieldNames();
  const std::string &name = namedClass->text();
  size_t positional = call->positionalCount();
  if (call->starredOperand)
    throwUnsupported("'*' in a call of the named tuple class " + name + " is not supported",
                     call->location);
  if (positional > fields.size())
    throwTypingError(name + "() takes " + std::to_string(fields.size()) +
                         " positional arguments but " + std::to_string(positional) + " were given",
                     call->location);
  bound.assign(fields.size(), nullptr);
  boundTypes.assign(fields.size(), nullptr);
  for (size_t i = 0; i < positional; ++i) {
    bound[i] = call->operands[1 + i];
    boundTypes[i] = argumentTypes[i];
  }
  for (size_t k = 0; k < call->keywordNames.size(); ++k) {
    const std::string &keyword = call->keywordNames[k];
    int field = namedClass->fieldIndex(keyword);
    if (field < 0)
      throwTypingError(name + "() got an unexpected keyword argument '" + keyword + "'",
                       call->location);
    if (bound[static_cast<size_t>(field)])
      throwTypingError(name + "() got multiple values for argument '" + keyword + "'",
                       call->location);
    bound[static_cast<size_t>(field)] = call->operands[1 + positional + k];
    boundTypes[static_cast<size_t>(field)] = argumentTypes[positional + k];
  }
  std::vector<const Type *> items;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!bound[i])
      throwTypingError(name + "() missing required argument: '" + fields[i] +
                           "' (field defaults are not supported in compiled code)",
                       call->location);
    const Type *item = boundTypes[i];
    if (item->kind() == TypeKind::StringLiteral)
      item = types::unicode();
    if (!item->isRuntimeValue())
      throwTypingError(name + "() cannot hold a value of type " + item->name() + " in field '" +
                           fields[i] + "'",
                       bound[i]->location);
    items.push_back(item);
  }
  return types::namedTuple(name, namedClass->namedTupleClass(), fields, items);
}

} // namespace taipan
