// A numpy.ufunc call that runs its compiled loop directly on plain contiguous arrays, as NumPy
// would run it after resolving the same loop, and hands every other call to NumPy.
#include "UfuncFastCall.h"

#include "ArrayBoxing.h"
#include "runtime/UfuncLoops.h"

#define PY_ARRAY_UNIQUE_SYMBOL taipan_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL taipan_UFUNC_API
#define NO_IMPORT_ARRAY
#define NO_IMPORT_UFUNC
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
// PyUFunc_GiveFloatingpointErrors is NumPy 2's: the direct path is installed only there.
#define NPY_TARGET_VERSION NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <algorithm>
#include <cfenv>

namespace taipan::bindings {
namespace {

using InputTypes = UfuncFastCall::InputTypes;
constexpr size_t MaximumDirectInputs = UfuncFastCall::MaximumInputs;

/// NumPy releases the GIL around a loop of at least this many elements.
constexpr npy_intp ReleaseGilElements = 500;

/// The floating-point exceptions NumPy reports, as this thread's status has them, in NumPy's
/// UFUNC_FPE_* bits (its own check reads the same status the same way).
int floatingPointErrors() {
  int raised = runtime::raisedUfuncExceptions();
  return ((raised & FE_DIVBYZERO) ? UFUNC_FPE_DIVIDEBYZERO : 0) |
         ((raised & FE_OVERFLOW) ? UFUNC_FPE_OVERFLOW : 0) |
         ((raised & FE_UNDERFLOW) ? UFUNC_FPE_UNDERFLOW : 0) |
         ((raised & FE_INVALID) ? UFUNC_FPE_INVALID : 0);
}

/// The input type numbers of a call the direct path may take, or none: positional
/// arguments only, one per input, each an exact ndarray (no subclass, so no __array_ufunc__ or
/// __array_wrap__) of at least one dimension, aligned, native byte order, C-contiguous, all of
/// one shape (no broadcasting).
bool directInputTypes(const UfuncFastCall &fast, PyObject *const *arguments, size_t count,
                      PyObject *keywordNames, InputTypes &types) {
  types.fill(-1);
  bool direct = (!keywordNames || PyTuple_GET_SIZE(keywordNames) == 0) &&
                count == static_cast<size_t>(fast.inputs) && count <= MaximumDirectInputs;
  for (size_t i = 0; direct && i < count; ++i) {
    direct = PyArray_CheckExact(arguments[i]);
    if (!direct)
      break;
    auto *array = reinterpret_cast<PyArrayObject *>(arguments[i]);
    auto *first = reinterpret_cast<PyArrayObject *>(arguments[0]);
    direct = PyArray_NDIM(array) >= 1 && PyArray_IS_C_CONTIGUOUS(array) &&
             PyArray_ISALIGNED(array) && PyArray_ISNOTSWAPPED(array) &&
             PyArray_NDIM(array) == PyArray_NDIM(first) &&
             std::equal(PyArray_DIMS(array), PyArray_DIMS(array) + PyArray_NDIM(array),
                        PyArray_DIMS(first));
    types[i] = PyArray_TYPE(array);
  }
  return direct;
}

/// The loop NumPy resolves for arrays of `types` (ufunc.resolve_dtypes, the resolution a call
/// makes) when it casts none of them, or -1. Remembered per tuple of types.
int resolvedLoop(UfuncFastCall &fast, PyObject *ufunc, const InputTypes &types) {
  for (const auto &[known, loop] : fast.resolved)
    if (known == types)
      return loop;
  int loop = -1;
  PyObject *dtypes = PyTuple_New(fast.inputs + 1);
  for (int i = 0; dtypes && i < fast.inputs; ++i)
    PyTuple_SET_ITEM(dtypes, i, reinterpret_cast<PyObject *>(PyArray_DescrFromType(types[i])));
  if (dtypes) {
    Py_INCREF(Py_None);
    PyTuple_SET_ITEM(dtypes, fast.inputs, Py_None);
  }
  PyObject *resolution =
      dtypes ? PyObject_CallMethod(ufunc, "resolve_dtypes", "(O)", dtypes) : nullptr;
  Py_XDECREF(dtypes);
  if (resolution && PyTuple_Check(resolution) && PyTuple_GET_SIZE(resolution) == fast.inputs + 1) {
    std::vector<int> operation;
    for (int i = 0; i <= fast.inputs; ++i) {
      PyObject *descriptor = PyTuple_GET_ITEM(resolution, i);
      bool native = PyArray_DescrCheck(descriptor) &&
                    PyArray_ISNBO(reinterpret_cast<PyArray_Descr *>(descriptor)->byteorder);
      operation.push_back(native ? reinterpret_cast<PyArray_Descr *>(descriptor)->type_num : -1);
    }
    bool uncast = std::equal(types.begin(), types.begin() + fast.inputs, operation.begin());
    for (size_t k = 0; uncast && loop < 0 && k < fast.loops.size(); ++k)
      if (std::equal(operation.begin(), operation.end(), &fast.types[k * (fast.inputs + 1)]))
        loop = static_cast<int>(k);
  }
  Py_XDECREF(resolution);
  PyErr_Clear(); // no loop fits: NumPy's own path raises its error
  fast.resolved.emplace_back(types, loop);
  return loop;
}

/// Runs loop `loop` over the same-shaped contiguous `arguments` into a new array.
PyObject *runDirectly(UfuncFastCall &fast, PyObject *ufunc, PyObject *const *arguments, int loop) {
  auto *first = reinterpret_cast<PyArrayObject *>(arguments[0]);
  PyArray_Descr *outputType =
      PyArray_DescrFromType(fast.types[loop * (fast.inputs + 1) + fast.inputs]);
  PyObject *output = outputType
                         ? PyArray_NewFromDescr(&PyArray_Type, outputType, PyArray_NDIM(first),
                                                PyArray_DIMS(first), nullptr, nullptr, 0, nullptr)
                         : nullptr;
  npy_intp size = PyArray_SIZE(first);
  if (output && size > 0) {
    char *pointers[MaximumDirectInputs + 1];
    npy_intp steps[MaximumDirectInputs + 1];
    for (int i = 0; i < fast.inputs; ++i) {
      auto *array = reinterpret_cast<PyArrayObject *>(arguments[i]);
      pointers[i] = PyArray_BYTES(array);
      steps[i] = PyArray_ITEMSIZE(array);
    }
    pointers[fast.inputs] = PyArray_BYTES(reinterpret_cast<PyArrayObject *>(output));
    steps[fast.inputs] = PyArray_ITEMSIZE(reinterpret_cast<PyArrayObject *>(output));
    runtime::clearUfuncExceptions();
    if (size >= ReleaseGilElements) {
      PyThreadState *state = PyEval_SaveThread();
      fast.loops[loop](pointers, &size, steps, fast.data[loop]);
      PyEval_RestoreThread(state);
    } else {
      fast.loops[loop](pointers, &size, steps, fast.data[loop]);
    }
    int errors = floatingPointErrors();
    const char *name = reinterpret_cast<PyUFuncObject *>(ufunc)->name;
    if (PyErr_Occurred() || (errors && PyUFunc_GiveFloatingpointErrors(name, errors) < 0))
      Py_CLEAR(output);
  }
  return output;
}

} // namespace

bool directCallsAvailable() {
  return ensureNumpyApi() && PyArray_GetNDArrayCFeatureVersion() >= NPY_2_0_API_VERSION;
}

PyObject *callUfunc(UfuncFastCall &fast, PyObject *ufunc, PyObject *const *arguments,
                    size_t argumentCount, PyObject *keywordNames) {
  size_t count = PyVectorcall_NARGS(argumentCount);
  InputTypes types;
  int loop = directInputTypes(fast, arguments, count, keywordNames, types)
                 ? resolvedLoop(fast, ufunc, types)
                 : -1;
  return loop < 0 ? fast.numpyCall(ufunc, arguments, argumentCount, keywordNames)
                  : runDirectly(fast, ufunc, arguments, loop);
}

} // namespace taipan::bindings
