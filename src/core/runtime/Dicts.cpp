// Dicts in compiled code (runtime/Dicts.h): CPython's compact table, with keys hashed, compared
// and printed here from their description so that hash(), order and KeyError match CPython's.
#include "runtime/Dicts.h"

#include "runtime/FloatFormat.h"
#include "runtime/Lists.h"
#include "runtime/Runtime.h"
#include "runtime/Strings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

using taipan::runtime::DictHeader;
using taipan::runtime::dictHeader;

namespace {

using namespace taipan::runtime;

constexpr int64_t Empty = -1;
constexpr int64_t Deleted = -2;

char *entryAt(DictHeader *header, int64_t index) {
  return header->entries + index * header->entrySize;
}
char *keyOf(char *entry) { return entry + DictEntryKeyOffset; }
char *valueOf(DictHeader *header, char *entry) { return entry + header->valueOffset; }
int64_t &entryHash(char *entry) { return *reinterpret_cast<int64_t *>(entry); }
int64_t &entryLive(char *entry) { return *reinterpret_cast<int64_t *>(entry + 8); }

void releaseKey(DictHeader *header, const char *key) {
  forEachReference(header->keyReferences, header->keyReferenceCount, key, taipan_nrt_decref);
}
void releaseValue(DictHeader *header, const char *value) {
  forEachReference(header->valueReferences, header->valueReferenceCount, value, taipan_nrt_decref);
}
void retainEntry(DictHeader *header, char *entry) {
  forEachReference(header->keyReferences, header->keyReferenceCount, keyOf(entry),
                   taipan_nrt_incref);
  forEachReference(header->valueReferences, header->valueReferenceCount, valueOf(header, entry),
                   taipan_nrt_incref);
}

int64_t hashOf(DictHeader *header, const void *key) {
  int64_t at = 0;
  return hashKey(header->keyDescription, at, static_cast<const char *>(key));
}

/// The index slot holding `key`'s entry, or the first free slot on its probe sequence (then
/// `*found` is -1). CPython's probing: i = 5i + perturb + 1, perturb shifted by 5 each step.
int64_t probe(DictHeader *header, int64_t hash, const void *key, int64_t *found) {
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t mask = static_cast<uint64_t>(header->mask);
  uint64_t slot = perturb & mask;
  int64_t freeSlot = -1;
  for (;;) {
    int64_t index = header->indices[slot];
    if (index == Empty) {
      *found = -1;
      return freeSlot >= 0 ? freeSlot : static_cast<int64_t>(slot);
    }
    if (index == Deleted) {
      if (freeSlot < 0)
        freeSlot = static_cast<int64_t>(slot);
    } else {
      char *entry = entryAt(header, index);
      int64_t at = 0;
      if (entryHash(entry) == hash &&
          keysEqual(header->keyDescription, at, keyOf(entry), static_cast<const char *>(key))) {
        *found = index;
        return static_cast<int64_t>(slot);
      }
    }
    perturb >>= 5;
    slot = (slot * 5 + perturb + 1) & mask;
  }
}

/// Rebuilds the table with room for `needed` entries, dropping deleted entries (order kept).
bool rebuild(DictHeader *header, int64_t needed) {
  int64_t tableSize = 8;
  while (tableSize * 2 / 3 < needed)
    tableSize *= 2;
  int64_t capacity = tableSize * 2 / 3;
  auto *indices = static_cast<int64_t *>(std::malloc(static_cast<size_t>(tableSize) * 8));
  auto *entries =
      static_cast<char *>(std::malloc(static_cast<size_t>(capacity * header->entrySize)));
  if (!indices || !entries) {
    std::free(indices);
    std::free(entries);
    taipan_raise(taipan::MemoryErrorId, "cannot grow the dict");
    return false;
  }
  std::memset(indices, 0xff, static_cast<size_t>(tableSize) * 8); // all Empty (-1)
  int64_t count = 0;
  for (int64_t i = 0; i < header->used; ++i) {
    char *entry = entryAt(header, i);
    if (entryLive(entry))
      std::memcpy(entries + (count++) * header->entrySize, entry,
                  static_cast<size_t>(header->entrySize));
  }
  std::free(header->indices);
  std::free(header->entries);
  header->indices = indices;
  header->entries = entries;
  header->mask = tableSize - 1;
  header->capacity = capacity;
  header->used = count;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t perturb = static_cast<uint64_t>(entryHash(entryAt(header, i)));
    uint64_t slot = perturb & static_cast<uint64_t>(header->mask);
    while (indices[slot] != Empty) {
      perturb >>= 5;
      slot = (slot * 5 + perturb + 1) & static_cast<uint64_t>(header->mask);
    }
    indices[slot] = i;
  }
  return true;
}

void destroyDict(void *data, void *) {
  auto *header = static_cast<DictHeader *>(data);
  for (int64_t i = 0; i < header->used; ++i) {
    char *entry = entryAt(header, i);
    if (entryLive(entry)) {
      releaseKey(header, keyOf(entry));
      releaseValue(header, valueOf(header, entry));
    }
  }
  std::free(header->indices);
  std::free(header->entries);
}

MemInfo *newDictLike(const DictHeader *model, int64_t needed) {
  MemInfo *block = taipan_nrt_allocate_with_destructor(sizeof(DictHeader), destroyDict, nullptr);
  if (!block)
    return nullptr;
  DictHeader *header = dictHeader(block);
  std::memcpy(header, model, sizeof(DictHeader));
  header->size = header->used = header->capacity = 0;
  header->indices = nullptr;
  header->entries = nullptr;
  if (!rebuild(header, needed)) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  return block;
}

} // namespace

extern "C" {

MemInfo *taipan_dict_new(const int64_t *layout) {
  DictHeader model;
  std::memset(&model, 0, sizeof(model));
  model.keySize = layout[0];
  model.valueSize = layout[1];
  int64_t at = 2;
  model.keyReferenceCount = std::min(layout[at++], DictMaxReferences);
  for (int64_t k = 0; k < model.keyReferenceCount; ++k)
    model.keyReferences[k] = layout[at++];
  model.valueReferenceCount = std::min(layout[at++], DictMaxReferences);
  for (int64_t k = 0; k < model.valueReferenceCount; ++k)
    model.valueReferences[k] = layout[at++];
  model.keyDescriptionLength = std::min(layout[at++], DictMaxKeyDescription);
  for (int64_t k = 0; k < model.keyDescriptionLength; ++k)
    model.keyDescription[k] = layout[at++];
  auto align8 = [](int64_t bytes) { return (bytes + 7) / 8 * 8; };
  model.valueOffset = DictEntryKeyOffset + align8(model.keySize);
  model.entrySize = model.valueOffset + align8(model.valueSize);
  return newDictLike(&model, 0);
}

MemInfo *taipan_dict_copy(MemInfo *dict) {
  DictHeader *header = dictHeader(dict);
  MemInfo *copy = newDictLike(header, header->size);
  if (!copy)
    return nullptr;
  DictHeader *target = dictHeader(copy);
  for (int64_t i = 0; i < header->used; ++i) {
    char *entry = entryAt(header, i);
    if (!entryLive(entry))
      continue;
    char *into = entryAt(target, target->used++);
    std::memcpy(into, entry, static_cast<size_t>(header->entrySize));
    retainEntry(target, into);
  }
  target->size = target->used;
  return rebuild(target, target->size) ? copy : (taipan_nrt_decref(copy), nullptr);
}

char *taipan_dict_get(MemInfo *dict, const void *key) {
  DictHeader *header = dictHeader(dict);
  int64_t found;
  probe(header, hashOf(header, key), key, &found);
  return found < 0 ? nullptr : valueOf(header, entryAt(header, found));
}

int32_t taipan_dict_set(MemInfo *dict, const void *key, const void *value) {
  DictHeader *header = dictHeader(dict);
  int64_t hash = hashOf(header, key);
  int64_t found;
  int64_t slot = probe(header, hash, key, &found);
  if (found >= 0) {
    char *into = valueOf(header, entryAt(header, found));
    char old[512];
    size_t bytes = static_cast<size_t>(header->valueSize);
    bool small = bytes <= sizeof(old);
    if (small)
      std::memcpy(old, into, bytes);
    else
      releaseValue(header, into);
    std::memcpy(into, value, bytes);
    if (small)
      releaseValue(header, old); // after the store: the new value may be the old one
    return 0;
  }
  if (header->used == header->capacity) {
    if (!rebuild(header, header->size * 3 + 1)) {
      releaseValue(header, static_cast<const char *>(value));
      return 1;
    }
    slot = probe(header, hash, key, &found);
  }
  int64_t index = header->used++;
  char *entry = entryAt(header, index);
  std::memset(entry, 0, static_cast<size_t>(header->entrySize));
  entryHash(entry) = hash;
  entryLive(entry) = 1;
  std::memcpy(keyOf(entry), key, static_cast<size_t>(header->keySize));
  forEachReference(header->keyReferences, header->keyReferenceCount, keyOf(entry),
                   taipan_nrt_incref);
  std::memcpy(valueOf(header, entry), value, static_cast<size_t>(header->valueSize));
  header->indices[slot] = index;
  ++header->size;
  return 0;
}

int32_t taipan_dict_pop(MemInfo *dict, const void *key, void *valueOut) {
  DictHeader *header = dictHeader(dict);
  int64_t found;
  int64_t slot = probe(header, hashOf(header, key), key, &found);
  if (found < 0)
    return 0;
  char *entry = entryAt(header, found);
  header->indices[slot] = Deleted;
  entryLive(entry) = 0;
  --header->size;
  releaseKey(header, keyOf(entry));
  if (valueOut)
    std::memcpy(valueOut, valueOf(header, entry), static_cast<size_t>(header->valueSize));
  else
    releaseValue(header, valueOf(header, entry));
  return 1;
}

int32_t taipan_dict_popitem(MemInfo *dict, void *keyOut, void *valueOut) {
  DictHeader *header = dictHeader(dict);
  if (header->size == 0)
    return 0;
  int64_t index = header->used - 1;
  while (!entryLive(entryAt(header, index)))
    --index;
  char *entry = entryAt(header, index);
  int64_t found;
  int64_t slot = probe(header, entryHash(entry), keyOf(entry), &found);
  header->indices[slot] = Deleted;
  std::memcpy(keyOut, keyOf(entry), static_cast<size_t>(header->keySize));
  std::memcpy(valueOut, valueOf(header, entry), static_cast<size_t>(header->valueSize));
  entryLive(entry) = 0;
  --header->size;
  header->used = index; // CPython trims the entries popitem takes from the end
  return 1;
}

void taipan_dict_clear(MemInfo *dict) {
  DictHeader *header = dictHeader(dict);
  for (int64_t i = 0; i < header->used; ++i) {
    char *entry = entryAt(header, i);
    if (entryLive(entry)) {
      entryLive(entry) = 0;
      releaseKey(header, keyOf(entry));
      releaseValue(header, valueOf(header, entry));
    }
  }
  header->size = 0;
  header->used = 0;
  std::memset(header->indices, 0xff, static_cast<size_t>(header->mask + 1) * 8); // all Empty
}

int32_t taipan_dict_update(MemInfo *dict, MemInfo *other) {
  DictHeader *source = dictHeader(other);
  for (int64_t i = 0; i < source->used; ++i) {
    char *entry = entryAt(source, i);
    if (!entryLive(entry))
      continue;
    char value[512];
    char *copy = source->valueSize <= 512
                     ? value
                     : static_cast<char *>(std::malloc(static_cast<size_t>(source->valueSize)));
    if (!copy) {
      taipan_raise(taipan::MemoryErrorId, "cannot grow the dict");
      return 1;
    }
    std::memcpy(copy, valueOf(source, entry), static_cast<size_t>(source->valueSize));
    forEachReference(source->valueReferences, source->valueReferenceCount, copy, taipan_nrt_incref);
    int32_t status = taipan_dict_set(dict, keyOf(entry), copy);
    if (copy != value)
      std::free(copy);
    if (status != 0)
      return status;
    source = dictHeader(other); // (the same dict when d.update(d))
  }
  return 0;
}

MemInfo *taipan_dict_to_list(MemInfo *dict, int64_t itemSize, int64_t keyAt, int64_t valueAt,
                             const int64_t *offsets, int64_t offsetCount) {
  DictHeader *header = dictHeader(dict);
  MemInfo *list = taipan_list_new(itemSize, header->size, offsets, offsetCount);
  if (!list)
    return nullptr;
  char *items = listHeader(list)->items;
  int64_t count = 0;
  for (int64_t i = 0; i < header->used; ++i) {
    char *entry = entryAt(header, i);
    if (!entryLive(entry))
      continue;
    char *item = items + (count++) * itemSize;
    if (keyAt >= 0)
      std::memcpy(item + keyAt, keyOf(entry), static_cast<size_t>(header->keySize));
    if (valueAt >= 0)
      std::memcpy(item + valueAt, valueOf(header, entry), static_cast<size_t>(header->valueSize));
  }
  taipan_list_retain(list, 0, count);
  return list;
}

char *taipan_dict_entry(MemInfo *dict, int64_t index, int32_t wantValue) {
  DictHeader *header = dictHeader(dict);
  char *entry = entryAt(header, index);
  if (!entryLive(entry))
    return nullptr;
  return wantValue ? valueOf(header, entry) : keyOf(entry);
}

void taipan_dict_key_error(MemInfo *dict, const void *key) {
  DictHeader *header = dictHeader(dict);
  int64_t at = 0;
  // "\x01" marks a message that is the key's repr: the bindings raise KeyError(key) from it.
  raiseWithMessage(taipan::KeyErrorId,
                   "\x01" + keyRepr(header->keyDescription, at, static_cast<const char *>(key)));
}
}
