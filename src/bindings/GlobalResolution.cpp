// Name resolution against live Python objects. Builtins are recognised by module and name
// ("math.sqrt", "numpy.float32"), so `from math import sqrt` and `math.sqrt` agree.
#include "GlobalResolution.h"

#include "ArrayBoxing.h"
#include "Boxing.h"
#include "FirstClassFunctions.h"
#include "ForeignArrays.h"
#include "Module.h"
#include "NamedTupleBoxing.h"
#include "RecordBoxing.h"
#include "TypeObjects.h"
#include "Ufuncs.h"
#include "UserTypeBoxing.h"
#include "library/InstalledNumpy.h"
#include "typing/BuiltinNames.h"
#include "typing/CallLiterals.h"
#include "typing/ImpreciseValues.h"

#include <cctype>
#include <cstddef>
#include <cstring>

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;

namespace taipan::bindings {

PyTypeObject *dispatcherBaseType = nullptr;

/// Records what the installed NumPy computes where its releases differ (library/InstalledNumpy.h)
/// once NumPy is imported: `import taipan` does not import it, and no function that reaches
/// NumPy's functions or arrays can be read before it is. Its own loop table says which sign a
/// timedelta has.
static void recordInstalledNumpyOnce() {
  static bool recorded = false;
  PyObject *numpy = recorded ? nullptr : PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");
  if (!numpy)
    return;
  recorded = true;
  nb::object signLoops = nb::handle(numpy).attr("sign").attr("types");
  installedNumpy().timedeltaSignIsFloat = nb::cast<bool>(signLoops.attr("__contains__")("m->d"));
}

PythonGlobalResolver::PythonGlobalResolver(nb::handle function) : function(nb::borrow(function)) {
  recordInstalledNumpyOnce(); // read with the GIL held (AstReader)
}

PythonGlobalResolver::~PythonGlobalResolver() {
  // The resolver may outlive the interpreter's willingness to run; release under the GIL.
  if (Py_IsInitialized()) {
    PyGILState_STATE state = PyGILState_Ensure();
    function.reset();
    PyGILState_Release(state);
  } else {
    function.release();
  }
}

bool readConstant(nb::handle object, Constant &constant) {
  PyObject *value = object.ptr();
  if (value == Py_None) {
    constant.kind = Constant::Kind::None;
  } else if (PyBool_Check(value)) {
    constant.kind = Constant::Kind::Bool;
    constant.intValue = value == Py_True;
  } else if (PyLong_Check(value)) {
    int overflow = 0;
    long long signedValue = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (!overflow) {
      constant.kind = Constant::Kind::Int;
      constant.intValue = signedValue;
    } else {
      unsigned long long unsignedValue = PyLong_AsUnsignedLongLong(value);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      constant.kind = Constant::Kind::UInt;
      constant.intValue = static_cast<int64_t>(unsignedValue);
    }
  } else if (PyFloat_Check(value)) {
    constant.kind = Constant::Kind::Float;
    constant.floatValue = PyFloat_AsDouble(value);
  } else if (PyComplex_Check(value)) {
    constant.kind = Constant::Kind::Complex;
    constant.floatValue = PyComplex_RealAsDouble(value);
    constant.imagValue = PyComplex_ImagAsDouble(value);
  } else if (PyUnicode_Check(value)) {
    constant.kind = Constant::Kind::String;
    constant.text = nb::cast<std::string>(object);
  } else if (PyBytes_Check(value)) { // typed as Numba's CharSeq of its bytes
    constant.kind = Constant::Kind::Bytes;
    constant.text.assign(PyBytes_AS_STRING(value), static_cast<size_t>(PyBytes_GET_SIZE(value)));
  } else if (value == Py_Ellipsis) {
    constant.kind = Constant::Kind::Ellipsis;
  } else {
    return false;
  }
  return true;
}

/// taipan.extending's registry of functions implemented in Python and of intrinsics.
static nb::object extendingRegistry() {
  return nb::module_::import_("taipan.extending").attr("_registry");
}

/// "math.sqrt" for math.sqrt, "abs" for the builtin, "numpy.float32" for the NumPy type...
static std::string qualifiedBuiltinName(nb::handle object) {
  PyObject *value = object.ptr();
  if (!PyCallable_Check(value))
    return "";
  nb::object module = nb::getattr(object, "__module__", nb::none());
  nb::object name = nb::getattr(object, "__name__", nb::none());
  if (!PyUnicode_Check(name.ptr()))
    return "";
  std::string moduleName = PyUnicode_Check(module.ptr()) ? nb::cast<std::string>(module) : "";
  // random.random and friends are methods bound to the module's hidden Random instance.
  nb::object self = nb::getattr(object, "__self__", nb::none());
  if (moduleName.empty() || moduleName == "_random" || moduleName == "random") {
    nb::object randomModule = nb::module_::import_("sys").attr("modules").attr("get")("random");
    if (!randomModule.is_none() && self.is(nb::getattr(randomModule, "_inst", nb::none())))
      moduleName = "random";
  }
  if (moduleName.rfind("taipan.cuda", 0) == 0)
    moduleName = "cuda";
  else if (moduleName.rfind("numpy.random", 0) == 0)
    moduleName = "numpy.random";
  else if (moduleName == "numpy" || moduleName.rfind("numpy.", 0) == 0)
    moduleName = "numpy";
  std::string qualified = moduleName == "builtins" ? nb::cast<std::string>(name)
                                                   : moduleName + "." + nb::cast<std::string>(name);
  return isKnownBuiltin(qualified) ? qualified : "";
}

/// Functions implemented in Python (taipan's NumPy library, user overloads, register_jitable)
/// and intrinsics, registered in taipan.extending. A registered overload takes precedence over
/// taipan's C++ implementation of the same function.
static bool lookupExtension(nb::handle object, GlobalValue &result) {
  PyObject *value = object.ptr();
  if (!PyCallable_Check(value) || PyModule_Check(value))
    return false;
  // A class is a function here when an overload is registered for the class itself: a jitclass
  // (its construction, taipan.jitclass), Python's builtin classes used as functions (map and
  // filter, taipan.builtin_library), np.nditer (taipan.numpy_library.iteration), a user's
  // overload of a class. Other classes are values.
  nb::object found = extendingRegistry().attr("lookup")(object);
  if (found.is_none())
    return false;
  auto [kind, id, name] = nb::cast<std::tuple<std::string, int, std::string>>(found);
  result.kind = kind == "intrinsic" ? GlobalValue::Kind::Intrinsic : GlobalValue::Kind::Overload;
  result.registryId = id;
  result.name = name;
  return true;
}

/// Whether `value` is a ctypes function object (its class derives from _ctypes.CFuncPtr); read
/// from the class chain so that ctypes is never imported here.
static bool isCtypesFunction(PyObject *value) {
  for (PyTypeObject *type = Py_TYPE(value); type; type = type->tp_base)
    if (std::string_view(type->tp_name) == "_ctypes.CFuncPtr")
      return true;
  return false;
}

/// A ctypes function becomes a foreign function called through its address; one compiled code
/// cannot call (no argtypes, a type without a C number equivalent) is Unsupported, saying why.
static GlobalValue classifyCtypesFunction(nb::handle object) {
  GlobalValue result;
  try {
    nb::object type = nb::module_::import_("taipan.ctypes_functions").attr("function_type")(object);
    result.kind = GlobalValue::Kind::ExternalFunction;
    result.functionType = nb::cast<TypeRef>(type).type;
  } catch (nb::python_error &error) {
    result.kind = GlobalValue::Kind::Unsupported;
    result.name = Py_TYPE(object.ptr())->tp_name;
    result.reason = nb::cast<std::string>(nb::str(error.value()));
  }
  return result;
}

/// A class's qualified name as isinstance() reads it: "tuple" for builtins, "numpy.float64"
/// for NumPy's classes (whatever submodule defines them), "jitclass#<id>" for a jitclass (its
/// registry id, which two classes of one name never share), "module.Qualname" otherwise.
static std::string qualifiedClassName(nb::handle type) {
  // Looked up in the class and its bases only: a metaclass's __getattr__ may answer any name
  // (numba-cuda's tests meet such placeholder classes), and a jitclass defines the marker.
  static PyObject *jitclassMarker = PyUnicode_InternFromString("_taipan_jitclass");
  if (PyType_Check(type.ptr()) &&
      _PyType_Lookup(reinterpret_cast<PyTypeObject *>(type.ptr()), jitclassMarker))
    return "jitclass#" + std::to_string(nb::cast<int>(type.attr("class_type").attr("class_id")));
  // A class whose values in compiled code are of one user type (its _taipan_user_type, such as
  // cuda.bf16's nv_bfloat16) is named by that type, so that isinstance() decides on them.
  static PyObject *userTypeMarker = PyUnicode_InternFromString("_taipan_user_type");
  if (PyType_Check(type.ptr()))
    if (PyObject *userType =
            _PyType_Lookup(reinterpret_cast<PyTypeObject *>(type.ptr()), userTypeMarker))
      return "usertype#" + std::to_string(nb::cast<int>(nb::handle(userType).attr("registry_id")));
  // A named tuple class is named as the type of its instances names it (NamedTupleBoxing),
  // which keeps two classes of one qualified name apart.
  if (isNamedTupleClass(type.ptr())) {
    if (const Type *named = namedTupleClassType(type.ptr()))
      return named->text();
    PyErr_Clear();
  }
  nb::object module = nb::getattr(type, "__module__", nb::none());
  nb::object name = nb::getattr(type, "__qualname__", nb::none());
  if (!PyUnicode_Check(name.ptr()))
    return "";
  std::string moduleName = PyUnicode_Check(module.ptr()) ? nb::cast<std::string>(module) : "";
  if (moduleName.rfind("numpy.", 0) == 0)
    moduleName = "numpy";
  std::string qualified = nb::cast<std::string>(name);
  return moduleName.empty() || moduleName == "builtins" ? qualified : moduleName + "." + qualified;
}

static GlobalValue classifyObject(nb::handle object);

/// Modules compiled code reads that sys.modules does not hold under their name (made with
/// types.ModuleType, or replaced there since), by the name classifyObject gives them: their
/// attributes are found through them. Never freed: compiled code may read them again.
static nb::dict &detachedModules() {
  static nb::dict *modules = new nb::dict();
  return *modules;
}

/// Whether compiled code can hold `value` frozen inside a tuple.
static bool isFrozenItem(const GlobalValue &value) {
  switch (value.kind) {
  case GlobalValue::Kind::Constant: // Ellipsis too: an index tuple's `...`
  case GlobalValue::Kind::ConstantTuple:
  case GlobalValue::Kind::ConstantArray:
  case GlobalValue::Kind::FrozenTuple:
  case GlobalValue::Kind::JitFunction:
  case GlobalValue::Kind::ExternalFunction: // a cfunc, protocol object or ctypes function
    return true;
  default:
    return false;
  }
}

/// A tuple of constants is a ConstantTuple (literal_unroll and constant arguments read its
/// items); a named tuple, or one holding tuples, arrays or functions, a FrozenTuple, as Numba
/// freezes them.
static GlobalValue classifyTuple(nb::handle object) {
  GlobalValue result;
  result.kind = GlobalValue::Kind::ConstantTuple;
  bool constants = true;
  for (nb::handle item : nb::borrow<nb::tuple>(object)) {
    Constant constant;
    if (constants && readConstant(item, constant) && constant.kind != Constant::Kind::Ellipsis) {
      result.items.push_back(constant);
      GlobalValue element;
      element.kind = GlobalValue::Kind::Constant;
      element.constant = constant;
      result.elements.push_back(std::move(element));
      continue;
    }
    constants = false;
    GlobalValue element = classifyObject(item);
    if (!isFrozenItem(element)) {
      result = GlobalValue{};
      result.kind = GlobalValue::Kind::Unsupported;
      result.name = "tuple of values other than numbers, strings, slices, tuples, arrays and "
                    "jitted functions";
      return result;
    }
    result.elements.push_back(std::move(element));
  }
  PyObject *namedClass = reinterpret_cast<PyObject *>(Py_TYPE(object.ptr()));
  const Type *named = isNamedTupleClass(namedClass) ? namedTupleClassType(namedClass) : nullptr;
  if (PyErr_Occurred())
    PyErr_Clear();
  if (constants && !named) {
    result.elements.clear();
    return result;
  }
  result.kind = GlobalValue::Kind::FrozenTuple;
  result.items.clear();
  result.functionType = named;
  return result;
}

std::string defaultValueName(const std::string &parameter) { return "<default " + parameter + ">"; }

/// The frozen value of the default of `function`'s parameter `parameter`: from
/// `__kwdefaults__` for a keyword-only parameter, else from `__defaults__`.
static GlobalValue defaultValueOf(nb::handle function, const std::string &parameter) {
  nb::object keywordDefaults = function.attr("__kwdefaults__");
  if (!keywordDefaults.is_none()) {
    PyObject *found = PyDict_GetItemString(keywordDefaults.ptr(), parameter.c_str());
    if (found)
      return classifyPythonObject(found);
  }
  nb::object code = function.attr("__code__");
  nb::tuple names = code.attr("co_varnames");
  size_t positional = nb::cast<size_t>(code.attr("co_argcount"));
  nb::object defaults = function.attr("__defaults__");
  size_t count = defaults.is_none() ? 0 : nb::len(defaults);
  for (size_t i = positional - count; i < positional; ++i)
    if (nb::cast<std::string>(names[i]) == parameter)
      return classifyPythonObject(nb::borrow<nb::tuple>(defaults)[i - (positional - count)]);
  return GlobalValue{};
}

GlobalValue classifyPythonObject(nb::handle object) {
  GlobalValue result = classifyObject(object);
  if (PyType_Check(object.ptr()))
    result.className = qualifiedClassName(object);
  return result;
}

/// A global of the user type `type` whose model holds no references (an enum class or member)
/// is frozen as the bytes its unbox function writes, as Numba's lower_constant does for such
/// values. False (with no Python error) for values that cannot be frozen.
static bool classifyUserValue(nb::handle object, const Type *type, GlobalValue &result) {
  if (!userTypeLayout(type) || type->holdsReferences())
    return false;
  std::vector<std::max_align_t> storage(type->storageSize() / sizeof(std::max_align_t) + 1);
  // The type's lower_constant builds it where one is registered; else its unbox does.
  int constant = constantUserValue(object.ptr(), type, storage.data());
  if (constant < 0)
    throw nb::python_error();
  if (constant == 0 && !unboxUserValue(object.ptr(), type, storage.data())) {
    PyErr_Clear();
    return false;
  }
  result.kind = GlobalValue::Kind::ConstantArray;
  result.arrayType = type;
  result.bytes.assign(reinterpret_cast<const char *>(storage.data()), type->storageSize());
  return true;
}

/// A global exporting the CUDA Array Interface as a GlobalValue::onDevice array: its type as a
/// kernel argument of it would have, its address, shape and byte strides. False (no Python
/// error) when the interface does not describe one (a mask, an unknown element type).
static bool classifyDeviceArray(nb::handle object, GlobalValue &result) {
  nb::object interface =
      nb::steal(PyObject_GetAttrString(object.ptr(), "__cuda_array_interface__"));
  const Type *type = nullptr;
  PyObject *described =
      interface.is_valid() ? describeInterface(interface.ptr(), nullptr, &type) : nullptr;
  if (!described || !type || !type->isArray()) {
    Py_XDECREF(described);
    PyErr_Clear();
    return false;
  }
  nb::tuple description = nb::steal<nb::tuple>(described);
  result.kind = GlobalValue::Kind::ConstantArray;
  result.onDevice = true;
  result.arrayType = type;
  result.deviceAddress = nb::cast<uint64_t>(description[1]);
  for (nb::handle extent : nb::tuple(description[2]))
    result.shape.push_back(nb::cast<int64_t>(extent));
  for (nb::handle stride : nb::tuple(description[3]))
    result.strides.push_back(nb::cast<int64_t>(stride));
  return true;
}

static GlobalValue classifyObject(nb::handle object) {
  GlobalValue result;
  PyObject *value = object.ptr();
  if (const std::string *ufunc = userUfuncName(value)) {
    result.kind = GlobalValue::Kind::Builtin;
    result.name = *ufunc;
    return result;
  }
  // A value typeof_impl types (an enum class or member, a user's type): typed as Numba types
  // a global, before the rules for int subclasses (an IntEnum member is an IntEnumMember).
  if (const Type *userType = typeOfUserValue(value)) {
    if (classifyUserValue(object, userType, result))
      return result;
  }
  if (readConstant(object, result.constant)) {
    result.kind = GlobalValue::Kind::Constant;
    return result;
  }
  if (PyTuple_Check(value))
    return classifyTuple(object);
  // A slice (an index kept in a closure or a tuple) freezes as the bytes a slice argument
  // unboxes to, typed as that argument would be (slice2 or slice3).
  if (PySlice_Check(value)) {
    const Type *slice = typeOfValue(value);
    char storage[32];
    if (!slice || slice->storageSize() != sizeof storage || !unboxValue(value, slice, storage)) {
      PyErr_Clear(); // a zero step: left unsupported, as NumPy refuses it when indexing
      result.kind = GlobalValue::Kind::Unsupported;
      result.name = "slice";
      return result;
    }
    result.kind = GlobalValue::Kind::ConstantArray;
    result.arrayType = slice;
    result.bytes.assign(storage, sizeof storage);
    return result;
  }
  if (PyModule_Check(value)) {
    result.kind = GlobalValue::Kind::Module;
    result.name = nb::cast<std::string>(object.attr("__name__"));
    nb::object registered = nb::module_::import_("sys").attr("modules").attr("get")(result.name);
    if (!registered.is(object)) { // made with types.ModuleType, or replaced in sys.modules
      result.name += " at " + std::to_string(reinterpret_cast<uintptr_t>(value));
      detachedModules()[result.name.c_str()] = object;
      return result;
    }
    // numpy.random keeps its name, and so do numpy.lib's and numpy.polynomial's modules (whose
    // functions are found by their objects: np.lib.stride_tricks.as_strided); numpy's other
    // submodules (numpy.core...) are numpy.
    bool ownName =
        result.name.rfind("numpy.lib", 0) == 0 || result.name.rfind("numpy.polynomial", 0) == 0;
    if (result.name == "taipan.cuda")
      result.name = "cuda"; // taipan's CUDA namespace, as kernels spell it
    else if (ownName)
      return result;
    else if (result.name.rfind("numpy.random", 0) == 0)
      result.name = "numpy.random";
    else if (result.name.rfind("numpy.linalg", 0) == 0)
      result.name = "numpy.linalg";
    else if (result.name.rfind("numpy", 0) == 0)
      result.name = "numpy";
    return result;
  }
  if (dispatcherBaseType && PyObject_TypeCheck(value, dispatcherBaseType)) {
    result.kind = GlobalValue::Kind::JitFunction;
    result.function = nb::cast<std::shared_ptr<FunctionSource>>(object.attr("_function_source")());
    rememberDispatcher(result.function.get(), value);
    return result;
  }
  // A named tuple class makes instances when called (typing/NamedTupleTyping.h).
  if (isNamedTupleClass(value)) {
    if (const Type *namedClass = namedTupleClassType(value)) {
      result.kind = GlobalValue::Kind::DType;
      result.functionType = types::dtypeValue(namedClass);
      return result;
    }
    PyErr_Clear();
  }
  if (PyType_Check(value) &&
      PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(value),
                       reinterpret_cast<PyTypeObject *>(PyExc_BaseException))) {
    result.kind = GlobalValue::Kind::ExceptionClass;
    result.name = reinterpret_cast<PyTypeObject *>(value)->tp_name;
    result.exceptionId = exceptionIdFor(value);
    return result;
  }
  // cuda.declare_device's descriptors carry their type; reading it raises for a declaration
  // compiled code cannot call (a parameter foreign code cannot receive), saying why.
  if (PyObject_HasAttrString(reinterpret_cast<PyObject *>(Py_TYPE(value)),
                             "_taipan_external_function") ||
      PyObject_HasAttrString(value, "_taipan_external_function")) {
    try {
      nb::object type = object.attr("_taipan_external_function");
      if (nb::isinstance<TypeRef>(type)) {
        result.kind = GlobalValue::Kind::ExternalFunction;
        result.functionType = nb::cast<TypeRef>(type).type;
        return result;
      }
    } catch (nb::python_error &error) {
      result.kind = GlobalValue::Kind::Unsupported;
      result.name = Py_TYPE(value)->tp_name;
      result.reason =
          "cannot be called from compiled code: " + nb::cast<std::string>(nb::str(error.value()));
      return result;
    }
  }
  if (isCtypesFunction(value))
    return classifyCtypesFunction(object);
  // Objects of taipan's own namespaces name their builtin (cuda.threadIdx, cuda.shared...).
  if (PyObject_HasAttrString(value, "_taipan_builtin") &&
      PyUnicode_Check(object.attr("_taipan_builtin").ptr())) {
    result.kind = GlobalValue::Kind::Builtin;
    result.name = nb::cast<std::string>(object.attr("_taipan_builtin"));
    return result;
  }
  // taipan's scalar types called in compiled code (float32(x)) are casts, as in Numba: the
  // NumPy scalar constructor of the same name.
  if (nb::isinstance<TypeRef>(object)) {
    std::string cast = "numpy." + nb::cast<TypeRef>(object).type->name();
    if (isKnownBuiltin(cast)) {
      result.kind = GlobalValue::Kind::Builtin;
      result.name = cast;
      return result;
    }
    // Other type objects (types.unicode_type, types.float64[:], types.ListType(...)) are
    // arguments that name a type, as in Dict.empty(key_type, value_type).
    result.kind = GlobalValue::Kind::DType;
    result.functionType = types::dtypeValue(nb::cast<TypeRef>(object).type);
    return result;
  }
  if (classifyFirstClassGlobal(object, result)) // a cfunc or WrapperAddressProtocol object
    return result;
  if (lookupExtension(object, result))
    return result;
  std::string builtin = qualifiedBuiltinName(object);
  if (!builtin.empty()) {
    result.kind = GlobalValue::Kind::Builtin;
    result.name = builtin;
    return result;
  }
  // A record dtype object (np.empty(n, dtype=rec)) is known by its type alone.
  if (std::strcmp(Py_TYPE(value)->tp_name, "numpy.dtypes.VoidDType") == 0) {
    if (const Type *record = recordTypeOfDescr(value)) {
      result.kind = GlobalValue::Kind::DType;
      result.functionType = types::dtypeValue(record);
      return result;
    }
  }
  // A dtype object of numbers (np.dtype('f8'), a.dtype read in Python) is its scalar class, as
  // a.dtype is in compiled code (np.finfo(d), d.itemsize, d.type(0)).
  if (PyObject_HasAttrString(value, "kind") && PyObject_HasAttrString(value, "itemsize") &&
      PyObject_HasAttrString(value, "type") && !PyType_Check(value) &&
      std::strncmp(Py_TYPE(value)->tp_name, "numpy.dtype", 11) == 0 &&
      std::string("biufc").find(nb::cast<std::string>(object.attr("kind"))) !=
          std::string::npos) { // a datetime's class would lose its unit
    std::string builtin = qualifiedBuiltinName(object.attr("type"));
    if (!builtin.empty()) {
      result.kind = GlobalValue::Kind::Builtin;
      result.name = builtin;
      return result;
    }
  }
  // Global arrays are frozen as read-only constants, as Numba does.
  // Arrays of records too: their frozen bytes stay writable (lowerConstantArray), since a
  // record read from them may be written through (r.x = v).
  if (const Type *array = typeOfArray(value)) {
    nb::object numpy = nb::module_::import_("numpy");
    nb::object contiguous = numpy.attr("ascontiguousarray")(object);
    result.kind = GlobalValue::Kind::ConstantArray;
    result.arrayType = types::array(array->dtype(), array->ndim(), 'C', true);
    nb::bytes raw = nb::bytes(contiguous.attr("tobytes")());
    result.bytes.assign(raw.c_str(), raw.size());
    for (nb::handle extent : nb::tuple(object.attr("shape")))
      result.shape.push_back(nb::cast<int64_t>(extent));
    return result;
  }
  // A device array (taipan's, or another library's exporting the CUDA Array Interface; NumPy
  // arrays in mapped memory are frozen above, as host arrays) is not frozen but referenced
  // where it is, as numba-cuda captures it: kernels read and write its memory (lowering
  // refuses it in host code).
  PyErr_Clear(); // what typeOfArray may have left
  if (!PyType_Check(value) && PyObject_HasAttrString(value, "__cuda_array_interface__") &&
      classifyDeviceArray(object, result))
    return result;
  // A NumPy record (a void scalar of a record dtype) freezes as its bytes, typed as its
  // Record (arrayType), which every use copies, as Numba's constant records are.
  if (const Type *record = typeOfRecordScalar(value)) {
    result.kind = GlobalValue::Kind::ConstantArray;
    result.arrayType = record;
    nb::bytes raw = nb::bytes(object.attr("tobytes")());
    result.bytes.assign(raw.c_str(), raw.size());
    return result;
  }
  PyErr_Clear();
  // NumPy scalar values (np.float32(2.0)) freeze as numbers of their own type: a float32
  // global times a float32 is a float32 product, as in NumPy.
  if (PyObject_HasAttrString(value, "dtype") && PyObject_HasAttrString(value, "item") &&
      !PyType_Check(value)) {
    // A datetime64 or timedelta64 freezes as its int64 count of units (NaT the int64
    // minimum), typed with its unit: item() would give a datetime object.
    const Type *datetime = typeOfValue(value);
    if (datetime && datetime->isDatetimeLike()) {
      nb::object count = object.attr("astype")("int64").attr("item")();
      if (readConstant(count, result.constant)) {
        result.kind = GlobalValue::Kind::Constant;
        result.scalarType = datetime;
        return result;
      }
    }
    PyErr_Clear();
    nb::object item = object.attr("item")();
    if (readConstant(item, result.constant)) {
      result.kind = GlobalValue::Kind::Constant;
      const Type *scalar = typeOfValue(value);
      if (scalar && (scalar->isNumber() || scalar->isBoolean()))
        result.scalarType = scalar;
      PyErr_Clear();
      return result;
    }
  }
  result.kind = GlobalValue::Kind::Unsupported;
  result.name = Py_TYPE(value)->tp_name;
  if (PyLong_Check(value)) { // beyond uint64 (readConstant takes the rest): Numba's words
    nb::object digits = nb::steal(PyObject_Str(value));
    if (!digits) // past str()'s digit limit
      PyErr_Clear();
    result.reason = "is an int that neither int64 nor uint64 holds: Int value is too large" +
                    (digits ? ": " + nb::cast<std::string>(digits) : std::string());
  }
  return result;
}

GlobalValue PythonGlobalResolver::resolveName(const std::string &name) {
  if (!name.empty() && (std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '-')) {
    // An int constant beyond uint64, read as a name of its digits (AstReader::foldedExpr).
    GlobalValue result;
    result.kind = GlobalValue::Kind::Unsupported;
    result.name = "int";
    result.reason =
        "is an int that neither int64 nor uint64 holds: Int value is too large: " + name;
    return result;
  }
  nb::gil_scoped_acquire gil;
  if (name.rfind("<default ", 0) == 0 && name.back() == '>')
    return defaultValueOf(function, name.substr(9, name.size() - 10));
  nb::object code = function.attr("__code__");
  nb::tuple freeVariables = code.attr("co_freevars");
  for (size_t i = 0; i < freeVariables.size(); ++i) {
    if (nb::cast<std::string>(freeVariables[i]) != name)
      continue;
    nb::tuple closure = function.attr("__closure__");
    PyObject *contents = PyCell_Get(closure[i].ptr());
    if (!contents) {
      PyErr_Clear();
      return dispatcherBeingDefined(name);
    }
    return classifyPythonObject(nb::steal(contents));
  }
  nb::dict globals = function.attr("__globals__");
  PyObject *found = PyDict_GetItemString(globals.ptr(), name.c_str());
  if (found)
    return classifyPythonObject(found);
  nb::object builtins = nb::module_::import_("builtins");
  if (PyObject_HasAttrString(builtins.ptr(), name.c_str()))
    return classifyPythonObject(builtins.attr(name.c_str()));
  return dispatcherBeingDefined(name);
}

GlobalValue PythonGlobalResolver::dispatcherBeingDefined(const std::string &name) {
  nb::object ownName = nb::getattr(function, "__name__", nb::none());
  if (!PyUnicode_Check(ownName.ptr()) || nb::cast<std::string>(ownName) != name)
    return GlobalValue{};
  nb::object dispatcher =
      nb::module_::import_("taipan.dispatcher").attr("dispatcher_being_defined")(function);
  return dispatcher.is_none() ? GlobalValue{} : classifyPythonObject(dispatcher);
}

GlobalValue PythonGlobalResolver::resolveAttribute(const GlobalValue &module,
                                                   const std::string &attribute) {
  nb::gil_scoped_acquire gil;
  nb::object modules = nb::module_::import_("sys").attr("modules");
  nb::object moduleObject =
      modules.attr("get")(module.name == "cuda" ? std::string("taipan.cuda") : module.name);
  if (moduleObject.is_none() && detachedModules().contains(module.name.c_str()))
    moduleObject = detachedModules()[module.name.c_str()];
  if (moduleObject.is_none() || !PyObject_HasAttrString(moduleObject.ptr(), attribute.c_str()))
    return GlobalValue{};
  nb::object value = moduleObject.attr(attribute.c_str());
  GlobalValue extension;
  if (lookupExtension(value, extension)) {
    if (PyType_Check(value.ptr())) // a jitclass, which isinstance() may name
      extension.className = qualifiedClassName(value);
    return extension;
  }
  std::string qualified = module.name + "." + attribute;
  // CUDA's names include values and namespaces (threadIdx, shared), not only functions.
  bool builtin = isKnownBuiltin(qualified) && module.name != "builtins" &&
                 (PyCallable_Check(value.ptr()) || module.name == "cuda");
  if (builtin) {
    GlobalValue result;
    result.kind = GlobalValue::Kind::Builtin;
    result.name = qualified;
    if (PyType_Check(value.ptr()))
      result.className = qualifiedClassName(value);
    return result;
  }
  return classifyPythonObject(value);
}

static nb::list typeList(const std::vector<const Type *> &types) {
  nb::list list;
  for (const Type *type : types)
    list.append(nb::cast(TypeRef{type}));
  return list;
}

/// The integers written as the call's positional arguments (None where none is), which the
/// registry shows typing functions as Numba's IntegerLiterals (typing/CallLiterals.h).
static nb::tuple callLiterals() {
  nb::list literals;
  for (const std::optional<int64_t> &literal : currentCallLiterals())
    literals.append(literal ? nb::cast(*literal) : nb::none());
  return nb::tuple(literals);
}

/// Runs a call into the registry, turning a Python exception into a TypingError at the user's
/// line (the message is the exception's, so typing functions can explain themselves).
template <typename Call> static auto callRegistry(Call &&call, SourceLocation location) {
  try {
    return call();
  } catch (nb::python_error &error) {
    std::string message = nb::cast<std::string>(nb::str(error.value()));
    std::string name = nb::cast<std::string>(error.type().attr("__name__"));
    if (name == "LoweringError") // an intrinsic's codegen refused by its builder
      throw CompileError(CompileErrorKind::Lowering, message, location);
    if (name == "ImpreciseTypeError") // a value compiled code cannot hold (np.dtype("O"))
      throw ImpreciseValue(nb::cast<std::string>(error.value().attr("imprecise_type")), location);
    bool typing = name == "TypingError" || name == "UnsupportedError";
    throwTypingError(typing ? message : name + ": " + message, location);
  }
}

std::shared_ptr<FunctionSource>
PythonGlobalResolver::implementOverload(int registryId, const std::vector<const Type *> &positional,
                                        const std::vector<std::string> &keywords,
                                        const std::vector<const Type *> &keywordTypes,
                                        bool mayDecline, SourceLocation location) {
  nb::gil_scoped_acquire gil;
  return callRegistry(
      [&] {
        nb::dict keywordArguments;
        for (size_t i = 0; i < keywords.size(); ++i)
          keywordArguments[keywords[i].c_str()] = nb::cast(TypeRef{keywordTypes[i]});
        nb::object source =
            extendingRegistry().attr("implement")(registryId, nb::tuple(typeList(positional)),
                                                  keywordArguments, mayDecline, callLiterals());
        if (source.is_none())
          return std::shared_ptr<FunctionSource>();
        return nb::cast<std::shared_ptr<FunctionSource>>(source);
      },
      location);
}

OverloadMember PythonGlobalResolver::findMember(const Type *self, const std::string &name) {
  nb::gil_scoped_acquire gil;
  nb::object found = extendingRegistry().attr("find_member")(TypeRef{self}, name);
  OverloadMember member;
  if (!found.is_none()) {
    auto [id, isAttribute] = nb::cast<std::tuple<int, bool>>(found);
    member.registryId = id;
    member.isAttribute = isAttribute;
  }
  return member;
}

IntrinsicBody PythonGlobalResolver::implementIntrinsic(int registryId,
                                                       const std::vector<const Type *> &arguments,
                                                       const std::vector<std::string> &keywords,
                                                       SourceLocation location) {
  nb::gil_scoped_acquire gil;
  return callRegistry(
      [&] {
        nb::list keywordNames;
        for (const std::string &keyword : keywords)
          keywordNames.append(nb::str(keyword.c_str()));
        nb::object found = extendingRegistry().attr("implement_intrinsic")(
            registryId, typeList(arguments), nb::tuple(keywordNames), callLiterals());
        auto [result, parameters, instructions, declarations, module, processSpecific, order] =
            nb::cast<std::tuple<TypeRef, std::vector<TypeRef>, std::string, std::string,
                                std::string, std::string, std::vector<size_t>>>(found);
        IntrinsicBody body;
        body.returnType = result.type;
        for (const TypeRef &parameter : parameters)
          body.parameterTypes.push_back(parameter.type);
        body.instructions = instructions;
        body.declarations = declarations;
        body.module = module;
        body.processSpecific = processSpecific;
        body.argumentOrder = order;
        return body;
      },
      location);
}

} // namespace taipan::bindings
