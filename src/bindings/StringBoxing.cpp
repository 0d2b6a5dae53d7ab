// Strings between Python and compiled code, and the string runtime's hooks into CPython.
#include "StringBoxing.h"

#include "Boxing.h"

#include "runtime/Runtime.h"
#include "runtime/Strings.h"
#include "types/ClassInstanceTypes.h"
#include "types/UserTypes.h"

#include <cstring>
#include <dlfcn.h>
#include <string>

namespace taipan::bindings {
namespace {

using runtime::MemInfo;

PyObject *pythonString(MemInfo *block) {
  const runtime::StringData *s = runtime::stringOf(block);
  return PyUnicode_FromKindAndData(s->kind, s->bytes, s->length);
}

MemInfo *blockOf(PyObject *text) {
  return runtime::makeStringOfKind(PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text),
                                   static_cast<int>(PyUnicode_KIND(text)));
}

/// Raises the Python exception in flight as the compiled code's pending exception.
void forwardPythonError() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  std::string message;
  if (value) {
    if (PyObject *text = PyObject_Str(value)) {
      if (const char *utf8 = PyUnicode_AsUTF8(text))
        message = utf8;
      Py_DECREF(text);
    }
  }
  PyErr_Clear();
  int32_t id = type && PyErr_GivenExceptionMatches(type, PyExc_ValueError)  ? ValueErrorId
               : type && PyErr_GivenExceptionMatches(type, PyExc_TypeError) ? TypeErrorId
                                                                            : RuntimeErrorId;
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  runtime::raiseWithMessage(id, message);
}

/// The runtime's hook: CPython's own str method on the text (under the GIL).
int32_t callStrMethod(const char *method, MemInfo *self, MemInfo **result) {
  PyGILState_STATE state = PyGILState_Ensure();
  int32_t status = -1;
  PyObject *text = pythonString(self);
  PyObject *value = nullptr;
  if (text) {
    if (std::strcmp(method, "int") == 0 || std::strcmp(method, "float") == 0) {
      // int(s) and float(s) of non-ASCII digits, given back as ASCII text.
      PyObject *number = PyObject_CallOneArg(
          reinterpret_cast<PyObject *>(method[0] == 'i' ? &PyLong_Type : &PyFloat_Type), text);
      value = number ? PyObject_Repr(number) : nullptr;
      Py_XDECREF(number);
    } else if (std::strcmp(method, "__repr__") == 0) {
      value = PyObject_Repr(text);
    } else {
      value = PyObject_CallMethod(text, method, nullptr);
    }
  }
  if (!value) {
    forwardPythonError();
  } else if (PyBool_Check(value)) {
    status = value == Py_True;
  } else if (PyUnicode_Check(value)) {
    *result = blockOf(value);
    status = *result ? 0 : -1;
  }
  Py_XDECREF(value);
  Py_XDECREF(text);
  PyGILState_Release(state);
  return status;
}

} // namespace

bool unboxString(PyObject *value, void *storage) {
  if (!PyUnicode_Check(value)) {
    PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(value)->tp_name);
    return false;
  }
  MemInfo *block = blockOf(value);
  if (!block) {
    PyErr_NoMemory();
    return false;
  }
  std::memcpy(storage, &block, sizeof block);
  return true;
}

PyObject *boxString(const void *storage) {
  MemInfo *block = blockAt(storage);
  PyObject *text = pythonString(block);
  taipan_nrt_decref(block);
  return text;
}

void releaseUnboxed(const Type *type, void *storage) {
  if (type->isUnicode() || type->isDict() || isClassInstance(type) ||
      (type->isList() && !type->isReflected())) {
    taipan_nrt_decref(blockAt(storage)); // strings, typed containers, instances: a reference
  } else if (type->isTuple()) {
    for (size_t i = 0; i < type->elements().size(); ++i)
      if (type->elements()[i]->holdsReferences())
        releaseUnboxed(type->elements()[i], static_cast<char *>(storage) + type->elementOffset(i));
  } else if (type->isOptional() && type->holdsReferences()) { // None's payload is null
    releaseUnboxed(type->optionalValue(),
                   static_cast<char *>(storage) + type->optionalValueOffset());
  } else if (isUserType(type) && type->holdsReferences()) { // what its unbox's c.unbox made
    releaseUnboxed(userTypeLayout(type), storage);
  }
}

void installStringHooks() {
  // The key is CPython's _Py_HashSecret (siphash.k0, .k1 first in the union), exported by
  // every interpreter but declared only in internal headers from 3.13: found by name.
  const auto *secret = static_cast<const uint64_t *>(dlsym(RTLD_DEFAULT, "_Py_HashSecret"));
  std::string algorithm = PyHash_GetFuncDef()->name;
  int compression = 0, finalization = 0;
  if (secret && algorithm == "siphash13")
    compression = 1, finalization = 3;
  else if (secret && algorithm == "siphash24")
    compression = 2, finalization = 4;
  runtime::setStringHash(secret ? secret[0] : 0, secret ? secret[1] : 0, compression, finalization);
  runtime::setStringMethodHook(callStrMethod);
}

} // namespace taipan::bindings
