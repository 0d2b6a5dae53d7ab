// The memory of jitclass instances: one reference-counted block per instance holding its fields
// (laid out as the tuple of their types), released field by field when the last reference goes.
#pragma once

#include "runtime/MemoryRuntime.h"

#include <cstdint>

extern "C" {
/// A new instance block: `fieldBytes` zeroed bytes for the fields, followed by the `count`
/// byte offsets (inside the fields) of the memory-block pointers they hold, which the block's
/// destructor releases. Returns null with MemoryError pending when memory cannot be had.
taipan::runtime::MemInfo *taipan_jitclass_new(int64_t fieldBytes, const int64_t *offsets,
                                              int64_t count);
/// Gives each array at `offsets` inside the field value at `field` that is borrowed from a
/// Python argument (no block of its own) a block keeping its ndarray alive: an instance may
/// outlive the call that stored the array.
void taipan_jitclass_adopt(char *field, const int64_t *offsets, int64_t count);
}
