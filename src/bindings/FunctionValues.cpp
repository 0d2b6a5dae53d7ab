// Dispatchers as argument values. The type names the function, so calls through the parameter
// are ordinary calls of that function, typed and lowered as a call of a global would be.
#include "FunctionValues.h"

#include "GlobalResolution.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/shared_ptr.h>

namespace nb = nanobind;

namespace taipan::bindings {

const Type *typeOfFunctionValue(PyObject *value) {
  if (!dispatcherBaseType || !PyObject_TypeCheck(value, dispatcherBaseType))
    return nullptr;
  // The dispatcher owns its FunctionSource for as long as it lives, and a specialisation
  // keyed by this type keeps the dispatcher's module alive, as a global callee does.
  PyObject *source = PyObject_CallMethod(value, "_function_source", nullptr);
  if (!source) {
    PyErr_Clear(); // reported as an argument taipan cannot type
    return nullptr;
  }
  nb::object owned = nb::steal(source);
  auto function = nb::cast<std::shared_ptr<FunctionSource>>(owned);
  return types::jitFunction(function.get());
}

} // namespace taipan::bindings
