// The run-time part of dicts in compiled code: the header of a dict's memory block (CPython's
// compact layout: an index table probed by hash, and an insertion-ordered entry array).
#pragma once

#include "runtime/HashedKeys.h"
#include "runtime/MemoryRuntime.h"

#include <cstdint>

namespace taipan::runtime {

/// The data of a dict's memory block. Lowering reads `size` inline, so it stays first. An entry
/// is `{int64 hash, int64 live, key, value}`; deleted entries stay (not live) until the table
/// is rebuilt, so iteration order is insertion order, as in CPython.
struct DictHeader {
  int64_t size;     ///< live entries
  int64_t used;     ///< entries written, deleted ones included
  int64_t capacity; ///< entries the entry array holds (two thirds of the index table)
  int64_t mask;     ///< index table size minus one (a power of two minus one)
  int64_t *indices; ///< entry numbers; -1 empty, -2 deleted
  char *entries;
  int64_t keySize, valueSize, entrySize, valueOffset;
  int64_t keyReferenceCount;
  int64_t keyReferences[DictMaxReferences];
  int64_t valueReferenceCount;
  int64_t valueReferences[DictMaxReferences];
  int64_t keyDescriptionLength;
  int64_t keyDescription[DictMaxKeyDescription];
};
constexpr size_t DictSizeOffset = 0;
constexpr size_t DictUsedOffset = 8;
constexpr int64_t DictEntryKeyOffset = 16;

/// The header of a dict's block.
inline DictHeader *dictHeader(MemInfo *block) { return static_cast<DictHeader *>(block->data); }

} // namespace taipan::runtime

extern "C" {
using taipan::runtime::MemInfo;
/// A new empty dict. `layout` is `[keySize, valueSize, n, key reference offsets (n), m, value
/// reference offsets (m), k, key description (k)]`. Null with MemoryError pending on failure.
MemInfo *taipan_dict_new(const int64_t *layout);
/// A new dict with the entries of `dict` (references retained), in order and compacted.
MemInfo *taipan_dict_copy(MemInfo *dict);
/// The value slot of `key` (borrowed; valid until the dict changes), or null when absent.
char *taipan_dict_get(MemInfo *dict, const void *key);
/// d[key] = value: copies the key (retained) when it is new; takes over the value's references
/// and releases the old value's. Returns 0, or 1 with MemoryError pending.
int32_t taipan_dict_set(MemInfo *dict, const void *key, const void *value);
/// Removes `key`: 1 when it was there. With `valueOut`, the value moves there (the caller owns
/// its references); otherwise it is released. The key is released.
int32_t taipan_dict_pop(MemInfo *dict, const void *key, void *valueOut);
/// Removes the last entry, moving its key and value out (owned by the caller): 1, or 0 when
/// the dict is empty.
int32_t taipan_dict_popitem(MemInfo *dict, void *keyOut, void *valueOut);
/// Releases every entry.
void taipan_dict_clear(MemInfo *dict);
/// d.update(other) for dicts of one type. Returns 0, or 1 with MemoryError pending.
int32_t taipan_dict_update(MemInfo *dict, MemInfo *other);
/// A new list (runtime/Lists.h) of the keys (`which` 0), the values (1) or (key, value) tuples
/// (2) in order, retained: items of `itemSize` bytes with the key at `keyAt` and the value at
/// `valueAt` (either -1 when absent), holding references at `offsets`.
MemInfo *taipan_dict_to_list(MemInfo *dict, int64_t itemSize, int64_t keyAt, int64_t valueAt,
                             const int64_t *offsets, int64_t offsetCount);
/// The key (`wantValue` 0) or value slot of the entry at `index` (below `used`), or null when
/// that entry was deleted: how lowering walks a dict's entries in order.
char *taipan_dict_entry(MemInfo *dict, int64_t index, int32_t wantValue);
/// Raises KeyError(key) for a missing key (the message carries the key's repr).
void taipan_dict_key_error(MemInfo *dict, const void *key);
}

/// The symbols of the dict runtime, for the JIT's table (runtime/Runtime.cpp).
#define TAIPAN_DICT_SYMBOLS                                                                        \
  TAIPAN_SYMBOL(taipan_dict_new), TAIPAN_SYMBOL(taipan_dict_copy), TAIPAN_SYMBOL(taipan_dict_get), \
      TAIPAN_SYMBOL(taipan_dict_set), TAIPAN_SYMBOL(taipan_dict_pop),                              \
      TAIPAN_SYMBOL(taipan_dict_popitem), TAIPAN_SYMBOL(taipan_dict_clear),                        \
      TAIPAN_SYMBOL(taipan_dict_update), TAIPAN_SYMBOL(taipan_dict_to_list),                       \
      TAIPAN_SYMBOL(taipan_dict_entry), TAIPAN_SYMBOL(taipan_dict_key_error)
