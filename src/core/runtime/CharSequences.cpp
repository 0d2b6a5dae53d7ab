// Fixed-width strings meeting string values: reading a `<U n` item as a str, writing a str into
// one, with NumPy's rules (trailing NULs dropped on reading; truncation and NUL padding on
// writing).
#include "runtime/CharSequences.h"

#include "runtime/StringCodePoints.h"
#include "runtime/Strings.h"

#include <cstring>

using namespace taipan::runtime;

extern "C" {

MemInfo *taipan_charseq_to_str(const uint32_t *data, int64_t length) {
  while (length > 0 && data[length - 1] == 0)
    --length;
  return makeString(data, length);
}

void taipan_charseq_from_str(MemInfo *s, uint32_t *data, int64_t length) {
  const StringData *string = stringOf(s);
  int64_t copied = string->length < length ? string->length : length;
  for (int64_t i = 0; i < copied; ++i)
    data[i] = strings::at(string, i);
  std::memset(data + copied, 0, static_cast<size_t>(length - copied) * sizeof(uint32_t));
}
}
