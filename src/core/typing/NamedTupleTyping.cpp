// Typing of named tuple classes called in compiled code (`Point(1, y=2)`): the arguments bound
// to the class's fields by Python's rules, and the instance type they make.
#include "typing/NamedTupleTyping.h"

#include "support/CompileError.h"

namespace taipan {

const Type *bindNamedTupleCall(const Expr *call, const Type *namedClass,
                               const std::vector<Expr *> &positional,
                               const std::vector<const Type *> &positionalTypes,
                               const std::vector<const Type *> &keywordTypes,
                               std::vector<Expr *> &bound, std::vector<const Type *> &boundTypes) {
  const std::vector<std::string> &fields = namedClass->fieldNames();
  std::string name = namedClass->text().substr(namedClass->text().rfind('.') + 1);
  if (positional.size() > fields.size())
    throwTypingError(name + "() takes " + std::to_string(fields.size()) +
                         " positional arguments but " + std::to_string(positional.size()) +
                         " were given",
                     call->location);
  bound.assign(fields.size(), nullptr);
  boundTypes.assign(fields.size(), nullptr);
  for (size_t i = 0; i < positional.size(); ++i) {
    bound[i] = positional[i];
    boundTypes[i] = positionalTypes[i];
  }
  size_t keywordStart = call->operands.size() - call->keywordNames.size();
  for (size_t k = 0; k < keywordTypes.size(); ++k) {
    const std::string &keyword = call->keywordNames[k];
    int field = namedClass->fieldIndex(keyword);
    if (field < 0)
      throwTypingError(name + "() got an unexpected keyword argument '" + keyword + "'",
                       call->location);
    if (bound[static_cast<size_t>(field)])
      throwTypingError(name + "() got multiple values for argument '" + keyword + "'",
                       call->location);
    bound[static_cast<size_t>(field)] = call->operands[keywordStart + k];
    boundTypes[static_cast<size_t>(field)] = keywordTypes[k];
  }
  std::vector<const Type *> items;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!bound[i])
      throwTypingError(name + "() missing required argument: '" + fields[i] + "'", call->location);
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
