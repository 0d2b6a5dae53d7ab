// The run-time part of lists in compiled code: the header of a list's memory block, and the
// growth, copy and release routines lowering calls (items are read and written inline).
#pragma once

#include "runtime/MemoryRuntime.h"

#include <cstdint>

namespace taipan::runtime {

/// The most reference-holding fields an item may have (a tuple of arrays and lists).
constexpr int64_t ListMaxReferences = 8;

/// The data of a list's memory block. A list value is one pointer to its block (MemInfo), whose
/// data is this header; the items live in a separate buffer so the block never moves. Lowering
/// reads `size` and `items` inline at the offsets below, so they stay first.
struct ListHeader {
  int64_t size;
  char *items;
  int64_t capacity;
  int64_t itemSize;
  /// Where an item holds references (memory blocks of arrays and lists, at byte offsets inside
  /// the item): released with the item, retained when it is copied.
  int64_t referenceCount;
  int64_t referenceOffsets[ListMaxReferences];
};
constexpr size_t ListSizeOffset = 0;
constexpr size_t ListItemsOffset = 8;

/// The header of a list's block.
inline ListHeader *listHeader(MemInfo *block) { return static_cast<ListHeader *>(block->data); }

/// Makes a block that keeps the Python array `parent` alive (the bindings install it): how an
/// array borrowed from a Python argument (no block of its own) is kept by a typed container
/// that outlives the call.
using AdoptArrayHook = MemInfo *(*)(void *parent);
void setAdoptArrayHook(AdoptArrayHook hook);
/// Gives each array at `offsets` inside `value` that has no memory block but a Python parent a
/// block owning that parent (the array layout's MemInfo, then its parent, types/Type.h).
void adoptBorrowedArrays(char *value, const int64_t *offsets, int64_t count);

} // namespace taipan::runtime

extern "C" {
/// A new list of `count` zeroed items of `itemSize` bytes whose references lie at `offsets`
/// (`offsetCount` of them, at most ListMaxReferences). Null with MemoryError pending on failure.
taipan::runtime::MemInfo *taipan_list_new(int64_t itemSize, int64_t count, const int64_t *offsets,
                                          int64_t offsetCount);
/// Makes room for `count` more items at position `at` (moving the items after it); the new
/// items are zeroed. Returns 0, or 1 with MemoryError pending.
int32_t taipan_list_open(taipan::runtime::MemInfo *list, int64_t at, int64_t count);
/// Releases the items in [from, to) and closes the gap.
void taipan_list_erase(taipan::runtime::MemInfo *list, int64_t from, int64_t to);
/// Adds a reference to what each item in [from, to) holds (after a raw copy of the items).
void taipan_list_retain(taipan::runtime::MemInfo *list, int64_t from, int64_t to);
/// Releases what each item in [from, to) holds (before an item is overwritten or dropped).
void taipan_list_release(taipan::runtime::MemInfo *list, int64_t from, int64_t to);
/// A new list of the items start, start + step, ... (`count` of them), retained.
taipan::runtime::MemInfo *taipan_list_slice(taipan::runtime::MemInfo *list, int64_t start,
                                            int64_t step, int64_t count);
/// Appends `count` copies of the items of `source` to `list` (retained): extend, +, *.
int32_t taipan_list_extend(taipan::runtime::MemInfo *list, taipan::runtime::MemInfo *source,
                           int64_t repeat);
/// adoptBorrowedArrays for the item at `index`, just stored into a typed list.
void taipan_list_adopt(taipan::runtime::MemInfo *list, int64_t index);
/// adoptBorrowedArrays for a value about to be stored into a dict (its value slot).
void taipan_dict_adopt(taipan::runtime::MemInfo *dict, char *value);
/// Reverses the items in place.
void taipan_list_reverse(taipan::runtime::MemInfo *list);
/// Sorts a list of numbers in place (a SortDtype code), descending when `descending`.
void taipan_list_sort(taipan::runtime::MemInfo *list, int32_t dtypeCode, int32_t descending);
}
