// First-class function values between Python and compiled code. What a function object's
// signature and address are is decided in Python (taipan.experimental.function_type), which
// knows the protocol, ctypes, cffi and dispatchers; this file moves the values.
#include "FirstClassFunctions.h"

#include "GlobalResolution.h"
#include "TypeObjects.h"

#include <cstring>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

nb::object helpers() { return nb::module_::import_("taipan.experimental.function_type"); }

/// FunctionSource -> a weak reference to its dispatcher.
std::mutex dispatchersMutex;
std::unordered_map<const FunctionSource *, PyObject *> &dispatchers() {
  static auto *table = new std::unordered_map<const FunctionSource *, PyObject *>();
  return *table;
}

/// The object a weak reference refers to, as a new reference; null once it is gone.
PyObject *referent(PyObject *reference) {
#if PY_VERSION_HEX >= 0x030D0000
  PyObject *object = nullptr;
  if (PyWeakref_GetRef(reference, &object) < 0)
    PyErr_Clear();
  return object;
#else
  PyObject *object = PyWeakref_GetObject(reference); // borrowed; None once dead
  if (!object || object == Py_None)
    return nullptr;
  Py_INCREF(object);
  return object;
#endif
}

/// Objects that may be functions compiled code calls by the C convention, recognised without
/// a call into Python: protocol objects and cfuncs, ctypes and cffi function pointers.
bool mayBeFunctionObject(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  if (std::strncmp(type->tp_name, "_cffi_backend.", 14) == 0)
    return true;
  for (PyTypeObject *base = type; base; base = base->tp_base)
    if (std::string_view(base->tp_name) == "_ctypes.CFuncPtr")
      return true;
  return PyObject_HasAttrString(reinterpret_cast<PyObject *>(type), "__wrapper_address__");
}

template <typename T> void storeAt(void *storage, size_t offset, T value) {
  std::memcpy(static_cast<char *>(storage) + offset, &value, sizeof(T));
}
template <typename T> T loadAt(const void *storage, size_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char *>(storage) + offset, sizeof(T));
  return value;
}

} // namespace

PyObject *dispatcherOf(const FunctionSource *source) {
  std::lock_guard<std::mutex> lock(dispatchersMutex);
  auto found = dispatchers().find(source);
  if (found == dispatchers().end())
    return nullptr;
  return referent(found->second);
}

void rememberDispatcher(const FunctionSource *source, PyObject *dispatcher) {
  std::lock_guard<std::mutex> lock(dispatchersMutex);
  PyObject *&slot = dispatchers()[source];
  if (slot) {
    PyObject *current = referent(slot);
    Py_XDECREF(current);
    if (current == dispatcher)
      return;
  }
  PyObject *reference = PyWeakref_NewRef(dispatcher, nullptr);
  if (!reference) {
    PyErr_Clear();
    return;
  }
  Py_XDECREF(slot);
  slot = reference;
}

const Type *typeOfFirstClassObject(PyObject *value) {
  if (!mayBeFunctionObject(value))
    return nullptr;
  try {
    nb::object type = helpers().attr("typeof_object")(nb::handle(value));
    return type.is_none() ? nullptr : nb::cast<TypeRef>(type).type;
  } catch (nb::python_error &) {
    return nullptr; // reported as an argument taipan cannot type
  }
}

std::string describeFirstClassObject(PyObject *value) {
  if (!mayBeFunctionObject(value))
    return "";
  try {
    return nb::cast<std::string>(helpers().attr("describe_unsupported")(nb::handle(value)));
  } catch (nb::python_error &) {
    return "";
  }
}

const Type *firstClassTupleType(PyObject *tuple, const std::vector<const Type *> &elements) {
  const Type *target = nullptr;
  bool varied = false;
  for (size_t i = 0; i < elements.size(); ++i) {
    const Type *element = elements[i];
    varied |= element != elements.front();
    const Type *own = nullptr;
    if (element->kind() == TypeKind::FirstClassFunction) {
      own = element;
    } else if (element->kind() == TypeKind::JitFunction) {
      try {
        nb::object closed = helpers().attr("closed_function_type")(
            nb::handle(PyTuple_GET_ITEM(tuple, static_cast<Py_ssize_t>(i))));
        own = closed.is_none() ? nullptr : nb::cast<TypeRef>(closed).type;
      } catch (nb::python_error &) {
        return nullptr;
      }
    } else {
      return nullptr;
    }
    if (own && target && own != target)
      return nullptr; // two signatures: Numba refuses to unify them too
    target = own ? own : target;
  }
  if (!target || !varied)
    return nullptr;
  return types::tuple(std::vector<const Type *>(elements.size(), target));
}

bool unboxFirstClassFunction(PyObject *value, const Type *type, void *storage) {
  try {
    nb::object address = helpers().attr("wrapper_address")(nb::handle(value), TypeRef{type});
    storeAt<uint64_t>(storage, 0, nb::cast<uint64_t>(address));
  } catch (nb::python_error &error) {
    error.restore();
    return false;
  }
  // The object owns the code at the address, and compiled code may store the value into a
  // container that outlives the call: a reference is kept for good (never released, so an
  // object passed once lives on; a borrowed pointer would dangle once the caller dropped it).
  Py_INCREF(value);
  storeAt<PyObject *>(storage, 8, value);
  // A jitted function's entry hands its exceptions on to the caller (runtime/Cfuncs.h).
  bool jitted = dispatcherBaseType && PyObject_TypeCheck(value, dispatcherBaseType);
  storeAt<int64_t>(storage, 16, jitted ? 1 : 0);
  return true;
}

PyObject *boxFirstClassFunction(const Type *type, const void *storage) {
  if (PyObject *object = loadAt<PyObject *>(storage, 8)) {
    Py_INCREF(object);
    return object;
  }
  try {
    return helpers()
        .attr("from_address")(loadAt<uint64_t>(storage, 0), TypeRef{type})
        .release()
        .ptr();
  } catch (nb::python_error &error) {
    error.restore();
    return nullptr;
  }
}

PyObject *boxJitFunction(const Type *type) {
  if (PyObject *dispatcher = dispatcherOf(type->function()))
    return dispatcher;
  PyErr_Format(PyExc_TypeError, "the jitted function %s returned is gone",
               type->function()->name.c_str());
  return nullptr;
}

bool classifyFirstClassGlobal(nb::handle object, GlobalValue &result) {
  if (!PyObject_HasAttrString(reinterpret_cast<PyObject *>(Py_TYPE(object.ptr())),
                              "__wrapper_address__"))
    return false;
  try {
    nb::object type = helpers().attr("external_function")(object);
    result.kind = GlobalValue::Kind::ExternalFunction;
    result.functionType = nb::cast<TypeRef>(type).type;
  } catch (nb::python_error &error) {
    result.kind = GlobalValue::Kind::Unsupported;
    result.name = Py_TYPE(object.ptr())->tp_name;
    result.reason =
        "is a first-class function object, but " + nb::cast<std::string>(nb::str(error.value()));
  }
  return true;
}

const Type *PythonGlobalResolver::closedFunctionType(FunctionSource &source) {
  nb::gil_scoped_acquire gil;
  nb::object dispatcher = nb::steal(dispatcherOf(&source));
  if (!dispatcher.is_valid())
    return nullptr;
  try {
    nb::object closed = helpers().attr("closed_function_type")(dispatcher);
    return closed.is_none() ? nullptr : nb::cast<TypeRef>(closed).type;
  } catch (nb::python_error &) {
    return nullptr;
  }
}

bool PythonGlobalResolver::hasDispatcher(FunctionSource &source) {
  nb::gil_scoped_acquire gil;
  PyObject *dispatcher = dispatcherOf(&source);
  Py_XDECREF(dispatcher);
  return dispatcher != nullptr;
}

std::vector<const Type *> PythonGlobalResolver::explicitSignature(
    FunctionSource &source, const std::vector<const Type *> &arguments, SourceLocation location) {
  nb::gil_scoped_acquire gil;
  nb::object dispatcher = nb::steal(dispatcherOf(&source));
  std::vector<const Type *> signature;
  if (!dispatcher.is_valid())
    return signature;
  nb::list argumentTypes;
  for (const Type *argument : arguments)
    argumentTypes.append(TypeRef{argument});
  try {
    nb::object chosen = nb::module_::import_("taipan.dispatcher")
                            .attr("explicit_signature_for")(dispatcher, argumentTypes);
    if (!chosen.is_none())
      for (nb::handle type : chosen)
        signature.push_back(nb::cast<TypeRef>(type).type);
  } catch (nb::python_error &error) {
    throwTypingError(nb::cast<std::string>(nb::str(error.value())), location);
  }
  return signature;
}

std::string PythonGlobalResolver::calleeTypeName(FunctionSource &source) {
  nb::gil_scoped_acquire gil;
  nb::object dispatcher = nb::steal(dispatcherOf(&source));
  if (!dispatcher.is_valid())
    return "";
  try {
    std::string kind = nb::cast<std::string>(dispatcher.type().attr("__name__"));
    std::string function = nb::cast<std::string>(nb::repr(dispatcher.attr("py_func")));
    return "type(" + kind + "(" + function + "))";
  } catch (nb::python_error &) {
    return "";
  }
}

const Type *PythonGlobalResolver::firstClassEntry(FunctionSource &source, const Type *functionType,
                                                  SourceLocation location) {
  nb::gil_scoped_acquire gil;
  nb::object dispatcher = nb::steal(dispatcherOf(&source));
  if (!dispatcher.is_valid())
    throwTypingError("the function " + source.name +
                         " is not a jitted function of its own (a function defined inside "
                         "compiled code), so it cannot be a first-class function value of type " +
                         functionType->name(),
                     location);
  try {
    return nb::cast<TypeRef>(helpers().attr("entry_type")(dispatcher, TypeRef{functionType})).type;
  } catch (nb::python_error &error) {
    std::string name = nb::cast<std::string>(error.type().attr("__name__"));
    std::string message = nb::cast<std::string>(nb::str(error.value()));
    throwTypingError(name == "TypingError" ? message : name + ": " + message, location);
  }
}

} // namespace taipan::bindings
