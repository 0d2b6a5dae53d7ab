// Strings of compiled code (Numba's unicode_type): CPython's representation in a reference-counted
// block, and the C functions compiled code calls for every string operation.
#pragma once

#include "runtime/MemoryRuntime.h"

#include <cstdint>
#include <string>

namespace taipan::runtime {

/// The data of a string's block, as CPython holds a str: the code points in the smallest kind
/// (1, 2 or 4 bytes each) that fits the largest, so equal strings have equal bytes and hash
/// alike; `kind` bytes of zero follow the last code point. Lowering reads `length` at offset 0.
struct StringData {
  int64_t length;
  int32_t kind;
  int32_t ascii; ///< 1 when every code point is below 128
  int64_t hash;  ///< -1 until computed
  alignas(8) unsigned char bytes[];
};
constexpr size_t StringLengthOffset = 0;

/// The string a block holds (a block made by the functions below).
inline StringData *stringOf(MemInfo *block) { return static_cast<StringData *>(block->data); }
/// A new string of these code points (in its canonical kind), or null with MemoryError pending.
MemInfo *makeString(const uint32_t *codePoints, int64_t length);
/// A new string of `length` code points of `kind`, copied from `data`, kind made canonical.
MemInfo *makeStringOfKind(const void *data, int64_t length, int kind);
/// The string as UTF-8 (lone surrogates as CPython's surrogatepass would write them).
std::string toUtf8(MemInfo *block);

/// What compiled code calls through for what CPython decides best: case mapping and
/// classification of non-ASCII text (`method` is the str method's name, "int" and "float" are
/// int(s) and float(s) given back as their ASCII text). The result is 0 or 1 for a
/// predicate, else 0 with `*result` a new string; -1 with the exception pending on failure.
using StringMethodHook = int32_t (*)(const char *method, MemInfo *self, MemInfo **result);
void setStringMethodHook(StringMethodHook hook);
/// The interpreter's string hash, so that hash(s) agrees with CPython's: its SipHash key
/// (_Py_HashSecret) and rounds (1-3 or 2-4; 0: not SipHash, and hash(s) raises).
void setStringHash(uint64_t k0, uint64_t k1, int compressionRounds, int finalizationRounds);

} // namespace taipan::runtime

/// The symbols of the string runtime, for the JIT's table (runtime/Runtime.cpp).
#define TAIPAN_STRING_SYMBOLS                                                                      \
  TAIPAN_SYMBOL(taipan_str_from_utf8), TAIPAN_SYMBOL(taipan_str_getitem),                          \
      TAIPAN_SYMBOL(taipan_str_slice), TAIPAN_SYMBOL(taipan_str_concat),                           \
      TAIPAN_SYMBOL(taipan_str_repeat), TAIPAN_SYMBOL(taipan_str_compare),                         \
      TAIPAN_SYMBOL(taipan_str_contains), TAIPAN_SYMBOL(taipan_str_hash),                          \
      TAIPAN_SYMBOL(taipan_str_from_int64), TAIPAN_SYMBOL(taipan_str_from_uint64),                 \
      TAIPAN_SYMBOL(taipan_str_from_float64), TAIPAN_SYMBOL(taipan_str_from_float32),              \
      TAIPAN_SYMBOL(taipan_str_to_int64), TAIPAN_SYMBOL(taipan_str_to_float64),                    \
      TAIPAN_SYMBOL(taipan_str_case), TAIPAN_SYMBOL(taipan_str_predicate),                         \
      TAIPAN_SYMBOL(taipan_str_strip), TAIPAN_SYMBOL(taipan_str_find),                             \
      TAIPAN_SYMBOL(taipan_str_count), TAIPAN_SYMBOL(taipan_str_startswith),                       \
      TAIPAN_SYMBOL(taipan_str_replace), TAIPAN_SYMBOL(taipan_str_zfill),                          \
      TAIPAN_SYMBOL(taipan_str_pad), TAIPAN_SYMBOL(taipan_str_join),                               \
      TAIPAN_SYMBOL(taipan_str_ord), TAIPAN_SYMBOL(taipan_str_chr),                                \
      TAIPAN_SYMBOL(taipan_str_print), TAIPAN_SYMBOL(taipan_str_format_int),                       \
      TAIPAN_SYMBOL(taipan_str_format_float), TAIPAN_SYMBOL(taipan_str_format_str),                \
      TAIPAN_SYMBOL(taipan_str_repr), TAIPAN_SYMBOL(taipan_str_split_count),                       \
      TAIPAN_SYMBOL(taipan_str_split), TAIPAN_SYMBOL(taipan_str_join_characters),                  \
      TAIPAN_SYMBOL(taipan_str_expandtabs)

extern "C" {
using taipan::runtime::MemInfo;
/// Every function returning a string returns a new reference, or null with the exception
/// pending. Arguments are borrowed. Optional bounds come with a mask of those given (1: start,
/// 2: stop or end, 4: step).
MemInfo *taipan_str_from_utf8(const char *text, int64_t bytes);
/// s[index], negative counting from the end; IndexError outside.
MemInfo *taipan_str_getitem(MemInfo *s, int64_t index);
MemInfo *taipan_str_slice(MemInfo *s, int64_t start, int64_t stop, int64_t step, int32_t given);
MemInfo *taipan_str_concat(MemInfo *a, MemInfo *b);
MemInfo *taipan_str_repeat(MemInfo *s, int64_t count);
/// <0, 0 or >0 as a is before, equal to or after b in code point order.
int32_t taipan_str_compare(MemInfo *a, MemInfo *b);
int8_t taipan_str_contains(MemInfo *haystack, MemInfo *needle);
/// CPython's hash(s) (siphash13 of the code points in their kind, with the process's key).
int64_t taipan_str_hash(MemInfo *s);
MemInfo *taipan_str_from_int64(int64_t value);
MemInfo *taipan_str_from_uint64(uint64_t value);
/// str(float): CPython's repr.
MemInfo *taipan_str_from_float64(double value);
/// str() of a float32 as NumPy prints its scalars ('1.1', '1e+07').
MemInfo *taipan_str_from_float32(float value);
/// int(s, base) and float(s): 0 with `*out` set, else 1 with ValueError pending.
int32_t taipan_str_to_int64(MemInfo *s, int64_t base, int64_t *out);
int32_t taipan_str_to_float64(MemInfo *s, double *out);
/// upper (0), lower (1), swapcase (2), title (3), capitalize (4), casefold (5).
MemInfo *taipan_str_case(MemInfo *s, int32_t operation);
/// isdigit (0), isalpha (1), isspace (2), isupper (3), islower (4), isalnum (5), isdecimal (6),
/// isnumeric (7), istitle (8), isascii (9), isidentifier (10), isprintable (11): 0 or 1, -1 on
/// failure.
int32_t taipan_str_predicate(MemInfo *s, int32_t operation);
/// strip (3), lstrip (1), rstrip (2) of whitespace, or of the characters of `chars` when given.
MemInfo *taipan_str_strip(MemInfo *s, MemInfo *chars, int32_t sides);
/// find (reverse 0) or rfind (1) of `sub` in s[start:end]: the index, or -1.
int64_t taipan_str_find(MemInfo *s, MemInfo *sub, int64_t start, int64_t end, int32_t given,
                        int32_t reverse);
int64_t taipan_str_count(MemInfo *s, MemInfo *sub, int64_t start, int64_t end, int32_t given);
/// startswith (suffix 0) or endswith (1) within s[start:end].
int8_t taipan_str_startswith(MemInfo *s, MemInfo *part, int64_t start, int64_t end, int32_t given,
                             int32_t suffix);
MemInfo *taipan_str_replace(MemInfo *s, MemInfo *old, MemInfo *replacement, int64_t count);
MemInfo *taipan_str_zfill(MemInfo *s, int64_t width);
/// s.expandtabs(tabsize): tabs to spaces up to the next multiple of tabsize (none if <= 0).
MemInfo *taipan_str_expandtabs(MemInfo *s, int64_t tabsize);
/// ljust (0), rjust (1), center (2) to `width` with `fill` (a one-character string, or null for
/// a space; TypeError otherwise).
MemInfo *taipan_str_pad(MemInfo *s, int64_t width, MemInfo *fill, int32_t alignment);
/// sep.join(items): `items` holds `count` string blocks.
MemInfo *taipan_str_join(MemInfo *separator, MemInfo *const *items, int64_t count);
/// sep.join(s) of a string: its characters with `separator` between them.
MemInfo *taipan_str_join_characters(MemInfo *separator, MemInfo *s);
/// ord(s): the code point of a one-character string; -1 with TypeError pending otherwise.
int64_t taipan_str_ord(MemInfo *s);
/// chr(i); ValueError outside range(0x110000).
MemInfo *taipan_str_chr(int64_t codePoint);
void taipan_str_print(MemInfo *s);
/// format(value, spec) with Python's format-spec mini-language; ValueError for a bad spec.
MemInfo *taipan_str_format_int(int64_t value, MemInfo *spec);
MemInfo *taipan_str_format_float(double value, MemInfo *spec);
MemInfo *taipan_str_format_str(MemInfo *s, MemInfo *spec);
/// repr(s).
MemInfo *taipan_str_repr(MemInfo *s);
/// The pieces s.split(sep, maxsplit) (mode 0), s.rsplit(sep, maxsplit) (1) or
/// s.splitlines(keepends) (2, keepends given as maxsplit) makes (sep null: runs of whitespace);
/// -1 with ValueError pending for an empty separator. taipan_str_split stores them in `pieces`
/// (that many slots); on failure (1, exception pending) it leaves them null.
int64_t taipan_str_split_count(MemInfo *s, MemInfo *sep, int64_t maxsplit, int32_t mode);
int32_t taipan_str_split(MemInfo *s, MemInfo *sep, int64_t maxsplit, int32_t mode,
                         MemInfo **pieces);
}
