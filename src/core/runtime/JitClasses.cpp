// Instance blocks of jitclasses: allocation and the destructor releasing reference fields.
#include "runtime/JitClasses.h"

#include "runtime/Lists.h"

#include <cstring>

using taipan::runtime::MemInfo;

namespace {

/// The offsets table after the fields: its length, then the offsets.
struct ReferenceTable {
  int64_t count;
  int64_t offsets[1];
};

/// Releases every block pointer the fields hold (null ones are skipped by decref).
void destroyInstance(void *data, void *payload) {
  const auto *table = static_cast<const ReferenceTable *>(payload);
  for (int64_t k = 0; k < table->count; ++k) {
    MemInfo *block;
    std::memcpy(&block, static_cast<char *>(data) + table->offsets[k], sizeof(block));
    taipan_nrt_decref(block);
  }
}

} // namespace

extern "C" {

MemInfo *taipan_jitclass_new(int64_t fieldBytes, const int64_t *offsets, int64_t count) {
  int64_t fields = (fieldBytes + 7) / 8 * 8;
  int64_t bytes = fields + 8 * (count + 1);
  MemInfo *block = taipan_nrt_allocate_with_destructor(bytes, destroyInstance, nullptr);
  if (!block)
    return nullptr;
  char *data = static_cast<char *>(block->data);
  std::memset(data, 0, static_cast<size_t>(fields));
  auto *table = reinterpret_cast<ReferenceTable *>(data + fields);
  table->count = count;
  if (count > 0)
    std::memcpy(table->offsets, offsets, static_cast<size_t>(count) * sizeof(int64_t));
  block->payload = table;
  return block;
}

void taipan_jitclass_adopt(char *field, const int64_t *offsets, int64_t count) {
  taipan::runtime::adoptBorrowedArrays(field, offsets, count);
}
}
