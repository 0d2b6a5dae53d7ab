// Compiled dicts boxed as Python dicts (DictBoxing.h): each entry's key and value are boxed in
// insertion order, so the Python dict iterates as the compiled one did.
#include "DictBoxing.h"

#include "Boxing.h"
#include "runtime/Dicts.h"

#include <cstring>

namespace taipan::bindings {

PyObject *boxDict(const Type *type, const void *storage) {
  runtime::MemInfo *dict;
  std::memcpy(&dict, storage, sizeof(dict));
  runtime::DictHeader *header = runtime::dictHeader(dict);
  PyObject *result = PyDict_New();
  for (int64_t i = 0; result && i < header->used; ++i) {
    char *key = taipan_dict_entry(dict, i, 0);
    if (!key)
      continue;
    char *value = taipan_dict_entry(dict, i, 1);
    // boxValue takes over the references it boxes: the dict keeps its own.
    for (int64_t k = 0; k < header->keyReferenceCount; ++k) {
      runtime::MemInfo *block;
      std::memcpy(&block, key + header->keyReferences[k], sizeof(block));
      taipan_nrt_incref(block);
    }
    for (int64_t k = 0; k < header->valueReferenceCount; ++k) {
      runtime::MemInfo *block;
      std::memcpy(&block, value + header->valueReferences[k], sizeof(block));
      taipan_nrt_incref(block);
    }
    PyObject *boxedKey = boxValue(type->keyType(), key);
    PyObject *boxedValue = boxValue(type->valueType(), value);
    if (!boxedKey || !boxedValue || PyDict_SetItem(result, boxedKey, boxedValue) != 0)
      Py_CLEAR(result);
    Py_XDECREF(boxedKey);
    Py_XDECREF(boxedValue);
  }
  taipan_nrt_decref(dict);
  return result;
}

} // namespace taipan::bindings
