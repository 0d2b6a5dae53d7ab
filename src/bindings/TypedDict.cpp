// taipan.typed.Dict (TypedContainers.h): a Python object over a compiled dict's block. Keys and
// values are converted into their memory form and handed to the dict runtime (runtime/Dicts.h),
// which hashes and compares them as CPython does; compiled code receives the same block.
#include "TypedContainers.h"

#include "Boxing.h"
#include "TypeObjects.h"
#include "runtime/Dicts.h"
#include "typing/DictTyping.h"

#include <cstring>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

using runtime::DictHeader;
using runtime::dictHeader;
using runtime::MemInfo;
using Dict = TypedContainerObject;

Dict *asDict(PyObject *object) { return reinterpret_cast<Dict *>(object); }

int64_t sizeOf(Dict *self) { return self->block ? dictHeader(self->block)->size : 0; }

/// Gives an untyped dict its key and value types and its block.
bool setTypes(Dict *self, const Type *key, const Type *value) {
  const Type *type = types::dict(key, value);
  std::vector<int64_t> layout = dictRuntimeLayout(type);
  if (layout.empty()) {
    PyErr_Format(PyExc_TypeError,
                 "a typed Dict cannot be a %s (too many arrays, strings or "
                 "lists per entry)",
                 type->name().c_str());
    return false;
  }
  MemInfo *block = taipan_dict_new(layout.data());
  if (!block) {
    PyErr_NoMemory();
    return false;
  }
  self->type = type;
  self->block = block;
  return true;
}

/// Types an untyped dict by its first key and value.
bool typeBy(Dict *self, PyObject *key, PyObject *value) {
  if (self->block)
    return true;
  const Type *keyType = containerItemType(key, "Dict key");
  if (!keyType)
    return false;
  const Type *dictKey = dictKeyType(keyType);
  if (!dictKey) {
    PyErr_Format(PyExc_TypeError,
                 "a typed Dict cannot have keys of type %s (keys are numbers, "
                 "strings and tuples of them)",
                 keyType->name().c_str());
    return false;
  }
  const Type *valueType = containerItemType(value, "Dict");
  if (!valueType)
    return false;
  const Type *dictValue = dictValueType(valueType);
  return dictValue && setTypes(self, dictKey, dictValue);
}

/// A key converted into the dict's key type, in a buffer it owns (strings have blocks).
struct Key {
  const Type *type = nullptr;
  std::vector<char> bytes;
  ~Key() {
    if (type)
      releaseValue(type, bytes.data());
  }
  const void *data() const { return bytes.data(); }
};

/// Converts `key` for a lookup; a TypeError when it is not of the key type (a lookup that
/// converted it would compare another value).
bool convertKey(Dict *self, PyObject *key, Key &converted) {
  const Type *keyType = self->type->keyType();
  const Type *actual = typeOfValue(key);
  if (actual && actual->kind() == TypeKind::StringLiteral)
    actual = types::unicode();
  if (!actual || !dictAcceptsKey(self->type, actual)) {
    PyErr_Format(PyExc_TypeError, "a key of type %s (%R) does not match %s",
                 actual ? actual->name().c_str() : Py_TYPE(key)->tp_name, key,
                 self->type->name().c_str());
    return false;
  }
  converted.bytes.assign(keyType->storageSize() + 1, 0);
  if (!unboxValue(key, keyType, converted.bytes.data()))
    return false;
  converted.type = keyType;
  return true;
}

/// The value slot of `key` (borrowed), null when absent; `failed` when the key was refused.
char *lookup(Dict *self, PyObject *key, bool &failed) {
  failed = false;
  if (!self->block)
    return nullptr;
  Key converted;
  if (!convertKey(self, key, converted)) {
    failed = true;
    return nullptr;
  }
  return taipan_dict_get(self->block, converted.data());
}

bool store(Dict *self, PyObject *key, PyObject *value) {
  if (!typeBy(self, key, value))
    return false;
  Key converted;
  if (!convertKey(self, key, converted))
    return false;
  const Type *valueType = self->type->valueType();
  std::vector<char> slot(valueType->storageSize() + 1);
  if (!unboxOwnedValue(value, valueType, slot.data(), self->type))
    return false;
  if (taipan_dict_set(self->block, converted.data(), slot.data()) != 0) {
    releaseValue(valueType, slot.data());
    PyErr_NoMemory();
    return false;
  }
  return true;
}

/// The boxed key (`which` 0), value (1) or (key, value) pair (2) of each live entry, in order.
PyObject *entries(Dict *self, int which) {
  PyObject *result = PyList_New(0);
  if (!result || !self->block)
    return result;
  DictHeader *header = dictHeader(self->block);
  for (int64_t i = 0; i < header->used; ++i) {
    char *key = taipan_dict_entry(self->block, i, 0);
    if (!key)
      continue;
    PyObject *item;
    if (which == 0) {
      item = boxBorrowedValue(self->type->keyType(), key);
    } else {
      PyObject *value =
          boxBorrowedValue(self->type->valueType(), taipan_dict_entry(self->block, i, 1));
      if (which == 1) {
        item = value;
      } else {
        PyObject *boxedKey = value ? boxBorrowedValue(self->type->keyType(), key) : nullptr;
        item = boxedKey ? PyTuple_Pack(2, boxedKey, value) : nullptr;
        Py_XDECREF(boxedKey);
        Py_XDECREF(value);
      }
    }
    if (!item || PyList_Append(result, item) != 0) {
      Py_XDECREF(item);
      Py_DECREF(result);
      return nullptr;
    }
    Py_DECREF(item);
  }
  return result;
}

/// A plain Python dict of the entries, in order.
PyObject *toPythonDict(Dict *self) {
  PyObject *pairs = entries(self, 2);
  if (!pairs)
    return nullptr;
  PyObject *result = PyDict_New();
  for (Py_ssize_t i = 0; result && i < PyList_GET_SIZE(pairs); ++i) {
    PyObject *pair = PyList_GET_ITEM(pairs, i);
    if (PyDict_SetItem(result, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1)) != 0)
      Py_CLEAR(result);
  }
  Py_DECREF(pairs);
  return result;
}

/// d.update(other): a typed Dict of the same type at once, else a mapping's keys or pairs.
bool updateFrom(Dict *self, PyObject *other) {
  if (Py_TYPE(other) == typedDictType && asDict(other)->type == self->type && self->block) {
    if (taipan_dict_update(self->block, asDict(other)->block) != 0) {
      PyErr_NoMemory();
      return false;
    }
    return true;
  }
  PyObject *pairs = nullptr;
  if (Py_TYPE(other) == typedDictType)
    pairs = entries(asDict(other), 2);
  else if (PyDict_Check(other))
    pairs = PyDict_Items(other);
  else if (PyObject_HasAttrString(other, "keys")) {
    PyObject *keys = PyObject_CallMethod(other, "keys", nullptr);
    PyObject *sequence = keys ? PySequence_List(keys) : nullptr;
    Py_XDECREF(keys);
    if (!sequence)
      return false;
    pairs = PyList_New(0);
    for (Py_ssize_t i = 0; pairs && i < PyList_GET_SIZE(sequence); ++i) {
      PyObject *key = PyList_GET_ITEM(sequence, i);
      PyObject *value = PyObject_GetItem(other, key);
      PyObject *pair = value ? PyTuple_Pack(2, key, value) : nullptr;
      Py_XDECREF(value);
      if (!pair || PyList_Append(pairs, pair) != 0)
        Py_CLEAR(pairs);
      Py_XDECREF(pair);
    }
    Py_DECREF(sequence);
  } else {
    pairs = PySequence_List(other);
  }
  if (!pairs)
    return false;
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(pairs); ++i) {
    PyObject *pair = PySequence_Tuple(PyList_GET_ITEM(pairs, i));
    if (!pair) {
      ok = false;
    } else if (PyTuple_GET_SIZE(pair) != 2) {
      PyErr_Format(PyExc_ValueError,
                   "dictionary update sequence element #%zd has length %zd; 2 is required", i,
                   PyTuple_GET_SIZE(pair));
      ok = false;
    } else {
      ok = store(self, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1));
    }
    Py_XDECREF(pair);
  }
  Py_DECREF(pairs);
  return ok;
}

// --- The type's slots and methods -----------------------------------------------------------

PyObject *dictNew(PyTypeObject *type, PyObject *, PyObject *) {
  Dict *self = reinterpret_cast<Dict *>(type->tp_alloc(type, 0));
  if (self) {
    self->type = types::dict(nullptr, nullptr);
    self->block = nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

int dictInit(PyObject *object, PyObject *args, PyObject *kwargs) {
  Dict *self = asDict(object);
  PyObject *dictType = kwargs ? PyDict_GetItemString(kwargs, "dcttype") : nullptr;
  if (dictType && dictType != Py_None && !self->block) {
    const Type *type = typeFromArgument(dictType, "dict type");
    if (!type)
      return -1;
    if (!type->isDict() || !type->keyType()) {
      PyErr_Format(PyExc_TypeError, "dcttype must be a DictType, not %s", type->name().c_str());
      return -1;
    }
    if (!setTypes(self, type->keyType(), type->valueType()))
      return -1;
  }
  Py_ssize_t count = PyTuple_GET_SIZE(args);
  if (count > 1) {
    PyErr_Format(PyExc_TypeError, "Dict expected at most 1 argument, got %zd", count);
    return -1;
  }
  if (count == 1 && !updateFrom(self, PyTuple_GET_ITEM(args, 0)))
    return -1;
  return 0;
}

void dictDealloc(PyObject *object) {
  taipan_nrt_decref(asDict(object)->block);
  PyTypeObject *type = Py_TYPE(object);
  type->tp_free(object);
  Py_DECREF(type);
}

Py_ssize_t dictLength(PyObject *object) { return sizeOf(asDict(object)); }

PyObject *dictSubscript(PyObject *object, PyObject *key) {
  Dict *self = asDict(object);
  bool failed;
  char *slot = lookup(self, key, failed);
  if (failed)
    return nullptr;
  if (!slot) {
    PyErr_SetObject(PyExc_KeyError, key);
    return nullptr;
  }
  return boxBorrowedValue(self->type->valueType(), slot);
}

int dictAssign(PyObject *object, PyObject *key, PyObject *value) {
  Dict *self = asDict(object);
  if (value)
    return store(self, key, value) ? 0 : -1;
  Key converted;
  if (self->block && !convertKey(self, key, converted))
    return -1;
  if (!self->block || !taipan_dict_pop(self->block, converted.data(), nullptr)) {
    PyErr_SetObject(PyExc_KeyError, key);
    return -1;
  }
  return 0;
}

int dictContains(PyObject *object, PyObject *key) {
  bool failed;
  char *slot = lookup(asDict(object), key, failed);
  return failed ? -1 : slot != nullptr;
}

/// An iterator over a typed Dict's keys, live as CPython's dict_keyiterator: it walks the entry
/// array from its position, and raises RuntimeError when the dict changed size since it began
/// (or yields more keys than it had: keys changed).
struct KeyIterator {
  PyObject_HEAD PyObject *dict;
  int64_t position;
  int64_t initialSize; ///< -1 once it raised: it raises again, as CPython's does
  int64_t remaining;
};

PyTypeObject *keyIteratorType = nullptr;

PyObject *dictIter(PyObject *object) {
  auto *iterator = PyObject_New(KeyIterator, keyIteratorType);
  if (!iterator)
    return nullptr;
  Py_INCREF(object);
  iterator->dict = object;
  iterator->position = 0;
  iterator->initialSize = iterator->remaining = sizeOf(asDict(object));
  return reinterpret_cast<PyObject *>(iterator);
}

void keyIteratorDealloc(PyObject *object) {
  auto *iterator = reinterpret_cast<KeyIterator *>(object);
  Py_XDECREF(iterator->dict);
  PyTypeObject *type = Py_TYPE(object);
  PyObject_Free(object);
  Py_DECREF(type);
}

PyObject *keyIteratorNext(PyObject *object) {
  auto *iterator = reinterpret_cast<KeyIterator *>(object);
  Dict *self = asDict(iterator->dict);
  if (sizeOf(self) != iterator->initialSize) {
    PyErr_SetString(PyExc_RuntimeError, "dictionary changed size during iteration");
    iterator->initialSize = -1;
    return nullptr;
  }
  if (!self->block)
    return nullptr;
  while (iterator->position < dictHeader(self->block)->used) {
    char *key = taipan_dict_entry(self->block, iterator->position++, 0);
    if (!key)
      continue;
    if (iterator->remaining-- <= 0) {
      PyErr_SetString(PyExc_RuntimeError, "dictionary keys changed during iteration");
      return nullptr;
    }
    return boxBorrowedValue(self->type->keyType(), key);
  }
  return nullptr;
}

/// keys(), values() and items(): views of the dict, live as CPython's (their length, `in` and
/// iteration read the dict when asked), as Numba's typed.Dict gives them: the
/// collections.abc views over the mapping.
PyObject *view(PyObject *object, const char *name) {
  static PyObject *abc = PyImport_ImportModule("collections.abc");
  if (!abc)
    return nullptr;
  return PyObject_CallMethod(abc, name, "O", object);
}

PyObject *dictKeys(PyObject *object, PyObject *) { return view(object, "KeysView"); }
PyObject *dictValues(PyObject *object, PyObject *) { return view(object, "ValuesView"); }
PyObject *dictItems(PyObject *object, PyObject *) { return view(object, "ItemsView"); }

/// The first step of get and setdefault, which take a key and an optional default: checks the
/// argument count and looks the key up (`slot` null when absent). False with an error set.
bool lookupKeyArgument(const char *method, PyObject *object, PyObject *const *args,
                       Py_ssize_t count, Dict *&self, char *&slot) {
  if (count < 1 || count > 2) {
    PyErr_Format(PyExc_TypeError, "%s expected 1 or 2 arguments", method);
    return false;
  }
  self = asDict(object);
  bool failed;
  slot = lookup(self, args[0], failed);
  return !failed;
}

PyObject *dictGet(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  Dict *self;
  char *slot;
  if (!lookupKeyArgument("get", object, args, count, self, slot))
    return nullptr;
  if (slot)
    return boxBorrowedValue(self->type->valueType(), slot);
  PyObject *fallback = count == 2 ? args[1] : Py_None;
  Py_INCREF(fallback);
  return fallback;
}

PyObject *dictSetdefault(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  Dict *self;
  char *slot;
  if (!lookupKeyArgument("setdefault", object, args, count, self, slot))
    return nullptr;
  if (!slot) {
    if (!store(self, args[0], count == 2 ? args[1] : Py_None))
      return nullptr;
    bool failed;
    slot = lookup(self, args[0], failed);
  }
  return boxBorrowedValue(self->type->valueType(), slot);
}

PyObject *dictPop(PyObject *object, PyObject *const *args, Py_ssize_t count) {
  if (count < 1 || count > 2) {
    PyErr_SetString(PyExc_TypeError, "pop expected 1 or 2 arguments");
    return nullptr;
  }
  Dict *self = asDict(object);
  Key converted;
  if (self->block && !convertKey(self, args[0], converted))
    return nullptr;
  if (self->block) {
    const Type *valueType = self->type->valueType();
    std::vector<char> value(valueType->storageSize() + 1);
    if (taipan_dict_pop(self->block, converted.data(), value.data()))
      return boxValue(valueType, value.data()); // takes over the value's references
  }
  if (count == 2) {
    Py_INCREF(args[1]);
    return args[1];
  }
  PyErr_SetObject(PyExc_KeyError, args[0]);
  return nullptr;
}

PyObject *dictPopitem(PyObject *object, PyObject *) {
  Dict *self = asDict(object);
  if (sizeOf(self) == 0) {
    PyErr_SetString(PyExc_KeyError, "popitem(): dictionary is empty");
    return nullptr;
  }
  const Type *keyType = self->type->keyType();
  const Type *valueType = self->type->valueType();
  std::vector<char> key(keyType->storageSize() + 1), value(valueType->storageSize() + 1);
  taipan_dict_popitem(self->block, key.data(), value.data());
  PyObject *boxedKey = boxValue(keyType, key.data());
  PyObject *boxedValue = boxValue(valueType, value.data());
  PyObject *result = boxedKey && boxedValue ? PyTuple_Pack(2, boxedKey, boxedValue) : nullptr;
  Py_XDECREF(boxedKey);
  Py_XDECREF(boxedValue);
  return result;
}

PyObject *dictUpdate(PyObject *object, PyObject *args, PyObject *kwargs) {
  Dict *self = asDict(object);
  PyObject *other = nullptr;
  if (!PyArg_UnpackTuple(args, "update", 0, 1, &other))
    return nullptr;
  if (other && !updateFrom(self, other))
    return nullptr;
  if (kwargs && PyDict_Size(kwargs) > 0 && !updateFrom(self, kwargs))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *dictClear(PyObject *object, PyObject *) {
  Dict *self = asDict(object);
  if (self->block)
    taipan_dict_clear(self->block);
  Py_RETURN_NONE;
}

PyObject *dictCopy(PyObject *object, PyObject *) {
  Dict *self = asDict(object);
  if (!self->block)
    return newTypedDict(self->type, nullptr);
  MemInfo *block = taipan_dict_copy(self->block);
  if (!block)
    return PyErr_NoMemory();
  return newTypedDict(self->type, block);
}

PyObject *dictRichCompare(PyObject *object, PyObject *other, int op) {
  if ((op != Py_EQ && op != Py_NE) || (Py_TYPE(other) != typedDictType && !PyDict_Check(other)))
    Py_RETURN_NOTIMPLEMENTED;
  PyObject *left = toPythonDict(asDict(object));
  PyObject *right =
      Py_TYPE(other) == typedDictType ? toPythonDict(asDict(other)) : (Py_INCREF(other), other);
  PyObject *result = left && right ? PyObject_RichCompare(left, right, op) : nullptr;
  Py_XDECREF(left);
  Py_XDECREF(right);
  return result;
}

/// Numba's str(): `{key: value, ...}` of the keys' and values' str().
bool dictBody(Dict *self, std::string &body) {
  PyObject *pairs = entries(self, 2);
  if (!pairs)
    return false;
  body = "{";
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pairs); ++i) {
    PyObject *pair = PyList_GET_ITEM(pairs, i);
    PyObject *key = PyObject_Str(PyTuple_GET_ITEM(pair, 0));
    PyObject *value = key ? PyObject_Str(PyTuple_GET_ITEM(pair, 1)) : nullptr;
    if (value)
      body += (i ? ", " : "") + std::string(PyUnicode_AsUTF8(key)) + ": " + PyUnicode_AsUTF8(value);
    Py_XDECREF(key);
    Py_XDECREF(value);
    if (!value) {
      Py_DECREF(pairs);
      return false;
    }
  }
  Py_DECREF(pairs);
  body += "}";
  return true;
}

PyObject *dictStr(PyObject *object) {
  std::string body;
  return dictBody(asDict(object), body) ? PyUnicode_FromString(body.c_str()) : nullptr;
}

/// Numba's repr(): `DictType[int64,float64]<iv=None>({1: 2.5})`.
PyObject *dictRepr(PyObject *object) {
  std::string body;
  if (!dictBody(asDict(object), body))
    return nullptr;
  return PyUnicode_FromString((asDict(object)->type->name() + "<iv=None>(" + body + ")").c_str());
}

PyObject *dictEmpty(PyObject *cls, PyObject *args, PyObject *kwargs) {
  static const char *keywords[] = {"key_type", "value_type", "n_keys", nullptr};
  PyObject *keyType = nullptr, *valueType = nullptr, *keyCount = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:empty", const_cast<char **>(keywords),
                                   &keyType, &valueType, &keyCount))
    return nullptr;
  const Type *key = typeFromArgument(keyType, "key type");
  const Type *value = key ? typeFromArgument(valueType, "value type") : nullptr;
  if (!value)
    return nullptr;
  if (dictKeyType(key) && key->isInteger())
    key = dictKeyType(key); // integer keys are int64 (uint64 stays), as in compiled code
  if (dictKeyType(key) != key) {
    PyErr_Format(PyExc_TypeError,
                 "a typed Dict cannot have keys of type %s (keys are int64, "
                 "uint64, floats, booleans, strings and tuples of them)",
                 key->name().c_str());
    return nullptr;
  }
  if (dictValueType(value) != value || (value->isList() && value->isReflected())) {
    PyErr_Format(PyExc_TypeError, "a typed Dict cannot hold values of type %s",
                 value->name().c_str());
    return nullptr;
  }
  PyObject *result = dictNew(reinterpret_cast<PyTypeObject *>(cls), nullptr, nullptr);
  if (result && !setTypes(asDict(result), key, value))
    Py_CLEAR(result);
  return result;
}

PyObject *dictTypeProperty(PyObject *object, void *) {
  Dict *self = asDict(object);
  if (!self->block) {
    PyErr_SetString(PyExc_TypeError, "invalid operation on untyped dictionary");
    return nullptr;
  }
  return nb::cast(TypeRef{self->type}).release().ptr();
}

PyObject *dictTypedProperty(PyObject *object, void *) {
  return PyBool_FromLong(asDict(object)->block != nullptr);
}

template <typename F> PyCFunction method(F function) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(function));
}

PyMethodDef dictMethods[] = {
    {"keys", dictKeys, METH_NOARGS, "A live view of the keys, in insertion order."},
    {"values", dictValues, METH_NOARGS, "A live view of the values, in insertion order."},
    {"items", dictItems, METH_NOARGS, "A live view of the (key, value) pairs, in order."},
    {"get", method(dictGet), METH_FASTCALL, "The value of a key, or a default."},
    {"setdefault", method(dictSetdefault), METH_FASTCALL,
     "The value of a key, storing the default first when the key is absent."},
    {"pop", method(dictPop), METH_FASTCALL, "Removes a key and returns its value."},
    {"popitem", dictPopitem, METH_NOARGS, "Removes and returns the last (key, value) pair."},
    {"update", method(dictUpdate), METH_VARARGS | METH_KEYWORDS,
     "Stores the entries of a mapping, an iterable of pairs, or keywords."},
    {"clear", dictClear, METH_NOARGS, "Removes every entry."},
    {"copy", dictCopy, METH_NOARGS, "A shallow copy."},
    {"__copy__", dictCopy, METH_NOARGS, "A shallow copy (copy.copy)."},
    {"empty", method(dictEmpty), METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "An empty typed Dict of the given key and value types."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef dictProperties[] = {
    {"_numba_type_", dictTypeProperty, nullptr, "The dict's type (DictType[key,value]).", nullptr},
    {"_dict_type", dictTypeProperty, nullptr, "The dict's type (DictType[key,value]).", nullptr},
    {"_typed", dictTypedProperty, nullptr, "Whether the key and value types are known.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

} // namespace

PyObject *newTypedDict(const Type *type, MemInfo *block) {
  PyObject *result = dictNew(typedDictType, nullptr, nullptr);
  if (!result) {
    taipan_nrt_decref(block);
    return nullptr;
  }
  if (block) {
    asDict(result)->type = type;
    asDict(result)->block = block;
  }
  return result;
}

void defineTypedDict(nb::module_ &module) {
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void *>(dictNew)},
      {Py_tp_init, reinterpret_cast<void *>(dictInit)},
      {Py_tp_dealloc, reinterpret_cast<void *>(dictDealloc)},
      {Py_tp_repr, reinterpret_cast<void *>(dictRepr)},
      {Py_tp_str, reinterpret_cast<void *>(dictStr)},
      {Py_tp_richcompare, reinterpret_cast<void *>(dictRichCompare)},
      {Py_tp_hash, reinterpret_cast<void *>(PyObject_HashNotImplemented)},
      {Py_tp_iter, reinterpret_cast<void *>(dictIter)},
      {Py_tp_methods, dictMethods},
      {Py_tp_getset, dictProperties},
      {Py_mp_length, reinterpret_cast<void *>(dictLength)},
      {Py_mp_subscript, reinterpret_cast<void *>(dictSubscript)},
      {Py_mp_ass_subscript, reinterpret_cast<void *>(dictAssign)},
      {Py_sq_contains, reinterpret_cast<void *>(dictContains)},
      {Py_tp_doc, const_cast<char *>("A dict whose keys and values have one type each (Numba's "
                                     "typed.Dict): compiled code receives it without a copy.")},
      {0, nullptr}};
  static PyType_Spec spec = {"taipan.typed.Dict", sizeof(Dict), 0, Py_TPFLAGS_DEFAULT, slots};
  typedDictType = reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&spec));
  if (!typedDictType)
    throw nb::python_error();
  static PyType_Slot iteratorSlots[] = {
      {Py_tp_dealloc, reinterpret_cast<void *>(keyIteratorDealloc)},
      {Py_tp_iter, reinterpret_cast<void *>(PyObject_SelfIter)},
      {Py_tp_iternext, reinterpret_cast<void *>(keyIteratorNext)},
      {0, nullptr}};
  static PyType_Spec iteratorSpec = {"taipan.typed.dict_keyiterator", sizeof(KeyIterator), 0,
                                     Py_TPFLAGS_DEFAULT, iteratorSlots};
  keyIteratorType = reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&iteratorSpec));
  if (!keyIteratorType)
    throw nb::python_error();
  module.attr("TypedDict") = nb::handle(reinterpret_cast<PyObject *>(typedDictType));
}

} // namespace taipan::bindings
