// The call path: bind arguments, fingerprint them (typeOfValue), find the specialisation,
// unbox into a stack buffer, call the entry point, box the result. Only a miss enters Python.
#include "Dispatcher.h"

#include "ArrayBoxing.h"
#include "Boxing.h"
#include "GeneratorBoxing.h"
#include "ListBoxing.h"
#include "Module.h"
#include "ObjectModeBlocks.h"
#include "StringBoxing.h"
#include "runtime/MemoryRuntime.h"

#include <algorithm>
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

/// How the plain call path (invokePlain) converts an argument or the result: the common forms
/// inline, any other through unboxValue and boxValue.
enum class ValueForm : uint8_t { Float64, Int64, Array, Other };

struct Overload {
  CompiledFunction compiled;
  std::vector<const Type *> key;
  std::vector<size_t> slotSizes; ///< bytes each argument takes in the buffer, 16-aligned
  size_t bufferSize;             ///< arguments and result together
  bool exact;                    ///< the key is the compiled argument types (not a conversion)
  /// A first tier's calls left before it is compiled again, shared by every key that runs it
  /// (read and written with the GIL held); null for code that is final.
  std::shared_ptr<int64_t> callsBeforeTierUp;
  /// Whether invokePlain runs it (describeCall): its arguments need nothing after the call.
  bool plain = false;
  std::vector<ValueForm> argumentForms;
  ValueForm resultForm = ValueForm::Other;
};

size_t slotSize(const Type *type) { return (type->storageSize() + 15) / 16 * 16; }

struct DispatcherObject {
  PyObject_HEAD vectorcallfunc vectorcall;
  std::deque<Overload> *overloads;       // a deque keeps entries in place while others are added
  std::vector<const Overload *> *lookup; ///< the same overloads, for the call path's search
  std::vector<std::string> *parameterNames;
  PyObject *defaults;
  PyObject *keywordDefaults; ///< __kwdefaults__: a dict, or null
  Py_ssize_t starIndex;      ///< the parameter `*args` binds, or -1
  Py_ssize_t keywordOnlyCount;
  bool nogil;
  bool generic;
  /// Not generic, and the parameters are positional ones only (no `*args`, no keyword-only): a
  /// call with that many positional arguments binds them as they are.
  bool bindsAsGiven;
  Py_ssize_t parameterCount;
};

constexpr Py_ssize_t MaxFastArguments = 16;
/// The bytes of arguments and result invoke keeps on the stack.
constexpr size_t StackBufferSize = 512;

inline const Overload *findOverload(DispatcherObject *self, const Type *const *key, size_t count) {
  for (const Overload *overload : *self->lookup) {
    if (overload->key.size() != count)
      continue;
    const Type *const *candidate = overload->key.data();
    size_t i = 0;
    while (i < count && candidate[i] == key[i])
      ++i;
    if (i == count)
      return overload;
  }
  return nullptr;
}

/// The slot of an earlier argument that is the same Python list or set as argument `index`,
/// unboxed already, or null: such an argument shares that compiled container.
const void *reflectedEarlier(const CompiledFunction &compiled, PyObject *const *arguments,
                             void *const *pointers, size_t index) {
  const Type *type = compiled.argumentTypes[index];
  if (!reflectsIntoArgument(type))
    return nullptr;
  for (size_t earlier = 0; earlier < index; ++earlier)
    if (arguments[earlier] == arguments[index] && compiled.argumentTypes[earlier] == type)
      return pointers[earlier];
  return nullptr;
}

PyObject *invoke(DispatcherObject *self, const Overload &overload, PyObject *const *arguments) {
  const CompiledFunction &compiled = overload.compiled;
  size_t count = compiled.argumentTypes.size();
  // Arguments and result live on the stack unless they are unusually large.
  alignas(16) char stackStorage[StackBufferSize];
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
    if (const void *shared = reflectedEarlier(compiled, arguments, pointers, i)) {
      // One Python object is one compiled container: f(l, l) sees its own appends through
      // both names, as CPython and Numba do. The slot holds the block; it takes a reference.
      std::memcpy(cursor, shared, sizeof(void *));
      taipan_nrt_incref(*static_cast<runtime::MemInfo *const *>(shared));
      anyLists = true;
      cursor += overload.slotSizes[i];
      continue;
    }
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
  CompiledCallState &callState = enterCompiledCall();
  if (self->nogil) {
    Py_BEGIN_ALLOW_THREADS status = compiled.entry(pointers, result);
    Py_END_ALLOW_THREADS
  } else {
    status = compiled.entry(pointers, result);
  }
  leaveCompiledCall(callState, status); // exceptions kept for Python (ObjectModeBlocks.h)
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

/// Whether a value of `type` passes to compiled code as plain memory: nothing of it is
/// released, reflected or given back after the call (numbers, arrays, tuples of them).
bool passesPlainly(const Type *type) {
  switch (type->kind()) {
  case TypeKind::Boolean:
  case TypeKind::Integer:
  case TypeKind::Float:
  case TypeKind::Complex:
  case TypeKind::None:
  case TypeKind::Array:
    return true;
  case TypeKind::Tuple:
    return std::all_of(type->elements().begin(), type->elements().end(), passesPlainly);
  default:
    return false;
  }
}

ValueForm valueForm(const Type *type) {
  if (type == types::float64())
    return ValueForm::Float64;
  if (type == types::int64())
    return ValueForm::Int64;
  return type->isArray() ? ValueForm::Array : ValueForm::Other;
}

/// Sets what the call path of `overload` needs to know of its types: whether invokePlain runs
/// it, and the forms of its arguments and result. invoke does everything invokePlain does, and
/// also releases unboxed strings and containers, reflects lists and sets, gives back a
/// returned argument and keeps a generator's arguments alive.
void describeCall(Overload &overload) {
  const CompiledFunction &compiled = overload.compiled;
  overload.argumentForms.clear();
  for (const Type *type : compiled.argumentTypes)
    overload.argumentForms.push_back(valueForm(type));
  overload.resultForm = valueForm(compiled.returnType);
  overload.plain =
      compiled.argumentTypes.size() <= static_cast<size_t>(MaxFastArguments) &&
      overload.bufferSize <= StackBufferSize &&
      std::all_of(compiled.argumentTypes.begin(), compiled.argumentTypes.end(), passesPlainly) &&
      !holdsLists(compiled.returnType) && !compiled.returnType->isGenerator();
}

/// Unboxes one argument of a plain call: a float or an int as they are, an array without its
/// checks when the dispatcher found it to be of the type (`verified`), anything else through
/// unboxValue, which converts these forms the same way.
inline bool unboxPlainArgument(PyObject *value, ValueForm form, const Type *type, void *storage,
                               bool verified) {
  switch (form) {
  case ValueForm::Float64:
    if (PyFloat_CheckExact(value)) {
      double real = PyFloat_AS_DOUBLE(value);
      std::memcpy(storage, &real, sizeof(real));
      return true;
    }
    break;
  case ValueForm::Int64:
    if (PyLong_CheckExact(value)) {
      long long integer = PyLong_AsLongLong(value);
      if (integer == -1 && PyErr_Occurred())
        return false;
      int64_t bits = integer;
      std::memcpy(storage, &bits, sizeof(bits));
      return true;
    }
    break;
  case ValueForm::Array:
    return unboxArray(value, type, storage, verified);
  case ValueForm::Other:
    break;
  }
  return unboxValue(value, type, storage, verified);
}

/// The call of a plain overload (describeCall): unbox into a stack buffer, call, box the result.
/// Its arguments hold no references, so a failed unboxing leaves nothing to release.
[[gnu::always_inline]] inline PyObject *
invokePlain(DispatcherObject *self, const Overload &overload, PyObject *const *arguments) {
  const CompiledFunction &compiled = overload.compiled;
  size_t count = overload.argumentForms.size();
  alignas(16) char storage[StackBufferSize];
  void *pointers[MaxFastArguments];
  char *cursor = storage;
  for (size_t i = 0; i < count; ++i) {
    pointers[i] = cursor;
    if (!unboxPlainArgument(arguments[i], overload.argumentForms[i], compiled.argumentTypes[i],
                            cursor, overload.exact))
      return nullptr;
    cursor += overload.slotSizes[i];
  }
  // Read before the call: compiled code may run Python that replaces this overload's code.
  const Type *returnType = compiled.returnType;
  ValueForm resultForm = overload.resultForm;
  CompiledFunction::EntryPoint entry = compiled.entry;
  int32_t status;
  CompiledCallState &callState = enterCompiledCall();
  if (self->nogil) {
    Py_BEGIN_ALLOW_THREADS status = entry(pointers, cursor);
    Py_END_ALLOW_THREADS
  } else {
    status = entry(pointers, cursor);
  }
  leaveCompiledCall(callState, status);
  if (status != 0) {
    raisePendingException();
    return nullptr;
  }
  if (resultForm == ValueForm::Float64) {
    double real;
    std::memcpy(&real, cursor, sizeof(real));
    return PyFloat_FromDouble(real);
  }
  if (resultForm == ValueForm::Int64) {
    int64_t integer;
    std::memcpy(&integer, cursor, sizeof(integer));
    return PyLong_FromLongLong(integer);
  }
  return boxValue(returnType, cursor);
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

/// Every call dispatcherVectorcall does not run itself: keyword arguments, defaults, `*args`,
/// a generic dispatcher, a miss (compiled by Python), a first tier counting its calls, and
/// overloads with references to release or containers to reflect.
[[gnu::noinline]] PyObject *dispatchCall(PyObject *callable, PyObject *const *arguments,
                                         size_t flags, PyObject *keywordNames) {
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
  if (keywordNames || positional != self->parameterCount || !self->bindsAsGiven) {
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
    if (PyTuple_Check(outcome) && PyTuple_GET_SIZE(outcome) == 1) {
      // Python made the call itself: a specialisation for literal argument values
      // (`literally`), which the argument types alone cannot select.
      PyObject *result = PyTuple_GET_ITEM(outcome, 0);
      Py_INCREF(result);
      Py_DECREF(outcome);
      return result;
    }
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
  if (overload->plain)
    return invokePlain(self, *overload, actual);
  return invoke(self, *overload, actual);
}

/// types::float64(), read once the dispatcher type exists (createDispatcherType).
const Type *float64Type = nullptr;

/// The fingerprint of an argument (typeOfValue), a float's or an array's without a call.
inline const Type *fingerprint(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  if (type == &PyFloat_Type)
    return float64Type;
  if (type == ndarrayType) // null until NumPy is loaded
    return typeOfNdarray(value);
  return typeOfValue(value);
}

/// The call path. It runs the common call itself: as many positional arguments as parameters,
/// of types a plain overload takes (invokePlain), that code final; dispatchCall does the rest.
PyObject *dispatcherVectorcall(PyObject *callable, PyObject *const *arguments, size_t flags,
                               PyObject *keywordNames) {
  auto *self = reinterpret_cast<DispatcherObject *>(callable);
  Py_ssize_t count = PyVectorcall_NARGS(flags);
  if (!keywordNames && count == self->parameterCount && self->bindsAsGiven &&
      count <= MaxFastArguments) {
    const Type *key[MaxFastArguments];
    Py_ssize_t typed = 0;
    while (typed < count && (key[typed] = fingerprint(arguments[typed])))
      ++typed;
    if (typed == count) {
      const Overload *overload = findOverload(self, key, static_cast<size_t>(count));
      if (overload && overload->plain && !overload->callsBeforeTierUp)
        return invokePlain(self, *overload, arguments);
    }
  }
  return dispatchCall(callable, arguments, flags, keywordNames);
}

PyObject *dispatcherNew(PyTypeObject *type, PyObject *, PyObject *) {
  auto *self = reinterpret_cast<DispatcherObject *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  self->vectorcall = dispatcherVectorcall;
  self->overloads = new std::deque<Overload>();
  self->lookup = new std::vector<const Overload *>();
  self->parameterNames = new std::vector<std::string>();
  self->defaults = nullptr;
  self->keywordDefaults = nullptr;
  self->starIndex = -1;
  self->keywordOnlyCount = 0;
  self->nogil = false;
  self->generic = false;
  self->bindsAsGiven = true;
  self->parameterCount = 0;
  return reinterpret_cast<PyObject *>(self);
}

void dispatcherDealloc(PyObject *object) {
  auto *self = reinterpret_cast<DispatcherObject *>(object);
  PyTypeObject *type = Py_TYPE(object);
  PyObject_GC_UnTrack(object);
  delete self->overloads;
  delete self->lookup;
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
  float64Type = types::float64();
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
  self->bindsAsGiven = !generic && starIndex < 0 && keywordOnlyCount == 0;
  self->parameterCount = static_cast<Py_ssize_t>(names.size());
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
  describeCall(overload);
  self->overloads->push_back(std::move(overload));
  self->lookup->push_back(&self->overloads->back());
}

void replaceOverloads(PyObject *dispatcher, const CompiledFunction &replaced,
                      const CompiledFunction &compiled) {
  auto *self = reinterpret_cast<DispatcherObject *>(dispatcher);
  for (Overload &overload : *self->overloads)
    if (overload.compiled.entry == replaced.entry) {
      overload.compiled = compiled;
      overload.callsBeforeTierUp.reset();
      describeCall(overload);
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
