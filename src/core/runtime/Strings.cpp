// The string runtime: CPython's str representation in reference-counted blocks, and the basic
// operations compiled code calls (indexing, slicing, concatenation, comparison, hashing, parsing).
#include "runtime/Strings.h"

#include "runtime/FloatFormat.h"
#include "runtime/Runtime.h"
#include "runtime/SliceBounds.h"
#include "runtime/StringCodePoints.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace taipan;
using namespace taipan::runtime;
using namespace taipan::runtime::strings;

namespace {

std::atomic<StringMethodHook> methodHook{nullptr};
uint64_t hashKey0 = 0;
uint64_t hashKey1 = 0;
/// SipHash's rounds as the interpreter hashes strings; 0: an algorithm taipan does not have.
int hashCompressionRounds = 1;
int hashFinalizationRounds = 3;

/// SipHash-c-d of `in` with key (k0, k1): CPython's string hash is SipHash-1-3 from 3.11,
/// SipHash-2-4 before.
uint64_t siphash(uint64_t k0, uint64_t k1, const unsigned char *in, size_t size,
                 int compressionRounds, int finalizationRounds) {
  auto rotate = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  uint64_t b = static_cast<uint64_t>(size) << 56;
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;
  uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;
  uint64_t v3 = k1 ^ 0x7465646279746573ULL;
  auto round = [&] {
    v0 += v1;
    v2 += v3;
    v1 = rotate(v1, 13) ^ v0;
    v3 = rotate(v3, 16) ^ v2;
    v0 = rotate(v0, 32);
    v2 += v1;
    v0 += v3;
    v1 = rotate(v1, 17) ^ v2;
    v3 = rotate(v3, 21) ^ v0;
    v2 = rotate(v2, 32);
  };
  while (size >= 8) {
    uint64_t word;
    std::memcpy(&word, in, 8);
    in += 8;
    size -= 8;
    v3 ^= word;
    for (int i = 0; i < compressionRounds; ++i)
      round();
    v0 ^= word;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, in, size);
  b |= tail;
  v3 ^= b;
  for (int i = 0; i < compressionRounds; ++i)
    round();
  v0 ^= b;
  v2 ^= 0xff;
  for (int i = 0; i < finalizationRounds; ++i)
    round();
  return (v0 ^ v1) ^ (v2 ^ v3);
}

} // namespace

namespace taipan::runtime::strings {

uint32_t at(const StringData *s, int64_t i) {
  switch (s->kind) {
  case 1:
    return s->bytes[i];
  case 2: {
    uint16_t unit;
    std::memcpy(&unit, s->bytes + 2 * i, 2);
    return unit;
  }
  default: {
    uint32_t unit;
    std::memcpy(&unit, s->bytes + 4 * i, 4);
    return unit;
  }
  }
}

CodePoints codePoints(const StringData *s, int64_t start, int64_t end) {
  if (end < 0)
    end = s->length;
  CodePoints points;
  points.reserve(static_cast<size_t>(std::max<int64_t>(0, end - start)));
  for (int64_t i = start; i < end; ++i)
    points.push_back(at(s, i));
  return points;
}

MemInfo *fromPoints(const CodePoints &points) {
  return makeString(points.data(), static_cast<int64_t>(points.size()));
}

MemInfo *newStringOfKind(int64_t length, int kind, bool ascii) {
  MemInfo *block =
      taipan_nrt_allocate(static_cast<int64_t>(sizeof(StringData)) + (length + 1) * kind);
  if (!block)
    return nullptr;
  StringData *s = stringOf(block);
  s->length = length;
  s->kind = kind;
  s->ascii = ascii;
  s->hash = -1;
  std::memset(s->bytes + length * kind, 0, static_cast<size_t>(kind));
  return block;
}

void putCodePoint(unsigned char *bytes, int kind, int64_t i, uint32_t c) {
  if (kind == 1) {
    bytes[i] = static_cast<unsigned char>(c);
  } else if (kind == 2) {
    auto unit = static_cast<uint16_t>(c);
    std::memcpy(bytes + 2 * i, &unit, 2);
  } else {
    std::memcpy(bytes + 4 * i, &c, 4);
  }
}

unsigned char *copyWidened(unsigned char *target, int kind, const StringData *source) {
  if (source->kind == kind)
    std::memcpy(target, source->bytes, static_cast<size_t>(source->length * kind));
  else
    for (int64_t i = 0; i < source->length; ++i)
      putCodePoint(target, kind, i, at(source, i));
  return target + source->length * kind;
}

MemInfo *fromAscii(std::string_view text) {
  // Straight into a block of kind 1: str(n) in a loop is common, and the detour through code
  // points cost a vector allocation per string.
  MemInfo *block = newStringOfKind(static_cast<int64_t>(text.size()), 1, true);
  if (block)
    std::memcpy(stringOf(block)->bytes, text.data(), text.size());
  return block;
}

bool isAsciiSpace(uint32_t c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }

/// CPython's whitespace (str.isspace and str.split()): ASCII's, and the Unicode spaces.
bool isSpace(uint32_t c) {
  if (c < 128)
    return isAsciiSpace(c);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/// Clamps [start, end) to a length as a slice would (negative counting from the end).
void clampBounds(int64_t length, int64_t &start, int64_t &end, int32_t given) {
  if (!(given & 1))
    start = 0;
  if (!(given & 2))
    end = length;
  if (start < 0)
    start = std::max<int64_t>(0, start + length);
  if (end < 0)
    end = std::max<int64_t>(0, end + length);
  end = std::min(end, length);
}

bool matchesAt(const StringData *s, int64_t position, const StringData *part) {
  for (int64_t j = 0; j < part->length; ++j)
    if (at(s, position + j) != at(part, j))
      return false;
  return true;
}

/// Runs the hook for a non-ASCII string; -1 with RuntimeError pending when none is installed.
int32_t callMethodHook(const char *method, MemInfo *s, MemInfo **result) {
  StringMethodHook hook = methodHook.load();
  if (!hook) {
    taipan_raise(RuntimeErrorId, "non-ASCII string operations need the Python interpreter");
    return -1;
  }
  return hook(method, s, result);
}

} // namespace taipan::runtime::strings

namespace taipan::runtime {

void setStringMethodHook(StringMethodHook hook) { methodHook.store(hook); }

void setStringHash(uint64_t k0, uint64_t k1, int compressionRounds, int finalizationRounds) {
  hashKey0 = k0;
  hashKey1 = k1;
  hashCompressionRounds = compressionRounds;
  hashFinalizationRounds = finalizationRounds;
}

MemInfo *makeStringOfKind(const void *data, int64_t length, int kind) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  CodePoints points(static_cast<size_t>(length));
  for (int64_t i = 0; i < length; ++i) {
    uint32_t c = 0;
    if (kind == 1) {
      c = bytes[i];
    } else if (kind == 2) {
      uint16_t unit;
      std::memcpy(&unit, bytes + 2 * i, 2);
      c = unit;
    } else {
      std::memcpy(&c, bytes + 4 * i, 4);
    }
    points[i] = c;
  }
  return makeString(points.data(), length);
}

MemInfo *makeString(const uint32_t *points, int64_t length) {
  uint32_t largest = 0;
  for (int64_t i = 0; i < length; ++i)
    largest = std::max(largest, points[i]);
  int kind = largest < 256 ? 1 : largest < 65536 ? 2 : 4;
  MemInfo *block = newStringOfKind(length, kind, largest < 128);
  if (!block)
    return nullptr;
  unsigned char *bytes = stringOf(block)->bytes;
  for (int64_t i = 0; i < length; ++i)
    putCodePoint(bytes, kind, i, points[i]);
  return block;
}

std::string toUtf8(MemInfo *block) {
  const StringData *s = stringOf(block);
  std::string text;
  text.reserve(static_cast<size_t>(s->length));
  for (int64_t i = 0; i < s->length; ++i) {
    uint32_t c = at(s, i);
    if (c < 0x80) {
      text += static_cast<char>(c);
    } else if (c < 0x800) {
      text += static_cast<char>(0xC0 | (c >> 6));
      text += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      text += static_cast<char>(0xE0 | (c >> 12));
      text += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      text += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      text += static_cast<char>(0xF0 | (c >> 18));
      text += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      text += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      text += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return text;
}

} // namespace taipan::runtime

extern "C" {

MemInfo *taipan_str_from_utf8(const char *text, int64_t bytes) {
  CodePoints points;
  const auto *in = reinterpret_cast<const unsigned char *>(text);
  for (int64_t i = 0; i < bytes;) {
    uint32_t c = in[i];
    int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    if (extra)
      c &= (0x3F >> extra);
    for (int k = 1; k <= extra && i + k < bytes; ++k)
      c = (c << 6) | (in[i + k] & 0x3F);
    points.push_back(c);
    i += 1 + extra;
  }
  return fromPoints(points);
}

MemInfo *taipan_str_getitem(MemInfo *block, int64_t index) {
  const StringData *s = stringOf(block);
  if (index < 0)
    index += s->length;
  if (index < 0 || index >= s->length) {
    taipan_raise(IndexErrorId, "string index out of range");
    return nullptr;
  }
  uint32_t c = at(s, index);
  return makeString(&c, 1);
}

MemInfo *taipan_str_slice(MemInfo *block, int64_t start, int64_t stop, int64_t step,
                          int32_t given) {
  const StringData *s = stringOf(block);
  int64_t length = s->length;
  if (!(given & 4))
    step = 1;
  if (step == 0) {
    taipan_raise(ValueErrorId, "slice step cannot be zero");
    return nullptr;
  }
  adjustSliceBounds(start, given & 1, stop, given & 2, length, step);
  CodePoints points;
  if (step > 0)
    for (int64_t i = start; i < stop; i += step)
      points.push_back(at(s, i));
  else
    for (int64_t i = start; i > stop; i += step)
      points.push_back(at(s, i));
  return fromPoints(points);
}

MemInfo *taipan_str_concat(MemInfo *a, MemInfo *b) {
  // Both are canonical, so the wider kind is the result's: bytes are copied, not decoded (a
  // loop of `s += t` copies each string once per step, as CPython and Numba do).
  const StringData *left = stringOf(a), *right = stringOf(b);
  int kind = std::max(left->kind, right->kind);
  MemInfo *block = newStringOfKind(left->length + right->length, kind, left->ascii && right->ascii);
  if (!block)
    return nullptr;
  unsigned char *out = copyWidened(stringOf(block)->bytes, kind, left);
  copyWidened(out, kind, right);
  return block;
}

MemInfo *taipan_str_repeat(MemInfo *block, int64_t count) {
  CodePoints one = codePoints(stringOf(block));
  CodePoints points;
  if (count > 0 && !one.empty() && count > (int64_t{1} << 40) / static_cast<int64_t>(one.size())) {
    taipan_raise(MemoryErrorId, "");
    return nullptr;
  }
  for (int64_t i = 0; i < count; ++i)
    points.insert(points.end(), one.begin(), one.end());
  return fromPoints(points);
}

int32_t taipan_str_compare(MemInfo *a, MemInfo *b) {
  const StringData *left = stringOf(a);
  const StringData *right = stringOf(b);
  int64_t common = std::min(left->length, right->length);
  for (int64_t i = 0; i < common; ++i) {
    uint32_t x = at(left, i);
    uint32_t y = at(right, i);
    if (x != y)
      return x < y ? -1 : 1;
  }
  return left->length < right->length ? -1 : left->length > right->length ? 1 : 0;
}

int8_t taipan_str_contains(MemInfo *haystack, MemInfo *needle) {
  return taipan_str_find(haystack, needle, 0, 0, 0, 0) >= 0;
}

int64_t taipan_str_hash(MemInfo *block) {
  StringData *s = stringOf(block);
  if (s->hash != -1)
    return s->hash;
  int64_t hash = 0;
  if (s->length && hashCompressionRounds == 0) {
    taipan_raise(RuntimeErrorId, "hash() of a string needs an interpreter hashing with SipHash");
    return -1;
  }
  if (s->length) {
    hash = static_cast<int64_t>(siphash(hashKey0, hashKey1, s->bytes,
                                        static_cast<size_t>(s->length * s->kind),
                                        hashCompressionRounds, hashFinalizationRounds));
    if (hash == -1)
      hash = -2;
  }
  s->hash = hash;
  return hash;
}

MemInfo *taipan_str_from_int64(int64_t value) {
  char digits[24];
  auto written = std::to_chars(digits, digits + sizeof digits, value);
  return fromAscii(std::string_view(digits, written.ptr - digits));
}
MemInfo *taipan_str_from_uint64(uint64_t value) {
  char digits[24];
  auto written = std::to_chars(digits, digits + sizeof digits, value);
  return fromAscii(std::string_view(digits, written.ptr - digits));
}
MemInfo *taipan_str_from_float64(double value) { return fromAscii(formatPythonFloat(value)); }
MemInfo *taipan_str_from_float32(float value) { return fromAscii(formatNumpyFloat32(value)); }

int32_t taipan_str_to_int64(MemInfo *block, int64_t base, int64_t *out) {
  MemInfo *ascii = nullptr;
  if (!stringOf(block)->ascii) {
    if (callMethodHook("int", block, &ascii) < 0)
      return 1;
    block = ascii;
    base = 10;
  }
  std::string text = toUtf8(block);
  if (ascii)
    taipan_nrt_decref(ascii);
  auto invalid = [&] {
    raiseWithMessage(ValueErrorId, "invalid literal for int() with base " + std::to_string(base) +
                                       ": '" + text + "'");
    return 1;
  };
  size_t i = 0;
  size_t end = text.size();
  while (i < end && isAsciiSpace(static_cast<unsigned char>(text[i])))
    ++i;
  while (end > i && isAsciiSpace(static_cast<unsigned char>(text[end - 1])))
    --end;
  bool negative = false;
  if (i < end && (text[i] == '+' || text[i] == '-'))
    negative = text[i++] == '-';
  if (base == 0 || base == 16 || base == 8 || base == 2) {
    if (i + 1 < end && text[i] == '0') {
      char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + 1])));
      int prefixBase = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 0;
      if (prefixBase && (base == 0 || base == prefixBase)) {
        base = prefixBase;
        i += 2;
        if (i < end && text[i] == '_')
          ++i;
      }
    }
    if (base == 0)
      base = 10;
  }
  if (i >= end)
    return invalid();
  unsigned __int128 value = 0;
  bool lastUnderscore = true;
  for (; i < end; ++i) {
    char c = text[i];
    if (c == '_') {
      if (lastUnderscore)
        return invalid();
      lastUnderscore = true;
      continue;
    }
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'z' ? c - 'a' + 10
                : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                       : 99;
    if (digit >= base)
      return invalid();
    value = value * static_cast<unsigned>(base) + static_cast<unsigned>(digit);
    if (value > (static_cast<unsigned __int128>(1) << 64)) {
      taipan_raise(OverflowErrorId, "int too large to convert to int64");
      return 1;
    }
    lastUnderscore = false;
  }
  if (lastUnderscore)
    return invalid();
  if ((!negative && value > static_cast<unsigned __int128>(INT64_MAX)) ||
      (negative && value > static_cast<unsigned __int128>(INT64_MAX) + 1)) {
    taipan_raise(OverflowErrorId, "int too large to convert to int64");
    return 1;
  }
  *out = negative ? static_cast<int64_t>(0 - static_cast<uint64_t>(value))
                  : static_cast<int64_t>(value);
  return 0;
}

int32_t taipan_str_to_float64(MemInfo *block, double *out) {
  MemInfo *ascii = nullptr;
  if (!stringOf(block)->ascii) {
    if (callMethodHook("float", block, &ascii) < 0)
      return 1;
    block = ascii;
  }
  std::string text = toUtf8(block);
  if (ascii)
    taipan_nrt_decref(ascii);
  std::string original = text;
  size_t first = 0;
  size_t end = text.size();
  while (first < end && isAsciiSpace(static_cast<unsigned char>(text[first])))
    ++first;
  while (end > first && isAsciiSpace(static_cast<unsigned char>(text[end - 1])))
    --end;
  std::string body = text.substr(first, end - first);
  // Underscores only between digits, as Python's float() takes them.
  std::string cleaned;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '_') {
      if (i == 0 || i + 1 == body.size() ||
          !std::isdigit(static_cast<unsigned char>(body[i - 1])) ||
          !std::isdigit(static_cast<unsigned char>(body[i + 1])))
        cleaned = "x";
      else
        continue;
      break;
    }
    cleaned += body[i];
  }
  std::string lower = cleaned;
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string unsigned_ = lower;
  bool negative = false;
  if (!unsigned_.empty() && (unsigned_[0] == '+' || unsigned_[0] == '-')) {
    negative = unsigned_[0] == '-';
    unsigned_ = unsigned_.substr(1);
  }
  if (unsigned_ == "inf" || unsigned_ == "infinity" || unsigned_ == "nan") {
    double value = unsigned_ == "nan" ? std::nan("") : HUGE_VAL;
    *out = negative ? -value : value;
    return 0;
  }
  bool valid = !unsigned_.empty() &&
               unsigned_.find_first_not_of("0123456789.e+-") == std::string::npos &&
               unsigned_.find_first_of("0123456789") != std::string::npos;
  char *parsedEnd = nullptr;
  double value = valid ? std::strtod(cleaned.c_str(), &parsedEnd) : 0.0;
  if (!valid || parsedEnd != cleaned.c_str() + cleaned.size() || unsigned_[0] == 'e') {
    raiseWithMessage(ValueErrorId, "could not convert string to float: '" + original + "'");
    return 1;
  }
  *out = value;
  return 0;
}

int64_t taipan_str_ord(MemInfo *block) {
  const StringData *s = stringOf(block);
  if (s->length != 1) {
    raiseWithMessage(TypeErrorId, "ord() expected a character, but string of length " +
                                      std::to_string(s->length) + " found");
    return -1;
  }
  return at(s, 0);
}

MemInfo *taipan_str_chr(int64_t codePoint) {
  if (codePoint < 0 || codePoint >= 0x110000) {
    taipan_raise(ValueErrorId, "chr() arg not in range(0x110000)");
    return nullptr;
  }
  uint32_t c = static_cast<uint32_t>(codePoint);
  return makeString(&c, 1);
}

void taipan_str_print(MemInfo *block) { taipan_print_text(toUtf8(block).c_str()); }
}
