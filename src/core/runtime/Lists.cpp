// Lists in compiled code: allocation, growth and the release of held items (runtime/Lists.h).
#include "runtime/Lists.h"

#include "runtime/Dicts.h"
#include "runtime/Runtime.h"
#include "runtime/Sort.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using taipan::runtime::ListHeader;
using taipan::runtime::listHeader;
using taipan::runtime::MemInfo;

namespace {

char *itemAt(ListHeader *header, int64_t index) { return header->items + index * header->itemSize; }

/// Calls `action` on every memory block the items in [from, to) hold.
template <typename Action>
void forEachReference(ListHeader *header, int64_t from, int64_t to, Action action) {
  if (header->referenceCount == 0)
    return;
  for (int64_t i = from; i < to; ++i)
    for (int64_t k = 0; k < header->referenceCount; ++k) {
      MemInfo *block;
      std::memcpy(&block, itemAt(header, i) + header->referenceOffsets[k], sizeof(block));
      action(block);
    }
}

void destroyList(void *data, void *) {
  auto *header = static_cast<ListHeader *>(data);
  forEachReference(header, 0, header->size, taipan_nrt_decref);
  std::free(header->items);
}

/// Grows the item buffer to hold `needed` items (over-allocating as CPython does).
bool reserve(ListHeader *header, int64_t needed) {
  if (needed <= header->capacity)
    return true;
  int64_t capacity = std::max<int64_t>(needed + (needed >> 3) + 6, 4);
  void *items = std::realloc(header->items, static_cast<size_t>(capacity * header->itemSize));
  if (!items && capacity * header->itemSize != 0) {
    taipan_raise(taipan::MemoryErrorId, "cannot grow the list");
    return false;
  }
  header->items = static_cast<char *>(items);
  header->capacity = capacity;
  return true;
}

template <typename T> void sortAs(ListHeader *header, bool descending) {
  T *items = reinterpret_cast<T *>(header->items);
  // Python's sort is stable and compares with <; descending order keeps equal items in order.
  if (descending)
    std::stable_sort(items, items + header->size, [](T a, T b) { return b < a; });
  else
    std::stable_sort(items, items + header->size, [](T a, T b) { return a < b; });
}

taipan::runtime::AdoptArrayHook adoptArrayHook = nullptr;

} // namespace

namespace taipan::runtime {

void setAdoptArrayHook(AdoptArrayHook hook) { adoptArrayHook = hook; }

void adoptBorrowedArrays(char *value, const int64_t *offsets, int64_t count) {
  for (int64_t k = 0; k < count && adoptArrayHook; ++k) {
    MemInfo *block;
    void *parent;
    std::memcpy(&block, value + offsets[k], sizeof(block));
    if (block)
      continue; // strings, lists, dicts and owned arrays always have their block
    std::memcpy(&parent, value + offsets[k] + sizeof(block), sizeof(parent));
    if (!parent)
      continue; // a constant array: its data lives as long as the code
    block = adoptArrayHook(parent);
    std::memcpy(value + offsets[k], &block, sizeof(block));
  }
}

} // namespace taipan::runtime

extern "C" {

void taipan_list_adopt(MemInfo *list, int64_t index) {
  ListHeader *header = listHeader(list);
  taipan::runtime::adoptBorrowedArrays(itemAt(header, index), header->referenceOffsets,
                                       header->referenceCount);
}

void taipan_dict_adopt(MemInfo *dict, char *value) {
  taipan::runtime::DictHeader *header = taipan::runtime::dictHeader(dict);
  taipan::runtime::adoptBorrowedArrays(value, header->valueReferences, header->valueReferenceCount);
}

MemInfo *taipan_list_new(int64_t itemSize, int64_t count, const int64_t *offsets,
                         int64_t offsetCount) {
  MemInfo *block = taipan_nrt_allocate_with_destructor(sizeof(ListHeader), destroyList, nullptr);
  if (!block)
    return nullptr;
  ListHeader *header = listHeader(block);
  std::memset(header, 0, sizeof(ListHeader));
  header->itemSize = itemSize;
  header->referenceCount = std::min(offsetCount, taipan::runtime::ListMaxReferences);
  for (int64_t k = 0; k < header->referenceCount; ++k)
    header->referenceOffsets[k] = offsets[k];
  if (taipan_list_open(block, 0, count) != 0) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  return block;
}

int32_t taipan_list_open(MemInfo *list, int64_t at, int64_t count) {
  ListHeader *header = listHeader(list);
  if (!reserve(header, header->size + count))
    return 1;
  std::memmove(itemAt(header, at + count), itemAt(header, at),
               static_cast<size_t>((header->size - at) * header->itemSize));
  std::memset(itemAt(header, at), 0, static_cast<size_t>(count * header->itemSize));
  header->size += count;
  return 0;
}

void taipan_list_erase(MemInfo *list, int64_t from, int64_t to) {
  ListHeader *header = listHeader(list);
  if (to <= from)
    return;
  forEachReference(header, from, to, taipan_nrt_decref);
  std::memmove(itemAt(header, from), itemAt(header, to),
               static_cast<size_t>((header->size - to) * header->itemSize));
  header->size -= to - from;
}

void taipan_list_retain(MemInfo *list, int64_t from, int64_t to) {
  forEachReference(listHeader(list), from, to, taipan_nrt_incref);
}

void taipan_list_release(MemInfo *list, int64_t from, int64_t to) {
  forEachReference(listHeader(list), from, to, taipan_nrt_decref);
}

MemInfo *taipan_list_slice(MemInfo *list, int64_t start, int64_t step, int64_t count) {
  ListHeader *header = listHeader(list);
  MemInfo *result =
      taipan_list_new(header->itemSize, count, header->referenceOffsets, header->referenceCount);
  if (!result)
    return nullptr;
  ListHeader *target = listHeader(result);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(itemAt(target, i), itemAt(header, start + i * step),
                static_cast<size_t>(header->itemSize));
  taipan_list_retain(result, 0, count);
  return result;
}

int32_t taipan_list_extend(MemInfo *list, MemInfo *source, int64_t repeat) {
  ListHeader *header = listHeader(list);
  int64_t count = listHeader(source)->size; // read first: `source` may be `list`
  int64_t start = header->size;
  if (repeat <= 0 || count == 0)
    return 0;
  if (taipan_list_open(list, start, count * repeat) != 0)
    return 1;
  for (int64_t r = 0; r < repeat; ++r)
    std::memcpy(itemAt(header, start + r * count), listHeader(source)->items,
                static_cast<size_t>(count * header->itemSize));
  taipan_list_retain(list, start, header->size);
  return 0;
}

void taipan_list_reverse(MemInfo *list) {
  ListHeader *header = listHeader(list);
  size_t size = static_cast<size_t>(header->itemSize);
  char buffer[256];
  for (int64_t i = 0, j = header->size - 1; i < j; ++i, --j) {
    std::memcpy(buffer, itemAt(header, i), size);
    std::memcpy(itemAt(header, i), itemAt(header, j), size);
    std::memcpy(itemAt(header, j), buffer, size);
  }
}

void taipan_list_sort(MemInfo *list, int32_t dtypeCode, int32_t descending) {
  using namespace taipan::runtime;
  ListHeader *header = listHeader(list);
  switch (dtypeCode) {
  case SortBool:
  case SortUInt8:
    return sortAs<uint8_t>(header, descending);
  case SortInt8:
    return sortAs<int8_t>(header, descending);
  case SortInt16:
    return sortAs<int16_t>(header, descending);
  case SortUInt16:
    return sortAs<uint16_t>(header, descending);
  case SortInt32:
    return sortAs<int32_t>(header, descending);
  case SortUInt32:
    return sortAs<uint32_t>(header, descending);
  case SortInt64:
  case SortDatetime: // as their counts (Python's `<` of NaT is always False: no order to keep)
    return sortAs<int64_t>(header, descending);
  case SortUInt64:
    return sortAs<uint64_t>(header, descending);
  case SortFloat32:
    return sortAs<float>(header, descending);
  case SortFloat64:
    return sortAs<double>(header, descending);
  default:
    return;
  }
}
}
