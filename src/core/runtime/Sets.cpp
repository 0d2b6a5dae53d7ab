// Sets in compiled code (runtime/Sets.h): CPython's set table (Objects/setobject.c), with the
// same table sizes, linear probes, perturbation, dummies, growth rule and pop finger, and keys
// hashed as CPython hashes them (runtime/HashedKeys.h), so iteration order is CPython's.
#include "runtime/Sets.h"

#include "runtime/Lists.h"
#include "runtime/Runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

using taipan::runtime::SetHeader;
using taipan::runtime::setHeader;

namespace {

using namespace taipan::runtime;

constexpr int64_t MinimumSize = 8;   ///< PySet_MINSIZE
constexpr uint64_t LinearProbes = 9; ///< LINEAR_PROBES
constexpr int PerturbShift = 5;      ///< PERTURB_SHIFT
constexpr int64_t Unused = 0, Active = 1, Dummy = 2;

char *entryAt(const SetHeader *header, uint64_t index) {
  return header->table + index * static_cast<uint64_t>(header->entrySize);
}
int64_t &entryHash(char *entry) { return *reinterpret_cast<int64_t *>(entry); }
int64_t &entryState(char *entry) { return *reinterpret_cast<int64_t *>(entry + 8); }
char *keyOf(char *entry) { return entry + SetEntryKeyOffset; }

void releaseKey(const SetHeader *header, const char *key) {
  forEachReference(header->keyReferences, header->keyReferenceCount, key, taipan_nrt_decref);
}
void retainKey(const SetHeader *header, const char *key) {
  forEachReference(header->keyReferences, header->keyReferenceCount, key, taipan_nrt_incref);
}

int64_t hashOf(const SetHeader *header, const void *key) {
  if (header->plainInt64)
    return hashPythonInt(readAt<int64_t>(static_cast<const char *>(key)));
  int64_t at = 0;
  return hashKey(header->keyDescription, at, static_cast<const char *>(key));
}

bool equalKeys(const SetHeader *header, const char *a, const void *b) {
  if (header->plainInt64)
    return std::memcmp(a, b, 8) == 0;
  int64_t at = 0;
  return keysEqual(header->keyDescription, at, a, static_cast<const char *>(b));
}

/// A zeroed table of `size` entries, or null with MemoryError pending.
char *newTable(const SetHeader *header, int64_t size) {
  auto *table = static_cast<char *>(
      std::calloc(static_cast<size_t>(size), static_cast<size_t>(header->entrySize)));
  if (!table)
    taipan_raise(taipan::MemoryErrorId, "cannot grow the set");
  return table;
}

/// The entry holding `key`, or the unused entry ending its probe sequence (set_lookkey).
char *lookup(const SetHeader *header, const void *key, int64_t hash) {
  auto mask = static_cast<uint64_t>(header->mask);
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t i = perturb & mask;
  for (;;) {
    char *entry = entryAt(header, i);
    uint64_t probes = i + LinearProbes <= mask ? LinearProbes : 0;
    for (;;) {
      if (entryState(entry) == Unused)
        return entry;
      if (entryState(entry) == Active && entryHash(entry) == hash &&
          equalKeys(header, keyOf(entry), key))
        return entry;
      entry += header->entrySize;
      if (probes-- == 0)
        break;
    }
    perturb >>= PerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

/// Places a key known to be absent into a table without dummies (set_insert_clean).
void insertClean(SetHeader *header, const char *key, int64_t hash) {
  auto mask = static_cast<uint64_t>(header->mask);
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t i = perturb & mask;
  for (;;) {
    char *entry = entryAt(header, i);
    if (entryState(entry) == Unused)
      goto found;
    if (i + LinearProbes <= mask) {
      for (uint64_t j = 0; j < LinearProbes; ++j) {
        entry += header->entrySize;
        if (entryState(entry) == Unused)
          goto found;
      }
    }
    perturb >>= PerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
    continue;
  found:
    entryHash(entry) = hash;
    entryState(entry) = Active;
    std::memcpy(keyOf(entry), key, static_cast<size_t>(header->keySize));
    return;
  }
}

/// Rebuilds the table with the smallest size above `minimumUsed` (set_table_resize); the keys
/// move (their references with them).
bool resize(SetHeader *header, int64_t minimumUsed) {
  int64_t size = MinimumSize;
  while (size <= minimumUsed)
    size <<= 1;
  char *table = newTable(header, size);
  if (!table)
    return false;
  char *old = header->table;
  int64_t oldSize = header->mask + 1;
  header->table = table;
  header->mask = size - 1;
  header->fill = header->size;
  for (int64_t i = 0; i < oldSize; ++i) {
    char *entry = old + i * header->entrySize;
    if (entryState(entry) == Active)
      insertClean(header, keyOf(entry), entryHash(entry));
  }
  std::free(old);
  return true;
}

/// The growth rule after an insertion into an unused entry.
bool growIfFull(SetHeader *header) {
  if (header->fill * 5 < header->mask * 3)
    return true;
  return resize(header, header->size > 50000 ? header->size * 2 : header->size * 4);
}

/// set_add_entry: `key` (not yet retained) goes in when absent; `retain` copies its references.
/// Returns 0, or 1 with MemoryError pending.
int32_t addEntry(SetHeader *header, const void *key, int64_t hash, bool retain = true) {
  auto mask = static_cast<uint64_t>(header->mask);
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t i = perturb & mask;
  char *freeSlot = nullptr;
  char *entry;
  for (;;) {
    entry = entryAt(header, i);
    uint64_t probes = i + LinearProbes <= mask ? LinearProbes : 0;
    for (;;) {
      if (entryState(entry) == Unused)
        goto unusedOrDummy;
      if (entryState(entry) == Active) {
        if (entryHash(entry) == hash && equalKeys(header, keyOf(entry), key))
          return 0; // already there
      } else {
        freeSlot = entry; // the last dummy on the probe sequence, as CPython 3.11 finds it
      }
      entry += header->entrySize;
      if (probes-- == 0)
        break;
    }
    perturb >>= PerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
unusedOrDummy:
  char *into = freeSlot ? freeSlot : entry;
  entryHash(into) = hash;
  entryState(into) = Active;
  std::memcpy(keyOf(into), key, static_cast<size_t>(header->keySize));
  if (retain)
    retainKey(header, keyOf(into));
  ++header->size;
  if (freeSlot)
    return 0;
  ++header->fill;
  return growIfFull(header) ? 0 : 1;
}

/// set_discard_entry: 1 when the key was there (released, its entry a dummy).
int32_t discardEntry(SetHeader *header, const void *key, int64_t hash) {
  char *entry = lookup(header, key, hash);
  if (entryState(entry) != Active)
    return 0;
  releaseKey(header, keyOf(entry));
  entryState(entry) = Dummy;
  entryHash(entry) = -1;
  --header->size;
  return 1;
}

bool containsEntry(const SetHeader *header, const void *key, int64_t hash) {
  return entryState(lookup(header, key, hash)) == Active;
}

/// Calls `action(entry)` for each active entry in table order (set_next).
template <typename Action> bool forEachEntry(const SetHeader *header, Action action) {
  for (int64_t i = 0; i <= header->mask; ++i) {
    char *entry = entryAt(header, static_cast<uint64_t>(i));
    if (entryState(entry) == Active && !action(entry))
      return false;
  }
  return true;
}

void destroySet(void *data, void *) {
  auto *header = static_cast<SetHeader *>(data);
  forEachEntry(header, [&](char *entry) {
    releaseKey(header, keyOf(entry));
    return true;
  });
  std::free(header->table);
}

/// An empty set of the same key type as `model`.
MemInfo *newSetLike(const SetHeader *model) {
  MemInfo *block = taipan_nrt_allocate_with_destructor(sizeof(SetHeader), destroySet, nullptr);
  if (!block)
    return nullptr;
  SetHeader *header = setHeader(block);
  std::memcpy(header, model, sizeof(SetHeader));
  header->size = header->fill = header->finger = 0;
  header->mask = MinimumSize - 1;
  header->table = newTable(header, MinimumSize);
  if (!header->table) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  return block;
}

/// Empties the set to the minimum table (set_clear_internal; the finger stays).
void clearSet(SetHeader *header) {
  char *old = header->table;
  int64_t oldSize = header->mask + 1;
  char *table = newTable(header, MinimumSize);
  if (!table) { // keep the old table, emptied in place
    forEachEntry(header, [&](char *entry) {
      releaseKey(header, keyOf(entry));
      return true;
    });
    std::memset(old, 0, static_cast<size_t>(oldSize * header->entrySize));
    header->size = header->fill = 0;
    return;
  }
  header->table = table;
  header->mask = MinimumSize - 1;
  header->size = header->fill = 0;
  for (int64_t i = 0; i < oldSize; ++i) {
    char *entry = old + i * header->entrySize;
    if (entryState(entry) == Active)
      releaseKey(header, keyOf(entry));
  }
  std::free(old);
}

/// set_merge: adds `other`'s keys (retained) to `header`. Returns 0, or 1 with MemoryError.
int32_t merge(SetHeader *header, const SetHeader *other) {
  if (header == other || other->size == 0)
    return 0;
  if ((header->fill + other->size) * 5 >= header->mask * 3 &&
      !resize(header, (header->size + other->size) * 2))
    return 1;
  if (header->fill == 0 && header->mask == other->mask && other->fill == other->size) {
    // Empty, the same size and no dummies to drop: the same table.
    std::memcpy(header->table, other->table,
                static_cast<size_t>((other->mask + 1) * header->entrySize));
    header->fill = header->size = other->size;
    forEachEntry(header, [&](char *entry) {
      retainKey(header, keyOf(entry));
      return true;
    });
    return 0;
  }
  if (header->fill == 0) {
    header->fill = header->size = other->size;
    forEachEntry(other, [&](char *entry) {
      insertClean(header, keyOf(entry), entryHash(entry));
      retainKey(header, keyOf(entry));
      return true;
    });
    return 0;
  }
  bool ok = forEachEntry(
      other, [&](char *entry) { return addEntry(header, keyOf(entry), entryHash(entry)) == 0; });
  return ok ? 0 : 1;
}

/// set_intersection: a new set.
MemInfo *intersection(MemInfo *a, MemInfo *b) {
  if (a == b)
    return taipan_set_copy(a);
  MemInfo *result = newSetLike(setHeader(a));
  if (!result)
    return nullptr;
  const SetHeader *big = setHeader(a), *small = setHeader(b);
  if (small->size > big->size)
    std::swap(big, small);
  SetHeader *target = setHeader(result);
  bool ok = forEachEntry(small, [&](char *entry) {
    return !containsEntry(big, keyOf(entry), entryHash(entry)) ||
           addEntry(target, keyOf(entry), entryHash(entry)) == 0;
  });
  return ok ? result : (taipan_nrt_decref(result), nullptr);
}

/// set_difference_update_internal.
int32_t differenceUpdate(SetHeader *header, const SetHeader *other) {
  if (header == other) {
    clearSet(header);
    return 0;
  }
  forEachEntry(other, [&](char *entry) {
    discardEntry(header, keyOf(entry), entryHash(entry));
    return true;
  });
  // More than a quarter dummies: resize them away.
  if (header->fill - header->size <= header->mask / 4)
    return 0;
  return resize(header, header->size > 50000 ? header->size * 2 : header->size * 4) ? 0 : 1;
}

/// set_difference: a new set.
MemInfo *difference(MemInfo *a, MemInfo *b) {
  const SetHeader *left = setHeader(a), *right = setHeader(b);
  if ((left->size >> 2) > right->size) { // copy, then remove the few common keys
    MemInfo *result = taipan_set_copy(a);
    if (result && differenceUpdate(setHeader(result), right) != 0) {
      taipan_nrt_decref(result);
      return nullptr;
    }
    return result;
  }
  MemInfo *result = newSetLike(left);
  if (!result)
    return nullptr;
  SetHeader *target = setHeader(result);
  bool ok = forEachEntry(left, [&](char *entry) {
    return containsEntry(right, keyOf(entry), entryHash(entry)) ||
           addEntry(target, keyOf(entry), entryHash(entry)) == 0;
  });
  return ok ? result : (taipan_nrt_decref(result), nullptr);
}

/// set_symmetric_difference_update.
int32_t symmetricDifferenceUpdate(SetHeader *header, const SetHeader *other) {
  if (header == other) {
    clearSet(header);
    return 0;
  }
  bool ok = forEachEntry(other, [&](char *entry) {
    return discardEntry(header, keyOf(entry), entryHash(entry)) ||
           addEntry(header, keyOf(entry), entryHash(entry)) == 0;
  });
  return ok ? 0 : 1;
}

/// set_swap_bodies: the two sets exchange their tables (the finger stays).
void swapTables(SetHeader *a, SetHeader *b) {
  std::swap(a->table, b->table);
  std::swap(a->mask, b->mask);
  std::swap(a->size, b->size);
  std::swap(a->fill, b->fill);
}

/// a is a subset of b.
bool isSubset(const SetHeader *a, const SetHeader *b) {
  if (a->size > b->size)
    return false;
  return forEachEntry(
      a, [&](char *entry) { return containsEntry(b, keyOf(entry), entryHash(entry)); });
}

} // namespace

extern "C" {

MemInfo *taipan_set_new(const int64_t *layout) {
  SetHeader model;
  std::memset(&model, 0, sizeof(model));
  model.keySize = layout[0];
  int64_t at = 1;
  model.keyReferenceCount = std::min(layout[at++], DictMaxReferences);
  for (int64_t k = 0; k < model.keyReferenceCount; ++k)
    model.keyReferences[k] = layout[at++];
  model.keyDescriptionLength = std::min(layout[at++], DictMaxKeyDescription);
  for (int64_t k = 0; k < model.keyDescriptionLength; ++k)
    model.keyDescription[k] = layout[at++];
  model.entrySize = SetEntryKeyOffset + (model.keySize + 7) / 8 * 8;
  model.plainInt64 = isPlainInt64Key(model.keyDescription, model.keyDescriptionLength) ? 1 : 0;
  return newSetLike(&model);
}

MemInfo *taipan_set_copy(MemInfo *set) {
  MemInfo *copy = newSetLike(setHeader(set));
  if (copy && merge(setHeader(copy), setHeader(set)) != 0) {
    taipan_nrt_decref(copy);
    return nullptr;
  }
  return copy;
}

int32_t taipan_set_contains(MemInfo *set, const void *key) {
  SetHeader *header = setHeader(set);
  return containsEntry(header, key, hashOf(header, key)) ? 1 : 0;
}

int32_t taipan_set_add(MemInfo *set, const void *key) {
  SetHeader *header = setHeader(set);
  return addEntry(header, key, hashOf(header, key));
}

int32_t taipan_set_discard(MemInfo *set, const void *key) {
  SetHeader *header = setHeader(set);
  return discardEntry(header, key, hashOf(header, key));
}

int32_t taipan_set_pop(MemInfo *set, void *keyOut) {
  SetHeader *header = setHeader(set);
  if (header->size == 0) {
    raiseWithMessage(taipan::KeyErrorId, "pop from an empty set");
    return 1;
  }
  auto index = static_cast<uint64_t>(header->finger & header->mask);
  while (entryState(entryAt(header, index)) != Active)
    index = index == static_cast<uint64_t>(header->mask) ? 0 : index + 1;
  char *entry = entryAt(header, index);
  std::memcpy(keyOut, keyOf(entry), static_cast<size_t>(header->keySize));
  entryState(entry) = Dummy;
  entryHash(entry) = -1;
  --header->size;
  header->finger = static_cast<int64_t>(index) + 1;
  return 0;
}

void taipan_set_clear(MemInfo *set) { clearSet(setHeader(set)); }

MemInfo *taipan_set_combine(MemInfo *a, MemInfo *b, int32_t operation) {
  switch (operation) {
  case SetIntersection:
    return intersection(a, b);
  case SetDifference:
    return difference(a, b);
  case SetSymmetricDifference: {
    MemInfo *result = taipan_set_copy(b);
    if (result && symmetricDifferenceUpdate(setHeader(result), setHeader(a)) != 0) {
      taipan_nrt_decref(result);
      return nullptr;
    }
    return result;
  }
  default: {
    MemInfo *result = taipan_set_copy(a);
    if (result && a != b && merge(setHeader(result), setHeader(b)) != 0) {
      taipan_nrt_decref(result);
      return nullptr;
    }
    return result;
  }
  }
}

int32_t taipan_set_combine_into(MemInfo *a, MemInfo *b, int32_t operation) {
  SetHeader *header = setHeader(a);
  switch (operation) {
  case SetIntersection: { // CPython computes a & b, then swaps the tables
    MemInfo *result = intersection(a, b);
    if (!result)
      return 1;
    swapTables(header, setHeader(result));
    taipan_nrt_decref(result);
    return 0;
  }
  case SetReplace:
    swapTables(header, setHeader(b));
    return 0;
  case SetDifference:
    return differenceUpdate(header, setHeader(b));
  case SetSymmetricDifference:
    return symmetricDifferenceUpdate(header, setHeader(b));
  default:
    return merge(header, setHeader(b));
  }
}

int32_t taipan_set_relation(MemInfo *a, MemInfo *b, int32_t relation) {
  const SetHeader *left = setHeader(a), *right = setHeader(b);
  if (relation == 0)
    return isSubset(left, right) ? 1 : 0;
  if (left->size > right->size)
    std::swap(left, right);
  return forEachEntry(
             left,
             [&](char *entry) { return !containsEntry(right, keyOf(entry), entryHash(entry)); })
             ? 1
             : 0;
}

MemInfo *taipan_set_to_list(MemInfo *set, const int64_t *offsets, int64_t offsetCount) {
  SetHeader *header = setHeader(set);
  MemInfo *list = taipan_list_new(header->keySize, header->size, offsets, offsetCount);
  if (!list)
    return nullptr;
  char *items = listHeader(list)->items;
  int64_t count = 0;
  forEachEntry(header, [&](char *entry) {
    std::memcpy(items + (count++) * header->keySize, keyOf(entry),
                static_cast<size_t>(header->keySize));
    return true;
  });
  taipan_list_retain(list, 0, count);
  return list;
}

char *taipan_set_slot(MemInfo *set, int64_t index) {
  SetHeader *header = setHeader(set);
  char *entry = entryAt(header, static_cast<uint64_t>(index));
  return entryState(entry) == Active ? keyOf(entry) : nullptr;
}

int32_t taipan_set_reserve_layout(MemInfo *set, int64_t mask, int64_t finger) {
  SetHeader *header = setHeader(set);
  char *table = newTable(header, mask + 1);
  if (!table)
    return 1;
  std::free(header->table);
  header->table = table;
  header->mask = mask;
  header->finger = finger;
  header->size = header->fill = 0;
  return 0;
}

void taipan_set_place(MemInfo *set, int64_t index, const void *key) {
  SetHeader *header = setHeader(set);
  char *entry = entryAt(header, static_cast<uint64_t>(index));
  ++header->fill;
  if (!key) {
    entryState(entry) = Dummy;
    entryHash(entry) = -1;
    return;
  }
  entryHash(entry) = hashOf(header, key);
  entryState(entry) = Active;
  std::memcpy(keyOf(entry), key, static_cast<size_t>(header->keySize));
  retainKey(header, keyOf(entry));
  ++header->size;
}

void taipan_set_key_error(MemInfo *set, const void *key) {
  SetHeader *header = setHeader(set);
  int64_t at = 0;
  // "\x01" marks a message that is the key's repr: the bindings raise KeyError(key) from it.
  raiseWithMessage(taipan::KeyErrorId,
                   "\x01" + keyRepr(header->keyDescription, at, static_cast<const char *>(key)));
}
}
