// Typing rules shared by set inference and the set library entries (typing/SetTyping.h).
#include "typing/SetTyping.h"

#include "runtime/HashedKeys.h"
#include "typing/DictTyping.h"

namespace taipan {

const Type *setOfKey(const Type *key) {
  const Type *normal = key ? dictKeyType(key) : nullptr;
  return normal ? types::set(normal) : nullptr;
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
  if (type->isGenerator()) // resumed until it is exhausted
    return type->yieldType();
  if (type->isDict()) // its keys, in insertion order
    return type->keyType();
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
