// taipan.typed.List (TypedContainers.h): a Python object over a compiled list's block. Its
// methods call the list runtime (runtime/Lists.h) directly, so building one from a Python list
// or appending to it costs about what a Python list does, and compiled code receives the block.
#include "TypedContainers.h"

#include "Boxing.h"
#include "TypeObjects.h"
#include "runtime/Lists.h"
#include "runtime/Sort.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

using runtime::ListHeader;
using runtime::listHeader;
using runtime::MemInfo;
using List = TypedContainerObject;

List *asList(PyObject *object) { return reinterpret_cast<List *>(object); }

int64_t sizeOf(List *self) { return self->block ? listHeader(self->block)->size : 0; }

char *slotAt(List *self, int64_t index) {
  ListHeader *header = listHeader(self->block);
  return header->items + index * header->itemSize;
}

/// Gives an untyped list its item type and block.
bool setItemType(List *self, const Type *item) {
  std::vector<int64_t> offsets = types::referenceOffsets(item);
  if (static_cast<int64_t>(offsets.size()) > runtime::ListMaxReferences) {
    PyErr_Format(PyExc_TypeError,
                 "a typed List cannot hold items of type %s (too many arrays, "
                 "strings or lists per item)",
                 item->name().c_str());
    return false;
  }
  MemInfo *block = taipan_list_new(static_cast<int64_t>(item->storageSize()), 0, offsets.data(),
                                   static_cast<int64_t>(offsets.size()));
  if (!block) {
    PyErr_NoMemory();
    return false;
  }
  self->type = types::typedList(item);
  self->block = block;
  return true;
}

/// Types an untyped list by `value`, its first item.
bool typeBy(List *self, PyObject *value) {
  if (self->block)
    return true;
  const Type *item = containerItemType(value, "List");
  return item && setItemType(self, item);
}

/// Writes `value` into the zeroed slot `index`: the common numbers without a detour.
bool storeAt(List *self, int64_t index, PyObject *value) {
  const Type *item = self->type->itemType();
  char *slot = slotAt(self, index);
  if (item == types::int64() && PyLong_CheckExact(value)) {
    int overflow = 0;
    long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (!overflow) {
      std::memcpy(slot, &number, sizeof(number));
      return true;
    }
  } else if (item == types::float64() && PyFloat_CheckExact(value)) {
    double number = PyFloat_AS_DOUBLE(value);
    std::memcpy(slot, &number, sizeof(number));
    return true;
  }
  return unboxOwnedValue(value, item, slot, self->type);
}

/// Appends `value`, typing the list by it when it is the first.
bool append(List *self, PyObject *value) {
  if (!typeBy(self, value))
    return false;
  int64_t size = listHeader(self->block)->size;
  if (taipan_list_open(self->block, size, 1) != 0) {
    PyErr_NoMemory();
    return false;
  }
  if (!storeAt(self, size, value)) {
    listHeader(self->block)->size = size; // the slot holds nothing
    return false;
  }
  return true;
}

/// Appends the items of any iterable (a list or tuple without an iterator).
bool extendFrom(List *self, PyObject *iterable) {
  if (Py_TYPE(iterable) == typedListType) {
    List *other = asList(iterable);
    if (!other->block)
      return true;
    if (!self->block && !setItemType(self, other->type->itemType()))
      return false;
    if (other->type == self->type) {
      if (taipan_list_extend(self->block, other->block, 1) != 0) {
        PyErr_NoMemory();
        return false;
      }
      return true;
    }
  }
  PyObject *sequence = PySequence_Fast(iterable, "List() argument must be iterable");
  if (!sequence)
    return false;
  Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
  PyObject **items = PySequence_Fast_ITEMS(sequence);
  bool ok = true;
  if (count > 0 && typeBy(self, items[0])) {
    int64_t start = listHeader(self->block)->size;
    if (taipan_list_open(self->block, start, count) != 0) {
      PyErr_NoMemory();
      ok = false;
    }
    for (Py_ssize_t i = 0; ok && i < count; ++i)
      if (!storeAt(self, start + i, items[i])) {
        // Drop what was stored of this call's items (the rest are zeroed).
        taipan_list_erase(self->block, start, start + count);
        ok = false;
      }
  } else if (count > 0) {
    ok = false;
  }
  Py_DECREF(sequence);
  return ok;
}

/// A Python index into the list: negative ones wrap; IndexError outside.
bool position(List *self, PyObject *index, int64_t &at, const char *message) {
  Py_ssize_t value = PyNumber_AsSsize_t(index, PyExc_IndexError);
  if (value == -1 && PyErr_Occurred())
    return false;
  int64_t size = sizeOf(self);
  if (value < 0)
    value += size;
  if (value < 0 || value >= size) {
    PyErr_SetString(PyExc_IndexError, message);
    return false;
  }
  at = value;
  return true;
}

PyObject *itemAt(List *self, int64_t index) {
  return boxBorrowedValue(self->type->itemType(), slotAt(self, index));
}

/// The index of the first item in [start, stop) equal to `value`, -1 when none, -2 on error.
int64_t find(List *self, PyObject *value, int64_t start, int64_t stop) {
  const Type *item = self->type->itemType();
  if (item == types::int64() && PyLong_CheckExact(value)) {
    int overflow = 0;
    long long wanted = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow)
      return -1;
    for (int64_t i = start; i < stop; ++i) {
      long long number;
      std::memcpy(&number, slotAt(self, i), sizeof(number));
      if (number == wanted)
        return i;
    }
    return -1;
  }
  for (int64_t i = start; i < stop && i < sizeOf(self); ++i) {
    PyObject *boxed = itemAt(self, i);
    if (!boxed)
      return -2;
    int equal = PyObject_RichCompareBool(boxed, value, Py_EQ);
    Py_DECREF(boxed);
    if (equal < 0)
      return -2;
    if (equal)
      return i;
  }
  return -1;
}

/// A new Python list of the items (the items of a typed list boxed).
PyObject *toPythonList(List *self) {
  int64_t size = sizeOf(self);
  PyObject *result = PyList_New(size);
  for (int64_t i = 0; result && i < size; ++i) {
    PyObject *item = itemAt(self, i);
    if (!item)
      Py_CLEAR(result);
    else
      PyList_SET_ITEM(result, i, item);
  }
  return result;
}

/// Replaces the items with those of the Python list `items`; on failure the list is unchanged.
bool refill(List *self, PyObject *items) {
  List fresh{};
  fresh.type = types::typedList(nullptr);
  if (self->block && !setItemType(&fresh, self->type->itemType()))
    return false;
  if (!extendFrom(&fresh, items)) {
    taipan_nrt_decref(fresh.block);
    return false;
  }
  taipan_nrt_decref(self->block);
  self->type = fresh.type;
  self->block = fresh.block;
  return true;
}

// --- The type's slots and methods -----------------------------------------------------------

PyObject *listNew(PyTypeObject *type, PyObject *, PyObject *) {
  List *self = reinterpret_cast<List *>(type->tp_alloc(type, 0));
  if (self) {
    self->type = types::typedList(nullptr);
    self->block = nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

int listInit(PyObject *object, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"iterable", "lsttype", "allocated", nullptr};
  PyObject *iterable = nullptr, *listType = nullptr, *allocated = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO:List", const_cast<char **>(keywords),
                                   &iterable, &listType, &allocated))
    return -1;
  List *self = asList(object);
  if (self->block) {
    taipan_list_erase(self->block, 0, sizeOf(self));
  } else if (listType && listType != Py_None) {
    const Type *type = typeFromArgument(listType, "list type");
    if (!type)
      return -1;
    if (!type->isList() || type->isReflected() || !type->itemType()) {
      PyErr_Format(PyExc_TypeError, "lsttype must be a ListType, not %s", type->name().c_str());
      return -1;
    }
    if (!setItemType(self, type->itemType()))
      return -1;
  }
  if (iterable && iterable != Py_None && !extendFrom(self, iterable))
    return -1;
  return 0;
}

void listDealloc(PyObject *object) {
  taipan_nrt_decref(asList(object)->block);
  PyTypeObject *type = Py_TYPE(object);
  type->tp_free(object);
  Py_DECREF(type);
}

Py_ssize_t listLength(PyObject *object) { return sizeOf(asList(object)); }

PyObject *listItem(PyObject *object, Py_ssize_t index) {
  List *self = asList(object);
  if (index < 0 || index >= sizeOf(self)) {
    PyErr_SetString(PyExc_IndexError, "list index out of range");
    return nullptr;
  }
  return itemAt(self, index);
}

PyObject *listSubscript(PyObject *object, PyObject *key) {
  List *self = asList(object);
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0)
      return nullptr;
    Py_ssize_t count = PySlice_AdjustIndices(sizeOf(self), &start, &stop, step);
    if (!self->block)
      return newTypedList(self->type, nullptr);
    MemInfo *block = taipan_list_slice(self->block, start, step, count);
    if (!block)
      return PyErr_NoMemory();
    return newTypedList(self->type, block);
  }
  int64_t at;
  if (!position(self, key, at, "list index out of range"))
    return nullptr;
  return itemAt(self, at);
}

int listAssign(PyObject *object, PyObject *key, PyObject *value) {
  List *self = asList(object);
  if (PySlice_Check(key)) {
    // Slices change the list's length: done on a Python list of the items, then copied back.
    PyObject *items = toPythonList(self);
    if (!items)
      return -1;
    int status = value ? PyObject_SetItem(items, key, value) : PyObject_DelItem(items, key);
    if (status == 0 && !refill(self, items))
      status = -1;
    Py_DECREF(items);
    return status;
  }
  int64_t at;
  if (!position(self, key, at, "list assignment index out of range"))
    return -1;
  if (!value) {
    taipan_list_erase(self->block, at, at + 1);
    return 0;
  }
  const Type *item = self->type->itemType();
  std::vector<char> fresh(item->storageSize());
  if (!unboxOwnedValue(value, item, fresh.data(), self->type))
    return -1;
  releaseValue(item, slotAt(self, at));
  std::memcpy(slotAt(self, at), fresh.data(), fresh.size());
  return 0;
}

int listContains(PyObject *object, PyObject *value) {
  List *self = asList(object);
  if (!self->block)
    return 0;
  int64_t found = find(self, value, 0, sizeOf(self));
  return found == -2 ? -1 : found >= 0;
}

/// `tl += iterable` extends the list in place, as a list's += does.
PyObject *listInplaceAdd(PyObject *object, PyObject *iterable) {
  if (!extendFrom(asList(object), iterable))
    return nullptr;
  Py_INCREF(object);
  return object;
}

PyObject *listAppend(PyObject *object, PyObject *value) {
  if (!append(asList(object), value))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *listExtend(PyObject *object, PyObject *iterable) {
  if (!extendFrom(asList(object), iterable))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *listInsert(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  if (count != 2) {
    PyErr_Format(PyExc_TypeError, "insert expected 2 arguments, got %zd", count);
    return nullptr;
  }
  List *self = asList(object);
  Py_ssize_t index = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
  if (index == -1 && PyErr_Occurred())
    return nullptr;
  if (!typeBy(self, args[1]))
    return nullptr;
  int64_t size = sizeOf(self);
  if (index < 0)
    index = std::max<Py_ssize_t>(0, index + size);
  index = std::min<Py_ssize_t>(index, size);
  if (taipan_list_open(self->block, index, 1) != 0)
    return PyErr_NoMemory();
  if (!storeAt(self, index, args[1])) {
    taipan_list_erase(self->block, index, index + 1);
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyObject *listPop(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  List *self = asList(object);
  if (count > 1) {
    PyErr_Format(PyExc_TypeError, "pop expected at most 1 argument, got %zd", count);
    return nullptr;
  }
  if (sizeOf(self) == 0) {
    PyErr_SetString(PyExc_IndexError, "pop from empty list");
    return nullptr;
  }
  int64_t at = sizeOf(self) - 1;
  if (count == 1 && !position(self, args[0], at, "pop index out of range"))
    return nullptr;
  PyObject *item = itemAt(self, at);
  if (item)
    taipan_list_erase(self->block, at, at + 1);
  return item;
}

/// The bounds of index() and the like: Python's clamped start and stop.
bool bounds(List *self, PyObject *const *args, Py_ssize_t count, int64_t &start, int64_t &stop) {
  int64_t size = sizeOf(self);
  start = 0;
  stop = size;
  for (Py_ssize_t k = 1; k < count && k < 3; ++k) {
    Py_ssize_t value = PyNumber_AsSsize_t(args[k], PyExc_OverflowError);
    if (value == -1 && PyErr_Occurred())
      return false;
    if (value < 0)
      value = std::max<Py_ssize_t>(0, value + size);
    (k == 1 ? start : stop) = std::min<int64_t>(value, size);
  }
  return true;
}

PyObject *listIndex(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  List *self = asList(object);
  if (count < 1 || count > 3) {
    PyErr_SetString(PyExc_TypeError, "index expected 1 to 3 arguments");
    return nullptr;
  }
  int64_t start, stop;
  if (!bounds(self, args, count, start, stop))
    return nullptr;
  int64_t found = self->block ? find(self, args[0], start, stop) : -1;
  if (found == -2)
    return nullptr;
  if (found < 0) {
    PyErr_Format(PyExc_ValueError, "%R is not in list", args[0]);
    return nullptr;
  }
  return PyLong_FromLongLong(found);
}

PyObject *listCount(PyObject *object, PyObject *value) {
  List *self = asList(object);
  int64_t total = 0;
  for (int64_t at = 0; self->block && at < sizeOf(self); ++at) {
    int64_t found = find(self, value, at, sizeOf(self));
    if (found == -2)
      return nullptr;
    if (found < 0)
      break;
    ++total;
    at = found;
  }
  return PyLong_FromLongLong(total);
}

PyObject *listRemove(PyObject *object, PyObject *value) {
  List *self = asList(object);
  int64_t found = self->block ? find(self, value, 0, sizeOf(self)) : -1;
  if (found == -2)
    return nullptr;
  if (found < 0) {
    PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
    return nullptr;
  }
  taipan_list_erase(self->block, found, found + 1);
  Py_RETURN_NONE;
}

PyObject *listReverse(PyObject *object, PyObject *) {
  List *self = asList(object);
  if (self->block)
    taipan_list_reverse(self->block);
  Py_RETURN_NONE;
}

PyObject *listClear(PyObject *object, PyObject *) {
  List *self = asList(object);
  if (self->block)
    taipan_list_erase(self->block, 0, sizeOf(self));
  Py_RETURN_NONE;
}

PyObject *listCopy(PyObject *object, PyObject *) {
  List *self = asList(object);
  if (!self->block)
    return newTypedList(self->type, nullptr);
  MemInfo *block = taipan_list_slice(self->block, 0, 1, sizeOf(self));
  if (!block)
    return PyErr_NoMemory();
  return newTypedList(self->type, block);
}

/// The runtime's sort code for lists of real numbers, or -1 (then Python's sort is used).
int sortCode(const Type *item) {
  if (!item || !item->isReal() || (item->isFloat() && item->bits() == 16))
    return -1;
  if (item->isBoolean())
    return runtime::SortBool;
  if (item->isFloat())
    return item->bits() == 32 ? runtime::SortFloat32 : runtime::SortFloat64;
  switch (item->bits()) {
  case 8:
    return item->isSigned() ? runtime::SortInt8 : runtime::SortUInt8;
  case 16:
    return item->isSigned() ? runtime::SortInt16 : runtime::SortUInt16;
  case 32:
    return item->isSigned() ? runtime::SortInt32 : runtime::SortUInt32;
  default:
    return item->isSigned() ? runtime::SortInt64 : runtime::SortUInt64;
  }
}

PyObject *listSort(PyObject *object, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"key", "reverse", nullptr};
  PyObject *key = Py_None;
  int reverse = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$Op:sort", const_cast<char **>(keywords), &key,
                                   &reverse))
    return nullptr;
  List *self = asList(object);
  if (!self->block)
    Py_RETURN_NONE;
  int code = sortCode(self->type->itemType());
  bool hasNaN = false;
  if (code == runtime::SortFloat64 || code == runtime::SortFloat32)
    for (int64_t i = 0; i < sizeOf(self) && !hasNaN; ++i) {
      double value;
      if (code == runtime::SortFloat64) {
        std::memcpy(&value, slotAt(self, i), sizeof(value));
      } else {
        float single;
        std::memcpy(&single, slotAt(self, i), sizeof(single));
        value = single;
      }
      hasNaN = value != value;
    }
  // NaN makes Python's order depend on its algorithm: the Python sort decides it then.
  if (key == Py_None && code >= 0 && !hasNaN) {
    taipan_list_sort(self->block, code, reverse);
    Py_RETURN_NONE;
  }
  PyObject *items = toPythonList(self);
  if (!items)
    return nullptr;
  PyObject *sort = PyObject_GetAttrString(items, "sort");
  PyObject *noArguments = PyTuple_New(0);
  PyObject *result = sort && noArguments ? PyObject_Call(sort, noArguments, kwargs) : nullptr;
  Py_XDECREF(sort);
  Py_XDECREF(noArguments);
  if (result && !refill(self, items))
    Py_CLEAR(result);
  Py_DECREF(items);
  return result;
}

/// ==, != and the orderings, against typed Lists and lists: Python's, on the boxed items.
PyObject *listRichCompare(PyObject *object, PyObject *other, int op) {
  if (Py_TYPE(other) != typedListType && !PyList_Check(other))
    Py_RETURN_NOTIMPLEMENTED;
  PyObject *left = toPythonList(asList(object));
  PyObject *right =
      Py_TYPE(other) == typedListType ? toPythonList(asList(other)) : (Py_INCREF(other), other);
  PyObject *result = left && right ? PyObject_RichCompare(left, right, op) : nullptr;
  Py_XDECREF(left);
  Py_XDECREF(right);
  return result;
}

/// Numba's str(): the items' str() in brackets.
std::string listBody(List *self, bool &ok) {
  std::string body = "[";
  ok = true;
  for (int64_t i = 0; i < sizeOf(self); ++i) {
    PyObject *item = itemAt(self, i);
    PyObject *text = item ? PyObject_Str(item) : nullptr;
    Py_XDECREF(item);
    if (!text) {
      ok = false;
      return "";
    }
    body += (i ? ", " : "") + std::string(PyUnicode_AsUTF8(text));
    Py_DECREF(text);
  }
  return body + "]";
}

PyObject *listStr(PyObject *object) {
  bool ok;
  std::string body = listBody(asList(object), ok);
  return ok ? PyUnicode_FromString(body.c_str()) : nullptr;
}

/// Numba's repr(): `ListType[int64]([1, 2, 3])`.
PyObject *listRepr(PyObject *object) {
  List *self = asList(object);
  bool ok;
  std::string body = listBody(self, ok);
  if (!ok)
    return nullptr;
  std::string prefix = self->block ? self->type->name() : "ListType[Undefined]";
  return PyUnicode_FromString((prefix + "(" + body + ")").c_str());
}

PyObject *listEmpty(PyObject *cls, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"item_type", "allocated", nullptr};
  PyObject *itemType = nullptr, *allocated = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:empty_list", const_cast<char **>(keywords),
                                   &itemType, &allocated))
    return nullptr;
  const Type *item = typeFromArgument(itemType, "item type");
  if (!item)
    return nullptr;
  PyObject *result = listNew(reinterpret_cast<PyTypeObject *>(cls), nullptr, nullptr);
  if (result && !setItemType(asList(result), item))
    Py_CLEAR(result);
  return result;
}

PyObject *listTypeProperty(PyObject *object, void *) {
  if (!asList(object)->block) {
    PyErr_SetString(PyExc_TypeError, "invalid operation on untyped list");
    return nullptr;
  }
  return nb::cast(TypeRef{asList(object)->type}).release().ptr();
}

PyObject *listItemTypeProperty(PyObject *object, void *) {
  const Type *item = asList(object)->type->itemType();
  if (!item) {
    PyErr_SetString(PyExc_RuntimeError, "invalid operation on untyped list");
    return nullptr;
  }
  return nb::cast(TypeRef{item}).release().ptr();
}

PyObject *listTypedProperty(PyObject *object, void *) {
  return PyBool_FromLong(asList(object)->block != nullptr);
}

PyMethodDef listMethods[] = {
    {"append", listAppend, METH_O, "Appends an item (the first one fixes the item type)."},
    {"extend", listExtend, METH_O, "Appends the items of an iterable."},
    {"insert", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listInsert)),
     METH_FASTCALL, "Inserts an item before an index."},
    {"pop", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listPop)), METH_FASTCALL,
     "Removes and returns the item at an index (the last by default)."},
    {"index", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listIndex)), METH_FASTCALL,
     "The index of the first item equal to a value."},
    {"count", listCount, METH_O, "How many items equal a value."},
    {"remove", listRemove, METH_O, "Removes the first item equal to a value."},
    {"reverse", listReverse, METH_NOARGS, "Reverses the items in place."},
    {"clear", listClear, METH_NOARGS, "Removes every item."},
    {"copy", listCopy, METH_NOARGS, "A shallow copy."},
    {"__copy__", listCopy, METH_NOARGS, "A shallow copy (copy.copy)."},
    {"sort", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listSort)),
     METH_VARARGS | METH_KEYWORDS, "Sorts the items in place (key and reverse as list.sort)."},
    {"empty_list", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listEmpty)),
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, "An empty typed List of items of a type."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef listProperties[] = {
    {"_numba_type_", listTypeProperty, nullptr, "The list's type (ListType[item]).", nullptr},
    {"_list_type", listTypeProperty, nullptr, "The list's type (ListType[item]).", nullptr},
    {"_dtype", listItemTypeProperty, nullptr, "The item type, or None.", nullptr},
    {"_typed", listTypedProperty, nullptr, "Whether the item type is known.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

} // namespace

PyObject *newTypedList(const Type *type, MemInfo *block) {
  PyObject *result = listNew(typedListType, nullptr, nullptr);
  if (!result) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  if (block) {
    asList(result)->type = type;
    asList(result)->block = block;
  }
  return result;
}

void defineTypedList(nb::module_ &module) {
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void *>(listNew)},
      {Py_tp_init, reinterpret_cast<void *>(listInit)},
      {Py_tp_dealloc, reinterpret_cast<void *>(listDealloc)},
      {Py_tp_repr, reinterpret_cast<void *>(listRepr)},
      {Py_tp_str, reinterpret_cast<void *>(listStr)},
      {Py_tp_richcompare, reinterpret_cast<void *>(listRichCompare)},
      {Py_tp_hash, reinterpret_cast<void *>(PyObject_HashNotImplemented)},
      {Py_tp_methods, listMethods},
      {Py_tp_getset, listProperties},
      {Py_nb_inplace_add, reinterpret_cast<void *>(listInplaceAdd)},
      {Py_sq_length, reinterpret_cast<void *>(listLength)},
      {Py_sq_item, reinterpret_cast<void *>(listItem)},
      {Py_sq_contains, reinterpret_cast<void *>(listContains)},
      {Py_mp_length, reinterpret_cast<void *>(listLength)},
      {Py_mp_subscript, reinterpret_cast<void *>(listSubscript)},
      {Py_mp_ass_subscript, reinterpret_cast<void *>(listAssign)},
      {Py_tp_doc, const_cast<char *>("A list whose items have one type (Numba's typed.List): "
                                     "compiled code receives it without a copy.")},
      {0, nullptr}};
  static PyType_Spec spec = {"taipan.typed.List", sizeof(List), 0, Py_TPFLAGS_DEFAULT, slots};
  typedListType = reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&spec));
  if (!typedListType)
    throw nb::python_error();
  module.attr("TypedList") = nb::handle(reinterpret_cast<PyObject *>(typedListType));
}

} // namespace taipan::bindings
