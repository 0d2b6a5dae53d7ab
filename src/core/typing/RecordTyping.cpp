// Typing of record fields and of field views of arrays of records.
#include "typing/RecordTyping.h"

#include "support/CompileError.h"
#include "types/CharSequences.h"
#include "typing/ConstantArguments.h"

#include <algorithm>

namespace taipan {

bool isStringField(const Type *field) {
  return field->kind() == TypeKind::NestedArray &&
         field->dtype()->kind() == TypeKind::StringLiteral;
}

const Type *recordFieldValueType(const Type *field) {
  if (types::isCharSequence(field)) // a `<U n` field reads as a str (types::itemValueType)
    return types::itemValueType(field);
  if (field->kind() == TypeKind::NestedArray)
    return types::array(field->dtype(), field->ndim(), 'C', false);
  return field;
}

const Type *typeRecordField(const Type *record, const std::string &name, SourceLocation location) {
  int index = record->fieldIndex(name);
  if (index < 0) {
    std::string fields;
    for (const std::string &field : record->fieldNames())
      fields += (fields.empty() ? "" : ", ") + ("'" + field + "'");
    throwTypingError("the record " + record->name() + " has no field '" + name +
                         "' (its fields are " + fields + ")",
                     location);
  }
  const Type *field = record->fieldTypes()[static_cast<size_t>(index)];
  return recordFieldValueType(field);
}

const Type *typeRecordFieldView(const Type *array, const std::string &name,
                                SourceLocation location) {
  if (!array->isArray() || !array->dtype()->isRecord())
    return nullptr;
  int index = array->dtype()->fieldIndex(name);
  if (index < 0)
    return nullptr;
  const Type *field = array->dtype()->fieldTypes()[static_cast<size_t>(index)];
  if (field->kind() == TypeKind::NestedArray && !types::isCharSequence(field))
    return types::array(field->dtype(), array->ndim() + field->ndim(), 'A', array->isReadonly());
  return types::array(field, array->ndim(), 'A', array->isReadonly());
}

std::string accessedRecordField(const Expr *expr, const Type *base, const Type *indexType,
                                const std::unordered_map<int, GlobalValue> &globals) {
  bool records = base->isRecord() || (base->isArray() && base->dtype()->isRecord());
  if (!records)
    return "";
  if (expr->kind == ExprKind::Attribute)
    return expr->name;
  if (expr->kind != ExprKind::Subscript || !indexType)
    return "";
  if (indexType->kind() == TypeKind::StringLiteral)
    return indexType->text();
  if (!base->isRecord() || !indexType->isInteger())
    return "";
  std::optional<std::vector<int64_t>> position = constantIntegers(expr->operands[1], globals);
  if (!position || position->size() != 1)
    return "";
  int64_t count = static_cast<int64_t>(base->fieldNames().size());
  int64_t at = position->front();
  if (at < 0 || at >= count)
    throwTypingError("record index " + std::to_string(at) + " is out of range (the record has " +
                         std::to_string(count) + " fields)",
                     expr->operands[1]->location);
  return base->fieldNames()[static_cast<size_t>(at)];
}

bool charSequenceStoreAllowed(const Type *slot, const Type *value) {
  if (slot->isUnicode() || types::isUnicodeCharSequence(slot)) // a `<U n` item or field
    return value->isString() || types::isUnicodeCharSequence(value);
  if (!types::isByteCharSequence(slot))
    return false;
  if (value->kind() == TypeKind::StringLiteral) // NumPy encodes ASCII text into `S n`
    return std::all_of(value->text().begin(), value->text().end(),
                       [](char c) { return static_cast<unsigned char>(c) < 128; });
  return types::isByteCharSequence(value);
}

bool recordStoreAllowed(const Type *slot, const Type *value) {
  if (slot->isUnicode() || types::isCharSequence(slot))
    return charSequenceStoreAllowed(slot, value);
  if (slot->isRecord() || value->isRecord())
    return slot == value;
  if (!slot->isNumber() || !value->isNumber())
    return false;
  return !value->isComplex() || slot->isComplex();
}

} // namespace taipan
