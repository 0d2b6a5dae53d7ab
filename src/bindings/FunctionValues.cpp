// Dispatchers as argument values. The type names the function, so calls through the parameter
// are ordinary calls of that function, typed and lowered as a call of a global would be.
#include "FunctionValues.h"

#include "FirstClassFunctions.h"
#include "GlobalResolution.h"
#include "typing/BuiltinNames.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/shared_ptr.h>

#include <cstring>

namespace nb = nanobind;

namespace taipan::bindings {

/// A class or builtin function compiled code knows by name (`float`, `np.float32`,
/// `math.sqrt`) is a compile-time value of its builtin's type; a named tuple class is its
/// class's type. nullptr for anything else.
static const Type *typeOfKnownCallable(PyObject *value) {
  // A dtype object of numbers (np.dtype('int32') passed in) is its scalar class, as a global
  // one is (classifyPythonObject) and as a.dtype is in compiled code.
  bool numpyDtype = std::strncmp(Py_TYPE(value)->tp_name, "numpy.dtypes.", 13) == 0;
  if (!PyType_Check(value) && !PyCFunction_Check(value) && !numpyDtype)
    return nullptr;
  GlobalValue known = classifyPythonObject(nb::handle(value));
  if (PyErr_Occurred())
    PyErr_Clear();
  if (known.kind == GlobalValue::Kind::Builtin)
    return types::builtin(known.name);
  // A builtin function that overloads were registered for (cuda.bf16's of math.sqrt) is still
  // the builtin as a value: calls through a parameter use taipan's library function.
  if (known.kind == GlobalValue::Kind::Overload && PyCFunction_Check(value) &&
      isKnownBuiltin(known.name))
    return types::builtin(known.name);
  if (known.kind == GlobalValue::Kind::DType && known.functionType->dtype()->isNamedTuple())
    return known.functionType;
  return nullptr;
}

const Type *typeOfFunctionValue(PyObject *value) {
  if (!dispatcherBaseType || !PyObject_TypeCheck(value, dispatcherBaseType)) {
    if (const Type *function = typeOfFirstClassObject(value))
      return function; // a cfunc, protocol object, ctypes or cffi function: a run-time value
    return typeOfKnownCallable(value);
  }
  // The dispatcher owns its FunctionSource for as long as it lives, and a specialisation
  // keyed by this type keeps the dispatcher's module alive, as a global callee does.
  PyObject *source = PyObject_CallMethod(value, "_function_source", nullptr);
  if (!source) {
    PyErr_Clear(); // reported as an argument taipan cannot type
    return nullptr;
  }
  nb::object owned = nb::steal(source);
  auto function = nb::cast<std::shared_ptr<FunctionSource>>(owned);
  rememberDispatcher(function.get(), value);
  return types::jitFunction(function.get());
}

} // namespace taipan::bindings
