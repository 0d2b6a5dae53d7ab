// The call path: bind arguments, fingerprint them (typeOfValue), find the specialisation,
// unbox into a stack buffer, call the entry point, box the result. Only a miss enters Python.
#include "Dispatcher.h"

#include "Boxing.h"
#include "GeneratorBoxing.h"
#include "ListBoxing.h"
#include "Module.h"
#include "ObjectModeBlocks.h"
#include "StringBoxing.h"
#include "runtime/MemoryRuntime.h"

#include <cstring>
#include <deque>
#include <memory>
#include <structmember.h>

namespace taipan::bindings {
namespace {

/// Whether a value of this type is a copy of a caller's set or list, reflected into it.
bool reflectsIntoArgument(const Type *type) {
  return type->isSet() || (type->isList() && type->isReflected());
}

/// A returned set or list that is such an argument's compiled copy gives back the caller's own
/// object (a new reference; reflection then writes the changes into it), as Numba returns a
/// reflected container's parent; so does one inside a returned tuple. Null when the result
/// holds none.
template <typename Compiled>
PyObject *returnedArgument(const Compiled &compiled, PyObject *const *arguments, void **pointers,
                           size_t count, const Type *type, const void *result) {
  if (type->isTuple()) {
    bool holdsSets = false;
    for (const Type *element : type->elements())
      holdsSets |= reflectsIntoArgument(element);
    if (!holdsSets)
      return nullptr;
    PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(type->elements().size()));
    for (size_t i = 0; tuple && i < type->elements().size(); ++i) {
      const void *at = static_cast<const char *>(result) + type->elementOffset(i);
      PyObject *element =
          returnedArgument(compiled, arguments, pointers, count, type->elements()[i], at);
      if (!element)
        element = boxValue(type->elements()[i], at);
      if (!element) // the elements not boxed yet are lost with the error
        Py_CLEAR(tuple);
      else
        PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), element);
    }
    return tuple;
  }
  if (!reflectsIntoArgument(type))
    return nullptr;
  runtime::MemInfo *returned;
  std::memcpy(&returned, result, sizeof(returned));
  for (size_t i = 0; i < count; ++i) {
    if (!reflectsIntoArgument(compiled.argumentTypes[i]))
      continue;
    runtime::MemInfo *argument;
    std::memcpy(&argument, pointers[i], sizeof(argument));
    if (argument == returned) {
      taipan_nrt_decref(returned); // the argument's copy keeps its own reference
      Py_INCREF(arguments[i]);
      return arguments[i];
    }
  }
  return nullptr;
}

struct Overload {
  CompiledFunction compiled;
  std::vector<const Type *> key;
  std::vector<size_t> slotSizes; ///< bytes each argument takes in the buffer, 16-aligned
  size_t bufferSize;             ///< arguments and result together
  bool exact;                    ///< the key is the compiled argument types (not a conversion)
  /// A first tier's calls left before it is compiled again, shared by every key that runs it
  /// (read and written with the GIL held); null for code that is final.
  std::shared_ptr<int64_t> callsBeforeTierUp;
};

size_t slotSize(const Type *type) { return (type->storageSize() + 15) / 16 * 16; }

struct DispatcherObject {
  PyObject_HEAD vectorcallfunc vectorcall;
  std::deque<Overload> *overloads; // a deque keeps entries in place while others are added
  std::vector<std::string> *parameterNames;
  PyObject *defaults;
  PyObject *keywordDefaults; ///< __kwdefaults__: a dict, or null
  Py_ssize_t starIndex;      ///< the parameter `*args` binds, or -1
  Py_ssize_t keywordOnlyCount;
  bool nogil;
  bool generic;
};

constexpr Py_ssize_t MaxFastArguments = 16;

const Overload *findOverload(DispatcherObject *self, const Type *const *key, size_t count) {
  for (const Overload &overload : *self->overloads)
    if (overload.key.size() == count && std::equal(overload.key.begin(), overload.key.end(), key))
      return &overload;
  return nullptr;
}

PyObject *invoke(DispatcherObject *self, const Overload &overload, PyObject *const *arguments) {
  const CompiledFunction &compiled = overload.compiled;
  size_t count = compiled.argumentTypes.size();
  // Arguments and result live on the stack unless they are unusually large.
  alignas(16) char stackStorage[512];
  std::unique_ptr<char[]> heapStorage;
  size_t needed = overload.bufferSize;
  char *storage = stackStorage;
  if (needed > sizeof(stackStorage)) {
    heapStorage.reset(new char[needed + 16]);
    storage = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(heapStorage.get()) + 15) &
                                       ~static_cast<uintptr_t>(15));
  }
  void *argumentPointers[MaxFastArguments];
  std::unique_ptr<void *[]> manyPointers;
  void **pointers = argumentPointers;
  if (count > MaxFastArguments) {
    manyPointers.reset(new void *[count]);
    pointers = manyPointers.get();
  }
  char *cursor = storage;
  // Strings are unboxed into blocks of their own, released once the call is over; lists are
  // copied in for the call and reflected back after it (ListBoxing.h).
  auto releaseArguments = [&](size_t unboxed) {
    for (size_t i = 0; i < unboxed; ++i)
      releaseUnboxed(compiled.argumentTypes[i], pointers[i]);
  };
  bool anyLists = false;
  auto finishLists = [&](size_t unboxed, bool reflect) {
    bool ok = true;
    for (size_t i = 0; i < unboxed && anyLists; ++i)
      if (holdsLists(compiled.argumentTypes[i]))
        ok &= finishListArgument(arguments[i], compiled.argumentTypes[i],
                                 static_cast<char *>(pointers[i]), reflect && ok);
    return ok;
  };
  for (size_t i = 0; i < count; ++i) {
    const Type *type = compiled.argumentTypes[i];
    pointers[i] = cursor;
    if (!unboxValue(arguments[i], type, cursor, overload.exact)) {
      finishLists(i, false);
      releaseArguments(i);
      return nullptr;
    }
    anyLists |= type->holdsReferences() && !type->isArray() && holdsLists(type);
    cursor += overload.slotSizes[i];
  }
  void *result = cursor;
  int32_t status;
  enterCompiledCall();
  if (self->nogil) {
    Py_BEGIN_ALLOW_THREADS status = compiled.entry(pointers, result);
    Py_END_ALLOW_THREADS
  } else {
    status = compiled.entry(pointers, result);
  }
  leaveCompiledCall(status); // exceptions kept for Python (ObjectModeBlocks.h)
  releaseArguments(count);
  if (status != 0) {
    if (anyLists) {
      PyObject *type, *value, *traceback;
      PyErr_Fetch(&type, &value, &traceback);
      finishLists(count, true); // the changes made before the exception, as Numba keeps them
      PyErr_Restore(type, value, traceback);
    }
    raisePendingException();
    return nullptr;
  }
  PyObject *boxed =
      returnedArgument(compiled, arguments, pointers, count, compiled.returnType, result);
  if (!boxed && !PyErr_Occurred()) {
    boxed = boxValue(compiled.returnType, result);
    if (boxed && compiled.returnType->isGenerator())
      keepGeneratorArguments(boxed, arguments, count);
  }
  if (anyLists && !finishLists(count, true))
    Py_CLEAR(boxed);
  return boxed;
}

/// Binds keyword arguments and defaults into `bound` (borrowed references), Python-style. The
/// extra positional arguments of a `*args` parameter go into a new tuple, `packed`, which the
/// caller releases after the call.
bool bindArguments(DispatcherObject *self, PyObject *const *arguments, Py_ssize_t positional,
                   PyObject *keywordNames, std::vector<PyObject *> &bound, PyObject *&packed) {
  const std::vector<std::string> &names = *self->parameterNames;
  Py_ssize_t count = static_cast<Py_ssize_t>(names.size());
  Py_ssize_t star = self->starIndex;
  Py_ssize_t positionalCount = star >= 0 ? star : count - self->keywordOnlyCount;
  if (positional > positionalCount && star < 0) {
    PyErr_Format(PyExc_TypeError, "takes %zd positional arguments but %zd were given",
                 positionalCount, positional);
    return false;
  }
  bound.assign(count, nullptr);
  for (Py_ssize_t i = 0; i < std::min(positional, positionalCount); ++i)
    bound[i] = arguments[i];
  if (star >= 0) {
    Py_ssize_t extra = std::max<Py_ssize_t>(0, positional - positionalCount);
    packed = PyTuple_New(extra);
    if (!packed)
      return false;
    for (Py_ssize_t j = 0; j < extra; ++j) {
      Py_INCREF(arguments[positionalCount + j]);
      PyTuple_SET_ITEM(packed, j, arguments[positionalCount + j]);
    }
    bound[star] = packed;
  }
  Py_ssize_t keywordCount = keywordNames ? PyTuple_GET_SIZE(keywordNames) : 0;
  for (Py_ssize_t k = 0; k < keywordCount; ++k) {
    const char *keyword = PyUnicode_AsUTF8(PyTuple_GET_ITEM(keywordNames, k));
    Py_ssize_t index = 0;
    while (index < count && (index == star || names[index] != keyword))
      ++index;
    if (index == count) {
      PyErr_Format(PyExc_TypeError, "got an unexpected keyword argument '%s'", keyword);
      return false;
    }
    if (bound[index]) {
      PyErr_Format(PyExc_TypeError, "got multiple values for argument '%s'", keyword);
      return false;
    }
    bound[index] = arguments[positional + k];
  }
  Py_ssize_t defaultCount = self->defaults ? PyTuple_GET_SIZE(self->defaults) : 0;
  for (Py_ssize_t i = 0; i < count; ++i) {
    if (bound[i])
      continue;
    if (i >= positionalCount) { // keyword-only
      PyObject *value = self->keywordDefaults
                            ? PyDict_GetItemString(self->keywordDefaults, names[i].c_str())
                            : nullptr;
      if (!value) {
        PyErr_Format(PyExc_TypeError, "missing required keyword-only argument '%s'",
                     names[i].c_str());
        return false;
      }
      bound[i] = value;
      continue;
    }
    Py_ssize_t defaultIndex = i - (positionalCount - defaultCount);
    if (defaultIndex < 0) {
      PyErr_Format(PyExc_TypeError, "missing required argument '%s'", names[i].c_str());
      return false;
    }
    bound[i] = PyTuple_GET_ITEM(self->defaults, defaultIndex);
  }
  return true;
}

/// Asks Python to compile a first tier's job again at its level (`_tier_up(address)`), which
/// replaces the overloads that ran it (replaceOverloads); false with the error set when that
/// call raised.
bool tierUp(PyObject *callable, const Overload &overload) {
  PyObject *address = PyLong_FromVoidPtr(reinterpret_cast<void *>(overload.compiled.entry));
  PyObject *outcome = address ? PyObject_CallMethod(callable, "_tier_up", "O", address) : nullptr;
  Py_XDECREF(address);
  Py_XDECREF(outcome);
  return outcome != nullptr;
}

/// Releases the tuple a `*args` call packed, when the call returns.
struct PackedArguments {
  PyObject *tuple = nullptr;
  ~PackedArguments() { Py_XDECREF(tuple); }
};

PyObject *dispatcherVectorcall(PyObject *callable, PyObject *const *arguments, size_t flags,
                               PyObject *keywordNames) {
  auto *self = reinterpret_cast<DispatcherObject *>(callable);
  Py_ssize_t positional = PyVectorcall_NARGS(flags);
  if (self->generic) {
    PyObject *method = PyObject_GetAttrString(callable, "_compile_for_args");
    if (!method)
      return nullptr;
    PyObject *result = PyObject_Vectorcall(method, arguments, flags, keywordNames);
    Py_DECREF(method);
    return result;
  }
  std::vector<PyObject *> bound;
  PyObject *const *actual = arguments;
  Py_ssize_t count = positional;
  PackedArguments packed;
  if (keywordNames || positional != static_cast<Py_ssize_t>(self->parameterNames->size()) ||
      self->starIndex >= 0 || self->keywordOnlyCount > 0) {
    if (!bindArguments(self, arguments, positional, keywordNames, bound, packed.tuple))
      return nullptr;
    actual = bound.data();
    count = static_cast<Py_ssize_t>(bound.size());
  }
  const Type *keyStorage[MaxFastArguments];
  std::vector<const Type *> manyKeys;
  const Type **key = keyStorage;
  if (count > MaxFastArguments) {
    manyKeys.resize(count);
    key = manyKeys.data();
  }
  bool typed = true;
  for (Py_ssize_t i = 0; i < count && typed; ++i)
    typed = (key[i] = typeOfValue(actual[i])) != nullptr;
  const Overload *overload = typed ? findOverload(self, key, count) : nullptr;
  if (!overload) {
    // A miss: Python compiles (or picks a compatible explicit signature) and registers it.
    PyObject *tuple = PyTuple_New(count);
    if (!tuple)
      return nullptr;
    for (Py_ssize_t i = 0; i < count; ++i) {
      Py_INCREF(actual[i]);
      PyTuple_SET_ITEM(tuple, i, actual[i]);
    }
    PyObject *method = PyObject_GetAttrString(callable, "_compile_for_args");
    PyObject *outcome = method ? PyObject_Call(method, tuple, nullptr) : nullptr;
    Py_XDECREF(method);
    Py_DECREF(tuple);
    if (!outcome)
      return nullptr;
    Py_DECREF(outcome);
    overload = typed ? findOverload(self, key, count) : nullptr;
    if (!overload) {
      PyErr_SetString(PyExc_TypeError, "no compiled specialisation matches these arguments");
      return nullptr;
    }
  }
  if (overload->callsBeforeTierUp && --*overload->callsBeforeTierUp == 0 &&
      !tierUp(callable, *overload))
    return nullptr;
  return invoke(self, *overload, actual);
}

PyObject *dispatcherNew(PyTypeObject *type, PyObject *, PyObject *) {
  auto *self = reinterpret_cast<DispatcherObject *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  self->vectorcall = dispatcherVectorcall;
  self->overloads = new std::deque<Overload>();
  self->parameterNames = new std::vector<std::string>();
  self->defaults = nullptr;
  self->keywordDefaults = nullptr;
  self->starIndex = -1;
  self->keywordOnlyCount = 0;
  self->nogil = false;
  self->generic = false;
  return reinterpret_cast<PyObject *>(self);
}

void dispatcherDealloc(PyObject *object) {
  auto *self = reinterpret_cast<DispatcherObject *>(object);
  PyTypeObject *type = Py_TYPE(object);
  PyObject_GC_UnTrack(object);
  delete self->overloads;
  delete self->parameterNames;
  Py_CLEAR(self->defaults);
  Py_CLEAR(self->keywordDefaults);
  type->tp_free(object);
  Py_DECREF(type);
}

int dispatcherTraverse(PyObject *object, visitproc visit, void *arg) {
  Py_VISIT(reinterpret_cast<DispatcherObject *>(object)->defaults);
  Py_VISIT(reinterpret_cast<DispatcherObject *>(object)->keywordDefaults);
  Py_VISIT(Py_TYPE(object));
  return 0;
}

int dispatcherClear(PyObject *object) {
  Py_CLEAR(reinterpret_cast<DispatcherObject *>(object)->defaults);
  Py_CLEAR(reinterpret_cast<DispatcherObject *>(object)->keywordDefaults);
  return 0;
}

PyMemberDef dispatcherMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(DispatcherObject, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

} // namespace

PyTypeObject *createDispatcherType() {
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void *>(dispatcherNew)},
      {Py_tp_dealloc, reinterpret_cast<void *>(dispatcherDealloc)},
      {Py_tp_traverse, reinterpret_cast<void *>(dispatcherTraverse)},
      {Py_tp_clear, reinterpret_cast<void *>(dispatcherClear)},
      {Py_tp_call, reinterpret_cast<void *>(PyVectorcall_Call)},
      {Py_tp_members, dispatcherMembers},
      {Py_tp_doc, const_cast<char *>("Base of taipan's dispatchers: the compiled call path.")},
      {0, nullptr}};
  static PyType_Spec spec = {"taipan._core.DispatcherBase", sizeof(DispatcherObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                                 Py_TPFLAGS_HAVE_VECTORCALL,
                             slots};
  return reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&spec));
}

void configureDispatcher(PyObject *dispatcher, const std::vector<std::string> &names,
                         PyObject *defaults, bool nogil, bool generic, Py_ssize_t starIndex,
                         Py_ssize_t keywordOnlyCount, PyObject *keywordDefaults) {
  auto *self = reinterpret_cast<DispatcherObject *>(dispatcher);
  *self->parameterNames = names;
  Py_CLEAR(self->defaults);
  if (defaults && defaults != Py_None) {
    Py_INCREF(defaults);
    self->defaults = defaults;
  }
  Py_CLEAR(self->keywordDefaults);
  if (keywordDefaults && keywordDefaults != Py_None) {
    Py_INCREF(keywordDefaults);
    self->keywordDefaults = keywordDefaults;
  }
  self->starIndex = starIndex;
  self->keywordOnlyCount = keywordOnlyCount;
  self->nogil = nogil;
  self->generic = generic;
}

void addOverload(PyObject *dispatcher, const CompiledFunction &compiled,
                 const std::vector<const Type *> &key, int64_t tierUpAfter) {
  auto *self = reinterpret_cast<DispatcherObject *>(dispatcher);
  Overload overload{
      compiled, key, {}, slotSize(compiled.returnType) + 16, key == compiled.argumentTypes};
  for (const Type *type : compiled.argumentTypes) {
    overload.slotSizes.push_back(slotSize(type));
    overload.bufferSize += overload.slotSizes.back();
  }
  // Another key of the same code (an explicit signature's conversion) shares its count.
  for (const Overload &existing : *self->overloads)
    if (existing.compiled.entry == compiled.entry)
      overload.callsBeforeTierUp = existing.callsBeforeTierUp;
  if (!overload.callsBeforeTierUp && compiled.firstTier && tierUpAfter > 0)
    overload.callsBeforeTierUp = std::make_shared<int64_t>(tierUpAfter);
  self->overloads->push_back(std::move(overload));
}

void replaceOverloads(PyObject *dispatcher, const CompiledFunction &replaced,
                      const CompiledFunction &compiled) {
  auto *self = reinterpret_cast<DispatcherObject *>(dispatcher);
  for (Overload &overload : *self->overloads)
    if (overload.compiled.entry == replaced.entry) {
      overload.compiled = compiled;
      overload.callsBeforeTierUp.reset();
    }
}

void enableVectorcall(PyObject *subclass) {
  auto *type = reinterpret_cast<PyTypeObject *>(subclass);
  type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  type->tp_vectorcall_offset = offsetof(DispatcherObject, vectorcall);
  type->tp_call = PyVectorcall_Call;
  PyType_Modified(type);
}

} // namespace taipan::bindings
