// CPython's hash, == and repr of hashed-container keys from their description
// (runtime/HashedKeys.h), shared by dicts and sets so that both agree with hash().
#include "runtime/HashedKeys.h"

#include "runtime/FloatFormat.h"
#include "runtime/Strings.h"

#include <cmath>

namespace taipan::runtime {
namespace {

constexpr uint64_t HashModulus = (uint64_t{1} << 61) - 1;

int64_t hashSigned(int64_t value) { return hashPythonInt(value); }

/// CPython's _Py_HashDouble; NaN hashes to 0 as in taipan.hashing and Numba.
int64_t hashDouble(double value) {
  if (std::isinf(value))
    return value > 0 ? 314159 : -314159;
  if (std::isnan(value))
    return 0;
  int exponent;
  double mantissa = std::frexp(value, &exponent);
  int sign = 1;
  if (mantissa < 0) {
    sign = -1;
    mantissa = -mantissa;
  }
  uint64_t x = 0;
  while (mantissa != 0) {
    x = ((x << 28) & HashModulus) | x >> (61 - 28);
    mantissa *= 268435456.0;
    exponent -= 28;
    auto y = static_cast<uint64_t>(mantissa);
    mantissa -= static_cast<double>(y);
    x += y;
    if (x >= HashModulus)
      x -= HashModulus;
  }
  exponent = exponent >= 0 ? exponent % 61 : 61 - 1 - ((-1 - exponent) % 61);
  x = ((x << exponent) & HashModulus) | x >> (61 - exponent);
  x = x * static_cast<uint64_t>(static_cast<int64_t>(sign));
  if (x == static_cast<uint64_t>(-1))
    x = static_cast<uint64_t>(-2);
  return static_cast<int64_t>(x);
}

double readFloat(const char *at, int64_t code) {
  return (code & 15) == 4 ? static_cast<double>(readAt<float>(at)) : readAt<double>(at);
}

int64_t readSigned(const char *at, int64_t code) {
  switch (code & 15) {
  case 1:
    return readAt<int8_t>(at);
  case 2:
    return readAt<int16_t>(at);
  case 4:
    return readAt<int32_t>(at);
  default:
    return readAt<int64_t>(at);
  }
}

uint64_t readUnsigned(const char *at, int64_t code) {
  switch (code & 15) {
  case 1:
    return readAt<uint8_t>(at);
  case 2:
    return readAt<uint16_t>(at);
  case 4:
    return readAt<uint32_t>(at);
  default:
    return readAt<uint64_t>(at);
  }
}

} // namespace

int64_t hashKey(const int64_t *description, int64_t &at, const char *key) {
  int64_t code = description[at++];
  if (code == DictKeyTuple) {
    // CPython's tuple hash (xxHash's round), in Py_uhash_t arithmetic.
    int64_t count = description[at++];
    const uint64_t prime1 = 11400714785074694791ULL, prime2 = 14029467366897019727ULL,
                   prime5 = 2870177450012600261ULL;
    uint64_t accumulator = prime5;
    for (int64_t i = 0; i < count; ++i) {
      auto lane = static_cast<uint64_t>(hashKey(description, at, key));
      accumulator += lane * prime2;
      accumulator = (accumulator << 31) | (accumulator >> 33);
      accumulator *= prime1;
    }
    accumulator += static_cast<uint64_t>(count) ^ (prime5 ^ 3527539ULL);
    if (accumulator == static_cast<uint64_t>(-1))
      return 1546275796;
    return static_cast<int64_t>(accumulator);
  }
  const char *field = key + description[at++];
  switch (code & ~int64_t{15}) {
  case DictKeySigned:
    return hashSigned(readSigned(field, code));
  case DictKeyUnsigned:
    return static_cast<int64_t>(readUnsigned(field, code) % HashModulus);
  case DictKeyFloat:
    return hashDouble(readFloat(field, code));
  case DictKeyBool:
    return readAt<uint8_t>(field) ? 1 : 0;
  default:
    return taipan_str_hash(readAt<MemInfo *>(field));
  }
}

bool keysEqual(const int64_t *description, int64_t &at, const char *a, const char *b) {
  int64_t code = description[at++];
  if (code == DictKeyTuple) {
    int64_t count = description[at++];
    bool equal = true;
    for (int64_t i = 0; i < count; ++i)
      equal = keysEqual(description, at, a, b) && equal; // walks every element's description
    return equal;
  }
  int64_t offset = description[at++];
  switch (code & ~int64_t{15}) {
  case DictKeyFloat:
    return readFloat(a + offset, code) == readFloat(b + offset, code);
  case DictKeyString: {
    MemInfo *left = readAt<MemInfo *>(a + offset), *right = readAt<MemInfo *>(b + offset);
    return left == right || taipan_str_compare(left, right) == 0;
  }
  default: {
    // Integers and booleans: their bytes. Each width is its own fixed-size compare, which the
    // compiler inlines (a memcmp call of a run-time size was 15% of an int-keyed word count).
    const char *left = a + offset, *right = b + offset;
    switch (code & 15) {
    case 8:
      return readAt<uint64_t>(left) == readAt<uint64_t>(right);
    case 4:
      return readAt<uint32_t>(left) == readAt<uint32_t>(right);
    case 2:
      return readAt<uint16_t>(left) == readAt<uint16_t>(right);
    case 1:
      return readAt<uint8_t>(left) == readAt<uint8_t>(right);
    default:
      return std::memcmp(left, right, static_cast<size_t>(code & 15)) == 0;
    }
  }
  }
}

std::string keyRepr(const int64_t *description, int64_t &at, const char *key) {
  int64_t code = description[at++];
  if (code == DictKeyTuple) {
    int64_t count = description[at++];
    std::string text = "(";
    for (int64_t i = 0; i < count; ++i)
      text += (i ? ", " : "") + keyRepr(description, at, key);
    return text + (count == 1 ? ",)" : ")");
  }
  const char *field = key + description[at++];
  switch (code & ~int64_t{15}) {
  case DictKeySigned:
    return formatPythonInt(readSigned(field, code));
  case DictKeyUnsigned:
    return formatPythonUInt(readUnsigned(field, code));
  case DictKeyFloat:
    return formatPythonFloat(readFloat(field, code));
  case DictKeyBool:
    return readAt<uint8_t>(field) ? "True" : "False";
  default: {
    MemInfo *repr = taipan_str_repr(readAt<MemInfo *>(field));
    if (!repr)
      return "?";
    std::string text = toUtf8(repr);
    taipan_nrt_decref(repr);
    return text;
  }
  }
}

} // namespace taipan::runtime
