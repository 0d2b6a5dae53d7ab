// Typing rules shared by dict inference and the dict library entries (typing/DictTyping.h).
#include "typing/DictTyping.h"

#include "runtime/Dicts.h"

#include "support/CompileError.h"
#include "types/NumericPromotion.h"

namespace taipan {

/// A tuple type of `elements` of the same kind as `like`: a named tuple of its class, a
/// LiteralList, or a plain tuple.
static const Type *tupleLike(const Type *like, const std::vector<const Type *> &elements) {
  if (like->isNamedTuple())
    return types::namedTuple(like->text(), like->namedTupleClass(), like->fieldNames(), elements);
  if (like->isLiteralList())
    return types::literalList(elements);
  return types::tuple(elements);
}

const Type *dictKeyType(const Type *key) {
  if (!key)
    return nullptr;
  if (key->isBoolean() || key->isFloat())
    return key->isFloat() && key->bits() == 16 ? nullptr : key;
  if (key->isInteger())
    return integralType(key);
  if (key->isString())
    return types::unicode();
  if (key->isLiteralList())
    return nullptr; // a list: unhashable, as in Python
  if (key->isTuple() && !key->elements().empty()) {
    std::vector<const Type *> elements;
    for (const Type *element : key->elements()) {
      elements.push_back(dictKeyType(element));
      if (!elements.back())
        return nullptr;
    }
    return tupleLike(key, elements);
  }
  return nullptr;
}

const Type *dictValueType(const Type *value) {
  if (value && value->isString())
    return types::unicode();
  if (!value || !value->isRuntimeValue() || value->isNone() || value->isOptional() ||
      value->isRecord() || value->kind() == TypeKind::Pointer)
    return nullptr;
  if (value->isString())
    return types::unicode();
  if (value->isTuple()) {
    std::vector<const Type *> elements;
    for (const Type *element : value->elements()) {
      elements.push_back(dictValueType(element));
      if (!elements.back())
        return nullptr;
    }
    return tupleLike(value, elements);
  }
  return value;
}

const Type *dictTypeOfStore(const Type *key, const Type *value, SourceLocation location) {
  const Type *keyType = dictKeyType(key);
  if (!keyType)
    throwTypingError("a dict key of type " + key->name() +
                         " is not supported (keys are integers, floats, booleans, strings and "
                         "tuples of them)",
                     location);
  const Type *valueType = dictValueType(value);
  if (!valueType)
    throwTypingError("a dict cannot hold a value of type " + value->name(), location);
  return types::dict(keyType, valueType);
}

bool dictAcceptsKey(const Type *dict, const Type *key) {
  const Type *expected = dict->keyType();
  const Type *normal = dictKeyType(key);
  if (!expected || !normal)
    return false;
  if (normal == expected)
    return true;
  if (expected->isTuple())
    return normal->isTuple() && normal->elements().size() == expected->elements().size() &&
           unifyTypes(expected, normal) == expected;
  // An integer or boolean into float keys keeps its value; a float into integer keys would not.
  if (expected->isFloat())
    return normal->isInteger() || normal->isBoolean() || normal->isFloat();
  if (expected->isInteger())
    return normal->isInteger() || normal->isBoolean();
  return false;
}

bool dictAcceptsValue(const Type *dict, const Type *value) {
  const Type *expected = dict->valueType();
  if (!expected)
    return false;
  const Type *normal = dictValueType(value);
  if (!normal)
    return false;
  if (normal == expected || unifyTypes(expected, normal) == expected)
    return true;
  return expected->isNumber() && normal->isNumber() &&
         (expected->isComplex() || !normal->isComplex());
}

/// Appends the runtime's description of a key of `type` at byte `offset` (runtime::DictKeyCode).
static void describeKey(const Type *type, int64_t offset, std::vector<int64_t> &description) {
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

std::vector<int64_t> hashedKeyDescription(const Type *key) {
  std::vector<int64_t> description;
  describeKey(key, 0, description);
  return description;
}

std::vector<int64_t> dictRuntimeLayout(const Type *dict) {
  const Type *key = dict->keyType();
  const Type *value = dict->valueType();
  std::vector<int64_t> layout = {key ? static_cast<int64_t>(key->storageSize()) : 0,
                                 value ? static_cast<int64_t>(value->storageSize()) : 0};
  std::vector<int64_t> keyReferences = types::referenceOffsets(key);
  std::vector<int64_t> valueReferences = types::referenceOffsets(value);
  std::vector<int64_t> description;
  if (key)
    describeKey(key, 0, description);
  if (static_cast<int64_t>(keyReferences.size()) > runtime::DictMaxReferences ||
      static_cast<int64_t>(valueReferences.size()) > runtime::DictMaxReferences ||
      static_cast<int64_t>(description.size()) > runtime::DictMaxKeyDescription)
    return {};
  for (const std::vector<int64_t> *part : {&keyReferences, &valueReferences, &description}) {
    layout.push_back(static_cast<int64_t>(part->size()));
    layout.insert(layout.end(), part->begin(), part->end());
  }
  return layout;
}

} // namespace taipan
