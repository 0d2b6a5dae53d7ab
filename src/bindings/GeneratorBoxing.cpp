// The Python iterator over a compiled generator (a `taipan._core.generator`).
#include "GeneratorBoxing.h"

#include "Boxing.h"
#include "Module.h"

#include "runtime/Generators.h"
#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"
#include "typing/OptionalTyping.h"

#include <cstring>

namespace taipan::bindings {

namespace {

/// Owns one reference to the generator's block until it is exhausted (or raised), then none.
struct GeneratorObject {
  PyObject_HEAD runtime::MemInfo *block;
  const Type *yieldType;
  PyObject *arguments; ///< the call's arguments, kept alive (a tuple), or null
};

/// Drops the block: an unfinished generator's coroutine is destroyed, releasing its locals.
void releaseBlock(GeneratorObject *self) {
  runtime::MemInfo *block = self->block;
  self->block = nullptr;
  taipan_nrt_decref(block);
  Py_CLEAR(self->arguments);
}

/// What a resume gave Python: the yielded value, StopIteration (null with nothing set) when the
/// generator ended, or the exception it raised.
PyObject *resumed(GeneratorObject *self, int32_t status) {
  if (status == runtime::GeneratorExhausted) {
    releaseBlock(self);
    return nullptr;
  }
  if (status != 0) {
    releaseBlock(self);
    raisePendingException();
    return nullptr;
  }
  // Boxing takes over the value's references, which the generator handed to its resumer.
  return boxValue(self->yieldType, taipan_generator_value(self->block));
}

PyObject *generatorIterNext(PyObject *object) {
  auto *self = reinterpret_cast<GeneratorObject *>(object);
  if (!self->block)
    return nullptr; // exhausted: StopIteration
  return resumed(self, taipan_generator_resume(self->block));
}

/// send(value): the value of the yield expression the generator is suspended at (None for a
/// plain next()); StopIteration when it ends.
PyObject *generatorSend(PyObject *object, PyObject *value) {
  auto *self = reinterpret_cast<GeneratorObject *>(object);
  if (!self->block) {
    PyErr_SetNone(PyExc_StopIteration);
    return nullptr;
  }
  bool hasValue = value != Py_None;
  if (hasValue) {
    const Type *sent = generatorSentType(self->yieldType);
    if (!sent) {
      PyErr_Format(PyExc_TypeError,
                   "send() of a value into a compiled generator yielding %s is not supported "
                   "(only generators of numbers or tuples of them take sent values)",
                   self->yieldType->name().c_str());
      return nullptr;
    }
    size_t offset = generatorPromiseType(self->yieldType)->elementOffset(3);
    char *slot = static_cast<char *>(self->block->data) + runtime::GeneratorPromiseOffset + offset;
    if (!unboxValue(value, sent, slot))
      return nullptr;
  }
  PyObject *result = resumed(self, taipan_generator_send(self->block, hasValue ? 1 : 0));
  if (!result && !PyErr_Occurred())
    PyErr_SetNone(PyExc_StopIteration);
  return result;
}

/// throw(type[, value]) or throw(instance): the exception is raised where the generator is
/// suspended; the next value it yields, StopIteration when it ends, or what it raises.
PyObject *generatorThrow(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  auto *self = reinterpret_cast<GeneratorObject *>(object);
  if (count < 1 || count > 3) {
    PyErr_SetString(PyExc_TypeError, "throw expected at least 1 argument, at most 3");
    return nullptr;
  }
  PyObject *thrown = args[0], *value = count > 1 ? args[1] : Py_None;
  PyObject *exceptionClass;
  PyObject *instance;
  if (PyExceptionInstance_Check(thrown)) {
    if (value != Py_None) {
      PyErr_SetString(PyExc_TypeError, "instance exception may not have a separate value");
      return nullptr;
    }
    exceptionClass = reinterpret_cast<PyObject *>(Py_TYPE(thrown));
    instance = Py_NewRef(thrown);
  } else if (PyExceptionClass_Check(thrown)) {
    exceptionClass = thrown;
    instance = value == Py_None ? PyObject_CallNoArgs(thrown) : PyObject_CallOneArg(thrown, value);
    if (!instance)
      return nullptr;
  } else {
    PyErr_Format(PyExc_TypeError,
                 "exceptions must be classes or instances deriving from BaseException, not %s",
                 Py_TYPE(thrown)->tp_name);
    return nullptr;
  }
  if (!self->block) { // an exhausted generator raises it, as CPython's does
    PyErr_SetObject(exceptionClass, instance);
    Py_DECREF(instance);
    return nullptr;
  }
  PyObject *text = PyObject_Str(instance);
  Py_DECREF(instance);
  const char *message = text ? PyUnicode_AsUTF8(text) : nullptr;
  if (!message) {
    Py_XDECREF(text);
    return nullptr;
  }
  int id = exceptionIdFor(exceptionClass);
  runtime::raiseWithMessage(id, message);
  Py_DECREF(text);
  PyObject *result = resumed(self, taipan_generator_throw(self->block, id));
  if (!result && !PyErr_Occurred())
    PyErr_SetNone(PyExc_StopIteration);
  return result;
}

/// close(): an unfinished generator is destroyed now (its finally blocks run, its references
/// go); later next() calls raise StopIteration, as after CPython's close().
PyObject *generatorClose(PyObject *object, PyObject * /*unused*/) {
  auto *self = reinterpret_cast<GeneratorObject *>(object);
  if (self->block) // finished now, even where compiled code holds it too
    taipan_generator_close(self->block);
  releaseBlock(self);
  Py_RETURN_NONE;
}

PyObject *generatorIter(PyObject *object) {
  Py_INCREF(object);
  return object;
}

void generatorDealloc(PyObject *object) {
  auto *self = reinterpret_cast<GeneratorObject *>(object);
  releaseBlock(self);
  PyTypeObject *type = Py_TYPE(object);
  type->tp_free(object);
  Py_DECREF(type);
}

PyTypeObject *generatorType() {
  static PyTypeObject *type = [] {
    static PyMethodDef methods[] = {
        {"close", generatorClose, METH_NOARGS,
         "Destroys the generator: its finally blocks run and what it holds is released."},
        {"send", generatorSend, METH_O,
         "Resumes the generator with a value for the yield expression it is suspended at."},
        {"throw", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(generatorThrow)),
         METH_FASTCALL, "Raises an exception where the generator is suspended."},
        {nullptr, nullptr, 0, nullptr}};
    static PyType_Slot slots[] = {
        {Py_tp_methods, methods},
        {Py_tp_dealloc, reinterpret_cast<void *>(generatorDealloc)},
        {Py_tp_iter, reinterpret_cast<void *>(generatorIter)},
        {Py_tp_iternext, reinterpret_cast<void *>(generatorIterNext)},
        {Py_tp_doc, const_cast<char *>("A generator compiled by taipan: iterate it, or call "
                                       "next() on it.")},
        {0, nullptr}};
    static PyType_Spec spec = {"taipan._core.generator", sizeof(GeneratorObject), 0,
                               Py_TPFLAGS_DEFAULT, slots};
    return reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&spec));
  }();
  return type;
}

} // namespace

PyObject *boxGenerator(const Type *type, const void *storage) {
  runtime::MemInfo *block = blockAt(storage);
  PyTypeObject *pythonType = generatorType();
  auto *self = pythonType ? PyObject_New(GeneratorObject, pythonType) : nullptr;
  if (!self) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  self->block = block;
  self->yieldType = type->yieldType();
  self->arguments = nullptr;
  return reinterpret_cast<PyObject *>(self);
}

void keepGeneratorArguments(PyObject *generator, PyObject *const *arguments, size_t count) {
  auto *self = reinterpret_cast<GeneratorObject *>(generator);
  PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(count));
  if (!tuple) {
    PyErr_Clear(); // the arguments then live as long as the caller keeps them
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    Py_INCREF(arguments[i]);
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), arguments[i]);
  }
  Py_XSETREF(self->arguments, tuple);
}

} // namespace taipan::bindings
