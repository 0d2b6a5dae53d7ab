// The string runtime's formatting: Python's format-spec mini-language for ints, floats and
// strings (f-strings, str.format, format()), and repr() of a string.
#include "runtime/FloatFormat.h"
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

} // namespace

extern "C" {

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
    return callMethodHook("__repr__", block, &result) < 0 ? nullptr : result;
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
}
