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

#include "TypeObjects.h"
#include "UfuncFastCall.h"
#include "compiler/UserUfuncs.h"
#include "runtime/GufuncSpecialization.h"
#include "runtime/ThreadPool.h"
#include "runtime/UfuncLoops.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <unordered_map>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

struct UfuncStorage;

/// A loop whose code is generated at its first call (a signature of an eager @guvectorize,
/// typed when it was decorated): NumPy calls deferredUfuncLoop with this as its data, which
/// asks Python for the code once and then runs the loop makeUfunc would have installed.
struct DeferredLoop {
  UfuncStorage *storage;
  size_t index;
  /// The installed loop and its data, published together: `data` is written first.
  std::atomic<PyUFuncGenericFunction> loop{nullptr};
  void *data = nullptr;
};

/// Everything NumPy keeps pointers to for a ufunc's lifetime (it copies none of it): owned by a
/// capsule the ufunc holds in its `obj` field, which NumPy releases with the ufunc.
struct UfuncStorage {
  std::string name, doc, signature;
  std::vector<PyUFuncGenericFunction> loops;
  std::vector<void *> data;
  std::vector<char> types;
  std::deque<runtime::ParallelUfuncLoop> parallel;          // stable addresses for `data`
  std::deque<runtime::SpecializingGufuncLoop> specializing; // the same, for gufunc loops
  std::deque<DeferredLoop> deferred;                        // the same, for deferred loops
  /// Per loop, its SpecializingGufuncLoop (null while a deferred loop has no code yet).
  std::vector<runtime::SpecializingGufuncLoop *> specializingOf;
  PyObject *compileCopy = nullptr; ///< the Python callable compiling gufunc copies (owned)
  /// The Python callable generating a deferred loop's code (owned): loop index -> (address,
  /// the inputs that loop may write in place beyond `writtenInputs`).
  PyObject *resolveLoop = nullptr;
  std::vector<std::vector<int>> operandCores; ///< a gufunc's layout, for the parallel driver
  // How each loop is installed (installLoop), kept for the deferred ones.
  int inputs = 0, outputs = 0, coreDimensions = 0;
  bool runsInParallel = false; ///< each call split over the thread pool
  int64_t copyAfterNanoseconds = 0;
  uint64_t writtenInputs = 0;
  UfuncFastCall fast;
};

void releaseStorage(PyObject *capsule) {
  auto *storage = static_cast<UfuncStorage *>(PyCapsule_GetPointer(capsule, nullptr));
  Py_XDECREF(storage->compileCopy);
  Py_XDECREF(storage->resolveLoop);
  delete storage;
}

/// Calls `compileCopy(loop, sizes)` for a gufunc loop's copy, from inside the loop (NumPy may
/// have released the GIL around it; an exception NumPy already holds is kept). The callable
/// returns the copy's address, or 0 when it could not compile it.
runtime::UfuncLoop compileGufuncCopy(PyObject *compileCopy, size_t loop,
                                     const std::vector<int64_t> &sizes) {
  PyGILState_STATE state = PyGILState_Ensure();
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  runtime::UfuncLoop copy = nullptr;
  PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(sizes.size()));
  for (size_t d = 0; tuple && d < sizes.size(); ++d)
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(d), PyLong_FromLongLong(sizes[d]));
  PyObject *address =
      tuple ? PyObject_CallFunction(compileCopy, "nO", static_cast<Py_ssize_t>(loop), tuple)
            : nullptr;
  if (address && PyLong_Check(address))
    copy = reinterpret_cast<runtime::UfuncLoop>(PyLong_AsUnsignedLongLong(address));
  if (PyErr_Occurred()) {
    PyErr_Clear();
    copy = nullptr;
  }
  Py_XDECREF(address);
  Py_XDECREF(tuple);
  PyErr_Restore(type, value, traceback);
  PyGILState_Release(state);
  return copy;
}

/// The inner loop and data NumPy runs for loop `index` of `storage`, whose serial code is at
/// `serial`: the serial loop itself, the parallel driver over it, or a specializing gufunc
/// loop (one that compiles copies). `extraWritten`: inputs this loop may write besides the
/// ufunc's `writtenInputs`. Called under the GIL (makeUfunc, resolveDeferredLoop).
std::pair<PyUFuncGenericFunction, void *>
installLoop(UfuncStorage &storage, size_t index, runtime::UfuncLoop serial, uint64_t extraWritten) {
  const std::vector<std::vector<int>> *cores =
      storage.operandCores.empty() ? nullptr : &storage.operandCores;
  runtime::ParallelUfuncLoop loop{serial,
                                  storage.inputs,
                                  storage.inputs + storage.outputs,
                                  storage.coreDimensions,
                                  storage.writtenInputs | extraWritten,
                                  cores};
  if (storage.compileCopy) {
    PyObject *callable = storage.compileCopy;
    storage.specializing.emplace_back(loop, storage.runsInParallel, storage.copyAfterNanoseconds,
                                      [callable, index](const std::vector<int64_t> &sizes) {
                                        return compileGufuncCopy(callable, index, sizes);
                                      });
    storage.specializingOf[index] = &storage.specializing.back();
    return {reinterpret_cast<PyUFuncGenericFunction>(&runtime::specializingGufuncLoop),
            &storage.specializing.back()};
  }
  if (storage.runsInParallel) {
    storage.parallel.push_back(loop);
    return {reinterpret_cast<PyUFuncGenericFunction>(&runtime::parallelUfuncLoop),
            &storage.parallel.back()};
  }
  return {reinterpret_cast<PyUFuncGenericFunction>(serial), nullptr};
}

/// The bit mask of input indices (every bit for an index past 64).
uint64_t inputMask(const std::vector<int> &indices) {
  uint64_t mask = 0;
  for (int input : indices)
    mask |= input >= 0 && input < 64 ? uint64_t{1} << input : ~uint64_t{0};
  return mask;
}

/// Generates a deferred loop's code (calling `resolveLoop` with the GIL, which NumPy may have
/// released around the loop) and installs it; null with the Python exception set when that
/// failed. Two threads may both generate it: the first installed is kept.
PyUFuncGenericFunction resolveDeferredLoop(DeferredLoop &deferred) {
  PyGILState_STATE state = PyGILState_Ensure();
  PyUFuncGenericFunction loop = deferred.loop.load(std::memory_order_acquire);
  if (!loop) {
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    UfuncStorage &storage = *deferred.storage;
    PyObject *result =
        PyObject_CallFunction(storage.resolveLoop, "n", static_cast<Py_ssize_t>(deferred.index));
    uintptr_t address = 0;
    uint64_t written = 0;
    if (result) {
      try {
        auto [code, inputs] = nb::cast<std::pair<uintptr_t, std::vector<int>>>(nb::handle(result));
        address = code;
        written = inputMask(inputs);
      } catch (const std::exception &) {
        PyErr_SetString(PyExc_TypeError, "a deferred ufunc loop resolved to no address");
      }
      Py_DECREF(result);
    }
    if (address != 0 && !PyErr_Occurred()) {
      // The call may have released the GIL: another thread may have installed it meanwhile.
      loop = deferred.loop.load(std::memory_order_acquire);
      if (!loop) {
        auto [installed, data] = installLoop(
            storage, deferred.index, reinterpret_cast<runtime::UfuncLoop>(address), written);
        deferred.data = data;
        deferred.loop.store(installed, std::memory_order_release);
        loop = installed;
      }
      PyErr_Restore(type, value, traceback);
    } else {
      // The loop's own error is the one NumPy raises.
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(traceback);
      if (!PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "a deferred ufunc loop could not be compiled");
    }
  }
  PyGILState_Release(state);
  return loop;
}

/// NumPy's inner loop of a DeferredLoop (`data`): its code generated at the first call, then
/// the installed loop run.
void deferredUfuncLoop(char **args, const npy_intp *dimensions, const npy_intp *steps, void *data) {
  auto &deferred = *static_cast<DeferredLoop *>(data);
  PyUFuncGenericFunction loop = deferred.loop.load(std::memory_order_acquire);
  if (!loop && !(loop = resolveDeferredLoop(deferred)))
    return; // the Python exception is set: NumPy raises it
  loop(args, dimensions, steps, deferred.data);
}

/// Sets the Python exception from the failed element's pending one, on whichever thread ran
/// the loop (NumPy may have released the GIL around it).
void reportFailedElement() {
  PyGILState_STATE state = PyGILState_Ensure();
  if (!PyErr_Occurred())
    raisePendingException();
  PyGILState_Release(state);
}

/// The vectorcall of a ufunc with one output and no core dimensions: its direct path
/// (UfuncFastCall), which hands NumPy every call it does not take.
PyObject *callDirectly(PyObject *ufunc, PyObject *const *arguments, size_t count,
                       PyObject *keywordNames) {
  auto *storage = static_cast<UfuncStorage *>(
      PyCapsule_GetPointer(reinterpret_cast<PyUFuncObject *>(ufunc)->obj, nullptr));
  return callUfunc(storage->fast, ufunc, arguments, count, keywordNames);
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
/// then outputs) and `addresses[i]` its runtime::UfuncLoop, or 0 for a loop whose code
/// `resolveLoop` (a callable: loop index -> (address, inputs it writes in place)) generates at
/// its first call. `parallel` splits each call over the thread pool; `signature` makes a
/// generalized ufunc ("(n),(n)->()"). A gufunc given `compileCopy` (a callable: loop index,
/// core sizes -> address or 0) runs its loops as runtime::SpecializingGufuncLoop, compiling
/// copies after `copyAfterMs` of generic runs. `writableInputs`: Numba's `writable_args`,
/// inputs NumPy passes read-write (writing back the copies it makes to cast them);
/// `writtenInputs`: other inputs the loops may write in place (those of a gufunc without
/// outputs). The parallel driver keeps in order the elements of a call that may write one
/// place through either.
nb::object makeUfunc(const std::string &name, const std::string &doc, int inputs, int outputs,
                     const std::vector<std::vector<int>> &loopTypes,
                     const std::vector<uintptr_t> &addresses, nb::handle identity, bool parallel,
                     const std::string &signature, int coreDimensions, nb::handle compileCopy,
                     double copyAfterMs, const std::vector<int> &writableInputs,
                     const std::vector<int> &inPlaceInputs,
                     const std::vector<std::vector<int>> &operandCores, nb::handle resolveLoop) {
  if (!ufuncApiReady())
    throw nb::python_error();
  if (loopTypes.size() != addresses.size())
    throw nb::value_error("make_ufunc needs one address per loop");
  for (const std::vector<int> *written : {&writableInputs, &inPlaceInputs})
    for (int input : *written)
      if (input < 0 || input >= inputs)
        throw nb::value_error("All values in writable_args must be integers between 0 and nin - 1");
  for (uintptr_t address : addresses)
    if (address == 0 && resolveLoop.is_none())
      throw nb::value_error("make_ufunc needs resolve_loop for a loop without an address");
  auto storage = std::make_unique<UfuncStorage>();
  storage->name = name;
  storage->doc = doc;
  storage->signature = signature;
  storage->operandCores = operandCores;
  storage->inputs = inputs;
  storage->outputs = outputs;
  storage->coreDimensions = coreDimensions;
  storage->runsInParallel = parallel;
  storage->copyAfterNanoseconds = static_cast<int64_t>(copyAfterMs * 1e6);
  // An input past the mask's 64 bits makes every input count as written.
  storage->writtenInputs = inputMask(writableInputs) | inputMask(inPlaceInputs);
  storage->specializingOf.assign(addresses.size(), nullptr);
  if (!signature.empty() && !compileCopy.is_none())
    storage->compileCopy = compileCopy.inc_ref().ptr();
  if (!resolveLoop.is_none())
    storage->resolveLoop = resolveLoop.inc_ref().ptr();
  for (size_t i = 0; i < addresses.size(); ++i) {
    if (static_cast<int>(loopTypes[i].size()) != inputs + outputs)
      throw nb::value_error("each loop needs a type for every input and output");
    for (int type : loopTypes[i])
      storage->types.push_back(static_cast<char>(type));
    if (addresses[i] == 0) {
      storage->deferred.emplace_back();
      DeferredLoop &deferred = storage->deferred.back();
      deferred.storage = storage.get();
      deferred.index = i;
      storage->loops.push_back(reinterpret_cast<PyUFuncGenericFunction>(&deferredUfuncLoop));
      storage->data.push_back(&deferred);
      continue;
    }
    auto [loop, data] =
        installLoop(*storage, i, reinterpret_cast<runtime::UfuncLoop>(addresses[i]), 0);
    storage->loops.push_back(loop);
    storage->data.push_back(data);
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
  // Unnamed: the direct path reads it on every call, and a name costs a string comparison.
  PyObject *capsule = PyCapsule_New(storage.get(), nullptr, releaseStorage);
  if (!capsule) {
    Py_DECREF(ufunc);
    throw nb::python_error();
  }
  auto *object = reinterpret_cast<PyUFuncObject *>(ufunc);
  if (!signature.empty()) {
    // As Numba's gufuncs: outputs are read and written (a loop may read what it writes, so a
    // cast copy starts from the output's values), and inputs written in place get copies NumPy
    // writes back. A written input still broadcasts where NumPy allows it.
    for (int k = 0; k < outputs; ++k)
      object->op_flags[inputs + k] |=
          NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY | NPY_ITER_ALLOCATE;
    for (int input : writableInputs)
      object->op_flags[input] |= NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY;
  }
  if (signature.empty() && outputs == 1 && directCallsAvailable()) {
    // NumPy calls a ufunc through this field (the type's vectorcall offset): the direct path
    // takes the plain calls and hands it back the rest.
    UfuncFastCall &fast = storage->fast;
    fast.numpyCall = reinterpret_cast<vectorcallfunc>(object->vectorcall);
    fast.inputs = inputs;
    fast.types = storage->types;
    fast.loops = storage->loops;
    fast.data = storage->data;
    object->vectorcall = reinterpret_cast<decltype(object->vectorcall)>(&callDirectly);
  }
  storage.release();
  object->obj = capsule;
  return nb::steal(ufunc);
}

/// The core sizes of the copies each loop of a gufunc made by makeUfunc has compiled so far
/// (one list per loop; empty lists for a gufunc that compiles none).
std::vector<std::vector<std::vector<int64_t>>> gufuncCopies(nb::handle ufunc) {
  PyObject *capsule = PyObject_TypeCheck(ufunc.ptr(), &PyUFunc_Type)
                          ? reinterpret_cast<PyUFuncObject *>(ufunc.ptr())->obj
                          : nullptr;
  if (!capsule || !PyCapsule_CheckExact(capsule) || PyCapsule_GetName(capsule) != nullptr)
    throw nb::type_error("gufunc_copies takes a gufunc taipan built");
  auto *storage = static_cast<UfuncStorage *>(PyCapsule_GetPointer(capsule, nullptr));
  std::vector<std::vector<std::vector<int64_t>>> copies;
  for (const runtime::SpecializingGufuncLoop *loop : storage->specializingOf)
    copies.push_back(loop ? loop->compiledSizes() : std::vector<std::vector<int64_t>>());
  return copies;
}

} // namespace

/// The library name of each user ufunc compiled code may call, by the object Python code
/// names (kept alive: a name must never be reused by another object at the same address).
static std::unordered_map<PyObject *, std::string> &userUfuncNames() {
  static auto *names = new std::unordered_map<PyObject *, std::string>();
  return *names;
}

/// Registers `ufunc` (a numpy.ufunc or DUFunc taipan made) as a library function: `select`
/// is Python's loop selection, called with the element types while typing.
static void registerUserUfuncObject(nb::handle ufunc, const std::string &name, unsigned inputs,
                                    std::shared_ptr<FunctionSource> scalarFunction,
                                    nb::object select) {
  UserUfunc entry;
  entry.name = name;
  entry.inputs = inputs;
  entry.scalarFunction = std::move(scalarFunction);
  // Owned for the rest of the process, as the library entry is: never released, since the
  // library outlives the interpreter.
  PyObject *callback = select.release().ptr();
  entry.selectLoop = [callback](const std::vector<const Type *> &elements,
                                std::vector<const Type *> &loopInputs, const Type *&output) {
    nb::gil_scoped_acquire gil;
    nb::list types;
    for (const Type *element : elements)
      types.append(nb::cast(TypeRef{element}));
    nb::object found = nb::handle(callback)(types);
    if (found.is_none())
      return false;
    auto [inputTypes, outputType] = nb::cast<std::pair<std::vector<TypeRef>, nb::object>>(found);
    loopInputs.clear();
    for (const TypeRef &input : inputTypes)
      loopInputs.push_back(input.type);
    output = outputType.is_none() ? nullptr : nb::cast<TypeRef>(outputType).type;
    return true;
  };
  registerUserUfunc(std::move(entry));
  userUfuncNames()[ufunc.inc_ref().ptr()] = name;
}

const std::string *userUfuncName(PyObject *object) {
  auto found = userUfuncNames().find(object);
  return found == userUfuncNames().end() ? nullptr : &found->second;
}

void defineUfuncBindings(nb::module_ &module) {
  module.def("register_user_ufunc", &registerUserUfuncObject, nb::arg("ufunc"), nb::arg("name"),
             nb::arg("inputs"), nb::arg("scalar_function"), nb::arg("select"));
  runtime::setUfuncFailureSink(reportFailedElement);
  module.def("make_ufunc", &makeUfunc, nb::arg("name"), nb::arg("doc"), nb::arg("inputs"),
             nb::arg("outputs"), nb::arg("loop_types"), nb::arg("addresses"),
             nb::arg("identity").none(), nb::arg("parallel") = false, nb::arg("signature") = "",
             nb::arg("core_dimensions") = 0, nb::arg("compile_copy").none() = nb::none(),
             nb::arg("copy_after_ms") = 0.0, nb::arg("writable_inputs") = std::vector<int>(),
             nb::arg("written_inputs") = std::vector<int>(),
             nb::arg("operand_cores") = std::vector<std::vector<int>>(),
             nb::arg("resolve_loop").none() = nb::none());
  module.def("gufunc_copies", &gufuncCopies, nb::arg("ufunc"));
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
