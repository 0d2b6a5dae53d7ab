// Python sets across the boundary (SetBoxing.h). Both directions copy CPython's table slot by
// slot (PySetObject's mask, entries, dummies and finger), because the compiled table follows
// setobject.c: a set keeps its iteration order, and its future, across the boundary.
#include "SetBoxing.h"

#include "Boxing.h"
#include "ListBoxing.h"
#include "runtime/Sets.h"
#include "types/NumericPromotion.h"
#include "typing/SetTyping.h"

#include <cstring>
#include <vector>

namespace taipan::bindings {
namespace {

using runtime::MemInfo;
using runtime::SetHeader;
using runtime::setHeader;

/// CPython's marker for a deleted slot. Python 3.13 moved `_PySet_Dummy` out of the public
/// headers, so it is read once from a set whose only key was discarded: the slot keeps it.
PyObject *deletedSetKey() {
  static PyObject *const dummy = [] {
    PyObject *set = PySet_New(nullptr);
    PyObject *key = PyLong_FromLong(0);
    PyObject *found = nullptr;
    if (set && key && PySet_Add(set, key) == 0 && PySet_Discard(set, key) == 1) {
      auto *so = reinterpret_cast<PySetObject *>(set);
      for (Py_ssize_t i = 0; i <= so->mask && !found; ++i)
        found = so->table[i].key;
    }
    Py_XDECREF(key);
    Py_XDECREF(set);
    return found; // immortal in CPython: it outlives every set
  }();
  return dummy;
}

/// Boxes the key at `key` (the set keeps its own references).
PyObject *boxKey(const Type *type, const SetHeader *header, const char *key) {
  forEachReference(header->keyReferences, header->keyReferenceCount, key, taipan_nrt_incref);
  return boxValue(type->keyType(), key);
}

/// Adds the keys in table order (when the exact layout cannot be copied).
bool addKeys(PyObject *into, const Type *type, MemInfo *set) {
  SetHeader *header = setHeader(set);
  for (int64_t i = 0; i <= header->mask; ++i) {
    char *key = taipan_set_slot(set, i);
    if (!key)
      continue;
    PyObject *boxed = boxKey(type, header, key);
    if (!boxed || PySet_Add(into, boxed) != 0) {
      Py_XDECREF(boxed);
      return false;
    }
    Py_DECREF(boxed);
  }
  return true;
}

/// Makes `into` (an empty set) hold `set`'s keys in the same slots, with its dummies and
/// finger. False (nothing changed) when a key's Python hash differs from the compiled one (a
/// NaN, whose CPython hash is its identity).
bool copyLayout(PyObject *into, const Type *type, MemInfo *set) {
  SetHeader *header = setHeader(set);
  std::vector<PyObject *> keys(static_cast<size_t>(header->mask + 1), nullptr);
  auto release = [&]() {
    for (PyObject *key : keys)
      Py_XDECREF(key);
    return false;
  };
  for (int64_t i = 0; i <= header->mask; ++i) {
    char *key = taipan_set_slot(set, i);
    if (!key)
      continue;
    keys[static_cast<size_t>(i)] = boxKey(type, header, key);
    if (!keys[static_cast<size_t>(i)] ||
        PyObject_Hash(keys[static_cast<size_t>(i)]) != runtime::setSlotHash(header, i)) {
      PyErr_Clear();
      return release();
    }
  }
  auto *so = reinterpret_cast<PySetObject *>(into);
  setentry *table = so->smalltable;
  if (header->mask + 1 > PySet_MINSIZE) {
    table = PyMem_New(setentry, static_cast<size_t>(header->mask + 1));
    if (!table)
      return release();
  }
  std::memset(table, 0, sizeof(setentry) * static_cast<size_t>(header->mask + 1));
  for (int64_t i = 0; i <= header->mask; ++i) {
    if (PyObject *key = keys[static_cast<size_t>(i)]) {
      table[i].key = key; // the set takes over the reference
      table[i].hash = runtime::setSlotHash(header, i);
    } else if (runtime::setSlotState(header, i) == 2) {
      PyObject *dummy = deletedSetKey();
      Py_INCREF(dummy);
      table[i].key = dummy;
      table[i].hash = -1;
    }
  }
  so->table = table;
  so->mask = static_cast<Py_ssize_t>(header->mask);
  so->fill = static_cast<Py_ssize_t>(header->fill);
  so->used = static_cast<Py_ssize_t>(header->size);
  so->finger = static_cast<Py_ssize_t>(header->finger);
  return true;
}

} // namespace

const Type *typeOfSet(PyObject *value) {
  PyObject *iterator = PyObject_GetIter(value);
  PyObject *first = iterator ? PyIter_Next(iterator) : nullptr;
  Py_XDECREF(iterator);
  if (!first) {
    PyErr_Clear();
    return nullptr;
  }
  const Type *item = typeOfValue(first);
  Py_DECREF(first);
  PyErr_Clear();
  return item ? setOfKey(item) : nullptr;
}

bool unboxSet(PyObject *value, const Type *type, void *storage) {
  if (type->isFrozen() ? !PyFrozenSet_Check(value) : !PySet_Check(value)) {
    PyErr_Format(PyExc_TypeError, "expected a %s, not %s", type->isFrozen() ? "frozenset" : "set",
                 Py_TYPE(value)->tp_name);
    return false;
  }
  std::vector<int64_t> layout = setLayout(type);
  MemInfo *set = layout.empty() ? nullptr : taipan_set_new(layout.data());
  auto *so = reinterpret_cast<PySetObject *>(value);
  if (!set || taipan_set_reserve_layout(set, so->mask, so->finger) != 0) {
    if (set)
      taipan_nrt_decref(set);
    PyErr_NoMemory();
    return false;
  }
  const Type *key = type->keyType();
  std::vector<char> buffer(key->storageSize() + 8);
  std::vector<int64_t> references = types::referenceOffsets(key);
  for (Py_ssize_t i = 0; i <= so->mask; ++i) {
    PyObject *item = so->table[i].key;
    if (!item)
      continue;
    if (item == deletedSetKey()) {
      taipan_set_place(set, i, nullptr);
      continue;
    }
    const Type *actual = typeOfValue(item);
    if (!actual || unifyTypes(key, actual) != key || !unboxValue(item, key, buffer.data())) {
      taipan_nrt_decref(set);
      if (!PyErr_Occurred() || actual)
        raiseTypingError("cannot unbox a heterogeneous set: " + key->name() +
                         " != " + (actual ? actual->name() : Py_TYPE(item)->tp_name));
      return false;
    }
    taipan_set_place(set, i, buffer.data()); // retains what it holds
    forEachReference(references.data(), static_cast<int64_t>(references.size()), buffer.data(),
                     taipan_nrt_decref);
  }
  std::memcpy(storage, &set, sizeof(set));
  return true;
}

PyObject *boxSet(const Type *type, const void *storage) {
  MemInfo *set = blockAt(storage);
  // A new frozenset has one reference, so PySet_Add may fill it (as CPython's own code does).
  PyObject *result = type->isFrozen() ? PyFrozenSet_New(nullptr) : PySet_New(nullptr);
  if (result && type->keyType() && !copyLayout(result, type, set) && !addKeys(result, type, set))
    Py_CLEAR(result);
  taipan_nrt_decref(set);
  return result;
}

bool finishSetArgument(PyObject *value, const Type *type, void *storage, bool reflect) {
  MemInfo *set = blockAt(storage);
  bool ok = true;
  if (reflect && type->keyType() && !type->isFrozen()) {
    // Unchanged when the sizes agree and every compiled key is in the caller's set.
    bool changed = PySet_GET_SIZE(value) != setHeader(set)->size;
    SetHeader *header = setHeader(set);
    for (int64_t i = 0; !changed && i <= header->mask; ++i) {
      char *key = taipan_set_slot(set, i);
      if (!key)
        continue;
      PyObject *boxed = boxKey(type, header, key);
      int found = boxed ? PySet_Contains(value, boxed) : -1;
      Py_XDECREF(boxed);
      if (found < 0) {
        taipan_nrt_decref(set);
        return false;
      }
      changed = found == 0;
    }
    if (changed) {
      PySet_Clear(value);
      ok = copyLayout(value, type, set) || addKeys(value, type, set);
    }
  }
  taipan_nrt_decref(set);
  return ok;
}

} // namespace taipan::bindings
