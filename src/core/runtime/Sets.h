// The run-time part of sets in compiled code: the header of a set's memory block, a hash table
// laid out and probed as CPython's Objects/setobject.c does, so iteration order is CPython's.
#pragma once

#include "runtime/HashedKeys.h"
#include "runtime/MemoryRuntime.h"

#include <cstdint>
#include <cstring>

namespace taipan::runtime {

/// The data of a set's memory block. Lowering reads `size` inline, so it stays first. The table
/// holds `mask + 1` entries `{int64 hash, int64 state, key}` (state 0 unused, 1 active, 2 a
/// dummy left by a removal), probed as CPython probes: LINEAR_PROBES neighbours, then
/// `i = 5i + 1 + perturb`.
struct SetHeader {
  int64_t size;   ///< active entries (CPython's `used`)
  int64_t fill;   ///< active and dummy entries
  int64_t mask;   ///< table size minus one (a power of two minus one, at least 7)
  int64_t finger; ///< where pop() looks first
  char *table;
  int64_t keySize, entrySize;
  int64_t plainInt64; ///< 1 when the key is one int64 (hashed and compared inline)
  int64_t keyReferenceCount;
  int64_t keyReferences[DictMaxReferences];
  int64_t keyDescriptionLength;
  int64_t keyDescription[DictMaxKeyDescription];
};
constexpr size_t SetSizeOffset = 0;
constexpr int64_t SetEntryKeyOffset = 16;

/// The header of a set's block.
inline SetHeader *setHeader(MemInfo *block) { return static_cast<SetHeader *>(block->data); }
/// Whether table slot `index` is unused (0), active (1) or a dummy (2).
inline int64_t setSlotState(const SetHeader *header, int64_t index) {
  int64_t state;
  std::memcpy(&state, header->table + index * header->entrySize + 8, sizeof(state));
  return state;
}
/// The hash stored in table slot `index`.
inline int64_t setSlotHash(const SetHeader *header, int64_t index) {
  int64_t hash;
  std::memcpy(&hash, header->table + index * header->entrySize, sizeof(hash));
  return hash;
}

/// The set operations taipan_set_combine and taipan_set_combine_into perform.
enum SetOperation : int32_t {
  SetUnion = 0,
  SetIntersection = 1,
  SetDifference = 2,
  SetSymmetricDifference = 3,
  SetReplace = 4, ///< in place only: `a` takes `b`'s table (and `b` a's), as set_swap_bodies
};

} // namespace taipan::runtime

extern "C" {
using taipan::runtime::MemInfo;
/// A new empty set. `layout` is `[keySize, n, key reference offsets (n), k, key description
/// (k)]` (runtime/HashedKeys.h). Null with MemoryError pending on failure.
MemInfo *taipan_set_new(const int64_t *layout);
/// A new set with the keys of `set` (references retained), as CPython's set.copy() lays it out.
MemInfo *taipan_set_copy(MemInfo *set);
/// Whether `key` is in the set.
int32_t taipan_set_contains(MemInfo *set, const void *key);
/// s.add(key): the key is copied and retained when it is new. Returns 0, or 1 with MemoryError
/// pending.
int32_t taipan_set_add(MemInfo *set, const void *key);
/// s.discard(key): 1 when the key was there (it is released).
int32_t taipan_set_discard(MemInfo *set, const void *key);
/// s.pop(): moves a key (owned by the caller) to `keyOut` and returns 0; on an empty set returns
/// 1 with KeyError('pop from an empty set') pending.
int32_t taipan_set_pop(MemInfo *set, void *keyOut);
/// s.clear().
void taipan_set_clear(MemInfo *set);
/// A new set: `a | b`, `a & b`, `a - b` or `a ^ b` (SetOperation), computed as CPython does.
/// Null with MemoryError pending on failure.
MemInfo *taipan_set_combine(MemInfo *a, MemInfo *b, int32_t operation);
/// `a |= b` (update), `&=`, `-=` or `^=` in place. Returns 0, or 1 with MemoryError pending.
int32_t taipan_set_combine_into(MemInfo *a, MemInfo *b, int32_t operation);
/// a.issubset(b) (`relation` 0) or a.isdisjoint(b) (1).
int32_t taipan_set_relation(MemInfo *a, MemInfo *b, int32_t relation);
/// A new list (runtime/Lists.h) of the keys in iteration order, retained; the list's items are
/// the keys, holding references at `offsets`.
MemInfo *taipan_set_to_list(MemInfo *set, const int64_t *offsets, int64_t offsetCount);
/// The key in table slot `index` (up to the mask), or null when the slot holds none.
char *taipan_set_slot(MemInfo *set, int64_t index);
/// Gives an empty set a zeroed table of `mask + 1` entries and pop's finger: the first step of
/// copying a CPython set's exact layout. Returns 0, or 1 with MemoryError pending.
int32_t taipan_set_reserve_layout(MemInfo *set, int64_t mask, int64_t finger);
/// Writes table slot `index` of such a table: the key (retained, hashed here), or a dummy when
/// `key` is null.
void taipan_set_place(MemInfo *set, int64_t index, const void *key);
/// Raises KeyError(key) for s.remove() of a missing key.
void taipan_set_key_error(MemInfo *set, const void *key);
}

/// The symbols of the set runtime, for the JIT's table (runtime/Runtime.cpp).
#define TAIPAN_SET_SYMBOLS                                                                         \
  TAIPAN_SYMBOL(taipan_set_new), TAIPAN_SYMBOL(taipan_set_copy),                                   \
      TAIPAN_SYMBOL(taipan_set_contains), TAIPAN_SYMBOL(taipan_set_add),                           \
      TAIPAN_SYMBOL(taipan_set_discard), TAIPAN_SYMBOL(taipan_set_pop),                            \
      TAIPAN_SYMBOL(taipan_set_clear), TAIPAN_SYMBOL(taipan_set_combine),                          \
      TAIPAN_SYMBOL(taipan_set_combine_into), TAIPAN_SYMBOL(taipan_set_relation),                  \
      TAIPAN_SYMBOL(taipan_set_to_list), TAIPAN_SYMBOL(taipan_set_slot),                           \
      TAIPAN_SYMBOL(taipan_set_reserve_layout), TAIPAN_SYMBOL(taipan_set_place),                   \
      TAIPAN_SYMBOL(taipan_set_key_error)
