// Numba's fixed-width strings (UnicodeCharSeq, CharSeq): the dtype of NumPy's `<U n` and `S n`
// arrays and record fields, a NestedArray of n characters whose dtype is a StringLiteral naming
// the character ("unichr": UCS4 code points, "char": bytes), as record fields always had it.
#pragma once

#include "types/Type.h"

#include <cstdint>

namespace taipan::types {

/// `[unichr x length]` (NumPy `<U length`) or `[char x length]` (NumPy `S length`).
inline const Type *charSequence(int64_t length, bool unicode) {
  return nestedArray(stringLiteral(unicode ? "unichr" : "char"), {length});
}

/// Whether `type` is a fixed-width string of either kind.
inline bool isCharSequence(const Type *type) {
  return type && type->kind() == TypeKind::NestedArray &&
         type->dtype()->kind() == TypeKind::StringLiteral;
}

/// Whether `type` is a fixed-width string of code points (`<U n`, Numba's UnicodeCharSeq).
inline bool isUnicodeCharSequence(const Type *type) {
  return isCharSequence(type) && type->dtype()->text() == "unichr";
}

/// Whether `type` is a fixed-width string of bytes (`S n`, Numba's CharSeq).
inline bool isByteCharSequence(const Type *type) {
  return isCharSequence(type) && type->dtype()->text() == "char";
}

/// The number of characters of a fixed-width string.
inline int64_t charSequenceLength(const Type *type) { return type->nestedShape().at(0); }

/// Bytes per character: 4 (UCS4) or 1.
inline int charSequenceWidth(const Type *type) { return isUnicodeCharSequence(type) ? 4 : 1; }

/// The type an item of an array of `dtype` has when compiled code reads it: a fixed-width
/// unicode string is read as a string value (Numba converts its UnicodeCharSeq wherever a str
/// is used), a byte string stays a CharSeq value; every other dtype is its own value type.
inline const Type *itemValueType(const Type *dtype) {
  return isUnicodeCharSequence(dtype) ? unicode() : dtype;
}

} // namespace taipan::types
