// The string runtime's methods: case mapping, predicates, strip, find and count, replace,
// padding, join and the split family, on CPython's str representation (runtime/Strings.h).
#include "runtime/Runtime.h"
#include "runtime/StringCodePoints.h"
#include "runtime/Strings.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace taipan;
using namespace taipan::runtime;
using namespace taipan::runtime::strings;

namespace {
/// Clamps [start, end) to `s` as a slice would and says whether `part` fits in that window:
/// the first step of find, count and startswith, which answer "absent" when it does not.
bool clampWindowFits(const StringData *s, const StringData *part, int64_t &start, int64_t &end,
                     int32_t given) {
  clampBounds(s->length, start, end, given);
  return start <= s->length && end - start >= part->length;
}
} // namespace

extern "C" {

MemInfo *taipan_str_case(MemInfo *block, int32_t operation) {
  static const char *names[] = {"upper", "lower", "swapcase", "title", "capitalize", "casefold"};
  const StringData *s = stringOf(block);
  if (!s->ascii) {
    MemInfo *result = nullptr;
    return callMethodHook(names[operation], block, &result) < 0 ? nullptr : result;
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
    return callMethodHook(names[operation], block, &unused);
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
  if (!clampWindowFits(s, sub, start, end, given))
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
  if (!clampWindowFits(s, sub, start, end, given))
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
  if (!clampWindowFits(s, part, start, end, given))
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
  // One pass for the length and the widest kind, one to copy the bytes.
  const StringData *between = stringOf(separator);
  int kind = count > 1 ? between->kind : 1;
  bool ascii = count <= 1 || between->ascii;
  int64_t length = count > 1 ? between->length * (count - 1) : 0;
  for (int64_t i = 0; i < count; ++i) {
    const StringData *item = stringOf(items[i]);
    kind = std::max(kind, item->kind);
    ascii = ascii && item->ascii;
    length += item->length;
  }
  MemInfo *block = newStringOfKind(length, kind, ascii);
  if (!block)
    return nullptr;
  unsigned char *out = stringOf(block)->bytes;
  for (int64_t i = 0; i < count; ++i) {
    if (i)
      out = copyWidened(out, kind, between);
    out = copyWidened(out, kind, stringOf(items[i]));
  }
  return block;
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
