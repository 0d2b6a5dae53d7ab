// Record dtypes read through the dtype's Python attributes (names, fields, subdtype), so the
// same code serves arrays, scalars and signatures; NumPy's C API only reads scalars' bytes.
#include "RecordBoxing.h"

#include "ArrayBoxing.h"
#include "types/NumericPromotion.h"

#define PY_ARRAY_UNIQUE_SYMBOL taipan_ARRAY_API
#define NO_IMPORT_ARRAY
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include <cstring>
#include <unordered_map>

namespace taipan::bindings {
namespace {

/// Dtype objects already typed (each kept alive, so its address is never reused), and the
/// first dtype object seen for each Record type, which boxing builds arrays and scalars of.
std::unordered_map<PyObject *, const Type *> &typedDescrs() {
  static auto *map = new std::unordered_map<PyObject *, const Type *>();
  return *map;
}
std::unordered_map<const Type *, PyObject *> &recordDescrs() {
  static auto *map = new std::unordered_map<const Type *, PyObject *>();
  return *map;
}

/// A Python attribute as a new reference, or nullptr with the error cleared.
PyObject *attribute(PyObject *object, const char *name) {
  PyObject *value = PyObject_GetAttrString(object, name);
  if (!value)
    PyErr_Clear();
  return value;
}

std::string text(PyObject *object) {
  PyObject *str = object ? PyObject_Str(object) : nullptr;
  std::string result = str ? PyUnicode_AsUTF8(str) : "?";
  Py_XDECREF(str);
  PyErr_Clear();
  return result;
}

/// The taipan type of a field's dtype: a number, a nested record or a subarray of numbers or
/// records.
const Type *fieldType(PyObject *descr, std::string *why);

/// A scalar dtype by its kind and size ('f', 8 -> float64), native byte order only.
const Type *scalarOfDescr(PyObject *descr, std::string *why) {
  PyObject *kind = attribute(descr, "kind");
  PyObject *size = attribute(descr, "itemsize");
  PyObject *native = attribute(descr, "isnative");
  const Type *type = nullptr;
  if (kind && size && native && PyObject_IsTrue(native) == 1) {
    std::string letter = PyUnicode_AsUTF8(kind);
    long bytes = PyLong_AsLong(size);
    if (letter == "b" || letter == "i" || letter == "u" || letter == "f" || letter == "c")
      type = types::scalarByName(letter + std::to_string(bytes));
  }
  Py_XDECREF(kind);
  Py_XDECREF(size);
  Py_XDECREF(native);
  if (!type && why && why->empty())
    *why = "a field of dtype " + text(descr) +
           (native && PyObject_IsTrue(native) != 1 ? " (non-native byte order)" : "") +
           ", which compiled code does not support";
  return type;
}

const Type *fieldType(PyObject *descr, std::string *why) {
  PyObject *fields = attribute(descr, "fields");
  bool isRecord = fields && fields != Py_None;
  Py_XDECREF(fields);
  if (isRecord)
    return recordTypeOfDescr(descr, why);
  PyObject *subdtype = attribute(descr, "subdtype");
  if (subdtype && subdtype != Py_None && PyTuple_Check(subdtype)) {
    // (base dtype, shape): a fixed-shape subarray field.
    PyObject *base = PyTuple_GET_ITEM(subdtype, 0);
    PyObject *shape = PyTuple_GET_ITEM(subdtype, 1);
    // Its elements: numbers, or records (a subarray of a record dtype, as Numba allows).
    PyObject *baseFields = attribute(base, "fields");
    bool recordElements = baseFields && baseFields != Py_None;
    Py_XDECREF(baseFields);
    const Type *element = recordElements ? recordTypeOfDescr(base, why) : scalarOfDescr(base, why);
    std::vector<int64_t> extents;
    for (Py_ssize_t i = 0; element && i < PyTuple_Size(shape); ++i)
      extents.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i)));
    Py_DECREF(subdtype);
    return element ? types::nestedArray(element, extents) : nullptr;
  }
  Py_XDECREF(subdtype);
  // Fixed-length strings ('U5', 'S5'): bytes the record carries, which compiled code copies
  // with the record but cannot read (a NestedArray of "unichr" or "char").
  PyObject *kind = attribute(descr, "kind");
  PyObject *size = attribute(descr, "itemsize");
  const Type *characters = nullptr;
  if (kind && size) {
    std::string letter = PyUnicode_AsUTF8(kind);
    long bytes = PyLong_AsLong(size);
    if (letter == "U" && bytes > 0)
      characters = types::nestedArray(types::stringLiteral("unichr"), {bytes / 4});
    else if (letter == "S" && bytes > 0)
      characters = types::nestedArray(types::stringLiteral("char"), {bytes});
  }
  Py_XDECREF(kind);
  Py_XDECREF(size);
  PyErr_Clear();
  return characters ? characters : scalarOfDescr(descr, why);
}

} // namespace

const Type *recordTypeOfDescr(PyObject *descr, std::string *why) {
  auto &typed = typedDescrs();
  auto found = typed.find(descr);
  if (found != typed.end())
    return found->second;
  PyObject *names = attribute(descr, "names");
  PyObject *fields = attribute(descr, "fields");
  PyObject *itemSize = attribute(descr, "itemsize");
  PyObject *aligned = attribute(descr, "isalignedstruct");
  const Type *record = nullptr;
  if (names && PyTuple_Check(names) && fields && PyMapping_Check(fields) && itemSize && aligned) {
    std::vector<std::string> fieldNames;
    std::vector<const Type *> fieldTypes;
    std::vector<int64_t> offsets;
    bool supported = true;
    for (Py_ssize_t i = 0; supported && i < PyTuple_GET_SIZE(names); ++i) {
      PyObject *name = PyTuple_GET_ITEM(names, i);
      // fields is a mappingproxy of name -> (dtype, offset[, title]).
      PyObject *entry = PyObject_GetItem(fields, name);
      const Type *type =
          entry && PyTuple_Check(entry) ? fieldType(PyTuple_GET_ITEM(entry, 0), why) : nullptr;
      if (!type) {
        Py_XDECREF(entry);
        supported = false;
        break;
      }
      fieldNames.push_back(PyUnicode_AsUTF8(name));
      fieldTypes.push_back(type);
      offsets.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1)));
      Py_DECREF(entry);
    }
    if (supported)
      record = types::record(fieldNames, fieldTypes, offsets,
                             static_cast<size_t>(PyLong_AsSsize_t(itemSize)),
                             PyObject_IsTrue(aligned) == 1);
  }
  Py_XDECREF(names);
  Py_XDECREF(fields);
  Py_XDECREF(itemSize);
  Py_XDECREF(aligned);
  PyErr_Clear();
  if (!record)
    return nullptr;
  Py_INCREF(descr);
  typed.emplace(descr, record);
  if (recordDescrs().emplace(record, descr).second)
    Py_INCREF(descr);
  return record;
}

PyObject *descrOfRecord(const Type *record) {
  auto found = recordDescrs().find(record);
  return found == recordDescrs().end() ? nullptr : found->second;
}

const Type *typeOfRecordScalar(PyObject *value) {
  if (!ensureNumpyApi() || !PyObject_TypeCheck(value, &PyVoidArrType_Type))
    return nullptr;
  return recordTypeOfDescr(
      reinterpret_cast<PyObject *>(reinterpret_cast<PyVoidScalarObject *>(value)->descr));
}

bool unboxRecord(PyObject *value, const Type *type, void *storage) {
  const Type *actual = typeOfRecordScalar(value);
  // A record with more fields is passed where a dispatcher chose a compiled function for its
  // leading fields (record subtyping): the data pointer serves both.
  if (actual != type && !(actual && conversionKind(actual, type) == Conversion::Safe)) {
    PyErr_Format(PyExc_TypeError, "expected %s, got %s", type->name().c_str(),
                 actual ? actual->name().c_str() : Py_TYPE(value)->tp_name);
    return false;
  }
  char *data = reinterpret_cast<PyVoidScalarObject *>(value)->obval;
  std::memcpy(storage, &data, sizeof(data));
  return true;
}

PyObject *boxRecord(const Type *type, const void *storage) {
  void *data;
  std::memcpy(&data, storage, sizeof(data));
  PyObject *descr = descrOfRecord(type);
  if (!descr || !ensureNumpyApi()) {
    PyErr_Format(PyExc_TypeError, "cannot return a record of type %s", type->name().c_str());
    return nullptr;
  }
  // PyArray_Scalar copies a void scalar's bytes when given no base.
  return PyArray_Scalar(data, reinterpret_cast<PyArray_Descr *>(descr), nullptr);
}

} // namespace taipan::bindings
