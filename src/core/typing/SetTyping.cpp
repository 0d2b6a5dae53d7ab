// Typing rules shared by set inference and the set library entries (typing/SetTyping.h).
#include "typing/SetTyping.h"

#include "runtime/HashedKeys.h"
#include "typing/DictTyping.h"

namespace taipan {
namespace {

/// Appends the description of a key of `type` at byte `offset` (runtime::DictKeyCode).
void describeKey(const Type *type, int64_t offset, std::vector<int64_t> &description) {
  if (type->isTuple()) {
    description.push_back(runtime::DictKeyTuple);
    description.push_back(static_cast<int64_t>(type->elements().size()));
    for (size_t i = 0; i < type->elements().size(); ++i)
      describeKey(type->elements()[i], offset + static_cast<int64_t>(type->elementOffset(i)),
                  description);
    return;
  }
  int64_t code = runtime::DictKeyString;
  if (type->isBoolean())
    code = runtime::DictKeyBool;
  else if (type->isInteger())
    code = type->isSigned() ? runtime::DictKeySigned : runtime::DictKeyUnsigned;
  else if (type->isFloat())
    code = runtime::DictKeyFloat;
  description.push_back(code | static_cast<int64_t>(type->storageSize()));
  description.push_back(offset);
}

} // namespace

const Type *setOfKey(const Type *key) {
  const Type *normal = key ? dictKeyType(key) : nullptr;
  return normal ? types::set(normal) : nullptr;
}

std::vector<int64_t> hashedKeyDescription(const Type *key) {
  std::vector<int64_t> description;
  describeKey(key, 0, description);
  return description;
}

std::vector<int64_t> setLayout(const Type *setType) {
  const Type *key = setType->keyType();
  std::vector<int64_t> layout = {key ? static_cast<int64_t>(key->storageSize()) : 0};
  std::vector<int64_t> references = types::referenceOffsets(key);
  std::vector<int64_t> description;
  if (key)
    description = hashedKeyDescription(key);
  if (static_cast<int64_t>(references.size()) > runtime::DictMaxReferences ||
      static_cast<int64_t>(description.size()) > runtime::DictMaxKeyDescription)
    return {};
  for (const std::vector<int64_t> *part : {&references, &description}) {
    layout.push_back(static_cast<int64_t>(part->size()));
    layout.insert(layout.end(), part->begin(), part->end());
  }
  return layout;
}

const Type *setIterableItem(const Type *type) {
  if (type->isSet())
    return type->keyType();
  if (type->isList())
    return type->itemType();
  if (type->kind() == TypeKind::Range)
    return types::int64();
  if (type->isUniformTuple())
    return type->elements().front();
  if (type->isArray() && type->ndim() == 1)
    return type->dtype();
  if (type->isString())
    return types::unicode();
  return nullptr;
}

const Type *setOfIterable(const Type *type) {
  if ((type->isSet() && !type->keyType()) || (type->isList() && !type->itemType()) ||
      (type->isTuple() && type->elements().empty()))
    return types::set(nullptr);
  const Type *item = setIterableItem(type);
  const Type *key = item ? dictKeyType(item) : nullptr;
  return key ? types::set(key) : nullptr;
}

} // namespace taipan
