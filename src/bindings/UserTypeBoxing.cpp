// User-defined types from Python: typeof through typeof_impl, and boxing through the box/unbox
// functions that taipan.extending compiles (taipan.user_type_boxing) for each user type.
#include "UserTypeBoxing.h"

#include "Boxing.h"
#include "Module.h"
#include "TypeObjects.h"
#include "TypedContainers.h"
#include "types/UserTypes.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

/// The C entries of one user type's conversions (0 where the type registered none).
struct UserBoxing {
  uint64_t unbox = 0; ///< int8_t (PyObject *object, void *out): nonzero when it failed
  uint64_t box = 0;   ///< PyObject *(const void *value): a new reference, or null on error
};

/// The Python side (taipan.extending): typeof(value) -> Type or None, and boxing(type) ->
/// (unbox address, box address). Set once at taipan.extending's import; read with the GIL.
PyObject *typeofHook = nullptr;
PyObject *boxingHook = nullptr;

/// The classes typeof_impl has a function for (owned references, kept for the process): a value
/// whose class derives from none of them is not asked about in Python.
std::unordered_set<PyObject *> &typeofClasses() {
  static std::unordered_set<PyObject *> classes; // guarded by the GIL
  return classes;
}

bool hasTypeofClass(PyTypeObject *type) {
  auto &classes = typeofClasses();
  if (classes.empty())
    return false;
  PyObject *mro = type->tp_mro;
  if (!mro || !PyTuple_Check(mro))
    return classes.count(reinterpret_cast<PyObject *>(type)) != 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); ++i)
    if (classes.count(PyTuple_GET_ITEM(mro, i)))
      return true;
  return false;
}

/// c.unbox of any type inside a user's unbox function: taipan's own conversion into `out` (the
/// value's memory form); nonzero with a Python exception set when it fails.
int8_t unboxMember(PyObject *object, const Type *type, void *out) {
  if (type->isSet() || (type->isList() && type->isReflected())) {
    // Changes would have to be written back into the Python object after the call (reflection),
    // which the dispatcher does for arguments themselves only.
    PyErr_Format(PyExc_TypeError,
                 "c.unbox of %s in an unbox function is not supported (a reflected container); "
                 "use a typed.List or typed.Dict member",
                 type->name().c_str());
    return 1;
  }
  return unboxValue(object, type, out) ? 0 : 1;
}

/// c.box of any type inside a user's box function: taipan's own conversion of the value at
/// `value`, which takes over the value's references (the caller increfs what it keeps).
PyObject *boxMember(const Type *type, const void *value) { return boxValue(type, value); }

std::unordered_map<const Type *, UserBoxing> &boxingTable() {
  static std::unordered_map<const Type *, UserBoxing> table; // guarded by the GIL
  return table;
}

/// The conversions of `type`, compiled by the Python side at their first use.
const UserBoxing *boxingOf(const Type *type) {
  auto &table = boxingTable();
  auto found = table.find(type);
  if (found != table.end())
    return &found->second;
  if (!boxingHook) {
    PyErr_Format(PyExc_TypeError, "no box/unbox is registered for %s", type->name().c_str());
    return nullptr;
  }
  nb::object typeObject = nb::cast(TypeRef{type});
  PyObject *result = PyObject_CallOneArg(boxingHook, typeObject.ptr());
  if (!result)
    return nullptr;
  UserBoxing boxing;
  bool ok = PyArg_ParseTuple(result, "KK", &boxing.unbox, &boxing.box);
  Py_DECREF(result);
  if (!ok)
    return nullptr;
  return &table.emplace(type, boxing).first->second;
}

/// Called by a box or unbox function after compiled code it called (Numba's
/// c.pyapi.call_jit_code) raised: the exception pending in the runtime becomes the Python
/// error the boxing then reports. The GIL is held there.
void raiseJitCodeException() { raisePendingException(); }

} // namespace

/// Enums are typed by taipan.enums (Numba's EnumMember and EnumClass types, registered through
/// typeof_impl), imported at the first enum class or member compiled code meets so that
/// `import taipan` does without the extension API.
static void loadEnumSupport(PyObject *value) {
  static bool loaded = false; // guarded by the GIL
  if (loaded)
    return;
  PyObject *enumModule = PyImport_GetModule(nb::str("enum").ptr());
  if (!enumModule) { // no enum has been made in this process
    PyErr_Clear();
    return;
  }
  nb::object module = nb::steal(enumModule);
  nb::object base = module.attr("Enum"), meta = module.attr("EnumMeta");
  if (!PyObject_TypeCheck(value, reinterpret_cast<PyTypeObject *>(base.ptr())) &&
      !PyObject_TypeCheck(value, reinterpret_cast<PyTypeObject *>(meta.ptr())))
    return;
  loaded = true;
  PyObject *enums = PyImport_ImportModule("taipan.enums");
  if (!enums) {
    loaded = false;
    PyErr_WriteUnraisable(value); // the value is then one taipan cannot type, as before
  }
  Py_XDECREF(enums);
}

/// cffi's FFI objects (ffi.from_buffer) are typed by taipan.cffi_buffers, imported at the
/// first object of a class named FFI that compiled code meets (its register() checks that the
/// class is cffi's), so that `import taipan` does without cffi and the extension API.
static void loadCffiSupport(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  std::string_view name = type->tp_name;
  if ((name != "FFI" && name != "_cffi_backend.FFI") || hasTypeofClass(type))
    return;
  PyObject *module = PyImport_ImportModule("taipan.cffi_buffers");
  PyObject *registered =
      module ? PyObject_CallMethod(module, "register", "O", reinterpret_cast<PyObject *>(type))
             : nullptr;
  if (!registered)
    PyErr_WriteUnraisable(value); // the value is then one taipan cannot type, as before
  Py_XDECREF(registered);
  Py_XDECREF(module);
}

const Type *typeOfUserValue(PyObject *value) {
  loadEnumSupport(value);
  loadCffiSupport(value);
  if (!typeofHook || !hasTypeofClass(Py_TYPE(value)))
    return nullptr;
  PyObject *result = PyObject_CallOneArg(typeofHook, value);
  if (!result) {
    PyErr_Clear(); // reported as an argument taipan cannot type
    return nullptr;
  }
  const Type *type = nullptr;
  if (nb::isinstance<TypeRef>(result))
    type = nb::cast<TypeRef>(nb::handle(result)).type;
  Py_DECREF(result);
  return type;
}

bool unboxUserValue(PyObject *value, const Type *type, void *storage) {
  const UserBoxing *boxing = boxingOf(type);
  if (!boxing)
    return false;
  if (!boxing->unbox) {
    PyErr_Format(PyExc_TypeError, "can't unbox %s type (no @unbox is registered for it)",
                 type->name().c_str());
    return false;
  }
  auto unbox = reinterpret_cast<int8_t (*)(PyObject *, void *)>(boxing->unbox);
  if (unbox(value, storage) == 0)
    return true;
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "can't unbox %s", type->name().c_str());
  return false;
}

int constantUserValue(PyObject *value, const Type *type, void *storage) {
  PyObject *module = PyImport_GetModule(nb::str("taipan.user_types").ptr());
  if (!module) { // no extension API loaded: no lower_constant either
    PyErr_Clear();
    return 0;
  }
  nb::object userTypes = nb::steal(module);
  try {
    nb::object written = userTypes.attr("_constant_into")(nb::handle(value), TypeRef{type},
                                                          reinterpret_cast<uint64_t>(storage));
    return nb::cast<bool>(written) ? 1 : 0;
  } catch (nb::python_error &error) {
    error.restore();
    return -1;
  }
}

PyObject *boxUserValue(const Type *type, const void *storage) {
  const UserBoxing *boxing = boxingOf(type);
  if (!boxing)
    return nullptr;
  if (!boxing->box) {
    PyErr_Format(PyExc_TypeError,
                 "cannot convert native %s to Python object (no @box is registered for it)",
                 type->name().c_str());
    return nullptr;
  }
  PyObject *result = reinterpret_cast<PyObject *(*)(const void *)>(boxing->box)(storage);
  // Boxing takes over the value's references (a returned value is its caller's). The user's
  // box function reads the members and gives up none of them (c.box of a counted member is
  // not offered), so the members' blocks are released here, boxed or not.
  releaseValue(type, const_cast<void *>(storage));
  if (!result && !PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "can't box %s", type->name().c_str());
  return result;
}

void defineUserTypes(nb::module_ &module) {
  module.def("user_type",
             [](int id, const std::string &name) { return TypeRef{types::userType(id, name)}; });
  // A StructModel's member names and layout (a tuple of the members), or an opaque/primitive
  // model's representation type with no names. False when the type already had one.
  module.def("define_user_model", [](const TypeRef &type, const std::vector<std::string> &names,
                                     const TypeRef &layout) {
    if (!isUserType(type.type))
      throw nb::type_error("define_user_model takes a user-defined type");
    if (!layout.type->isRuntimeValue())
      throw nb::type_error(
          ("a data model's members must be values compiled code holds, not " + layout.type->name())
              .c_str());
    return types::defineUserTypeModel(type.type, names, layout.type);
  });
  // Whether a value of the type holds counted references (for context.nrt.incref/decref in a
  // codegen: an array's meminfo, a container's block, a user type's members).
  module.def("holds_references", [](const TypeRef &type) { return type.type->holdsReferences(); });
  // c.unbox/c.box of taipan's types in user box/unbox functions: the entries' addresses and
  // the address of a type (interned for the process), which those modules embed.
  // c.pyapi.call_jit_code: the address box and unbox functions call when the code raised.
  module.def("jit_code_exception_entry",
             [] { return reinterpret_cast<uint64_t>(&raiseJitCodeException); });
  module.def("member_conversion_entries", [] {
    return std::make_tuple(reinterpret_cast<uint64_t>(&unboxMember),
                           reinterpret_cast<uint64_t>(&boxMember));
  });
  module.def("type_address",
             [](const TypeRef &type) { return reinterpret_cast<uint64_t>(type.type); });
  module.def("user_type_layout", [](const TypeRef &type) -> nb::object {
    if (!isUserType(type.type) || !userTypeLayout(type.type))
      return nb::none();
    return nb::cast(TypeRef{userTypeLayout(type.type)});
  });
  // Points a Python subclass instance of Type (made with a placeholder) at its user type.
  module.def("bind_user_type", [](nb::handle instance, const TypeRef &type) {
    nb::inst_ptr<TypeRef>(instance)->type = type.type;
  });
  // typeof_impl.register(cls): values of cls and its subclasses are typed by the hook, before
  // the rules for subclasses of int and float (Numba's typeof dispatches on the class).
  module.def("register_user_typeof_class", [](nb::handle cls) {
    if (typeofClasses().insert(cls.ptr()).second)
      Py_INCREF(cls.ptr());
  });
  module.def("set_user_type_hooks", [](nb::object typeofFunction, nb::object boxingFunction) {
    Py_XDECREF(typeofHook);
    Py_XDECREF(boxingHook);
    typeofHook = typeofFunction.release().ptr();
    boxingHook = boxingFunction.release().ptr();
  });
}

} // namespace taipan::bindings
