// Builds numpy.ufunc objects over compiled loops with NumPy's C API, and reports a failed
// element (the scalar function raised) as the Python exception NumPy then raises.
#include "Ufuncs.h"

#include "Module.h"

#define PY_ARRAY_UNIQUE_SYMBOL taipan_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL taipan_UFUNC_API
#define NO_IMPORT_ARRAY
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include "runtime/ThreadPool.h"
#include "runtime/UfuncLoops.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

/// Everything NumPy keeps pointers to for a ufunc's lifetime (it copies none of it): owned by a
/// capsule the ufunc holds in its `obj` field, which NumPy releases with the ufunc.
struct UfuncStorage {
  std::string name, doc, signature;
  std::vector<PyUFuncGenericFunction> loops;
  std::vector<void *> data;
  std::vector<char> types;
  std::deque<runtime::ParallelUfuncLoop> parallel; // stable addresses for `data`
};

void releaseStorage(PyObject *capsule) {
  delete static_cast<UfuncStorage *>(PyCapsule_GetPointer(capsule, "taipan.ufunc"));
}

/// Sets the Python exception from the failed element's pending one, on whichever thread ran
/// the loop (NumPy may have released the GIL around it).
void reportFailedElement() {
  PyGILState_STATE state = PyGILState_Ensure();
  if (!PyErr_Occurred())
    raisePendingException();
  PyGILState_Release(state);
}

bool ufuncApiReady() {
  static bool ready = _import_umath() >= 0;
  return ready;
}

/// The identity argument of PyUFunc_FromFuncAndDataAndSignatureAndIdentity for Python's
/// `identity=` (None, 0, 1, -1, "reorderable" or any other value).
int identityKind(nb::handle identity, PyObject **value) {
  *value = Py_None;
  if (identity.is_none())
    return PyUFunc_None;
  if (nb::isinstance<nb::str>(identity)) {
    if (nb::cast<std::string>(identity) != "reorderable")
      throw nb::value_error("identity must be a value, None or 'reorderable'");
    return PyUFunc_ReorderableNone;
  }
  if (PyLong_CheckExact(identity.ptr())) {
    long long number = PyLong_AsLongLong(identity.ptr());
    if (number == 0 || number == 1 || number == -1)
      return number == 0 ? PyUFunc_Zero : number == 1 ? PyUFunc_One : PyUFunc_MinusOne;
    PyErr_Clear();
  }
  *value = identity.ptr();
  return PyUFunc_IdentityValue;
}

/// A numpy.ufunc over compiled loops: `loopTypes[i]` lists loop i's NumPy type numbers (inputs
/// then outputs) and `addresses[i]` its runtime::UfuncLoop. `parallel` splits each call over
/// the thread pool; `signature` makes a generalized ufunc ("(n),(n)->()").
nb::object makeUfunc(const std::string &name, const std::string &doc, int inputs, int outputs,
                     const std::vector<std::vector<int>> &loopTypes,
                     const std::vector<uintptr_t> &addresses, nb::handle identity, bool parallel,
                     const std::string &signature, int coreDimensions) {
  if (!ufuncApiReady())
    throw nb::python_error();
  if (loopTypes.size() != addresses.size())
    throw nb::value_error("make_ufunc needs one address per loop");
  auto storage = std::make_unique<UfuncStorage>();
  storage->name = name;
  storage->doc = doc;
  storage->signature = signature;
  for (size_t i = 0; i < addresses.size(); ++i) {
    if (static_cast<int>(loopTypes[i].size()) != inputs + outputs)
      throw nb::value_error("each loop needs a type for every input and output");
    for (int type : loopTypes[i])
      storage->types.push_back(static_cast<char>(type));
    auto serial = reinterpret_cast<runtime::UfuncLoop>(addresses[i]);
    if (parallel) {
      storage->parallel.push_back({serial, inputs, inputs + outputs, coreDimensions});
      storage->loops.push_back(
          reinterpret_cast<PyUFuncGenericFunction>(&runtime::parallelUfuncLoop));
      storage->data.push_back(&storage->parallel.back());
    } else {
      storage->loops.push_back(reinterpret_cast<PyUFuncGenericFunction>(serial));
      storage->data.push_back(nullptr);
    }
  }
  PyObject *identityValue = nullptr;
  int kind = identityKind(identity, &identityValue);
  PyObject *ufunc = PyUFunc_FromFuncAndDataAndSignatureAndIdentity(
      storage->loops.data(), storage->data.data(), storage->types.data(),
      static_cast<int>(addresses.size()), inputs, outputs, kind, storage->name.c_str(),
      storage->doc.c_str(), 0, signature.empty() ? nullptr : storage->signature.c_str(),
      identityValue);
  if (!ufunc)
    throw nb::python_error();
  PyObject *capsule = PyCapsule_New(storage.get(), "taipan.ufunc", releaseStorage);
  if (!capsule) {
    Py_DECREF(ufunc);
    throw nb::python_error();
  }
  storage.release();
  reinterpret_cast<PyUFuncObject *>(ufunc)->obj = capsule;
  return nb::steal(ufunc);
}

} // namespace

void defineUfuncBindings(nb::module_ &module) {
  runtime::setUfuncFailureSink(reportFailedElement);
  module.def("make_ufunc", &makeUfunc, nb::arg("name"), nb::arg("doc"), nb::arg("inputs"),
             nb::arg("outputs"), nb::arg("loop_types"), nb::arg("addresses"),
             nb::arg("identity").none(), nb::arg("parallel") = false, nb::arg("signature") = "",
             nb::arg("core_dimensions") = 0);
  module.def("get_num_threads", [] { return runtime::threadCount(); });
  module.def("set_num_threads", [](int count) {
    if (!runtime::setThreadCount(count))
      throw nb::value_error(("the number of threads must be between 1 and " +
                             std::to_string(runtime::maximumThreadCount()) +
                             " (TAIPAN_NUM_THREADS)")
                                .c_str());
  });
  module.def("get_thread_id", [] { return runtime::currentThreadId(); });
  module.def("maximum_threads", [] { return runtime::maximumThreadCount(); });
}

} // namespace taipan::bindings
