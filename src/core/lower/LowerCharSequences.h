// Lowering of fixed-width strings (NumPy's `<U n` and `S n`, Numba's UnicodeCharSeq and
// CharSeq): their values are their characters, `[n x i32]` or `[n x i8]`, held by value.
#pragma once

#include "lower/LoweringApi.h"

#include <string>

namespace taipan {

/// Converts `value` of type `from` to type `to` where either is a fixed-width string: between
/// widths (truncated, or padded with NULs, as NumPy assigns), from a string literal (a constant)
/// or a string value (the runtime, CPU only), and from a `<U n` value to a string value (a
/// statement temporary, its trailing NULs dropped).
llvm::Value *castCharSequence(LoweringApi &core, llvm::Value *value, const Type *from,
                              const Type *to);

/// The characters of `expr` when it reads a `<U n` item or record field (which typing gave
/// its str type, types::itemValueType), without making a string: what `a[i] = b[j]` copies,
/// on the GPU too. Null, with nothing emitted, for any other expression; `*type` gets the
/// item's own type.
llvm::Value *lowerCharSequenceItem(LoweringApi &core, Expr *expr, const Type **type);

/// Whether `target` of an assignment is a fixed-width string item or record field.
bool storesCharSequence(LoweringApi &core, const Expr *target);

/// The order of two byte strings (CharSeq values, bytes literals among them) as an i32: -1, 0
/// or 1, as Python orders their bytes (NUL padding at the end does not count).
llvm::Value *compareByteStrings(LoweringApi &core, llvm::Value *left, const Type *leftType,
                                llvm::Value *right, const Type *rightType);

/// The length of a byte string (a CharSeq value) without its NUL padding, as an int64.
llvm::Value *byteStringLength(LoweringApi &core, llvm::Value *value, const Type *type);

/// The value of a bytes literal (`b"XYZ"`), typed `[char x n]`: a constant.
llvm::Value *bytesLiteralValue(LoweringApi &core, const std::string &bytes);

} // namespace taipan
