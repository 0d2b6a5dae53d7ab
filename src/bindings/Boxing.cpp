// Boxing and unboxing of scalars and tuples. NumPy scalars are recognised by their type name,
// so nothing here imports NumPy.
#include "Boxing.h"

#include "ArrayBoxing.h"
#include "DatetimeBoxing.h"
#include "FirstClassFunctions.h"
#include "FunctionValues.h"
#include "GeneratorBoxing.h"
#include "JitClassBoxing.h"
#include "ListBoxing.h"
#include "NamedTupleBoxing.h"
#include "RandomGeneratorBoxing.h"
#include "RecordBoxing.h"
#include "SetBoxing.h"
#include "StringBoxing.h"
#include "TypedContainers.h"
#include "UserTypeBoxing.h"
#include "types/CharSequences.h"
#include "types/RandomGeneratorType.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace taipan::bindings {
namespace {

/// Python types whose instances all have one taipan type (float, bool, numpy.float32, ...).
std::unordered_map<PyTypeObject *, const Type *> &scalarTypeCache() {
  static std::unordered_map<PyTypeObject *, const Type *> cache = [] {
    std::unordered_map<PyTypeObject *, const Type *> initial;
    initial[&PyFloat_Type] = types::float64();
    initial[&PyBool_Type] = types::boolean();
    initial[&PyComplex_Type] = types::complex128();
    initial[Py_TYPE(Py_None)] = types::none();
    initial[Py_TYPE(Py_Ellipsis)] = types::builtin("ellipsis"); // an index piece: '...'
    return initial;
  }();
  return cache;
}

/// NumPy scalar types are named "numpy.float32", "numpy.int64", "numpy.bool" and so on.
const Type *numpyScalarType(PyTypeObject *type) {
  const char *name = type->tp_name;
  if (std::strncmp(name, "numpy.", 6) != 0)
    return nullptr;
  std::string shortName = name + 6;
  if (shortName == "void" || shortName == "record")
    return nullptr; // record scalars: typeOfRecordScalar
  if (shortName == "longlong")
    return types::int64();
  if (shortName == "ulonglong")
    return types::uint64();
  return types::scalarByName(shortName);
}

template <typename T> void store(void *storage, T value) {
  std::memcpy(storage, &value, sizeof(T));
}
template <typename T> T load(const void *storage) {
  T value;
  std::memcpy(&value, storage, sizeof(T));
  return value;
}

/// A str (or, for `S n`, bytes or ASCII text) as the characters of the fixed-width string
/// `type`: its first n characters, NULs after them.
bool unboxCharSequence(PyObject *value, const Type *type, void *storage) {
  size_t length = static_cast<size_t>(types::charSequenceLength(type));
  if (types::isUnicodeCharSequence(type)) {
    if (!PyUnicode_Check(value)) {
      PyErr_Format(PyExc_TypeError, "expected str for %s, got %s", type->name().c_str(),
                   Py_TYPE(value)->tp_name);
      return false;
    }
    std::vector<Py_UCS4> points(length, 0);
    Py_ssize_t count =
        std::min<Py_ssize_t>(PyUnicode_GET_LENGTH(value), static_cast<Py_ssize_t>(length));
    for (Py_ssize_t i = 0; i < count; ++i)
      points[static_cast<size_t>(i)] = PyUnicode_READ_CHAR(value, i);
    std::memcpy(storage, points.data(), length * sizeof(Py_UCS4));
    return true;
  }
  PyObject *bytes = PyBytes_Check(value) ? Py_NewRef(value)
                    : PyUnicode_Check(value)
                        ? PyUnicode_AsASCIIString(value) // NumPy's encoding of str into `S n`
                        : nullptr;
  if (!bytes) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "expected bytes or str for %s, got %s", type->name().c_str(),
                   Py_TYPE(value)->tp_name);
    return false;
  }
  size_t count = std::min(static_cast<size_t>(PyBytes_GET_SIZE(bytes)), length);
  std::memset(storage, 0, length);
  std::memcpy(storage, PyBytes_AS_STRING(bytes), count);
  Py_DECREF(bytes);
  return true;
}

} // namespace

const Type *typeOfValue(PyObject *value) {
  PyTypeObject *pythonType = Py_TYPE(value);
  // The common cases first, without a hash lookup (every call from Python passes here).
  static const Type *const float64Type = types::float64();
  static const Type *const int64Type = types::int64();
  if (pythonType == &PyFloat_Type)
    return float64Type;
  if (pythonType == &PyLong_Type) { // (neither an array nor a key of the cache below)
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(value, &overflow);
    if (!overflow)
      return int64Type;
    if (overflow > 0) {
      PyLong_AsUnsignedLongLong(value);
      if (!PyErr_Occurred())
        return types::uint64();
      PyErr_Clear();
    }
    return nullptr;
  }
  if (const Type *array = typeOfArrayIfArray(value))
    return array;
  if (const Type *buffer = typeOfBufferObject(value)) // a memoryview or bytearray
    return buffer;
  auto &cache = scalarTypeCache();
  auto found = cache.find(pythonType);
  if (found != cache.end())
    return found->second;
  if (PyUnicode_Check(value))
    return types::unicode();
  if (PyBytes_Check(value)) // Numba's CharSeq of its bytes (b'' as NumPy's S1), by length
    return types::charSequence(std::max<Py_ssize_t>(1, PyBytes_GET_SIZE(value)), false);
  if (PyTuple_Check(value)) {
    std::vector<const Type *> elements;
    Py_ssize_t size = PyTuple_GET_SIZE(value);
    for (Py_ssize_t i = 0; i < size; ++i) {
      const Type *element = typeOfValue(PyTuple_GET_ITEM(value, i));
      if (!element)
        return nullptr;
      elements.push_back(element);
    }
    if (!PyTuple_CheckExact(value))
      if (const Type *named = namedTupleInstanceType(value, elements))
        return named;
    if (const Type *functions = firstClassTupleType(value, elements))
      return functions;
    return types::tuple(elements);
  }
  if (const Type *record = typeOfRecordScalar(value))
    return record;
  if (const Type *datetime = typeOfDatetimeScalar(value))
    return datetime; // not cached by Python type: the unit is the scalar's

  if (PyList_Check(value))
    return typeOfList(value);
  if (const Type *typed = typeOfTypedContainer(value))
    return typed;
  if (const Type *instance = typeOfJitClassInstance(value))
    return instance;
  if (PySlice_Check(value)) { // Numba's typeof: slice2_type when the step is None or 1
    PyObject *step = reinterpret_cast<PySliceObject *>(value)->step;
    bool unitStep = step == Py_None;
    if (!unitStep && PyIndex_Check(step)) { // np.int64(1) too; a huge step clamps, not raises
      Py_ssize_t value = PyNumber_AsSsize_t(step, nullptr);
      if (value == -1 && PyErr_Occurred())
        PyErr_Clear();
      unitStep = value == 1;
    }
    return types::sliceValue(!unitStep);
  }
  if (PySet_CheckExact(value))
    return typeOfSet(value);
  if (PyFrozenSet_CheckExact(value)) {
    const Type *set = typeOfSet(value);
    return set ? types::frozenset(set->keyType()) : nullptr;
  }
  if (const Type *scalar = numpyScalarType(pythonType)) {
    cache[pythonType] = scalar;
    return scalar;
  }
  if (const Type *array = typeOfArray(value))
    return array;
  if (const Type *user = typeOfUserValue(value)) // a class registered with typeof_impl
    return user;
  if (PyLong_Check(value)) // int subclasses (IntEnum members, ...)
    return types::int64();
  if (PyFloat_Check(value))
    return types::float64();
  if (const Type *generator = typeOfRandomGenerator(value))
    return generator;
  return typeOfFunctionValue(value);
}

bool unboxValue(PyObject *value, const Type *type, void *storage, bool verified) {
  if (isClassInstance(type))
    return unboxJitClassInstance(value, type, storage);
  if (isUserType(type))
    return unboxUserValue(value, type, storage);
  if (isRandomGenerator(type))
    return unboxRandomGenerator(value, storage);
  switch (type->kind()) {
  case TypeKind::Boolean: {
    int truth = PyObject_IsTrue(value);
    if (truth < 0)
      return false;
    store<uint8_t>(storage, truth ? 1 : 0);
    return true;
  }
  case TypeKind::Integer: {
    PyObject *integer = PyLong_Check(value) ? (Py_INCREF(value), value) : PyNumber_Index(value);
    if (!integer) {
      if (PyFloat_Check(value) || PyObject_HasAttrString(value, "__float__")) {
        PyErr_Clear();
        double real = PyFloat_AsDouble(value);
        if (real == -1.0 && PyErr_Occurred())
          return false;
        integer = PyLong_FromDouble(real);
      }
      if (!integer)
        return false;
    }
    uint64_t bits;
    if (type->isSigned()) {
      long long signedValue = PyLong_AsLongLong(integer);
      bits = static_cast<uint64_t>(signedValue);
    } else {
      unsigned long long unsignedValue = PyLong_AsUnsignedLongLong(integer);
      if (unsignedValue == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        // A negative Python int wraps into an unsigned type, as NumPy casts do.
        PyErr_Clear();
        unsignedValue = static_cast<unsigned long long>(PyLong_AsLongLong(integer));
      }
      bits = unsignedValue;
    }
    Py_DECREF(integer);
    if (PyErr_Occurred())
      return false;
    switch (type->bits()) {
    case 8:
      store<uint8_t>(storage, static_cast<uint8_t>(bits));
      break;
    case 16:
      store<uint16_t>(storage, static_cast<uint16_t>(bits));
      break;
    case 32:
      store<uint32_t>(storage, static_cast<uint32_t>(bits));
      break;
    default:
      store<uint64_t>(storage, bits);
      break;
    }
    return true;
  }
  case TypeKind::Float: {
    double real = PyFloat_CheckExact(value) ? PyFloat_AS_DOUBLE(value) : PyFloat_AsDouble(value);
    if (real == -1.0 && PyErr_Occurred())
      return false;
    if (type->bits() == 16)
      store<_Float16>(storage, static_cast<_Float16>(real));
    else if (type->bits() == 32)
      store<float>(storage, static_cast<float>(real));
    else
      store<double>(storage, real);
    return true;
  }
  case TypeKind::Complex: {
    Py_complex number = PyComplex_AsCComplex(value);
    if (number.real == -1.0 && PyErr_Occurred())
      return false;
    if (type->bits() == 64) {
      store<float>(storage, static_cast<float>(number.real));
      store<float>(static_cast<char *>(storage) + 4, static_cast<float>(number.imag));
    } else {
      store<double>(storage, number.real);
      store<double>(static_cast<char *>(storage) + 8, number.imag);
    }
    return true;
  }
  case TypeKind::None:
  case TypeKind::JitFunction: // a function argument carries nothing at run time
  case TypeKind::Builtin:     // nor does a class or builtin function (FunctionValues.h)
  case TypeKind::DType:
    return true;
  case TypeKind::Array:
    return unboxArray(value, type, storage, verified);
  case TypeKind::FirstClassFunction:
    return unboxFirstClassFunction(value, type, storage);
  case TypeKind::Optional: // a flag byte, then the value (or zeros for None)
    std::memset(storage, 0, type->storageSize());
    if (value == Py_None)
      return true;
    store<uint8_t>(storage, 1);
    return unboxValue(value, type->optionalValue(),
                      static_cast<char *>(storage) + type->optionalValueOffset());
  case TypeKind::Record:
    return unboxRecord(value, type, storage);
  case TypeKind::Datetime:
  case TypeKind::Timedelta:
    return unboxDatetime(value, type, storage);
  case TypeKind::Unicode:
    return unboxString(value, storage);
  case TypeKind::NestedArray: // a fixed-width string: truncated or NUL-padded, as NumPy stores
    if (types::isCharSequence(type))
      return unboxCharSequence(value, type, storage);
    break;
  case TypeKind::Slice: { // CPython's PySlice_Unpack (ValueError for a zero step)
    Py_ssize_t start, stop, step;
    if (!PySlice_Check(value)) {
      PyErr_SetString(PyExc_TypeError, "expected a slice");
      return false;
    }
    if (PySlice_Unpack(value, &start, &stop, &step) < 0)
      return false;
    auto *slice = reinterpret_cast<PySliceObject *>(value);
    int64_t none = (slice->start == Py_None ? types::SliceStartNone : 0) |
                   (slice->stop == Py_None ? types::SliceStopNone : 0) |
                   (slice->step == Py_None ? types::SliceStepNone : 0);
    store<int64_t>(storage, start);
    store<int64_t>(static_cast<char *>(storage) + 8, stop);
    store<int64_t>(static_cast<char *>(storage) + 16, step);
    store<int64_t>(static_cast<char *>(storage) + 24, none);
    return true;
  }
  case TypeKind::List:
    if (!type->isReflected())
      return unboxTypedContainer(value, type, storage);
    return unboxList(value, type, storage);
  case TypeKind::Set:
    return unboxSet(value, type, storage);
  case TypeKind::Dict:
    return unboxTypedContainer(value, type, storage);
  case TypeKind::Tuple: {
    if (!PyTuple_Check(value) ||
        PyTuple_GET_SIZE(value) != static_cast<Py_ssize_t>(type->elements().size())) {
      PyErr_Format(PyExc_TypeError, "expected a tuple of %zd elements",
                   static_cast<Py_ssize_t>(type->elements().size()));
      return false;
    }
    for (size_t i = 0; i < type->elements().size(); ++i)
      if (!unboxValue(PyTuple_GET_ITEM(value, i), type->elements()[i],
                      static_cast<char *>(storage) + type->elementOffset(i)))
        return false;
    return true;
  }
  default:
    PyErr_Format(PyExc_TypeError, "cannot pass a value of type %s to compiled code",
                 type->name().c_str());
    return false;
  }
}

/// A NumPy dtype compiled code holds (a scalar class such as a.dtype or np.float32, or a dtype
/// object): the np.dtype Numba's boxes of DType and NumberClass give; it has no storage.
static PyObject *boxDtype(const Type *type) {
  if (type->kind() == TypeKind::DType && type->dtype()->isRecord()) {
    PyObject *descr = descrOfRecord(type->dtype()); // borrowed
    Py_XINCREF(descr);
    return descr;
  }
  std::string name = type->kind() == TypeKind::DType ? type->dtype()->name() : type->text();
  if (name.rfind("numpy.", 0) == 0)
    name = name.substr(6);
  PyObject *numpy = PyImport_ImportModule("numpy");
  if (!numpy)
    return nullptr;
  PyObject *dtype = PyObject_CallMethod(numpy, "dtype", "s", name.c_str());
  Py_DECREF(numpy);
  return dtype;
}

PyObject *boxValue(const Type *type, const void *storage) {
  if (isClassInstance(type))
    return boxJitClassInstance(type, storage);
  if (isUserType(type))
    return boxUserValue(type, storage);
  if (isRandomGenerator(type))
    return boxRandomGenerator(storage);
  switch (type->kind()) {
  case TypeKind::Boolean:
    return PyBool_FromLong(load<uint8_t>(storage));
  case TypeKind::Integer:
    switch (type->bits()) {
    case 8:
      return type->isSigned() ? PyLong_FromLong(load<int8_t>(storage))
                              : PyLong_FromUnsignedLong(load<uint8_t>(storage));
    case 16:
      return type->isSigned() ? PyLong_FromLong(load<int16_t>(storage))
                              : PyLong_FromUnsignedLong(load<uint16_t>(storage));
    case 32:
      return type->isSigned() ? PyLong_FromLong(load<int32_t>(storage))
                              : PyLong_FromUnsignedLong(load<uint32_t>(storage));
    default:
      return type->isSigned() ? PyLong_FromLongLong(load<int64_t>(storage))
                              : PyLong_FromUnsignedLongLong(load<uint64_t>(storage));
    }
  case TypeKind::Float:
    return PyFloat_FromDouble(type->bits() == 16   ? static_cast<double>(load<_Float16>(storage))
                              : type->bits() == 32 ? load<float>(storage)
                                                   : load<double>(storage));
  case TypeKind::Complex:
    if (type->bits() == 64)
      return PyComplex_FromDoubles(load<float>(storage),
                                   load<float>(static_cast<const char *>(storage) + 4));
    return PyComplex_FromDoubles(load<double>(storage),
                                 load<double>(static_cast<const char *>(storage) + 8));
  case TypeKind::Array:
    return boxArray(type, storage);
  case TypeKind::FirstClassFunction:
    return boxFirstClassFunction(type, storage);
  case TypeKind::JitFunction:
    return boxJitFunction(type);
  case TypeKind::Builtin: // typing returns only NumPy's scalar classes (isReturnableDtype)
  case TypeKind::DType:
    return boxDtype(type);
  case TypeKind::Optional:
    if (!load<uint8_t>(storage))
      Py_RETURN_NONE;
    return boxValue(type->optionalValue(),
                    static_cast<const char *>(storage) + type->optionalValueOffset());
  case TypeKind::Record:
    return boxRecord(type, storage);
  case TypeKind::Datetime:
  case TypeKind::Timedelta:
    return boxDatetime(type, storage);
  case TypeKind::Unicode:
    return boxString(storage);
  case TypeKind::NestedArray: { // a fixed-width string (types/CharSequences.h), NULs dropped
    if (!types::isCharSequence(type))
      break;
    Py_ssize_t length = types::charSequenceLength(type);
    if (types::isUnicodeCharSequence(type)) {
      const auto *points = static_cast<const Py_UCS4 *>(storage);
      while (length > 0 && points[length - 1] == 0)
        --length;
      return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, points, length);
    }
    const auto *bytes = static_cast<const char *>(storage);
    while (length > 0 && bytes[length - 1] == 0)
      --length;
    return PyBytes_FromStringAndSize(bytes, length);
  }
  case TypeKind::List:
    if (!type->isReflected())
      return boxTypedContainer(type, storage);
    return boxList(type, storage);
  case TypeKind::Dict: // Numba returns a typed.Dict
    return boxTypedContainer(type, storage);
  case TypeKind::DictView: { // the same view of the typed.Dict over the dict's block
    static const char *const methods[] = {"keys", "values", "items"};
    PyObject *dict = boxTypedContainer(type->viewedDict(), storage);
    PyObject *view = dict ? PyObject_CallMethod(dict, methods[type->viewKind()], nullptr) : nullptr;
    Py_XDECREF(dict);
    return view;
  }
  case TypeKind::Generator:
    return boxGenerator(type, storage);
  case TypeKind::Set:
    return boxSet(type, storage);
  case TypeKind::Slice: { // the parts that were None become None again (types::sliceValue)
    const auto *parts = static_cast<const char *>(storage);
    int64_t none = load<int64_t>(parts + 24);
    PyObject *objects[3] = {};
    for (int i = 0; i < 3; ++i) {
      if (none & (int64_t(1) << i)) {
        objects[i] = Py_NewRef(Py_None);
      } else if (!(objects[i] = PyLong_FromLongLong(load<int64_t>(parts + 8 * i)))) {
        for (int j = 0; j < i; ++j)
          Py_DECREF(objects[j]);
        return nullptr;
      }
    }
    PyObject *slice = PySlice_New(objects[0], objects[1], objects[2]);
    for (PyObject *object : objects)
      Py_DECREF(object);
    return slice;
  }
  case TypeKind::Tuple: {
    PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(type->elements().size()));
    if (!tuple)
      return nullptr;
    for (size_t i = 0; i < type->elements().size(); ++i) {
      PyObject *element = boxValue(type->elements()[i],
                                   static_cast<const char *>(storage) + type->elementOffset(i));
      if (!element) {
        Py_DECREF(tuple);
        return nullptr;
      }
      PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), element);
    }
    if (type->isNamedTuple())
      return boxNamedTuple(type, tuple);
    if (type->isLiteralList()) { // a list of the items, as Python's literal makes
      PyObject *list = PySequence_List(tuple);
      Py_DECREF(tuple);
      return list;
    }
    return tuple;
  }
  default:
    Py_RETURN_NONE;
  }
}

} // namespace taipan::bindings
