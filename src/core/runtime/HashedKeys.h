// The keys of hashed containers (dicts and sets): how lowering describes a key's memory form to
// the runtime, and CPython's hash, == and repr of a key computed from that description.
#pragma once

#include "runtime/MemoryRuntime.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace taipan::runtime {

/// The most reference-holding fields a key or a value may have.
constexpr int64_t DictMaxReferences = 8;
/// The longest key description (see DictKeyCode).
constexpr int64_t DictMaxKeyDescription = 48;

/// How a key is described to the runtime, which hashes, compares and prints keys itself: a
/// preorder list of int64s, `[code, byte offset]` for a scalar and `[DictKeyTuple, count]`
/// followed by the elements for a tuple. A scalar's code is its kind times 16 plus its size.
enum DictKeyCode : int64_t {
  DictKeySigned = 1 << 4,   ///< a signed integer of 1, 2, 4 or 8 bytes
  DictKeyUnsigned = 2 << 4, ///< an unsigned integer
  DictKeyFloat = 3 << 4,    ///< a float of 4 or 8 bytes
  DictKeyBool = 4 << 4,     ///< one byte, 0 or 1
  DictKeyString = 5 << 4,   ///< a string's memory block (runtime/Strings.h)
  DictKeyTuple = 6 << 4,
};

/// A value of type T read from possibly unaligned memory.
template <typename T> T readAt(const char *at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

/// CPython's hash() of an int (mod 2**61 - 1, -1 becoming -2).
inline int64_t hashPythonInt(int64_t value) {
  constexpr uint64_t modulus = (uint64_t{1} << 61) - 1;
  uint64_t magnitude =
      value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  auto hash = static_cast<int64_t>(magnitude % modulus);
  if (value < 0)
    hash = -hash;
  return hash == -1 ? -2 : hash;
}

/// Whether a key description is one int64 at offset 0, the case hashed containers test first.
inline bool isPlainInt64Key(const int64_t *description, int64_t length) {
  return length == 2 && description[0] == (DictKeySigned | 8) && description[1] == 0;
}

/// CPython's hash() of the key part described at `description[at]`; `at` moves past it.
int64_t hashKey(const int64_t *description, int64_t &at, const char *key);
/// Python's == of two keys of one type (floats by value: -0.0 equals 0.0, NaN equals nothing);
/// `at` moves past the description.
bool keysEqual(const int64_t *description, int64_t &at, const char *a, const char *b);
/// repr(key), for KeyError; `at` moves past the description.
std::string keyRepr(const int64_t *description, int64_t &at, const char *key);

/// Calls `action` (incref or decref) on each block reference at `offsets` inside `at`.
inline void forEachReference(const int64_t *offsets, int64_t count, const char *at,
                             void (*action)(MemInfo *)) {
  for (int64_t k = 0; k < count; ++k)
    action(readAt<MemInfo *>(at + offsets[k]));
}

} // namespace taipan::runtime
