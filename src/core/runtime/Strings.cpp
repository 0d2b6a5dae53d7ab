// The string runtime: CPython's str representation in reference-counted blocks and the
// operations compiled code calls (indexing, slicing, search, case mapping, hashing, formatting).
#include "runtime/Strings.h"

#include "runtime/FloatFormat.h"
#include "runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace taipan;
using namespace taipan::runtime;

namespace {

std::atomic<StringMethodHook> methodHook{nullptr};
uint64_t hashKey0 = 0;
uint64_t hashKey1 = 0;
/// SipHash's rounds as the interpreter hashes strings; 0: an algorithm taipan does not have.
int hashCompressionRounds = 1;
int hashFinalizationRounds = 3;

using CodePoints = std::vector<uint32_t>;

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

CodePoints codePoints(const StringData *s, int64_t start = 0, int64_t end = -1) {
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

MemInfo *fromAscii(const std::string &text) {
  return taipan_str_from_utf8(text.data(), static_cast<int64_t>(text.size()));
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
int32_t callHook(const char *method, MemInfo *s, MemInfo **result) {
  StringMethodHook hook = methodHook.load();
  if (!hook) {
    taipan_raise(RuntimeErrorId, "non-ASCII string operations need the Python interpreter");
    return -1;
  }
  return hook(method, s, result);
}

} // namespace

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
  MemInfo *block =
      taipan_nrt_allocate(static_cast<int64_t>(sizeof(StringData)) + (length + 1) * kind);
  if (!block)
    return nullptr;
  StringData *s = stringOf(block);
  s->length = length;
  s->kind = kind;
  s->ascii = largest < 128;
  s->hash = -1;
  for (int64_t i = 0; i < length; ++i) {
    if (kind == 1) {
      s->bytes[i] = static_cast<unsigned char>(points[i]);
    } else if (kind == 2) {
      uint16_t unit = static_cast<uint16_t>(points[i]);
      std::memcpy(s->bytes + 2 * i, &unit, 2);
    } else {
      std::memcpy(s->bytes + 4 * i, &points[i], 4);
    }
  }
  std::memset(s->bytes + length * kind, 0, static_cast<size_t>(kind));
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

namespace {

/// Python's format-spec mini-language: [[fill]align][sign][#][0][width][,|_][.precision][type].
struct FormatSpec {
  uint32_t fill = ' ';
  char align = 0;
  char sign = '-';
  bool alternate = false;
  int64_t width = -1;
  char grouping = 0;
  int64_t precision = -1;
  char type = 0;
};

bool parseSpec(MemInfo *specBlock, FormatSpec &spec) {
  CodePoints text = codePoints(stringOf(specBlock));
  size_t i = 0;
  auto isAlign = [](uint32_t c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (text.size() >= 2 && isAlign(text[1])) {
    spec.fill = text[0];
    spec.align = static_cast<char>(text[1]);
    i = 2;
  } else if (!text.empty() && isAlign(text[0])) {
    spec.align = static_cast<char>(text[0]);
    i = 1;
  }
  if (i < text.size() && (text[i] == '+' || text[i] == '-' || text[i] == ' '))
    spec.sign = static_cast<char>(text[i++]);
  if (i < text.size() && text[i] == '#') {
    spec.alternate = true;
    ++i;
  }
  if (i < text.size() && text[i] == '0') {
    if (!spec.align) {
      spec.fill = '0';
      spec.align = '=';
    }
    ++i;
  }
  auto number = [&](int64_t &out) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9')
      return;
    out = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
      out = out * 10 + (text[i++] - '0');
  };
  number(spec.width);
  if (i < text.size() && (text[i] == ',' || text[i] == '_'))
    spec.grouping = static_cast<char>(text[i++]);
  if (i < text.size() && text[i] == '.') {
    ++i;
    spec.precision = -2;
    number(spec.precision);
    if (spec.precision == -2) {
      taipan_raise(ValueErrorId, "Format specifier missing precision");
      return false;
    }
  }
  if (i < text.size())
    spec.type = static_cast<char>(text[i++]);
  if (i != text.size()) {
    taipan_raise(ValueErrorId, "Invalid format specifier");
    return false;
  }
  return true;
}

std::string groupDigits(const std::string &digits, char separator) {
  if (!separator)
    return digits;
  std::string grouped;
  size_t count = digits.size();
  for (size_t i = 0; i < count; ++i) {
    grouped += digits[i];
    size_t left = count - 1 - i;
    if (left && left % 3 == 0)
      grouped += separator;
  }
  return grouped;
}

/// Pads `body` (after `prefix`, the sign) to the spec's width by its alignment.
MemInfo *padFormatted(const FormatSpec &spec, const std::string &prefix, const CodePoints &body,
                      char defaultAlign) {
  CodePoints out;
  for (char c : prefix)
    out.push_back(static_cast<unsigned char>(c));
  int64_t length = static_cast<int64_t>(prefix.size() + body.size());
  int64_t padding = std::max<int64_t>(0, spec.width - length);
  char align = spec.align ? spec.align : defaultAlign;
  CodePoints fill(static_cast<size_t>(padding), spec.fill);
  CodePoints result;
  if (align == '=') {
    result = out;
    result.insert(result.end(), fill.begin(), fill.end());
    result.insert(result.end(), body.begin(), body.end());
    return fromPoints(result);
  }
  out.insert(out.end(), body.begin(), body.end());
  if (align == '<') {
    out.insert(out.end(), fill.begin(), fill.end());
    return fromPoints(out);
  }
  if (align == '^') {
    int64_t left = padding / 2;
    result.assign(fill.begin(), fill.begin() + left);
    result.insert(result.end(), out.begin(), out.end());
    result.insert(result.end(), fill.begin() + left, fill.end());
    return fromPoints(result);
  }
  fill.insert(fill.end(), out.begin(), out.end());
  return fromPoints(fill);
}

CodePoints asciiPoints(const std::string &text) { return CodePoints(text.begin(), text.end()); }

/// The sign prefix of a number by the spec's sign option.
std::string signPrefix(bool negative, char sign) {
  if (negative)
    return "-";
  return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

/// Applies the zero-padding of '0' (align '=') over digits grouped with separators as CPython
/// does: the grouped digits grow to fill the width.
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
  // Python's PySlice_AdjustIndices.
  auto adjust = [&](int64_t &value, bool present, int64_t fallback) {
    if (!present) {
      value = fallback;
      return;
    }
    if (value < 0) {
      value += length;
      if (value < 0)
        value = step < 0 ? -1 : 0;
    } else if (value >= length) {
      value = step < 0 ? length - 1 : length;
    }
  };
  adjust(start, given & 1, step < 0 ? length - 1 : 0);
  adjust(stop, given & 2, step < 0 ? -1 : length);
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
  CodePoints points = codePoints(stringOf(a));
  CodePoints right = codePoints(stringOf(b));
  points.insert(points.end(), right.begin(), right.end());
  return fromPoints(points);
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

MemInfo *taipan_str_from_int64(int64_t value) { return fromAscii(formatPythonInt(value)); }
MemInfo *taipan_str_from_uint64(uint64_t value) { return fromAscii(formatPythonUInt(value)); }
MemInfo *taipan_str_from_float64(double value) { return fromAscii(formatPythonFloat(value)); }

int32_t taipan_str_to_int64(MemInfo *block, int64_t base, int64_t *out) {
  MemInfo *ascii = nullptr;
  if (!stringOf(block)->ascii) {
    if (callHook("int", block, &ascii) < 0)
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
    if (callHook("float", block, &ascii) < 0)
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

MemInfo *taipan_str_case(MemInfo *block, int32_t operation) {
  static const char *names[] = {"upper", "lower", "swapcase", "title", "capitalize", "casefold"};
  const StringData *s = stringOf(block);
  if (!s->ascii) {
    MemInfo *result = nullptr;
    return callHook(names[operation], block, &result) < 0 ? nullptr : result;
  }
  CodePoints points = codePoints(s);
  auto isUpper = [](uint32_t c) { return c >= 'A' && c <= 'Z'; };
  auto isLower = [](uint32_t c) { return c >= 'a' && c <= 'z'; };
  auto toUpper = [&](uint32_t c) { return isLower(c) ? c - 32 : c; };
  auto toLower = [&](uint32_t c) { return isUpper(c) ? c + 32 : c; };
  bool previousCased = false;
  for (size_t i = 0; i < points.size(); ++i) {
    uint32_t &c = points[i];
    switch (operation) {
    case 0:
      c = toUpper(c);
      break;
    case 1:
    case 5:
      c = toLower(c);
      break;
    case 2:
      c = isUpper(c) ? toLower(c) : toUpper(c);
      break;
    case 3: {
      bool cased = isUpper(c) || isLower(c);
      c = previousCased ? toLower(c) : toUpper(c);
      previousCased = cased;
      break;
    }
    case 4:
      c = i == 0 ? toUpper(c) : toLower(c);
      break;
    }
  }
  return fromPoints(points);
}

int32_t taipan_str_predicate(MemInfo *block, int32_t operation) {
  static const char *const names[] = {"isdigit", "isalpha", "isspace",      "isupper",
                                      "islower", "isalnum", "isdecimal",    "isnumeric",
                                      "istitle", "isascii", "isidentifier", "isprintable"};
  const StringData *s = stringOf(block);
  if (operation == 9)
    return s->ascii;
  if (!s->ascii) {
    if (operation == 2) { // whitespace is known here
      if (!s->length)
        return 0;
      for (int64_t i = 0; i < s->length; ++i)
        if (!isSpace(at(s, i)))
          return 0;
      return 1;
    }
    MemInfo *unused = nullptr;
    return callHook(names[operation], block, &unused);
  }
  auto digit = [](uint32_t c) { return c >= '0' && c <= '9'; };
  auto upper = [](uint32_t c) { return c >= 'A' && c <= 'Z'; };
  auto lower = [](uint32_t c) { return c >= 'a' && c <= 'z'; };
  auto alpha = [&](uint32_t c) { return upper(c) || lower(c); };
  int64_t n = s->length;
  auto all = [&](auto test) {
    if (!n)
      return 0;
    for (int64_t i = 0; i < n; ++i)
      if (!test(at(s, i)))
        return 0;
    return 1;
  };
  switch (operation) {
  case 0:
  case 6:
  case 7:
    return all(digit);
  case 1:
    return all(alpha);
  case 2:
    return all(isAsciiSpace);
  case 3:
  case 4: {
    bool cased = false;
    for (int64_t i = 0; i < n; ++i) {
      uint32_t c = at(s, i);
      if (operation == 3 ? lower(c) : upper(c))
        return 0;
      cased |= alpha(c);
    }
    return cased;
  }
  case 5:
    return all([&](uint32_t c) { return alpha(c) || digit(c); });
  case 8: {
    bool cased = false;
    bool previousCased = false;
    for (int64_t i = 0; i < n; ++i) {
      uint32_t c = at(s, i);
      if (upper(c)) {
        if (previousCased)
          return 0;
        previousCased = cased = true;
      } else if (lower(c)) {
        if (!previousCased)
          return 0;
        previousCased = cased = true;
      } else {
        previousCased = false;
      }
    }
    return cased;
  }
  case 10: {
    if (!n || digit(at(s, 0)))
      return 0;
    return all([&](uint32_t c) { return alpha(c) || digit(c) || c == '_'; });
  }
  case 11:
    for (int64_t i = 0; i < n; ++i) {
      uint32_t c = at(s, i);
      if (c < 32 || c == 127)
        return 0;
    }
    return 1;
  }
  return 0;
}

MemInfo *taipan_str_strip(MemInfo *block, MemInfo *chars, int32_t sides) {
  const StringData *s = stringOf(block);
  CodePoints set = chars ? codePoints(stringOf(chars)) : CodePoints{};
  auto strip = [&](uint32_t c) {
    return chars ? std::find(set.begin(), set.end(), c) != set.end() : isSpace(c);
  };
  int64_t start = 0;
  int64_t end = s->length;
  if (sides & 1)
    while (start < end && strip(at(s, start)))
      ++start;
  if (sides & 2)
    while (end > start && strip(at(s, end - 1)))
      --end;
  return fromPoints(codePoints(s, start, end));
}

int64_t taipan_str_find(MemInfo *block, MemInfo *subBlock, int64_t start, int64_t end,
                        int32_t given, int32_t reverse) {
  const StringData *s = stringOf(block);
  const StringData *sub = stringOf(subBlock);
  clampBounds(s->length, start, end, given);
  if (start > s->length || end - start < sub->length)
    return -1;
  if (reverse) {
    for (int64_t i = end - sub->length; i >= start; --i)
      if (matchesAt(s, i, sub))
        return i;
  } else {
    for (int64_t i = start; i + sub->length <= end; ++i)
      if (matchesAt(s, i, sub))
        return i;
  }
  return -1;
}

int64_t taipan_str_count(MemInfo *block, MemInfo *subBlock, int64_t start, int64_t end,
                         int32_t given) {
  const StringData *s = stringOf(block);
  const StringData *sub = stringOf(subBlock);
  clampBounds(s->length, start, end, given);
  if (start > s->length || end - start < sub->length)
    return 0;
  if (sub->length == 0)
    return end - start + 1;
  int64_t count = 0;
  for (int64_t i = start; i + sub->length <= end;) {
    if (matchesAt(s, i, sub)) {
      ++count;
      i += sub->length;
    } else {
      ++i;
    }
  }
  return count;
}

int8_t taipan_str_startswith(MemInfo *block, MemInfo *partBlock, int64_t start, int64_t end,
                             int32_t given, int32_t suffix) {
  const StringData *s = stringOf(block);
  const StringData *part = stringOf(partBlock);
  clampBounds(s->length, start, end, given);
  if (start > s->length || end - start < part->length)
    return 0;
  return matchesAt(s, suffix ? end - part->length : start, part);
}

MemInfo *taipan_str_replace(MemInfo *block, MemInfo *oldBlock, MemInfo *newBlock, int64_t count) {
  const StringData *s = stringOf(block);
  const StringData *old = stringOf(oldBlock);
  CodePoints replacement = codePoints(stringOf(newBlock));
  CodePoints out;
  if (count < 0)
    count = INT64_MAX;
  int64_t i = 0;
  int64_t done = 0;
  if (old->length == 0) {
    for (; i <= s->length; ++i) {
      if (done < count) {
        out.insert(out.end(), replacement.begin(), replacement.end());
        ++done;
      }
      if (i < s->length)
        out.push_back(at(s, i));
    }
    return fromPoints(out);
  }
  while (i < s->length) {
    if (done < count && i + old->length <= s->length && matchesAt(s, i, old)) {
      out.insert(out.end(), replacement.begin(), replacement.end());
      i += old->length;
      ++done;
    } else {
      out.push_back(at(s, i++));
    }
  }
  return fromPoints(out);
}

MemInfo *taipan_str_zfill(MemInfo *block, int64_t width) {
  CodePoints points = codePoints(stringOf(block));
  int64_t fill = width - static_cast<int64_t>(points.size());
  if (fill <= 0)
    return fromPoints(points);
  size_t at = !points.empty() && (points[0] == '+' || points[0] == '-') ? 1 : 0;
  points.insert(points.begin() + static_cast<std::ptrdiff_t>(at), static_cast<size_t>(fill), '0');
  return fromPoints(points);
}

MemInfo *taipan_str_expandtabs(MemInfo *block, int64_t tabsize) {
  // CPython's: a tab advances to the next multiple of tabsize; newlines restart the column.
  CodePoints out;
  int64_t column = 0;
  for (uint32_t c : codePoints(stringOf(block))) {
    if (c == '\t') {
      if (tabsize > 0) {
        int64_t spaces = tabsize - column % tabsize;
        out.insert(out.end(), static_cast<size_t>(spaces), ' ');
        column += spaces;
      }
    } else {
      out.push_back(c);
      column = c == '\n' || c == '\r' ? 0 : column + 1;
    }
  }
  return fromPoints(out);
}

MemInfo *taipan_str_pad(MemInfo *block, int64_t width, MemInfo *fillBlock, int32_t alignment) {
  uint32_t fill = ' ';
  if (fillBlock) {
    const StringData *f = stringOf(fillBlock);
    if (f->length != 1) {
      taipan_raise(TypeErrorId, "The fill character must be exactly one character long");
      return nullptr;
    }
    fill = at(f, 0);
  }
  CodePoints points = codePoints(stringOf(block));
  int64_t margin = width - static_cast<int64_t>(points.size());
  if (margin <= 0)
    return fromPoints(points);
  // CPython's center: the odd extra goes left when the margin and the width are both odd.
  int64_t left = alignment == 0 ? 0 : alignment == 1 ? margin : margin / 2 + (margin & width & 1);
  CodePoints out(static_cast<size_t>(left), fill);
  out.insert(out.end(), points.begin(), points.end());
  out.insert(out.end(), static_cast<size_t>(margin - left), fill);
  return fromPoints(out);
}

MemInfo *taipan_str_join(MemInfo *separator, MemInfo *const *items, int64_t count) {
  CodePoints between = codePoints(stringOf(separator));
  CodePoints out;
  for (int64_t i = 0; i < count; ++i) {
    if (i)
      out.insert(out.end(), between.begin(), between.end());
    CodePoints item = codePoints(stringOf(items[i]));
    out.insert(out.end(), item.begin(), item.end());
  }
  return fromPoints(out);
}

MemInfo *taipan_str_join_characters(MemInfo *separator, MemInfo *block) {
  CodePoints between = codePoints(stringOf(separator));
  CodePoints points = codePoints(stringOf(block));
  CodePoints out;
  for (size_t i = 0; i < points.size(); ++i) {
    if (i)
      out.insert(out.end(), between.begin(), between.end());
    out.push_back(points[i]);
  }
  return fromPoints(out);
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

MemInfo *taipan_str_format_int(int64_t value, MemInfo *specBlock) {
  FormatSpec spec;
  if (!parseSpec(specBlock, spec))
    return nullptr;
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits;
  std::string prefix = signPrefix(value < 0, spec.sign);
  switch (spec.type) {
  case 0:
  case 'd':
  case 'n':
    digits = formatPythonUInt(magnitude);
    break;
  case 'x':
  case 'X':
  case 'o':
  case 'b': {
    int base = spec.type == 'o' ? 8 : spec.type == 'b' ? 2 : 16;
    const char *alphabet = spec.type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
      digits.insert(digits.begin(), alphabet[magnitude % static_cast<unsigned>(base)]);
      magnitude /= static_cast<unsigned>(base);
    } while (magnitude);
    if (spec.alternate)
      prefix += spec.type == 'o' ? "0o" : spec.type == 'b' ? "0b" : spec.type == 'X' ? "0X" : "0x";
    break;
  }
  case 'c': {
    uint32_t c = static_cast<uint32_t>(value);
    return padFormatted(spec, "", CodePoints{c}, '<');
  }
  case 'e':
  case 'E':
  case 'f':
  case 'F':
  case 'g':
  case 'G':
  case '%':
    return taipan_str_format_float(static_cast<double>(value), specBlock);
  default:
    raiseWithMessage(ValueErrorId, std::string("Unknown format code '") + spec.type +
                                       "' for object of type 'int'");
    return nullptr;
  }
  if (spec.grouping) {
    if (spec.align == '=' && spec.fill == '0' && spec.width > 0) {
      // Zero padding grows the grouped digits themselves ("{:010,d}").
      int64_t target = spec.width - static_cast<int64_t>(prefix.size());
      while (static_cast<int64_t>(groupDigits(digits, spec.grouping).size()) < target)
        digits.insert(digits.begin(), '0');
    }
    digits = groupDigits(digits, spec.grouping);
  }
  return padFormatted(spec, prefix, asciiPoints(digits), '>');
}

MemInfo *taipan_str_format_float(double value, MemInfo *specBlock) {
  FormatSpec spec;
  if (!parseSpec(specBlock, spec))
    return nullptr;
  bool negative = std::signbit(value);
  double magnitude = std::fabs(value);
  std::string body;
  char type = spec.type;
  if (std::isnan(value) || std::isinf(value)) {
    body = std::isnan(value) ? "nan" : "inf";
    if (type == 'E' || type == 'F' || type == 'G')
      body = std::isnan(value) ? "NAN" : "INF";
    if (type == '%')
      body += '%';
  } else if (type == 0 && spec.precision < 0) {
    body = formatPythonFloat(magnitude);
  } else {
    int64_t precision = spec.precision < 0 ? 6 : spec.precision;
    char buffer[512];
    std::string format = "%";
    if (spec.alternate)
      format += '#';
    switch (type) {
    case 'f':
    case 'F':
    case 'e':
    case 'E':
      std::snprintf(buffer, sizeof buffer, (format + ".*" + type).c_str(),
                    static_cast<int>(precision), magnitude);
      body = buffer;
      break;
    case '%':
      std::snprintf(buffer, sizeof buffer, (format + ".*f").c_str(), static_cast<int>(precision),
                    magnitude * 100);
      body = std::string(buffer) + "%";
      break;
    case 'g':
    case 'G':
    case 0:
    case 'n': {
      if (precision == 0)
        precision = 1;
      std::snprintf(buffer, sizeof buffer, (format + ".*" + (type == 'G' ? 'G' : 'g')).c_str(),
                    static_cast<int>(precision), magnitude);
      body = buffer;
      // Python's general format without a type keeps at least one digit after the point.
      if (type == 0 && body.find_first_of(".eEn") == std::string::npos)
        body += ".0";
      break;
    }
    default:
      raiseWithMessage(ValueErrorId, std::string("Unknown format code '") + type +
                                         "' for object of type 'float'");
      return nullptr;
    }
  }
  if (spec.grouping) {
    size_t digitsEnd = body.find_first_not_of("0123456789");
    std::string integral = body.substr(0, digitsEnd);
    body = groupDigits(integral, spec.grouping) +
           (digitsEnd == std::string::npos ? "" : body.substr(digitsEnd));
  }
  return padFormatted(spec, signPrefix(negative && !std::isnan(value), spec.sign),
                      asciiPoints(body), '>');
}

MemInfo *taipan_str_format_str(MemInfo *block, MemInfo *specBlock) {
  FormatSpec spec;
  if (!parseSpec(specBlock, spec))
    return nullptr;
  if (spec.type && spec.type != 's') {
    raiseWithMessage(ValueErrorId, std::string("Unknown format code '") + spec.type +
                                       "' for object of type 'str'");
    return nullptr;
  }
  if (spec.align == '=') {
    taipan_raise(ValueErrorId, "'=' alignment not allowed in string format specifier");
    return nullptr;
  }
  CodePoints points = codePoints(stringOf(block));
  if (spec.precision >= 0 && static_cast<int64_t>(points.size()) > spec.precision)
    points.resize(static_cast<size_t>(spec.precision));
  return padFormatted(spec, "", points, '<');
}

MemInfo *taipan_str_repr(MemInfo *block) {
  const StringData *s = stringOf(block);
  CodePoints points = codePoints(s);
  bool hasSingle = std::find(points.begin(), points.end(), '\'') != points.end();
  bool hasDouble = std::find(points.begin(), points.end(), '"') != points.end();
  uint32_t quote = hasSingle && !hasDouble ? '"' : '\'';
  if (!s->ascii) {
    // Which characters are printable is CPython's (unicodedata) decision.
    MemInfo *result = nullptr;
    return callHook("__repr__", block, &result) < 0 ? nullptr : result;
  }
  CodePoints out{quote};
  for (uint32_t c : points) {
    if (c == quote || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out.push_back('\\');
      out.push_back(c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
    } else if (c < 32 || c == 127) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      for (char *p = buffer; *p; ++p)
        out.push_back(static_cast<unsigned char>(*p));
    } else {
      out.push_back(c);
    }
  }
  out.push_back(quote);
  return fromPoints(out);
}

/// Python's line boundaries (str.splitlines).
static bool isLineBreak(uint32_t c) {
  return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e) || c == 0x85 || c == 0x2028 ||
         c == 0x2029;
}

/// The [start, end) ranges of s.splitlines(keepends)'s pieces.
static void lineRanges(const StringData *s, bool keepends,
                       std::vector<std::pair<int64_t, int64_t>> &ranges) {
  int64_t n = s->length;
  for (int64_t i = 0; i < n;) {
    int64_t start = i;
    while (i < n && !isLineBreak(at(s, i)))
      ++i;
    int64_t end = i;
    if (i < n)
      i += (at(s, i) == '\r' && i + 1 < n && at(s, i + 1) == '\n') ? 2 : 1;
    ranges.push_back({start, keepends ? i : end});
  }
}

/// The [start, end) ranges of s.rsplit's pieces: split from the right, so maxsplit keeps the
/// first pieces whole.
static void rsplitRanges(const StringData *s, const StringData *sep, int64_t maxsplit,
                         std::vector<std::pair<int64_t, int64_t>> &ranges) {
  int64_t n = s->length;
  if (!sep) {
    int64_t i = n;
    while (true) {
      while (i > 0 && isSpace(at(s, i - 1)))
        --i;
      if (i <= 0)
        break;
      if (static_cast<int64_t>(ranges.size()) == maxsplit) {
        ranges.push_back({0, i}); // the rest keeps its leading whitespace, as in CPython
        break;
      }
      int64_t end = i;
      while (i > 0 && !isSpace(at(s, i - 1)))
        --i;
      ranges.push_back({i, end});
    }
  } else {
    int64_t end = n;
    for (int64_t i = n - sep->length; i >= 0;) {
      if (static_cast<int64_t>(ranges.size()) < maxsplit && matchesAt(s, i, sep)) {
        ranges.push_back({i + sep->length, end});
        end = i;
        i -= sep->length;
      } else {
        --i;
      }
    }
    ranges.push_back({0, end});
  }
  std::reverse(ranges.begin(), ranges.end());
}

/// The [start, end) ranges of s.split's (mode 0), s.rsplit's (1) or s.splitlines's (2, with
/// `maxsplit` as keepends) pieces.
static bool splitRanges(MemInfo *block, MemInfo *sepBlock, int64_t maxsplit, int32_t mode,
                        std::vector<std::pair<int64_t, int64_t>> &ranges) {
  const StringData *s = stringOf(block);
  if (mode == 2) {
    lineRanges(s, maxsplit != 0, ranges);
    return true;
  }
  if (maxsplit < 0)
    maxsplit = INT64_MAX;
  if (sepBlock && stringOf(sepBlock)->length == 0) {
    taipan_raise(ValueErrorId, "empty separator");
    return false;
  }
  if (mode == 1) {
    rsplitRanges(s, sepBlock ? stringOf(sepBlock) : nullptr, maxsplit, ranges);
    return true;
  }
  if (!sepBlock) {
    int64_t i = 0;
    int64_t n = s->length;
    while (true) {
      while (i < n && isSpace(at(s, i)))
        ++i;
      if (i >= n)
        break;
      if (static_cast<int64_t>(ranges.size()) == maxsplit) {
        ranges.push_back({i, n}); // the rest keeps its trailing whitespace, as in CPython
        break;
      }
      int64_t start = i;
      while (i < n && !isSpace(at(s, i)))
        ++i;
      ranges.push_back({start, i});
    }
    return true;
  }
  const StringData *sep = stringOf(sepBlock);
  int64_t start = 0;
  for (int64_t i = 0; i + sep->length <= s->length;) {
    if (static_cast<int64_t>(ranges.size()) < maxsplit && matchesAt(s, i, sep)) {
      ranges.push_back({start, i});
      i += sep->length;
      start = i;
    } else {
      ++i;
    }
  }
  ranges.push_back({start, s->length});
  return true;
}

int64_t taipan_str_split_count(MemInfo *s, MemInfo *sep, int64_t maxsplit, int32_t mode) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  return splitRanges(s, sep, maxsplit, mode, ranges) ? static_cast<int64_t>(ranges.size()) : -1;
}

int32_t taipan_str_split(MemInfo *block, MemInfo *sep, int64_t maxsplit, int32_t mode,
                         MemInfo **pieces) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  if (!splitRanges(block, sep, maxsplit, mode, ranges))
    return 1;
  for (size_t i = 0; i < ranges.size(); ++i) {
    pieces[i] = fromPoints(codePoints(stringOf(block), ranges[i].first, ranges[i].second));
    if (!pieces[i]) {
      for (size_t j = 0; j < i; ++j) {
        taipan_nrt_decref(pieces[j]);
        pieces[j] = nullptr;
      }
      return 1;
    }
  }
  return 0;
}
}
