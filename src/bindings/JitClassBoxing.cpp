// Boxes of jitclass instances: `_core.JitClassInstance` holds {type, block}; each jitclass's box
// class (made by taipan.jitclass) derives from it and adds the fields as properties and the
// methods, which call compiled accessors with the box as `self`.
#include "JitClassBoxing.h"

#include "Boxing.h"
#include "TypeObjects.h"

#include "runtime/MemoryRuntime.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <mutex>
#include <unordered_map>

namespace nb = nanobind;

namespace taipan::bindings {

namespace {

/// A box: one reference to the instance's block.
struct JitClassObject {
  PyObject_HEAD const Type *type;
  runtime::MemInfo *block;
};

PyTypeObject *baseType = nullptr;

/// Each class instance type's box class (a new reference held for the process's life).
std::unordered_map<const Type *, PyTypeObject *> &boxClasses() {
  static std::unordered_map<const Type *, PyTypeObject *> classes;
  return classes;
}

void boxDealloc(PyObject *object) {
  auto *self = reinterpret_cast<JitClassObject *>(object);
  runtime::MemInfo *block = self->block;
  self->block = nullptr;
  taipan_nrt_decref(block);
  PyTypeObject *type = Py_TYPE(object);
  type->tp_free(object);
  Py_DECREF(type);
}

PyObject *boxNew(PyTypeObject *type, PyObject *, PyObject *) {
  PyErr_Format(PyExc_TypeError,
               "cannot create '%s' instances directly: call the jitclass to construct one",
               type->tp_name);
  return nullptr;
}

/// Numba's `_numba_type_`: the instance type of the box.
PyObject *boxType(PyObject *object, void *) {
  auto *self = reinterpret_cast<JitClassObject *>(object);
  return nb::cast(TypeRef{self->type}).release().ptr();
}

/// The address of the block, which two boxes of one instance share (`_meminfo_address`).
PyObject *boxAddress(PyObject *object, void *) {
  auto *self = reinterpret_cast<JitClassObject *>(object);
  return PyLong_FromVoidPtr(self->block);
}

PyTypeObject *makeBaseType() {
  static PyGetSetDef properties[] = {
      {"_numba_type_", boxType, nullptr, "the instance type (ClassInstanceType)", nullptr},
      {"_meminfo_address", boxAddress, nullptr, "the address of the instance's block", nullptr},
      {nullptr, nullptr, nullptr, nullptr, nullptr}};
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void *>(boxNew)},
      {Py_tp_dealloc, reinterpret_cast<void *>(boxDealloc)},
      {Py_tp_getset, properties},
      {Py_tp_doc, const_cast<char *>("An instance of a jitclass, shared with compiled code.")},
      {0, nullptr}};
  static PyType_Spec spec = {"taipan._core.JitClassInstance", sizeof(JitClassObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  return reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&spec));
}

} // namespace

const Type *typeOfJitClassInstance(PyObject *value) {
  if (!baseType || !PyObject_TypeCheck(value, baseType))
    return nullptr;
  auto *self = reinterpret_cast<JitClassObject *>(value);
  return self->block ? self->type : nullptr;
}

bool unboxJitClassInstance(PyObject *value, const Type *type, void *storage) {
  const Type *actual = typeOfJitClassInstance(value);
  if (actual != type) {
    PyErr_Format(PyExc_TypeError, "expected an instance of the jitclass %s, got %s",
                 type->text().c_str(), Py_TYPE(value)->tp_name);
    return false;
  }
  runtime::MemInfo *block = reinterpret_cast<JitClassObject *>(value)->block;
  taipan_nrt_incref(block);
  std::memcpy(storage, &block, sizeof(block));
  return true;
}

PyObject *boxJitClassInstance(const Type *type, const void *storage) {
  runtime::MemInfo *block = blockAt(storage);
  auto found = boxClasses().find(type);
  if (found == boxClasses().end()) {
    taipan_nrt_decref(block);
    PyErr_Format(PyExc_TypeError, "the jitclass %s has no Python class", type->text().c_str());
    return nullptr;
  }
  PyObject *object = PyType_GenericAlloc(found->second, 0);
  if (!object) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  auto *self = reinterpret_cast<JitClassObject *>(object);
  self->type = type;
  self->block = block;
  return object;
}

void defineJitClasses(nb::module_ &module) {
  baseType = makeBaseType();
  if (!baseType)
    throw nb::python_error();
  module.attr("JitClassInstance") = nb::handle(reinterpret_cast<PyObject *>(baseType));
  module.def(
      "jitclass_type",
      [](int classId, const std::string &name, const std::string &displayName) {
        return TypeRef{types::classInstance(classId, name, displayName)};
      },
      "The instance type of jitclass `class_id` (its fields given later).");
  module.def(
      "define_jitclass_fields",
      [](const TypeRef &instance, const std::vector<std::string> &names,
         const std::vector<TypeRef> &fields) {
        if (!isClassInstance(instance.type))
          throw nb::type_error("not a jitclass instance type");
        std::vector<const Type *> fieldTypes;
        for (const TypeRef &field : fields)
          fieldTypes.push_back(field.type);
        return types::defineClassFields(instance.type, names, fieldTypes);
      },
      "Gives a jitclass instance type its fields (once).");
  module.def(
      "jitclass_info",
      [](const TypeRef &instance) {
        if (!isClassInstance(instance.type))
          throw nb::type_error("not a jitclass instance type");
        std::vector<TypeRef> fields;
        for (const Type *field : instance.type->fieldTypes())
          fields.push_back(TypeRef{field});
        return nb::make_tuple(classIdOf(instance.type), instance.type->text(),
                              instance.type->fieldNames(), fields);
      },
      "(class id, class name, field names, field types) of a jitclass instance type.");
  module.def(
      "register_jitclass_box",
      [](const TypeRef &instance, nb::handle boxClass) {
        if (!PyType_Check(boxClass.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(boxClass.ptr()), baseType))
          throw nb::type_error("a jitclass box class derives from JitClassInstance");
        Py_INCREF(boxClass.ptr());
        PyTypeObject *&slot = boxClasses()[instance.type];
        Py_XDECREF(reinterpret_cast<PyObject *>(slot));
        slot = reinterpret_cast<PyTypeObject *>(boxClass.ptr());
      },
      "Makes `box_class` the class instances of `instance_type` are boxed as.");
}

} // namespace taipan::bindings
