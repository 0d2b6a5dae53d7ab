// Code-point helpers shared by the string runtime's files (Strings.cpp, StringMethods.cpp,
// StringFormat.cpp): reading a str of any kind, building one, whitespace and bounds rules.
#pragma once

#include "runtime/Strings.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace taipan::runtime::strings {

using CodePoints = std::vector<uint32_t>;

/// The code point at `i` of a string of kind 1, 2 or 4.
uint32_t at(const StringData *s, int64_t i);
/// The code points in [start, end) (`end` < 0: to the end).
CodePoints codePoints(const StringData *s, int64_t start = 0, int64_t end = -1);
/// A new string of these code points (null with MemoryError pending).
MemInfo *fromPoints(const CodePoints &points);
/// A new string of ASCII text.
MemInfo *fromAscii(std::string_view text);
/// A new string of `length` code points of `kind` (canonical for them: the caller's promise),
/// its terminator written and its code points left to fill; null with MemoryError pending.
MemInfo *newStringOfKind(int64_t length, int kind, bool ascii);
/// Stores code point `c` at index `i` of `bytes`, a string's data of `kind`.
void putCodePoint(unsigned char *bytes, int kind, int64_t i, uint32_t c);
/// Copies `source`'s code points into `target`, of `kind` (at least the source's); returns the
/// end of what it wrote.
unsigned char *copyWidened(unsigned char *target, int kind, const StringData *source);
bool isAsciiSpace(uint32_t c);
/// CPython's whitespace (str.isspace and str.split()): ASCII's, and the Unicode spaces.
bool isSpace(uint32_t c);
/// Clamps [start, end) to a length as a slice would (negative counting from the end); bit 0
/// of `given` says start was given, bit 1 end.
void clampBounds(int64_t length, int64_t &start, int64_t &end, int32_t given);
/// Whether `part` occurs in `s` at `position`.
bool matchesAt(const StringData *s, int64_t position, const StringData *part);
/// Runs the interpreter's method for a non-ASCII string; -1 with RuntimeError pending when no
/// hook is installed.
int32_t callMethodHook(const char *method, MemInfo *s, MemInfo **result);

} // namespace taipan::runtime::strings
