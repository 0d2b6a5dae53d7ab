// builtins.compile, exec and eval, wrapped so that every code object they compile from text
// remembers that text (taipan.source_texts), where the front end finds exec'd functions' source.
//
// The wrappers are C functions, not Python ones, so that they add no frame: the originals they
// call see the caller's frame as their own caller's, so compile and exec inherit the caller's
// __future__ flags and exec/eval default to the caller's globals and locals exactly as before,
// and a traceback through exec'd code shows the same frames as without taipan.
#include "SourceTexts.h"

#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {

namespace {

using FastFunction = PyObject *(*)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

/// The original builtins; set once, kept for the process's life (the wrappers may run until it
/// ends).
PyObject *originalCompile = nullptr;
PyObject *originalExec = nullptr;
PyObject *originalEval = nullptr;

/// "<frozen ", the start of the filenames of Python's frozen modules (importlib's among them).
PyObject *frozenPrefix() {
  static PyObject *prefix = PyUnicode_InternFromString("<frozen ");
  return prefix;
}

bool isText(PyObject *object) {
  return PyUnicode_Check(object) || PyBytes_Check(object) || PyByteArray_Check(object);
}

/// The argument at `position` or passed by keyword as `name`, else nullptr (borrowed).
PyObject *argument(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, Py_ssize_t position,
                   const char *name) {
  if (position < nargs)
    return args[position];
  Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < keywords; ++i)
    if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), name) == 0)
      return args[nargs + i];
  return nullptr;
}

/// Each living code object compiled from text (nested ones included), by identity: a weak
/// reference to it and its text (both owned). The weak reference's callback forgets the entry
/// when the code object dies; `codeOfReference` finds the entry from the reference then.
std::unordered_map<PyObject *, std::pair<PyObject *, PyObject *>> texts;
std::unordered_map<PyObject *, PyObject *> codeOfReference;

void forgetEntry(PyObject *code) {
  auto found = texts.find(code);
  if (found == texts.end())
    return;
  auto [reference, text] = found->second;
  texts.erase(found);
  codeOfReference.erase(reference);
  Py_DECREF(text);
  Py_DECREF(reference); // as a WeakKeyDictionary drops its key: the callback holds no more use
}

PyObject *forget(PyObject *, PyObject *reference) {
  auto found = codeOfReference.find(reference);
  if (found != codeOfReference.end())
    forgetEntry(found->second);
  Py_RETURN_NONE;
}

PyMethodDef forgetDefinition = {"forget_source_text", forget, METH_O, nullptr};
PyObject *forgetCallback = nullptr;

/// Remembers `text` as the source of `code` and of the code objects nested in it. Remembering
/// is best effort: an error in it (memory) must not change what the user's compile or exec
/// does, so it is dropped (the front end then reports the function's text as not available).
void remember(PyObject *code, PyObject *text) {
  if (!PyCode_Check(code))
    return;
  nb::object kept = PyByteArray_Check(text) ? nb::steal(PyBytes_FromObject(text)) // mutable
                                            : nb::borrow(text);
  if (!kept.is_valid()) {
    PyErr_Clear();
    return;
  }
  std::vector<PyObject *> pending{code};
  while (!pending.empty()) {
    PyObject *current = pending.back();
    pending.pop_back();
    forgetEntry(current);
    PyObject *reference = PyWeakref_NewRef(current, forgetCallback);
    if (!reference) {
      PyErr_Clear();
      return;
    }
    texts[current] = {reference, nb::object(kept).release().ptr()};
    codeOfReference[reference] = current;
    PyObject *constants = reinterpret_cast<PyCodeObject *>(current)->co_consts;
    for (Py_ssize_t i = 0, n = PyTuple_GET_SIZE(constants); i < n; ++i)
      if (PyCode_Check(PyTuple_GET_ITEM(constants, i)))
        pending.push_back(PyTuple_GET_ITEM(constants, i));
  }
}

/// The text `code` was compiled from by compile, exec or eval (str or bytes), or the syntax
/// tree compile compiled it from, or None.
nb::object sourceText(nb::handle code) {
  auto found = texts.find(code.ptr());
  if (found == texts.end() || PyWeakref_GetObject(found->second.first) != code.ptr())
    return nb::none();
  return nb::borrow(found->second.second);
}

/// Whether the caller is Python's import system (importlib and zipimport, frozen modules),
/// compiling a module's file: its functions' text is the file's, read as ever, and keeping every
/// imported module's text alive would cost memory and import time for nothing.
bool calledByImportSystem() {
  PyFrameObject *frame = PyEval_GetFrame(); // borrowed
  if (!frame)
    return false;
  PyCodeObject *code = PyFrame_GetCode(frame);
  bool frozen = PyUnicode_Check(code->co_filename) &&
                PyUnicode_Tailmatch(code->co_filename, frozenPrefix(), 0, 8, -1) == 1;
  Py_DECREF(code);
  return frozen;
}

/// Whether `object` is a syntax tree (an ast.Module, ast.Interactive...): code compiled from
/// one (numbagg builds functions so) keeps the tree, which the front end reads as it reads text.
bool isSyntaxTree(PyObject *object) {
  static PyObject *treeClass = [] {
    PyObject *module = PyImport_ImportModule("_ast");
    PyObject *found = module ? PyObject_GetAttrString(module, "mod") : nullptr;
    Py_XDECREF(module);
    if (!found)
      PyErr_Clear();
    return found;
  }();
  if (!treeClass)
    return false;
  int result = PyObject_IsInstance(object, treeClass);
  if (result < 0)
    PyErr_Clear();
  return result == 1;
}

PyObject *recordingCompile(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  // The original does all the work (its flag inheritance reads the caller's frame: there is no
  // frame of ours in between); the wrapper only looks at what it returns.
  PyObject *code = PyObject_Vectorcall(originalCompile, args, nargs, kwnames);
  PyObject *source = argument(args, nargs, kwnames, 0, "source");
  if (code && source && (isText(source) || isSyntaxTree(source)) && !calledByImportSystem())
    remember(code, source);
  return code;
}

/// Whether exec or eval would accept these namespaces; when not, the original is called with
/// the text, so its error comes first, as it does without the wrapper.
bool plainNamespaces(PyObject *globals, PyObject *locals) {
  return (!globals || globals == Py_None || PyDict_Check(globals)) &&
         (!locals || locals == Py_None || PyMapping_Check(locals));
}

/// exec(text, ...) or eval(text, ...): compiles the text as the original would (same filename,
/// mode and inherited flags; eval strips leading spaces and tabs first, as eval does), remembers
/// the code and runs it with the call's other arguments unchanged.
PyObject *runText(PyObject *original, const char *mode, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames) {
  PyObject *source = nargs > 0 ? args[0] : nullptr;
  PyObject *globals = argument(args, nargs, kwnames, 1, "globals");
  PyObject *locals = argument(args, nargs, kwnames, 2, "locals");
  PyObject *closure = argument(args, nargs, kwnames, 3, "closure");
  if (!source || !isText(source) || (closure && closure != Py_None) ||
      !plainNamespaces(globals, locals))
    return PyObject_Vectorcall(original, args, nargs, kwnames);
  nb::object text = nb::borrow(source);
  if (std::string_view(mode) == "eval") {
    if (PyUnicode_Check(source)) {
      text = nb::steal(PyObject_CallMethod(source, "lstrip", "s", " \t"));
    } else {
      nb::object bytes = nb::steal(PyBytes_FromObject(source));
      text = bytes.is_valid() ? nb::steal(PyObject_CallMethod(bytes.ptr(), "lstrip", "y", " \t"))
                              : nb::object();
    }
    if (!text.is_valid())
      return nullptr;
  }
  PyObject *code = PyObject_CallFunction(originalCompile, "Oss", text.ptr(), "<string>", mode);
  if (!code)
    return nullptr;
  remember(code, text.ptr());
  // The same call with the code object in the text's place.
  Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  PyObject *small[8];
  if (total > 8) {
    Py_DECREF(code);
    return PyObject_Vectorcall(original, args, nargs, kwnames);
  }
  small[0] = code;
  for (Py_ssize_t i = 1; i < total; ++i)
    small[i] = args[i];
  PyObject *result = PyObject_Vectorcall(original, small, nargs, kwnames);
  Py_DECREF(code);
  return result;
}

PyObject *recordingExec(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  return runText(originalExec, "exec", args, nargs, kwnames);
}

PyObject *recordingEval(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  return runText(originalEval, "eval", args, nargs, kwnames);
}

/// A method definition named and documented as the original (its doc keeps the signature line
/// inspect.signature reads); the strings live as long as the process.
PyMethodDef *definitionLike(PyObject *original, FastFunction function) {
  nb::handle object(original);
  std::string name = nb::cast<std::string>(object.attr("__name__"));
  nb::object signature = nb::getattr(object, "__text_signature__", nb::none());
  nb::object doc = nb::getattr(object, "__doc__", nb::none());
  std::string text;
  if (!signature.is_none())
    text = name + nb::cast<std::string>(signature) + "\n--\n\n";
  if (!doc.is_none())
    text += nb::cast<std::string>(doc);
  auto *definition = new PyMethodDef{};
  definition->ml_name = (new std::string(name))->c_str();
  definition->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(function));
  definition->ml_flags = METH_FASTCALL | METH_KEYWORDS;
  definition->ml_doc = (new std::string(text))->c_str();
  return definition;
}

/// Replaces builtins.compile, exec and eval (once per process).
void install() {
  if (originalCompile)
    return;
  nb::module_ builtins = nb::module_::import_("builtins");
  forgetCallback = PyCFunction_NewEx(&forgetDefinition, nullptr, nullptr);
  if (!forgetCallback)
    throw nb::python_error();
  originalCompile = nb::object(builtins.attr("compile")).release().ptr();
  originalExec = nb::object(builtins.attr("exec")).release().ptr();
  originalEval = nb::object(builtins.attr("eval")).release().ptr();
  nb::object moduleName = nb::str("builtins");
  auto replace = [&](PyObject *original, FastFunction function) {
    PyMethodDef *definition = definitionLike(original, function);
    nb::object wrapper = nb::steal(PyCFunction_NewEx(definition, builtins.ptr(), moduleName.ptr()));
    if (!wrapper.is_valid())
      throw nb::python_error();
    builtins.attr(definition->ml_name) = wrapper;
  };
  replace(originalCompile, recordingCompile);
  replace(originalExec, recordingExec);
  replace(originalEval, recordingEval);
}

/// `ast.parse`'s code object: a thread with it on its stack may be inside CPython's AST
/// constructor, suspended while its garbage collection runs a finalizer (Python code).
PyObject *astParseCode() {
  static PyObject *code = [] {
    nb::object parse = nb::module_::import_("ast").attr("parse");
    return nb::object(parse.attr("__code__")).release().ptr();
  }();
  return code;
}

/// Whether a thread other than this one is inside ast.parse (called with the GIL held and the
/// collector off: reading another thread's frames makes frame objects).
bool anotherThreadParses() {
  PyThreadState *self = PyThreadState_Get();
  PyInterpreterState *interpreter = PyThreadState_GetInterpreter(self);
  for (PyThreadState *thread = PyInterpreterState_ThreadHead(interpreter); thread;
       thread = PyThreadState_Next(thread)) {
    if (thread == self)
      continue;
    PyFrameObject *frame = PyThreadState_GetFrame(thread); // new references from here on
    while (frame) {
      PyCodeObject *code = PyFrame_GetCode(frame);
      bool parsing = reinterpret_cast<PyObject *>(code) == astParseCode();
      Py_DECREF(code);
      PyFrameObject *back = parsing ? nullptr : PyFrame_GetBack(frame);
      Py_DECREF(frame);
      if (parsing)
        return true;
      frame = back;
    }
  }
  return false;
}

/// builtins.compile(source, filename, mode, flags, dont_inherit=True), run so that it cannot
/// break another thread's: CPython 3.11 counts the depth of the AST it converts (to a tree
/// with ast.parse, from one when compiling a tree) in one interpreter-wide counter, so a
/// conversion started while another thread's is suspended makes that one fail ("AST
/// constructor recursion depth mismatch"). A thread is suspended in the middle of one only
/// when Python code runs there, that is when its allocations start a collection that runs
/// finalizers. So this waits (a bounded while: a suspended finalizer might wait for this
/// thread) until no other thread is inside ast.parse, and then converts with the collector
/// off, holding the GIL from the check to the end: nothing runs Python code in between.
nb::object compileExclusively(nb::object source, nb::object filename, nb::object mode, int flags) {
  astParseCode();
  PyObject *compile =
      originalCompile ? originalCompile : PyDict_GetItemString(PyEval_GetBuiltins(), "compile");
  constexpr int MaximumWaits = 20000; // 50 microseconds each: one second
  for (int wait = 0;; ++wait) {
    int collecting = PyGC_Disable();
    if (wait == MaximumWaits || !anotherThreadParses()) {
      PyObject *result = PyObject_CallFunction(compile, "OOOii", source.ptr(), filename.ptr(),
                                               mode.ptr(), flags, 1);
      if (collecting)
        PyGC_Enable();
      if (!result)
        throw nb::python_error();
      return nb::steal(result);
    }
    if (collecting)
      PyGC_Enable();
    Py_BEGIN_ALLOW_THREADS;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    Py_END_ALLOW_THREADS;
  }
}

} // namespace

void defineSourceTextBindings(nb::module_ &module) {
  module.def("compile_exclusively", &compileExclusively, nb::arg("source"), nb::arg("filename"),
             nb::arg("mode"), nb::arg("flags"),
             "compile(source, filename, mode, flags, dont_inherit=True), never while another "
             "thread may be inside CPython's AST constructor (see SourceTexts.cpp).");
  module.def("install_source_recorder", &install,
             "Wraps builtins.compile, exec and eval so that each code object compiled from text "
             "remembers it (source_text).");
  module.def("source_text", &sourceText,
             "The text (str or bytes) or syntax tree (ast.mod) a living code object was "
             "compiled from by compile, exec or eval, or None.");
}

} // namespace taipan::bindings
