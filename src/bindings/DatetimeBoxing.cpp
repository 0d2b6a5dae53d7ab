// NumPy datetime64/timedelta64 scalars and dtypes, through NumPy's C API (its datetime metadata).
#include "DatetimeBoxing.h"

#include "ArrayBoxing.h"

#define PY_ARRAY_UNIQUE_SYMBOL taipan_ARRAY_API
#define NO_IMPORT_ARRAY
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include "types/DatetimeUnits.h"

#include <cstring>
#include <string>
#include <unordered_map>

namespace taipan::bindings {
namespace {

/// The type for NumPy's metadata: a unit of count 1 (or the generic unit); nullptr otherwise.
const Type *typeOfMetadata(bool isDatetime, const PyArray_DatetimeMetaData &meta) {
  int unit = static_cast<int>(meta.base);
  if (unit < 0 || unit > UnitGeneric || unit == 3 || (unit != UnitGeneric && meta.num != 1))
    return nullptr;
  return isDatetime ? types::datetime(unit) : types::timedelta(unit);
}

} // namespace

const Type *datetimeTypeOfDescr(PyObject *object) {
  if (!ensureNumpyApi() || !PyArray_DescrCheck(object))
    return nullptr;
  auto *descr = reinterpret_cast<PyArray_Descr *>(object);
  if (descr->type_num != NPY_DATETIME && descr->type_num != NPY_TIMEDELTA)
    return nullptr;
  if (!PyArray_ISNBO(descr->byteorder))
    return nullptr;
  auto *metadata = reinterpret_cast<PyArray_DatetimeDTypeMetaData *>(PyDataType_C_METADATA(descr));
  if (!metadata)
    return nullptr;
  return typeOfMetadata(descr->type_num == NPY_DATETIME, metadata->meta);
}

PyObject *descrOfDatetime(const Type *type) {
  static auto *descrs = new std::unordered_map<const Type *, PyObject *>();
  auto found = descrs->find(type);
  if (found != descrs->end())
    return found->second;
  std::string spelling = std::string(type->isDatetime() ? "M8" : "m8");
  if (type->datetimeUnit() != UnitGeneric)
    spelling += std::string("[") + datetimeUnitName(type->datetimeUnit()) + "]";
  PyObject *text = PyUnicode_FromString(spelling.c_str());
  PyArray_Descr *descr = nullptr;
  if (!text || !PyArray_DescrConverter(text, &descr))
    descr = nullptr;
  Py_XDECREF(text);
  if (descr)
    descrs->emplace(type, reinterpret_cast<PyObject *>(descr));
  return reinterpret_cast<PyObject *>(descr);
}

const Type *typeOfDatetimeScalar(PyObject *value) {
  if (!ensureNumpyApi())
    return nullptr;
  bool isDatetime = PyArray_IsScalar(value, Datetime);
  if (!isDatetime && !PyArray_IsScalar(value, Timedelta))
    return nullptr;
  return typeOfMetadata(isDatetime, reinterpret_cast<PyDatetimeScalarObject *>(value)->obmeta);
}

bool unboxDatetime(PyObject *value, const Type *type, void *storage) {
  const Type *actual = typeOfDatetimeScalar(value);
  if (actual != type) {
    PyErr_Format(PyExc_TypeError, "expected %s, got %s", type->name().c_str(),
                 actual ? actual->name().c_str() : Py_TYPE(value)->tp_name);
    return false;
  }
  int64_t count = reinterpret_cast<PyDatetimeScalarObject *>(value)->obval;
  std::memcpy(storage, &count, sizeof(count));
  return true;
}

PyObject *boxDatetime(const Type *type, const void *storage) {
  if (!ensureNumpyApi()) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (!numpy || !ensureNumpyApi())
      return nullptr;
    Py_DECREF(numpy);
  }
  PyObject *descr = descrOfDatetime(type);
  if (!descr)
    return nullptr;
  int64_t count;
  std::memcpy(&count, storage, sizeof(count));
  return PyArray_Scalar(&count, reinterpret_cast<PyArray_Descr *>(descr), nullptr);
}

} // namespace taipan::bindings
