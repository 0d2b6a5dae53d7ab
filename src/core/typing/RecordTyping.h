// Typing of NumPy structured (record) dtypes: a record's fields (`r.x`, `r['x']`) and the views
// of one field across an array of records (`a.x`, `a['x']`).
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"
#include "typing/GlobalResolver.h"

#include <string>
#include <unordered_map>

namespace taipan {

/// The type a field of type `field` reads as: numbers and records as themselves (a record
/// field is the address of its bytes inside the parent), a subarray field as a C-contiguous
/// view array of its shape.
const Type *recordFieldValueType(const Type *field);

/// Whether a field holds a fixed-length string ('U5', 'S5': types/CharSequences.h).
bool isStringField(const Type *field);

/// The type of `record.name` or `record['name']`; a TypingError naming the fields when
/// `record` has no such field.
const Type *typeRecordField(const Type *record, const std::string &name, SourceLocation location);

/// The type of `array.name` / `array['name']` for an array of records: a strided view (layout
/// A) of that field in every record, with a subarray field's axes after the array's. nullptr
/// when `array` is not an array of records with that field.
const Type *typeRecordFieldView(const Type *array, const std::string &name,
                                SourceLocation location);

/// The field `expr` names of `base`, a record or an array of records: `.name`, or an index
/// that is a constant string (a literal, or a global or closure variable holding one, whose
/// type is that string literal) or, of a record, a constant integer position (Numba's static
/// getitem). Empty when it names none; a TypingError for a position out of range.
std::string accessedRecordField(const Expr *expr, const Type *base, const Type *indexType,
                                const std::unordered_map<int, GlobalValue> &globals);

/// Whether `value` may be stored into a fixed-width string item or field (`slot`: a `<U n`
/// item's str type, or a CharSeq): strings and `<U` items into `<U`, bytes and ASCII literals
/// into `S`.
bool charSequenceStoreAllowed(const Type *slot, const Type *value);

/// Whether `value` may be stored into a field (or an element) of type `slot`: numbers into
/// numbers (complex only into complex), a record into the same record type, text into a
/// fixed-width string (charSequenceStoreAllowed).
bool recordStoreAllowed(const Type *slot, const Type *value);

} // namespace taipan
