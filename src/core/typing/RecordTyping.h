// Typing of NumPy structured (record) dtypes: a record's fields (`r.x`, `r['x']`) and the views
// of one field across an array of records (`a.x`, `a['x']`).
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <string>

namespace taipan {

/// The type a field of type `field` reads as: numbers and records as themselves (a record
/// field is the address of its bytes inside the parent), a subarray field as a C-contiguous
/// view array of its shape.
const Type *recordFieldValueType(const Type *field);

/// Whether a field holds a fixed-length string ('U5', 'S5'), which is copied with its record
/// but cannot be read or written alone.
bool isStringField(const Type *field);

/// The type of `record.name` or `record['name']`; a TypingError naming the fields when
/// `record` has no such field.
const Type *typeRecordField(const Type *record, const std::string &name, SourceLocation location);

/// The type of `array.name` / `array['name']` for an array of records: a strided view (layout
/// A) of that field in every record, with a subarray field's axes after the array's. nullptr
/// when `array` is not an array of records with that field.
const Type *typeRecordFieldView(const Type *array, const std::string &name,
                                SourceLocation location);

/// Whether `value` may be stored into a field (or an element) of type `slot`: numbers into
/// numbers (complex only into complex), a record into the same record type.
bool recordStoreAllowed(const Type *slot, const Type *value);

} // namespace taipan
