// Fixed-width strings (NumPy's `<U n` items, Numba's UnicodeCharSeq) meeting string values:
// the two conversions compiled code calls, reading an item as a str and writing a str into one.
#pragma once

#include "runtime/MemoryRuntime.h"

#include <cstdint>

extern "C" {
/// A new string of the `length` UCS4 code points at `data`, without the trailing NULs that pad
/// the item (NumPy drops them on reading); null with MemoryError pending.
taipan::runtime::MemInfo *taipan_charseq_to_str(const uint32_t *data, int64_t length);
/// Writes the string `s` into the `length` code points at `data`: its first `length` code
/// points, NULs after them (NumPy's truncation and padding on assignment).
void taipan_charseq_from_str(taipan::runtime::MemInfo *s, uint32_t *data, int64_t length);
}

/// The symbols of the fixed-width string runtime, for the JIT's table (runtime/Runtime.cpp).
#define TAIPAN_CHARSEQ_SYMBOLS                                                                     \
  TAIPAN_SYMBOL(taipan_charseq_to_str), TAIPAN_SYMBOL(taipan_charseq_from_str)
