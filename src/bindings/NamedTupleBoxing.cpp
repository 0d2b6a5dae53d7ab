// Named tuple classes (collections.namedtuple, typing.NamedTuple) between Python and compiled
// code: a registry id per class, the type of an instance, and boxing back into the class.
#include "NamedTupleBoxing.h"

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace taipan::bindings {
namespace {

/// The classes seen, by id (strong references: types made from them outlive any call).
struct NamedTupleRegistry {
  std::mutex mutex;
  std::vector<PyObject *> classes;
  std::unordered_map<PyObject *, const Type *> templates;
  /// How many classes took each qualified name, which isinstance() compares.
  std::unordered_map<std::string, int> namesTaken;
};

NamedTupleRegistry &registry() {
  static auto *instance = new NamedTupleRegistry; // never destroyed: classes live forever
  return *instance;
}

/// The text of attribute `name` of `object` when it is a string, else "".
std::string stringAttribute(PyObject *object, const char *name) {
  PyObject *value = PyObject_GetAttrString(object, name);
  if (!value) {
    PyErr_Clear();
    return "";
  }
  const char *text = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : nullptr;
  std::string result = text ? text : "";
  Py_DECREF(value);
  return result;
}

/// "module.Qualname", as the resolver names classes for isinstance().
std::string qualifiedName(PyObject *namedClass) {
  std::string name = stringAttribute(namedClass, "__qualname__");
  if (name.empty())
    name = reinterpret_cast<PyTypeObject *>(namedClass)->tp_name;
  std::string module = stringAttribute(namedClass, "__module__");
  return module.empty() || module == "builtins" ? name : module + "." + name;
}

} // namespace

bool isNamedTupleClass(PyObject *object) {
  if (!PyType_Check(object) || object == reinterpret_cast<PyObject *>(&PyTuple_Type) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(object), &PyTuple_Type))
    return false;
  PyObject *fields = PyObject_GetAttrString(object, "_fields");
  if (!fields) {
    PyErr_Clear();
    return false;
  }
  bool strings = PyTuple_Check(fields);
  for (Py_ssize_t i = 0; strings && i < PyTuple_GET_SIZE(fields); ++i)
    strings = PyUnicode_Check(PyTuple_GET_ITEM(fields, i));
  Py_DECREF(fields);
  return strings;
}

const Type *namedTupleClassType(PyObject *namedClass) {
  NamedTupleRegistry &classes = registry();
  {
    std::lock_guard<std::mutex> lock(classes.mutex);
    auto found = classes.templates.find(namedClass);
    if (found != classes.templates.end())
      return found->second;
  }
  std::vector<std::string> fields;
  PyObject *names = PyObject_GetAttrString(namedClass, "_fields");
  if (!names)
    return nullptr;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); ++i)
    fields.push_back(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i)));
  Py_DECREF(names);
  std::string name = qualifiedName(namedClass);
  std::lock_guard<std::mutex> lock(classes.mutex);
  auto found = classes.templates.find(namedClass);
  if (found != classes.templates.end())
    return found->second;
  // Two classes of one qualified name (a factory calling namedtuple("P", ...) twice) must
  // stay apart, since isinstance() decides on names: the second is "module.P#2", and the
  // resolver names the class by this text too (GlobalResolution's qualifiedClassName).
  int taken = ++classes.namesTaken[name];
  if (taken > 1)
    name += "#" + std::to_string(taken);
  Py_INCREF(namedClass);
  classes.classes.push_back(namedClass);
  int id = static_cast<int>(classes.classes.size()) - 1;
  const Type *type = types::namedTuple(name, id, fields, {});
  classes.templates.emplace(namedClass, type);
  return type;
}

const Type *namedTupleInstanceType(PyObject *value, const std::vector<const Type *> &items) {
  PyObject *namedClass = reinterpret_cast<PyObject *>(Py_TYPE(value));
  if (!isNamedTupleClass(namedClass))
    return nullptr;
  const Type *shape = namedTupleClassType(namedClass);
  if (!shape || shape->fieldNames().size() != items.size())
    return nullptr;
  return types::namedTuple(shape->text(), shape->namedTupleClass(), shape->fieldNames(), items);
}

PyObject *namedTupleClassObject(const Type *type) {
  if (!type->isNamedTuple())
    return nullptr;
  NamedTupleRegistry &classes = registry();
  std::lock_guard<std::mutex> lock(classes.mutex);
  return classes.classes.at(static_cast<size_t>(type->namedTupleClass()));
}

PyObject *boxNamedTuple(const Type *type, PyObject *items) {
  NamedTupleRegistry &classes = registry();
  PyObject *namedClass;
  {
    std::lock_guard<std::mutex> lock(classes.mutex);
    namedClass = classes.classes.at(static_cast<size_t>(type->namedTupleClass()));
  }
  PyObject *instance = PyObject_Call(namedClass, items, nullptr); // Class(*items)
  Py_DECREF(items);
  return instance;
}

} // namespace taipan::bindings
