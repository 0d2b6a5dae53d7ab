// What typed.List and typed.Dict share (TypedContainers.h): typeof, unboxing and boxing for
// compiled code, the conversion of Python values into owned items, and the block that keeps an
// array borrowed from Python alive inside a container.
#include "TypedContainers.h"

#include "ArrayBoxing.h"
#include "Boxing.h"
#include "TypeObjects.h"
#include "runtime/Lists.h"
#include "types/NumericPromotion.h"

#include <cstring>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {

PyTypeObject *typedListType = nullptr;
PyTypeObject *typedDictType = nullptr;

namespace {

bool isTypedContainer(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  return (typedListType && type == typedListType) || (typedDictType && type == typedDictType);
}

/// Whether a container's type is known (its item, or key and value, types).
bool isTyped(const Type *type) { return type->isList() ? type->itemType() : type->keyType(); }

/// The runtime's hook: a block whose destructor releases the Python array `parent`.
runtime::MemInfo *adoptArray(void *parent) {
  PyGILState_STATE state = PyGILState_Ensure();
  runtime::MemInfo *block = blockOwningObject(static_cast<PyObject *>(parent));
  PyGILState_Release(state);
  return block;
}

} // namespace

const Type *typeOfTypedContainer(PyObject *value) {
  if (!isTypedContainer(value))
    return nullptr;
  const Type *type = reinterpret_cast<TypedContainerObject *>(value)->type;
  return isTyped(type) ? type : nullptr;
}

std::string describeUntypedContainer(PyObject *value) {
  if (!isTypedContainer(value))
    return "";
  if (Py_TYPE(value) == typedListType)
    return "cannot type an empty typed.List whose item type is not known yet (make it with "
           "List.empty_list(item_type), or append to it first)";
  return "cannot type an empty typed.Dict whose key and value types are not known yet (make it "
         "with Dict.empty(key_type, value_type), or store into it first)";
}

bool unboxTypedContainer(PyObject *value, const Type *type, void *storage) {
  const Type *actual = typeOfTypedContainer(value);
  if (actual != type) {
    PyErr_Format(PyExc_TypeError, "expected %s, got %s", type->name().c_str(),
                 actual ? actual->name().c_str() : Py_TYPE(value)->tp_name);
    return false;
  }
  runtime::MemInfo *block = reinterpret_cast<TypedContainerObject *>(value)->block;
  taipan_nrt_incref(block);
  std::memcpy(storage, &block, sizeof(block));
  return true;
}

PyObject *boxTypedContainer(const Type *type, const void *storage) {
  runtime::MemInfo *block = blockAt(storage);
  if (!isTyped(type)) {
    // `List()` or `Dict()` never stored into: empty, and untyped until Python stores into it.
    taipan_nrt_decref(block);
    block = nullptr;
  }
  return type->isList() ? newTypedList(type, block) : newTypedDict(type, block);
}

PyObject *boxBorrowedValue(const Type *type, const void *slot) {
  for (int64_t offset : types::referenceOffsets(type))
    taipan_nrt_incref(blockAt(static_cast<const char *>(slot) + offset));
  return boxValue(type, slot);
}

void releaseValue(const Type *type, void *slot) {
  for (int64_t offset : types::referenceOffsets(type))
    taipan_nrt_decref(blockAt(static_cast<char *>(slot) + offset));
}

const Type *containerItemType(PyObject *value, const char *what) {
  const Type *type = typeOfValue(value);
  if (type && type->kind() == TypeKind::StringLiteral)
    type = types::unicode();
  const char *problem = nullptr;
  if (!type || !type->isRuntimeValue() || type->isNone() || type->kind() == TypeKind::Range ||
      type->isPointer() || type->isRecord() || type->isOptional())
    problem = "";
  else if (type->isList() && type->isReflected())
    problem = " (a Python list is copied into compiled code: store a typed.List instead)";
  if (problem) {
    PyErr_Format(PyExc_TypeError, "a typed %s cannot hold a value of type %s%s", what,
                 type ? type->name().c_str() : Py_TYPE(value)->tp_name, problem);
    return nullptr;
  }
  return type;
}

const Type *typeFromArgument(PyObject *value, const char *what) {
  if (nb::isinstance<TypeRef>(value))
    return nb::cast<TypeRef>(nb::handle(value)).type;
  if (value == reinterpret_cast<PyObject *>(&PyLong_Type))
    return types::int64();
  if (value == reinterpret_cast<PyObject *>(&PyFloat_Type))
    return types::float64();
  if (value == reinterpret_cast<PyObject *>(&PyBool_Type))
    return types::boolean();
  if (value == reinterpret_cast<PyObject *>(&PyComplex_Type))
    return types::complex128();
  if (value == reinterpret_cast<PyObject *>(&PyUnicode_Type))
    return types::unicode();
  PyErr_Format(PyExc_TypeError, "expected a taipan type for the %s (such as types.int64), got %R",
               what, value);
  return nullptr;
}

/// Whether a number of type `actual` converts into `type` as a store into a NumPy array does
/// without changing its kind: integers into any integer type (range-checked by fitsInteger),
/// integers and floats into floats (float32 rounds), real numbers into complex ones.
bool convertsNumber(const Type *type, const Type *actual) {
  if (!actual || !actual->isNumber() || !type->isNumber() || type->isBoolean())
    return false;
  if (type->isInteger())
    return actual->isIntegerLike();
  if (type->isFloat())
    return !actual->isComplex();
  return true; // complex
}

/// Whether the integer `value` lies in the range of the integer type `type`; an OverflowError
/// naming both when it does not.
bool fitsInteger(PyObject *value, const Type *type) {
  PyObject *integer = PyNumber_Index(value);
  if (!integer)
    return false;
  int overflow = 0;
  long long number = PyLong_AsLongLongAndOverflow(integer, &overflow);
  bool fits;
  if (type->isSigned()) {
    long long limit = type->bits() == 64 ? 0 : 1LL << (type->bits() - 1);
    fits = !overflow && (type->bits() == 64 || (number >= -limit && number < limit));
  } else if (overflow > 0) {
    PyLong_AsUnsignedLongLong(integer);
    fits = type->bits() == 64 && !PyErr_Occurred();
    PyErr_Clear();
  } else {
    fits = !overflow && number >= 0 &&
           (type->bits() == 64 || static_cast<unsigned long long>(number) < (1ULL << type->bits()));
  }
  if (!fits)
    PyErr_Format(PyExc_OverflowError, "%R does not fit in %s", integer, type->name().c_str());
  Py_DECREF(integer);
  return fits;
}

/// Whether a value of type `actual` becomes a `type` through first-class function values: a
/// jitted function where a function value is expected (unboxing compiles it for the signature
/// and raises a TypingError when it does not compile), item by item in tuples.
static bool convertsToFunctionValues(const Type *type, const Type *actual) {
  if (!actual)
    return false;
  if (type->kind() == TypeKind::FirstClassFunction)
    return actual->kind() == TypeKind::JitFunction || unifyTypes(type, actual) == type;
  if (!type->isTuple() || !actual->isTuple() || type->isNamedTuple() ||
      type->elements().size() != actual->elements().size())
    return false;
  bool converts = false; // at least one item is a function value; the others store as they are
  for (size_t i = 0; i < type->elements().size(); ++i) {
    const Type *item = type->elements()[i], *given = actual->elements()[i];
    if (convertsToFunctionValues(item, given))
      converts = true;
    else if (unifyTypes(item, given) != item)
      return false;
  }
  return converts;
}

bool unboxOwnedValue(PyObject *value, const Type *type, void *slot, const Type *container) {
  const Type *actual = typeOfValue(value);
  if (actual != type && convertsNumber(type, actual)) {
    if (type->isInteger() && !fitsInteger(value, type))
      return false;
  } else if (actual != type) {
    // Values that convert without loss (an int into a float64 item); anything else would
    // change the value or its kind.
    const Type *unified = actual ? unifyTypes(type, actual) : nullptr;
    bool sameArray = actual && actual->isArray() && type->isArray() && unified &&
                     unified->dtype() == type->dtype() && unified->ndim() == type->ndim() &&
                     (type->layout() == 'A' || actual->layout() == type->layout()) &&
                     (type->isReadonly() || !actual->isReadonly());
    if (unified != type && !sameArray && !convertsToFunctionValues(type, actual)) {
      PyErr_Format(PyExc_TypeError, "cannot store a value of type %s (%R) in a %s",
                   actual ? actual->name().c_str() : Py_TYPE(value)->tp_name, value,
                   container->name().c_str());
      return false;
    }
  }
  std::memset(slot, 0, type->storageSize());
  if (!unboxValue(value, type, slot)) {
    releaseValue(type, slot);
    return false;
  }
  std::vector<int64_t> offsets = types::referenceOffsets(type);
  if (types::holdsArray(type))
    runtime::adoptBorrowedArrays(static_cast<char *>(slot), offsets.data(),
                                 static_cast<int64_t>(offsets.size()));
  return true;
}

void defineTypedContainers(nb::module_ &module) {
  runtime::setAdoptArrayHook(adoptArray);
  defineTypedList(module);
  defineTypedDict(module);
}

} // namespace taipan::bindings
