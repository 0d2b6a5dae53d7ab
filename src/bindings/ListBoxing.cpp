// Python lists across the boundary (ListBoxing.h). A list argument is copied into a compiled
// list for the call and its items copied back afterwards, which is how Numba reflects lists.
#include "ListBoxing.h"

#include "Boxing.h"
#include "SetBoxing.h"
#include "runtime/Lists.h"
#include "types/NumericPromotion.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace taipan::bindings {

void raiseTypingError(const std::string &message) {
  PyObject *errors = PyImport_ImportModule("taipan.errors");
  PyObject *type = errors ? PyObject_GetAttrString(errors, "TypingError") : nullptr;
  Py_XDECREF(errors);
  PyErr_Clear();
  PyErr_SetString(type ? type : PyExc_TypeError, message.c_str());
  Py_XDECREF(type);
}

namespace {

using runtime::ListHeader;
using runtime::listHeader;
using runtime::MemInfo;

} // namespace

const Type *typeOfList(PyObject *value) {
  if (PyList_GET_SIZE(value) == 0)
    return nullptr;
  const Type *item = typeOfValue(PyList_GET_ITEM(value, 0));
  return item ? types::list(item) : nullptr;
}

std::string describeUnsupportedList(PyObject *value) {
  if (!PyList_Check(value))
    return "";
  if (PyList_GET_SIZE(value) == 0)
    return "cannot type empty list";
  PyObject *first = PyList_GET_ITEM(value, 0);
  if (PyList_Check(first))
    return describeUnsupportedList(first);
  return std::string("cannot type a list of ") + Py_TYPE(first)->tp_name;
}

bool holdsLists(const Type *type) {
  if (type->isSet())
    return true;
  if (type->isList())
    return type->isReflected(); // a typed list is passed as its block, never copied
  if (!type->isTuple())
    return false;
  for (const Type *element : type->elements())
    if (holdsLists(element))
      return true;
  return false;
}

bool unboxList(PyObject *value, const Type *type, void *storage) {
  if (!PyList_Check(value)) {
    PyErr_Format(PyExc_TypeError, "expected a list, not %s", Py_TYPE(value)->tp_name);
    return false;
  }
  const Type *item = type->itemType();
  Py_ssize_t count = PyList_GET_SIZE(value);
  std::vector<int64_t> offsets = types::referenceOffsets(item);
  MemInfo *list = taipan_list_new(item ? static_cast<int64_t>(item->storageSize()) : 0, count,
                                  offsets.data(), static_cast<int64_t>(offsets.size()));
  if (!list) {
    PyErr_NoMemory();
    return false;
  }
  ListHeader *header = listHeader(list);
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject *element = PyList_GET_ITEM(value, i);
    const Type *actual = typeOfValue(element);
    // Items of the first item's type (or one that converts to it without loss, as an int into
    // a list of floats); anything else makes a heterogeneous list.
    if (!item || !actual || unifyTypes(item, actual) != item) {
      header->size = i; // the items unboxed so far are released with the list
      taipan_nrt_decref(list);
      raiseTypingError("cannot unbox a heterogeneous list: " + (item ? item->name() : "?") +
                       " != " + (actual ? actual->name() : Py_TYPE(element)->tp_name));
      return false;
    }
    if (!unboxValue(element, item, header->items + i * header->itemSize)) {
      header->size = i;
      taipan_nrt_decref(list);
      return false;
    }
  }
  std::memcpy(storage, &list, sizeof(list));
  return true;
}

PyObject *boxList(const Type *type, const void *storage) {
  MemInfo *list = blockAt(storage);
  ListHeader *header = listHeader(list);
  PyObject *result = PyList_New(header->size);
  if (result) {
    for (int64_t i = 0; i < header->size; ++i) {
      taipan_list_retain(list, i, i + 1); // boxing takes over the item's references
      PyObject *element = boxValue(type->itemType(), header->items + i * header->itemSize);
      if (!element) {
        Py_CLEAR(result);
        break;
      }
      PyList_SET_ITEM(result, i, element);
    }
  }
  taipan_nrt_decref(list);
  return result;
}

/// Whether two objects are numbers or strings of one class holding the same value, bit for bit
/// (-0.0 is not 0.0, a NaN is its own payload); containers and arrays are never compared, which
/// would cost a walk each.
static bool sameScalar(PyObject *before, PyObject *after) {
  if (Py_TYPE(before) != Py_TYPE(after))
    return false;
  if (PyFloat_CheckExact(after)) {
    double x = PyFloat_AS_DOUBLE(before), y = PyFloat_AS_DOUBLE(after);
    return std::memcmp(&x, &y, sizeof(double)) == 0;
  }
  if (PyComplex_CheckExact(after)) {
    Py_complex x = PyComplex_AsCComplex(before), y = PyComplex_AsCComplex(after);
    return std::memcmp(&x.real, &y.real, sizeof(double)) == 0 &&
           std::memcmp(&x.imag, &y.imag, sizeof(double)) == 0;
  }
  if (!PyLong_CheckExact(after) && !PyBool_Check(after) && !PyUnicode_CheckExact(after))
    return false;
  int same = PyObject_RichCompareBool(before, after, Py_EQ);
  if (same < 0)
    PyErr_Clear();
  return same == 1;
}

bool finishListArgument(PyObject *value, const Type *type, void *storage, bool reflect) {
  if (type->isTuple()) {
    bool ok = true;
    for (size_t i = 0; i < type->elements().size(); ++i)
      if (holdsLists(type->elements()[i]))
        ok &= finishListArgument(PyTuple_GET_ITEM(value, i), type->elements()[i],
                                 static_cast<char *>(storage) + type->elementOffset(i),
                                 reflect && ok);
    return ok;
  }
  if (type->isSet()) // reflected after an exception too, as Numba does (when it changed)
    return finishSetArgument(value, type, storage, true);
  MemInfo *list = blockAt(storage);
  if (!reflect) {
    taipan_nrt_decref(list);
    return true;
  }
  // boxList takes over the list's reference; the caller's list gets the items in place,
  // keeping its own item objects where the value did not change (a list the call left alone
  // keeps its items' identities, as in Python).
  PyObject *items = boxList(type, storage);
  if (!items)
    return false;
  Py_ssize_t kept = std::min(PyList_GET_SIZE(items), PyList_GET_SIZE(value));
  for (Py_ssize_t i = 0; i < kept; ++i) {
    PyObject *before = PyList_GET_ITEM(value, i);
    PyObject *after = PyList_GET_ITEM(items, i);
    if (sameScalar(before, after)) {
      Py_INCREF(before);
      PyList_SET_ITEM(items, i, before);
      Py_DECREF(after);
    }
  }
  int status = PyList_SetSlice(value, 0, PyList_GET_SIZE(value), items);
  Py_DECREF(items);
  return status == 0;
}

} // namespace taipan::bindings
