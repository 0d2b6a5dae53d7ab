// The Python iterator over a compiled generator (a `taipan._core.generator`).
#include "GeneratorBoxing.h"

#include "Boxing.h"
#include "Module.h"

#include "runtime/Generators.h"
#include "runtime/MemoryRuntime.h"

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

PyObject *generatorIterNext(PyObject *object) {
  auto *self = reinterpret_cast<GeneratorObject *>(object);
  if (!self->block)
    return nullptr; // exhausted: StopIteration
  int32_t status = taipan_generator_resume(self->block);
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

/// close(): an unfinished generator is destroyed now (its finally blocks run, its references
/// go); later next() calls raise StopIteration, as after CPython's close().
PyObject *generatorClose(PyObject *object, PyObject * /*unused*/) {
  releaseBlock(reinterpret_cast<GeneratorObject *>(object));
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
  runtime::MemInfo *block;
  std::memcpy(&block, storage, sizeof(block));
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
