// `with objmode(...)` blocks: the front end (taipan/objmode_blocks.py) compiles each block's
// statements into a Python function and registers it here; compiled code calls it through
// taipan_objmode_call, which lands in runObjectModeBlock: take the GIL, box the inputs as
// borrowed values, call, unbox the declared outputs as values compiled code owns.
#include "ObjectModeBlocks.h"

#include "Boxing.h"
#include "Module.h"
#include "TypeObjects.h"
#include "TypedContainers.h"
#include "runtime/ExceptionArguments.h"
#include "runtime/LoadTimeSymbols.h"
#include "runtime/MemoryRuntime.h"
#include "runtime/ObjectMode.h"
#include "typing/ObjectModeBlocks.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

/// The Python function of each block, by block id (index id - 1). Read and written under the
/// GIL; the functions live as long as the process, as compiled code may call them.
std::vector<PyObject *> &blockFunctions() {
  static auto *functions = new std::vector<PyObject *>();
  return *functions;
}

/// A Python exception kept for one compiled code knows by class id and message (one a block
/// raised, or one made of a raise's arguments): a propagating exception keeps its arguments
/// and traceback instead of being rebuilt from its message, and e.args reads them. A raise's
/// arguments are kept as they are (their memory forms, with references) and made into the
/// exception only when Python needs it, so raising costs no GIL.
struct KeptException {
  PyObject *exception = nullptr; ///< owned; null while only the arguments are kept
  int32_t id = 0;
  std::string message;
  /// The types of the arguments not made into `exception` yet (describedTypes' cache), or null.
  const std::vector<const Type *> *argumentTypes = nullptr;
  std::string argumentBytes; ///< their memory forms one after another, owning their references
};
/// This thread's kept exceptions, newest last; the oldest go beyond MaxKept, and all when a
/// call from Python returns normally.
thread_local std::deque<KeptException> keptExceptions;
thread_local CompiledCallState callState = {0, false};
constexpr size_t MaxKept = 32;

/// Releases the references of arguments not made into an exception yet (no GIL needed).
void releaseKeptArguments(KeptException &kept) {
  if (!kept.argumentTypes)
    return;
  size_t offset = 0;
  for (const Type *type : *kept.argumentTypes) {
    releaseValue(type, kept.argumentBytes.data() + offset);
    offset += type->storageSize();
  }
  kept.argumentTypes = nullptr;
  kept.argumentBytes.clear();
}

/// Keeps `entry`; beyond MaxKept the oldest goes (one holding a Python object only when
/// `holdingGil`).
void keepException(KeptException entry, bool holdingGil) {
  if (keptExceptions.size() >= MaxKept)
    for (auto oldest = keptExceptions.begin(); oldest != keptExceptions.end(); ++oldest)
      if (holdingGil || !oldest->exception) {
        Py_XDECREF(oldest->exception);
        releaseKeptArguments(*oldest);
        keptExceptions.erase(oldest);
        break;
      }
  keptExceptions.push_back(std::move(entry));
  callState.mayHoldKept = true;
}

/// Makes the kept arguments into the exception (under the GIL); false when there is none.
bool materialize(KeptException &kept) {
  if (kept.exception || !kept.argumentTypes)
    return kept.exception != nullptr;
  const std::vector<const Type *> &argumentTypes = *kept.argumentTypes;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyObject *arguments = PyTuple_New(static_cast<Py_ssize_t>(argumentTypes.size()));
  bool boxed = arguments != nullptr;
  size_t offset = 0;
  for (size_t i = 0; i < argumentTypes.size(); ++i) {
    const Type *argumentType = argumentTypes[i];
    char *storage = kept.argumentBytes.data() + offset;
    offset += argumentType->storageSize();
    if (!boxed) {
      releaseValue(argumentType, storage);
      continue;
    }
    PyObject *item = boxValue(argumentType, storage); // takes over the references
    if (item)
      PyTuple_SET_ITEM(arguments, static_cast<Py_ssize_t>(i), item);
    boxed = item != nullptr;
  }
  kept.argumentTypes = nullptr;
  kept.argumentBytes.clear();
  PyObject *instance =
      boxed ? PyObject_Call(exceptionClassFor(kept.id), arguments, nullptr) : nullptr;
  Py_XDECREF(arguments);
  if (instance && PyExceptionInstance_Check(instance))
    kept.exception = instance;
  else
    Py_XDECREF(instance); // the message alone stands for it, as without arguments
  PyErr_Clear();
  PyErr_Restore(type, value, traceback);
  return kept.exception != nullptr;
}

/// The newest exception kept for `id` and `message`, or nullptr.
KeptException *findKept(int32_t id, const char *message) {
  if (!message)
    return nullptr;
  for (auto kept = keptExceptions.rbegin(); kept != keptExceptions.rend(); ++kept)
    if (kept->id == id && kept->message == message)
      return &*kept;
  return nullptr;
}

std::string utf8Of(PyObject *object, bool repr) {
  PyObject *text = repr ? PyObject_Repr(object) : PyObject_Str(object);
  Py_ssize_t size = 0;
  const char *data = text ? PyUnicode_AsUTF8AndSize(text, &size) : nullptr;
  std::string result = data ? std::string(data, static_cast<size_t>(size)) : std::string();
  if (!data)
    PyErr_Clear();
  Py_XDECREF(text);
  return result;
}

/// Makes the current Python error the exception pending for compiled code (status 1): its
/// class by registry id and its message as compiled code formats messages (a KeyError of one
/// argument as the key's repr, marked as dict lookups mark it).
int32_t pendFromPythonError() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback && value)
    PyException_SetTraceback(value, traceback);
  int32_t id = exceptionIdFor(type);
  std::string message;
  PyObject *arguments = value ? PyObject_GetAttrString(value, "args") : nullptr;
  if (!arguments)
    PyErr_Clear();
  if (arguments && PyTuple_Check(arguments) && PyTuple_GET_SIZE(arguments) == 1 &&
      PyErr_GivenExceptionMatches(type, PyExc_KeyError))
    message = "\x01" + utf8Of(PyTuple_GET_ITEM(arguments, 0), true);
  else if (value)
    message = utf8Of(value, false);
  Py_XDECREF(arguments);
  runtime::raiseWithMessage(id, message);
  if (value)
    keepException(KeptException{value, id, message, nullptr, {}}, true); // takes the reference
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  return 1;
}

/// TypeError for an output the block gave a value its declared type cannot hold.
int32_t pendWrongOutput(const ObjectModeBlock &block, size_t index, PyObject *value) {
  PyObject *type, *problem, *traceback;
  PyErr_Fetch(&type, &problem, &traceback);
  std::string reason = problem ? utf8Of(problem, false) : std::string();
  Py_XDECREF(type);
  Py_XDECREF(problem);
  Py_XDECREF(traceback);
  const Type *actual = typeOfValue(value);
  PyErr_Clear();
  std::string message = "the output '" + block.outputNames[index] +
                        "' of the with objmode(...) block at " + block.where + " is declared " +
                        block.outputTypes[index]->name() + ", but the block left a value of type " +
                        (actual ? actual->name() : std::string(Py_TYPE(value)->tp_name)) + " (" +
                        utf8Of(value, true) + ")";
  if (!reason.empty() && reason.rfind("cannot store a value", 0) != 0)
    message += ": " + reason;              // a conversion's own reason (an int out of range...)
  if (block.outputTypes[index]->isArray()) // Numba's words, which its tests look for
    message += " (can't unbox array from PyObject into native value.  The object maybe of a "
               "different type)";
  PyErr_SetString(PyExc_TypeError, message.c_str());
  return pendFromPythonError();
}

int32_t callBlock(const ObjectModeSite &site, const ObjectModeBlock &block, PyObject *function,
                  void **inputs, void *results) {
  size_t count = site.argumentTypes.size();
  PyObject *arguments = PyTuple_New(static_cast<Py_ssize_t>(count));
  if (!arguments)
    return pendFromPythonError();
  for (size_t i = 0; i < count; ++i) {
    PyObject *boxed = boxBorrowedValue(site.argumentTypes[i], inputs[i]);
    if (!boxed) {
      Py_DECREF(arguments);
      return pendFromPythonError();
    }
    PyTuple_SET_ITEM(arguments, static_cast<Py_ssize_t>(i), boxed);
  }
  PyObject *returned = PyObject_Call(function, arguments, nullptr);
  Py_DECREF(arguments);
  if (!returned)
    return pendFromPythonError();
  size_t outputs = block.outputTypes.size();
  if (outputs == 0) {
    Py_DECREF(returned);
    return 0;
  }
  const Type *tuple = types::tuple(block.outputTypes);
  for (size_t i = 0; i < outputs; ++i) {
    PyObject *value = PyTuple_GET_ITEM(returned, static_cast<Py_ssize_t>(i));
    void *slot = static_cast<char *>(results) + tuple->elementOffset(i);
    if (!unboxOwnedValue(value, block.outputTypes[i], slot, block.outputTypes[i])) {
      for (size_t done = 0; done < i; ++done)
        releaseValue(block.outputTypes[done],
                     static_cast<char *>(results) + tuple->elementOffset(done));
      int32_t status = pendWrongOutput(block, i, value);
      Py_DECREF(returned);
      return status;
    }
  }
  Py_DECREF(returned);
  return 0;
}

int32_t runObjectModeBlock(int64_t siteId, void **inputs, void *results) {
  const ObjectModeSite *site = findObjectModeSite(siteId);
  const ObjectModeBlock *block = site ? findObjectModeBlock(site->block) : nullptr;
  if (!block) {
    taipan_raise(RuntimeErrorId, "unknown with objmode(...) block");
    return 1;
  }
  PyGILState_STATE state = PyGILState_Ensure();
  int32_t status;
  size_t index = static_cast<size_t>(site->block - 1);
  if (index >= blockFunctions().size() || !blockFunctions()[index]) {
    taipan_raise(RuntimeErrorId, "with objmode(...) block without its Python function");
    status = 1;
  } else {
    status = callBlock(*site, *block, blockFunctions()[index], inputs, results);
  }
  PyGILState_Release(state);
  return status;
}

/// The type of the next value in a descriptor of exception arguments
/// (runtime/ExceptionArguments.h); nullptr at its end or for an unknown name.
const Type *describedType(const char *&cursor) {
  while (*cursor == ' ')
    ++cursor;
  if (!*cursor || *cursor == ')')
    return nullptr;
  if (*cursor == '(') {
    ++cursor;
    std::vector<const Type *> elements;
    while (const Type *element = describedType(cursor))
      elements.push_back(element);
    if (*cursor != ')')
      return nullptr;
    ++cursor;
    return types::tuple(elements);
  }
  const char *start = cursor;
  while (*cursor && *cursor != ' ')
    ++cursor;
  return types::scalarByName(std::string(start, cursor));
}

/// The types a descriptor names, parsed once per descriptor on each thread (descriptors are
/// constants of compiled code, which lives as long as the process).
const std::vector<const Type *> &describedTypes(const char *descriptor) {
  thread_local std::unordered_map<const char *, std::vector<const Type *>> parsed;
  auto found = parsed.find(descriptor);
  if (found != parsed.end())
    return found->second;
  std::vector<const Type *> types;
  const char *cursor = descriptor;
  while (const Type *type = describedType(cursor))
    types.push_back(type);
  return parsed.emplace(descriptor, std::move(types)).first->second;
}

/// Keeps a raise's arguments for the exception pending (copies of their memory forms, with
/// new references): Python gets E(a, b) itself. No GIL: materialize makes the object later.
void keepExceptionArguments(const char *descriptor, void **values) {
  runtime::PendingException pending = runtime::pendingException();
  if (!pending.message)
    return;
  KeptException kept;
  kept.id = pending.exceptionId;
  kept.message = pending.message;
  kept.argumentTypes = &describedTypes(descriptor);
  for (size_t i = 0; i < kept.argumentTypes->size(); ++i) {
    const Type *type = (*kept.argumentTypes)[i];
    const char *storage = static_cast<const char *>(values[i]);
    kept.argumentBytes.append(storage, type->storageSize());
    for (int64_t offset : types::referenceOffsets(type)) {
      runtime::MemInfo *block;
      std::memcpy(&block, storage + offset, sizeof(block));
      taipan_nrt_incref(block);
    }
  }
  keepException(std::move(kept), false);
}

/// The arguments of the handled exception `id`/`message` as Python would have them: the kept
/// exception's, else those its message stands for (none, the message, or a missing key).
PyObject *argumentsOf(int32_t id, const char *message) {
  KeptException *kept = findKept(id, message);
  if (kept && materialize(*kept))
    return PyObject_GetAttrString(kept->exception, "args");
  if (!message || !*message)
    return PyTuple_New(0);
  if (message[0] == '\x01') { // a missing dict key's repr (runtime/Dicts.cpp)
    PyObject *globals = Py_BuildValue("{s:{}}", "__builtins__");
    PyObject *names = Py_BuildValue("{s:d,s:d}", "nan", std::nan(""), "inf", HUGE_VAL);
    PyObject *key =
        globals && names ? PyRun_String(message + 1, Py_eval_input, globals, names) : nullptr;
    Py_XDECREF(globals);
    Py_XDECREF(names);
    if (!key)
      return nullptr;
    PyObject *arguments = PyTuple_Pack(1, key);
    Py_DECREF(key);
    return arguments;
  }
  PyObject *text = PyUnicode_FromString(message);
  PyObject *arguments = text ? PyTuple_Pack(1, text) : nullptr;
  Py_XDECREF(text);
  return arguments;
}

/// e.args for compiled code: the arguments, unboxed as the tuple of the descriptor's types.
int32_t caughtArguments(int32_t id, const char *message, const char *descriptor, void *result) {
  PyGILState_STATE state = PyGILState_Ensure();
  std::vector<const Type *> elements;
  const char *cursor = descriptor;
  while (const Type *element = describedType(cursor))
    elements.push_back(element);
  const Type *tuple = types::tuple(elements);
  int32_t status = 0;
  PyObject *arguments = argumentsOf(id, message);
  if (!arguments) {
    status = pendFromPythonError();
  } else if (!unboxOwnedValue(arguments, tuple, result, tuple)) {
    PyErr_Clear();
    const Type *actual = typeOfValue(arguments);
    PyErr_Clear();
    std::string text = "e.args is " + utf8Of(arguments, true) + " (" +
                       (actual ? actual->name() : std::string("a tuple")) +
                       ") here, but the handler types it as " + tuple->name() +
                       ", the arguments of the raise statements of its try body";
    PyErr_SetString(PyExc_TypeError, text.c_str());
    status = pendFromPythonError();
  }
  Py_XDECREF(arguments);
  PyGILState_Release(state);
  return status;
}

} // namespace

bool restoreObjectModeException(const runtime::PendingException &pending) {
  KeptException *kept = findKept(pending.exceptionId, pending.message);
  if (!kept)
    return false;
  bool made = materialize(*kept);
  PyObject *exception = kept->exception;
  for (auto entry = keptExceptions.begin(); entry != keptExceptions.end(); ++entry)
    if (&*entry == kept) {
      keptExceptions.erase(entry);
      break;
    }
  if (!made)
    return false;
  PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exception)), exception);
  Py_DECREF(exception);
  return true;
}

bool objectModeExceptionText(int32_t id, const std::string &message, std::string &text) {
  KeptException *kept = findKept(id, message.c_str());
  if (!kept || !materialize(*kept))
    return false;
  text = utf8Of(kept->exception, false);
  return true;
}

CompiledCallState &enterCompiledCall() {
  CompiledCallState &state = callState;
  ++state.depth;
  return state;
}

void forgetKeptExceptions(CompiledCallState &state) {
  // The outermost call returned normally: what compiled code caught is over.
  state.mayHoldKept = false;
  std::deque<KeptException> kept = std::move(keptExceptions);
  keptExceptions.clear();
  for (KeptException &entry : kept) {
    Py_XDECREF(entry.exception);
    releaseKeptArguments(entry);
  }
}

void defineObjectModeBlocks(nb::module_ &module) {
  runtime::setObjectModeHook(runObjectModeBlock);
  runtime::setObjectModeSiteFinder(findObjectModeSiteByKey);
  runtime::setExceptionArgumentsHook(keepExceptionArguments);
  runtime::setCaughtArgumentsHook(caughtArguments);
  module.def(
      "register_objmode_block",
      [](nb::handle function, std::vector<std::string> outputNames, nb::list outputTypes,
         std::vector<std::string> inputNames, std::string where, std::string key) {
        ObjectModeBlock block;
        block.outputNames = std::move(outputNames);
        for (nb::handle type : outputTypes)
          block.outputTypes.push_back(nb::cast<TypeRef>(type).type);
        block.inputNames = std::move(inputNames);
        block.where = std::move(where);
        block.key = std::move(key);
        int id = registerObjectModeBlock(std::move(block));
        std::vector<PyObject *> &functions = blockFunctions();
        if (functions.size() < static_cast<size_t>(id))
          functions.resize(static_cast<size_t>(id), nullptr);
        functions[static_cast<size_t>(id - 1)] = function.inc_ref().ptr();
        return id;
      },
      nb::arg("function"), nb::arg("output_names"), nb::arg("output_types"), nb::arg("input_names"),
      nb::arg("where"), nb::arg("key") = "",
      "Registers a with objmode(...) block's function and declared outputs, and the key naming "
      "it in cached code; returns its id.");
}

} // namespace taipan::bindings
