// NumPy interop through NumPy's C API, imported on first use.
#include "ArrayBoxing.h"

#define PY_ARRAY_UNIQUE_SYMBOL taipan_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "DatetimeBoxing.h"
#include "RecordBoxing.h"
#include "runtime/MemoryRuntime.h"
#include "types/CharSequences.h"

#include <cstring>
#include <string>

namespace taipan::bindings {
namespace {

bool numpyReady = false;

/// Imports NumPy's C API once NumPy itself is loaded; false while it is not.
bool ensureNumpy() {
  if (numpyReady)
    return true;
  static PyObject *name = PyUnicode_InternFromString("numpy");
  PyObject *module = PyImport_GetModule(name); // new reference, or null when not imported
  if (!module) {
    PyErr_Clear();
    return false;
  }
  Py_DECREF(module);
  if (_import_array() < 0) {
    PyErr_Clear();
    return false;
  }
  numpyReady = true;
  ndarrayType = &PyArray_Type;
  return true;
}

const Type *dtypeType(int typeNumber) {
  switch (typeNumber) {
  case NPY_BOOL:
    return types::boolean();
  case NPY_BYTE:
    return types::integer(8, true);
  case NPY_UBYTE:
    return types::integer(8, false);
  case NPY_SHORT:
    return types::integer(16, true);
  case NPY_USHORT:
    return types::integer(16, false);
  case NPY_INT:
    return types::integer(32, true);
  case NPY_UINT:
    return types::integer(32, false);
  case NPY_LONG:
    return types::integer(8 * sizeof(long), true);
  case NPY_ULONG:
    return types::integer(8 * sizeof(long), false);
  case NPY_LONGLONG:
    return types::int64();
  case NPY_ULONGLONG:
    return types::uint64();
  case NPY_HALF:
    return types::floating(16);
  case NPY_FLOAT:
    return types::float32();
  case NPY_DOUBLE:
    return types::float64();
  case NPY_CFLOAT:
    return types::complex(64);
  case NPY_CDOUBLE:
    return types::complex128();
  default:
    return nullptr;
  }
}

int typeNumberOf(const Type *dtype) {
  switch (dtype->kind()) {
  case TypeKind::Boolean:
    return NPY_BOOL;
  case TypeKind::Float:
    return dtype->bits() == 16 ? NPY_HALF : dtype->bits() == 32 ? NPY_FLOAT : NPY_DOUBLE;
  case TypeKind::Complex:
    return dtype->bits() == 64 ? NPY_CFLOAT : NPY_CDOUBLE;
  default:
    switch (dtype->bits()) {
    case 8:
      return dtype->isSigned() ? NPY_INT8 : NPY_UINT8;
    case 16:
      return dtype->isSigned() ? NPY_INT16 : NPY_UINT16;
    case 32:
      return dtype->isSigned() ? NPY_INT32 : NPY_UINT32;
    default:
      return dtype->isSigned() ? NPY_INT64 : NPY_UINT64;
    }
  }
}

/// Owns one reference to a memory block; the base object of arrays compiled code returns.
struct MemInfoOwner {
  PyObject_HEAD runtime::MemInfo *block;
};

void ownerDealloc(PyObject *object) {
  taipan_nrt_decref(reinterpret_cast<MemInfoOwner *>(object)->block);
  PyTypeObject *type = Py_TYPE(object);
  type->tp_free(object);
  Py_DECREF(type);
}

/// `refcount`: the block's reference count, as Numba's MemInfo shows it (tests of Numba read
/// `arr.base.refcount` to see that compiled code kept no reference of its own).
PyObject *ownerRefcount(PyObject *object, void *) {
  return PyLong_FromLongLong(reinterpret_cast<MemInfoOwner *>(object)->block->references.load());
}

PyTypeObject *ownerType() {
  static PyTypeObject *type = [] {
    static PyGetSetDef properties[] = {
        {"refcount", ownerRefcount, nullptr, "the memory block's reference count", nullptr},
        {nullptr, nullptr, nullptr, nullptr, nullptr}};
    static PyType_Slot slots[] = {{Py_tp_dealloc, reinterpret_cast<void *>(ownerDealloc)},
                                  {Py_tp_getset, properties},
                                  {0, nullptr}};
    static PyType_Spec spec = {"taipan._core.MemInfoOwner", sizeof(MemInfoOwner), 0,
                               Py_TPFLAGS_DEFAULT, slots};
    return reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&spec));
  }();
  return type;
}

/// The destructor of blockOwningObject's blocks.
void releaseOwnedObject(void *, void *object) {
  if (!Py_IsInitialized())
    return;
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF(static_cast<PyObject *>(object));
  PyGILState_Release(state);
}

template <typename T> T field(const void *storage, size_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char *>(storage) + offset, sizeof(T));
  return value;
}

template <typename T> void setField(void *storage, size_t offset, T value) {
  std::memcpy(static_cast<char *>(storage) + offset, &value, sizeof(T));
}

/// The dtype object of arrays of `dtype`, a new reference.
PyArray_Descr *descrOf(const Type *dtype) {
  if (dtype->isRecord()) {
    auto *descr = reinterpret_cast<PyArray_Descr *>(descrOfRecord(dtype));
    Py_INCREF(descr);
    return descr;
  }
  if (dtype->isDatetimeLike()) {
    auto *descr = reinterpret_cast<PyArray_Descr *>(descrOfDatetime(dtype));
    Py_XINCREF(descr);
    return descr;
  }
  if (types::isCharSequence(dtype)) { // `<U n` or `S n`
    std::string spelling = (types::isUnicodeCharSequence(dtype) ? "U" : "S") +
                           std::to_string(types::charSequenceLength(dtype));
    PyObject *text = PyUnicode_FromString(spelling.c_str());
    PyArray_Descr *descr = nullptr;
    if (text && !PyArray_DescrConverter(text, &descr))
      descr = nullptr;
    Py_XDECREF(text);
    return descr;
  }
  return PyArray_DescrFromType(typeNumberOf(dtype));
}

} // namespace

bool ensureNumpyApi() { return ensureNumpy(); }

PyTypeObject *ndarrayType = nullptr;

namespace {
/// The array types of plain dtypes seen so far, by dtype number, dimensions, layout (C, F, A)
/// and read-only flag (NPY_HALF is the largest dtype number of the table).
const Type *arrayTypes[NPY_HALF + 1][NPY_MAXDIMS + 1][3][2];
} // namespace

const Type *typeOfNdarray(PyObject *value) {
  auto *array = reinterpret_cast<PyArrayObject *>(value);
  PyArray_Descr *descr = PyArray_DESCR(array);
  int ndim = PyArray_NDIM(array);
  int flags = PyArray_FLAGS(array);
  int layout = (flags & NPY_ARRAY_C_CONTIGUOUS)                 ? 0
               : (ndim > 1 && (flags & NPY_ARRAY_F_CONTIGUOUS)) ? 1
                                                                : 2;
  bool readonly = !(flags & NPY_ARRAY_WRITEABLE);
  // The fingerprint of an array argument is a table lookup once its kind has been seen.
  if (descr->type_num >= 0 && descr->type_num <= NPY_HALF && !PyArray_ISBYTESWAPPED(array))
    if (const Type *seen = arrayTypes[descr->type_num][ndim][layout][readonly])
      return seen;
  if (PyArray_ISBYTESWAPPED(array))
    return nullptr;
  if (descr->type_num == NPY_VOID) { // a structured dtype: arrays of records
    const Type *record = recordTypeOfDescr(reinterpret_cast<PyObject *>(descr));
    if (!record)
      return nullptr;
    return types::array(record, ndim, "CFA"[layout], readonly);
  }
  if (descr->type_num == NPY_UNICODE || descr->type_num == NPY_STRING) {
    // Fixed-width strings (types/CharSequences.h): the width is the dtype's, so these bypass
    // the table below. A zero itemsize (np.array('')'s is 4) never reaches compiled code.
    int64_t characters =
        descr->type_num == NPY_UNICODE ? PyDataType_ELSIZE(descr) / 4 : PyDataType_ELSIZE(descr);
    if (characters <= 0)
      return nullptr;
    return types::array(types::charSequence(characters, descr->type_num == NPY_UNICODE), ndim,
                        "CFA"[layout], readonly);
  }
  if (descr->type_num == NPY_DATETIME || descr->type_num == NPY_TIMEDELTA) {
    // The unit is in the dtype's metadata, so these bypass the table below.
    const Type *element = datetimeTypeOfDescr(reinterpret_cast<PyObject *>(descr));
    if (!element)
      return nullptr;
    return types::array(element, ndim, "CFA"[layout], readonly);
  }
  const Type *dtype = dtypeType(descr->type_num);
  if (!dtype)
    return nullptr;
  const Type *&cached = arrayTypes[descr->type_num][ndim][layout][readonly];
  if (!cached)
    cached = types::array(dtype, ndim, "CFA"[layout], readonly);
  return cached;
}

const Type *typeOfArrayIfArray(PyObject *value) {
  if (!numpyReady || !PyArray_Check(value))
    return nullptr;
  return typeOfNdarray(value);
}

const Type *typeOfArray(PyObject *value) {
  if (!ensureNumpy() || !PyArray_Check(value))
    return nullptr;
  return typeOfNdarray(value);
}

std::string describeUnsupportedArray(PyObject *value) {
  if (!ensureNumpy() || !PyArray_Check(value))
    return "";
  auto *array = reinterpret_cast<PyArrayObject *>(value);
  PyObject *text = PyObject_Str(reinterpret_cast<PyObject *>(PyArray_DESCR(array)));
  std::string dtype = text ? PyUnicode_AsUTF8(text) : "?";
  Py_XDECREF(text);
  if (PyArray_ISBYTESWAPPED(array))
    return "array of non-native byte order (" + dtype + "): convert it with .astype(" +
           dtype.substr(1) + ") first";
  if (PyArray_DESCR(array)->type_num == NPY_VOID) {
    std::string why;
    recordTypeOfDescr(reinterpret_cast<PyObject *>(PyArray_DESCR(array)), &why);
    return "array of record dtype " + dtype + " (" +
           (why.empty() ? std::string("a structured dtype without fields") : why) + ")";
  }
  return "array of dtype " + dtype + ", which compiled code does not support";
}

namespace {

/// A new ndarray viewing the buffer of a memoryview or bytearray, else nullptr (no error set).
PyObject *arrayOfBuffer(PyObject *value) {
  if (!(PyMemoryView_Check(value) || PyByteArray_Check(value)) || !ensureNumpy())
    return nullptr;
  PyObject *array = PyArray_FromAny(value, nullptr, 0, 0, 0, nullptr);
  if (!array || !PyArray_Check(array)) {
    PyErr_Clear();
    Py_XDECREF(array);
    return nullptr;
  }
  return array;
}

} // namespace

const Type *typeOfBufferObject(PyObject *value) {
  PyObject *array = arrayOfBuffer(value);
  if (!array)
    return nullptr;
  const Type *type = typeOfNdarray(array);
  Py_DECREF(array);
  return type;
}

bool unboxArray(PyObject *value, const Type *type, void *storage, bool verified) {
  // A memoryview or bytearray is read through the ndarray NumPy makes of its buffer; the
  // argument itself stays the parent, which keeps the buffer alive for the call.
  PyObject *buffer = nullptr;
  if ((!numpyReady || !PyArray_Check(value)) && (buffer = arrayOfBuffer(value))) {
    bool unboxed = unboxArray(buffer, type, storage, false);
    Py_DECREF(buffer);
    if (unboxed)
      setField<void *>(storage, ArrayLayout::parentOffset, value);
    return unboxed;
  }
  const Type *actual = verified ? type : typeOfArrayIfArray(value);
  if (actual != type &&
      (!actual || actual->dtype() != type->dtype() || actual->ndim() != type->ndim() ||
       (type->layout() != 'A' && actual->layout() != type->layout()) ||
       (actual->isReadonly() && !type->isReadonly()))) {
    PyErr_Format(PyExc_TypeError, "expected %s, got %s", type->name().c_str(),
                 actual ? actual->name().c_str() : Py_TYPE(value)->tp_name);
    return false;
  }
  auto *array = reinterpret_cast<PyArrayObject *>(value);
  int ndim = type->ndim();
  int64_t items = 1; // PyArray_SIZE, without a call into NumPy
  for (int i = 0; i < ndim; ++i) {
    items *= PyArray_DIM(array, i);
    setField<int64_t>(storage, ArrayLayout::shapeOffset + 8 * i, PyArray_DIM(array, i));
    setField<int64_t>(storage, ArrayLayout::stridesOffset(ndim) + 8 * i, PyArray_STRIDE(array, i));
  }
  setField<void *>(storage, ArrayLayout::memInfoOffset, nullptr);
  setField<void *>(storage, ArrayLayout::parentOffset, value);
  setField<int64_t>(storage, ArrayLayout::itemCountOffset, items);
  setField<int64_t>(storage, ArrayLayout::itemSizeOffset, PyArray_ITEMSIZE(array));
  setField<void *>(storage, ArrayLayout::dataOffset, PyArray_DATA(array));
  return true;
}

PyObject *boxArray(const Type *type, const void *storage) {
  if (!ensureNumpy()) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (!numpy || !ensureNumpy())
      return nullptr;
    Py_DECREF(numpy);
  }
  int ndim = type->ndim();
  auto *block = field<runtime::MemInfo *>(storage, ArrayLayout::memInfoOffset);
  auto *parent = field<PyObject *>(storage, ArrayLayout::parentOffset);
  void *data = field<void *>(storage, ArrayLayout::dataOffset);
  npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  for (int i = 0; i < ndim; ++i) {
    shape[i] = field<int64_t>(storage, ArrayLayout::shapeOffset + 8 * i);
    strides[i] = field<int64_t>(storage, ArrayLayout::stridesOffset(ndim) + 8 * i);
  }
  PyArray_Descr *descr = descrOf(type->dtype());
  if ((!block || block->destructor == releaseOwnedObject) && parent && PyArray_Check(parent)) {
    // A view of an argument: the argument itself when nothing changed, as Numba does (a field
    // view of records at offset 0 has the data but not the dtype of its parent; a read-only
    // view of a writable argument, np.broadcast_to(a, a.shape), must stay read-only).
    auto *source = reinterpret_cast<PyArrayObject *>(parent);
    if (PyArray_DATA(source) == data && PyArray_NDIM(source) == ndim &&
        (!type->isReadonly() || !PyArray_ISWRITEABLE(source)) &&
        PyArray_EquivTypes(PyArray_DESCR(source), descr) &&
        std::memcmp(PyArray_DIMS(source), shape, sizeof(npy_intp) * ndim) == 0 &&
        std::memcmp(PyArray_STRIDES(source), strides, sizeof(npy_intp) * ndim) == 0) {
      Py_DECREF(descr);
      Py_INCREF(parent);
      taipan_nrt_decref(block); // boxing takes over the reference
      return parent;
    }
  }
  int flags = type->isReadonly() ? 0 : NPY_ARRAY_WRITEABLE;
  PyObject *array =
      PyArray_NewFromDescr(&PyArray_Type, descr, ndim, shape, strides, data, flags, nullptr);
  if (!array) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  PyObject *base;
  if (block) {
    auto *owner = PyObject_New(MemInfoOwner, ownerType());
    if (!owner) {
      taipan_nrt_decref(block);
      Py_DECREF(array);
      return nullptr;
    }
    owner->block = block; // takes over the returned reference
    base = reinterpret_cast<PyObject *>(owner);
  } else {
    base = parent ? parent : Py_None;
    Py_INCREF(base);
  }
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(array), base) < 0) {
    Py_DECREF(array);
    return nullptr;
  }
  return array;
}

runtime::MemInfo *blockOwningObject(PyObject *object) {
  runtime::MemInfo *block = taipan_nrt_allocate_with_destructor(0, releaseOwnedObject, object);
  if (block)
    Py_INCREF(object);
  return block;
}

} // namespace taipan::bindings
